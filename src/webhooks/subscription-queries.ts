// Webhook subscriptions (migration 011): creating, listing, reading, changing and deleting an
// account's webhooks.
import type { Database, Queryable } from '../platform/db/index.js';
import { trimPausedBacklogs } from './delivery-queue-queries.js';

/**
 * A signing secret as stored: sealed (src/platform/infra/secret-box.ts, whose `Sealed` this is), never
 * the secret itself, so it cannot be handed to the signer by mistake.
 */
export type SealedSecret = string & { readonly __sealed: true };

export interface WebhookRow {
  id: string;
  account_id: number;
  endpoint_url: string;
  event_types: string[];
  filters: Record<string, string>;
  secret: SealedSecret;
  /** The secret's last 4 characters: what the API and the profile page show of it. */
  secret_last4: string;
  active: boolean;
  deleted_at: Date | null;
  paused_reason: string | null;
  created_at: Date;
  updated_at: Date;
  last_modified_by: string | null;
  last_modified_via: 'api' | 'dashboard' | null;
  total_deliveries: number;
  successful_deliveries: number;
  failed_deliveries: number;
  last_success_at: Date | null;
  last_failure_at: Date | null;
  consecutive_failures: number;
  next_attempt_at: Date | null;
  /** Events not queued while paused because the backlog was full, and since when. */
  dropped_events: number;
  dropped_since: Date | null;
  /** The monitor that owns it (its webhook), or null. */
  monitor_id: string | null;
  /** Pending deliveries (listing queries only). */
  pending?: number;
}

const WEBHOOK_COLUMNS = `id, account_id, endpoint_url, event_types, filters, secret, secret_last4, active, deleted_at, paused_reason,
  created_at, updated_at, last_modified_by, last_modified_via, total_deliveries::float8 AS total_deliveries,
  successful_deliveries::float8 AS successful_deliveries, failed_deliveries::float8 AS failed_deliveries,
  last_success_at, last_failure_at, consecutive_failures, next_attempt_at, dropped_events::float8 AS dropped_events,
  dropped_since, monitor_id::text AS monitor_id`;

export interface NewWebhook {
  id: string;
  accountId: number;
  endpointUrl: string;
  eventTypes: string[];
  filters: Record<string, string>;
  secret: SealedSecret;
  secretLast4: string;
  modifiedBy: string;
  via: 'api' | 'dashboard';
}

/**
 * Inserts a webhook unless the account already has `max` (paused ones count); returns it, or
 * undefined at the limit. The account's row is locked first, so concurrent creations count one
 * after another.
 */
export async function insertWebhook(db: Database, webhook: NewWebhook, max: number): Promise<WebhookRow | undefined> {
  return db.transaction(async (tx) => {
    await tx.query('SELECT id FROM accounts WHERE id = $1 FOR UPDATE', [webhook.accountId]);
    if ((await countWebhooks(tx, webhook.accountId)) >= max) return undefined;
    return insertWebhookRow(tx, webhook);
  });
}

/** Inserts a webhook row as it is (a monitor's webhook carries its monitor's id). */
export async function insertWebhookRow(tx: Queryable, webhook: NewWebhook, monitorId: string | null = null): Promise<WebhookRow> {
  const rows = await tx.query<WebhookRow>(
    `INSERT INTO webhooks (id, account_id, endpoint_url, event_types, filters, secret, last_modified_by, last_modified_via,
                           secret_last4, monitor_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING ${WEBHOOK_COLUMNS}`,
    [
      webhook.id,
      webhook.accountId,
      webhook.endpointUrl,
      webhook.eventTypes,
      JSON.stringify(webhook.filters),
      webhook.secret,
      webhook.modifiedBy,
      webhook.via,
      webhook.secretLast4,
      monitorId,
    ],
  );
  return rows[0]!;
}

/** Every webhook of the account that is not deleted, a monitor's aside: a paused one still queues events, so it counts. */
async function countWebhooks(db: Queryable, accountId: number): Promise<number> {
  const rows = await db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM webhooks WHERE account_id = $1 AND deleted_at IS NULL AND monitor_id IS NULL',
    [accountId],
  );
  return rows[0]!.n;
}

/** The account's webhooks that are not deleted, newest first, with their pending deliveries. */
export function listWebhooks(db: Queryable, accountId: number, limit: number, offset: number): Promise<WebhookRow[]> {
  return db.query<WebhookRow>(
    `SELECT ${WEBHOOK_COLUMNS},
            (SELECT count(*)::int FROM webhook_deliveries d WHERE d.webhook_id = w.id AND d.status = 'pending') AS pending
       FROM webhooks w
      WHERE account_id = $1 AND deleted_at IS NULL
      ORDER BY created_at DESC, id DESC
      LIMIT $2 OFFSET $3`,
    [accountId, limit, offset],
  );
}

/** One of the account's webhooks; deleted ones too when asked (PUT may bring one back). */
export async function findWebhook(
  db: Queryable,
  accountId: number,
  id: string,
  includeDeleted = false,
): Promise<WebhookRow | undefined> {
  const rows = await db.query<WebhookRow>(
    `SELECT ${WEBHOOK_COLUMNS},
            (SELECT count(*)::int FROM webhook_deliveries d WHERE d.webhook_id = w.id AND d.status = 'pending') AS pending
       FROM webhooks w
      WHERE account_id = $1 AND id = $2 ${includeDeleted ? '' : 'AND deleted_at IS NULL'}`,
    [accountId, id],
  );
  return rows[0];
}

export interface WebhookChanges {
  endpointUrl?: string;
  eventTypes?: string[];
  filters?: Record<string, string>;
  /** A new secret, sealed, and its last 4 characters. */
  secret?: { sealed: SealedSecret; last4: string };
  active?: boolean;
  modifiedBy: string;
  via: 'api' | 'dashboard';
}

/**
 * Applies changes to a webhook (a deleted one comes back when active turns true); undefined when it
 * does not exist, or 'limit' when bringing a deleted one back would pass the account's `max`. A
 * webhook paused here keeps at most `backlog` pending deliveries (the oldest).
 */
export async function updateWebhook(
  db: Database,
  accountId: number,
  id: string,
  changes: WebhookChanges,
  limits: { max: number; backlog: number },
): Promise<WebhookRow | 'limit' | undefined> {
  return db.transaction(async (tx) => {
    await tx.query('SELECT id FROM accounts WHERE id = $1 FOR UPDATE', [accountId]);
    const current = await findWebhook(tx, accountId, id, true);
    if (!current) return undefined;
    const reviving = changes.active === true && current.deleted_at !== null;
    if (reviving && (await countWebhooks(tx, accountId)) >= limits.max) return 'limit';
    const rows = await tx.query<WebhookRow>(
      `UPDATE webhooks SET
          endpoint_url = coalesce($3, endpoint_url),
          event_types = coalesce($4, event_types),
          filters = coalesce($5::jsonb, filters),
          secret = coalesce($6, secret),
          secret_last4 = coalesce($10, secret_last4),
          active = coalesce($7, active),
          deleted_at = CASE WHEN $7 IS TRUE THEN NULL ELSE deleted_at END,
          paused_reason = CASE WHEN $7 IS NOT NULL THEN NULL ELSE paused_reason END,
          dropped_events = CASE WHEN $7 IS NOT NULL THEN 0 ELSE dropped_events END,
          dropped_since = CASE WHEN $7 IS NOT NULL THEN NULL ELSE dropped_since END,
          consecutive_failures = CASE WHEN $7 IS TRUE AND NOT active THEN 0 ELSE consecutive_failures END,
          -- Turned on again: its pending deliveries are due now.
          next_attempt_at = CASE WHEN $7 IS TRUE AND NOT active
                                 THEN (SELECT CASE WHEN count(*) > 0 THEN now() END FROM webhook_deliveries d
                                        WHERE d.webhook_id = webhooks.id AND d.status = 'pending')
                                 ELSE next_attempt_at END,
          last_modified_by = $8, last_modified_via = $9, updated_at = now()
        WHERE account_id = $1 AND id = $2
        RETURNING ${WEBHOOK_COLUMNS}`,
      [
        accountId,
        id,
        changes.endpointUrl ?? null,
        changes.eventTypes ?? null,
        changes.filters === undefined ? null : JSON.stringify(changes.filters),
        changes.secret?.sealed ?? null,
        changes.active ?? null,
        changes.modifiedBy,
        changes.via,
        changes.secret?.last4 ?? null,
      ],
    );
    if (changes.active === false && rows[0]) {
      const [row] = rows;
      const dropped = await trimPausedBacklogs(tx, [id], limits.backlog);
      return dropped > 0 ? ((await findWebhook(tx, accountId, id, true)) ?? row) : row;
    }
    return rows[0];
  });
}

/**
 * Soft delete: inactive and hidden, its pending deliveries gone with it (in the same transaction:
 * nothing is left queued for a webhook no one sees); its delivery log is kept. Returns false when
 * there is no such webhook.
 */
export async function deleteWebhook(
  db: Database,
  accountId: number,
  id: string,
  modifiedBy: string,
  via: 'api' | 'dashboard',
): Promise<boolean> {
  return db.transaction((tx) => deleteWebhookRow(tx, accountId, id, modifiedBy, via));
}

/** deleteWebhook inside the caller's transaction. */
export async function deleteWebhookRow(
  tx: Queryable,
  accountId: number,
  id: string,
  modifiedBy: string,
  via: 'api' | 'dashboard',
): Promise<boolean> {
  const rows = await tx.query(
    `UPDATE webhooks SET active = false, deleted_at = now(), updated_at = now(), last_modified_by = $3, last_modified_via = $4,
            next_attempt_at = NULL
      WHERE account_id = $1 AND id = $2 AND deleted_at IS NULL RETURNING id`,
    [accountId, id, modifiedBy, via],
  );
  if (rows.length === 0) return false;
  await tx.query(`DELETE FROM webhook_deliveries WHERE webhook_id = $1 AND status = 'pending'`, [id]);
  return true;
}

/** A monitor's webhook given a new endpoint and secret (what PUT /monitors/{id} with a new webhook_url does). */
export async function replaceWebhookEndpoint(
  tx: Queryable,
  id: string,
  endpointUrl: string,
  secret: { sealed: SealedSecret; last4: string },
): Promise<void> {
  await tx.query(
    `UPDATE webhooks SET endpoint_url = $2, secret = $3, secret_last4 = $4, updated_at = now(), last_modified_via = 'api'
      WHERE id = $1`,
    [id, endpointUrl, secret.sealed, secret.last4],
  );
}

/** The account's webhooks (paused ones too, deleted ones not) subscribed to an event type. */
export async function webhooksSubscribedTo(db: Queryable, accountId: number, eventType: string): Promise<string[]> {
  const rows = await db.query<{ id: string }>(
    `SELECT id::text AS id FROM webhooks WHERE account_id = $1 AND deleted_at IS NULL AND $2 = ANY(event_types) ORDER BY id`,
    [accountId, eventType],
  );
  return rows.map((row) => row.id);
}
