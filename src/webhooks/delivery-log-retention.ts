import type { Database } from '../platform/db/index.js';
import { pruneDeliveries } from './retention-queries.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Removes the delivery log's finished deliveries older than retentionDays (pending ones are kept
 * whatever their age). Runs on the change log's pruning schedule.
 */
export async function pruneFinishedDeliveries(
  db: Database,
  retentionDays: number,
  log: { info(message: string): void },
): Promise<void> {
  const removed = await pruneDeliveries(db, new Date(Date.now() - retentionDays * DAY_MS));
  if (removed > 0) log.info(`webhooks: removed ${removed} deliveries older than ${retentionDays} days`);
}
