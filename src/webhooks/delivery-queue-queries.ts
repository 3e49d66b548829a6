// The delivery queue: events and their deliveries queued, a paused webhook's backlog kept bounded,
// and the leases under which a process sends a webhook's due deliveries.
import type { Queryable } from '../platform/db/index.js';
import type { ChangePosition } from '../changes/index.js';
import type { SealedSecret } from './subscription-queries.js';

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
  // An event sent again (a monitor's replay) keeps its id and body: stored once.
  await tx.query(
    `INSERT INTO webhook_events (id, event_type, body) SELECT * FROM unnest($1::text[], $2::text[], $3::text[])
     ON CONFLICT (id) DO NOTHING`,
    [events.map((e) => e.id), events.map((e) => e.eventType), events.map((e) => e.body)],
  );
}

/**
 * Locks webhook rows in id order for the rest of the transaction. Every transaction that queues
 * deliveries or records outcomes takes these locks first, in the same order: a sender recording
 * its outcomes then sees every delivery queued before it (it waits for the queuing transaction to
 * commit), so it never marks a webhook as having nothing pending while something is.
 */
export async function lockWebhooks(tx: Queryable, ids: readonly string[]): Promise<void> {
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
