import type { Config } from '../config.js';
import type { RateLimitDecision, RateLimitStore } from '../platform/infra/index.js';
import type { Principal } from './key-verifier.js';

export type Family = 'v1' | 'v2';

/**
 * Who a window belongs to: an API key's principal, or a signed-in account on the profile page
 * (its webhook actions share the v2 window of its keys).
 */
export type RateLimitedAccount = Pick<Principal, 'accountId' | 'tier'> & { v1Limit?: Principal['v1Limit'] };

/** The limits of the contract, applied per account (more keys never raise them). */
export class RateLimiter {
  constructor(
    private readonly store: RateLimitStore,
    private readonly limits: Config['rateLimits'],
  ) {}

  get windowMs(): number {
    return this.limits.windowMs;
  }

  limitFor(family: Family, principal: RateLimitedAccount): number {
    return family === 'v1' ? (principal.v1Limit ?? this.limits.v1) : this.limits.v2[principal.tier];
  }

  check(family: Family, principal: RateLimitedAccount): Promise<RateLimitDecision> {
    return this.store.hit(`${family}:${principal.accountId}`, this.limitFor(family, principal), this.limits.windowMs);
  }

  /**
   * The ceiling of conditional list requests (If-None-Match): a window of their own, the plan's limit
   * times RATE_LIMIT_CONDITIONAL_MULTIPLIER. Each takes a place in it, 304 or not; a 304 takes none
   * in the plan's window, so polling stays free of it up to the ceiling.
   */
  checkConditional(family: Family, principal: RateLimitedAccount): Promise<RateLimitDecision> {
    const ceiling = this.limitFor(family, principal) * this.limits.conditionalMultiplier;
    return this.store.hit(`${family}-conditional:${principal.accountId}`, ceiling, this.limits.windowMs);
  }
}

/** Failed authentications per client IP (AUTH_FAILURE_LIMITS), independent of the account limits. */
export class AuthFailureLimiter {
  constructor(
    private readonly store: RateLimitStore,
    private readonly limits: Pick<Config['rateLimits'], 'authFailures' | 'windowMs'>,
  ) {}

  /** Counts one failed authentication from ip; refused once the IP is over its allowance. */
  hit(ip: string): Promise<RateLimitDecision> {
    return this.store.hit(`authfail:${ip}`, this.limits.authFailures, this.limits.windowMs);
  }
}
