import { once } from 'node:events';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.js';
import { setV1RateLimit } from '../src/accounts/account-queries.js';
import { MemoryRateLimitStore } from '../src/platform/infra/rate-limit-store.js';
import { createRedisClient, RedisRateLimitStore } from '../src/platform/infra/redis-rate-limit-store.js';
import { ResilientRateLimitStore } from '../src/platform/infra/resilient-rate-limit-store.js';
import { generateApiKey } from '../src/accounts/api-keys.js';
import { loadConfig } from '../src/config.js';
import { backends, makeKey, oneStore, startApp, testConfig, type TestContext, describeOnOneStore } from './helpers.js';

const REDIS_URL = process.env.REDIS_URL;
// As in production: account limits and the failed-authentication limit both on.
const LIMITED = { RATE_LIMITS: 'true', AUTH_FAILURE_LIMITS: 'true' };
const v1 = (app: FastifyInstance, key: string, ip = '127.0.0.1') =>
  app.inject({ method: 'GET', url: '/api/v1/funding', headers: { 'x-lot-api-key': key }, remoteAddress: ip });
const v2 = (app: FastifyInstance, key: string) =>
  app.inject({ method: 'GET', url: '/api/v2/signals/investors', headers: { authorization: `Bearer ${key}` } });

// Many calls at once, 50 at a time: all of them still land in one window, and a loaded machine
// does not keep the 200th waiting on the connection pool past its timeout (a 503, not a decision).
async function inWaves<T>(count: number, call: (i: number) => Promise<T>): Promise<T[]> {
  const results: T[] = [];
  for (let start = 0; start < count; start += 50)
    results.push(...(await Promise.all(Array.from({ length: Math.min(50, count - start) }, (_, k) => call(start + k)))));
  return results;
}
const statusCounts = (responses: { statusCode: number }[]) => {
  const counts: Record<number, number> = {};
  for (const { statusCode } of responses) counts[statusCode] = (counts[statusCode] ?? 0) + 1;
  return counts;
};
const quietLog = { warn: () => undefined, info: () => undefined };
const uniquePrefix = () => `test:${randomBytes(6).toString('hex')}:`;
const redisStore = (url: string, prefix: string, timeoutMs = 250) => {
  const client = createRedisClient({ url, commandTimeoutMs: timeoutMs });
  client.on('error', () => undefined);
  return {
    client,
    store: new ResilientRateLimitStore(new RedisRateLimitStore(client, prefix), new MemoryRateLimitStore(), quietLog, timeoutMs),
  };
};

describe('rate limits on one instance (memory store, controllable clock)', () => {
  let ctx: TestContext;
  let now = Date.parse('2026-01-01T00:00:00Z');
  const clock = () => now;

  before(async () => {
    ctx = await startApp(
      backends()[0]!,
      { ...LIMITED, AUTH_FAILURE_LIMIT: '5' },
      { rateLimitStore: new MemoryRateLimitStore(clock) },
    );
  });
  after(() => ctx.close());

  it('v1: 60 in any rolling minute; the 61st gets 429 with the v1 body and Retry-After', async () => {
    const { key } = await makeKey(ctx.db);
    for (let i = 0; i < 60; i++) {
      const res = await v1(ctx.app, key);
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['x-ratelimit-limit'], '60');
      assert.equal(res.headers['x-ratelimit-remaining'], String(59 - i));
    }
    now += 10_000;
    const refused = await v1(ctx.app, key);
    assert.equal(refused.statusCode, 429);
    assert.deepEqual(refused.json(), {
      code: 429,
      message: 'Rate limit exceeded: a maximum of 60 requests per minute is allowed',
    });
    assert.equal(refused.headers['retry-after'], '50');
    assert.equal(refused.headers['x-ratelimit-remaining'], '0');
  });

  it('is a rolling window: a burst at the end of a minute and one at the start of the next is still limited', async () => {
    const { key } = await makeKey(ctx.db);
    now = Date.parse('2026-01-01T00:10:59Z'); // one second before a minute boundary
    for (let i = 0; i < 60; i++) assert.equal((await v1(ctx.app, key)).statusCode, 200);
    now = Date.parse('2026-01-01T00:11:01Z'); // a fixed window would have reset here
    const second = await Promise.all(Array.from({ length: 60 }, () => v1(ctx.app, key)));
    assert.equal(second.filter((r) => r.statusCode === 200).length, 0);
    assert.equal(second[0]!.headers['retry-after'], '58');
    now = Date.parse('2026-01-01T00:11:59.001Z'); // the first burst has left the window
    const third = await Promise.all(Array.from({ length: 61 }, () => v1(ctx.app, key)));
    assert.equal(third.filter((r) => r.statusCode === 200).length, 60);
  });

  it('refused requests do not use up the window: a client retrying in a loop gets through when it opens', async () => {
    const { key } = await makeKey(ctx.db);
    now = Date.parse('2026-01-01T01:00:00Z');
    for (let i = 0; i < 60; i++) await v1(ctx.app, key);
    for (let i = 0; i < 30; i++) {
      now += 1000;
      assert.equal((await v1(ctx.app, key)).statusCode, 429);
    }
    now = Date.parse('2026-01-01T01:01:00.001Z');
    assert.equal((await v1(ctx.app, key)).statusCode, 200);
  });

  it('limits count per account: more keys do not raise them', async () => {
    const first = await makeKey(ctx.db, 'pro', `many-keys-${randomBytes(3).toString('hex')}@example.com`);
    const second = await makeKey(ctx.db, 'pro', first.email);
    now = Date.parse('2026-01-01T02:00:00Z');
    const results = await Promise.all(Array.from({ length: 80 }, (_, i) => v1(ctx.app, i % 2 ? first.key : second.key)));
    assert.equal(results.filter((r) => r.statusCode === 200).length, 60);
  });

  it('an account can be given a higher v1 limit', async () => {
    const account = await makeKey(ctx.db, 'enterprise');
    await setV1RateLimit(ctx.db, account.email, 100);
    await new Promise((r) => setTimeout(r, 1100)); // the key cache (1 s) picks the change up
    now = Date.parse('2026-01-01T03:00:00Z');
    const results = await Promise.all(Array.from({ length: 120 }, () => v1(ctx.app, account.key)));
    assert.equal(results.filter((r) => r.statusCode === 200).length, 100);
    const refused = results.find((r) => r.statusCode === 429)!;
    assert.match(refused.json().message, /a maximum of 100 requests per minute/);
  });

  it('v2: per-tier limits, 429 body, draft RateLimit headers, and 429s cost no credits', async () => {
    now = Date.parse('2026-01-01T04:00:00Z');
    for (const [tier, limit] of [
      ['free', 10],
      ['pro', 60],
    ] as const) {
      const account = await makeKey(ctx.db, tier);
      const results = [];
      for (let i = 0; i < limit + 5; i++) results.push(await v2(ctx.app, account.key));
      assert.equal(results.filter((r) => r.statusCode === 200).length, limit, tier);
      const ok = results[0]!;
      assert.equal(ok.headers['ratelimit-policy'], `"default";q=${limit};w=60`);
      assert.equal(ok.headers['ratelimit'], `"default";r=${limit - 1};t=60`);
      const refused = results[limit]!;
      assert.equal(refused.statusCode, 429);
      assert.deepEqual(refused.json(), {
        success: false,
        error: 'Rate limit exceeded. Please try again later.',
        code: 'rate_limited',
      });
      assert.equal(refused.headers['retry-after'], '60');
      const [ledger] = await ctx.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM credit_ledger WHERE account_id = $1 AND reason = 'request'`,
        [account.accountId],
      );
      assert.equal(ledger!.n, limit, 'only admitted requests were charged');
    }
  });

  it('v2 HEAD counts in the window like GET (it runs the same query) but is never charged', async () => {
    now = Date.parse('2026-01-01T05:00:00Z');
    const account = await makeKey(ctx.db, 'free');
    const head = () =>
      ctx.app.inject({ method: 'HEAD', url: '/api/v2/signals/investors', headers: { authorization: `Bearer ${account.key}` } });
    for (let i = 0; i < 10; i++) assert.equal((await head()).statusCode, 200);
    const refused = await head();
    assert.equal(refused.statusCode, 429);
    assert.equal(refused.headers['retry-after'], '60');
    assert.equal((await v2(ctx.app, account.key)).statusCode, 429, 'GET shares the window');
    const [ledger] = await ctx.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM credit_ledger WHERE account_id = $1 AND reason = 'request'`,
      [account.accountId],
    );
    assert.equal(ledger!.n, 0);
  });

  it('X-RateLimit-Reset is the Unix time the oldest request leaves the window', async () => {
    const { key } = await makeKey(ctx.db);
    now = Date.parse('2026-01-01T05:00:00Z');
    const res = await v1(ctx.app, key);
    const reset = Number(res.headers['x-ratelimit-reset']);
    // The header is computed with the wall clock; the window opened "now" on the store's clock.
    assert.ok(Math.abs(reset - Math.ceil(Date.now() / 1000) - 60) <= 1, String(reset));
  });

  it('failed authentication is limited per client IP; valid keys from that IP are not', async () => {
    const { key } = await makeKey(ctx.db);
    now = Date.parse('2026-01-01T06:00:00Z');
    const attacker = '203.0.113.9';
    for (let i = 0; i < 5; i++) assert.equal((await v1(ctx.app, generateApiKey(), attacker)).statusCode, 401);
    const blocked = await v1(ctx.app, generateApiKey(), attacker);
    assert.equal(blocked.statusCode, 429);
    assert.equal(blocked.json().code, 429);
    assert.ok(Number(blocked.headers['retry-after']) >= 1);
    assert.equal((await v1(ctx.app, key, attacker)).statusCode, 200, 'a valid key from the same IP still works');
    assert.equal((await v1(ctx.app, generateApiKey(), '198.51.100.7')).statusCode, 401, 'other IPs are unaffected');
    const v2Blocked = await ctx.app.inject({
      method: 'GET',
      url: '/api/v2/signals/investors',
      headers: { authorization: 'Bearer nope' },
      remoteAddress: attacker,
    });
    assert.equal(v2Blocked.statusCode, 429);
    assert.equal(v2Blocked.json().success, false);
  });
});

describeOnOneStore('the failed-authentication limit has its own setting', (backend) => {
  const attempt = (app: FastifyInstance, ip: string, headers: Record<string, string>, url = '/api/v1/funding') =>
    app.inject({ method: 'GET', url, headers, remoteAddress: ip });

  it('is on by default, also when RATE_LIMITS=false', () => {
    assert.equal(loadConfig({ RATE_LIMITS: 'false' }).rateLimits.authFailuresEnabled, true);
  });

  it('RATE_LIMITS=false leaves it in force: guessing keys from one IP still ends in 429', async () => {
    const ctx = await startApp(
      backend,
      { RATE_LIMITS: 'false', AUTH_FAILURE_LIMITS: 'true', AUTH_FAILURE_LIMIT: '3' },
      // In memory, so a rerun within the window starts from zero.
      { rateLimitStore: new MemoryRateLimitStore() },
    );
    try {
      const { key } = await makeKey(ctx.db);
      const attacker = '203.0.113.77';
      for (let i = 0; i < 3; i++)
        assert.equal((await attempt(ctx.app, attacker, { 'x-lot-api-key': generateApiKey() })).statusCode, 401);
      const v1Blocked = await attempt(ctx.app, attacker, { 'x-lot-api-key': generateApiKey() });
      assert.equal(v1Blocked.statusCode, 429);
      assert.equal(v1Blocked.json().code, 429);
      assert.ok(Number(v1Blocked.headers['retry-after']) >= 1);
      const v2Blocked = await attempt(
        ctx.app,
        attacker,
        { authorization: `Bearer ${generateApiKey()}` },
        '/api/v2/signals/investors',
      );
      assert.equal(v2Blocked.statusCode, 429);
      assert.equal(v2Blocked.json().success, false);
      const valid = await attempt(ctx.app, attacker, { 'x-lot-api-key': key });
      assert.equal(valid.statusCode, 200, 'a valid key from the same IP still works');
      assert.equal(valid.headers['x-ratelimit-limit'], undefined, 'account limits stay off');
    } finally {
      await ctx.close();
    }
  });

  it('AUTH_FAILURE_LIMITS=false switches it off', async () => {
    const ctx = await startApp(
      backend,
      { RATE_LIMITS: 'true', AUTH_FAILURE_LIMITS: 'false', AUTH_FAILURE_LIMIT: '3' },
      { rateLimitStore: new MemoryRateLimitStore() },
    );
    try {
      for (let i = 0; i < 6; i++)
        assert.equal((await attempt(ctx.app, '203.0.113.78', { 'x-lot-api-key': generateApiKey() })).statusCode, 401);
    } finally {
      await ctx.close();
    }
  });
});

for (const backend of oneStore()) {
  const skip = backend.skip || (REDIS_URL ? false : 'REDIS_URL is not set');
  describe(`rate limits shared through Redis [${backend.name}]`, () => {
    if (skip) {
      it('needs Redis', { skip }, () => undefined);
      return;
    }
    let ctx: TestContext;
    let other: FastifyInstance;
    let redisA: ReturnType<typeof redisStore>;
    let redisB: ReturnType<typeof redisStore>;

    before(async () => {
      const prefix = uniquePrefix();
      // These tests are about sharing one window, not about slow Redis: a generous timeout keeps a
      // busy machine (200 requests at once) from sending decisions to the in-memory fallback.
      redisA = redisStore(REDIS_URL!, prefix, 5000);
      redisB = redisStore(REDIS_URL!, prefix, 5000);
      ctx = await startApp(backend, LIMITED, { rateLimitStore: redisA.store });
      other = await buildApp({ config: testConfig(LIMITED), db: ctx.db, rateLimitStore: redisB.store });
    });
    after(async () => {
      await other.close();
      await ctx.close();
    });

    it('two instances, one account, 200 requests alternating: exactly 60 on v1 and the tier limit on v2', async () => {
      const account = await makeKey(ctx.db, 'pro');
      const v1Results = await inWaves(200, (i) => v1(i % 2 ? ctx.app : other, account.key));
      assert.deepEqual(statusCounts(v1Results), { 200: 60, 429: 140 });
      for (const r of v1Results.filter((r) => r.statusCode === 429)) {
        const retry = Number(r.headers['retry-after']);
        assert.ok(retry >= 1 && retry <= 60, String(retry));
      }
      const free = await makeKey(ctx.db, 'free');
      const v2Results = await inWaves(200, (i) => v2(i % 2 ? ctx.app : other, free.key));
      assert.deepEqual(statusCounts(v2Results), { 200: 10, 429: 190 });
      assert.equal(redisA.store.degraded || redisB.store.degraded, false, 'Redis served every decision');
    });

    it('REDIS_KEY_PREFIX keeps deployments sharing one Redis apart; every key carries it', async () => {
      const [prefixA, prefixB] = [`ds-${randomBytes(4).toString('hex')}-a:`, `ds-${randomBytes(4).toString('hex')}-b:`];
      const env = (prefix: string) =>
        testConfig({ ...LIMITED, RATE_LIMIT_V1: '2', REDIS_URL: REDIS_URL!, REDIS_TIMEOUT_MS: '5000', REDIS_KEY_PREFIX: prefix });
      // Two deployments on one database and one Redis, and a second instance of the first.
      const apps = [prefixA, prefixB, prefixA].map((prefix) => buildApp({ config: env(prefix), db: ctx.db }));
      const [a, b, a2] = await Promise.all(apps);
      const admin = createRedisClient({ url: REDIS_URL!, commandTimeoutMs: 2000 });
      try {
        // The client fails fast while it connects (no offline queue): on a loaded machine it may not be ready yet.
        if (admin.status !== 'ready') await once(admin, 'ready');
        const { key } = await makeKey(ctx.db, 'pro');
        const statuses = async (app: FastifyInstance, n: number) => {
          const found: number[] = [];
          for (let i = 0; i < n; i++) found.push((await v1(app, key)).statusCode);
          return found;
        };
        assert.deepEqual(await statuses(a!, 3), [200, 200, 429]);
        assert.deepEqual(await statuses(b!, 3), [200, 200, 429], "the other deployment's counter is its own");
        assert.deepEqual(await statuses(a2!, 1), [429], 'instances of one deployment share theirs');
        for (const prefix of [prefixA, prefixB]) {
          const keys = await admin.keys(`${prefix}*`);
          assert.ok(keys.length > 0 && keys.every((k) => k.startsWith(`${prefix}rl:`)), keys.join(', '));
        }
      } finally {
        admin.disconnect();
        for (const app of [a, b, a2]) await app!.close();
      }
    });
  });
}

describe('Redis faults', () => {
  const skip = REDIS_URL ? false : 'REDIS_URL is not set';

  // Needs no Redis at all: it points the store at a port where nothing listens.
  it('no Redis listening: answers come fast and the in-memory limit applies', async () => {
    const dead = redisStore('redis://127.0.0.1:1', uniquePrefix());
    const ctx = await startApp(backends()[0]!, { ...LIMITED, RATE_LIMIT_V1: '5' }, { rateLimitStore: dead.store });
    try {
      const { key } = await makeKey(ctx.db);
      const statuses = [];
      for (let i = 0; i < 7; i++) {
        const started = performance.now();
        statuses.push((await v1(ctx.app, key)).statusCode);
        assert.ok(performance.now() - started < 250, 'not held up by the missing Redis');
      }
      assert.deepEqual(statuses, [200, 200, 200, 200, 200, 429, 429]);
      assert.equal(dead.store.degraded, true);
    } finally {
      await ctx.close();
    }
  });

  it(
    'Redis stops answering mid-test: requests wait at most ~250 ms, then shared limiting resumes by itself',
    { skip },
    async () => {
      const { client, store } = redisStore(REDIS_URL!, uniquePrefix(), 250);
      const ctx = await startApp(backends()[0]!, LIMITED, { rateLimitStore: store });
      const admin = createRedisClient({ url: REDIS_URL!, commandTimeoutMs: 2000 });
      try {
        const { key } = await makeKey(ctx.db);
        await client.ping();
        assert.equal((await v1(ctx.app, key)).statusCode, 200);
        assert.equal(store.degraded, false);
        // Pause only this instance's connection's kind of traffic: CLIENT PAUSE WRITE blocks the script.
        await admin.call('CLIENT', 'PAUSE', '1500', 'WRITE');
        const started = performance.now();
        assert.equal((await v1(ctx.app, key)).statusCode, 200);
        const waited = performance.now() - started;
        assert.ok(waited < 400, `waited ${waited.toFixed(0)} ms`);
        assert.equal(store.degraded, true);
        await new Promise((r) => setTimeout(r, 2600)); // pause over, probe interval passed
        assert.equal((await v1(ctx.app, key)).statusCode, 200);
        assert.equal(store.degraded, false, 'back on Redis without a restart');
      } finally {
        await admin.call('CLIENT', 'UNPAUSE').catch(() => undefined);
        admin.disconnect();
        await ctx.close();
      }
    },
  );
});
