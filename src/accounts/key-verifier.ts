import type { Tier } from '../config.js';
import type { Queryable } from '../platform/db/index.js';
import { findKeyIdentity } from './api-key-queries.js';
import { hashApiKey, isWellFormedApiKey } from './api-keys.js';

export interface Principal {
  keyId: string;
  accountId: number;
  tier: Tier;
  /** The account's own v1 limit (enterprise arrangement), or null for the default. */
  v1Limit: number | null;
}

interface CacheEntry {
  principal: Principal | null;
  /** Key expiry (roll grace period) in ms since epoch, checked on every hit. */
  expiresAt: number | null;
  cachedUntil: number;
}

/**
 * Verifies API keys: checksum first (no I/O), then one indexed lookup by hash, cached
 * for cacheMs so a revoke elsewhere takes effect within that time; revoking through
 * this instance evicts at once.
 */
export class KeyVerifier {
  private readonly cache = new Map<string, CacheEntry>();

  constructor(
    private readonly db: Queryable,
    private readonly cacheMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  async verify(key: string | undefined): Promise<Principal | null> {
    if (!key || !isWellFormedApiKey(key)) return null;
    const hash = hashApiKey(key);
    const now = this.now();
    let entry = this.cache.get(hash);
    if (!entry || entry.cachedUntil <= now) {
      const identity = await findKeyIdentity(this.db, hash);
      const usable = identity !== undefined && identity.revoked_at === null;
      entry = {
        principal: usable
          ? { keyId: identity.key_id, accountId: identity.account_id, tier: identity.tier, v1Limit: identity.v1_rate_limit }
          : null,
        expiresAt: identity?.expires_at ? Date.parse(identity.expires_at) : null,
        cachedUntil: now + this.cacheMs,
      };
      if (this.cacheMs > 0) {
        if (this.cache.size > 50_000) this.cache.clear();
        this.cache.set(hash, entry);
      }
    }
    if (entry.expiresAt !== null && entry.expiresAt <= now) return null;
    return entry.principal;
  }

  /** Drops a key from the cache (after a revoke or roll on this instance). */
  evict(keyHash: string): void {
    this.cache.delete(keyHash);
  }
}
