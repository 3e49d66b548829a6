import type { RateLimitDecision, RateLimitStore } from './rate-limit-store.js';

export interface FallbackLogger {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

/**
 * Shared limits in Redis, with this instance's own memory store when Redis fails or is slow.
 * A request never waits on Redis longer than timeoutMs. The switch is logged once each way;
 * while degraded, one request at most every probeMs tries Redis again, so shared limiting
 * resumes by itself when Redis is back.
 */
export class ResilientRateLimitStore implements RateLimitStore {
  private degradedSince: number | null = null;
  private lastProbe = 0;

  constructor(
    private readonly primary: RateLimitStore,
    private readonly fallback: RateLimitStore,
    private readonly log: FallbackLogger,
    private readonly timeoutMs = 250,
    private readonly probeMs = 1000,
    private readonly now: () => number = Date.now,
  ) {}

  get degraded(): boolean {
    return this.degradedSince !== null;
  }

  async hit(key: string, limit: number, windowMs: number): Promise<RateLimitDecision> {
    const now = this.now();
    if (this.degradedSince !== null && now - this.lastProbe < this.probeMs) {
      return this.fallback.hit(key, limit, windowMs);
    }
    this.lastProbe = now;
    try {
      const decision = await withTimeout(this.primary.hit(key, limit, windowMs), this.timeoutMs);
      if (this.degradedSince !== null) {
        this.log.info({ degradedMs: now - this.degradedSince }, 'rate limits: Redis is back, limits are shared again');
        this.degradedSince = null;
      }
      return decision;
    } catch (err) {
      if (this.degradedSince === null) {
        this.degradedSince = now;
        this.log.warn({ err }, 'rate limits: Redis unavailable, falling back to this instance’s memory');
      }
      return this.fallback.hit(key, limit, windowMs);
    }
  }

  async close(): Promise<void> {
    await Promise.all([this.primary.close(), this.fallback.close()]);
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
