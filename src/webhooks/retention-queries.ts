// The delivery log's retention: finished deliveries, and the charges and events no delivery needs any more.
import type { Queryable } from '../platform/db/index.js';

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
