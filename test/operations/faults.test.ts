import assert from 'node:assert/strict';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { buildApp } from '../../src/app.js';
import { migrate } from '../../src/platform/db/migrate.js';
import { openPostgres } from '../../src/platform/db/postgres.js';
import type { Database } from '../../src/platform/db/port.js';
import {
  backends,
  describeNeeding,
  freshSchema,
  makeKey,
  needsPostgres,
  startApp,
  testConfig,
  testContext,
  type TestContext,
  describeOnOneStore,
} from '../helpers.js';
import { fundingRecord, insertFunding } from '../fixtures.js';

const DATABASE_URL = process.env.DATABASE_URL;

/**
 * A TCP proxy in front of PostgreSQL whose network the test controls: it forwards, drops every
 * byte silently (a partition: nothing is refused or reset, nothing arrives), or resets every
 * connection, open and new (the database went away).
 */
class FaultyNetwork {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  private mode: 'forward' | 'drop' | 'reset' = 'forward';
  port = 0;

  constructor(private readonly target: { host: string; port: number }) {}

  async start(): Promise<void> {
    this.server = createServer((client) => {
      this.track(client);
      if (this.mode === 'reset') return client.resetAndDestroy();
      // A connection opened during a partition never reaches the database.
      if (this.mode === 'drop') return client.resume();
      const upstream = this.track(connect(this.target));
      client.on('data', (chunk) => this.mode === 'forward' && upstream.write(chunk));
      upstream.on('data', (chunk) => this.mode === 'forward' && client.write(chunk));
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as { port: number }).port;
  }

  private track(socket: Socket): Socket {
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
    socket.on('error', () => undefined);
    return socket;
  }

  /** Bytes stop flowing both ways; every socket stays open. */
  partition(): void {
    this.mode = 'drop';
  }

  /** Every open connection is reset, and so is every new one. */
  reset(): void {
    this.mode = 'reset';
    for (const socket of this.sockets) socket.resetAndDestroy();
  }

  /** Bytes flow again (what was dropped stays lost). */
  heal(): void {
    this.mode = 'forward';
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise((resolve) => this.server?.close(resolve));
  }
}

const within = <T>(promise: Promise<T>, ms: number): Promise<T | 'no answer'> =>
  Promise.race([promise, new Promise<'no answer'>((r) => setTimeout(() => r('no answer'), ms).unref())]);

describeNeeding('database faults', 'postgres', needsPostgres, () => {
  const STATEMENT_TIMEOUT_MS = 1000;
  const POOL_SIZE = 4;
  let network: FaultyNetwork;
  let db: Database;
  let ctx: { close(): Promise<void>; app: Awaited<ReturnType<typeof buildApp>> };
  let key: string;

  before(async () => {
    const url = new URL(DATABASE_URL!);
    network = new FaultyNetwork({ host: url.hostname, port: Number(url.port || 5432) });
    await network.start();
    const { schema, drop } = await freshSchema();
    url.host = `127.0.0.1:${network.port}`;
    db = await openPostgres({
      connectionString: url.toString(),
      poolSize: POOL_SIZE,
      schema,
      statementTimeoutMs: STATEMENT_TIMEOUT_MS,
    });
    await migrate(db);
    const app = await buildApp({ config: testConfig({ STATEMENT_TIMEOUT_MS: String(STATEMENT_TIMEOUT_MS) }), db });
    ctx = {
      app,
      async close() {
        await app.close();
        await db.close().catch(() => undefined);
        await drop();
      },
    };
    key = (await makeKey(db, 'pro')).key;
  });
  after(async () => {
    network.heal();
    await ctx.close();
    await network.stop();
  });

  const v1 = () => ctx.app.inject({ url: '/api/v1/funding', headers: { 'x-lot-api-key': key } });
  const v2 = () => ctx.app.inject({ url: '/api/v2/signals/investors', headers: { authorization: `Bearer ${key}` } });

  /** After a fault: requests succeed again without a restart, and keep succeeding with every pool connection in use. */
  async function assertPoolHealed() {
    const deadline = Date.now() + 10_000;
    let recovered = await v2();
    while (recovered.statusCode !== 200 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 200));
      recovered = await v2();
    }
    assert.equal(recovered.statusCode, 200, 'recovered within 10 s');
    for (let round = 0; round < 3; round++) {
      const answers = await Promise.all(Array.from({ length: POOL_SIZE * 2 }, () => within(v1(), 2 * STATEMENT_TIMEOUT_MS)));
      assert.deepEqual(
        answers.map((a) => (a === 'no answer' ? a : a.statusCode)),
        Array.from({ length: POOL_SIZE * 2 }, () => 200),
        `round ${round}: no pool connection is left broken`,
      );
    }
    assert.equal((await ctx.app.inject('/readyz')).statusCode, 200);
    return recovered;
  }

  function assertUnavailable(res: { statusCode: number; headers: Record<string, unknown>; body: string; json(): unknown }) {
    assert.equal(res.statusCode, 503, res.body);
    assert.equal(res.headers['retry-after'], '2');
    const body = res.json() as Record<string, unknown>;
    assert.ok(body.code === 503 || (body.success === false && body.code === 'unavailable'), res.body);
    assert.doesNotMatch(res.body, /ECONN|127\.0\.0\.1|postgres|timeout/i);
  }

  it('connections reset (the database went away): 503 in the family shape within 2 s, no charge; the pool heals by itself', async () => {
    const first = await v2();
    assert.equal(first.statusCode, 200);
    const balance = first.json().meta.creditsRemaining;

    network.reset();
    for (const request of [v1, v2]) {
      const started = performance.now();
      const res = await request();
      assert.ok(performance.now() - started < 2000, 'answered within 2 s');
      assertUnavailable(res);
    }
    assert.equal((await ctx.app.inject('/healthz')).statusCode, 200, 'alive');
    assert.equal((await ctx.app.inject('/readyz')).statusCode, 503, 'not ready');

    network.heal();
    const recovered = await assertPoolHealed();
    assert.equal(recovered.json().meta.creditsRemaining, balance - 1, 'the failed calls cost nothing');
  });

  it(
    'a partition (bytes silently dropped): every request answers within STATEMENT_TIMEOUT_MS + 1 s; the pool heals by itself',
    { timeout: 60_000 },
    async () => {
      // Every pool connection open and idle when the partition starts, as on a busy server.
      await Promise.all(Array.from({ length: POOL_SIZE }, v1));
      const first = await v2();
      assert.equal(first.statusCode, 200);
      const balance = first.json().meta.creditsRemaining;

      network.partition();
      const budget = STATEMENT_TIMEOUT_MS + 1000;
      // More requests than connections: some wait for the pool, some open new connections into the void.
      const timed = (request: () => ReturnType<typeof v1>) => async () => {
        const started = performance.now();
        const res = await within(request(), budget + 5000);
        return { res, ms: Math.round(performance.now() - started) };
      };
      const results = await Promise.all([
        ...Array.from({ length: POOL_SIZE + 2 }, timed(v1)),
        ...Array.from({ length: 3 }, timed(v2)),
      ]);
      for (const { res, ms } of results) {
        assert.notEqual(res, 'no answer', `a request hung for more than ${budget + 5000} ms`);
        assert.ok(ms <= budget, `answered after ${ms} ms (budget ${budget} ms)`);
        if (res !== 'no answer') assertUnavailable(res);
      }
      assert.equal((await ctx.app.inject('/healthz')).statusCode, 200, 'alive');
      assert.equal((await ctx.app.inject('/readyz')).statusCode, 503, 'not ready');

      network.heal();
      const recovered = await assertPoolHealed();
      assert.equal(recovered.json().meta.creditsRemaining, balance - 1, 'the failed calls cost nothing');
    },
  );
});

describeNeeding('statement timeout', 'postgres', needsPostgres, () => {
  let ctx: TestContext;
  let blocker: Database;

  before(async () => {
    const { schema, drop } = await freshSchema();
    // Statements of the app's pool are cancelled after 300 ms.
    const db = await openPostgres({ connectionString: DATABASE_URL!, poolSize: 4, schema, statementTimeoutMs: 300 });
    await migrate(db);
    blocker = await openPostgres({ connectionString: DATABASE_URL!, poolSize: 1, schema });
    const config = testConfig();
    const app = await buildApp({ config, db });
    ctx = testContext(db, app, config, async () => {
      await blocker.close();
      await drop();
    });
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

describeNeeding('statement timeout, in every family', 'postgres', needsPostgres, () => {
  const ADMIN_TOKEN = 'admin-token-for-tests-0123456789';
  let ctx: TestContext;
  let blocker: Database;

  before(async () => {
    const { schema, drop } = await freshSchema();
    const db = await openPostgres({ connectionString: DATABASE_URL!, poolSize: 4, schema, statementTimeoutMs: 300 });
    await migrate(db);
    blocker = await openPostgres({ connectionString: DATABASE_URL!, poolSize: 1, schema });
    const config = testConfig({ ADMIN_TOKEN });
    const app = await buildApp({ config, db });
    ctx = testContext(db, app, config, async () => {
      await blocker.close();
      await drop();
    });
  });
  after(() => ctx.close());

  /** The response to a request sent while another session holds a lock on table for longer than the timeout. */
  async function whileLocked<T>(table: string, send: () => Promise<T>): Promise<T> {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const locking = blocker.transaction(async (tx) => {
      await tx.query(`LOCK TABLE ${table} IN ACCESS EXCLUSIVE MODE`);
      await held;
    });
    await new Promise((r) => setTimeout(r, 100));
    try {
      return await send();
    } finally {
      release();
      await locking;
    }
  }

  it('admin: an import cancelled by the statement timeout is a 503 in the admin shape', async () => {
    const res = await whileLocked('funding_rounds', () =>
      ctx.app.inject({
        method: 'POST',
        url: '/admin/ingest/funding',
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/x-ndjson' },
        payload: `${JSON.stringify(fundingRecord())}\n`,
      }),
    );
    assert.equal(res.statusCode, 503);
    assert.deepEqual(res.json(), { error: 'Service temporarily unavailable, please retry shortly' });
    assert.equal(res.headers['retry-after'], '2');
  });

  it('v2: a page cancelled by the statement timeout is a 503 in the v2 shape', async () => {
    const { key } = await makeKey(ctx.db);
    // Every list request reads the change log (the head, or the entries its index has not applied).
    const res = await whileLocked('change_log', () =>
      ctx.app.inject({ url: '/api/v2/signals/investors', headers: { authorization: `Bearer ${key}` } }),
    );
    assert.equal(res.statusCode, 503);
    assert.deepEqual(res.json(), {
      success: false,
      error: 'Service temporarily unavailable. Please try again later.',
      code: 'unavailable',
    });
    assert.equal(res.headers['retry-after'], '2');
  });

  it('pages: a form cancelled by the statement timeout gets the 503 page', async () => {
    const form = await ctx.app.inject({ url: '/signup' });
    const csrf = /name="_csrf" value="([^"]+)"/.exec(form.body)![1]!;
    const cookie = form.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
    const res = await whileLocked('accounts', () =>
      ctx.app.inject({
        method: 'POST',
        url: '/signup',
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({
          _csrf: csrf,
          email: 'timeout@example.com',
          password: 'correct horse battery staple',
        }).toString(),
      }),
    );
    assert.equal(res.statusCode, 503);
    assert.match(String(res.headers['content-type']), /^text\/html/);
    assert.match(res.body, /Temporarily unavailable/);
    assert.equal(res.headers['retry-after'], '2');
  });
});

/** Blocks the event loop for `ms` inside a timer callback, as a burst of CPU-heavy work would. */
function stallEventLoop(ms: number): Promise<void> {
  return new Promise((resolve) =>
    setTimeout(() => {
      const until = Date.now() + ms;
      while (Date.now() < until) {
        /* busy */
      }
      resolve();
    }, 1),
  );
}

const SHED_AT_MS = 400;

describeOnOneStore('load shedding', (backend) => {
  let ctx: TestContext;
  before(async () => {
    ctx = await startApp(backend, {
      LOAD_SHED_EVENT_LOOP_DELAY_MS: String(SHED_AT_MS),
      RATE_LIMITS: 'true',
      RATE_LIMIT_V1: '5',
      RATE_LIMIT_PRO: '5',
      AUTH_FAILURE_LIMIT: '1000',
      CREDITS_PRO: '1000',
    });
  });
  after(() => ctx.close());

  /** Lets the loop run freely long enough for the measured delay to settle back to normal. */
  const settle = () => new Promise((r) => setTimeout(r, 500));

  it('stalls shorter than the setting never shed, whenever they fall between measurements', async () => {
    await settle();
    const statuses: string[] = [];
    for (let round = 0; round < 15; round++) {
      await stallEventLoop(SHED_AT_MS / 2);
      for (const url of ['/api/v1/funding', '/api/v2/signals/investors', '/login', '/healthz']) {
        statuses.push(`${url} ${(await ctx.app.inject(url)).statusCode}`);
        await new Promise((r) => setImmediate(r));
      }
    }
    assert.deepEqual(
      statuses.filter((s) => s.endsWith(' 503')),
      [],
      'no request was shed',
    );
  });

  it('a stall longer than the setting sheds at once: 503 with Retry-After in each family shape, an HTML page for pages', async () => {
    await settle();
    await stallEventLoop(SHED_AT_MS * 2.5);
    const v1 = await ctx.app.inject('/api/v1/funding');
    const v2 = await ctx.app.inject('/api/v2/signals/investors');
    const page = await ctx.app.inject({ url: '/login', headers: { accept: 'text/html' } });
    const health = await ctx.app.inject('/healthz');
    const ready = await ctx.app.inject('/readyz');

    assert.equal(v1.statusCode, 503, v1.body);
    assert.equal(v1.headers['retry-after'], '1');
    assert.deepEqual(Object.keys(v1.json()), ['code', 'message']);
    assert.equal(v2.statusCode, 503, v2.body);
    assert.equal(v2.headers['retry-after'], '1');
    assert.deepEqual(v2.json(), { success: false, error: 'Service overloaded, please retry shortly', code: 'unavailable' });
    assert.equal(page.statusCode, 503);
    assert.equal(page.headers['retry-after'], '1');
    assert.match(String(page.headers['content-type']), /^text\/html/);
    assert.match(page.body, /^<!doctype html>/i);
    assert.match(String(page.headers['content-security-policy']), /frame-ancestors 'none'/);
    assert.equal(health.statusCode, 200, 'liveness is never shed');
    assert.equal(ready.statusCode, 200, 'readiness is never shed');

    await settle();
    assert.equal((await ctx.app.inject('/api/v1/funding')).statusCode, 401, 'served again once the loop is free');
  });

  it('with a utilisation setting, an idle server serves and a saturated one sheds', async () => {
    const busy = await startApp(backend, { LOAD_SHED_EVENT_LOOP_DELAY_MS: '0', LOAD_SHED_EVENT_LOOP_UTILIZATION_PCT: '90' });
    try {
      await new Promise((r) => setTimeout(r, 1500));
      assert.equal((await busy.app.inject('/api/v1/funding')).statusCode, 401, 'idle: served');
      // Work in short slices for over a second: the loop never waits long, but it never rests.
      const until = Date.now() + 1500;
      while (Date.now() < until) {
        const slice = Date.now() + 15;
        while (Date.now() < slice) {
          /* busy */
        }
        await new Promise((r) => setImmediate(r));
      }
      const shed = await busy.app.inject('/api/v1/funding');
      assert.equal(shed.statusCode, 503, 'saturated: shed');
      assert.equal(shed.headers['retry-after'], '1');
    } finally {
      await busy.close();
    }
  });

  it('a burst from one key while shedding takes no rate-limit slot and no credit', async () => {
    const { key } = await makeKey(ctx.db, 'pro');
    const v1 = () => ctx.app.inject({ url: '/api/v1/funding', headers: { 'x-lot-api-key': key } });
    const v2 = () => ctx.app.inject({ url: '/api/v2/signals/investors', headers: { authorization: `Bearer ${key}` } });
    await settle();
    await stallEventLoop(SHED_AT_MS * 2.5);
    const burst = await Promise.all([...Array.from({ length: 20 }, v1), ...Array.from({ length: 20 }, v2)]);
    const v1Burst = burst.slice(0, 20).map((r) => r.statusCode);
    const v2Burst = burst.slice(20).map((r) => r.statusCode);
    assert.ok(v1Burst.includes(503) && v2Burst.includes(503), `the burst met shedding: ${v1Burst} / ${v2Burst}`);

    // Whatever was shed left the window alone: exactly the limit gets through, burst included.
    await settle();
    const v1After: number[] = [];
    const v2After: { statusCode: number; body: string }[] = [];
    // A busy machine can stall the loop again here; a call shed then is asked again (it took no slot either).
    const unshed = async <T extends { statusCode: number }>(call: () => Promise<T>): Promise<T> => {
      for (let attempt = 1; ; attempt += 1) {
        const res = await call();
        if (res.statusCode !== 503 || attempt === 20) return res;
        await settle();
      }
    };
    for (let i = 0; i < ctx.config.rateLimits.v1 + 1; i++) v1After.push((await unshed(v1)).statusCode);
    for (let i = 0; i < ctx.config.rateLimits.v2.pro + 1; i++) v2After.push(await unshed(v2));
    const served = (statuses: number[]) => statuses.filter((s) => s === 200).length;
    assert.equal(served(v1Burst) + served(v1After), ctx.config.rateLimits.v1, `v1: ${v1Burst} then ${v1After}`);
    const v2Statuses = v2After.map((r) => r.statusCode);
    assert.equal(served(v2Burst) + served(v2Statuses), ctx.config.rateLimits.v2.pro, `v2: ${v2Burst} then ${v2Statuses}`);
    assert.equal(v2Statuses.at(-1), 429);

    // Only served calls were charged.
    const lastServed = v2After.filter((r) => r.statusCode === 200).at(-1);
    assert.ok(lastServed, 'a v2 call was served after the burst');
    const charged = served(v2Burst) + served(v2Statuses);
    assert.equal(JSON.parse(lastServed.body).meta.creditsRemaining, ctx.config.credits.pro - charged);
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
