import type { Queryable } from '../src/platform/db/port.js';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort, runChecked, startService, waitUntilAnswering, type Service } from './processes.js';
import { countryKey } from '../src/catalog/countries.js';
import { labelKey } from '../src/catalog/normalize.js';
import { WORK_DIR } from './options.js';
import type { V1Filter } from './realistic-paths.js';
import { FILTER_VALUES } from './scenarios.js';

// 2.61 is the last line that runs on Node 20 (3.x needs Node 22).
const PACKAGE = '@platformatic/db@2.61';
const PLATFORMATIC_DIR = join(WORK_DIR, 'platformatic');
const ENTRY = join(PLATFORMATIC_DIR, 'node_modules', '@platformatic', 'db', 'db.mjs');
const CONFIG_FILE = join(PLATFORMATIC_DIR, 'platformatic.db.json');
const ROUTE = '/fundingRounds';
/** The generated API's route of each table it may serve. */
const ROUTES: Record<string, string> = { funding_rounds: ROUTE, ma_deals: '/maDeals' };

function installedVersion(): string | undefined {
  try {
    const manifest = join(PLATFORMATIC_DIR, 'node_modules', '@platformatic', 'db', 'package.json');
    return (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version;
  } catch {
    return undefined;
  }
}

/** Installs into a scratch folder, never into the project, and reuses an earlier install. */
export function ensurePlatformatic(): string {
  const existing = installedVersion();
  if (existing?.startsWith('2.61.') && existsSync(ENTRY)) return existing;
  console.log(`installing ${PACKAGE} into ${PLATFORMATIC_DIR} ...`);
  mkdirSync(PLATFORMATIC_DIR, { recursive: true });
  const manifest = join(PLATFORMATIC_DIR, 'package.json');
  if (!existsSync(manifest)) writeFileSync(manifest, JSON.stringify({ name: 'bench-platformatic', private: true }, null, 2));
  runChecked('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', PACKAGE], { cwd: PLATFORMATIC_DIR, quiet: true });
  const installed = installedVersion();
  if (!installed) throw new Error(`${PACKAGE} did not install`);
  return installed;
}

/** Write routes of an entity, removed so the service is read-only like the API it is compared with. */
function writeRoutes(route: string): { method: string; path: string }[] {
  const byId = `${route}/{id}`;
  return [
    { method: 'POST', path: route },
    { method: 'PUT', path: route },
    { method: 'POST', path: byId },
    { method: 'PUT', path: byId },
    { method: 'DELETE', path: byId },
  ];
}

function writeConfig(version: string, databaseUrl: string, port: number, poolSize: number, tables: string[]): void {
  const config = {
    $schema: `https://schemas.platformatic.dev/@platformatic/db/${version}.json`,
    server: { hostname: '127.0.0.1', port, logger: { level: 'warn' } },
    db: {
      connectionString: databaseUrl,
      poolSize,
      include: Object.fromEntries(tables.map((table) => [table, true])),
      graphql: false,
      openapi: { ignoreRoutes: tables.flatMap((table) => writeRoutes(ROUTES[table]!)) },
      events: false,
      schemalock: false,
    },
    types: { autogenerate: false },
    watch: false,
  };
  writeFileSync(CONFIG_FILE, JSON.stringify(config, null, 2) + '\n');
}

export async function startPlatformatic(
  version: string,
  databaseUrl: string,
  poolSize: number,
  tables: (keyof typeof ROUTES)[] = ['funding_rounds'],
): Promise<Service> {
  const port = await freePort();
  writeConfig(version, databaseUrl, port, poolSize, tables);
  const service = startService('platformatic', process.execPath, [ENTRY, 'start', '-c', CONFIG_FILE], {
    cwd: PLATFORMATIC_DIR,
    env: { ...process.env, PLT_TELEMETRY: 'false' },
    baseUrl: `http://127.0.0.1:${port}`,
  });
  await waitUntilAnswering(service, `${ROUTE}?limit=1`, 120_000);
  return service;
}

/**
 * The nearest expression of scenario b in the generated REST API. The category overlap
 * (category_keys && ARRAY['fintech']) has no operator there: `any` gives 'fintech' =
 * ANY(category_keys), the same rows for one category, though no index serves it.
 */
export function platformaticFilteredPath(query: { date_from: string; date_to: string }): string {
  const before = new Date(Date.parse(`${query.date_to}T00:00:00Z`) + 86_400_000).toISOString();
  const params = new URLSearchParams([
    ['where.categoryKeys.any', FILTER_VALUES.category],
    ['where.countryKey.eq', FILTER_VALUES.country.toLowerCase()],
    ['where.sortAt.gte', `${query.date_from}T00:00:00.000Z`],
    ['where.sortAt.lt', before],
    ['where.fundingAmount.gte', String(FILTER_VALUES.minAmount)],
    ['orderby.sortAt', 'desc'],
    ['orderby.id', 'desc'],
    ['fields', 'doc'],
    ['limit', '20'],
  ]);
  return `${ROUTE}?${params.toString()}`;
}

/**
 * A v1 funding or M&A filter and page in the generated REST API, on the columns the API's own
 * filters use, 20 documents a page in the same order; `totalCount` asks it for X-Total-Count too.
 * Array columns have only `any` there: several categories become an OR of `any`s.
 */
export function platformaticV1Path(filter: V1Filter, page: number, totalCount: boolean): string {
  const funding = filter.dataset === 'funding';
  const params: [string, string][] = [];
  const categories = (filter.category ?? []).map(labelKey);
  if (categories.length === 1) params.push(['where.categoryKeys.any', categories[0]!]);
  if (categories.length > 1) params.push(['where.or', `(${categories.map((c) => `categoryKeys.any=${c}`).join('|')})`]);
  if (filter.country !== undefined) params.push(['where.countryKey.eq', countryKey(filter.country)!]);
  if (filter.round) params.push(['where.roundKey.in', filter.round.map(labelKey).join(',')]);
  if (filter.amount !== undefined)
    params.push([`where.${funding ? 'fundingAmount' : 'acquisitionAmount'}.gte`, String(filter.amount)]);
  if (filter.dateFrom) params.push(['where.sortAt.gte', `${filter.dateFrom}T00:00:00.000Z`]);
  if (filter.status) params.push(['where.status.eq', filter.status]);
  // acquirer_key is the lower-cased acquirer name; the words drawn are letters and digits only.
  if (filter.acquirer) params.push(['where.acquirerKey.like', `%${filter.acquirer.toLowerCase()}%`]);
  params.push(['orderby.sortAt', 'desc'], ['orderby.id', 'desc'], ['fields', 'doc'], ['limit', '20']);
  if (page > 1) params.push(['offset', String((page - 1) * 20)]);
  if (totalCount) params.push(['totalCount', 'true']);
  const query = params.map(([name, value]) => `${name}=${encodeURIComponent(value)}`).join('&');
  return `${funding ? ROUTE : ROUTES.ma_deals}?${query}`;
}

/**
 * The indexes a SQL-backed API needs for the v1 filters, as dealsignal kept them before it answered
 * filters from memory (migration 001; dropped by 009): the peer reads through them, and without them
 * each of its pages would scan and sort the table. Created for the peer's run and dropped after it.
 */
const PEER_INDEXES = [
  'peer_funding_recent ON funding_rounds (sort_at DESC, id DESC)',
  'peer_funding_country_recent ON funding_rounds (country_key, sort_at DESC, id DESC)',
  'peer_funding_round_recent ON funding_rounds (round_key, sort_at DESC, id DESC)',
  'peer_funding_categories ON funding_rounds USING gin (category_keys)',
  'peer_funding_website ON funding_rounds (website_key)',
  'peer_ma_recent ON ma_deals (sort_at DESC, id DESC)',
  'peer_ma_status_recent ON ma_deals (status, sort_at DESC, id DESC)',
  'peer_ma_country_recent ON ma_deals (country_key, sort_at DESC, id DESC)',
  'peer_ma_categories ON ma_deals USING gin (category_keys)',
  'peer_ma_acquirer_trgm ON ma_deals USING gin (acquirer_key gin_trgm_ops)',
];

export async function addPeerIndexes(db: Queryable): Promise<void> {
  for (const index of PEER_INDEXES) await db.query(`CREATE INDEX IF NOT EXISTS ${index}`);
  await db.query('ANALYZE funding_rounds');
  await db.query('ANALYZE ma_deals');
}

export async function dropPeerIndexes(db: Queryable): Promise<void> {
  for (const index of PEER_INDEXES) await db.query(`DROP INDEX IF EXISTS ${index.split(' ')[0]}`);
}
