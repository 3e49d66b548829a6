// The typed client (client/, @dealsignal/client) as built, against a listening server on each store:
// page walks give exactly the totals the API states, with no record twice; caps stop walks; 429s
// are waited out; other errors surface at once as DealSignalError with the family's body.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, it } from 'node:test';
import { DealSignal, DealSignalError, verifyWebhook } from '@dealsignal/client';
import { adjustCredits } from '../../src/accounts/credit-queries.js';
import { DEMO_SEED, seedDatabase, startOfTodayUtc } from '../../src/demo/seed.js';
import { makeKey, startApp, type TestContext, describeOnOneStore } from '../helpers.js';
import { startReceiver } from '../webhooks/receiver.js';
import { DELIVERY_ENV } from '../webhooks/support.js';

/** A fetch that counts the answers it saw, by status, and otherwise is the real one. */
function countingFetch() {
  const statuses: number[] = [];
  const fetchImpl: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    statuses.push(response.status);
    return response;
  };
  return { fetchImpl, statuses };
}

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of iterable) items.push(item);
  return items;
}

/** The account's balance, set as an operator sets it (`keys credits --set`). */
const setCredits = (ctx: TestContext, accountId: number, credits: number) => adjustCredits(ctx.db, accountId, { set: credits });

describeOnOneStore('typed client', (backend) => {
  let ctx: TestContext;
  let baseUrl: string;
  let ds: DealSignal;
  let apiKey: string;
  let accountId: number;

  before(async () => {
    ctx = await startApp(backend, DELIVERY_ENV);
    await seedDatabase(ctx.db, { scale: 'demo', seed: DEMO_SEED, asOf: startOfTodayUtc() });
    ({ key: apiKey, accountId } = await makeKey(ctx.db, 'enterprise'));
    baseUrl = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    ds = new DealSignal({ apiKey, baseUrl });
  });
  after(() => ctx.close());

  it('walks every v1 page through the Link header: X-Total-Count records, none twice', async () => {
    const query = { country: 'GB', category: 'fintech' };
    const first = await ds.v1.funding.list(query);
    assert.ok(first.total > 40, `a filter spanning several pages (${first.total})`);
    const pages = await collect(ds.v1.funding.pages(query));
    assert.deepEqual(
      pages.map((page) => page.page),
      Array.from({ length: Math.ceil(first.total / 20) }, (_, i) => i + 1),
    );
    const rounds = pages.flatMap((page) => page.data);
    assert.equal(rounds.length, first.total);
    assert.equal(new Set(rounds.map((round) => JSON.stringify(round))).size, first.total);
    assert.ok(rounds.every((round) => round.company_info?.hq_country === 'United Kingdom'));

    const deals = await collect(ds.v1.deals.all({ country: 'US' }));
    const { total } = await ds.v1.deals.list({ country: 'US' });
    assert.ok(total > 20);
    assert.equal(deals.length, total);
    assert.equal(new Set(deals.map((deal) => deal.investment_id)).size, total);
  });

  it('walks every v2 page through hasNextPage: totalCount records, none twice, on each signal endpoint', async () => {
    type Walk = [query: string, total: () => Promise<number>, records: () => AsyncIterable<Record<string, unknown>>, key: string];
    const walk = <Q extends object>(
      endpoint: {
        list(query: Q & { count: boolean }): Promise<{ pagination: { totalCount: number } }>;
        all(query: Q): AsyncIterable<Record<string, unknown>>;
      },
      query: NoInfer<Q>,
      key: string,
    ): Walk => [
      JSON.stringify(query),
      async () => (await endpoint.list({ ...query, count: true })).pagination.totalCount,
      () => endpoint.all(query),
      key,
    ];
    const walks = [
      walk(ds.v2.investors, { countries: 'US', limit: 100 }, 'id'),
      walk(ds.v2.jobChanges, { seniorities: 'c_level', limit: 100 }, 'signalId'),
      walk(ds.v2.acquisitions, { countries: 'DE,FR,GB', limit: 50 }, 'id'),
      walk(ds.v2.funding, { countries: 'US', round: 'Seed', limit: 100 }, 'signalId'),
    ];
    for (const [query, total, all, key] of walks) {
      const totalCount = await total();
      assert.ok(totalCount > 50, `${query} spans pages (${totalCount})`);
      const records = await collect(all());
      assert.equal(records.length, totalCount, query);
      assert.equal(new Set(records.map((record) => record[key])).size, totalCount);
    }
  });

  it('reaches a signal list by its path (v2.endpoint), the same pages as its named member', async () => {
    const byPath = ds.v2.endpoint('/api/v2/signals/job-changes');
    const query = { seniorities: 'c_level', limit: 7, page: 2 };
    const [named, viaPath] = [await ds.v2.jobChanges.list(query), await byPath.list(query)];
    assert.equal(viaPath.meta.endpoint, 'signals.job-changes');
    assert.ok(viaPath.data.length === 7, 'a full page');
    assert.deepEqual(viaPath.data, named.data);
    assert.deepEqual(viaPath.pagination, named.pagination);
    const walked = await collect(byPath.all({ seniorities: 'c_level', limit: 100 }, { maxPages: 1 }));
    assert.equal(walked.length, Math.min(100, named.pagination.totalCount));
  });

  it('stops a walk at maxPages or before maxCredits would be exceeded', async () => {
    await setCredits(ctx, accountId, 1000);
    const byPages = await collect(ds.v2.investors.pages({ limit: 10 }, { maxPages: 2 }));
    assert.deepEqual(
      byPages.map((page) => page.pagination.currentPage),
      [1, 2],
    );
    const before = byPages[1]!.meta.creditsRemaining;
    const byCredits = await collect(ds.v2.investors.pages({ limit: 10, page: 3 }, { maxCredits: 3 }));
    assert.deepEqual(
      byCredits.map((page) => page.pagination.currentPage),
      [3, 4, 5],
    );
    assert.equal(byCredits.at(-1)!.meta.creditsRemaining, before - 3, 'three pages, three credits');
    assert.equal((await collect(ds.v1.funding.pages({}, { maxPages: 3 }))).length, 3);
  });

  it('follows the changes feed to its head: every retained change once, resumable from the cursor', async () => {
    const { pagination } = await ds.v2.changes.list({ datasets: 'investors', count: true });
    const pages = await collect(ds.v2.changes.pages({ datasets: 'investors', limit: 500 }));
    const changes = pages.flatMap((page) => page.data);
    assert.equal(changes.length, pagination.totalCount);
    assert.ok(changes.every((change) => change.dataset === 'investors'));
    assert.equal(new Set(changes.map((change) => change.cursor)).size, changes.length);
    assert.equal(pages.at(-1)!.pagination.hasNextPage, false);
    const since = pages.at(-1)!.pagination.nextCursor;
    assert.deepEqual(await collect(ds.v2.changes.all({ since, datasets: 'investors' })), []);
  });

  it("since: 'now' takes the head's cursor for free, even with no credits to spend; following it gets what comes after", async () => {
    const head = (await collect(ds.v2.changes.pages({ limit: 1000 }))).at(-1)!.pagination.nextCursor;
    const pages = await collect(ds.v2.changes.pages({ since: 'now' }, { maxCredits: 0 }));
    assert.equal(pages.length, 1, 'one page, free, within a budget of no credits');
    assert.deepEqual(pages[0]!.data, []);
    assert.deepEqual(pages[0]!.pagination, { limit: 100, nextCursor: head, hasNextPage: false });
    assert.equal(pages[0]!.meta.creditsUsed, 0);
    assert.deepEqual(await collect(ds.v2.changes.all({ since: 'now' }, { maxCredits: 0 })), []);
    const { pagination } = await ds.v2.changes.list({ since: 'now' });
    assert.deepEqual(await collect(ds.v2.changes.all({ since: pagination.nextCursor })), []);
  });

  it('surfaces a 402 as a DealSignalError with the v2 body and the request id, without retrying', async () => {
    const { key, accountId: broke } = await makeKey(ctx.db, 'pro');
    await setCredits(ctx, broke, 0);
    const { fetchImpl, statuses } = countingFetch();
    const client = new DealSignal({ apiKey: key, baseUrl, fetch: fetchImpl });
    const error = await client.v2.funding.list({ countries: 'US' }).then(
      () => assert.fail('a call without credits succeeded'),
      (err: unknown) => err,
    );
    assert.ok(error instanceof DealSignalError);
    assert.equal(error.status, 402);
    assert.equal(error.code, 'insufficient_credits');
    assert.equal(error.body && 'success' in error.body && error.body.success, false);
    assert.match(error.message, /credit/i);
    assert.match(error.requestId ?? '', /^dsc-[0-9a-f]{24}$/, 'the id the client sent, echoed by the server');
    assert.deepEqual(statuses, [402]);
  });

  it('surfaces a 400 at once, in the family shape: v1 {code, message}, v2 {error, code, param}', async () => {
    const { fetchImpl, statuses } = countingFetch();
    const client = new DealSignal({ apiKey, baseUrl, fetch: fetchImpl });
    const v1 = await client.v1.funding.list({ country: 'Atlantis' }).catch((err: unknown) => err);
    assert.ok(v1 instanceof DealSignalError);
    assert.equal(v1.status, 400);
    assert.deepEqual(Object.keys(v1.body ?? {}).sort(), ['code', 'message']);
    assert.equal(v1.code, 400);
    const v2 = await client.v2.investors.list({ limit: 1000 }).catch((err: unknown) => err);
    assert.ok(v2 instanceof DealSignalError);
    assert.equal(v2.status, 400);
    assert.equal(v2.code, 'invalid_parameter');
    assert.equal(v2.body && 'param' in v2.body ? v2.body.param : undefined, 'limit');
    const wrongKey = await new DealSignal({ apiKey: 'ds_wrong', baseUrl, fetch: fetchImpl }).v2.investors
      .list()
      .catch((err: unknown) => err);
    assert.ok(wrongKey instanceof DealSignalError);
    assert.equal(wrongKey.status, 401);
    assert.deepEqual(statuses, [400, 400, 401]);
  });

  it('reports no answer as status 0 with the cause', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const client = new DealSignal({ apiKey, baseUrl: `http://127.0.0.1:${port}`, retry: { retries: 1, baseDelayMs: 10 } });
    const error = await client.v2.investors.list().catch((err: unknown) => err);
    assert.ok(error instanceof DealSignalError);
    assert.equal(error.status, 0);
    assert.ok(error.cause);
  });

  it('manages webhooks, and verifies a delivery it receives with verifyWebhook', async () => {
    const receiver = await startReceiver();
    const received = receiver.received;
    try {
      const created = await ds.v2.webhooks.create({
        endpoint_url: receiver.url,
        event_types: ['investor.created'],
      });
      const { id, secret } = created.data;
      assert.match(secret ?? '', /^whsec_/);
      assert.deepEqual(
        (await ds.v2.webhooks.list()).data.map((webhook) => webhook.id),
        [id],
      );
      await ds.v2.webhooks.update(id, { active: false });
      assert.equal((await ds.v2.webhooks.get(id)).data.active, false);
      await ds.v2.webhooks.test(id);
      assert.equal(received.length, 1);
      const [delivery] = received;
      assert.equal(await verifyWebhook(secret!, delivery!.body, delivery!.headers), true);
      const published = { ...delivery!.headers, 'webhook-signature': undefined, 'webhook-id': undefined };
      assert.equal(await verifyWebhook(secret!, delivery!.body, published), true, 'the X-Webhook-Signature scheme alone');
      assert.equal(await verifyWebhook(secret!, delivery!.body.replace('system.test', 'system.tost'), delivery!.headers), false);
      assert.equal(await verifyWebhook(`whsec_${Buffer.alloc(32).toString('base64')}`, delivery!.body, delivery!.headers), false);
      assert.equal(
        await verifyWebhook(secret!, delivery!.body, delivery!.headers, { now: Date.now() + 3_600_000 }),
        false,
        'stale',
      );
      const { data: deliveries } = await ds.v2.webhooks.deliveries(id);
      assert.equal(deliveries[0]?.event_type, 'system.test');
      await ds.v2.webhooks.delete(id);
      const gone = await ds.v2.webhooks.get(id).catch((err: unknown) => err);
      assert.ok(gone instanceof DealSignalError);
      assert.equal(gone.status, 404);
      assert.equal(gone.code, 'not_found');
    } finally {
      await receiver.close();
    }
  });
});

describeOnOneStore('typed client under rate limits', (backend) => {
  let ctx: TestContext;
  let baseUrl: string;

  before(async () => {
    // Two calls a second for the free tier: a burst of five meets 429s with Retry-After: 1.
    ctx = await startApp(backend, {
      RATE_LIMITS: 'true',
      RATE_LIMIT_WINDOW_MS: '1000',
      RATE_LIMIT_FREE: '2',
      RATE_LIMIT_V1: '2',
    });
    baseUrl = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  });
  after(() => ctx.close());

  it('waits out a 429 for its Retry-After and then succeeds (v2 and v1)', async () => {
    const { key } = await makeKey(ctx.db, 'free');
    const { fetchImpl, statuses } = countingFetch();
    const client = new DealSignal({ apiKey: key, baseUrl, fetch: fetchImpl, retry: { retries: 5 } });
    const answers = await Promise.all(Array.from({ length: 5 }, () => client.v2.investors.list({ limit: 1 })));
    assert.ok(answers.every((answer) => answer.success));
    assert.ok(statuses.includes(429), `the burst met the limit (${statuses.join(',')})`);
    assert.equal(statuses.filter((status) => status === 200).length, 5);

    const v1Statuses = countingFetch();
    const v1 = new DealSignal({ apiKey: key, baseUrl, fetch: v1Statuses.fetchImpl, retry: { retries: 5 } });
    const pages = await Promise.all(Array.from({ length: 4 }, () => v1.v1.funding.list()));
    assert.equal(pages.length, 4);
    assert.ok(v1Statuses.statuses.includes(429));
  });

  it('gives up on a 429 when retries are off or Retry-After is longer than maxDelayMs', async () => {
    const { key } = await makeKey(ctx.db, 'free');
    for (const retry of [{ retries: 0 }, { retries: 3, maxDelayMs: 100 }]) {
      const { fetchImpl, statuses } = countingFetch();
      const client = new DealSignal({ apiKey: key, baseUrl, fetch: fetchImpl, retry });
      const results = await Promise.allSettled(Array.from({ length: 4 }, () => client.v2.investors.list({ limit: 1 })));
      const refused = results.flatMap((result) => (result.status === 'rejected' ? [result.reason] : []));
      assert.ok(refused.length > 0, JSON.stringify(retry));
      for (const error of refused) {
        assert.ok(error instanceof DealSignalError);
        assert.equal(error.status, 429);
        assert.equal(error.code, 'rate_limited');
        assert.ok(error.retryAfterSeconds! >= 1);
      }
      assert.equal(statuses.length, 4, 'no call was sent again');
      await new Promise((resolve) => setTimeout(resolve, 1100));
    }
  });
});
