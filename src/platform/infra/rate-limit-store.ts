/**
 * Rolling-window rate limiting: at most `limit` admitted requests in any `windowMs`.
 * A sliding log (one timestamp per admitted request) is exact at any boundary, unlike a
 * fixed window, and refused requests are not logged, so they never use up the window.
 */
export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  /** Requests still admissible in the current window (after this one). */
  remaining: number;
  /** Milliseconds until the oldest logged request leaves the window (one more becomes admissible). */
  resetMs: number;
}

export interface RateLimitStore {
  /** Logs and admits a request under key, or refuses it; one atomic step. */
  hit(key: string, limit: number, windowMs: number): Promise<RateLimitDecision>;
  close(): Promise<void>;
}

/** The single-instance store (and the fallback when Redis is unreachable). */
export class MemoryRateLimitStore implements RateLimitStore {
  /** Each key's log with its own window: one store serves windows from a second to a day. */
  private readonly logs = new Map<string, { windowMs: number; times: number[] }>();
  private sweptAt = 0;

  constructor(private readonly now: () => number = Date.now) {}

  async hit(key: string, limit: number, windowMs: number): Promise<RateLimitDecision> {
    const now = this.now();
    this.sweep(now, windowMs);
    let log = this.logs.get(key);
    if (!log) this.logs.set(key, (log = { windowMs, times: [] }));
    log.windowMs = windowMs;
    const { times } = log;
    // Timestamps are appended in order, so expired ones are at the front.
    let expired = 0;
    while (expired < times.length && times[expired]! <= now - windowMs) expired++;
    if (expired > 0) times.splice(0, expired);
    const allowed = times.length < limit;
    if (allowed) times.push(now);
    const oldest = times[0];
    return {
      allowed,
      limit,
      remaining: Math.max(0, limit - times.length),
      resetMs: oldest === undefined ? 0 : Math.max(0, oldest + windowMs - now),
    };
  }

  /**
   * Drops idle keys now and then so memory follows the active accounts only. A key is idle
   * once its last request left its own window: a sweep made for a one-minute window must not
   * forget the attempts a day-long window still counts.
   */
  private sweep(now: number, windowMs: number): void {
    if (now - this.sweptAt < windowMs) return;
    this.sweptAt = now;
    for (const [key, log] of this.logs) {
      const last = log.times[log.times.length - 1];
      if (last === undefined || last <= now - log.windowMs) this.logs.delete(key);
    }
  }

  async close(): Promise<void> {
    this.logs.clear();
  }
}
