import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import type { RateLimitDecision, RateLimitStore } from './rate-limit-store.js';

// One atomic script per check. The time comes from Redis itself (TIME), so instances whose
// clocks disagree still share one window. Returns {allowed, count after, ms until oldest expires}.
const SLIDING_LOG = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local count = redis.call('ZCARD', KEYS[1])
local allowed = 0
if count < limit then
  redis.call('ZADD', KEYS[1], now, now .. '-' .. ARGV[3])
  redis.call('PEXPIRE', KEYS[1], window)
  count = count + 1
  allowed = 1
end
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
local reset = 0
if oldest[2] then reset = tonumber(oldest[2]) + window - now end
return {allowed, count, reset}
`;

export interface RedisConnectionOptions {
  url: string;
  /** No command may wait longer than this; a slow Redis must not hold requests up. */
  commandTimeoutMs: number;
  /**
   * Put before every key by the client itself (scripts' keys included), so nothing this process
   * writes can land outside its deployment's share of a Redis (REDIS_KEY_PREFIX).
   */
  keyPrefix?: string;
}

/**
 * An ioredis client told to fail fast: no offline queue (commands fail at once while
 * disconnected instead of piling up), one attempt per command, bounded connect and
 * command times, and reconnection in the background.
 */
export function createRedisClient(options: RedisConnectionOptions): Redis {
  return new Redis(options.url, {
    lazyConnect: false,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: 1000,
    commandTimeout: options.commandTimeoutMs,
    retryStrategy: () => 500,
    reconnectOnError: () => false,
    ...(options.keyPrefix ? { keyPrefix: options.keyPrefix } : {}),
  });
}

export class RedisRateLimitStore implements RateLimitStore {
  constructor(
    private readonly redis: Redis,
    // After the client's own prefix (REDIS_KEY_PREFIX): dealsignal:rl:… by default.
    private readonly prefix = 'rl:',
  ) {
    redis.defineCommand('dealsignalSlidingLog', { numberOfKeys: 1, lua: SLIDING_LOG });
  }

  async hit(key: string, limit: number, windowMs: number): Promise<RateLimitDecision> {
    const nonce = randomBytes(6).toString('base64url');
    const run = (this.redis as unknown as Record<string, (...args: unknown[]) => Promise<[number, number, number]>>)
      .dealsignalSlidingLog!;
    const [allowed, count, reset] = await run.call(this.redis, this.prefix + key, limit, windowMs, nonce);
    return { allowed: allowed === 1, limit, remaining: Math.max(0, limit - count), resetMs: Math.max(0, reset) };
  }

  async close(): Promise<void> {
    this.redis.disconnect();
  }
}
