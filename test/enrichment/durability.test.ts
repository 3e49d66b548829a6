// An enrichment job outlives the process working on it: a worker process is killed (SIGKILL) in the
// middle of a 1,000-company job, and a worker started afterwards (another process, on the same
// store) takes the job over when its lease runs out and finishes it from the last chunk written:
// every result once, in input order, and a summary that counts each input once.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { it } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { companyRecord, insertCompanies } from '../fixtures.js';
import { buildApp } from '../../src/app.js';
import { migrate, type Database } from '../../src/platform/db/index.js';
import { openPglite } from '../../src/platform/db/pglite.js';
import { openPostgres } from '../../src/platform/db/postgres.js';
import { describeEach, freshSchema, makeKey, testConfig } from '../helpers.js';

const JOB_SIZE = 1000;

describeEach('csv enrichment across a killed worker', (backend) => {
  it('a job whose worker was killed mid-way is finished by another from its last chunk, each result once', async () => {
    const dir = backend.name === 'pglite' ? mkdtempSync(join(tmpdir(), 'dealsignal-enrich-')) : undefined;
    const schema = backend.name === 'postgres' ? await freshSchema() : undefined;
    const target = dir === undefined ? { postgres: process.env.DATABASE_URL!, schema: schema!.schema } : { pglite: dir };
    const open = (): Promise<Database> =>
      dir === undefined
        ? openPostgres({ connectionString: process.env.DATABASE_URL!, poolSize: 4, schema: schema!.schema })
        : openPglite(dir);
    try {
      // The job, created through the API by an instance without a worker.
      let db = await open();
      await migrate(db);
      const known = Array.from({ length: 100 }, (_, i) =>
        companyRecord({ name: `Durable ${i}`, website: `https://durable-${i}.example`, linkedinUrl: null }),
      );
      await insertCompanies(db, known);
      const { key } = await makeKey(db, 'enterprise');
      const companies = Array.from({ length: JOB_SIZE }, (_, i) =>
        i % 2 === 0
          ? { website_url: `durable-${(i / 2) % 100}.example`, crm_id: String(i) }
          : { name: `Unknown ${i}`, crm_id: String(i) },
      );
      let app = await buildApp({ config: testConfig({ ENRICHMENT_WORKER: 'false' }), db });
      await app.ready();
      const created = await app.inject({
        method: 'POST',
        url: '/api/v2/csv-enrichment',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        payload: JSON.stringify({ companies }),
      });
      assert.equal(created.statusCode, 200, created.body);
      const jobId = (created.json() as { data: { jobId: string } }).data.jobId;
      await app.close();
      await db.close();

      // A worker in another process, each chunk slowed so it is killed part-way.
      const src = (path: string) => fileURLToPath(new URL(`../../src/${path}`, import.meta.url));
      const script = `
        import { setTimeout as delay } from 'node:timers/promises';
        import { openPglite } from ${JSON.stringify(src('platform/db/pglite.js'))};
        import { openPostgres } from ${JSON.stringify(src('platform/db/postgres.js'))};
        import { ReadModel } from ${JSON.stringify(src('read/index.js'))};
        import { EnrichmentWorker } from ${JSON.stringify(src('enrichment/index.js'))};
        const target = ${JSON.stringify(target)};
        const db = target.pglite ? await openPglite(target.pglite) : await openPostgres({ connectionString: target.postgres, poolSize: 4, schema: target.schema });
        const slow = Object.create(db);
        slow.transaction = async (work) => { await delay(150); return db.transaction(work); };
        const readModel = await ReadModel.open(db);
        const worker = new EnrichmentWorker(slow, readModel, { pollMs: 50, leaseMs: 1500, retentionMs: 86400000, signalsPerType: 5 },
          { error: (o, m) => console.error(m) }, { progress: () => console.log('chunk'), finished: () => console.log('finished') });
        worker.start();
      `;
      const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      await new Promise<void>((resolve, reject) => {
        let chunks = 0;
        child.stdout.on('data', (data: Buffer) => {
          chunks += (data.toString('utf8').match(/chunk/g) ?? []).length;
          if (chunks >= 3) resolve();
        });
        void exited.then(() => reject(new Error(`the worker exited before three chunks: ${stderr}`)));
      });
      child.kill('SIGKILL');
      await exited;

      db = await open();
      const [stopped] = await db.query<{ status: string; processed: number; attempts: number }>(
        'SELECT status, processed, attempts FROM enrichment_jobs WHERE id = $1',
        [jobId],
      );
      assert.equal(stopped!.status, 'running');
      assert.ok(stopped!.processed >= 300 && stopped!.processed < JOB_SIZE, `${stopped!.processed} processed when killed`);

      // Another worker takes it over once the dead one's lease runs out.
      app = await buildApp({ config: testConfig({ ENRICHMENT_WORKER: 'true', ENRICHMENT_POLL_MS: '100' }), db });
      await app.ready();
      try {
        let job: { status: string; progress: { processed: number }; summary: Record<string, number> } | undefined;
        for (let i = 0; i < 200 && job?.status !== 'completed'; i++) {
          await delay(100);
          const res = await app.inject({
            url: `/api/v2/csv-enrichment/${jobId}?limit=1`,
            headers: { authorization: `Bearer ${key}` },
          });
          job = (res.json() as { data: typeof job }).data;
        }
        assert.equal(job?.status, 'completed');
        assert.deepEqual([job!.progress.processed, job!.summary.totalInputs], [JOB_SIZE, JOB_SIZE]);
        // Each input once: the halves with a known website matched, the others not.
        assert.deepEqual([job!.summary.matched, job!.summary.unmatched], [JOB_SIZE / 2, JOB_SIZE / 2]);
        const rows = await db.query<{ position: number; result: string }>(
          'SELECT position, result FROM enrichment_results WHERE job_id = $1 ORDER BY position',
          [jobId],
        );
        assert.equal(rows.length, JOB_SIZE);
        rows.forEach((row, i) => {
          const result = JSON.parse(row.result) as { input: { crm_id: string }; matched: boolean };
          assert.deepEqual([row.position, result.input.crm_id, result.matched], [i, String(i), i % 2 === 0]);
        });
        const [finished] = await db.query<{ attempts: number }>('SELECT attempts FROM enrichment_jobs WHERE id = $1', [jobId]);
        assert.equal(finished!.attempts, 2);
      } finally {
        await app.close();
        await db.close();
      }
    } finally {
      if (dir) rmSync(dir, { recursive: true, force: true });
      await schema?.drop();
    }
  });
});
