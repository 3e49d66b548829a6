import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RateLimitDecision } from '../platform/infra/index.js';
import type { KeyVerifier } from './key-verifier.js';
import type { AuthFailureLimiter, Family, RateLimiter } from './rate-limits.js';
import type { UsageRecorder } from './usage.js';
import type { Metrics } from '../platform/infra/index.js';
import type { KeyExtractor } from './api-key-auth.js';
import { ApiError } from '../catalog/index.js';
import { deferAdmission, mayBeNotModified } from '../platform/http/index.js';

export interface AccessOptions {
  family: Family;
  keys: KeyVerifier;
  /** Absent when rate limits are switched off (RATE_LIMITS=false). */
  limiter: RateLimiter | undefined;
  /** Absent when the failed-authentication limit is switched off (AUTH_FAILURE_LIMITS=false). */
  authFailures: AuthFailureLimiter | undefined;
  extractKey: KeyExtractor;
  metrics: Metrics;
  unauthorizedMessage: (request: FastifyRequest) => string;
  /** The 429's message; `what` names what the limit counts ("requests", "conditional requests"). */
  rateLimitedMessage: (limit: number, windowMs: number, what: string) => string;
}

const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

/** The headers of a rate-limit decision (of the window `policy` names); a refusal's include Retry-After. */
export function rateLimitHeaders(
  decision: RateLimitDecision,
  family: Family,
  windowMs: number,
  policy = 'default',
): Record<string, string> {
  const headers: Record<string, string> = {
    'x-ratelimit-limit': String(decision.limit),
    'x-ratelimit-remaining': String(decision.remaining),
    // Unix time (s) at which the oldest counted request leaves the window.
    'x-ratelimit-reset': String(Math.ceil((Date.now() + decision.resetMs) / 1000)),
  };
  if (family === 'v2') {
    // IETF draft-ietf-httpapi-ratelimit-headers (structured fields).
    headers['ratelimit-policy'] = `"${policy}";q=${decision.limit};w=${Math.round(windowMs / 1000)}`;
    headers['ratelimit'] = `"${policy}";r=${decision.remaining};t=${Math.ceil(decision.resetMs / 1000)}`;
  }
  if (!decision.allowed) headers['retry-after'] = String(seconds(decision.resetMs));
  return headers;
}

/**
 * The onRequest guard of a keyed family: key, then rate limit, before validation, query
 * and credits (for a conditional list request, its own ceiling first, and the rate limit once
 * its page is known). Failed authentications are limited per client IP; valid keys never are.
 */
export function keyedAccess(options: AccessOptions) {
  const { family, keys, limiter, authFailures } = options;
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const principal = await keys.verify(options.extractKey(request));
    if (!principal) {
      if (authFailures) {
        const failures = await authFailures.hit(request.ip);
        if (!failures.allowed) {
          options.metrics.rateLimitRejections.inc({ family, reason: 'auth_failures' });
          throw new ApiError('RATE_LIMITED', 'Too many failed authentication attempts. Please try again later.', {
            'retry-after': String(seconds(failures.resetMs)),
          });
        }
      }
      throw new ApiError('UNAUTHORIZED', options.unauthorizedMessage(request));
    }
    request.principal = principal;
    if (!limiter) return;
    const admit = async () => {
      const decision = await limiter.check(family, principal);
      const headers = rateLimitHeaders(decision, family, limiter.windowMs);
      if (!decision.allowed) {
        options.metrics.rateLimitRejections.inc({ family, reason: 'limit' });
        throw new ApiError('RATE_LIMITED', options.rateLimitedMessage(decision.limit, limiter.windowMs, 'requests'), headers);
      }
      reply.headers(headers);
    };
    if (!mayBeNotModified(request)) {
      await admit();
      return;
    }
    // A request that may be answered 304 is counted only if it is not: its route runs the check
    // once the page is known (src/platform/http/conditional.ts). Building that page is work the plan's limit
    // no longer bounds (a tag that never matches gets its 429 only after it), so conditional
    // requests have a window of their own, a multiple of the plan's, checked before anything else.
    const ceiling = await limiter.checkConditional(family, principal);
    if (!ceiling.allowed) {
      options.metrics.rateLimitRejections.inc({ family, reason: 'conditional' });
      const headers = rateLimitHeaders(ceiling, family, limiter.windowMs, 'conditional');
      throw new ApiError(
        'RATE_LIMITED',
        options.rateLimitedMessage(ceiling.limit, limiter.windowMs, 'conditional requests'),
        headers,
      );
    }
    deferAdmission(request, admit);
  };
}

/** "per minute" for the contract's window, else the actual length. */
export function windowWords(windowMs: number): string {
  return windowMs === 60_000 ? 'per minute' : `per ${windowMs / 1000} seconds`;
}

/** onResponse hook: every request made with a valid key is recorded (batched, off the request path). */
export function recordUsage(usage: UsageRecorder, family: Family) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const principal = request.principal;
    // A 304 is neither counted nor charged, and not recorded either (see src/platform/http/conditional.ts).
    if (!principal || reply.statusCode === 304) return;
    usage.record({
      accountId: principal.accountId,
      keyId: principal.keyId,
      family,
      endpoint: request.routeOptions.url ?? request.url.split('?')[0]!,
      status: reply.statusCode,
      credits: request.creditsCharged,
      at: new Date(),
    });
  };
}
