// Retention of the change log: entries older than CHANGE_LOG_RETENTION_DAYS are removed, so the
// log holds about a week of writes whatever the ingest rate. A reader further behind learns it
// from the pruned horizon and reloads instead of silently missing changes.
import type { Database } from '../platform/db/index.js';
import { pruneChangeLog, type PruneResult } from './change-log-queries.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Removes the entries of transactions committed more than retentionDays before now. */
export function pruneExpiredChanges(
  db: Database,
  retentionDays: number,
  now = new Date(),
  signal?: AbortSignal,
): Promise<PruneResult> {
  return pruneChangeLog(db, new Date(now.getTime() - retentionDays * DAY_MS), { signal });
}

export interface PruningLog {
  info(message: string): void;
  error(message: string): void;
}

export interface ChangeLogPruning {
  stop(): Promise<void>;
}

/** Other pruning that runs on the same schedule (the composition root passes the webhook delivery log's). */
export type AlsoPrune = (log: PruningLog) => Promise<void>;

/**
 * Prunes now and then every intervalMs (an hour: each run then removes about an hour of writes),
 * and runs alsoPrune after it. A failed run is logged and retried at the next interval; several
 * instances may prune at once.
 */
export function startChangeLogPruning(
  db: Database,
  retentionDays: number,
  log: PruningLog,
  intervalMs = 60 * 60 * 1000,
  alsoPrune?: AlsoPrune,
): ChangeLogPruning {
  const stopping = new AbortController();
  const runOnce = async () => {
    if (stopping.signal.aborted) return;
    try {
      const result = await pruneExpiredChanges(db, retentionDays, new Date(), stopping.signal);
      if (result.removedChanges > 0 || result.removedTransactions > 0) {
        log.info(`change log: removed ${result.removedChanges} entries older than ${retentionDays} days`);
      }
      await alsoPrune?.(log);
    } catch (err) {
      log.error(`change log: pruning failed (${err instanceof Error ? err.message : String(err)}); will retry`);
    }
  };
  // Runs one after another, never two at once from this process.
  let running = Promise.resolve();
  const schedule = () => {
    running = running.then(runOnce);
  };
  schedule();
  const timer = setInterval(schedule, intervalMs).unref();
  return {
    async stop() {
      clearInterval(timer);
      stopping.abort();
      await running;
    },
  };
}
