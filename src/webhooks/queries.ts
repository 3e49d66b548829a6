// Webhook subscriptions and their delivery queue (migration 011): the statements the webhook
// service, the dispatcher and the delivery worker run.
import type { Database, Queryable } from '../platform/db/index.js';
import type { ChangePosition } from '../changes/index.js';
import { debitCredits, lockSpendable } from '../accounts/index.js';

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
  /** Pending deliveries (listing queries only). */
  pending?: number;
}

const WEBHOOK_COLUMNS = `id, account_id, endpoint_url, event_types, filters, secret, secret_last4, active, deleted_at, paused_reason,
  created_at, updated_at, last_modified_by, last_modified_via, total_deliveries::float8 AS total_deliveries,
  successful_deliveries::float8 AS successful_deliveries, failed_deliveries::float8 AS failed_deliveries,
  last_success_at, last_failure_at, consecutive_failures, next_attempt_at, dropped_events::float8 AS dropped_events,
  dropped_since`;

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
    const rows = await tx.query<WebhookRow>(
      `INSERT INTO webhooks (id, account_id, endpoint_url, event_types, filters, secret, last_modified_by, last_modified_via,
                             secret_last4)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING ${WEBHOOK_COLUMNS}`,
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
      ],
    );
    return rows[0];
  });
}

/** Every webhook of the account that is not deleted: a paused one still queues events, so it counts. */
async function countWebhooks(db: Queryable, accountId: number): Promise<number> {
  const rows = await db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM webhooks WHERE account_id = $1 AND deleted_at IS NULL',
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
  return db.transaction(async (tx) => {
    const rows = await tx.query(
      `UPDATE webhooks SET active = false, deleted_at = now(), updated_at = now(), last_modified_by = $3, last_modified_via = $4,
              next_attempt_at = NULL
        WHERE account_id = $1 AND id = $2 AND deleted_at IS NULL RETURNING id`,
      [accountId, id, modifiedBy, via],
    );
    if (rows.length === 0) return false;
    await tx.query(`DELETE FROM webhook_deliveries WHERE webhook_id = $1 AND status = 'pending'`, [id]);
    return true;
  });
}

/**
 * Keeps the oldest `max` pending deliveries of each of these webhooks that is paused and deletes
 * the rest, counting them as dropped (paused_reason says so). Returns how many went.
 */
export async function trimPausedBacklogs(tx: Queryable, ids: readonly string[], max: number): Promise<number> {
  const rows = await tx.query<{ n: number }>(
    `WITH extra AS (
       SELECT d.id, d.webhook_id
         FROM webhooks w
         JOIN LATERAL (SELECT id, webhook_id FROM webhook_deliveries
                        WHERE webhook_id = w.id AND status = 'pending'
                        ORDER BY seq, change_id OFFSET $2) d ON true
        WHERE w.id = ANY($1::uuid[]) AND NOT w.active AND w.deleted_at IS NULL
     ), gone AS (
       DELETE FROM webhook_deliveries x USING extra WHERE x.id = extra.id RETURNING x.webhook_id
     ), counts AS (
       SELECT webhook_id, count(*) AS n FROM gone GROUP BY webhook_id
     ), marked AS (
       UPDATE webhooks w SET dropped_events = w.dropped_events + counts.n, dropped_since = coalesce(w.dropped_since, now())
         FROM counts WHERE w.id = counts.webhook_id
       RETURNING counts.n
     )
     SELECT coalesce(sum(n), 0)::int AS n FROM marked`,
    [[...new Set(ids)], max],
  );
  return rows[0]?.n ?? 0;
}

// ---------- dispatch: change log → deliveries ----------

/** What the dispatcher needs of each webhook that hears of events. */
export interface DispatchWebhook {
  id: string;
  event_types: string[];
  filters: Record<string, string>;
  created_at: Date;
  updated_at: Date;
}

/**
 * Webhooks that get events: every one not deleted. A paused one's events queue up (at most its
 * backlog: see enqueueDeliveries) and go out, in order, when it is turned on again; a deleted one
 * hears of nothing.
 */
export function subscribedWebhooks(db: Queryable): Promise<DispatchWebhook[]> {
  return db.query<DispatchWebhook>(
    'SELECT id, event_types, filters, created_at, updated_at FROM webhooks WHERE deleted_at IS NULL',
  );
}

/**
 * Locks the dispatch position for this transaction and returns it; undefined when another process
 * holds it (it is dispatching now), null seq when no run has happened yet.
 */
export async function lockDispatchPosition(tx: Queryable): Promise<{ position: ChangePosition | null } | undefined> {
  const rows = await tx.query<{ seq: number | null; change_id: number | null }>(
    'SELECT seq, change_id FROM webhook_dispatch FOR UPDATE SKIP LOCKED',
  );
  const row = rows[0];
  if (!row) return undefined;
  return { position: row.seq === null ? null : { seq: row.seq, changeId: row.change_id ?? 0 } };
}

export async function setDispatchPosition(tx: Queryable, position: ChangePosition): Promise<void> {
  await tx.query('UPDATE webhook_dispatch SET seq = $1, change_id = $2', [position.seq, position.changeId]);
}

/** An event and the body every delivery of it sends. */
export interface NewEvent {
  id: string;
  eventType: string;
  body: string;
}

export interface NewDelivery {
  id: string;
  webhookId: string;
  position: ChangePosition;
  eventId: string;
  eventType: string;
}

export async function insertEvents(tx: Queryable, events: readonly NewEvent[]): Promise<void> {
  if (events.length === 0) return;
  await tx.query(`INSERT INTO webhook_events (id, event_type, body) SELECT * FROM unnest($1::text[], $2::text[], $3::text[])`, [
    events.map((e) => e.id),
    events.map((e) => e.eventType),
    events.map((e) => e.body),
  ]);
}

/**
 * Locks webhook rows in id order for the rest of the transaction. Every transaction that queues
 * deliveries or records outcomes takes these locks first, in the same order: a sender recording
 * its outcomes then sees every delivery queued before it (it waits for the queuing transaction to
 * commit), so it never marks a webhook as having nothing pending while something is.
 */
async function lockWebhooks(tx: Queryable, ids: readonly string[]): Promise<void> {
  await tx.query('SELECT id FROM webhooks WHERE id = ANY($1::uuid[]) ORDER BY id FOR UPDATE', [[...new Set(ids)]]);
}

/**
 * Queues deliveries (one statement) and marks their webhooks as having work, due now unless already
 * waiting. A paused webhook (read after its row is locked, so a pause in between is seen) keeps at
 * most `pausedBacklog` pending deliveries: the oldest stay, the deliveries past the bound are not
 * queued and are counted as dropped (its paused_reason says so), so a paused webhook's queue, and
 * the work of queueing for it, stay bounded however much changes.
 */
export async function enqueueDeliveries(tx: Queryable, deliveries: readonly NewDelivery[], pausedBacklog: number): Promise<void> {
  if (deliveries.length === 0) return;
  const webhooks = [...new Set(deliveries.map((d) => d.webhookId))];
  await lockWebhooks(tx, webhooks);
  await tx.query(
    `WITH input AS (
       SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::bigint[], $4::bigint[], $5::text[], $6::text[])
                WITH ORDINALITY AS i(id, webhook_id, seq, change_id, event_id, event_type, n)
     ), room AS (
       -- Null: active, no bound. The count stops at the bound, so it reads at most that many rows.
       SELECT w.id, CASE WHEN w.active THEN NULL ELSE greatest($7::int - (
                SELECT count(*) FROM (SELECT 1 FROM webhook_deliveries d
                                       WHERE d.webhook_id = w.id AND d.status = 'pending' LIMIT $7::int) p), 0) END AS room
         FROM webhooks w WHERE w.id = ANY($8::uuid[])
     ), ranked AS (
       SELECT i.*, room.room, row_number() OVER (PARTITION BY i.webhook_id ORDER BY i.n) AS k
         FROM input i JOIN room ON room.id = i.webhook_id
     ), queued AS (
       INSERT INTO webhook_deliveries (id, webhook_id, seq, change_id, event_id, event_type)
       SELECT id, webhook_id, seq, change_id, event_id, event_type FROM ranked WHERE room IS NULL OR k <= room
       RETURNING webhook_id
     ), dropped AS (
       SELECT webhook_id, count(*) AS n FROM ranked WHERE room IS NOT NULL AND k > room GROUP BY webhook_id
     )
     UPDATE webhooks w SET dropped_events = w.dropped_events + dropped.n, dropped_since = coalesce(w.dropped_since, now())
       FROM dropped WHERE w.id = dropped.webhook_id`,
    [
      deliveries.map((d) => d.id),
      deliveries.map((d) => d.webhookId),
      deliveries.map((d) => d.position.seq),
      deliveries.map((d) => d.position.changeId),
      deliveries.map((d) => d.eventId),
      deliveries.map((d) => d.eventType),
      pausedBacklog,
      webhooks,
    ],
  );
  await tx.query('UPDATE webhooks SET next_attempt_at = coalesce(next_attempt_at, now()) WHERE id = ANY($1::uuid[])', [webhooks]);
}

// ---------- delivery: claim, send, record ----------

/** When webhook w is next due: its oldest pending delivery's next attempt (now if never tried), null when none is pending. */
const HEAD_DUE_AT = `(SELECT coalesce(d.next_attempt_at, now()) FROM webhook_deliveries d
  WHERE d.webhook_id = w.id AND d.status = 'pending' ORDER BY d.seq, d.change_id LIMIT 1)`;

export interface PendingDelivery {
  id: string;
  event_id: string;
  event_type: string;
  body: string;
  attempt_count: number;
  created_at: string;
}

export interface ClaimedWebhook {
  id: string;
  account_id: number;
  endpoint_url: string;
  secret: SealedSecret;
  consecutive_failures: number;
  /** Its oldest pending deliveries, in change order. */
  deliveries: PendingDelivery[];
}

/**
 * Claims up to `limit` webhooks whose oldest pending delivery is due and that no process holds,
 * for leaseMs, with up to `perWebhook` of their pending deliveries in change order. SKIP LOCKED:
 * processes claiming at once take different webhooks, none waits for another.
 */
export async function claimDueWebhooks(
  db: Queryable,
  owner: string,
  leaseMs: number,
  limit: number,
  perWebhook: number,
): Promise<ClaimedWebhook[]> {
  return db.query<ClaimedWebhook>(
    `WITH due AS (
       SELECT id FROM webhooks
        WHERE next_attempt_at <= now() AND active AND deleted_at IS NULL
          AND (lease_until IS NULL OR lease_until < now())
        ORDER BY next_attempt_at
        LIMIT $3
        FOR UPDATE SKIP LOCKED
     ), claimed AS (
       UPDATE webhooks w SET lease_until = now() + $2 * interval '1 millisecond', lease_owner = $1
         FROM due WHERE w.id = due.id
       RETURNING w.id, w.account_id, w.endpoint_url, w.secret, w.consecutive_failures
     )
     SELECT c.*, coalesce(p.deliveries, '[]') AS deliveries
       FROM claimed c
       LEFT JOIN LATERAL (
         SELECT json_agg(json_build_object('id', d.id, 'event_id', d.event_id, 'event_type', d.event_type, 'body', e.body,
                                           'attempt_count', d.attempt_count, 'created_at', d.created_at)
                         ORDER BY d.seq, d.change_id) AS deliveries
           FROM (SELECT * FROM webhook_deliveries
                  WHERE webhook_id = c.id AND status = 'pending'
                  ORDER BY seq, change_id
                  LIMIT $4) d
           JOIN webhook_events e ON e.id = d.event_id
       ) p ON true`,
    [owner, leaseMs, limit, perWebhook],
  );
}

/** The outcome of one attempt at a delivery. */
export interface AttemptResult {
  deliveryId: string;
  status: 'pending' | 'done' | 'failed';
  attemptCount: number;
  /** When a pending delivery is tried again. */
  nextAttemptAt: Date | null;
  responseStatus: number;
  responseBody: string;
  latencyMs: number;
  error: string | null;
  at: Date;
}

/** What a batch of attempts did to one webhook. */
export interface WebhookOutcome {
  webhookId: string;
  accountId: number;
  succeeded: number;
  failed: number;
  lastSuccessAt: Date | null;
  lastFailureAt: Date | null;
  consecutiveFailures: number;
  /** Set when the webhook is to be paused (its oldest delivery failed for good). */
  pauseReason: string | null;
  /** Not sent (no credits left): its deliveries are looked at again at this time. */
  heldUntil: Date | null;
}

// ---------- billing: one credit per (webhook, event) whose body left ----------

/** Whose attempts of which webhook are about to be sent. */
export interface DeliveryCharge {
  accountId: number;
  webhookId: string;
  /** The ledger row's endpoint: webhooks.delivery (automatic) or webhooks.deliveries.retry. */
  endpoint: string;
}

/**
 * What an attempt costs: 'reserved' (this caller took the credit and settles it afterwards),
 * 'paid' (an earlier attempt's body left: free), 'busy' (another attempt of the same event holds
 * a reservation right now) or 'short' (no credit left: nothing taken).
 */
export type Reservation = 'reserved' | 'paid' | 'busy' | 'short';

/**
 * Reserves the credits of attempts of these events, in order, before they are sent: one
 * transaction locks the account's row, reads which (webhook, event) are paid or being paid, takes
 * the credits of the others with the guarded debit and its one ledger row, and inserts their
 * (webhook, event) rows, so no balance is overdrawn and no (webhook, event) is charged twice,
 * whoever sends at once (the account's row is locked first by every reservation, so they queue,
 * never deadlock). Returns one answer per event up to the first that cannot go now ('busy' or
 * 'short', last). Reservations are settled within `holdMs` (the sender's lease, a manual retry's
 * timeout); one still unsettled after that (its process crashed) counts as paid.
 */
export async function reserveDeliveries(
  db: Database,
  charge: DeliveryCharge,
  eventIds: readonly string[],
  holdMs: number,
): Promise<Reservation[]> {
  if (eventIds.length === 0) return [];
  return db.transaction(async (tx) => {
    let spendable = await lockSpendable(tx, charge.accountId);
    const known = new Map(
      (
        await tx.query<{ event_id: string; settled: boolean }>(
          `SELECT event_id, sent OR reserved_until < now() AS settled FROM webhook_charges
            WHERE webhook_id = $1 AND event_id = ANY($2::text[])`,
          [charge.webhookId, [...eventIds]],
        )
      ).map((row) => [row.event_id, row.settled]),
    );
    const answers: Reservation[] = [];
    const taken: string[] = [];
    for (const eventId of eventIds) {
      const settled = known.get(eventId);
      if (settled === false) {
        answers.push('busy');
        break;
      }
      if (settled === true || taken.includes(eventId)) {
        answers.push('paid');
        continue;
      }
      if (spendable === 0) {
        answers.push('short');
        break;
      }
      spendable--;
      taken.push(eventId);
      answers.push('reserved');
    }
    if (taken.length > 0) {
      const debited = await debitCredits(tx, {
        accountId: charge.accountId,
        keyId: null,
        cost: taken.length,
        endpoint: charge.endpoint,
        reason: 'webhook',
      });
      // The row is locked and was read above: the guarded debit cannot be refused here.
      if (debited === undefined) throw new Error('webhook credit reservation refused under the account lock');
      await tx.query(
        `INSERT INTO webhook_charges (webhook_id, event_id, account_id, reserved_until)
         SELECT $1, e, $3, now() + $4 * interval '1 millisecond' FROM unnest($2::text[]) AS e`,
        [charge.webhookId, taken, charge.accountId, holdMs],
      );
    }
    return answers;
  });
}

/** How a reserved attempt ended: whether its body was written to the receiver's connection. */
export interface Settlement {
  accountId: number;
  webhookId: string;
  eventId: string;
  bodySent: boolean;
  endpoint: string;
}

/**
 * Settles reservations: a body that left keeps its credit (the row is marked sent: later attempts
 * are free); one that never left gives it back, with a ledger row, unless another attempt of the
 * same event has been sent meanwhile (then the row is marked sent and the credit stays spent).
 */
export async function settleCharges(tx: Queryable, settlements: readonly Settlement[]): Promise<void> {
  const sent = settlements.filter((s) => s.bodySent);
  if (sent.length > 0) {
    await tx.query(
      `UPDATE webhook_charges c SET sent = true FROM unnest($1::uuid[], $2::text[]) AS s(webhook_id, event_id)
        WHERE c.webhook_id = s.webhook_id AND c.event_id = s.event_id`,
      [sent.map((s) => s.webhookId), sent.map((s) => s.eventId)],
    );
  }
  const unsent = settlements.filter((s) => !s.bodySent);
  if (unsent.length === 0) return;
  await tx.query(
    `WITH s AS (SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[]) AS s(webhook_id, event_id, endpoint)),
     gone AS (
       DELETE FROM webhook_charges c USING s
        WHERE c.webhook_id = s.webhook_id AND c.event_id = s.event_id AND NOT c.sent
       RETURNING c.account_id, s.endpoint
     ), per AS (
       SELECT account_id, endpoint, count(*) AS n FROM gone GROUP BY account_id, endpoint
     ), credited AS (
       -- One UPDATE per account even when its refunds span endpoints: sum first.
       UPDATE accounts a SET credits_remaining = a.credits_remaining + t.n
         FROM (SELECT account_id, sum(n) AS n FROM per GROUP BY account_id) t WHERE a.id = t.account_id
       RETURNING a.id, a.credits_remaining
     )
     INSERT INTO credit_ledger (account_id, delta, balance_after, reason, endpoint)
     SELECT per.account_id, per.n, c.credits_remaining, 'webhook_refund', per.endpoint
       FROM per JOIN credited c ON c.id = per.account_id`,
    [unsent.map((s) => s.webhookId), unsent.map((s) => s.eventId), unsent.map((s) => s.endpoint)],
  );
}

/**
 * Records attempts and their webhooks' stats, settles their reservations (see settleCharges),
 * releases the leases and sets each webhook's next due time to its oldest pending delivery's, all
 * in one transaction. A webhook paused here keeps at most `pausedBacklog` pending deliveries.
 */
export async function recordAttempts(
  db: Database,
  owner: string,
  attempts: readonly AttemptResult[],
  outcomes: readonly WebhookOutcome[],
  settlements: readonly Settlement[],
  pausedBacklog: number,
): Promise<void> {
  await db.transaction(async (tx) => {
    await lockWebhooks(
      tx,
      outcomes.map((o) => o.webhookId),
    );
    await settleCharges(tx, settlements);
    if (attempts.length > 0) {
      await tx.query(
        `UPDATE webhook_deliveries d SET
            status = r.status, attempt_count = r.attempt_count, next_attempt_at = r.next_attempt_at,
            response_status = r.response_status, response_body = r.response_body, latency_ms = r.latency_ms,
            last_error = r.error,
            delivered_at = CASE WHEN r.status = 'done' THEN r.at END,
            failed_at = CASE WHEN r.status = 'failed' THEN r.at ELSE d.failed_at END
           FROM unnest($1::uuid[], $2::text[], $3::int[], $4::timestamptz[], $5::int[], $6::text[], $7::int[], $8::text[], $9::timestamptz[])
             AS r(id, status, attempt_count, next_attempt_at, response_status, response_body, latency_ms, error, at)
          -- A manual retry that succeeded meanwhile has taken it out of the queue (done): it stays so.
          WHERE d.id = r.id AND d.status = 'pending'`,
        [
          attempts.map((a) => a.deliveryId),
          attempts.map((a) => a.status),
          attempts.map((a) => a.attemptCount),
          attempts.map((a) => a.nextAttemptAt),
          attempts.map((a) => a.responseStatus),
          attempts.map((a) => a.responseBody),
          attempts.map((a) => a.latencyMs),
          attempts.map((a) => a.error),
          attempts.map((a) => a.at),
        ],
      );
    }
    if (outcomes.length === 0) return;
    await tx.query(
      `UPDATE webhooks w SET
          total_deliveries = total_deliveries + o.succeeded + o.failed,
          successful_deliveries = successful_deliveries + o.succeeded,
          failed_deliveries = failed_deliveries + o.failed,
          last_success_at = coalesce(o.last_success_at, w.last_success_at),
          last_failure_at = coalesce(o.last_failure_at, w.last_failure_at),
          consecutive_failures = o.consecutive,
          active = CASE WHEN o.pause_reason IS NULL THEN w.active ELSE false END,
          paused_reason = coalesce(o.pause_reason, w.paused_reason),
          next_attempt_at = CASE WHEN o.held_until IS NOT NULL THEN o.held_until ELSE
            ${HEAD_DUE_AT} END,
          lease_until = NULL, lease_owner = NULL
         FROM unnest($1::uuid[], $2::int[], $3::int[], $4::timestamptz[], $5::timestamptz[], $6::int[], $7::text[], $8::timestamptz[])
           AS o(id, succeeded, failed, last_success_at, last_failure_at, consecutive, pause_reason, held_until)
        WHERE w.id = o.id AND w.lease_owner = $9`,
      [
        outcomes.map((o) => o.webhookId),
        outcomes.map((o) => o.succeeded),
        outcomes.map((o) => o.failed),
        outcomes.map((o) => o.lastSuccessAt),
        outcomes.map((o) => o.lastFailureAt),
        outcomes.map((o) => o.consecutiveFailures),
        outcomes.map((o) => o.pauseReason),
        outcomes.map((o) => o.heldUntil),
        owner,
      ],
    );
    const paused = outcomes.filter((o) => o.pauseReason !== null).map((o) => o.webhookId);
    if (paused.length > 0) await trimPausedBacklogs(tx, paused, pausedBacklog);
  });
}

// ---------- the delivery log ----------

export interface DeliveryRow {
  id: string;
  webhook_id: string;
  event_id: string;
  event_type: string;
  /** The event's body (findDelivery only). */
  body?: string;
  status: 'pending' | 'done' | 'failed';
  attempt_count: number;
  next_attempt_at: Date | null;
  response_status: number | null;
  response_body: string | null;
  latency_ms: number | null;
  last_error: string | null;
  delivered_at: Date | null;
  failed_at: Date | null;
  created_at: Date;
  previous_delivery_id: string | null;
}

/** A webhook's deliveries, newest first, after a (created_at, id) keyset position. */
export function listDeliveries(
  db: Queryable,
  webhookId: string,
  options: { limit: number; status?: string; after?: { createdAt: string; id: string } },
): Promise<DeliveryRow[]> {
  return db.query<DeliveryRow>(
    `SELECT * FROM webhook_deliveries
      WHERE webhook_id = $1 AND ($2::text IS NULL OR status = $2)
        AND ($3::timestamptz IS NULL OR (created_at, id) < ($3::timestamptz, $4::uuid))
      ORDER BY created_at DESC, id DESC
      LIMIT $5`,
    [webhookId, options.status ?? null, options.after?.createdAt ?? null, options.after?.id ?? null, options.limit],
  );
}

/** One delivery, with its event's body. */
export async function findDelivery(db: Queryable, webhookId: string, id: string): Promise<DeliveryRow | undefined> {
  const rows = await db.query<DeliveryRow>(
    `SELECT d.*, e.body FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id
      WHERE d.webhook_id = $1 AND d.id = $2`,
    [webhookId, id],
  );
  return rows[0];
}

/** A delivery sent at once (a test event, a manual retry), recorded with its outcome. */
export interface SentDelivery {
  id: string;
  webhookId: string;
  position: ChangePosition;
  eventId: string;
  eventType: string;
  /** The body of a new event (a test event); a retry sends its event's stored body. */
  body: string | null;
  attemptCount: number;
  previousDeliveryId: string | null;
  result: Omit<AttemptResult, 'deliveryId' | 'attemptCount' | 'nextAttemptAt'>;
}

/**
 * Records a delivery sent at once with its stats and settles its reservation, if it made one. A
 * retry that succeeded takes the delivery it retried out of the queue (done: the event was
 * delivered, and paid for); any other retry leaves a queued delivery as it was, to be sent in its
 * turn (for free when this retry's body left: the event is paid for).
 */
export async function recordSentDelivery(db: Database, sent: SentDelivery, settlement: Settlement | null): Promise<void> {
  const r = sent.result;
  await db.transaction(async (tx) => {
    await lockWebhooks(tx, [sent.webhookId]);
    if (settlement) await settleCharges(tx, [settlement]);
    if (sent.body !== null) await insertEvents(tx, [{ id: sent.eventId, eventType: sent.eventType, body: sent.body }]);
    await tx.query(
      `INSERT INTO webhook_deliveries (id, webhook_id, seq, change_id, event_id, event_type, status, attempt_count,
                                       response_status, response_body, latency_ms, last_error, delivered_at, failed_at,
                                       previous_delivery_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12,
               CASE WHEN $7 = 'done' THEN $13::timestamptz END, CASE WHEN $7 = 'failed' THEN $13::timestamptz END, $14)`,
      [
        sent.id,
        sent.webhookId,
        sent.position.seq,
        sent.position.changeId,
        sent.eventId,
        sent.eventType,
        r.status,
        sent.attemptCount,
        r.responseStatus,
        r.responseBody,
        r.latencyMs,
        r.error,
        r.at,
        sent.previousDeliveryId,
      ],
    );
    if (sent.previousDeliveryId !== null && r.status === 'done') {
      await tx.query(
        `UPDATE webhook_deliveries SET status = 'done', delivered_at = $2, next_attempt_at = NULL
          WHERE id = $1 AND status = 'pending'`,
        [sent.previousDeliveryId, r.at],
      );
      await tx.query(
        `UPDATE webhooks w SET next_attempt_at =
           ${HEAD_DUE_AT}
          WHERE id = $1`,
        [sent.webhookId],
      );
    }
    const ok = r.status === 'done';
    await tx.query(
      `UPDATE webhooks SET
          total_deliveries = total_deliveries + 1,
          successful_deliveries = successful_deliveries + $2::int,
          failed_deliveries = failed_deliveries + (1 - $2::int),
          last_success_at = CASE WHEN $2::int = 1 THEN $3::timestamptz ELSE last_success_at END,
          last_failure_at = CASE WHEN $2::int = 0 THEN $3::timestamptz ELSE last_failure_at END,
          consecutive_failures = CASE WHEN $2::int = 1 THEN 0 ELSE consecutive_failures + 1 END
        WHERE id = $1`,
      [sent.webhookId, ok ? 1 : 0, r.at],
    );
  });
}

/** Removes finished deliveries older than `before`, in chunks; returns how many went. */
export async function pruneDeliveries(db: Queryable, before: Date, chunk = 5000): Promise<number> {
  let removed = 0;
  for (;;) {
    const rows = await db.query<{ n: number }>(
      `WITH doomed AS (
         SELECT id FROM webhook_deliveries WHERE status <> 'pending' AND created_at < $1 LIMIT $2
       ), gone AS (DELETE FROM webhook_deliveries d USING doomed WHERE d.id = doomed.id RETURNING 1)
       SELECT count(*)::int AS n FROM gone`,
      [before, chunk],
    );
    removed += rows[0]!.n;
    if (rows[0]!.n < chunk) break;
  }
  // Charges of events no delivery of their webhook refers to any more (nothing left to send for free).
  for (;;) {
    const rows = await db.query<{ n: number }>(
      `WITH doomed AS (
         SELECT c.webhook_id, c.event_id FROM webhook_charges c
          WHERE c.reserved_until < $1
            AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.webhook_id = c.webhook_id AND d.event_id = c.event_id)
          LIMIT $2
       ), gone AS (DELETE FROM webhook_charges c USING doomed
                    WHERE c.webhook_id = doomed.webhook_id AND c.event_id = doomed.event_id RETURNING 1)
       SELECT count(*)::int AS n FROM gone`,
      [before, chunk],
    );
    if (rows[0]!.n < chunk) break;
  }
  // Events no delivery refers to any more.
  for (;;) {
    const rows = await db.query<{ n: number }>(
      `WITH doomed AS (
         SELECT e.id FROM webhook_events e
          WHERE e.created_at < $1 AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id)
          LIMIT $2
       ), gone AS (DELETE FROM webhook_events e USING doomed WHERE e.id = doomed.id RETURNING 1)
       SELECT count(*)::int AS n FROM gone`,
      [before, chunk],
    );
    if (rows[0]!.n < chunk) return removed;
  }
}

// ---------- signing secrets at rest ----------

/** Every webhook whose stored secret is not sealed under the key named by `sealedPrefix` (plaintext, or another key's). */
export function secretsNotSealedWith(db: Queryable, sealedPrefix: string): Promise<{ id: string; secret: string }[]> {
  return db.query<{ id: string; secret: string }>(
    // starts_with: the prefix is data, never a LIKE pattern.
    'SELECT id, secret FROM webhooks WHERE NOT starts_with(secret, $1) ORDER BY id',
    [sealedPrefix],
  );
}

/**
 * Replaces a webhook's stored secret with the same secret sealed again, unless it changed since it
 * was read (a rotation, another instance's re-sealing); returns whether it did.
 */
export async function replaceStoredSecret(
  db: Queryable,
  id: string,
  expected: string,
  sealed: SealedSecret,
  last4: string,
): Promise<boolean> {
  const rows = await db.query('UPDATE webhooks SET secret = $3, secret_last4 = $4 WHERE id = $1 AND secret = $2 RETURNING id', [
    id,
    expected,
    sealed,
    last4,
  ]);
  return rows.length > 0;
}
