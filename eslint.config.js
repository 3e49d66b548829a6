import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// One folder per capability over a pure catalog (docs/architecture.md):
//   catalog/    what the data is; imports only TypeBox and itself
//   platform/   db, http, infra, web: the framework and the outside systems; imports the catalog only
//   read/ ingest/ changes/ webhooks/ accounts/   the capabilities
//   families/   the v1, v2 and portal shells that mount the capabilities' routes
//   cli/ demo/  the command and the demo data (demo is imported by the CLI, start-up seeding and bench only)
// A folder imports another only through that folder's index.ts (platform: through db/, http/, infra/
// or web/index.ts), so what a capability offers the others is written in one place.
const UNITS = 'catalog|read|ingest|changes|webhooks|accounts|companies|platform/(?:db|http|infra|web)|families|cli|demo';
const CAPABILITIES = 'read|ingest|changes|webhooks|accounts|companies';
/** An import of a folder's module other than its index.ts (from a file one or more folders away). */
const PAST_INDEX = `^(\\.\\./)+(${UNITS})/(?!(.*/)?index\\.js$)|^\\./(${UNITS})/(?!(.*/)?index\\.js$)`;
// src/app-services.ts (what buildApp hands every plugin) is a type the capabilities may import; the app itself is not.
const upward = (folders) => `^(\\.\\./)+(${folders})/|^(\\.\\./)+(app|server)\\.js$`;
const imports = (...patterns) => ({ 'no-restricted-imports': ['error', { patterns }] });
const pattern = (regex, message) => ({ regex, message });
const THROUGH_INDEX = pattern(
  PAST_INDEX,
  "Import another folder only through its index.ts (add the name to that folder's index.ts).",
);
const layer = (message, regex) => imports(THROUGH_INDEX, pattern(regex, message));

// Code shapes refused in some folders. (ESLint keeps one setting per rule, so each folder's
// entry below lists every shape that applies to it.)
const AS_NEVER = {
  selector: 'TSAsExpression > TSNeverKeyword',
  message: '`as never` hides a type mismatch; type the value instead (see src/catalog/dataset.ts).',
};
const SQL = /\b(SELECT|INSERT INTO|UPDATE|DELETE FROM|VACUUM|ANALYZE|SET LOCAL)\s/.source;
const SQL_TEXT = [
  {
    selector: `Literal[value=/${SQL}/]`,
    message: "SQL lives in a capability's queries.ts (or NAME-queries.ts) and in src/platform/db/.",
  },
  {
    selector: `TemplateElement[value.raw=/${SQL}/]`,
    message: "SQL lives in a capability's queries.ts (or NAME-queries.ts) and in src/platform/db/.",
  },
];
const QUERY_CAST = {
  selector: 'TSAsExpression > TSTypeReference > Identifier[name=/Query$/]',
  message: 'The route schema types request.query (withTypeProvider<TypeBoxTypeProvider>()); do not cast it.',
};
const ROUTES_MOUNTED = [
  {
    selector: "CallExpression[callee.property.name='register'] > :matches(ArrowFunctionExpression, FunctionExpression)",
    message: 'Only src/app.ts and the family shells (src/families/) mount route plugins; export the routes from index.ts.',
  },
  {
    selector: "CallExpression[callee.property.name='register'] > Identifier[name=/Routes$/]",
    message: 'Only src/app.ts and the family shells (src/families/) mount route plugins; export the routes from index.ts.',
  },
];
const refuse = (...shapes) => ({ 'no-restricted-syntax': ['error', ...shapes] });
const QUERY_MODULES = ['src/**/queries.ts', 'src/**/*-queries.ts', 'src/platform/db/**'];

export default tseslint.config(
  { ignores: ['dist/', 'client/dist/', 'client/src/generated/', 'node_modules/', 'data/', 'bench/.work/', 'test-output/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly', setTimeout: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
  // (Tests may forge an impossible value on purpose, to see it refused.)
  { files: ['src/**/*.ts', 'bench/**/*.ts'], rules: refuse(AS_NEVER) },
  { files: ['src/**/*.ts'], ignores: QUERY_MODULES, rules: refuse(AS_NEVER, ...SQL_TEXT) },
  {
    files: [`src/{${CAPABILITIES.replaceAll('|', ',')}}/**/*.ts`],
    ignores: QUERY_MODULES,
    rules: refuse(AS_NEVER, ...SQL_TEXT, ...ROUTES_MOUNTED),
  },
  {
    files: ['src/**/routes.ts', 'src/**/*-routes.ts', 'src/families/**/*.ts'],
    rules: refuse(AS_NEVER, ...SQL_TEXT, QUERY_CAST, ...ROUTES_MOUNTED),
  },
  { files: ['src/families/**/*.ts'], rules: refuse(AS_NEVER, ...SQL_TEXT, QUERY_CAST) },
  { files: ['src/*.ts', 'src/{families,cli,demo}/**/*.ts'], rules: layer('(unused)', '^$') },
  {
    files: ['src/catalog/**/*.ts'],
    rules: layer(
      'catalog/ says what the data is: it imports only TypeBox, node: built-ins and itself.',
      '^(?!@sinclair/typebox(/|$)|node:|\\./|(\\.\\./)+(?!(\\.\\./)*(' + UNITS.replace('catalog|', '') + ')/))',
    ),
  },
  {
    files: ['src/platform/**/*.ts'],
    rules: layer(
      'platform/ carries the capabilities: it imports the catalog and itself, never a capability, the CLI or the app.',
      upward(`${CAPABILITIES}|families|cli|demo`),
    ),
  },
  {
    files: [`src/{${CAPABILITIES.replaceAll('|', ',')}}/**/*.ts`],
    rules: layer(
      'A capability imports the catalog, the platform and other capabilities, never the family shells, the CLI, the demo data or the app.',
      upward('families|cli|demo'),
    ),
  },
);
