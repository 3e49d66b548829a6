// Calls of the webhooks API and waits on the delivery queue, shared by the webhook suites.
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../src/config.js';
import type { Database } from '../../src/db/port.js';
import { keyringOf, open } from '../../src/services/secret-box.js';
import { secretContext } from '../../src/services/webhook-secrets.js';

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
