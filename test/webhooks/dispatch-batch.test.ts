// The dispatcher's cap on the deliveries one transaction queues (WEBHOOK_DISPATCH_BATCH), set small
// so an ordinary import passes it many times: every (webhook, event) pair is queued and delivered
// exactly once, on both stores, and with two instances dispatching from the same database.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { migrate } from '../../src/platform/db/migrate.js';
import { openPostgres } from '../../src/platform/db/postgres.js';
import type { Database } from '../../src/platform/db/port.js';
import { acquisitionRecord, insertAcquisitions } from '../fixtures.js';
import { describeEach, describeNeeding, freshSchema, makeKey, needsPostgres, testConfig } from '../helpers.js';
import { ok, startReceiver, verifyBoth, type TestReceiver } from './receiver.js';
import {
  DELIVERY_ENV,
  deliveriesOf,
  dispatched,
  eventually,
  queuedFor,
  webhookApi,
  webhookSuite,
  type WebhookApi,
} from './support.js';

/** Deliveries per dispatch transaction: 3 webhooks x 25 records pass it ten times over. */
const CAP = 7;
const HOOKS = 3;
const RECORDS = 25;
// (A generous timeout: on a loaded machine a late answer would be retried, and counted twice.)
const CAPPED_ENV = { ...DELIVERY_ENV, WEBHOOK_DISPATCH_BATCH: String(CAP), WEBHOOK_TIMEOUT_MS: '10000' };

/** HOOKS webhooks of acquisition.created, each on its own path of the receiver. */
async function createHooks(api: WebhookApi, receiver: TestReceiver): Promise<{ id: string; secret: string }[]> {
  const hooks = [];
  for (let i = 0; i < HOOKS; i++) {
    hooks.push(await api.create({ endpoint_url: `${receiver.url}/${i}`, event_types: ['acquisition.created'] }));
  }
  return hooks;
}

/**
 * Once the dispatcher has caught up: each webhook has one delivery per record, the same events in
 * the same order; then each is delivered, once, signed with its webhook's secret.
 */
async function assertEachPairOnce(
  db: Database,
  receiver: TestReceiver,
  hooks: readonly { id: string; secret: string }[],
  records: number,
): Promise<void> {
  await dispatched(db, 20_000);
  assert.equal(await queuedFor(db, hooks), hooks.length * records, 'one delivery per (webhook, event), none missing, none twice');
  const events = (await deliveriesOf(db, hooks[0]!.id)).map((row) => row.event_id);
  assert.equal(new Set(events).size, records);
  for (const hook of hooks.slice(1)) {
    assert.deepEqual(
      (await deliveriesOf(db, hook.id)).map((row) => row.event_id),
      events,
      'every webhook has the same events, in change order',
    );
  }
  // Delivered: every row done after one attempt (recorded after its request was answered).
  await eventually(
    async () => {
      const rows = (await Promise.all(hooks.map((hook) => deliveriesOf(db, hook.id)))).flat();
      return rows.every((row) => row.status === 'done');
    },
    45_000,
    'every delivery done',
  );
  for (const [i, hook] of hooks.entries()) {
    const rows = await deliveriesOf(db, hook.id);
    assert.ok(
      rows.every((row) => row.attempt_count === 1),
      'each delivered at the first attempt',
    );
    const got = receiver.received.filter((r) => r.url === `/hooks/${i}`);
    for (const r of got) verifyBoth(hook.secret, r);
    assert.deepEqual(
      got.map((r) => String(r.headers['webhook-id'])),
      rows.map((row) => row.event_id),
      `webhook ${i} received every event once, in change order`,
    );
  }
}

describeEach('webhook dispatch in capped transactions', (backend) => {
  const suite = webhookSuite(backend, CAPPED_ENV);

  it(`queues and delivers ${HOOKS} webhooks x ${RECORDS} records, ${CAP} deliveries per transaction, each pair once`, async () => {
    const { ctx, api, receiver } = suite;
    const hooks = await createHooks(api, receiver);
    // One import, one transaction of RECORDS changes: the cap falls inside it.
    await insertAcquisitions(
      ctx.db,
      Array.from({ length: RECORDS }, (_, i) => acquisitionRecord({ companyName: `Capped ${i}` })),
    );
    await assertEachPairOnce(ctx.db, receiver, hooks, RECORDS);
  });
});

describeNeeding('webhook dispatch in capped transactions, two instances', 'PostgreSQL', needsPostgres, () => {
  it('two instances on one database dispatch imports past the cap: each (webhook, event) delivered once', async () => {
    const { schema, drop } = await freshSchema();
    const receiver = await startReceiver();
    const dbs: Database[] = [];
    const apps: FastifyInstance[] = [];
    try {
      for (let i = 0; i < 2; i++) {
        const db = await openPostgres({ connectionString: process.env.DATABASE_URL!, poolSize: 6, schema });
        if (i === 0) await migrate(db);
        dbs.push(db);
        const app = await buildApp({ config: testConfig(CAPPED_ENV), db });
        await app.ready();
        apps.push(app);
      }
      receiver.respond = ok;
      const { key } = await makeKey(dbs[0]!);
      const hooks = await createHooks(webhookApi(apps[0]!, key), receiver);
      // An import through each instance's connection at once, each past the cap several times.
      await Promise.all(
        dbs.map((db, side) =>
          insertAcquisitions(
            db,
            Array.from({ length: RECORDS }, (_, i) => acquisitionRecord({ companyName: `Side ${side} ${i}` })),
          ),
        ),
      );
      await assertEachPairOnce(dbs[1]!, receiver, hooks, 2 * RECORDS);
    } finally {
      for (const app of apps) await app.close();
      for (const db of dbs) await db.close();
      await receiver.close();
      await drop();
    }
  });
});
