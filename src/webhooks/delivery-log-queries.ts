// The delivery log as the API and the portal read it.
import type { Queryable } from '../platform/db/index.js';

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
