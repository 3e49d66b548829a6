import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort, runChecked, startService, waitUntilAnswering, type Service } from './processes.js';
import { WORK_DIR } from './options.js';
import { FILTER_VALUES } from './scenarios.js';

// 2.61 is the last line that runs on Node 20 (3.x needs Node 22).
const PACKAGE = '@platformatic/db@2.61';
const PLATFORMATIC_DIR = join(WORK_DIR, 'platformatic');
const ENTRY = join(PLATFORMATIC_DIR, 'node_modules', '@platformatic', 'db', 'db.mjs');
const CONFIG_FILE = join(PLATFORMATIC_DIR, 'platformatic.db.json');
const ROUTE = '/fundingRounds';

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

/** Write routes of the entity, removed so the service is read-only like the API it is compared with. */
function writeRoutes(): { method: string; path: string }[] {
  const byId = `${ROUTE}/{id}`;
  return [
    { method: 'POST', path: ROUTE },
    { method: 'PUT', path: ROUTE },
    { method: 'POST', path: byId },
    { method: 'PUT', path: byId },
    { method: 'DELETE', path: byId },
  ];
}

function writeConfig(version: string, databaseUrl: string, port: number, poolSize: number): void {
  const config = {
    $schema: `https://schemas.platformatic.dev/@platformatic/db/${version}.json`,
    server: { hostname: '127.0.0.1', port, logger: { level: 'warn' } },
    db: {
      connectionString: databaseUrl,
      poolSize,
      include: { funding_rounds: true },
      graphql: false,
      openapi: { ignoreRoutes: writeRoutes() },
      events: false,
      schemalock: false,
    },
    types: { autogenerate: false },
    watch: false,
  };
  writeFileSync(CONFIG_FILE, JSON.stringify(config, null, 2) + '\n');
}

export async function startPlatformatic(version: string, databaseUrl: string, poolSize: number): Promise<Service> {
  const port = await freePort();
  writeConfig(version, databaseUrl, port, poolSize);
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
