// SQL of the account pages' sign-in sessions. Only a hash of each session token is stored.
import type { Tier } from '../config.js';
import type { Queryable } from '../platform/db/index.js';

export interface SessionRow {
  account_id: number;
  email: string;
  /** The account's tier: what its pages' webhook actions are rate limited by. */
  tier: Tier;
  csrf_token: string;
  /** Decided by the database clock, like the expiry itself. */
  live: boolean;
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
    `SELECT s.account_id::int, a.email, a.tier, s.csrf_token, s.expires_at > now() AS live
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
