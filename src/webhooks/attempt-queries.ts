// Attempts recorded: a batch sent by the delivery worker, or a delivery sent at once (a test event,
// a manual retry), with their webhooks' stats, reservations settled and next due times.
import type { Database } from '../platform/db/index.js';
import type { ChangePosition } from '../changes/index.js';
import { settleCharges, type Settlement } from './charge-queries.js';
import { insertEvents, lockWebhooks, trimPausedBacklogs } from './delivery-queue-queries.js';

/** When webhook w is next due: its oldest pending delivery's next attempt (now if never tried), null when none is pending. */
const HEAD_DUE_AT = `(SELECT coalesce(d.next_attempt_at, now()) FROM webhook_deliveries d
  WHERE d.webhook_id = w.id AND d.status = 'pending' ORDER BY d.seq, d.change_id LIMIT 1)`;

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
