// SQL of the account pages: password sign-in, browser sessions, and an account's own keys.
// Every statement that touches a key is scoped by account_id, so another account's key id
// matches no row.
import type { Tier } from '../../config.js';
import type { Queryable } from '../port.js';
import type { ApiKeyRow } from './accounts.js';

export interface LoginAccount {
  id: number;
  password_hash: string | null;
}

export interface ProfileAccount {
  id: number;
  email: string;
  tier: Tier;
  v1_rate_limit: number | null;
  created_at: string;
}

export interface SessionRow {
  account_id: number;
  email: string;
  csrf_token: string;
  /** Decided by the database clock, like the expiry itself. */
  live: boolean;
}

export interface AccountKeyRow extends ApiKeyRow {
  /** expires_at has passed (by the database clock). */
  expired: boolean;
}

/**
 * Creates an account with a password, or nothing when the email is taken (by a web sign-up
 * or by the CLI): ON CONFLICT keeps two concurrent sign-ups from both succeeding.
 */
export async function insertPasswordAccount(db: Queryable, email: string, passwordHash: string): Promise<number | undefined> {
  const rows = await db.query<{ id: number }>(
    `INSERT INTO accounts (email, password_hash) VALUES ($1, $2)
     ON CONFLICT (email) DO NOTHING RETURNING id::int`,
    [email, passwordHash],
  );
  return rows[0]?.id;
}

export async function findLoginAccount(db: Queryable, email: string): Promise<LoginAccount | undefined> {
  const rows = await db.query<LoginAccount>('SELECT id::int, password_hash FROM accounts WHERE email = $1', [email]);
  return rows[0];
}

export async function findProfileAccount(db: Queryable, accountId: number): Promise<ProfileAccount | undefined> {
  const rows = await db.query<ProfileAccount>(
    'SELECT id::int, email, tier, v1_rate_limit, created_at::text FROM accounts WHERE id = $1',
    [accountId],
  );
  return rows[0];
}

export async function insertSession(
  db: Queryable,
  session: { id: string; accountId: number; csrfToken: string; ttlMs: number },
): Promise<void> {
  await db.query(
    `INSERT INTO web_sessions (id, account_id, csrf_token, expires_at)
     VALUES ($1, $2, $3, now() + $4::float8 * interval '1 millisecond')`,
    [session.id, session.accountId, session.csrfToken, session.ttlMs],
  );
}

/** A session that was never revoked; `live` tells whether it has expired. */
export async function findSession(db: Queryable, id: string): Promise<SessionRow | undefined> {
  const rows = await db.query<SessionRow>(
    `SELECT s.account_id::int, a.email, s.csrf_token, s.expires_at > now() AS live
       FROM web_sessions s JOIN accounts a ON a.id = s.account_id
      WHERE s.id = $1 AND s.revoked_at IS NULL`,
    [id],
  );
  return rows[0];
}

export async function revokeSession(db: Queryable, id: string): Promise<void> {
  await db.query('UPDATE web_sessions SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL', [id]);
}

/** Housekeeping at sign-in: an account's long-dead sessions are of no further use. */
export async function deleteStaleSessions(db: Queryable, accountId: number): Promise<void> {
  await db.query(
    `DELETE FROM web_sessions WHERE account_id = $1 AND (expires_at < now() - interval '30 days' OR revoked_at < now() - interval '30 days')`,
    [accountId],
  );
}

const ACCOUNT_KEY_COLUMNS = `id, account_id::int AS account_id, name, prefix, last4, created_at::text,
  last_used_at::text, revoked_at::text, expires_at::text,
  coalesce(expires_at <= now(), false) AS expired`;

/** The account's keys, newest first. */
export async function listAccountKeys(db: Queryable, accountId: number): Promise<AccountKeyRow[]> {
  return db.query<AccountKeyRow>(
    `SELECT ${ACCOUNT_KEY_COLUMNS} FROM api_keys WHERE account_id = $1 ORDER BY created_at DESC, id DESC`,
    [accountId],
  );
}

export async function findAccountKey(db: Queryable, accountId: number, keyId: string): Promise<AccountKeyRow | undefined> {
  const rows = await db.query<AccountKeyRow>(`SELECT ${ACCOUNT_KEY_COLUMNS} FROM api_keys WHERE id = $1 AND account_id = $2`, [
    keyId,
    accountId,
  ]);
  return rows[0];
}

/** Keys that still authenticate (not revoked, not expired): what the per-account cap counts. */
export async function countUsableKeys(db: Queryable, accountId: number): Promise<number> {
  const rows = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM api_keys
      WHERE account_id = $1 AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now())`,
    [accountId],
  );
  return rows[0]?.n ?? 0;
}

/**
 * Starts a key's grace period: it keeps working until now() + graceMs, or until an earlier
 * expiry it already had. Only a usable key of this account matches.
 */
export async function expireAccountKey(
  db: Queryable,
  accountId: number,
  keyId: string,
  graceMs: number,
): Promise<{ name: string; key_hash: string; expires_at: string } | undefined> {
  const rows = await db.query<{ name: string; key_hash: string; expires_at: string }>(
    `UPDATE api_keys
        SET expires_at = least(coalesce(expires_at, 'infinity'), now() + $3::float8 * interval '1 millisecond')
      WHERE id = $1 AND account_id = $2 AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now())
      RETURNING name, key_hash, expires_at::text`,
    [keyId, accountId, graceMs],
  );
  return rows[0];
}

/** Revokes one of the account's keys at once; idempotent, undefined when the account has no such key. */
export async function revokeAccountKey(
  db: Queryable,
  accountId: number,
  keyId: string,
): Promise<{ key_hash: string } | undefined> {
  const rows = await db.query<{ key_hash: string }>(
    `UPDATE api_keys SET revoked_at = coalesce(revoked_at, now())
      WHERE id = $1 AND account_id = $2 RETURNING key_hash`,
    [keyId, accountId],
  );
  return rows[0];
}
