// SQL of accounts: the operator's commands (create on first key, tier, v1 limit, listing) and the
// account pages (password sign-up and sign-in, the profile).
import type { Queryable } from '../platform/db/index.js';
import type { Tier } from '../config.js';

export interface AccountRow {
  id: number;
  email: string;
  tier: Tier;
  created_at: string;
}

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

export async function upsertAccount(db: Queryable, email: string, tier?: Tier): Promise<AccountRow> {
  const rows = await db.query<AccountRow>(
    `INSERT INTO accounts (email, tier) VALUES ($1, coalesce($2, 'free'))
     ON CONFLICT (email) DO UPDATE SET tier = coalesce($2, accounts.tier)
     RETURNING id::int, email, tier, created_at::text`,
    [email, tier ?? null],
  );
  return rows[0]!;
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
