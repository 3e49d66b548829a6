// The SQL of email digests: monitors without a webhook that have events to mail and whose last
// digest is old enough, their events, and marking them mailed.
import type { Queryable } from '../platform/db/index.js';

export interface DigestMonitor {
  id: string;
  name: string;
  email: string;
}

/**
 * Monitors due a digest, locked for this transaction (another process skips them): mailed ones
 * (no webhook, not unsubscribed, active) with events pending whose last digest is `minutes` old.
 */
export function dueDigests(tx: Queryable, minutes: number, limit: number): Promise<DigestMonitor[]> {
  return tx.query<DigestMonitor>(
    `SELECT m.id::text AS id, m.name, a.email
       FROM monitors m JOIN accounts a ON a.id = m.account_id
      WHERE m.webhook_id IS NULL AND NOT m.email_unsubscribed AND m.active
        AND (m.last_email_at IS NULL OR m.last_email_at <= now() - make_interval(mins => $1))
        AND EXISTS (SELECT 1 FROM monitor_events e WHERE e.monitor_id = m.id AND e.mail_pending)
      ORDER BY m.last_email_at NULLS FIRST, m.id
      LIMIT $2
      FOR UPDATE OF m SKIP LOCKED`,
    [minutes, limit],
  );
}

/** The monitor's events still to mail, in the order they happened (at most `limit`). */
export function pendingMail(tx: Queryable, monitorId: string, limit: number): Promise<{ event_id: string; body: string }[]> {
  return tx.query<{ event_id: string; body: string }>(
    `SELECT event_id, body FROM monitor_events WHERE monitor_id = $1 AND mail_pending ORDER BY seq, change_id LIMIT $2`,
    [monitorId, limit],
  );
}

export async function markMailed(tx: Queryable, monitorId: string, eventIds: readonly string[]): Promise<void> {
  await tx.query(`UPDATE monitor_events SET mail_pending = false WHERE monitor_id = $1 AND event_id = ANY($2::text[])`, [
    monitorId,
    eventIds,
  ]);
  await tx.query('UPDATE monitors SET last_email_at = now() WHERE id = $1', [monitorId]);
}

/** Stops a monitor's digests; false when there is no such monitor. */
export async function unsubscribe(db: Queryable, monitorId: string): Promise<boolean> {
  const rows = await db.query('UPDATE monitors SET email_unsubscribed = true, updated_at = now() WHERE id = $1 RETURNING id', [
    monitorId,
  ]);
  return rows.length > 0;
}
