import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// Dependencies point one way: routes → services (and the datasets) → db. A module may import
// from its own layer and the layers below it, never from one above; these patterns name, per
// folder, the imports that would point back up.
const ABOVE_SERVICES = '(^|/)(http|routes|cli|web)/|(^|/)(app|server|dependencies)\\.js$';
const layer = (message, regex) => ({ 'no-restricted-imports': ['error', { patterns: [{ regex, message }] }] });

// Code shapes refused in some folders. (ESLint keeps one setting per rule, so each folder's
// entry below lists every shape that applies to it.)
const AS_NEVER = {
  selector: 'TSAsExpression > TSNeverKeyword',
  message: '`as never` hides a type mismatch; type the value instead (see src/datasets/dataset.ts).',
};
const SQL = /\b(SELECT|INSERT INTO|UPDATE|DELETE FROM|VACUUM|ANALYZE|SET LOCAL)\s/.source;
const SQL_TEXT = [
  { selector: `Literal[value=/${SQL}/]`, message: 'SQL lives in src/db/: call a function of src/db/queries instead.' },
  {
    selector: `TemplateElement[value.raw=/${SQL}/]`,
    message: 'SQL lives in src/db/: call a function of src/db/queries instead.',
  },
];
const QUERY_CAST = {
  selector: 'TSAsExpression > TSTypeReference > Identifier[name=/Query$/]',
  message: 'The route schema types request.query (withTypeProvider<TypeBoxTypeProvider>()); do not cast it.',
};
const refuse = (...shapes) => ({ 'no-restricted-syntax': ['error', ...shapes] });

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
  { files: ['src/**/*.ts'], ignores: ['src/db/**'], rules: refuse(AS_NEVER, ...SQL_TEXT) },
  { files: ['src/routes/**/*.ts'], rules: refuse(AS_NEVER, ...SQL_TEXT, QUERY_CAST) },
  {
    files: ['src/db/**/*.ts'],
    rules: layer(
      'db/ is the bottom layer: it imports nothing from the datasets, services, HTTP or routes.',
      `(^|/)(datasets|services|infra)/|${ABOVE_SERVICES}`,
    ),
  },
  {
    files: ['src/services/**/*.ts', 'src/datasets/**/*.ts', 'src/infra/**/*.ts'],
    rules: layer(
      'services, datasets and infra are framework-free: they import nothing from HTTP, routes, the CLI or the app.',
      ABOVE_SERVICES,
    ),
  },
  {
    files: ['src/schemas/**/*.ts'],
    rules: layer('schemas/ imports only TypeBox and other schemas.', '^(?!@sinclair/typebox(/|$)|\\./)'),
  },
  {
    files: ['src/http/**/*.ts'],
    rules: layer(
      'http/ holds cross-cutting plugins: it imports no route and not the app.',
      '(^|/)routes/|(^|/)(app|server)\\.js$',
    ),
  },
  {
    files: ['src/routes/**/*.ts'],
    rules: layer(
      'Routes get their dependencies through plugin options (src/dependencies.ts), never from the app.',
      '(^|/)(app|server)\\.js$',
    ),
  },
);
