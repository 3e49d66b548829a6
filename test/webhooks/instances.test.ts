// The delivery queue across processes (PostgreSQL): two instances share it without sending an
// event twice to a receiver that answers 2xx, and a server killed while a delivery is on the wire
// loses nothing: after a restart the delivery goes out again, with its event id.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { after, before, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { migrate } from '../../src/platform/db/migrate.js';
import { openPostgres } from '../../src/platform/db/postgres.js';
import type { Database } from '../../src/platform/db/port.js';
import { acquisitionRecord, insertAcquisitions } from '../fixtures.js';
import { describeNeeding, freshSchema, makeKey, needsPostgres, testConfig } from '../helpers.js';
import { ok, startReceiver, verifyBoth, type TestReceiver } from './receiver.js';
import { DELIVERY_ENV, deliveriesOf, eventually, webhookApi } from './support.js';

const DATABASE_URL = process.env.DATABASE_URL;
const BIN = new URL('../../bin/dealsignal.js', import.meta.url).pathname;

describeNeeding('webhook deliveries across instances', 'PostgreSQL', needsPostgres, () => {
  let receiver: TestReceiver;
  before(async () => {
    receiver = await startReceiver();
  });
  after(() => receiver.close());

  it('two instances share the queue: every event delivered, none twice', async () => {
    const { schema, drop } = await freshSchema();
    const dbs: Database[] = [];
    const apps: FastifyInstance[] = [];
    try {
      for (let i = 0; i < 2; i++) {
        const db = await openPostgres({ connectionString: DATABASE_URL!, poolSize: 6, schema });
        if (i === 0) await migrate(db);
        dbs.push(db);
        const app = await buildApp({ config: testConfig({ ...DELIVERY_ENV, WEBHOOK_CONCURRENCY: '4' }), db });
        await app.ready();
        apps.push(app);
      }
      receiver.received.length = 0;
      receiver.respond = ok;
      const { key } = await makeKey(dbs[0]!);
      const api = webhookApi(apps[0]!, key);
      const hooks = [];
      // One path per webhook, so the receiver can tell them apart (an event has one id, whichever webhooks it goes to).
      for (let i = 0; i < 6; i++) {
        hooks.push(await api.create({ endpoint_url: `${receiver.url}/${i}`, event_types: ['acquisition.created'] }));
      }
      // Writes from both sides, in many transactions.
      const records = Array.from({ length: 60 }, () => acquisitionRecord());
      await Promise.all(
        [0, 1].map(async (side) => {
          for (let i = side; i < records.length; i += 2) await insertAcquisitions(dbs[side]!, [records[i]!]);
        }),
      );
      const expected = records.length * hooks.length;
      await receiver.waitFor(expected, 30_000);
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.equal(receiver.received.length, expected, 'no event sent twice');
      // Each webhook got every record once, in commit order.
      for (const [i, hook] of hooks.entries()) {
        const rows = await deliveriesOf(dbs[0]!, hook.id);
        assert.equal(rows.length, records.length);
        assert.ok(rows.every((row) => row.status === 'done' && row.attempt_count === 1));
        const got = receiver.received.filter((r) => r.url === `/hooks/${i}`);
        for (const r of got) verifyBoth(hook.secret, r);
        assert.deepEqual(
          got.map((r) => String(r.headers['webhook-id'])),
          rows.map((row) => row.event_id),
          'every event once, in change order',
        );
      }
      // An event is one change: every webhook got the same event ids.
      assert.equal(new Set(receiver.received.map((r) => String(r.headers['webhook-id']))).size, records.length);
    } finally {
      for (const app of apps) await app.close();
      for (const db of dbs) await db.close();
      await drop();
    }
  });

  it('a server killed mid-delivery loses nothing: after a restart the delivery goes out again', { timeout: 90_000 }, async () => {
    const database = `dealsignal_kill_${randomBytes(4).toString('hex')}`;
    const admin = await openPostgres({ connectionString: DATABASE_URL!, poolSize: 1 });
    await admin.exec(`CREATE DATABASE ${database}`);
    const url = new URL(DATABASE_URL!);
    url.pathname = `/${database}`;
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      ...DELIVERY_ENV,
      DATABASE_URL: url.toString(),
      SESSION_SECRET: 'kill-test-session-secret-0123456789abcdef',
      PORT: '0',
      SEED_DEMO: 'false',
      LOG_LEVEL: 'info',
      WEBHOOK_LEASE_SECONDS: '2',
      WEBHOOK_TIMEOUT_MS: '30000',
      LOAD_SHED_EVENT_LOOP_DELAY_MS: '0',
    };
    delete env.REDIS_URL;
    let server: ChildProcess | undefined;
    let db: Database | undefined;
    try {
      let port: number;
      ({ server, port } = await serve(env));
      db = await openPostgres({ connectionString: url.toString(), poolSize: 2 });
      const { key } = await makeKey(db);
      const created = await fetch(`http://127.0.0.1:${port}/api/v2/webhooks`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ endpoint_url: receiver.url, event_types: ['acquisition.created'] }),
      });
      const hook = ((await created.json()) as { data: { id: string; secret: string } }).data;
      receiver.received.length = 0;
      // The first request is held open: the server is killed while it waits for the answer.
      receiver.respond = () => undefined;
      await insertAcquisitions(db, [acquisitionRecord({ companyName: 'Survivor' })]);
      const [first] = await receiver.waitFor(1);
      server.kill('SIGKILL');
      await new Promise((resolve) => server!.once('exit', resolve));
      receiver.respond = ok;
      assert.equal((await deliveriesOf(db, hook.id))[0]!.status, 'pending', 'nothing was recorded as delivered');

      ({ server } = await serve(env));
      const [, again] = await receiver.waitFor(2, 30_000);
      assert.equal(again!.headers['webhook-id'], first!.headers['webhook-id'], 'the same event, again');
      assert.equal((verifyBoth(hook.secret, again!).data as { companyName: string }).companyName, 'Survivor');
      const row = await eventually(async () => {
        const [delivery] = await deliveriesOf(db!, hook.id);
        return delivery?.status === 'done' ? delivery : undefined;
      });
      assert.equal(row.attempt_count, 1);
    } finally {
      server?.kill('SIGKILL');
      await db?.close();
      await admin.exec(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`).catch(() => undefined);
      await admin.close();
    }
  });
});

/** Starts `dealsignal serve` and resolves with its port once it listens. */
async function serve(env: NodeJS.ProcessEnv): Promise<{ server: ChildProcess; port: number }> {
  const server = spawn(process.execPath, [BIN, 'serve'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const match = /Server listening at http:\/\/127\.0\.0\.1:(\d+)/.exec(out);
      if (match) resolve(Number(match[1]));
    };
    server.stdout!.on('data', onData);
    server.stderr!.on('data', onData);
    server.once('exit', (code) => reject(new Error(`server exited early (${code}): ${out.slice(-2000)}`)));
  });
  return { server, port };
}
