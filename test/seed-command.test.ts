import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { migrate } from '../src/platform/db/migrate.js';
import { openPostgres } from '../src/platform/db/postgres.js';
import { QueryTimeoutError } from '../src/platform/db/port.js';
import { analyzeTables } from '../src/ingest/table-queries.js';
import { DATASETS } from '../src/catalog/registry.js';
import { DEMO_SEED, SCALES, seedDatabase, startOfTodayUtc } from '../src/demo/seed.js';
import { freshSchema, needsPostgres } from './helpers.js';

const BIN = new URL('../bin/dealsignal.js', import.meta.url).pathname;
const TABLES = DATASETS.map((dataset) => dataset.table);

describe('dealsignal seed', () => {
  const dataDir = join(mkdtempSync(join(tmpdir(), 'dealsignal-seed-')), 'data');
  after(() => rmSync(join(dataDir, '..'), { recursive: true, force: true }));

  it('prints the time each dataset took and exits 0', async () => {
    const env = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent' } as NodeJS.ProcessEnv;
    delete env.DATABASE_URL;
    const child = spawn(process.execPath, [BIN, 'seed', '--scale', 'demo', '--create-store'], { env, timeout: 300_000 });
    let [stdout, stderr] = ['', ''];
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
    assert.equal(code, 0, stderr);
    for (const dataset of DATASETS) {
      const size = SCALES.demo[dataset.name].toLocaleString('en');
      assert.match(stderr, new RegExp(`^  ${dataset.name}: ${size} / ${size} in \\d+\\.\\d s$`, 'm'));
    }
    assert.match(stderr, /^ {2}table statistics and counts: \d+\.\d s$/m);
    assert.match(stdout, /^Seeded \(demo, seed 42\) in \d+\.\d s: /);
  });
});

describe('maintenance after a load is not bound by the statement timeout [postgres]', { skip: needsPostgres }, () => {
  it('VACUUM ANALYZE runs to its end under a 1 ms STATEMENT_TIMEOUT_MS, which still holds for every other statement', async () => {
    const { schema, drop } = await freshSchema();
    const connectionString = process.env.DATABASE_URL!;
    try {
      const loader = await openPostgres({ connectionString, poolSize: 4, schema });
      await migrate(loader);
      await seedDatabase(loader, { scale: 'demo', seed: DEMO_SEED, asOf: startOfTodayUtc() });
      await loader.close();

      // One connection, so the statements after the maintenance run on the connection it used.
      const db = await openPostgres({ connectionString, poolSize: 1, schema, statementTimeoutMs: 1 });
      try {
        await assert.rejects(db.exec('VACUUM ANALYZE job_changes'), QueryTimeoutError, 'the timeout is tight enough to bite');
        await analyzeTables(db, TABLES);
        // A 1 ms limit can cancel even SHOW when the machine is busy; ask until it answers.
        const setting = await untilAnswered(() => db.query<{ statement_timeout: string }>('SHOW statement_timeout'));
        assert.equal(setting[0]!.statement_timeout, '1ms', "the connection keeps the server's timeout afterwards");
      } finally {
        await db.close();
      }
    } finally {
      await drop();
    }
  });
});

async function untilAnswered<T>(ask: () => Promise<T>, attempts = 50): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await ask();
    } catch (err) {
      if (!(err instanceof QueryTimeoutError) || attempt === attempts) throw err;
    }
  }
}
