// Accounts: sign-up and sign-in with their attempt limits, and an account's profile (its plan,
// credits, keys and usage). The operator's commands create an account with its first key
// (createApiKey) and set tiers and limits with single statements of db/queries/accounts.ts.
import { setTimeout as delay } from 'node:timers/promises';
import type { Config, Tier } from '../config.js';
import type { Queryable } from '../platform/db/index.js';
import { findLoginAccount, findProfileAccount, insertPasswordAccount, type ProfileAccount } from './account-queries.js';
import { creditsByUse, dailyUsage, type CreditUse, type DailyUsage } from './usage-queries.js';
import type { RateLimitStore } from '../platform/infra/index.js';
import { listOwnKeys, type AccountKey } from './api-keys.js';
import type { CreditMeter } from './credits.js';
import { normaliseEmail } from '../catalog/index.js';
import { fail, type FormProblem, type Outcome } from './form-outcomes.js';
import { hashPassword, passwordProblem, verifyPassword, weakPasswordProblem } from './passwords.js';
import type { UsageRecorder } from './usage.js';

export const EMAIL_MAX_LENGTH = 254;
export const USAGE_DAYS = 30;

/** At most `limit` attempts in any `windowMs`. */
export interface AttemptLimit {
  limit: number;
  windowMs: number;
}

export interface WebLimits {
  /**
   * Sign-in attempts for one email from one client IP, each step over a longer window: an
   * attacker guessing from one address waits a minute, then a quarter of an hour, then a day,
   * while the owner at any other address is not held up.
   */
  loginsPerEmailAndIp: readonly AttemptLimit[];
  /** Sign-in attempts per client IP, whatever the email (one address trying many accounts). */
  loginsPerIp: number;
  loginWindowMs: number;
  /**
   * Attempts for one email from all addresses together, in loginWindowMs, past which every
   * attempt waits loginSlowdownMs before it is checked. Slowed, never refused: guesses spread
   * over many addresses cannot lock the owner out.
   */
  loginsPerEmailBeforeSlowdown: number;
  loginSlowdownMs: number;
  /** Accounts created per client IP in signupWindowMs (free credits are worth farming). */
  signupsPerIp: number;
  signupWindowMs: number;
}

const MINUTE_MS = 60 * 1000;

export const DEFAULT_WEB_LIMITS: WebLimits = {
  loginsPerEmailAndIp: [
    { limit: 5, windowMs: MINUTE_MS },
    { limit: 10, windowMs: 15 * MINUTE_MS },
    { limit: 20, windowMs: 24 * 60 * MINUTE_MS },
  ],
  loginsPerIp: 30,
  loginWindowMs: 15 * MINUTE_MS,
  loginsPerEmailBeforeSlowdown: 100,
  loginSlowdownMs: 3000,
  signupsPerIp: 20,
  signupWindowMs: 60 * MINUTE_MS,
};

function waitText(ms: number): string {
  const minutes = Math.max(1, Math.ceil(ms / MINUTE_MS));
  if (minutes < 60) return minutes === 1 ? '1 minute' : `${minutes} minutes`;
  const hours = Math.ceil(minutes / 60);
  return hours === 1 ? '1 hour' : `${hours} hours`;
}

const limited = (resetMs: number, what: string): FormProblem => ({
  kind: 'limited',
  message: `Too many ${what}. Please try again in ${waitText(resetMs)}.`,
});

function emailProblem(email: string): string | null {
  if (email.trim() === '') return 'Enter your email address.';
  if (email.trim().length > EMAIL_MAX_LENGTH) return 'That email address is too long.';
  try {
    normaliseEmail(email);
    return null;
  } catch {
    return 'Enter a valid email address, like name@company.com.';
  }
}

/** What a password guesser tries first for this user: their address, its parts, the service. */
function passwordUserInputs(email: string): string[] {
  const [local = '', domain = ''] = email.split('@');
  const words = email.split(/[^\p{L}\p{N}]+/u).filter((word) => word.length >= 3);
  return [...new Set([email, local, domain, ...words, 'dealsignal'])].filter(Boolean);
}

/**
 * Creates an account, or does nothing when the email already has one, and answers both alike:
 * whether an email has an account is its owner's business. The password is checked and hashed
 * in both cases (the same work, so the same time), and an existing account is never changed.
 * Signing up does not sign in; the visitor signs in next, as any user does.
 */
export async function signUp(
  db: Queryable,
  store: RateLimitStore,
  limits: WebLimits,
  form: { email: string; password: string; ip: string },
): Promise<Outcome<object>> {
  const badEmail = emailProblem(form.email);
  if (badEmail) return fail({ kind: 'invalid', field: 'email', message: badEmail });
  const badPassword = passwordProblem(form.password);
  if (badPassword) return fail({ kind: 'invalid', field: 'password', message: badPassword });
  // Counted before the strength estimate, which costs CPU on the event loop.
  const admitted = await store.hit(`signup:ip:${form.ip}`, limits.signupsPerIp, limits.signupWindowMs);
  if (!admitted.allowed) return fail(limited(admitted.resetMs, 'sign-ups from your network'));
  const email = normaliseEmail(form.email);
  const weak = await weakPasswordProblem(form.password, passwordUserInputs(email));
  if (weak) return fail({ kind: 'invalid', field: 'password', message: weak });
  // ON CONFLICT DO NOTHING: an existing account (web or CLI) keeps its password and everything else.
  await insertPasswordAccount(db, email, await hashPassword(form.password));
  return { ok: true };
}

export const WRONG_CREDENTIALS = 'Incorrect email or password.';

/**
 * Checks an email and password. Attempts are counted before the password is looked at: the
 * store has one atomic "count and check" step, and counting first is what stops a burst of
 * parallel guesses from all passing a check made before any failure is recorded. So a
 * successful sign-in uses a slot like a failed one.
 *
 * Refusals are per client IP (all emails) and per email and IP together: they stop the
 * address that guesses, never the owner elsewhere. Across all addresses an email is only
 * slowed, once its attempts pass a ceiling far above what its owner makes.
 */
export async function logIn(
  db: Queryable,
  store: RateLimitStore,
  limits: WebLimits,
  form: { email: string; password: string; ip: string },
): Promise<Outcome<{ accountId: number }>> {
  const email = form.email.trim().toLowerCase().slice(0, EMAIL_MAX_LENGTH);
  const byIp = await store.hit(`login:ip:${form.ip}`, limits.loginsPerIp, limits.loginWindowMs);
  if (!byIp.allowed) return fail(limited(byIp.resetMs, 'sign-in attempts'));
  // Shortest window first: an attempt it refuses is not logged in the longer ones.
  for (const step of limits.loginsPerEmailAndIp) {
    // JSON keeps the key unambiguous: both an email and an IPv6 address may hold colons.
    const key = `login:email-ip:${step.windowMs}:${JSON.stringify([form.ip, email])}`;
    const byPair = await store.hit(key, step.limit, step.windowMs);
    if (!byPair.allowed) return fail(limited(byPair.resetMs, 'sign-in attempts'));
  }
  const byEmail = await store.hit(`login:email:${email}`, limits.loginsPerEmailBeforeSlowdown, limits.loginWindowMs);
  if (!byEmail.allowed) await delay(limits.loginSlowdownMs);
  const account = email === '' ? undefined : await findLoginAccount(db, email);
  // Unknown emails and password-less (CLI) accounts are verified against a decoy: same time, same answer.
  const matches = await verifyPassword(form.password, account?.password_hash ?? null);
  if (!account || !matches) return fail({ kind: 'unauthorized', message: WRONG_CREDENTIALS });
  return { ok: true, accountId: account.id };
}

export interface Profile {
  account: ProfileAccount;
  plan: {
    tier: Tier;
    /** Requests per rate-limit window. */
    v1Limit: number;
    v2Limit: number;
    windowMs: number;
    limitsEnforced: boolean;
    monthlyCredits: number;
  };
  credits: { balance: number; nextRefill: Date };
  keys: AccountKey[];
  usage: DailyUsage[];
  /**
   * Credits used over the same days, by use, from the ledger: API pages, feed pages and webhook
   * deliveries first (always listed), then any other reason. They add up to the chart's credits.
   */
  creditUses: CreditUse[];
}

/** The uses the profile always lists, in this order. */
const KNOWN_USES = ['api', 'feed', 'webhook'];

export interface ProfileDeps {
  db: Queryable;
  config: Pick<Config, 'rateLimits' | 'credits'>;
  credits: CreditMeter;
  usage: UsageRecorder;
}

/** The first instant of next month (UTC): when the monthly allowance is restored. */
export function nextRefill(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
}

export async function loadProfile(deps: ProfileDeps, accountId: number, now = new Date()): Promise<Profile | undefined> {
  const account = await findProfileAccount(deps.db, accountId);
  if (!account) return undefined;
  // Requests made moments ago may still sit in this instance's buffer; write them first so
  // the chart and "last used" include them.
  await deps.usage.flush();
  const [balance, keys, usage, uses] = await Promise.all([
    deps.credits.balance(accountId),
    listOwnKeys(deps.db, accountId),
    dailyUsage(deps.db, accountId, USAGE_DAYS),
    creditsByUse(deps.db, accountId, USAGE_DAYS),
  ]);
  const creditUses = [
    ...KNOWN_USES.map((use) => ({ use, credits: uses.find((u) => u.use === use)?.credits ?? 0 })),
    ...uses.filter((u) => !KNOWN_USES.includes(u.use)),
  ];
  const { rateLimits, credits } = deps.config;
  return {
    account,
    plan: {
      tier: account.tier,
      v1Limit: account.v1_rate_limit ?? rateLimits.v1,
      v2Limit: rateLimits.v2[account.tier],
      windowMs: rateLimits.windowMs,
      limitsEnforced: rateLimits.enabled,
      monthlyCredits: credits[account.tier],
    },
    credits: { balance, nextRefill: nextRefill(now) },
    keys,
    usage,
    creditUses,
  };
}
