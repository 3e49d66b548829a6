import type { Queryable } from '../port.js';

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

/** Requests per day split by family, and credits used, over the last `days` days (UTC), oldest first. */
export async function dailyUsage(db: Queryable, accountId: number, days: number): Promise<DailyUsage[]> {
  return db.query<DailyUsage>(
    `SELECT d.day::date::text AS day,
            coalesce(sum(CASE WHEN u.family = 'v1' THEN 1 END), 0)::int AS v1_requests,
            coalesce(sum(CASE WHEN u.family = 'v2' THEN 1 END), 0)::int AS v2_requests,
            coalesce(sum(u.credits), 0)::int AS credits
       FROM generate_series((now() AT TIME ZONE 'UTC')::date - ($2::int - 1), (now() AT TIME ZONE 'UTC')::date, interval '1 day') AS d(day)
       LEFT JOIN usage_events u
              ON u.account_id = $1
             AND u.created_at >= d.day AT TIME ZONE 'UTC'
             AND u.created_at < (d.day + interval '1 day') AT TIME ZONE 'UTC'
      GROUP BY d.day ORDER BY d.day`,
    [accountId, days],
  );
}
