// The SQL of the monitor pass: its position in the change log, the targets a batch of changes
// concerns (pending ones its companies resolve, resolved ones its signals reach), what each monitor
// was sent (monitor_events: replayed and mailed from here), and the signals a backfill sends.
import { randomUUID } from 'node:crypto';
import type { ChangePosition } from '../changes/index.js';
import type { Queryable } from '../platform/db/index.js';
import type { NewDelivery, NewEvent, WebhookService } from '../webhooks/index.js';
import { MONITOR_EVENT_TYPE } from '../webhooks/index.js';
import type { SignalType } from './schemas.js';
import type { SignalSource } from './sources.js';

/** Locks the pass's position for this transaction; undefined when another process holds it. */
export async function lockMonitorPosition(tx: Queryable): Promise<{ position: ChangePosition | null } | undefined> {
  const rows = await tx.query<{ seq: number | null; change_id: number | null }>(
    'SELECT seq, change_id FROM monitor_dispatch FOR UPDATE SKIP LOCKED',
  );
  const row = rows[0];
  if (!row) return undefined;
  return { position: row.seq === null ? null : { seq: row.seq, changeId: row.change_id ?? 0 } };
}

export async function setMonitorPosition(tx: Queryable, position: ChangePosition): Promise<void> {
  await tx.query('UPDATE monitor_dispatch SET seq = $1, change_id = $2', [position.seq, position.changeId]);
}

export async function anyTargets(tx: Queryable): Promise<boolean> {
  const rows = await tx.query<{ any: boolean }>('SELECT EXISTS (SELECT 1 FROM monitor_targets) AS any');
  return rows[0]!.any;
}

/**
 * Pending targets the keys now name, resolved to the company given (a domain or LinkedIn page by a
 * company's keys, a profile by a job change into a company); a profile target already resolved
 * follows its person to the new company. Returns the targets whose company was set.
 */
export async function resolveTargets(
  tx: Queryable,
  matches: readonly { value: string; companyId: string }[],
): Promise<{ id: string; company_id: string }[]> {
  if (matches.length === 0) return [];
  return tx.query<{ id: string; company_id: string }>(
    `UPDATE monitor_targets t SET company_id = m.company_id, resolved_at = coalesce(t.resolved_at, now())
       FROM (SELECT DISTINCT ON (value) value, company_id FROM unnest($1::text[], $2::uuid[]) WITH ORDINALITY
                AS m(value, company_id, n) ORDER BY value, n DESC) m
      WHERE t.value = m.value
        AND ((t.company_id IS NULL AND t.type <> 'linkedin_profile')
          OR (t.type = 'linkedin_profile' AND t.company_id IS DISTINCT FROM m.company_id))
      RETURNING t.id::text AS id, t.company_id::text AS company_id`,
    [matches.map((m) => m.value), matches.map((m) => m.companyId)],
  );
}

export interface WatchRow {
  target_id: string;
  company_id: string;
  target_created_ms: number;
  monitor_id: string;
  account_id: number;
  name: string;
  signal_types: SignalType[];
  webhook_id: string | null;
  email: boolean;
}

/** The resolved targets of active monitors that watch these companies. */
export function watchersOf(tx: Queryable, companyIds: readonly string[]): Promise<WatchRow[]> {
  if (companyIds.length === 0) return Promise.resolve([]);
  return tx.query<WatchRow>(
    `SELECT t.id::text AS target_id, t.company_id::text AS company_id,
            (extract(epoch FROM t.created_at) * 1000)::float8 AS target_created_ms, m.id::text AS monitor_id,
            m.account_id::float8 AS account_id, m.name, m.signal_types, m.webhook_id::text AS webhook_id,
            (m.webhook_id IS NULL AND NOT m.email_unsubscribed) AS email
       FROM monitor_targets t JOIN monitors m ON m.id = t.monitor_id
      WHERE t.company_id = ANY($1::uuid[]) AND m.active
      ORDER BY m.id, t.created_at, t.id`,
    [companyIds],
  );
}

export interface MonitorEvent {
  monitorId: string;
  eventId: string;
  body: string;
  position: ChangePosition;
  backfill: boolean;
  /** To go out in the monitor's next digest (a monitor without a webhook). */
  mail: boolean;
}

/** Records what monitors were sent; returns the ids of those new (an event already recorded is skipped). */
export async function insertMonitorEvents(tx: Queryable, events: readonly MonitorEvent[]): Promise<Set<string>> {
  if (events.length === 0) return new Set();
  const rows = await tx.query<{ key: string }>(
    `INSERT INTO monitor_events (monitor_id, event_id, body, seq, change_id, backfill, mail_pending)
     SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[], $4::bigint[], $5::bigint[], $6::boolean[], $7::boolean[])
     ON CONFLICT (monitor_id, event_id) DO NOTHING
     RETURNING monitor_id::text || '/' || event_id AS key`,
    [
      events.map((e) => e.monitorId),
      events.map((e) => e.eventId),
      events.map((e) => e.body),
      events.map((e) => e.position.seq),
      events.map((e) => e.position.changeId),
      events.map((e) => e.backfill),
      events.map((e) => e.mail),
    ],
  );
  return new Set(rows.map((row) => row.key));
}

/** Targets resolved with a backfill still owed, oldest first, with their monitor (active ones only). */
export function targetsToBackfill(tx: Queryable, limit: number): Promise<(WatchRow & { backfill_days: number })[]> {
  return tx.query<WatchRow & { backfill_days: number }>(
    `SELECT t.id::text AS target_id, t.company_id::text AS company_id,
            (extract(epoch FROM t.created_at) * 1000)::float8 AS target_created_ms, t.backfill_days,
            m.id::text AS monitor_id, m.account_id::float8 AS account_id, m.name, m.signal_types,
            m.webhook_id::text AS webhook_id, (m.webhook_id IS NULL AND NOT m.email_unsubscribed) AS email
       FROM monitor_targets t JOIN monitors m ON m.id = t.monitor_id
      WHERE t.backfill_days > 0 AND t.company_id IS NOT NULL AND m.active
      ORDER BY t.created_at, t.id
      LIMIT $1 FOR UPDATE OF t SKIP LOCKED`,
    [limit],
  );
}

export async function clearBackfill(tx: Queryable, targetIds: readonly string[]): Promise<void> {
  if (targetIds.length === 0) return;
  await tx.query('UPDATE monitor_targets SET backfill_days = 0 WHERE id = ANY($1::uuid[])', [targetIds]);
}

export interface SignalRow {
  key: string;
  doc: string;
  sort_ms: number;
}

/** A company's signals of one source since a time, oldest first, at most `limit`. */
export function signalsSince(
  tx: Queryable,
  source: SignalSource,
  companyId: string,
  since: Date,
  limit: number,
): Promise<SignalRow[]> {
  const keyColumn = source.keyColumn;
  const parts = source.columns.map(
    (column) =>
      `SELECT ${keyColumn}::text AS key, doc, (extract(epoch FROM sort_at) * 1000)::float8 AS sort_ms
         FROM ${source.table} WHERE ${column} = $1 AND sort_at >= $2`,
  );
  return tx.query<SignalRow>(`SELECT DISTINCT * FROM (${parts.join(' UNION ALL ')}) s ORDER BY sort_ms, key LIMIT $3`, [
    companyId,
    since,
    limit,
  ]);
}

export async function countReplay(tx: Queryable, monitorId: string, since: Date, until: Date): Promise<number> {
  const rows = await tx.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM monitor_events WHERE monitor_id = $1 AND created_at >= $2 AND created_at <= $3',
    [monitorId, since, until],
  );
  return rows[0]!.n;
}

/**
 * Queues the monitor's events of the window again to its webhook, with their ids, bodies and
 * positions (so they go out in their original order), and records them as paid: the replay's debit
 * is their charge.
 */
export async function replayEvents(
  tx: Queryable,
  webhooks: WebhookService,
  replay: { monitorId: string; webhookId: string; accountId: number; since: Date; until: Date },
): Promise<number> {
  const rows = await tx.query<{ event_id: string; body: string; seq: number; change_id: number }>(
    `SELECT event_id, body, seq, change_id FROM monitor_events
      WHERE monitor_id = $1 AND created_at >= $2 AND created_at <= $3 ORDER BY seq, change_id`,
    [replay.monitorId, replay.since, replay.until],
  );
  const events: NewEvent[] = rows.map((row) => ({ id: row.event_id, eventType: MONITOR_EVENT_TYPE, body: row.body }));
  const deliveries: NewDelivery[] = rows.map((row) => ({
    id: randomUUID(),
    webhookId: replay.webhookId,
    position: { seq: row.seq, changeId: row.change_id },
    eventId: row.event_id,
    eventType: MONITOR_EVENT_TYPE,
  }));
  await webhooks.queueEvents(tx, events, deliveries, { prepaidBy: replay.accountId });
  return rows.length;
}

/** Drops what monitors were sent before `before` (the change log's retention). */
export async function pruneMonitorEvents(tx: Queryable, before: Date): Promise<number> {
  const rows = await tx.query<{ n: number }>(
    `WITH gone AS (DELETE FROM monitor_events WHERE created_at < $1 RETURNING 1) SELECT count(*)::int AS n FROM gone`,
    [before],
  );
  return rows[0]!.n;
}
