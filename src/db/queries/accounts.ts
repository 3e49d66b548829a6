import type { Queryable } from '../port.js';
import type { Tier } from '../../config.js';

export interface AccountRow {
  id: number;
  email: string;
  tier: Tier;
  created_at: string;
}

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

export async function upsertAccount(db: Queryable, email: string, tier?: Tier): Promise<AccountRow> {
  const rows = await db.query<AccountRow>(
    `INSERT INTO accounts (email, tier) VALUES ($1, coalesce($2, 'free'))
     ON CONFLICT (email) DO UPDATE SET tier = coalesce($2, accounts.tier)
     RETURNING id::int, email, tier, created_at::text`,
    [email, tier ?? null],
  );
  return rows[0]!;
}

export async function findAccountByEmail(db: Queryable, email: string): Promise<AccountRow | undefined> {
  const rows = await db.query<AccountRow>('SELECT id::int, email, tier, created_at::text FROM accounts WHERE email = $1', [
    email,
  ]);
  return rows[0];
}

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

export async function listApiKeys(db: Queryable, email?: string): Promise<(ApiKeyRow & { email: string })[]> {
  return db.query<ApiKeyRow & { email: string }>(
    `SELECT ${KEY_COLUMNS}, a.email
       FROM api_keys k JOIN accounts a ON a.id = k.account_id
      WHERE $1::text IS NULL OR a.email = $1
      ORDER BY a.email, k.created_at, k.id`,
    [email ?? null],
  );
}

/** Revokes a key; returns false when no such key exists. Idempotent for revoked keys. */
export async function revokeApiKey(db: Queryable, keyId: string): Promise<{ key_hash: string } | undefined> {
  const rows = await db.query<{ key_hash: string }>(
    `UPDATE api_keys SET revoked_at = coalesce(revoked_at, now()) WHERE id = $1 RETURNING key_hash`,
    [keyId],
  );
  return rows[0];
}

export async function touchApiKeys(db: Queryable, keyIds: string[]): Promise<void> {
  if (keyIds.length === 0) return;
  await db.query('UPDATE api_keys SET last_used_at = now() WHERE id = ANY($1::text[])', [keyIds]);
}

/** Resolves an operator's reference to an account: its email, numeric id, or one of its key ids. */
export async function findAccountByReference(db: Queryable, reference: string): Promise<AccountRow | undefined> {
  const rows = await db.query<AccountRow>(
    `SELECT a.id::int, a.email, a.tier, a.created_at::text FROM accounts a
      WHERE a.email = lower($1)
         OR a.id::text = $1
         OR a.id = (SELECT account_id FROM api_keys WHERE id = $1)
      LIMIT 1`,
    [reference.trim()],
  );
  return rows[0];
}

/** Sets (or, with null, clears) an account's own v1 rate limit. Returns false when no such account. */
export async function setV1RateLimit(db: Queryable, email: string, limit: number | null): Promise<boolean> {
  const rows = await db.query('UPDATE accounts SET v1_rate_limit = $2 WHERE email = lower($1) RETURNING id', [email, limit]);
  return rows.length > 0;
}

export async function setAccountTier(db: Queryable, email: string, tier: Tier): Promise<boolean> {
  const rows = await db.query('UPDATE accounts SET tier = $2 WHERE email = lower($1) RETURNING id', [email, tier]);
  return rows.length > 0;
}

export async function listAccounts(
  db: Queryable,
): Promise<(AccountRow & { v1_rate_limit: number | null; active_keys: number })[]> {
  return db.query(
    `SELECT a.id::int, a.email, a.tier, a.created_at::text, a.v1_rate_limit,
            (SELECT count(*)::int FROM api_keys k WHERE k.account_id = a.id AND k.revoked_at IS NULL) AS active_keys
       FROM accounts a ORDER BY a.id`,
  );
}
