import assert from 'node:assert/strict';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { buildApp } from '../../src/app.js';
import { migrate } from '../../src/db/migrate.js';
import { openPostgres } from '../../src/db/postgres.js';
import type { Database } from '../../src/db/port.js';
import { backends, freshSchema, makeKey, startApp, testConfig, type TestContext } from '../helpers.js';
import { fundingRecord, insertFunding } from '../fixtures.js';

const DATABASE_URL = process.env.DATABASE_URL;
const needsPostgres = DATABASE_URL ? false : 'DATABASE_URL is not set';

/** A TCP proxy in front of PostgreSQL that the test can cut and restore, like a database outage. */
class CuttableProxy {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  port = 0;

  constructor(private readonly target: { host: string; port: number }) {}

  async start(): Promise<void> {
    this.server = createServer((client) => {
      const upstream = connect(this.target);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => this.server!.listen(this.port, '127.0.0.1', resolve));
    this.port = (this.server.address() as { port: number }).port;
  }

  /** Refuses new connections and drops the open ones. */
  async cut(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    if (this.server?.listening) await new Promise((resolve) => this.server!.close(resolve));
  }
}

describe('database faults', { skip: needsPostgres }, () => {
  let proxy: CuttableProxy;
  let db: Database;
  let ctx: { close(): Promise<void>; app: Awaited<ReturnType<typeof buildApp>> };

  before(async () => {
    const url = new URL(DATABASE_URL!);
    proxy = new CuttableProxy({ host: url.hostname, port: Number(url.port || 5432) });
    await proxy.start();
    const { schema, drop } = await freshSchema();
    url.host = `127.0.0.1:${proxy.port}`;
    db = await openPostgres({ connectionString: url.toString(), poolSize: 4, schema });
    await migrate(db);
    const app = await buildApp({ config: testConfig(), db });
    ctx = {
      app,
      async close() {
        await app.close();
        await db.close().catch(() => undefined);
        await drop();
      },
    };
  });
  after(async () => {
    await ctx.close();
    await proxy.cut();
  });

  it('PostgreSQL unreachable: 503 in the family shape with Retry-After within 2 s, no charge; recovers by itself', async () => {
    const account = await makeKey(db, 'pro');
    const v2 = () => ctx.app.inject({ url: '/api/v2/signals/investors', headers: { authorization: `Bearer ${account.key}` } });
    const first = await v2();
    assert.equal(first.statusCode, 200);
    const balance = first.json().meta.creditsRemaining;

    await proxy.cut();
    for (const request of [() => ctx.app.inject({ url: '/api/v1/funding', headers: { 'x-lot-api-key': account.key } }), v2]) {
      const started = performance.now();
      const res = await request();
      assert.ok(performance.now() - started < 2000, 'answered within 2 s');
      assert.equal(res.statusCode, 503, res.body);
      assert.equal(res.headers['retry-after'], '2');
      const body = res.json();
      assert.ok('code' in body ? body.code === 503 : body.success === false, res.body);
      assert.doesNotMatch(res.body, /ECONN|127\.0\.0\.1|postgres/i);
    }
    assert.equal((await ctx.app.inject('/healthz')).statusCode, 200, 'alive');
    assert.equal((await ctx.app.inject('/readyz')).statusCode, 503, 'not ready');

    await proxy.start(); // the database is back on the same address
    const deadline = Date.now() + 10_000;
    let recovered = await v2();
    while (recovered.statusCode !== 200 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 200));
      recovered = await v2();
    }
    assert.equal(recovered.statusCode, 200, 'recovered within 10 s');
    assert.equal(recovered.json().meta.creditsRemaining, balance - 1, 'the failed calls cost nothing');
    assert.equal((await ctx.app.inject('/readyz')).statusCode, 200);
  });
});

describe('statement timeout', { skip: needsPostgres }, () => {
  let ctx: TestContext;
  let blocker: Database;

  before(async () => {
    const { schema, drop } = await freshSchema();
    // Statements of the app's pool are cancelled after 300 ms.
    const db = await openPostgres({ connectionString: DATABASE_URL!, poolSize: 4, schema, statementTimeoutMs: 300 });
    await migrate(db);
    blocker = await openPostgres({ connectionString: DATABASE_URL!, poolSize: 1, schema });
    const app = await buildApp({ config: testConfig(), db });
    ctx = {
      db,
      app,
      config: testConfig(),
      async close() {
        await app.close();
        await db.close();
        await blocker.close();
        await drop();
      },
    };
  });
  after(() => ctx.close());

  it('a query that would run too long is cancelled with a 503 in the family shape, and the pool recovers', async () => {
    const { key } = await makeKey(ctx.db);
    await insertFunding(ctx.db, [fundingRecord()]);
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    // Another session holds a lock the page query must wait for, longer than the statement timeout.
    const locking = blocker.transaction(async (tx) => {
      await tx.query('LOCK TABLE funding_rounds IN ACCESS EXCLUSIVE MODE');
      await held;
    });
    await new Promise((r) => setTimeout(r, 100));
    const res = await ctx.app.inject({ url: '/api/v1/funding?round=seed', headers: { 'x-lot-api-key': key } });
    release();
    await locking;
    assert.equal(res.statusCode, 503);
    assert.equal(res.json().code, 503);
    assert.equal(res.headers['retry-after'], '2');
    const after = await ctx.app.inject({ url: '/api/v1/funding?round=seed', headers: { 'x-lot-api-key': key } });
    assert.equal(after.statusCode, 200, 'the pool recovered');
  });
});

describe('load shedding', () => {
  it('under event-loop overload, requests get 503 with Retry-After at once', async () => {
    const ctx = await startApp(backends()[0]!, { LOAD_SHED_EVENT_LOOP_DELAY_MS: '20' });
    try {
      // Starve the event loop for a while, as a flood of CPU-heavy work would.
      const until = Date.now() + 600;
      while (Date.now() < until) {
        /* busy */
      }
      // The overdue sampler runs as soon as the loop is free and records the stall.
      await new Promise((r) => setTimeout(r, 10));
      const v2 = await ctx.app.inject('/api/v2/signals/investors');
      assert.equal(v2.statusCode, 503);
      assert.equal(v2.headers['retry-after'], '1');
      assert.deepEqual(Object.keys(v2.json()), ['success', 'error']);
    } finally {
      await ctx.close();
    }
  });
});

describe('request size bounds on a real socket', () => {
  let ctx: TestContext;
  let port: number;
  before(async () => {
    ctx = await startApp(backends()[0]!);
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    port = (ctx.app.server.address() as { port: number }).port;
  });
  after(() => ctx.close());

  const raw = (request: string) =>
    new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => socket.end(request));
      let data = '';
      socket.on('data', (chunk) => (data += chunk));
      socket.on('end', () => resolve(data));
      socket.on('error', reject);
    });

  it('oversized headers get 431 quickly', async () => {
    const started = performance.now();
    const response = await raw(`GET /api/v1/funding HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    assert.match(response, /^HTTP\/1\.1 431/);
    assert.ok(performance.now() - started < 1000);
  });

  it('an overlong request line gets 414 or 431, never a 5xx', async () => {
    const response = await raw(`GET /api/v1/funding?round=${'a'.repeat(8000)} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
    assert.match(response, /^HTTP\/1\.1 (414|431)/);
  });
});
