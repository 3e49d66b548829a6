// What the dispatcher reads and moves: the webhooks that hear of events and its position in the
// change log.
import type { Queryable } from '../platform/db/index.js';
import type { ChangePosition } from '../changes/index.js';

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
    // A monitor's webhook hears of its monitor's signals (src/monitors), not of these.
    'SELECT id, event_types, filters, created_at, updated_at FROM webhooks WHERE deleted_at IS NULL AND monitor_id IS NULL',
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
