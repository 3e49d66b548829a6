// `dealsignal serve` on PostgreSQL, as an operator runs it: a database of its own, one process or several.
import assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { get } from 'node:http';
import { after, before, it } from 'node:test';
import { openPostgres } from '../../src/platform/db/postgres.js';
import { ingest } from '../../src/ingest/importer.js';
import { fundingRecord } from '../fixtures.js';
import { describeNeeding, makeKey, needsPostgres } from '../helpers.js';

const BIN = new URL('../../bin/dealsignal.js', import.meta.url).pathname;

interface Served {
  child: ChildProcessWithoutNullStreams;
  port: number;
  output(): string;
  stop(): Promise<number | null>;
}

/** `dealsignal serve ARGS` on DATABASE_URL=url; resolves once the banner (and what follows it) is printed. */
async function serve(url: string, args: string[] = [], extraEnv: NodeJS.ProcessEnv = {}): Promise<Served> {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    DATABASE_URL: url,
    SESSION_SECRET: 'x'.repeat(32),
    PORT: '0',
    LOG_LEVEL: 'info',
    SEED_DEMO: 'false',
    AUTH_FAILURE_LIMITS: 'false',
    SHUTDOWN_DELAY_MS: '0',
    LOAD_SHED_EVENT_LOOP_DELAY_MS: '0',
    WEBHOOK_DELIVERY: 'false',
    ...extraEnv,
  };
  const child = spawn(process.execPath, [BIN, 'serve', ...args], { env });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  let output = '';
  const port = await new Promise<number>((resolve, reject) => {
    const check = () => {
      const listening = Number(/Server listening at http:\/\/127\.0\.0\.1:(\d+)/.exec(output)?.[1]);
      // The banner ends with an empty line; the next steps, when printed, end with one too.
      if (listening && /dealsignal is serving[\s\S]*\n\n/.test(output)) resolve(listening);
    };
    child.stdout.on('data', (chunk) => ((output += chunk), check()));
    child.stderr.on('data', (chunk) => ((output += chunk), check()));
    void exited.then((code) => reject(new Error(`the server exited (${code}): ${output}`)));
  });
  await new Promise((resolve) => setTimeout(resolve, 200)); // the next steps follow the banner
  return {
    child,
    port,
    output: () => output,
    stop: async () => {
      child.kill('SIGTERM');
      return exited;
    },
  };
}

/** GET on a connection of its own (so each request may land on either serving thread). */
function request(port: number, path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    get({ host: '127.0.0.1', port, path, agent: false, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, body }));
    }).on('error', reject);
  });
}

describeNeeding('dealsignal serve on a PostgreSQL database of its own', 'postgres', needsPostgres, () => {
  const name = `dealsignal_test_${randomBytes(5).toString('hex')}`;
  const url = new URL(process.env.DATABASE_URL ?? 'postgres://localhost/none');
  url.pathname = `/${name}`;
  const admin = () => openPostgres({ connectionString: process.env.DATABASE_URL!, poolSize: 1 });

  before(async () => {
    const db = await admin();
    await db.exec(`CREATE DATABASE ${name}`);
    await db.close();
  });
  after(async () => {
    const db = await admin();
    await db.exec(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await db.close();
  });

  it('the first start on an empty database prints the next steps', async () => {
    const server = await serve(url.href);
    try {
      const output = server.output();
      assert.match(output, /dealsignal is serving PostgreSQL/);
      assert.match(output, /The database is new\. Next steps:/);
      assert.match(output, /create a key: +dealsignal keys create --email /);
      assert.match(output, /load data: +dealsignal import KIND FILE/);
      assert.match(output, /SEED_DEMO=true/);
    } finally {
      assert.equal(await server.stop(), 0);
    }
  });

  it('with two workers, one scrape of /metrics counts the requests of both', async () => {
    const server = await serve(url.href, ['--workers', '2']);
    try {
      assert.match(server.output(), /with 2 workers/);
      const sent = 20;
      for (let i = 0; i < sent; i++) assert.equal((await request(server.port, '/api/v1/funding')).status, 401);
      const counted = async () => {
        const { status, body } = await request(server.port, '/metrics');
        assert.equal(status, 200, body);
        const series = body
          .split('\n')
          .filter((line) => /^dealsignal_http_requests_total\{.*route="\/api\/v1\/funding"/.test(line));
        return series.reduce((sum, line) => sum + Number(line.split(' ').at(-1)), 0);
      };
      // Counted once each response is sent: a scrape right after the last one may come a moment early.
      let seen = await counted();
      for (let tries = 0; seen < sent && tries < 20; tries++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        seen = await counted();
      }
      assert.equal(seen, sent, 'every worker in one scrape');
      assert.equal(await counted(), sent, 'and in the next, wherever it lands');
    } finally {
      assert.equal(await server.stop(), 0);
    }
  });

  it('with two workers, one process serves from one index: a record ingested is in the next answer of each', async () => {
    // The primary named as its own replica (always current): each thread reads its pages' documents through the replica's pool.
    const server = await serve(url.href, ['--workers', '2'], { DATABASE_REPLICA_URL: url.href });
    const db = await openPostgres({ connectionString: url.href, poolSize: 1 });
    try {
      const { key } = await makeKey(db, 'enterprise');
      const headers = { 'x-lot-api-key': key };
      const total = async () => {
        const { status, body } = await request(server.port, '/api/v2/signals/funding?limit=1', {
          authorization: `Bearer ${key}`,
        });
        assert.equal(status, 200, body);
        return (JSON.parse(body) as { pagination: { totalCount: number } }).pagination.totalCount;
      };
      const before = await total();
      const name = `Threaded ${randomBytes(3).toString('hex')}`;
      const record = fundingRecord({ company_name: name });
      record.company_info = { ...record.company_info!, hq_country: 'New Zealand' };
      const report = await ingest(db, 'funding', [JSON.stringify(record)], { skipInvalid: false });
      assert.equal(report.inserted, 1);
      // Each request on a connection of its own: whichever thread accepts it has the record.
      for (let i = 0; i < 12; i++) {
        assert.equal(await total(), before + 1);
        const { status, body } = await request(server.port, '/api/v1/funding?country=NZ', headers);
        assert.equal(status, 200, body);
        assert.ok(body.includes(name), body);
      }
      const metrics = (await request(server.port, '/metrics')).body;
      // One process: its memory reported once; the index's records once, not once per thread.
      assert.equal(metrics.match(/^dealsignal_process_resident_memory_bytes /gm)?.length, 1, metrics);
      const indexed = Number(/^dealsignal_index_records\{dataset="funding"\} (\d+)/m.exec(metrics)?.[1]);
      assert.equal(indexed, before + 1);
      // Each thread's own heap: the main thread's (it holds the index) and the two serving threads'.
      const heaps = [...metrics.matchAll(/^dealsignal_thread_heap_bytes\{thread="([^"]+)",kind="used"\} (\d+)/gm)];
      assert.equal(heaps.length, 3, metrics);
      assert.ok(heaps.some(([, thread]) => thread === 'main'));
      for (const [, , bytes] of heaps) assert.ok(Number(bytes) > 0);
      // The threads' replica reads, summed: the pages above read their documents there.
      const replicaReads = Number(/^dealsignal_replica_page_reads_total\{outcome="current"\} (\d+)/m.exec(metrics)?.[1]);
      assert.ok(replicaReads >= 1, metrics);
    } finally {
      await db.close();
      assert.equal(await server.stop(), 0);
    }
  });
});
