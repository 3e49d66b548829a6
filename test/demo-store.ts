// An app on the demo data set (DEMO_SEED, as of today at 00:00 UTC), for the suites that serve it.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildApp, type AppOptions } from '../src/app.js';
import { DEMO_SEED, seedDatabase, startOfTodayUtc } from '../src/demo/seed.js';
import { migrate } from '../src/platform/db/migrate.js';
import { openPglite } from '../src/platform/db/pglite.js';
import { pgliteDump, startApp, testConfig, testContext, type Backend, type TestContext } from './helpers.js';

/** Every file under a folder of the package, by path, in a stable order. */
function filesUnder(folder: string): string[] {
  const root = new URL(`../${folder}/`, import.meta.url);
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}

/**
 * The migrated embedded store with the demo data seeded as of `asOf`, as a dump (pgliteDump):
 * seeding it takes about 14 s of WASM work, which each suite serving the demo data on the embedded
 * store otherwise repeated. Named after everything it is made from (the migrations, the source
 * code that seeds and stores, the seed and the date), so a change to any of them makes a new one.
 */
const demoSnapshots = new Map<string, Promise<Blob>>();
function demoPgliteSnapshot(asOf: Date): Promise<Blob> {
  const key = asOf.toISOString();
  let snapshot = demoSnapshots.get(key);
  if (!snapshot) {
    snapshot = pgliteDump(
      'dealsignal-test-demo-store-',
      (hash) => {
        for (const file of [...filesUnder('migrations'), ...filesUnder('src')]) hash.update(file).update(readFileSync(file));
        hash.update(`${DEMO_SEED} ${key}`);
      },
      async (db) => {
        await migrate(db);
        await seedDatabase(db, { scale: 'demo', seed: DEMO_SEED, asOf });
      },
    );
    demoSnapshots.set(key, snapshot);
  }
  return snapshot;
}

/**
 * startApp on a store holding the demo data set (seedDatabase with DEMO_SEED, as of `asOf`). On the
 * embedded store it opens a copy of the seeded store (the app's read model is built from its tables);
 * on PostgreSQL it seeds a new schema.
 */
export async function startDemoApp(
  backend: Backend,
  env: Record<string, string> = {},
  options: Partial<AppOptions> & { asOf?: Date } = {},
): Promise<TestContext> {
  const { asOf = startOfTodayUtc(), ...appOptions } = options;
  if (backend.name === 'pglite') {
    const db = await openPglite(undefined, { from: await demoPgliteSnapshot(asOf) });
    const config = testConfig(env);
    const app = await buildApp({ config, db, ...appOptions });
    await app.ready();
    return testContext(db, app, config);
  }
  const ctx = await startApp(backend, env, appOptions);
  await seedDatabase(ctx.db, { scale: 'demo', seed: DEMO_SEED, asOf });
  return ctx;
}
