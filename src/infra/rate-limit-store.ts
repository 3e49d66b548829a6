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
  private readonly logs = new Map<string, number[]>();
  private sweptAt = 0;

  constructor(private readonly now: () => number = Date.now) {}

  async hit(key: string, limit: number, windowMs: number): Promise<RateLimitDecision> {
    const now = this.now();
    this.sweep(now, windowMs);
    let log = this.logs.get(key);
    if (!log) this.logs.set(key, (log = []));
    // Timestamps are appended in order, so expired ones are at the front.
    let expired = 0;
    while (expired < log.length && log[expired]! <= now - windowMs) expired++;
    if (expired > 0) log.splice(0, expired);
    const allowed = log.length < limit;
    if (allowed) log.push(now);
    const oldest = log[0];
    return {
      allowed,
      limit,
      remaining: Math.max(0, limit - log.length),
      resetMs: oldest === undefined ? 0 : Math.max(0, oldest + windowMs - now),
    };
  }

  /** Drops idle keys now and then so memory follows the active accounts only. */
  private sweep(now: number, windowMs: number): void {
    if (now - this.sweptAt < windowMs) return;
    this.sweptAt = now;
    for (const [key, log] of this.logs) {
      const last = log[log.length - 1];
      if (last === undefined || last <= now - windowMs) this.logs.delete(key);
    }
  }

  async close(): Promise<void> {
    this.logs.clear();
  }
}
