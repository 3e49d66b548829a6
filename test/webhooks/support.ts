// Calls of the webhooks API, waits on the delivery queue and the setup shared by the webhook suites.
import { after, before, beforeEach } from 'node:test';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../src/config.js';
import { changeLogHead, comparePositions } from '../../src/changes/change-log-queries.js';
import type { Database } from '../../src/platform/db/port.js';
import { makeKey, startApp, type Backend, type TestContext } from '../helpers.js';
import { ok, startReceiver, type TestReceiver } from './receiver.js';
import { keyringOf, open } from '../../src/platform/infra/secret-box.js';
import { secretContext } from '../../src/webhooks/secrets.js';

/** Fast retries and polling, loopback receivers allowed: what the delivery suites run with. */
export const DELIVERY_ENV = {
  WEBHOOK_DELIVERY: 'true',
  WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8',
  WEBHOOK_POLL_MS: '30',
  WEBHOOK_RETRY_DELAYS: '0.05,0.05,0.05',
  WEBHOOK_TIMEOUT_MS: '500',
  WEBHOOK_CREDITS_RECHECK_MS: '50',
};

/** A parsed JSON body: what JSON.parse gives, which the tests read field by field. */
type Json = ReturnType<typeof JSON.parse>;

export interface WebhookApi {
  call(method: string, url: string, payload?: unknown): Promise<{ status: number; body: Json; headers: Record<string, unknown> }>;
  create(payload: unknown): Promise<{ id: string; secret: string; body: Json; status: number }>;
}

export function webhookApi(app: FastifyInstance, key: string): WebhookApi {
  const call: WebhookApi['call'] = async (method, url, payload) => {
    const res = await app.inject({
      method: method as 'GET',
      url,
      headers: { authorization: `Bearer ${key}` },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
    return { status: res.statusCode, body: res.body ? res.json() : undefined, headers: res.headers };
  };
  return {
    call,
    async create(payload) {
      const res = await call('POST', '/api/v2/webhooks', payload);
      return { id: res.body?.data?.id, secret: res.body?.data?.secret, body: res.body, status: res.status };
    },
  };
}

/** Polls until check() returns something truthy (or throws after timeoutMs). */
export async function eventually<T>(
  check: () => Promise<T | undefined | false>,
  timeoutMs = 10_000,
  what = 'condition',
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

export interface StoredDelivery {
  id: string;
  event_id: string;
  event_type: string;
  status: string;
  attempt_count: number;
  response_status: number | null;
  next_attempt_at: Date | null;
}

/** How many deliveries the webhooks have in the queue or the log. */
export async function queuedFor(db: Database, hooks: readonly { id: string }[]): Promise<number> {
  const rows = await db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM webhook_deliveries WHERE webhook_id = ANY($1::uuid[])',
    [hooks.map((hook) => hook.id)],
  );
  return rows[0]!.n;
}

export function deliveriesOf(db: Database, webhookId: string): Promise<StoredDelivery[]> {
  return db.query<StoredDelivery>(
    `SELECT id, event_id, event_type, status, attempt_count, response_status, next_attempt_at
       FROM webhook_deliveries WHERE webhook_id = $1 ORDER BY seq, change_id, created_at`,
    [webhookId],
  );
}

/** The webhook's stored secret column, as it is in the table. */
export async function storedSecretColumn(db: Database, webhookId: string): Promise<string> {
  const rows = await db.query<{ secret: string }>('SELECT secret FROM webhooks WHERE id = $1', [webhookId]);
  return rows[0]!.secret;
}

/** The webhook's secret as the app with this configuration reads it (the column holds it sealed). */
export async function openedSecret(db: Database, config: Config, webhookId: string): Promise<string> {
  return open(await storedSecretColumn(db, webhookId), keyringOf(config), secretContext(webhookId)).plaintext;
}

/**
 * Waits until every change committed so far has been turned into deliveries: the dispatch position
 * has reached the change log's head (the last entry of the last transaction, so an import queued
 * over several dispatch transactions counts only once it is all queued).
 */
export async function dispatched(db: Database, timeoutMs = 10_000): Promise<void> {
  await eventually(
    async () => {
      const [position] = await db.query<{ seq: number | null; change_id: number | null }>(
        'SELECT seq::int, change_id::int FROM webhook_dispatch',
      );
      if (position?.seq == null) return false;
      const head = await changeLogHead(db);
      return comparePositions({ seq: position.seq, changeId: position.change_id ?? 0 }, head) >= 0;
    },
    timeoutMs,
    'the dispatcher to catch up',
  );
}

/** Resolves once the receiver has taken no request for `ms` (at most `maxMs` in all). */
async function quiet(receiver: TestReceiver, ms = 250, maxMs = 5000): Promise<void> {
  const deadline = Date.now() + maxMs;
  for (let seen = -1; seen !== receiver.received.length && Date.now() < deadline;) {
    seen = receiver.received.length;
    await new Promise((resolve) => setTimeout(resolve, ms));
  }
}

/** What a webhook suite's tests use; set before each test. */
export interface WebhookSuite {
  ctx: TestContext;
  receiver: TestReceiver;
  api: WebhookApi;
  /** A new pro key (and its account) for each test. */
  key: string;
  accountId: number;
  /** Waits until every change so far has been turned into deliveries. */
  dispatched(): Promise<void>;
}

/**
 * Registers a webhook suite's hooks: an app on the backend with env, a receiver on loopback, and
 * before each test a new key, an empty receiver answering 200 and (isolate, the default) the
 * earlier tests' webhooks deleted, so each test's webhooks see only its own writes.
 */
export function webhookSuite(backend: Backend, env: Record<string, string>, { isolate = true } = {}): WebhookSuite {
  const suite = {
    dispatched: () => dispatched(suite.ctx.db),
  } as WebhookSuite;
  before(async () => {
    suite.ctx = await startApp(backend, env);
    suite.receiver = await startReceiver();
  });
  after(async () => {
    await suite.ctx.close();
    await suite.receiver.close();
  });
  beforeEach(async () => {
    const created = await makeKey(suite.ctx.db, 'pro');
    suite.key = created.key;
    suite.accountId = created.accountId;
    suite.api = webhookApi(suite.ctx.app, created.key);
    suite.receiver.respond = ok;
    if (isolate) {
      await suite.ctx.db.query('UPDATE webhooks SET active = false, deleted_at = now() WHERE deleted_at IS NULL');
      // No delivery of a deleted webhook is sent any more, but one already on its way still lands:
      // wait until the receiver has heard nothing for a moment before it is emptied for this test.
      await quiet(suite.receiver);
    }
    suite.receiver.received.length = 0;
  });
  return suite;
}
