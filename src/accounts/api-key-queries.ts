// SQL of API keys: creation, the lookup that authenticates a request, the operator's listing,
// and an account's own keys on its pages. A statement given an account id touches that
// account's keys only, so another account's key id matches no row.
import type { Tier } from '../config.js';
import type { Queryable } from '../platform/db/index.js';

export interface ApiKeyRow {
  id: string;
  account_id: number;
  name: string;
  prefix: string;
  last4: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
  expires_at: string | null;
}

export interface AccountKeyRow extends ApiKeyRow {
  /** expires_at has passed (by the database clock). */
  expired: boolean;
}

/** What request authentication needs about a key, in one indexed lookup. */
export interface KeyIdentity {
  key_id: string;
  account_id: number;
  tier: Tier;
  v1_rate_limit: number | null;
  revoked_at: string | null;
  expires_at: string | null;
}

const KEY_COLUMNS = `k.id, k.account_id::int AS account_id, k.name, k.prefix, k.last4, k.created_at::text,
  k.last_used_at::text, k.revoked_at::text, k.expires_at::text`;
const ACCOUNT_KEY_COLUMNS = `${KEY_COLUMNS}, coalesce(k.expires_at <= now(), false) AS expired`;

export async function insertApiKey(
  db: Queryable,
  key: { id: string; accountId: number; name: string; hash: string; prefix: string; last4: string },
): Promise<ApiKeyRow> {
  const rows = await db.query<ApiKeyRow>(
    `INSERT INTO api_keys AS k (id, account_id, name, key_hash, prefix, last4)
     VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${KEY_COLUMNS}`,
    [key.id, key.accountId, key.name, key.hash, key.prefix, key.last4],
  );
  return rows[0]!;
}

export async function findKeyIdentity(db: Queryable, hash: string): Promise<KeyIdentity | undefined> {
  const rows = await db.query<KeyIdentity>(
    `SELECT k.id AS key_id, k.account_id::int AS account_id, a.tier, a.v1_rate_limit, k.revoked_at::text, k.expires_at::text
       FROM api_keys k JOIN accounts a ON a.id = k.account_id
      WHERE k.key_hash = $1`,
    [hash],
  );
  return rows[0];
}

/** Every key with its owner's email (the operator's listing), optionally of one email. */
export async function listApiKeys(db: Queryable, email?: string): Promise<(ApiKeyRow & { email: string })[]> {
  return db.query<ApiKeyRow & { email: string }>(
    `SELECT ${KEY_COLUMNS}, a.email
       FROM api_keys k JOIN accounts a ON a.id = k.account_id
      WHERE $1::text IS NULL OR a.email = $1
      ORDER BY a.email, k.created_at, k.id`,
    [email ?? null],
  );
}

/** The account's keys, newest first. */
export async function listAccountKeys(db: Queryable, accountId: number): Promise<AccountKeyRow[]> {
  return db.query<AccountKeyRow>(
    `SELECT ${ACCOUNT_KEY_COLUMNS} FROM api_keys k WHERE k.account_id = $1 ORDER BY k.created_at DESC, k.id DESC`,
    [accountId],
  );
}

export async function findAccountKey(db: Queryable, accountId: number, keyId: string): Promise<AccountKeyRow | undefined> {
  const rows = await db.query<AccountKeyRow>(
    `SELECT ${ACCOUNT_KEY_COLUMNS} FROM api_keys k WHERE k.id = $1 AND k.account_id = $2`,
    [keyId, accountId],
  );
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

/**
 * Revokes a key at once: any key (the operator), or only one of the account's own when an
 * account id is given (its pages). Idempotent; undefined when no such key matches.
 */
export async function revokeApiKey(db: Queryable, keyId: string, accountId?: number): Promise<{ key_hash: string } | undefined> {
  const rows = await db.query<{ key_hash: string }>(
    `UPDATE api_keys SET revoked_at = coalesce(revoked_at, now())
      WHERE id = $1 AND ($2::bigint IS NULL OR account_id = $2) RETURNING key_hash`,
    [keyId, accountId ?? null],
  );
  return rows[0];
}

/** Whether any key was ever created (revoked ones count): an operator's first start has none. */
export async function anyApiKeyExists(db: Queryable): Promise<boolean> {
  const [row] = await db.query<{ found: boolean }>('SELECT EXISTS (SELECT 1 FROM api_keys) AS found');
  return row?.found === true;
}
