// An app on the demo data set (DEMO_SEED, as of today at 00:00 UTC), for the suites that serve it.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp, type AppOptions } from '../src/app.js';
import { DEMO_SEED, seedDatabase, startOfTodayUtc } from '../src/demo/seed.js';
import { migrate } from '../src/platform/db/migrate.js';
import { openPglite, pgliteSnapshot } from '../src/platform/db/pglite.js';
import { startApp, testConfig, testContext, type Backend, type TestContext } from './helpers.js';

/** Every file under a folder of the package, by path, in a stable order. */
function filesUnder(folder: string): string[] {
  const root = new URL(`../${folder}/`, import.meta.url);
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}

/**
 * The migrated embedded store with the demo data seeded as of `asOf`, as a dump of its data
 * directory, kept in the temporary folder for every test process: seeding it takes about 14 s of
 * WASM work, which each suite serving the demo data on the embedded store otherwise repeated. The
 * dump is named after everything it is made from (the engine's version, the migrations, the source
 * code that seeds and stores, the date), so a change to any of them makes a new one.
 */
const demoSnapshots = new Map<string, Promise<Blob>>();
const DUMP_PREFIX = 'dealsignal-test-demo-store-';
function demoPgliteSnapshot(asOf: Date): Promise<Blob> {
  const key = asOf.toISOString();
  let snapshot = demoSnapshots.get(key);
  if (!snapshot) {
    snapshot = (async () => {
      const hash = createHash('sha256');
      hash.update(readFileSync(new URL('../node_modules/@electric-sql/pglite/package.json', import.meta.url)));
      for (const file of [...filesUnder('migrations'), ...filesUnder('src')]) hash.update(file).update(readFileSync(file));
      hash.update(`${DEMO_SEED} ${key}`);
      const file = join(tmpdir(), `${DUMP_PREFIX}${hash.digest('hex').slice(0, 16)}.tar`);
      try {
        return new Blob([readFileSync(file)]);
      } catch {
        const made = await pgliteSnapshot(async (db) => {
          await migrate(db);
          await seedDatabase(db, { scale: 'demo', seed: DEMO_SEED, asOf });
        });
        // Written aside, then renamed: a process reading it meanwhile never sees half a file.
        const partial = `${file}.${process.pid}`;
        writeFileSync(partial, Buffer.from(await made.arrayBuffer()));
        renameSync(partial, file);
        // Whole dumps made from other code are never read again (about 200 MB each): removed (another
        // process's partial one, named .tar.<pid>, is left to it).
        for (const other of readdirSync(tmpdir())) {
          const whole = other.startsWith(DUMP_PREFIX) && other.endsWith('.tar');
          if (whole && join(tmpdir(), other) !== file) rmSync(join(tmpdir(), other), { force: true });
        }
        return made;
      }
    })();
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
