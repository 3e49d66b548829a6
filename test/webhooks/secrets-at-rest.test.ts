// Webhook signing secrets at rest: the table holds them sealed (AES-256-GCM with the configured
// key, bound to their webhook), so a copy of the database alone cannot sign a delivery. Deliveries
// still verify with the secret the API handed out; a store from before is sealed at start; a
// server with other keys, or a stored value changed or moved to another webhook, sends nothing
// and says why; SECRETS_KEY_PREVIOUS carries a key rotation.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { afterEach, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { ConfigError, loadConfig } from '../../src/config.js';
import { loadMigrations, migrate } from '../../src/platform/db/migrate.js';
import type { Database } from '../../src/platform/db/port.js';
import { keyringOf, secretKey } from '../../src/platform/infra/secret-box.js';
import { fundingRecord, insertFunding } from '../fixtures.js';
import { describeEach, makeKey, testConfig, type Backend } from '../helpers.js';
import { startReceiver, verifyBoth, type TestReceiver } from './receiver.js';
import { DELIVERY_ENV, deliveriesOf, eventually, openedSecret, storedSecretColumn, webhookApi } from './support.js';

const hexKey = () => randomBytes(32).toString('hex');
/** Another operator's configuration: neither its session secret nor its key is ours. */
const OTHER_SERVER = { SESSION_SECRET: `another-session-secret-${randomBytes(8).toString('hex')}`, SECRETS_KEY: hexKey() };

describeEach('webhook secrets at rest', (backend: Backend) => {
  let db: Database | undefined;
  let receiver: TestReceiver | undefined;
  const apps: FastifyInstance[] = [];

  /** An app on `db` with this configuration (delivery off unless asked). */
  async function appWith(env: Record<string, string> = {}): Promise<FastifyInstance> {
    const app = await buildApp({ config: testConfig({ ...DELIVERY_ENV, WEBHOOK_DELIVERY: 'false', ...env }), db: db! });
    await app.ready();
    apps.push(app);
    return app;
  }

  async function closeApps(): Promise<void> {
    for (const app of apps.splice(0)) await app.close();
  }

  async function fresh(): Promise<void> {
    db = await backend.openMigrated();
  }

  afterEach(async () => {
    await closeApps();
    await db?.close();
    await receiver?.close();
    db = receiver = undefined;
  });

  /** Waits for the dispatcher's first run, which starts events at the change log's head. */
  async function dispatching(): Promise<void> {
    await eventually(async () => (await db!.query<{ seq: unknown }>('SELECT seq FROM webhook_dispatch'))[0]?.seq != null);
  }

  const balance = async (accountId: number) =>
    (await db!.query<{ n: number }>('SELECT credits_remaining::int AS n FROM accounts WHERE id = $1', [accountId]))[0]!.n;

  const wholeRow = async (id: string) =>
    (await db!.query<{ row: string }>('SELECT w::text AS row FROM webhooks w WHERE id = $1', [id]))[0]!.row;

  it('stores the secret sealed; deliveries verify with the secret returned at creation and after rotate_secret', async () => {
    await fresh();
    receiver = await startReceiver();
    const app = await appWith({ WEBHOOK_DELIVERY: 'true' });
    const { key } = await makeKey(db!, 'pro');
    const api = webhookApi(app, key);
    const hook = await api.create({ endpoint_url: receiver!.url, event_types: ['funding.created'] });
    assert.equal(hook.status, 201);

    const stored = await storedSecretColumn(db!, hook.id);
    assert.match(stored, /^v1:[A-Za-z0-9_-]{8}:[A-Za-z0-9_-]{16}:[A-Za-z0-9_-]+$/);
    const row = await wholeRow(hook.id);
    assert.ok(!row.includes(hook.secret.slice('whsec_'.length)), 'no column holds the secret');
    assert.equal(
      (await api.call('GET', `/api/v2/webhooks/${hook.id}`)).body.data.secret_preview,
      `\u2026${hook.secret.slice(-4)}`,
    );

    await dispatching();
    await insertFunding(db!, [fundingRecord({ company_name: 'Sealed Ltd' })]);
    const [delivery] = await receiver!.waitFor(1);
    verifyBoth(hook.secret, delivery!);

    const rotated = await api.call('PUT', `/api/v2/webhooks/${hook.id}`, { rotate_secret: true });
    const secret = rotated.body.data.secret as string;
    assert.notEqual(secret, hook.secret);
    const after = await storedSecretColumn(db!, hook.id);
    assert.notEqual(after, stored);
    assert.ok(!(await wholeRow(hook.id)).includes(secret.slice('whsec_'.length)), 'nor the rotated one');
    assert.equal((await api.call('GET', `/api/v2/webhooks/${hook.id}`)).body.data.secret_preview, `\u2026${secret.slice(-4)}`);
    assert.equal((await api.call('POST', `/api/v2/webhooks/${hook.id}/test`)).status, 200);
    const [, test] = await receiver!.waitFor(2);
    verifyBoth(secret, test!);
    assert.throws(() => verifyBoth(hook.secret, test!));
  });

  it('a store from before: plaintext secrets are sealed at start and deliveries verify with them', async () => {
    db = await backend.open();
    await migrate(
      db,
      loadMigrations().filter((m) => m.name < '016'),
    );
    receiver = await startReceiver();
    const { key, accountId } = await makeKey(db!, 'pro');
    const ids = ['7b0c1a52-8f3e-4d55-9a8e-0c6f3d2b1a01', '7b0c1a52-8f3e-4d55-9a8e-0c6f3d2b1a02'];
    const secrets = ids.map(() => `whsec_${randomBytes(32).toString('base64')}`);
    for (const [i, id] of ids.entries()) {
      await db!.query(`INSERT INTO webhooks (id, account_id, endpoint_url, event_types, secret) VALUES ($1, $2, $3, $4, $5)`, [
        id,
        accountId,
        receiver!.url,
        ['funding.created'],
        secrets[i],
      ]);
    }

    await migrate(db);
    const app = await appWith();
    for (const [i, id] of ids.entries()) {
      const stored = await storedSecretColumn(db!, id);
      assert.match(stored, /^v1:/, 'sealed at start');
      assert.ok(!(await wholeRow(id)).includes(secrets[i]!.slice('whsec_'.length)), 'no plaintext left');
    }
    const api = webhookApi(app, key);
    const shown = await api.call('GET', `/api/v2/webhooks/${ids[0]}`);
    assert.equal(shown.body.data.secret_preview, `\u2026${secrets[0]!.slice(-4)}`);
    assert.equal((await api.call('POST', `/api/v2/webhooks/${ids[0]}/test`)).status, 200);
    const [test] = await receiver!.waitFor(1);
    verifyBoth(secrets[0]!, test!);

    // A second start has nothing left to seal and changes nothing.
    const sealed = await storedSecretColumn(db!, ids[1]!);
    await appWith();
    assert.equal(await storedSecretColumn(db!, ids[1]!), sealed);
  });

  it('a server with other keys sends nothing (test, retry, queued deliveries), charges nothing, and says why', async () => {
    await fresh();
    receiver = await startReceiver();
    const ours = await appWith();
    const { key, accountId } = await makeKey(db!, 'pro');
    const hook = await webhookApi(ours, key).create({ endpoint_url: receiver!.url, event_types: ['funding.created'] });
    const stored = await storedSecretColumn(db!, hook.id);
    await closeApps();

    // The same database, opened by a server that has neither our SECRETS_KEY nor our SESSION_SECRET.
    const theirs = await appWith({ ...OTHER_SERVER, WEBHOOK_DELIVERY: 'true' });
    const api = webhookApi(theirs, key);
    assert.equal(await storedSecretColumn(db!, hook.id), stored, 'what it cannot open, it leaves as it is');
    const credits = await balance(accountId);

    const test = await api.call('POST', `/api/v2/webhooks/${hook.id}/test`);
    assert.equal(test.status, 503);
    assert.equal(test.body.success, false);
    assert.equal(test.body.code, 'unavailable');
    assert.match(test.body.error, /Nothing was sent: this webhook's signing secret cannot be read/);
    assert.ok(!JSON.stringify(test.body).includes(stored), 'the stored value is not echoed');

    await dispatching();
    await insertFunding(db!, [fundingRecord({ company_name: 'Unsigned Ltd' })]);
    const [held] = await eventually(async () => {
      const rows = await db!.query<{ status: string; attempt_count: number; last_error: string | null }>(
        'SELECT status, attempt_count, last_error FROM webhook_deliveries WHERE webhook_id = $1',
        [hook.id],
      );
      return rows[0]?.last_error ? rows : undefined;
    });
    assert.equal(held!.status, 'pending', 'the delivery waits');
    assert.equal(held!.attempt_count, 0, 'nothing was attempted');
    assert.match(held!.last_error!, /cannot read this webhook's signing secret/);
    const [pending] = await deliveriesOf(db!, hook.id);
    const retry = await api.call('POST', `/api/v2/webhooks/${hook.id}/deliveries/${pending!.id}/retry`);
    assert.equal(retry.status, 503);
    const webhook = (await api.call('GET', `/api/v2/webhooks/${hook.id}`)).body.data;
    assert.equal(webhook.active, true, 'not paused: the receiver did nothing wrong');
    assert.equal(webhook.stats.consecutive_failures, 0);
    assert.equal(receiver!.received.length, 0, 'nothing reached the receiver');
    assert.equal(await balance(accountId), credits, 'nothing was charged');

    // The owner rotates the secret: sealed with this server's key, the waiting delivery goes out signed with it.
    const rotated = await api.call('PUT', `/api/v2/webhooks/${hook.id}`, { rotate_secret: true });
    const secret = rotated.body.data.secret as string;
    const [delivered] = await receiver!.waitFor(1);
    assert.equal(verifyBoth(secret, delivered!).event_type, 'funding.created');
  });

  it('SECRETS_KEY_PREVIOUS: secrets sealed with the previous key are read and re-sealed with the new one', async () => {
    await fresh();
    receiver = await startReceiver();
    const [k1, k2] = [hexKey(), hexKey()];
    const first = await appWith({ SECRETS_KEY: k1 });
    const { key } = await makeKey(db!, 'pro');
    const hook = await webhookApi(first, key).create({ endpoint_url: receiver!.url, event_types: ['funding.created'] });
    const underK1 = await storedSecretColumn(db!, hook.id);
    const id = (k: string) => secretKey(Buffer.from(k, 'hex')).id;
    assert.ok(underK1.startsWith(`v1:${id(k1)}:`));
    await closeApps();

    // Rotated: the new key seals, the previous one still opens; the start re-seals.
    const rotatedApp = await appWith({ SECRETS_KEY: k2, SECRETS_KEY_PREVIOUS: k1 });
    assert.ok((await storedSecretColumn(db!, hook.id)).startsWith(`v1:${id(k2)}:`), 're-sealed at start');
    const api = webhookApi(rotatedApp, key);
    assert.equal((await api.call('POST', `/api/v2/webhooks/${hook.id}/test`)).status, 200);
    verifyBoth(hook.secret, (await receiver!.waitFor(1))[0]!);

    // One still under the previous key (written by an instance not restarted yet) is re-sealed when read.
    await db!.query('UPDATE webhooks SET secret = $2 WHERE id = $1', [hook.id, underK1]);
    assert.equal((await api.call('POST', `/api/v2/webhooks/${hook.id}/test`)).status, 200);
    verifyBoth(hook.secret, (await receiver!.waitFor(2))[1]!);
    assert.ok((await storedSecretColumn(db!, hook.id)).startsWith(`v1:${id(k2)}:`), 're-sealed on read');
    await closeApps();

    // The previous key can go: the new one alone reads everything.
    const done = await appWith({ SECRETS_KEY: k2 });
    assert.equal((await webhookApi(done, key).call('POST', `/api/v2/webhooks/${hook.id}/test`)).status, 200);
    verifyBoth(hook.secret, (await receiver!.waitFor(3))[2]!);
    // ...and the old key alone reads nothing any more.
    await closeApps();
    const stale = await appWith({ ...OTHER_SERVER, SECRETS_KEY: k1 });
    assert.equal((await webhookApi(stale, key).call('POST', `/api/v2/webhooks/${hook.id}/test`)).status, 503);
  });

  it('moving from the key derived from SESSION_SECRET to SECRETS_KEY is one restart', async () => {
    await fresh();
    receiver = await startReceiver();
    const derived = await appWith();
    const { key } = await makeKey(db!, 'pro');
    const hook = await webhookApi(derived, key).create({ endpoint_url: receiver!.url, event_types: ['funding.created'] });
    await closeApps();
    const k = hexKey();
    const app = await appWith({ SECRETS_KEY: k });
    assert.ok((await storedSecretColumn(db!, hook.id)).startsWith(`v1:${secretKey(Buffer.from(k, 'hex')).id}:`));
    assert.equal(await openedSecret(db!, testConfig({ ...OTHER_SERVER, SECRETS_KEY: k }), hook.id), hook.secret);
    assert.equal((await webhookApi(app, key).call('POST', `/api/v2/webhooks/${hook.id}/test`)).status, 200);
    verifyBoth(hook.secret, (await receiver!.waitFor(1))[0]!);
  });

  it('a stored secret changed, or moved onto another webhook, is refused rather than used', async () => {
    await fresh();
    receiver = await startReceiver();
    const app = await appWith();
    const { key } = await makeKey(db!, 'pro');
    const api = webhookApi(app, key);
    const one = await api.create({ endpoint_url: receiver!.url, event_types: ['funding.created'] });
    const two = await api.create({ endpoint_url: receiver!.url, event_types: ['funding.created'] });
    const [sealedOne, sealedTwo] = [await storedSecretColumn(db!, one.id), await storedSecretColumn(db!, two.id)];
    const test = (id: string) => api.call('POST', `/api/v2/webhooks/${id}/test`);

    // One's sealed secret copied onto two: it is bound to one's id, so it does not open for two.
    await db!.query('UPDATE webhooks SET secret = $2 WHERE id = $1', [two.id, sealedOne]);
    assert.equal((await test(two.id)).status, 503);

    // A bit of the ciphertext flipped.
    const body = Buffer.from(sealedOne.split(':')[3]!, 'base64url');
    body[0] = body[0]! ^ 1;
    const flipped = [...sealedOne.split(':').slice(0, 3), body.toString('base64url')].join(':');
    await db!.query('UPDATE webhooks SET secret = $2 WHERE id = $1', [one.id, flipped]);
    assert.equal((await test(one.id)).status, 503);

    // A plaintext secret written into the column is not accepted either.
    await db!.query('UPDATE webhooks SET secret = $2 WHERE id = $1', [one.id, `whsec_${randomBytes(32).toString('base64')}`]);
    assert.equal((await test(one.id)).status, 503);
    assert.equal(receiver!.received.length, 0, 'nothing was signed with a value that did not authenticate');

    // Put back, both work again.
    await db!.query('UPDATE webhooks SET secret = $2 WHERE id = $1', [one.id, sealedOne]);
    await db!.query('UPDATE webhooks SET secret = $2 WHERE id = $1', [two.id, sealedTwo]);
    assert.equal((await test(one.id)).status, 200);
    assert.equal((await test(two.id)).status, 200);
    const [a, b] = await receiver!.waitFor(2);
    verifyBoth(one.secret, a!);
    verifyBoth(two.secret, b!);
  });
});

describe('SECRETS_KEY configuration', () => {
  const env = { SESSION_SECRET: 'test-session-secret-0123456789abcdef', LOG_LEVEL: 'silent' };

  it('takes 32 bytes as 64 hex characters or base64, and refuses anything else naming the variable', () => {
    const bytes = randomBytes(32);
    assert.deepEqual(loadConfig({ ...env, SECRETS_KEY: bytes.toString('hex') }).secretsKey, bytes);
    assert.deepEqual(loadConfig({ ...env, SECRETS_KEY: bytes.toString('base64') }).secretsKey, bytes);
    assert.deepEqual(loadConfig({ ...env, SECRETS_KEY_PREVIOUS: bytes.toString('base64url') }).secretsKeyPrevious, bytes);
    for (const bad of ['short', randomBytes(16).toString('hex'), randomBytes(33).toString('base64')]) {
      assert.throws(
        () => loadConfig({ ...env, SECRETS_KEY: bad }),
        (error: unknown) => error instanceof ConfigError && /SECRETS_KEY must be 32 bytes/.test(error.message),
      );
    }
  });

  it('without SECRETS_KEY, the key is derived from SESSION_SECRET: another session secret is another key', () => {
    const one = keyringOf(loadConfig(env));
    const again = keyringOf(loadConfig(env));
    const other = keyringOf(loadConfig({ ...env, SESSION_SECRET: 'another-session-secret-0123456789abcdef' }));
    assert.equal(one.current.id, again.current.id);
    assert.notEqual(one.current.id, other.current.id);
  });
});
