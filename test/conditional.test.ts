// Conditional requests on the list endpoints, over HTTP on both stores, with rate limits and credits
// on: ETag and Cache-Control, If-None-Match (one tag, lists, `*`, weak comparison), 304s that are
// neither counted, charged nor recorded, and every other request counted and charged as before.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, it } from 'node:test';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { changeLogHead } from '../src/changes/change-log-queries.js';
import { MemoryRateLimitStore, type RateLimitStore } from '../src/platform/infra/rate-limit-store.js';
import { encodeCursor } from '../src/changes/cursor.js';
import { fundingRecord, insertFunding, insertInvestors, investorRecord } from './fixtures.js';
import { buildApp } from '../src/app.js';
import { ReadModel } from '../src/read/read-model.js';
import {
  clearData,
  describeEach,
  makeKey,
  sharedRedisRateLimitStore,
  startApp,
  testConfig,
  testContext,
  type TestContext,
} from './helpers.js';

const LIMIT = 5;
const LIMITS = {
  RATE_LIMITS: 'true',
  RATE_LIMIT_V1: String(LIMIT),
  RATE_LIMIT_FREE: String(LIMIT),
  RATE_LIMIT_PRO: String(LIMIT),
  // An hour: no request of a test leaves the window while it runs.
  RATE_LIMIT_WINDOW_MS: '3600000',
  // A ceiling of 1,250 conditional requests, above what these tests send (the ceiling is tested below).
  RATE_LIMIT_CONDITIONAL_MULTIPLIER: '250',
};
const POLLS = 1000;
const TAG = /^W\/"[A-Za-z0-9_-]{22}"$/;

/** The shared store when REDIS_URL is set (under a prefix of this run's own), else memory. */
async function rateLimitStore(): Promise<{ store: RateLimitStore; close(): Promise<void> }> {
  if (!process.env.REDIS_URL) return { store: new MemoryRateLimitStore(), close: async () => undefined };
  return sharedRedisRateLimitStore(process.env.REDIS_URL);
}

describeEach('conditional requests', (backend) => {
  let ctx: TestContext;
  let limits: Awaited<ReturnType<typeof rateLimitStore>>;

  before(async () => {
    limits = await rateLimitStore();
    ctx = await startApp(backend, LIMITS, { rateLimitStore: limits.store });
  });
  after(async () => {
    await ctx.close();
    await limits.close();
  });

  const v2 = (key: string, url: string, headers: Record<string, string> = {}, method: InjectOptions['method'] = 'GET') =>
    ctx.app.inject({ method, url, headers: { authorization: `Bearer ${key}`, ...headers } });
  const v1 = (key: string, url: string, headers: Record<string, string> = {}, method: InjectOptions['method'] = 'GET') =>
    ctx.app.inject({ method, url, headers: { 'x-lot-api-key': key, ...headers } });
  const remaining = (res: LightMyRequestResponse) => Number(res.headers['x-ratelimit-remaining']);
  const ledgerRows = async (accountId: number) =>
    (await ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM credit_ledger WHERE account_id = $1', [accountId]))[0]!.n;
  const balance = async (accountId: number) =>
    (await ctx.db.query<{ n: number }>('SELECT credits_remaining::int AS n FROM accounts WHERE id = $1', [accountId]))[0]!.n;
  /** The usage rows of an account once the recorder has flushed what it holds (it writes every second). */
  const usageRows = async (accountId: number, expected: number) => {
    const read = async () =>
      ctx.db.query<{ status: number; credits: number }>(
        'SELECT status, credits FROM usage_events WHERE account_id = $1 ORDER BY id',
        [accountId],
      );
    for (let waited = 0; waited < 5000 && (await read()).length < expected; waited += 100) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await new Promise((resolve) => setTimeout(resolve, 1200)); // anything recorded late would be written by now
    return read();
  };
  /** Polls `times` times with If-None-Match, a few at a time, as clients of one account would. */
  const poll = async (send: () => Promise<LightMyRequestResponse>, times: number) => {
    const answers: LightMyRequestResponse[] = [];
    for (let i = 0; i < times; i += 50)
      answers.push(...(await Promise.all(Array.from({ length: Math.min(50, times - i) }, send))));
    return answers;
  };

  it(`v2: ${POLLS} polls of an unchanged page cost 1 credit and 1 slot; a new record is the next poll's 200`, async () => {
    await clearData(ctx.db);
    await insertInvestors(ctx.db, [investorRecord(), investorRecord()]);
    const account = await makeKey(ctx.db, 'free');
    const url = '/api/v2/signals/investors?countries=US&limit=10';

    const first = await v2(account.key, url);
    assert.equal(first.statusCode, 200);
    const tag = String(first.headers.etag);
    assert.match(tag, TAG);
    assert.equal(first.headers['cache-control'], 'private, no-cache');
    assert.equal(first.json().meta.creditsUsed, 1);
    assert.equal(remaining(first), LIMIT - 1);
    // The first call of the month also refilled the allowance (and wrote that to the ledger).
    const afterFirst = first.json().meta.creditsRemaining;
    const ledgerAfterFirst = await ledgerRows(account.accountId);
    assert.equal(await balance(account.accountId), afterFirst);

    const answers = await poll(() => v2(account.key, url, { 'if-none-match': tag }), POLLS);
    for (const res of answers) {
      assert.equal(res.statusCode, 304);
      assert.equal(res.body, '');
      assert.equal(res.headers.etag, tag);
      assert.equal(res.headers['cache-control'], 'private, no-cache');
      assert.equal(res.headers['x-credits-remaining'], String(afterFirst));
      assert.equal(res.headers['x-ratelimit-remaining'], undefined, 'the limiter was not consulted');
    }
    assert.equal(await balance(account.accountId), afterFirst, 'the 304s spent nothing: 1 credit in all');
    assert.equal(await ledgerRows(account.accountId), ledgerAfterFirst, 'and wrote no ledger row');

    const newest = investorRecord({ name: 'Brand New Ventures', lastUpdated: new Date().toISOString() });
    await insertInvestors(ctx.db, [newest]);
    const changed = await v2(account.key, url, { 'if-none-match': tag });
    assert.equal(changed.statusCode, 200);
    const body = changed.json();
    assert.equal(body.data[0].id, newest.id);
    assert.equal(body.pagination.totalCount, 3);
    assert.equal(body.meta.creditsUsed, 1);
    assert.notEqual(changed.headers.etag, tag);
    assert.match(String(changed.headers.etag), TAG);
    assert.equal(remaining(changed), LIMIT - 2, 'the second slot: the first poll that was not a 304');
    assert.equal(await balance(account.accountId), afterFirst - 1);

    const again = await v2(account.key, url, { 'if-none-match': String(changed.headers.etag) });
    assert.equal(again.statusCode, 304);
    // The window holds 2 of the account's requests: the next unconditional one is the third.
    assert.equal(remaining(await v2(account.key, url)), LIMIT - 3);
    assert.deepEqual(await usageRows(account.accountId, 3), [
      { status: 200, credits: 1 },
      { status: 200, credits: 1 },
      { status: 200, credits: 1 },
    ]);
  });

  it(`v1: ${POLLS} polls of an unchanged page use 1 slot; a new round is the next poll's 200`, async () => {
    await clearData(ctx.db);
    await insertFunding(ctx.db, [fundingRecord(), fundingRecord()]);
    const { key } = await makeKey(ctx.db, 'free');
    const url = '/api/v1/funding?round=seed';

    const first = await v1(key, url);
    assert.equal(first.statusCode, 200);
    const tag = String(first.headers.etag);
    assert.match(tag, TAG);
    assert.equal(first.headers['cache-control'], 'private, no-cache');
    assert.equal(first.headers['x-total-count'], '2');
    assert.equal(remaining(first), LIMIT - 1);

    const answers = await poll(() => v1(key, url, { 'if-none-match': tag }), POLLS);
    for (const res of answers) {
      assert.equal(res.statusCode, 304);
      assert.equal(res.body, '');
      assert.equal(res.headers.etag, tag);
      assert.equal(res.headers['cache-control'], 'private, no-cache');
      assert.equal(res.headers['x-total-count'], undefined, 'a 304 carries no paging headers: the kept ones still hold');
    }

    await insertFunding(ctx.db, [fundingRecord({ company_name: 'Fresh Round Inc', date_seen: new Date().toISOString() })]);
    const changed = await v1(key, url, { 'if-none-match': tag });
    assert.equal(changed.statusCode, 200);
    assert.equal(changed.json().response.data[0].company_name, 'Fresh Round Inc');
    assert.equal(changed.headers['x-total-count'], '3');
    assert.notEqual(changed.headers.etag, tag);
    assert.equal(remaining(changed), LIMIT - 2);
    assert.equal((await v1(key, url, { 'if-none-match': String(changed.headers.etag) })).statusCode, 304);
  });

  it('the tag follows exactly what is served: the query, the page, the paging headers and count mode', async () => {
    await clearData(ctx.db);
    await insertFunding(
      ctx.db,
      Array.from({ length: 25 }, () => fundingRecord()),
    );
    await insertInvestors(ctx.db, [investorRecord(), investorRecord()]);
    const { key } = await makeKey(ctx.db, 'enterprise');
    const tagOf = async (res: Promise<LightMyRequestResponse>) => String((await res).headers.etag);
    const v1Tags = [
      await tagOf(v1(key, '/api/v1/funding')),
      await tagOf(v1(key, '/api/v1/funding?page=2')),
      await tagOf(v1(key, '/api/v1/funding?page=3')),
      await tagOf(v1(key, '/api/v1/funding?page=4')),
    ];
    // Pages 3 and 4 are both empty, but their Link headers differ.
    assert.equal(new Set(v1Tags).size, 4, v1Tags.join(' '));
    assert.equal(await tagOf(v1(key, '/api/v1/funding')), v1Tags[0], 'the same page, the same tag');
    const page = await tagOf(v2(key, '/api/v2/signals/investors'));
    const count = await v2(key, '/api/v2/signals/investors?count=true');
    assert.equal(count.statusCode, 200);
    assert.match(String(count.headers.etag), TAG);
    assert.notEqual(count.headers.etag, page);
    assert.equal((await tagOf(v2(key, '/api/v2/signals/investors?limit=1'))) === page, false);
    // meta changes with every paid call; the tag does not.
    assert.equal(await tagOf(v2(key, '/api/v2/signals/investors')), page);
  });

  it('count mode: 304 while the totals hold, free and not counted', async () => {
    await clearData(ctx.db);
    await insertInvestors(ctx.db, [investorRecord()]);
    const account = await makeKey(ctx.db, 'free');
    const url = '/api/v2/signals/investors?count=true';
    const first = await v2(account.key, url);
    assert.equal(first.json().pagination.totalCount, 1);
    const ledger = await ledgerRows(account.accountId);
    for (const res of await poll(() => v2(account.key, url, { 'if-none-match': String(first.headers.etag) }), 20)) {
      assert.equal(res.statusCode, 304);
    }
    await insertInvestors(ctx.db, [investorRecord()]);
    const changed = await v2(account.key, url, { 'if-none-match': String(first.headers.etag) });
    assert.equal(changed.statusCode, 200);
    assert.equal(changed.json().pagination.totalCount, 2);
    assert.equal(remaining(changed), LIMIT - 2);
    assert.equal(await ledgerRows(account.accountId), ledger, 'count mode is free');
  });

  it('a stale tag is counted and charged like any request', async () => {
    await clearData(ctx.db);
    await insertInvestors(ctx.db, [investorRecord()]);
    const account = await makeKey(ctx.db, 'free');
    const url = '/api/v2/signals/investors';
    const stale = String((await v2(account.key, url)).headers.etag);
    await insertInvestors(ctx.db, [investorRecord({ lastUpdated: new Date().toISOString() })]);
    const before = await balance(account.accountId);
    for (let i = 0; i < 3; i++) {
      const res = await v2(account.key, url, { 'if-none-match': stale });
      assert.equal(res.statusCode, 200);
      assert.equal(res.json().meta.creditsUsed, 1);
      assert.equal(remaining(res), LIMIT - 2 - i);
    }
    assert.equal(await balance(account.accountId), before - 3);
    assert.deepEqual(
      (await usageRows(account.accountId, 4)).map((row) => row.credits),
      [1, 1, 1, 1],
    );
  });

  it('If-None-Match: `*`, lists, weak comparison; anything else matches nothing', async () => {
    await clearData(ctx.db);
    await insertInvestors(ctx.db, [investorRecord()]);
    await insertFunding(ctx.db, [fundingRecord()]);
    const { key } = await makeKey(ctx.db, 'enterprise');
    const url = '/api/v2/signals/investors';
    const tag = String((await v2(key, url)).headers.etag);
    const opaque = tag.slice(2); // the same tag written strong: equal under weak comparison
    const answers = async (value: string) => (await v2(key, url, { 'if-none-match': value })).statusCode;
    assert.equal(await answers('*'), 304);
    assert.equal(await answers(' * '), 304);
    assert.equal(await answers(opaque), 304);
    assert.equal(await answers(`"nope", W/"other", ${tag}`), 304);
    assert.equal(await answers(`W/"other",${opaque}`), 304);
    assert.equal(await answers(`W/"other", "nope"`), 200);
    assert.equal(await answers(tag.slice(3, -1)), 200, 'an unquoted tag is no entity tag');
    assert.equal(await answers('garbage'), 200);
    assert.equal(await answers(''), 200);
    assert.equal(await answers(`${tag.slice(0, -2)}x"`), 200);
    const v1Star = await v1(key, '/api/v1/funding', { 'if-none-match': '*' });
    assert.equal(v1Star.statusCode, 304);
    assert.match(String(v1Star.headers.etag), TAG);
  });

  it('HEAD behaves like GET: the same tag, 304 when it matches, not counted', async () => {
    await clearData(ctx.db);
    await insertInvestors(ctx.db, [investorRecord()]);
    await insertFunding(ctx.db, [fundingRecord()]);
    const account = await makeKey(ctx.db, 'free');
    for (const [send, url] of [
      [v2, '/api/v2/signals/investors'],
      [v1, '/api/v1/funding'],
    ] as const) {
      const got = await send(account.key, url);
      const head = await send(account.key, url, {}, 'HEAD');
      assert.equal(head.statusCode, 200);
      assert.equal(head.headers.etag, got.headers.etag);
      assert.equal(head.headers['cache-control'], 'private, no-cache');
      for (let i = 0; i < 10; i++) {
        const res = await send(account.key, url, { 'if-none-match': String(got.headers.etag) }, 'HEAD');
        assert.equal(res.statusCode, 304);
        assert.equal(res.body, '');
      }
      assert.equal(remaining(await send(account.key, url, {}, 'HEAD')), LIMIT - 3);
    }
  });

  it('past the limit: a matching tag still gets 304; anything else the 429 it always got, uncharged', async () => {
    await clearData(ctx.db);
    await insertInvestors(ctx.db, [investorRecord()]);
    await insertFunding(ctx.db, [fundingRecord()]);
    const account = await makeKey(ctx.db, 'free');
    for (const [send, url, body] of [
      [v2, '/api/v2/signals/investors', { success: false, error: 'Rate limit exceeded. Please try again later.' }],
      [v1, '/api/v1/funding', { code: 429, message: 'Rate limit exceeded: a maximum of 5 requests per 3600 seconds is allowed' }],
    ] as const) {
      const tag = String((await send(account.key, url)).headers.etag);
      for (let i = 1; i < LIMIT; i++) assert.equal((await send(account.key, url)).statusCode, 200);
      const ledger = await ledgerRows(account.accountId);
      assert.equal((await send(account.key, url, { 'if-none-match': tag })).statusCode, 304);
      const variants: Record<string, string>[] = [{}, { 'if-none-match': 'W/"stale"' }, { 'if-none-match': '"a", "b"' }];
      for (const headers of variants) {
        const refused = await send(account.key, url, headers);
        assert.equal(refused.statusCode, 429, JSON.stringify(headers));
        // (v2 bodies may carry more fields, e.g. an error code; these two are the contract's.)
        assert.deepEqual(send === v2 ? { success: refused.json().success, error: refused.json().error } : refused.json(), body);
        assert.ok(Number(refused.headers['retry-after']) > 0);
        assert.equal(refused.headers['x-ratelimit-remaining'], '0');
        assert.equal(refused.headers['x-ratelimit-limit'], String(LIMIT));
        assert.equal(refused.headers.etag, undefined);
        assert.equal(refused.headers['cache-control'], 'no-store');
      }
      // The limit still comes before validation: a bad parameter past the limit is a 429 too.
      const bad = await send(account.key, `${url}?nope=1`, { 'if-none-match': tag });
      assert.equal(bad.statusCode, 429);
      assert.equal(await ledgerRows(account.accountId), ledger, 'nothing charged past the limit');
      assert.equal((await send(account.key, url, { 'if-none-match': tag }, 'HEAD')).statusCode, 304);
    }
  });

  it('a conditional request that fails is counted as before; errors say no-store and carry no tag', async () => {
    await clearData(ctx.db);
    await insertInvestors(ctx.db, [investorRecord()]);
    const account = await makeKey(ctx.db, 'free');
    const url = '/api/v2/signals/investors';
    const tag = String((await v2(account.key, url)).headers.etag);
    const bad = await v2(account.key, `${url}?limit=0`, { 'if-none-match': tag });
    assert.equal(bad.statusCode, 400);
    assert.equal(bad.headers['cache-control'], 'no-store');
    assert.equal(bad.headers.etag, undefined);
    assert.equal(remaining(bad), LIMIT - 2, 'counted, with its headers');
    const unknown = await v2('ds_not_a_key', url, { 'if-none-match': tag });
    assert.equal(unknown.statusCode, 401);
    assert.equal(unknown.headers['cache-control'], 'no-store');
    const v1Bad = await v1(account.key, '/api/v1/funding?page=0', { 'if-none-match': '*' });
    assert.equal(v1Bad.statusCode, 400);
    assert.equal(v1Bad.headers['cache-control'], 'no-store');
    assert.equal(remaining(v1Bad), LIMIT - 1);
  });

  it('without credits: 402 for a page, 304 for the page the client already holds', async () => {
    await clearData(ctx.db);
    await insertInvestors(ctx.db, [investorRecord()]);
    const account = await makeKey(ctx.db, 'free');
    const url = '/api/v2/signals/investors';
    const tag = String((await v2(account.key, url)).headers.etag);
    const setBalance = (n: number) =>
      ctx.db.query(
        `UPDATE accounts SET credits_remaining = $2, credits_period = date_trunc('month', now() AT TIME ZONE 'UTC')::date WHERE id = $1`,
        [account.accountId, n],
      );
    // The client cannot see a charge taken after its 304 was sent; the ledger and the balance can.
    // With one credit left, the 304 leaves both as they were.
    await setBalance(1);
    const ledger = await ledgerRows(account.accountId);
    assert.equal((await v2(account.key, url, { 'if-none-match': tag })).statusCode, 304);
    assert.equal(await ledgerRows(account.accountId), ledger, 'no ledger row for a 304');
    assert.equal(await balance(account.accountId), 1, 'the last credit is still there');
    await setBalance(0);
    const kept = await v2(account.key, url, { 'if-none-match': tag });
    assert.equal(kept.statusCode, 304);
    assert.equal(kept.headers['x-credits-remaining'], '0');
    const refused = await v2(account.key, url, { 'if-none-match': 'W/"stale"' });
    assert.equal(refused.statusCode, 402);
    assert.equal(refused.headers['cache-control'], 'no-store');
    assert.equal(refused.headers.etag, undefined);
    assert.equal(remaining(refused), LIMIT - 2, 'a 402 is counted, as before');
    assert.equal(await ledgerRows(account.accountId), ledger, 'nothing charged, nothing refunded');
  });

  it('the changes feed: 304 while nothing changed, then the change, charged', async () => {
    await clearData(ctx.db);
    const account = await makeKey(ctx.db, 'free');
    const since = encodeCursor(await changeLogHead(ctx.db));
    await insertInvestors(ctx.db, [investorRecord()]);
    const url = `/api/v2/changes?since=${since}&datasets=investors`;
    const first = await v2(account.key, url);
    assert.equal(first.statusCode, 200);
    assert.equal(first.json().data.length, 1);
    assert.equal(first.headers['cache-control'], 'private, no-cache');
    const tag = String(first.headers.etag);
    assert.match(tag, TAG);
    const startBalance = await balance(account.accountId);
    for (const res of await poll(() => v2(account.key, url, { 'if-none-match': tag }), 100)) assert.equal(res.statusCode, 304);
    assert.equal(await balance(account.accountId), startBalance);
    const added = investorRecord();
    await insertInvestors(ctx.db, [added]);
    const changed = await v2(account.key, url, { 'if-none-match': tag });
    assert.equal(changed.statusCode, 200);
    assert.deepEqual(
      changed.json().data.map((item: { id: string }) => item.id),
      [first.json().data[0].id, added.id],
    );
    assert.equal(changed.json().meta.creditsUsed, 1);
    assert.equal(remaining(changed), LIMIT - 2);
  });

  it('the OpenAPI document shows If-None-Match, the ETag and the 304 on every list operation', async () => {
    const doc = (await ctx.app.inject({ url: '/openapi.json' })).json();
    const lists = Object.entries(doc.paths as Record<string, { get?: Record<string, never> }>).filter(
      ([path, item]) => item.get && (/^\/api\/v1\/(funding|m-a)$/.test(path) || /^\/api\/v2\/(signals\/|changes$)/.test(path)),
    );
    assert.ok(lists.length >= 6, lists.map(([path]) => path).join(' '));
    for (const [path, item] of lists) {
      const operation = item.get as unknown as {
        parameters: { in: string; name: string }[];
        responses: Record<string, { content?: object; headers?: Record<string, object> }>;
      };
      assert.ok(
        operation.parameters.some((p) => p.in === 'header' && p.name === 'If-None-Match'),
        `${path}: If-None-Match`,
      );
      assert.ok(operation.responses['200']!.headers?.ETag, `${path}: ETag`);
      assert.ok(operation.responses['304'], `${path}: 304`);
      assert.equal(operation.responses['304']!.content, undefined, `${path}: a 304 has no body`);
    }
  });
});

/**
 * The tag a page would have if it were a plain hash of what it shows, as it was: anyone could
 * compute it offline, e.g. a count-mode page's tag from its total alone.
 */
function unkeyedTag(...parts: string[]): string {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(`${part.length}:`).update(part);
  return `W/"${hash.digest().subarray(0, 16).toString('base64url')}"`;
}

describeEach('conditional requests: tags keyed by the server, and a ceiling of their own', (backend) => {
  let ctx: TestContext;
  let limits: Awaited<ReturnType<typeof rateLimitStore>>;
  /** Pages the read model has built (every list request's work, a 304's included). */
  let pagesBuilt = 0;

  before(async () => {
    limits = await rateLimitStore();
    const db = await backend.openMigrated();
    const readModel = await ReadModel.open(db);
    const page = readModel.page.bind(readModel);
    readModel.page = (...args) => {
      pagesBuilt++;
      return page(...args);
    };
    // The default ceiling: 10 times the plan's limit.
    const config = testConfig({ ...LIMITS, RATE_LIMIT_CONDITIONAL_MULTIPLIER: '' });
    const app = await buildApp({ config, db, rateLimitStore: limits.store, services: { readModel } });
    await app.ready();
    ctx = testContext(db, app, config);
    await insertInvestors(ctx.db, [investorRecord({ country: 'United States' }), investorRecord({ country: 'United Kingdom' })]);
  });
  after(async () => {
    await ctx.close();
    await limits.close();
  });

  const v2 = (key: string, url: string, headers: Record<string, string> = {}) =>
    ctx.app.inject({ url, headers: { authorization: `Bearer ${key}`, ...headers } });
  const v1 = (key: string, url: string, headers: Record<string, string> = {}) =>
    ctx.app.inject({ url, headers: { 'x-lot-api-key': key, ...headers } });
  const noCredits = (accountId: number) =>
    ctx.db.query(
      `UPDATE accounts SET credits_remaining = 0, credits_period = date_trunc('month', now() AT TIME ZONE 'UTC')::date WHERE id = $1`,
      [accountId],
    );

  it('a tag cannot be computed from what the page shows: past the limit and at 0 credits, no total leaks', async () => {
    const account = await makeKey(ctx.db, 'free');
    const url = '/api/v2/signals/investors?countries=US&count=true';
    const counted = await v2(account.key, url);
    assert.equal(counted.statusCode, 200);
    const { pagination } = counted.json();
    assert.equal(pagination.totalCount, 1);
    // What the tag would be, were it a plain hash of the page: it is not.
    assert.notEqual(counted.headers.etag, unkeyedTag('[]', JSON.stringify(pagination)));
    assert.match(String(counted.headers.etag), TAG);

    for (let i = 1; i < LIMIT; i++) assert.equal((await v2(account.key, url)).statusCode, 200);
    await noCredits(account.accountId);
    // Past the limit, without credits: every total's would-be tag, in one If-None-Match, for another filter.
    const candidates = Array.from({ length: 30 }, (_, total) =>
      unkeyedTag('[]', JSON.stringify({ ...pagination, totalCount: total, totalPages: Math.ceil(total / 100) })),
    );
    for (const probe of ['/api/v2/signals/investors?countries=GB&count=true', url]) {
      const res = await v2(account.key, probe, { 'if-none-match': candidates.join(', ') });
      assert.equal(res.statusCode, 429, `${probe}: a 304 would tell the total`);
    }
    // The tag the server gave still answers 304.
    assert.equal((await v2(account.key, url, { 'if-none-match': String(counted.headers.etag) })).statusCode, 304);
  });

  it('a tag matches only the URL and the account it was given for', async () => {
    const one = await makeKey(ctx.db, 'enterprise');
    const other = await makeKey(ctx.db, 'enterprise');
    const us = '/api/v2/signals/investors?countries=US&count=true';
    const gb = '/api/v2/signals/investors?countries=GB&count=true';
    const tag = String((await v2(one.key, us)).headers.etag);
    const gbTag = String((await v2(one.key, gb)).headers.etag);
    // The same page (a total of 1) for another URL, or for another account: another tag.
    assert.notEqual(gbTag, tag);
    assert.equal((await v2(one.key, us, { 'if-none-match': tag })).statusCode, 304);
    assert.equal((await v2(one.key, gb, { 'if-none-match': tag })).statusCode, 200);
    assert.equal((await v2(other.key, us, { 'if-none-match': tag })).statusCode, 200);
    assert.notEqual((await v2(other.key, us)).headers.etag, tag);
    // The same account and URL: the same tag, whoever of its keys asks and however often.
    assert.equal((await v2(one.key, us)).headers.etag, tag);
  });

  it(`conditional requests have a ceiling of 10 times the plan's limit: past it, a 429 before any page is built`, async () => {
    const CEILING = 10 * LIMIT;
    const account = await makeKey(ctx.db, 'free');
    const url = '/api/v2/signals/investors';
    const first = await v2(account.key, url);
    const tag = String(first.headers.etag);
    // Polls with the current tag: 304s, free of the plan's window, up to the ceiling.
    for (let i = 0; i < CEILING; i++) assert.equal((await v2(account.key, url, { 'if-none-match': tag })).statusCode, 304);
    const refused = await v2(account.key, url, { 'if-none-match': tag });
    assert.equal(refused.statusCode, 429);
    assert.deepEqual(
      { success: refused.json().success, error: refused.json().error, code: refused.json().code },
      { success: false, error: 'Rate limit exceeded. Please try again later.', code: 'rate_limited' },
    );
    assert.equal(refused.headers['x-ratelimit-limit'], String(CEILING));
    assert.equal(refused.headers['x-ratelimit-remaining'], '0');
    assert.equal(refused.headers['ratelimit-policy'], `"conditional";q=${CEILING};w=3600`);
    assert.ok(Number(refused.headers['retry-after']) >= 1);
    assert.equal(refused.headers['cache-control'], 'no-store');
    // The plan's window holds the one request that was not a 304.
    const plain = await v2(account.key, url);
    assert.equal(plain.statusCode, 200);
    assert.equal(plain.headers['x-ratelimit-remaining'], String(LIMIT - 2));

    // v1 too, with its own message.
    const v1Account = await makeKey(ctx.db, 'free');
    const v1Tag = String((await v1(v1Account.key, '/api/v1/funding')).headers.etag);
    for (let i = 0; i < CEILING; i++) await v1(v1Account.key, '/api/v1/funding', { 'if-none-match': v1Tag });
    const v1Refused = await v1(v1Account.key, '/api/v1/funding', { 'if-none-match': v1Tag });
    assert.equal(v1Refused.statusCode, 429);
    assert.deepEqual(v1Refused.json(), {
      code: 429,
      message: `Rate limit exceeded: a maximum of ${CEILING} conditional requests per 3600 seconds is allowed`,
    });
  });

  it('tags that never match, past the limit: one page built per conditional request up to the ceiling, none after', async () => {
    const CEILING = 10 * LIMIT;
    const account = await makeKey(ctx.db, 'free');
    const url = '/api/v2/signals/investors';
    for (let i = 0; i < LIMIT; i++) assert.equal((await v2(account.key, url)).statusCode, 200);
    const built = pagesBuilt;
    const answers: LightMyRequestResponse[] = [];
    for (let i = 0; i < CEILING + 20; i++) answers.push(await v2(account.key, url, { 'if-none-match': `W/"bogus-${i}"` }));
    assert.ok(
      answers.every((res) => res.statusCode === 429),
      JSON.stringify(answers.map((res) => res.statusCode)),
    );
    // The first CEILING were refused by the plan's limit once their page was known; the rest by the ceiling, before.
    assert.deepEqual(
      answers.map((res) => res.headers['x-ratelimit-limit']),
      [...Array(CEILING).fill(String(LIMIT)), ...Array(20).fill(String(CEILING))],
    );
    assert.equal(pagesBuilt - built, CEILING);
    // The ceiling comes before validation, as the plan's limit does for other requests.
    const bad = await v2(account.key, `${url}?limit=0`, { 'if-none-match': 'W/"bogus"' });
    assert.equal(bad.statusCode, 429);
    assert.equal(bad.headers['x-ratelimit-limit'], String(CEILING));
  });
});
