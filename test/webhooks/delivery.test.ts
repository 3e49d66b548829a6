// Deliveries end to end, against real receivers on loopback: events come from writes (whatever
// made them), match exactly what the list endpoint would list, carry both signatures, go in change
// order, are retried by themselves (500, 429 with Retry-After, a hang, a reset), fail for good and
// pause the webhook after their retries, and wait for credits instead of being dropped.
import assert from 'node:assert/strict';
import { beforeEach, it } from 'node:test';
import {
  acquisitionRecord,
  fundingRecord,
  hiringRecord,
  insertAcquisitions,
  insertFunding,
  insertJobChanges,
  insertRecords,
  jobChangeRecord,
} from '../fixtures.js';
import { hiring } from '../../src/catalog/registry.js';
import { pruneDeliveries } from '../../src/webhooks/retention-queries.js';
import { describeEach, type TestContext } from '../helpers.js';
import { ok, verifyBoth, type Received, type TestReceiver } from './receiver.js';
import { DELIVERY_ENV, deliveriesOf, eventually, webhookSuite, type WebhookApi } from './support.js';

describeEach('webhook deliveries', (backend) => {
  const suite = webhookSuite(backend, DELIVERY_ENV);
  const { dispatched } = suite;
  let ctx: TestContext;
  let receiver: TestReceiver;
  let api: WebhookApi;
  let key: string;
  let accountId: number;
  beforeEach(() => ({ ctx, receiver, api, key, accountId } = suite));

  const get = async (url: string) =>
    (await ctx.app.inject({ url, headers: { authorization: `Bearer ${key}`, 'x-lot-api-key': key } })).json();

  it('delivers each matching record once, signed both ways, as the list endpoint serves it; others not at all', async () => {
    const hook = await api.create({
      endpoint_url: receiver.url,
      event_types: ['funding.created'],
      filters: { countries: 'GB', funding: 'series a' },
    });
    await insertFunding(ctx.db, [
      fundingRecord({
        company_name: 'Match Ltd',
        round_type: 'series a',
        company_info: { name: 'Match Ltd', hq_country: 'United Kingdom' } as never,
      }),
      fundingRecord({
        company_name: 'Wrong Country',
        round_type: 'series a',
        company_info: { name: 'Wrong Country', hq_country: 'United States' } as never,
      }),
      fundingRecord({
        company_name: 'Wrong Round',
        round_type: 'seed',
        company_info: { name: 'Wrong Round', hq_country: 'United Kingdom' } as never,
      }),
    ]);
    const [delivery] = await receiver.waitFor(1);
    const payload = verifyBoth(hook.secret, delivery!);
    assert.equal(payload.event_type, 'funding.created');
    const listed = await get('/api/v1/funding?country=GB&round=series%20a');
    assert.equal(listed.response.data.length, 1);
    assert.deepEqual(payload.data, listed.response.data[0], 'data is the record the list endpoint serves');
    await dispatched();
    await new Promise((resolve) => setTimeout(resolve, 150));
    assert.equal(receiver.received.length, 1, 'the two records the filter excludes are not delivered');
    const [row] = await eventually(async () => {
      const rows = await deliveriesOf(ctx.db, hook.id);
      return rows[0]?.status === 'done' ? rows : undefined;
    });
    assert.equal(row!.attempt_count, 1);
    assert.equal(row!.event_id, payload.event_id);
  });

  it('hiring.created: each new posting its filters match, as the list endpoint serves it', async () => {
    const hook = await api.create({
      endpoint_url: receiver.url,
      event_types: ['hiring.created'],
      filters: { countries: 'DE', search: 'platform' },
    });
    const match = hiringRecord({ title: 'Platform Engineer', jobCountry: 'DE', city: 'Berlin', region: 'Berlin' });
    await insertRecords(
      ctx.db,
      hiring,
      [
        match,
        hiringRecord({ title: 'Platform Engineer', jobCountry: 'US', companyCountry: 'US' }),
        hiringRecord({ title: 'Account Executive', jobCountry: 'DE', city: 'Berlin', region: 'Berlin' }),
      ].map((record) => ({ record })),
    );
    const [delivery] = await receiver.waitFor(1);
    const payload = verifyBoth(hook.secret, delivery!);
    assert.equal(payload.event_type, 'hiring.created');
    const listed = await get('/api/v2/signals/hiring?countries=DE&search=platform');
    assert.equal(listed.data.length, 1);
    assert.equal(listed.data[0].id, match.id);
    assert.deepEqual(payload.data, listed.data[0], 'data is the record the list endpoint serves');
    await dispatched();
    await new Promise((resolve) => setTimeout(resolve, 150));
    assert.equal(receiver.received.length, 1, 'the two postings the filters exclude are not delivered');
  });

  it('filters.query matches exactly what that list request lists', async () => {
    const query = '/api/v2/signals/job-changes?positions=cto&search=acme';
    const hook = await api.create({ endpoint_url: receiver.url, event_types: ['job_change.created'], filters: { query } });
    assert.equal(hook.status, 201);
    await insertJobChanges(ctx.db, [
      jobChangeRecord({ newRole: 'Chief Technology Officer', companyName: 'Acme Robotics' }),
      jobChangeRecord({ newRole: 'CTO', companyName: 'Other Corp' }),
      jobChangeRecord({ newRole: 'Sales Manager', companyName: 'Acme Robotics' }),
      jobChangeRecord({ newRole: 'CTO', companyName: 'Acme' }),
    ]);
    await dispatched();
    const listed = await get(query);
    await receiver.waitFor(listed.data.length);
    await new Promise((resolve) => setTimeout(resolve, 150));
    const delivered = receiver.received.map((r) => (verifyBoth(hook.secret, r).data as { signalId: string }).signalId).sort();
    assert.ok(listed.data.length >= 1);
    assert.deepEqual(delivered, listed.data.map((r: { signalId: string }) => r.signalId).sort());
  });

  it('sends *.updated for a record changed after it was first seen, and nothing once it stops matching', async () => {
    const hook = await api.create({
      endpoint_url: receiver.url,
      event_types: ['acquisition.created', 'acquisition.updated'],
      filters: { countries: 'DE' },
    });
    const record = acquisitionRecord({ country: 'Germany', acquisitionSignalScore: 50 });
    await insertAcquisitions(ctx.db, [record]);
    await receiver.waitFor(1);
    await insertAcquisitions(ctx.db, [{ ...record, acquisitionSignalScore: 90 }]);
    await receiver.waitFor(2);
    await insertAcquisitions(ctx.db, [{ ...record, country: 'France' }]);
    await dispatched();
    await new Promise((resolve) => setTimeout(resolve, 150));
    const events = receiver.received.map((r) => verifyBoth(hook.secret, r));
    assert.deepEqual(
      events.map((e) => e.event_type),
      ['acquisition.created', 'acquisition.updated'],
    );
    assert.equal((events[1]!.data as { acquisitionSignalScore: number }).acquisitionSignalScore, 90);
    assert.notEqual(events[0]!.event_id, events[1]!.event_id);
  });

  it('retries by itself on 429 with Retry-After, a hang and a reset (500: below), in change order', async () => {
    const hook = await api.create({ endpoint_url: receiver.url, event_types: ['acquisition.created'] });
    const failures: ((r: Received, response: import('node:http').ServerResponse) => void)[] = [
      (_r, response) => response.writeHead(429, { 'retry-after': '1' }).end('slow down'),
      () => undefined, // hangs: the 500 ms timeout ends it
      (_r, response) => response.socket?.destroy(),
    ];
    let calls = 0;
    receiver.respond = (r, response) => {
      const failure = failures[calls++];
      if (failure) failure(r, response);
      else response.writeHead(204).end();
    };
    const records = [1, 2, 3].map((n) => acquisitionRecord({ companyName: `Ordered ${n}` }));
    for (const record of records) await insertAcquisitions(ctx.db, [record]);
    await receiver.waitFor(failures.length + records.length, 20_000);
    const names = receiver.received.map((r) => (verifyBoth(hook.secret, r).data as { companyName: string }).companyName);
    // The first event is tried until it gets through; the others wait behind it.
    assert.deepEqual(names, ['Ordered 1', 'Ordered 1', 'Ordered 1', 'Ordered 1', 'Ordered 2', 'Ordered 3']);
    const afterRetryAfter = receiver.received[1]!.at - receiver.received[0]!.at;
    assert.ok(afterRetryAfter >= 900, `Retry-After: 1 was honoured (${afterRetryAfter} ms)`);
    const rows = await eventually(async () => {
      const all = await deliveriesOf(ctx.db, hook.id);
      return all.every((d) => d.status === 'done') ? all : undefined;
    });
    assert.deepEqual(
      rows.map((d) => d.attempt_count),
      [4, 1, 1],
    );
    const ids = new Set(receiver.received.map((r) => r.headers['webhook-id']));
    assert.equal(ids.size, 3, 'retries keep their event id');
    const stats = (await api.call('GET', `/api/v2/webhooks/${hook.id}`)).body.data.stats;
    assert.deepEqual(
      [stats.total_deliveries, stats.successful_deliveries, stats.failed_deliveries, stats.consecutive_failures],
      [6, 3, 3, 0],
    );
    const metrics = (await ctx.app.inject({ url: '/metrics' })).body;
    for (const outcome of ['delivered', 'retrying']) {
      assert.match(metrics, new RegExp(`dealsignal_webhook_attempts_total\\{outcome="${outcome}"\\} [1-9]`));
    }
  });

  it('takes a redirect as a failure and does not follow it', async () => {
    const hook = await api.create({ endpoint_url: receiver.url, event_types: ['acquisition.created'] });
    receiver.respond = (_r, response) => response.writeHead(302, { location: `${receiver.url}/elsewhere` }).end();
    await insertAcquisitions(ctx.db, [acquisitionRecord()]);
    await receiver.waitFor(2);
    assert.ok(
      receiver.received.every((r) => r.url === '/hooks'),
      'the Location was never asked for',
    );
    const [delivery] = await deliveriesOf(ctx.db, hook.id);
    assert.equal(delivery!.response_status, 302);
    assert.notEqual(delivery!.status, 'done');
    receiver.respond = ok;
  });

  it('fails a delivery after its retries, pauses the webhook with the reason, keeps later events for when it is back on', async () => {
    // A path of its own: a retry of the test before may still arrive at the receiver's first path.
    const hook = await api.create({ endpoint_url: `${receiver.url}/failing`, event_types: ['acquisition.created'] });
    const sentToHook = () => receiver.received.filter((r) => r.url === '/hooks/failing');
    receiver.respond = (_r, response) => response.writeHead(500).end('broken');
    await insertAcquisitions(ctx.db, [acquisitionRecord({ companyName: 'First' })]);
    // 1 attempt + 3 retries (WEBHOOK_RETRY_DELAYS has three waits).
    await eventually(async () => sentToHook().length >= 4, 10_000, 'four attempts');
    const paused = await eventually(async () => {
      const webhook = (await api.call('GET', `/api/v2/webhooks/${hook.id}`)).body.data;
      return webhook.active === false ? webhook : undefined;
    });
    assert.match(paused.paused_reason, /Paused after 4 failed attempts in a row/);
    assert.match(paused.paused_reason, /HTTP 500/);
    assert.equal(paused.stats.consecutive_failures, 4);
    const [first] = await deliveriesOf(ctx.db, hook.id);
    assert.equal(first!.status, 'failed');
    assert.equal(first!.attempt_count, 4);

    // Paused: a new event is queued, not sent, not lost. A webhook that is on (at another path) gets
    // the same event in the same pass of the sender: once its delivery is recorded, that pass is over
    // and the paused webhook's delivery is still in the queue, never attempted.
    receiver.respond = ok;
    const probe = await api.create({ endpoint_url: `${receiver.url}/on`, event_types: ['acquisition.created'] });
    await insertAcquisitions(ctx.db, [acquisitionRecord({ companyName: 'Second' })]);
    await dispatched();
    await eventually(
      async () => (await deliveriesOf(ctx.db, probe.id))[0]?.status === 'done',
      10_000,
      'the webhook that is on served',
    );
    assert.deepEqual(
      (await deliveriesOf(ctx.db, hook.id)).map((d) => [d.status, d.attempt_count]),
      [
        ['failed', 4],
        ['pending', 0],
      ],
      'the new event queued for the paused webhook, not attempted',
    );
    assert.equal(sentToHook().length, 4);
    const resumed = await api.call('PUT', `/api/v2/webhooks/${hook.id}`, { active: true });
    assert.equal(resumed.body.data.paused_reason, null);
    const second = await eventually(async () => sentToHook()[4], 10_000, 'the queued event sent');
    assert.equal((verifyBoth(hook.secret, second).data as { companyName: string }).companyName, 'Second');
    // The failed one is sent again only by hand.
    const retry = await api.call('POST', `/api/v2/webhooks/${hook.id}/deliveries/${first!.id}/retry`);
    assert.equal(retry.body.data.success, true);
    assert.equal(retry.body.data.attempt_count, 5);
    assert.equal(sentToHook()[5]!.headers['webhook-id'], first!.event_id);
  });

  it('holds deliveries while the account has no credits, sends them after a top-up, 1 credit each', async () => {
    const hook = await api.create({ endpoint_url: receiver.url, event_types: ['acquisition.created'] });
    await ctx.db.query(
      `UPDATE accounts SET credits_remaining = 0, credits_period = date_trunc('month', now() AT TIME ZONE 'UTC')::date WHERE id = $1`,
      [accountId],
    );
    await insertAcquisitions(ctx.db, [acquisitionRecord(), acquisitionRecord()]);
    await dispatched();
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(receiver.received.length, 0);
    assert.deepEqual(
      (await deliveriesOf(ctx.db, hook.id)).map((d) => [d.status, d.attempt_count]),
      [
        ['pending', 0],
        ['pending', 0],
      ],
    );
    await ctx.db.query('UPDATE accounts SET credits_remaining = 5 WHERE id = $1', [accountId]);
    await receiver.waitFor(2);
    await eventually(async () => (await deliveriesOf(ctx.db, hook.id)).every((d) => d.status === 'done'));
    const balance = await ctx.db.query<{ n: number }>('SELECT credits_remaining::int AS n FROM accounts WHERE id = $1', [
      accountId,
    ]);
    assert.equal(balance[0]!.n, 3);
    const ledger = await ctx.db.query<{ delta: number; reason: string }>(
      `SELECT delta::int AS delta, reason FROM credit_ledger WHERE account_id = $1 AND reason = 'webhook'`,
      [accountId],
    );
    assert.equal(
      ledger.reduce((sum, row) => sum + row.delta, 0),
      -2,
    );
  });

  it('prunes finished deliveries past their retention, never queued ones', async () => {
    const hook = await api.create({ endpoint_url: receiver.url, event_types: ['acquisition.created'] });
    await api.call('POST', `/api/v2/webhooks/${hook.id}/test`);
    await api.call('PUT', `/api/v2/webhooks/${hook.id}`, { active: false });
    await insertAcquisitions(ctx.db, [acquisitionRecord()]);
    await dispatched();
    assert.deepEqual((await deliveriesOf(ctx.db, hook.id)).map((d) => d.status).sort(), ['done', 'pending']);
    assert.ok((await pruneDeliveries(ctx.db, new Date(Date.now() + 86_400_000))) >= 1);
    assert.deepEqual(
      (await deliveriesOf(ctx.db, hook.id)).map((d) => d.status),
      ['pending'],
    );
  });

  it('stores an event once, whichever webhooks it goes to, and sends each its own delivery with that event id', async () => {
    const hooks = [];
    for (let i = 0; i < 3; i++) {
      hooks.push(await api.create({ endpoint_url: `${receiver.url}/${i}`, event_types: ['acquisition.created'] }));
    }
    await insertAcquisitions(ctx.db, [acquisitionRecord(), acquisitionRecord()]);
    await receiver.waitFor(6);
    const ids = new Set(receiver.received.map((r) => String(r.headers['webhook-id'])));
    assert.equal(ids.size, 2);
    for (const [i, hook] of hooks.entries()) {
      const got = receiver.received.filter((r) => r.url === `/hooks/${i}`);
      assert.equal(got.length, 2);
      for (const r of got) verifyBoth(hook.secret, r);
    }
    const events = await ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM webhook_events WHERE id = ANY($1::text[])', [
      [...ids],
    ]);
    assert.equal(events[0]!.n, 2);
  });

  it('gives a webhook only the changes committed after it was created', async () => {
    await insertAcquisitions(ctx.db, [acquisitionRecord({ companyName: 'Before' })]);
    const hook = await api.create({ endpoint_url: receiver.url, event_types: ['acquisition.created'] });
    await insertAcquisitions(ctx.db, [acquisitionRecord({ companyName: 'After' })]);
    await receiver.waitFor(1);
    await dispatched();
    await new Promise((resolve) => setTimeout(resolve, 150));
    assert.deepEqual(
      receiver.received.map((r) => (verifyBoth(hook.secret, r).data as { companyName: string }).companyName),
      ['After'],
    );
  });
});
