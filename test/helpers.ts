import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildApp, type AppOptions } from '../src/app.js';
import { loadConfig, type Config, type Tier } from '../src/config.js';
import { migrate } from '../src/platform/db/migrate.js';
import { openPglite } from '../src/platform/db/pglite.js';
import { openPostgres } from '../src/platform/db/postgres.js';
import type { Database } from '../src/platform/db/port.js';
import { DATASETS } from '../src/catalog/registry.js';
import { createApiKey } from '../src/accounts/api-keys.js';

export interface Backend {
  name: 'pglite' | 'postgres';
  /** A reason to skip, reported by the runner, when the server is not configured. */
  skip: string | false;
  open(): Promise<Database>;
}

const DATABASE_URL = process.env.DATABASE_URL;

/** Why a suite that needs PostgreSQL cannot run here, or false when it can. */
export const needsPostgres: string | false = DATABASE_URL ? false : 'DATABASE_URL is not set';
/** Why a suite that needs Redis cannot run here, or false when it can. */
export const needsRedis: string | false = process.env.REDIS_URL ? false : 'REDIS_URL is not set';

/** TEST_STORES=pglite or =postgres runs the suites of that store only (npm run mutate times each store). */
const ONLY_STORES = process.env.TEST_STORES?.split(',').map((name) => name.trim());

/**
 * Every suite runs on the embedded store, and on PostgreSQL when DATABASE_URL is set (a store left
 * out by TEST_STORES is skipped, with the reason). Each PostgreSQL suite gets a schema of its own,
 * so test files can run in parallel.
 */
export function backends(): Backend[] {
  const all: Backend[] = [
    { name: 'pglite', skip: false, open: () => openPglite(undefined) },
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
    },
  ];
  if (!ONLY_STORES) return all;
  return all.map((backend) =>
    ONLY_STORES.includes(backend.name) || backend.skip ? backend : { ...backend, skip: `TEST_STORES=${ONLY_STORES.join(',')}` },
  );
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
    LOG_LEVEL: 'silent',
    PORT: '0',
    KEY_CACHE_MS: '1000',
    RATE_LIMITS: 'false',
    // Test files share one client IP (and, with REDIS_URL, one Redis), so their 401 cases would add up.
    AUTH_FAILURE_LIMITS: 'false',
    // Opening an embedded store stalls the event loop; only the load-shedding test wants shedding.
    LOAD_SHED_EVENT_LOOP_DELAY_MS: '0',
    // Webhook suites switch delivery on; elsewhere it would only poll the change log.
    WEBHOOK_DELIVERY: 'false',
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
  const db = await backend.open();
  await migrate(db);
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
