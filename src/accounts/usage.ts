import type { Queryable } from '../platform/db/index.js';
import { insertUsageEvents, type UsageEvent } from './usage-queries.js';

export interface UsageLogger {
  error(obj: object, msg: string): void;
}

/**
 * Records keyed requests without slowing them: events are buffered in memory and written
 * in one statement per flush (every flushMs, or at once when maxBuffered are waiting).
 * A failed write is logged and its events dropped rather than held without bound.
 */
export class UsageRecorder {
  private buffer: UsageEvent[] = [];
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Queryable,
    private readonly log: UsageLogger,
    private readonly flushMs = 1000,
    private readonly maxBuffered = 1000,
  ) {}

  record(event: UsageEvent): void {
    this.buffer.push(event);
    if (this.buffer.length >= this.maxBuffered) void this.flush();
    else if (!this.timer) this.timer = setTimeout(() => void this.flush(), this.flushMs).unref();
  }

  /** Writes everything buffered so far; resolves when it is stored. */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.buffer;
    this.buffer = [];
    this.flushing = this.flushing.then(async () => {
      if (batch.length === 0) return;
      try {
        await insertUsageEvents(this.db, batch);
      } catch (err) {
        this.log.error({ err, events: batch.length }, 'usage events could not be recorded');
      }
    });
    return this.flushing;
  }
}
