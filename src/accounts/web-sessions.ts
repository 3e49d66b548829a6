// Sign-in sessions of the account pages: one is created at sign-in, read on every page and ended
// at sign-out; the browser holds the token (in a cookie, see routes/account/cookies.ts).
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Tier } from '../config.js';
import type { Queryable } from '../platform/db/index.js';
import { deleteStaleSessions, findSession, insertSession, revokeSession } from './web-session-queries.js';

/** Sessions last 7 days from sign-in, however active: a fixed lifetime needs no write per page view. */
export const DEFAULT_SESSION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

export interface NewSession {
  /** Goes into the cookie; only its hash is stored. */
  token: string;
  csrfToken: string;
}

export type SessionState =
  | { status: 'active'; accountId: number; email: string; tier: Tier; csrfToken: string }
  /** The cookie names a session that has reached its end: worth telling the user. */
  | { status: 'expired' }
  | { status: 'none' };

export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/** Session tokens are 32 random bytes, so one SHA-256 is a safe storage form (like API keys). */
export function sessionId(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Compares two secrets in constant time; false for a missing or differently sized value. */
export function sameSecret(given: string | undefined, expected: string): boolean {
  if (given === undefined) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

export async function createSession(db: Queryable, accountId: number, ttlMs = DEFAULT_SESSION_TTL_MS): Promise<NewSession> {
  const session = { token: randomToken(), csrfToken: randomToken() };
  await deleteStaleSessions(db, accountId);
  await insertSession(db, { id: sessionId(session.token), accountId, csrfToken: session.csrfToken, ttlMs });
  return session;
}

export async function readSession(db: Queryable, token: string | undefined): Promise<SessionState> {
  // A well-formed token is 43 base64url characters; anything else cannot be ours.
  if (!token || !/^[A-Za-z0-9_-]{43}$/.test(token)) return { status: 'none' };
  const row = await findSession(db, sessionId(token));
  if (!row) return { status: 'none' };
  if (!row.live) return { status: 'expired' };
  return { status: 'active', accountId: row.account_id, email: row.email, tier: row.tier, csrfToken: row.csrf_token };
}

export async function endSession(db: Queryable, token: string): Promise<void> {
  await revokeSession(db, sessionId(token));
}
