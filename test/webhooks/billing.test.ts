// What webhooks cost and how much they may queue, on both stores: one credit per (webhook, event)
// once its body has been written to the receiver's connection, whatever it answers, nothing when it
// never left, nothing more for later attempts; a manual retry never takes a queued delivery out of
// the queue for free; a concurrent mix of every debit leaves a ledger that adds up to the balance;
// a paused webhook keeps a bounded backlog and a deleted one none.
import assert from 'node:assert/strict';
import { beforeEach, it } from 'node:test';
import { adjustCredits } from '../../src/accounts/credit-queries.js';
import { acquisitionRecord, fundingRecord, insertAcquisitions, insertFunding } from '../fixtures.js';
import { describeEach, type TestContext } from '../helpers.js';
import { ok, type TestReceiver } from './receiver.js';
import { DELIVERY_ENV, deliveriesOf, eventually, queuedFor, webhookSuite, type WebhookApi } from './support.js';

const BACKLOG = 4;

describeEach('webhook billing and backlogs', (backend) => {
  const suite = webhookSuite(backend, { ...DELIVERY_ENV, WEBHOOK_PAUSED_BACKLOG: String(BACKLOG) });
  const { dispatched } = suite;
  let ctx: TestContext;
  let receiver: TestReceiver;
  let api: WebhookApi;
  let key: string;
  let accountId: number;
  beforeEach(() => ({ ctx, receiver, api, key, accountId } = suite));

  /** Ten webhooks of one event type, each on its own path, and how many deliveries are queued for them. */
  async function tenWebhooks(eventType: string): Promise<{ hooks: { id: string }[]; queued: () => Promise<number> }> {
    const hooks: { id: string }[] = [];
    for (let i = 0; i < 10; i++) hooks.push(await api.create({ endpoint_url: `${receiver.url}/${i}`, event_types: [eventType] }));
    return { hooks, queued: () => queuedFor(ctx.db, hooks) };
  }

  const balance = async () =>
    (await ctx.db.query<{ n: number }>('SELECT credits_remaining::int AS n FROM accounts WHERE id = $1', [accountId]))[0]!.n;

  /** Sets the balance (with its ledger row) and returns the ledger position after it. */
  async function startBalance(n: number): Promise<number> {
    await adjustCredits(ctx.db, accountId, { set: n });
    const rows = await ctx.db.query<{ id: number }>('SELECT max(id)::int AS id FROM credit_ledger WHERE account_id = $1', [
      accountId,
    ]);
    return rows[0]!.id;
  }

  const ledgerSince = (mark: number) =>
    ctx.db.query<{ delta: number; balance_after: number; reason: string }>(
      `SELECT delta::int AS delta, balance_after::int AS balance_after, reason FROM credit_ledger
        WHERE account_id = $1 AND id > $2 ORDER BY id`,
      [accountId, mark],
    );

  const webhook = async (id: string) => (await api.call('GET', `/api/v2/webhooks/${id}`)).body.data;
  const paused = (id: string) => eventually(async () => ((await webhook(id)).active === false ? webhook(id) : undefined));

  it('charges 1 credit per event whose body reached the receiver, whatever it answered; a body that never left costs nothing', async () => {
    const mark = await startBalance(10);
    receiver.respond = (_r, response) => response.writeHead(500).end('read it, say no');
    const answered = await api.create({ endpoint_url: receiver.url, event_types: ['acquisition.created'] });
    // Port 1 on loopback: the connection is refused, so no body ever leaves.
    const refused = await api.create({ endpoint_url: 'http://127.0.0.1:1/hooks', event_types: ['acquisition.created'] });
    await insertAcquisitions(ctx.db, [acquisitionRecord()]);
    // 1 attempt + 3 retries each, then both are paused.
    await paused(answered.id);
    await paused(refused.id);
    assert.equal(receiver.received.length, 4);
    assert.equal((await deliveriesOf(ctx.db, answered.id))[0]!.attempt_count, 4);
    assert.equal((await deliveriesOf(ctx.db, refused.id))[0]!.attempt_count, 4);
    assert.equal(await balance(), 9, 'one credit for the event that left, none for its retries nor for the refused one');
    const ledger = await ledgerSince(mark);
    assert.equal(
      ledger.reduce((sum, row) => sum + row.delta, 0),
      -1,
    );
    // The refused target's credit was reserved before each attempt and given back after it.
    assert.equal(ledger.filter((row) => row.reason === 'webhook_refund').length, 4);
    assert.ok(ledger.every((row) => row.balance_after >= 0));
  });

  it('a manual retry of a queued delivery pays once, leaves it queued unless it succeeded, and is 402 at zero', async () => {
    await startBalance(10);
    const hook = await api.create({ endpoint_url: receiver.url, event_types: ['acquisition.created'] });
    await api.call('PUT', `/api/v2/webhooks/${hook.id}`, { active: false });
    await insertAcquisitions(ctx.db, [acquisitionRecord()]);
    await dispatched();
    const [queued] = await deliveriesOf(ctx.db, hook.id);
    assert.equal(queued!.status, 'pending');
    const retry = () => api.call('POST', `/api/v2/webhooks/${hook.id}/deliveries/${queued!.id}/retry`);

    receiver.respond = (_r, response) => response.writeHead(500).end('no');
    const first = await retry();
    assert.equal(first.status, 200);
    assert.equal(first.body.data.success, false);
    assert.equal(first.body.meta.creditsUsed, 1, 'the body left: the event is paid for');
    assert.equal(await balance(), 9);
    assert.equal((await deliveriesOf(ctx.db, hook.id)).find((d) => d.id === queued!.id)!.status, 'pending', 'still queued');

    const second = await retry();
    assert.equal(second.body.meta.creditsUsed, 0, 'later attempts of a paid event are free');
    assert.equal(await balance(), 9);

    receiver.respond = ok;
    const third = await retry();
    assert.equal(third.body.data.success, true);
    assert.equal(third.body.meta.creditsUsed, 0);
    assert.equal(
      (await deliveriesOf(ctx.db, hook.id)).find((d) => d.id === queued!.id)!.status,
      'done',
      'delivered by the retry',
    );

    // At zero, an event not paid for yet is not sent by hand either.
    await startBalance(0);
    await insertAcquisitions(ctx.db, [acquisitionRecord()]);
    await dispatched();
    const next = (await deliveriesOf(ctx.db, hook.id)).find((d) => d.status === 'pending')!;
    const count = receiver.received.length;
    const refusedRetry = await api.call('POST', `/api/v2/webhooks/${hook.id}/deliveries/${next.id}/retry`);
    assert.equal(refusedRetry.status, 402);
    assert.equal(receiver.received.length, count);
    assert.equal((await deliveriesOf(ctx.db, hook.id)).find((d) => d.id === next.id)!.status, 'pending');

    // On again: the delivered one is not sent again; the other waits for credits.
    await api.call('PUT', `/api/v2/webhooks/${hook.id}`, { active: true });
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(receiver.received.length, count);
    assert.equal(await balance(), 0);
  });

  it('keeps the ledger equal to the balance under a concurrent mix of pages, feed pages, deliveries and retries', async () => {
    const start = 1;
    // Four queued deliveries of a paused webhook, to retry by hand; a webhook that sends by itself.
    const manual = await api.create({ endpoint_url: `${receiver.url}/manual`, event_types: ['acquisition.created'] });
    await api.call('PUT', `/api/v2/webhooks/${manual.id}`, { active: false });
    await insertAcquisitions(
      ctx.db,
      Array.from({ length: BACKLOG }, () => acquisitionRecord()),
    );
    await dispatched();
    const queued = await deliveriesOf(ctx.db, manual.id);
    assert.equal(queued.length, BACKLOG);
    const automatic = await api.create({ endpoint_url: `${receiver.url}/auto`, event_types: ['funding.created'] });
    const mark = await startBalance(start);

    const get = (url: string) => ctx.app.inject({ url, headers: { authorization: `Bearer ${key}` } });
    // 12 manual retries: each queued delivery three times at once; once the first has reached the
    // receiver (every retry is past its start by then), API pages, feed pages and events the worker
    // sends by itself join while the retries are still being sent and recorded.
    const retrying = Promise.all(
      queued.flatMap((d) => [1, 2, 3].map(() => api.call('POST', `/api/v2/webhooks/${manual.id}/deliveries/${d.id}/retry`))),
    );
    await receiver.waitFor(1);
    const [retries, pages] = await Promise.all([
      retrying,
      Promise.all([
        ...Array.from({ length: 4 }, () => get('/api/v2/signals/investors?limit=1')),
        ...Array.from({ length: 3 }, () => get('/api/v2/changes?limit=1')),
      ]),
      insertFunding(ctx.db, [fundingRecord(), fundingRecord(), fundingRecord()]),
    ]);
    await dispatched();
    // Settled: nothing leased, nothing in flight.
    await eventually(async () => {
      const rows = await ctx.db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM webhooks WHERE id = $1 AND lease_until IS NOT NULL',
        [automatic.id],
      );
      return rows[0]!.n === 0;
    });
    await new Promise((resolve) => setTimeout(resolve, 300));

    const end = await balance();
    assert.ok(end >= 0);
    const ledger = await ledgerSince(mark);
    assert.equal(
      ledger.reduce((sum, row) => sum + row.delta, 0),
      end - start,
      'every debit and refund has its ledger row',
    );
    assert.ok(ledger.every((row) => row.balance_after >= 0));
    // What was paid for is what the balance lost: pages answered 200, retries that cost, events sent by the worker.
    const paidPages = pages.filter((page) => page.statusCode === 200).length;
    const paidRetries = retries.reduce((sum, r) => sum + (r.body.meta?.creditsUsed ?? 0), 0);
    const sentByWorker = receiver.received.filter((r) => r.url === '/hooks/auto').length;
    assert.equal(paidPages + paidRetries + sentByWorker, start - end);
    const manualEvents = new Set(receiver.received.filter((r) => r.url === '/hooks/manual').map((r) => r.headers['webhook-id']));
    assert.equal(paidRetries, manualEvents.size, 'one credit per event sent, however often');
    assert.ok(pages.every((page) => [200, 402].includes(page.statusCode)));
    assert.ok(retries.every((r) => [200, 402, 409].includes(r.status)));
  });

  it('keeps at most the paused backlog and says what it dropped', async () => {
    await startBalance(100);
    const hooks = [];
    for (let i = 0; i < 3; i++) {
      const hook = await api.create({ endpoint_url: `${receiver.url}/${i}`, event_types: ['acquisition.created'] });
      await api.call('PUT', `/api/v2/webhooks/${hook.id}`, { active: false });
      hooks.push(hook);
    }
    await insertAcquisitions(
      ctx.db,
      Array.from({ length: 10 }, () => acquisitionRecord()),
    );
    await dispatched();
    for (const hook of hooks) {
      const pending = (await deliveriesOf(ctx.db, hook.id)).filter((d) => d.status === 'pending');
      assert.equal(pending.length, BACKLOG);
      const view = await webhook(hook.id);
      assert.equal(view.pending_deliveries, BACKLOG);
      assert.match(view.paused_reason, /at most 4 pending deliveries \(the oldest\), so 6 later events since \S+ were dropped/);
    }

    // On again: the oldest four go out in order; the note is gone.
    const resumed = await api.call('PUT', `/api/v2/webhooks/${hooks[0]!.id}`, { active: true });
    assert.equal(resumed.body.data.paused_reason, null);
    await receiver.waitFor(BACKLOG);

    // Paused with more queued than the backlog (held at zero credits): trimmed to the oldest four.
    await startBalance(0);
    const held = await api.create({ endpoint_url: `${receiver.url}/held`, event_types: ['funding.created'] });
    await insertFunding(
      ctx.db,
      Array.from({ length: 7 }, () => fundingRecord()),
    );
    await dispatched();
    assert.equal((await deliveriesOf(ctx.db, held.id)).length, 7);
    const pausedView = (await api.call('PUT', `/api/v2/webhooks/${held.id}`, { active: false })).body.data;
    assert.equal(pausedView.pending_deliveries, BACKLOG);
    assert.match(pausedView.paused_reason, /3 later events/);
    assert.equal((await deliveriesOf(ctx.db, held.id)).length, BACKLOG);
  });

  it('deletes the pending deliveries of a webhook with it', async () => {
    const hook = await api.create({ endpoint_url: receiver.url, event_types: ['acquisition.created'] });
    await api.call('PUT', `/api/v2/webhooks/${hook.id}`, { active: false });
    await insertAcquisitions(ctx.db, [acquisitionRecord(), acquisitionRecord()]);
    await dispatched();
    assert.equal((await deliveriesOf(ctx.db, hook.id)).length, 2);
    assert.equal((await api.call('DELETE', `/api/v2/webhooks/${hook.id}`)).status, 200);
    assert.deepEqual(await deliveriesOf(ctx.db, hook.id), []);
    // Brought back, it has nothing queued from before.
    await api.call('PUT', `/api/v2/webhooks/${hook.id}`, { active: true });
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.equal(receiver.received.length, 0);
  });

  it('queues an import that matches many webhooks over several transactions, each delivery once, in order', async () => {
    // Held at zero credits, so nothing is sent: 10 webhooks x 120 records, more than one transaction queues.
    await startBalance(0);
    const { hooks, queued } = await tenWebhooks('acquisition.created');
    await insertAcquisitions(
      ctx.db,
      Array.from({ length: 120 }, () => acquisitionRecord()),
    );
    await eventually(async () => (await queued()) >= 1200, 10_000, 'the import queued');
    const order = async (id: string) =>
      (
        await ctx.db.query<{ event_id: string }>(
          'SELECT event_id FROM webhook_deliveries WHERE webhook_id = $1 ORDER BY seq, change_id',
          [id],
        )
      ).map((row) => row.event_id);
    const first = await order(hooks[0]!.id);
    assert.equal(new Set(first).size, 120);
    for (const hook of hooks.slice(1))
      assert.deepEqual(await order(hook.id), first, 'the same events, once each, in change order');
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.equal(await queued(), 1200, 'nothing twice');
    assert.equal(receiver.received.length, 0);
  });

  it('answers readers between the transactions that queue an import matching many webhooks', async () => {
    await startBalance(0);
    const { queued } = await tenWebhooks('funding.created');
    const total = 10 * 600;
    await insertFunding(
      ctx.db,
      Array.from({ length: 600 }, () => fundingRecord()),
    );
    // Six transactions of 1,000 deliveries: once the first has committed, a reader is answered
    // before the last (on the embedded store too, where no statement waits on I/O).
    const started = await eventually(async () => {
      const n = await queued();
      return n > 0 ? n : undefined;
    });
    assert.ok(started < total, `the first look came after the whole import was queued (${started})`);
    const read = await ctx.app.inject({ url: '/api/v1/funding?page=2', headers: { 'x-lot-api-key': key } });
    assert.equal(read.statusCode, 200);
    assert.ok((await queued()) < total, 'a reader was answered while the import was being queued');
    await eventually(async () => (await queued()) === total, 20_000, 'the import queued');
  });
});
