import type { Queryable } from '../platform/db/index.js';

export interface UsageEvent {
  accountId: number;
  keyId: string;
  family: 'v1' | 'v2';
  endpoint: string;
  status: number;
  credits: number;
  at: Date;
}

/** Writes a batch of events and marks their keys as used, in one statement. */
export async function insertUsageEvents(db: Queryable, events: UsageEvent[]): Promise<void> {
  if (events.length === 0) return;
  await db.query(
    `WITH events AS (
       INSERT INTO usage_events (account_id, key_id, family, endpoint, status, credits, created_at)
       SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::int[], $6::int[], $7::timestamptz[])
       RETURNING key_id, created_at
     )
     UPDATE api_keys k SET last_used_at = greatest(k.last_used_at, u.last_at)
       FROM (SELECT key_id, max(created_at) AS last_at FROM events GROUP BY key_id) u
      WHERE k.id = u.key_id`,
    [
      events.map((e) => e.accountId),
      events.map((e) => e.keyId),
      events.map((e) => e.family),
      events.map((e) => e.endpoint),
      events.map((e) => e.status),
      events.map((e) => e.credits),
      events.map((e) => e.at.toISOString()),
    ],
  );
}

export interface DailyUsage {
  day: string;
  v1_requests: number;
  v2_requests: number;
  credits: number;
}

/**
 * Ledger rows that are not usage: the monthly refill and the operator's grants and resets move the
 * balance without anything being used. Every other reason is a use of credits (a refund of one
 * with its sign), so a reason added later is counted without a change here.
 */
const NOT_USAGE = `('refill', 'grant', 'set')`;

/**
 * What a ledger row was used for, as the profile shows it: API pages and changes feed pages (both
 * 'request', told apart by endpoint), webhook deliveries (refunds of unsent ones included), and
 * any other reason under its own name.
 */
const USE_OF_ROW = `CASE WHEN l.reason = 'request' AND l.endpoint = 'changes' THEN 'feed'
                         WHEN l.reason = 'request' THEN 'api'
                         WHEN l.reason IN ('webhook', 'webhook_refund') THEN 'webhook'
                         ELSE l.reason END`;

/**
 * Requests per day split by family (from the usage events), and credits used per day (from the
 * credit ledger, so webhook deliveries count too), over the last `days` days (UTC), oldest first.
 */
export async function dailyUsage(db: Queryable, accountId: number, days: number): Promise<DailyUsage[]> {
  return db.query<DailyUsage>(
    `WITH d AS (
       SELECT day::date AS day
         FROM generate_series((now() AT TIME ZONE 'UTC')::date - ($2::int - 1), (now() AT TIME ZONE 'UTC')::date, interval '1 day') AS g(day)
     ), requests AS (
       SELECT d.day,
              coalesce(sum(CASE WHEN u.family = 'v1' THEN 1 END), 0)::int AS v1_requests,
              coalesce(sum(CASE WHEN u.family = 'v2' THEN 1 END), 0)::int AS v2_requests
         FROM d LEFT JOIN usage_events u
                ON u.account_id = $1
               AND u.created_at >= d.day AT TIME ZONE 'UTC'
               AND u.created_at < (d.day + 1) AT TIME ZONE 'UTC'
        GROUP BY d.day
     ), credits AS (
       SELECT d.day, coalesce(-sum(l.delta), 0)::int AS credits
         FROM d LEFT JOIN credit_ledger l
                ON l.account_id = $1
               AND l.reason NOT IN ${NOT_USAGE}
               AND l.created_at >= d.day AT TIME ZONE 'UTC'
               AND l.created_at < (d.day + 1) AT TIME ZONE 'UTC'
        GROUP BY d.day
     )
     SELECT r.day::text AS day, r.v1_requests, r.v2_requests, c.credits
       FROM requests r JOIN credits c ON c.day = r.day
      ORDER BY r.day`,
    [accountId, days],
  );
}

/** Credits used by what they were used for ('api', 'feed', 'webhook', or another ledger reason). */
export interface CreditUse {
  use: string;
  credits: number;
}

/** Credits used over the last `days` days (UTC, the days dailyUsage covers), by use, from the ledger. */
export async function creditsByUse(db: Queryable, accountId: number, days: number): Promise<CreditUse[]> {
  return db.query<CreditUse>(
    `SELECT ${USE_OF_ROW} AS use, (-sum(l.delta))::int AS credits
       FROM credit_ledger l
      WHERE l.account_id = $1
        AND l.reason NOT IN ${NOT_USAGE}
        AND l.created_at >= ((now() AT TIME ZONE 'UTC')::date - ($2::int - 1)) AT TIME ZONE 'UTC'
      GROUP BY 1
      ORDER BY 1`,
    [accountId, days],
  );
}
