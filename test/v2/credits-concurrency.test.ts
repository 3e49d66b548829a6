import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { describeEach, makeKey, startApp, testConfig, type TestContext } from '../helpers.js';
import { debitRequests } from '../../src/accounts/credit-queries.js';

describeEach('credits under concurrency', (backend) => {
  let ctx: TestContext;
  let second: FastifyInstance;

  before(async () => {
    ctx = await startApp(backend);
    // A second instance on the same database, as behind a load balancer.
    second = await buildApp({ config: testConfig(), db: ctx.db });
  });
  after(async () => {
    await second.close();
    await ctx.close();
  });

  it('100 credits and 500 calls across two instances, 125 at once: exactly 100 succeed, balance 0, 100 ledger rows', async () => {
    const account = await makeKey(ctx.db, 'free');
    await ctx.db.query(
      `UPDATE accounts SET credits_remaining = 100, credits_period = date_trunc('month', now() AT TIME ZONE 'UTC')::date WHERE id = $1`,
      [account.accountId],
    );
    // In waves of 125 at once: the first wave races past the balance (100 of 125 can be paid), and no wave
    // waits on the connection pool for as long as a loaded machine would take to serve 500 at once (a 503).
    const responses = [];
    for (let wave = 0; wave < 4; wave++) {
      responses.push(
        ...(await Promise.all(
          Array.from({ length: 125 }, (_, i) =>
            (i % 2 === 0 ? ctx.app : second).inject({
              method: 'GET',
              url: '/api/v2/signals/investors',
              headers: { authorization: `Bearer ${account.key}` },
            }),
          ),
        )),
      );
    }
    const statuses = responses.map((r) => r.statusCode);
    assert.equal(statuses.filter((s) => s === 200).length, 100);
    assert.equal(statuses.filter((s) => s === 402).length, 400);
    const remaining = responses.filter((r) => r.statusCode === 200).map((r) => r.json().meta.creditsRemaining);
    assert.deepEqual(
      [...remaining].sort((a, b) => a - b),
      Array.from({ length: 100 }, (_, i) => i),
      'each balance reported once',
    );

    const [balance] = await ctx.db.query<{ credits_remaining: number }>(
      'SELECT credits_remaining::int FROM accounts WHERE id = $1',
      [account.accountId],
    );
    assert.equal(balance!.credits_remaining, 0);
    const [ledger] = await ctx.db.query<{ n: number; sum: number }>(
      `SELECT count(*)::int AS n, sum(delta)::int AS sum FROM credit_ledger WHERE account_id = $1 AND reason = 'request'`,
      [account.accountId],
    );
    assert.deepEqual(ledger, { n: 100, sum: -100 });
  });

  it('the first calls of a month race to refill: it happens once and no call is refused', async () => {
    const account = await makeKey(ctx.db, 'free'); // never used: the monthly refill is due
    const responses = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        (i % 2 === 0 ? ctx.app : second).inject({
          method: 'GET',
          url: '/api/v2/signals/job-changes?limit=1',
          headers: { authorization: `Bearer ${account.key}` },
        }),
      ),
    );
    assert.deepEqual([...new Set(responses.map((r) => r.statusCode))], [200]);
    const rows = await ctx.db.query<{ reason: string; n: number; sum: number }>(
      'SELECT reason, count(*)::int AS n, sum(delta)::int AS sum FROM credit_ledger WHERE account_id = $1 GROUP BY reason ORDER BY reason',
      [account.accountId],
    );
    assert.deepEqual(rows, [
      { reason: 'refill', n: 1, sum: 100 },
      { reason: 'request', n: 40, sum: -40 },
    ]);
  });

  it('one statement debits the longest prefix of its charges the balance pays for, each with its ledger row', async () => {
    const account = await makeKey(ctx.db, 'free');
    await ctx.db.query(
      `UPDATE accounts SET credits_remaining = 5, credits_period = date_trunc('month', now() AT TIME ZONE 'UTC')::date WHERE id = $1`,
      [account.accountId],
    );
    const charge = (cost: number) => ({ keyId: null, cost, endpoint: `cost ${cost}` });
    // 3 and 1 fit (4 of 5); 2 would make 6: it and every charge after it are refused, though 1 more would fit.
    assert.deepEqual(await debitRequests(ctx.db, account.accountId, [3, 1, 2, 1].map(charge)), [2, 1, undefined, undefined]);
    assert.deepEqual(await debitRequests(ctx.db, account.accountId, [1, 1].map(charge)), [0, undefined]);
    const ledger = await ctx.db.query<{ delta: number; balance_after: number; endpoint: string }>(
      `SELECT delta::int, balance_after::int, endpoint FROM credit_ledger WHERE account_id = $1 AND reason = 'request' ORDER BY id`,
      [account.accountId],
    );
    assert.deepEqual(ledger, [
      { delta: -3, balance_after: 2, endpoint: 'cost 3' },
      { delta: -1, balance_after: 1, endpoint: 'cost 1' },
      { delta: -1, balance_after: 0, endpoint: 'cost 1' },
    ]);
    const [row] = await ctx.db.query<{ n: number }>('SELECT credits_remaining::int AS n FROM accounts WHERE id = $1', [
      account.accountId,
    ]);
    assert.equal(row!.n, 0);
    // A month not yet refilled pays for nothing: the caller refills first (refillIfDue).
    await ctx.db.query(`UPDATE accounts SET credits_remaining = 50, credits_period = '2000-01-01' WHERE id = $1`, [
      account.accountId,
    ]);
    assert.deepEqual(await debitRequests(ctx.db, account.accountId, [charge(1)]), [undefined]);
  });
});
