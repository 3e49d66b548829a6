import { createHash, randomBytes, type Hash } from 'node:crypto';
import { once } from 'node:events';
import { readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildApp, type AppOptions } from '../src/app.js';
import { loadConfig, type Config, type Tier } from '../src/config.js';
import { migrate } from '../src/platform/db/migrate.js';
import { openPglite, pgliteSnapshot } from '../src/platform/db/pglite.js';
import { openPostgres } from '../src/platform/db/postgres.js';
import type { Database } from '../src/platform/db/port.js';
import { DATASETS } from '../src/catalog/registry.js';
import { createRedisClient, RedisRateLimitStore } from '../src/platform/infra/redis-rate-limit-store.js';
import { createApiKey } from '../src/accounts/api-keys.js';

export interface Backend {
  name: 'pglite' | 'postgres';
  /** A reason to skip, reported by the runner, when the server is not configured. */
  skip: string | false;
  /** A new, empty store. */
  open(): Promise<Database>;
  /** A new store with every migration applied (what startApp serves from). */
  openMigrated(): Promise<Database>;
}

/**
 * A migrated embedded store, as a dump of its data directory, made once per version of the
 * migrations and kept in the temporary folder for every test process: a store opened from it skips
 * creating a cluster and running the migrations (3 to 5 s of WASM work, once per suite otherwise).
 */
let migratedTemplate: Promise<Blob> | undefined;
function migratedPgliteTemplate(): Promise<Blob> {
  migratedTemplate ??= pgliteDump(
    'dealsignal-test-store-',
    (hash) => {
      const migrations = new URL('../migrations/', import.meta.url);
      for (const name of readdirSync(migrations).sort()) hash.update(name).update(readFileSync(new URL(name, migrations)));
    },
    migrate,
  );
  return migratedTemplate;
}

/**
 * An embedded store prepared by `prepare`, as a dump of its data directory kept in the temporary
 * folder for every test process, named `prefix` and a hash of what `describe` adds to it and of the
 * PGlite version (a dump is read by the PGlite that made it): made once, then opened as a copy.
 */
export async function pgliteDump(
  prefix: string,
  describe: (hash: Hash) => void,
  prepare: (db: Database) => Promise<unknown>,
): Promise<Blob> {
  const hash = createHash('sha256');
  hash.update(readFileSync(new URL('../node_modules/@electric-sql/pglite/package.json', import.meta.url)));
  describe(hash);
  const file = join(tmpdir(), `${prefix}${hash.digest('hex').slice(0, 16)}.tar`);
  try {
    return new Blob([readFileSync(file)]);
  } catch {
    const snapshot = await pgliteSnapshot(async (db) => {
      await prepare(db);
    });
    // Written aside, then renamed: a process reading it meanwhile never sees half a file.
    const partial = `${file}.${process.pid}`;
    writeFileSync(partial, Buffer.from(await snapshot.arrayBuffer()));
    renameSync(partial, file);
    // Whole dumps of this kind made from other inputs are never read again: removed (another
    // process's partial one, named .tar.<pid>, is left to it).
    for (const other of readdirSync(tmpdir())) {
      const whole = other.startsWith(prefix) && other.endsWith('.tar');
      if (whole && join(tmpdir(), other) !== file) rmSync(join(tmpdir(), other), { force: true });
    }
    return snapshot;
  }
}

const DATABASE_URL = process.env.DATABASE_URL;

/** Why a suite that needs PostgreSQL cannot run here, or false when it can. */
export const needsPostgres: string | false = DATABASE_URL ? false : 'DATABASE_URL is not set';
/** Why a suite that needs Redis cannot run here, or false when it can. */
export const needsRedis: string | false = process.env.REDIS_URL ? false : 'REDIS_URL is not set';

/**
 * TEST_STORES=pglite or =postgres runs the suites of that store only (npm run mutate times each
 * store); TEST_STORES=pglite,postgres runs every suite on both, those of describeOnOneStore too.
 */
const ONLY_STORES = process.env.TEST_STORES?.split(',').map((name) => name.trim());

/**
 * Every suite runs on the embedded store, and on PostgreSQL when DATABASE_URL is set (a store left
 * out by TEST_STORES is skipped, with the reason). Each PostgreSQL suite gets a schema of its own,
 * so test files can run in parallel.
 */
export function backends(): Backend[] {
  const all: Backend[] = [
    {
      name: 'pglite',
      skip: false,
      open: () => openPglite(undefined),
      openMigrated: async () => openPglite(undefined, { from: await migratedPgliteTemplate() }),
    },
    {
      name: 'postgres',
      skip: needsPostgres,
      async open() {
        const { schema, drop } = await freshSchema();
        const db = await openPostgres({ connectionString: DATABASE_URL!, poolSize: 8, schema });
        return {
          ...db,
          async close() {
            await db.close();
            await drop();
          },
        };
      },
      async openMigrated() {
        const db = await this.open();
        await migrate(db);
        return db;
      },
    },
  ];
  if (!ONLY_STORES) return all;
  return all.map((backend) =>
    ONLY_STORES.includes(backend.name) || backend.skip ? backend : { ...backend, skip: `TEST_STORES=${ONLY_STORES.join(',')}` },
  );
}

/**
 * The one store a suite about the HTTP surfaces runs on (accounts and their pages, the docs and
 * their examples, the client, MCP, limits, load shedding, probes, errors and parameter parsing, the
 * answers against the published schemas, the benchmark's request lists): PostgreSQL when
 * DATABASE_URL is set, else the embedded store. What
 * they store goes through the same SQL on both stores, which the data suites (lists, lookups,
 * ingest, the change log, the feed, webhooks, migrations) test on both; running these twice doubled
 * the run for no other code. TEST_STORES naming both stores runs them on both; the other store is
 * reported as skipped, with the reason.
 */
export function oneStore(): Backend[] {
  const all = backends();
  if (ONLY_STORES && ONLY_STORES.length > 1) return all;
  const chosen = all.find((backend) => backend.name === 'postgres' && !backend.skip) ?? all.find((backend) => !backend.skip);
  return all.map((backend) =>
    backend === chosen || backend.skip
      ? backend
      : {
          ...backend,
          skip: `a suite of the HTTP surfaces runs on one store, ${chosen?.name} (TEST_STORES=pglite,postgres runs both)`,
        },
  );
}

/** describeEach over oneStore(): the suite on one store, the other reported as skipped. */
export function describeOnOneStore(title: string, fn: (backend: Backend) => void): void {
  for (const backend of oneStore()) describeNeeding(`${title} [${backend.name}]`, backend.name, backend.skip, () => fn(backend));
}

/**
 * describe() per backend. A backend without its server registers one skipped test, so the
 * run's summary counts it as skipped, never as passed.
 */
export function describeEach(title: string, fn: (backend: Backend) => void): void {
  for (const backend of backends()) describeNeeding(`${title} [${backend.name}]`, backend.name, backend.skip, () => fn(backend));
}

/**
 * describe() for a suite that needs a server (PostgreSQL, Redis). Without it, the suite registers
 * one skipped test instead, so the run's summary counts it as skipped, never as passed or absent
 * (a skipped describe() alone adds nothing to that count).
 */
export function describeNeeding(title: string, server: string, skip: string | false, fn: () => void): void {
  if (skip) describe(title, () => it(`needs ${server}`, { skip }, () => undefined));
  else describe(title, fn);
}

/** A new, empty PostgreSQL schema (requires DATABASE_URL) and a way to drop it. */
export async function freshSchema(): Promise<{ schema: string; drop(): Promise<void> }> {
  const schema = `test_${randomBytes(6).toString('hex')}`;
  const admin = await openPostgres({ connectionString: DATABASE_URL!, poolSize: 1 });
  await admin.exec(`CREATE SCHEMA ${schema}`);
  await admin.close();
  return {
    schema,
    async drop() {
      const dropper = await openPostgres({ connectionString: DATABASE_URL!, poolSize: 1 });
      await dropper.exec(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).catch(() => undefined);
      await dropper.close();
    },
  };
}

export function testConfig(env: Record<string, string> = {}): Config {
  // Rate limits are off unless a test is about them, so functional tests can make many calls.
  return loadConfig({
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    PORT: '0',
    KEY_CACHE_MS: '1000',
    RATE_LIMITS: 'false',
    // Test files share one client IP (and, with REDIS_URL, one Redis), so their 401 cases would add up.
    AUTH_FAILURE_LIMITS: 'false',
    // Opening an embedded store stalls the event loop; only the load-shedding test wants shedding.
    LOAD_SHED_EVENT_LOOP_DELAY_MS: '0',
    // Webhook suites switch delivery on; elsewhere it would only poll the change log.
    WEBHOOK_DELIVERY: 'false',
    // Enrichment suites switch the worker on; elsewhere it would only poll for jobs.
    ENRICHMENT_WORKER: 'false',
    SESSION_SECRET: 'test-session-secret-0123456789abcdef',
    ...env,
  });
}

export interface TestContext {
  db: Database;
  app: FastifyInstance;
  config: Config;
  close(): Promise<void>;
}

export async function startApp(
  backend: Backend,
  env: Record<string, string> = {},
  options: Partial<AppOptions> = {},
): Promise<TestContext> {
  const db = await backend.openMigrated();
  const config = testConfig(env);
  const app = await buildApp({ config, db, ...options });
  await app.ready();
  return testContext(db, app, config);
}

/**
 * The context of an app on db, for startApp and for suites that open the store or build the app
 * their own way: close() closes the app, then the store, then runs `andThen` (more to release).
 */
export function testContext(
  db: Database,
  app: FastifyInstance,
  config: Config,
  andThen: () => Promise<void> = async () => undefined,
): TestContext {
  return {
    db,
    app,
    config,
    async close() {
      await app.close();
      await db.close();
      await andThen();
    },
  };
}

export async function makeKey(db: Database, tier: Tier = 'pro', email = `user-${randomBytes(4).toString('hex')}@example.com`) {
  return createApiKey(db, { email, tier });
}

/** Empties the data tables between tests (accounts and keys are kept). */
export async function clearData(db: Database): Promise<void> {
  await db.exec(DATASETS.map((dataset) => `DELETE FROM ${dataset.table};`).join(' '));
}

/**
 * A rate-limit store on the shared Redis (REDIS_URL) under a prefix of its own, for tests that count
 * exactly across instances. Its command timeout is long on purpose: the rate-limit test's
 * `CLIENT PAUSE … WRITE` (1.5 s) stops every client's writes on that Redis, and a test running beside
 * it must wait the pause out rather than see its check fail (the app's own store falls back to memory
 * then; a test counting on Redis must not).
 */
export async function sharedRedisRateLimitStore(url: string): Promise<{ store: RedisRateLimitStore; close(): Promise<void> }> {
  const client = createRedisClient({ url, commandTimeoutMs: 10_000 });
  client.on('error', () => undefined);
  // No offline queue: a command sent before the connection is up would fail.
  await once(client, 'ready');
  const store = new RedisRateLimitStore(client, `test:${randomBytes(6).toString('hex')}:`);
  return { store, close: () => store.close() };
}
