// The SQL of monitors (migration 025): monitors and their targets, what a monitor was sent, and
// what the monitor pass reads of the companies and signals. Table and column names come from the
// catalog (sources.ts); every value is a parameter.
import type { Queryable } from '../platform/db/index.js';
import type { SignalType, TargetType } from './schemas.js';
import { SIGNAL_SOURCES } from './sources.js';

const iso = (column: string, as = column.replace(/^.*\./, '')) =>
  `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS ${as}`;

export interface MonitorRow {
  id: string;
  account_id: number;
  name: string;
  signal_types: SignalType[];
  active: boolean;
  webhook_id: string | null;
  endpoint_url: string | null;
  backfill_days: number;
  email_unsubscribed: boolean;
  last_email_at: string | null;
  created_at: string;
  updated_at: string;
  targets: number;
  resolved_targets: number;
  last_delivery_at: string | null;
}

const MONITOR_COLUMNS = `m.id::text AS id, m.account_id::float8 AS account_id, m.name, m.signal_types, m.active,
  m.webhook_id::text AS webhook_id, w.endpoint_url, m.backfill_days, m.email_unsubscribed, ${iso('m.last_email_at')},
  ${iso('m.created_at')}, ${iso('m.updated_at')},
  (SELECT count(*)::int FROM monitor_targets t WHERE t.monitor_id = m.id) AS targets,
  (SELECT count(*)::int FROM monitor_targets t WHERE t.monitor_id = m.id AND t.company_id IS NOT NULL) AS resolved_targets,
  ${iso('greatest(w.last_success_at, w.last_failure_at, m.last_email_at)', 'last_delivery_at')}`;

const MONITOR_FROM = 'monitors m LEFT JOIN webhooks w ON w.id = m.webhook_id';

/** Locks the account's row (monitors and targets of one account are counted one writer at a time). */
export async function lockAccount(tx: Queryable, accountId: number): Promise<void> {
  await tx.query('SELECT id FROM accounts WHERE id = $1 FOR UPDATE', [accountId]);
}

export async function countMonitors(db: Queryable, accountId: number): Promise<number> {
  const rows = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM monitors WHERE account_id = $1', [accountId]);
  return rows[0]!.n;
}

export async function countAccountTargets(db: Queryable, accountId: number): Promise<number> {
  const rows = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM monitor_targets WHERE account_id = $1', [accountId]);
  return rows[0]!.n;
}

export async function insertMonitor(
  tx: Queryable,
  monitor: {
    id: string;
    accountId: number;
    name: string;
    signalTypes: readonly string[];
    webhookId: string | null;
    backfillDays: number;
  },
): Promise<void> {
  await tx.query(
    `INSERT INTO monitors (id, account_id, name, signal_types, webhook_id, backfill_days) VALUES ($1, $2, $3, $4, $5, $6)`,
    [monitor.id, monitor.accountId, monitor.name, monitor.signalTypes, monitor.webhookId, monitor.backfillDays],
  );
}

export function listMonitors(db: Queryable, accountId: number): Promise<MonitorRow[]> {
  return db.query<MonitorRow>(
    `SELECT ${MONITOR_COLUMNS} FROM ${MONITOR_FROM} WHERE m.account_id = $1 ORDER BY m.created_at DESC, m.id DESC`,
    [accountId],
  );
}

export async function findMonitor(db: Queryable, accountId: number, id: string, lock = false): Promise<MonitorRow | undefined> {
  // FOR UPDATE OF m: the monitor's row only (a monitor without a webhook has no webhook row to lock).
  const rows = await db.query<MonitorRow>(
    `SELECT ${MONITOR_COLUMNS} FROM ${MONITOR_FROM} WHERE m.account_id = $1 AND m.id = $2${lock ? ' FOR UPDATE OF m' : ''}`,
    [accountId, id],
  );
  return rows[0];
}

export async function updateMonitor(
  tx: Queryable,
  id: string,
  changes: { name?: string; signalTypes?: readonly string[]; active?: boolean; webhookId?: string | null; backfillDays?: number },
): Promise<void> {
  await tx.query(
    `UPDATE monitors SET name = coalesce($2, name), signal_types = coalesce($3, signal_types), active = coalesce($4, active),
            webhook_id = CASE WHEN $5 THEN $6::uuid ELSE webhook_id END, backfill_days = coalesce($7, backfill_days),
            updated_at = now()
      WHERE id = $1`,
    [
      id,
      changes.name ?? null,
      changes.signalTypes ?? null,
      changes.active ?? null,
      changes.webhookId !== undefined,
      changes.webhookId ?? null,
      changes.backfillDays ?? null,
    ],
  );
}

export async function deleteMonitor(tx: Queryable, id: string): Promise<void> {
  await tx.query('DELETE FROM monitors WHERE id = $1', [id]);
}

/** Signals of any type in the window for each monitor's distinct resolved companies. */
export async function recentSignals(db: Queryable, monitorIds: readonly string[], since: Date): Promise<Map<string, number>> {
  if (monitorIds.length === 0) return new Map();
  // One probe of each link column's index per company: an OR would read the table.
  const counts = SIGNAL_SOURCES.flatMap((source) =>
    source.columns.map(
      (column) => `(SELECT count(*) FROM ${source.table} s WHERE s.${column} = c.company_id AND s.sort_at >= $2)`,
    ),
  ).join(' + ');
  const rows = await db.query<{ monitor_id: string; n: number }>(
    `SELECT c.monitor_id::text AS monitor_id, sum(${counts})::float8 AS n
       FROM (SELECT DISTINCT monitor_id, company_id FROM monitor_targets
              WHERE monitor_id = ANY($1::uuid[]) AND company_id IS NOT NULL) c
      GROUP BY c.monitor_id`,
    [monitorIds, since],
  );
  return new Map(rows.map((row) => [row.monitor_id, row.n]));
}

export interface TargetRow {
  id: string;
  monitor_id: string;
  type: TargetType;
  value: string;
  company_id: string | null;
  resolved_at: string | null;
  created_at: string;
  company_doc: string | null;
}

const TARGET_COLUMNS = `t.id::text AS id, t.monitor_id::text AS monitor_id, t.type, t.value, t.company_id::text AS company_id,
  ${iso('t.resolved_at')}, ${iso('t.created_at')}, c.doc AS company_doc`;
const TARGET_FROM = 'monitor_targets t LEFT JOIN companies c ON c.record_id = t.company_id';

export function listTargets(
  db: Queryable,
  monitorId: string,
  options: { status?: 'resolved' | 'pending'; limit: number; offset: number },
): Promise<TargetRow[]> {
  return db.query<TargetRow>(
    `SELECT ${TARGET_COLUMNS} FROM ${TARGET_FROM}
      WHERE t.monitor_id = $1 AND ($2::text IS NULL OR ($2 = 'resolved') = (t.company_id IS NOT NULL))
      ORDER BY t.created_at DESC, t.id DESC LIMIT $3 OFFSET $4`,
    [monitorId, options.status ?? null, options.limit, options.offset],
  );
}

export async function countTargets(db: Queryable, monitorId: string, status?: 'resolved' | 'pending'): Promise<number> {
  const rows = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM monitor_targets t
      WHERE t.monitor_id = $1 AND ($2::text IS NULL OR ($2 = 'resolved') = (t.company_id IS NOT NULL))`,
    [monitorId, status ?? null],
  );
  return rows[0]!.n;
}

export function targetsByValue(db: Queryable, monitorId: string, values: readonly string[]): Promise<TargetRow[]> {
  return db.query<TargetRow>(
    `SELECT ${TARGET_COLUMNS} FROM ${TARGET_FROM} WHERE t.monitor_id = $1 AND t.value = ANY($2::text[])`,
    [monitorId, values],
  );
}

export function targetsById(db: Queryable, monitorId: string, ids: readonly string[]): Promise<TargetRow[]> {
  return db.query<TargetRow>(`SELECT ${TARGET_COLUMNS} FROM ${TARGET_FROM} WHERE t.monitor_id = $1 AND t.id = ANY($2::uuid[])`, [
    monitorId,
    ids,
  ]);
}

/**
 * The companies each key names now: a domain or LinkedIn page the company of that website_key or
 * linkedin_key (imported before made from records, then the oldest, as resolution chooses), a
 * profile the company of the person's newest job change.
 */
export async function companiesForKeys(
  db: Queryable,
  keys: readonly { type: TargetType; value: string }[],
): Promise<Map<string, string>> {
  const of = (type: TargetType) => keys.filter((k) => k.type === type).map((k) => k.value);
  const rows = await db.query<{ value: string; company_id: string }>(
    `SELECT * FROM (SELECT DISTINCT ON (v) v AS value, c.record_id::text AS company_id
       FROM unnest($1::text[]) v JOIN companies c ON c.website_key = v
      ORDER BY v, c.origin = 'import' DESC, c.id) d
     UNION ALL
     SELECT * FROM (SELECT DISTINCT ON (v) v AS value, c.record_id::text AS company_id
       FROM unnest($2::text[]) v JOIN companies c ON c.linkedin_key = v
      ORDER BY v, c.origin = 'import' DESC, c.id) l
     UNION ALL
     SELECT * FROM (SELECT DISTINCT ON (v) v AS value, j.company_id::text AS company_id
       FROM unnest($3::text[]) v JOIN job_changes j ON j.person_key = v
      WHERE j.company_id IS NOT NULL
      ORDER BY v, j.sort_at DESC, j.id DESC) p`,
    [of('domain'), of('linkedin_company'), of('linkedin_profile')],
  );
  return new Map(rows.map((row) => [row.value, row.company_id]));
}

export async function insertTargets(
  tx: Queryable,
  monitor: { id: string; accountId: number },
  targets: readonly { id: string; type: TargetType; value: string; companyId: string | null; backfillDays: number }[],
): Promise<void> {
  if (targets.length === 0) return;
  // Created in the order sent, a microsecond apart, so "newest first" lists the last sent first.
  await tx.query(
    `INSERT INTO monitor_targets (id, monitor_id, account_id, type, value, company_id, resolved_at, backfill_days, created_at)
     SELECT i.id, $1, $2, i.type, i.value, i.company_id, CASE WHEN i.company_id IS NOT NULL THEN now() END, i.backfill,
            now() + (i.n * interval '1 microsecond')
       FROM unnest($3::uuid[], $4::text[], $5::text[], $6::uuid[], $7::int[]) WITH ORDINALITY AS i(id, type, value, company_id, backfill, n)`,
    [
      monitor.id,
      monitor.accountId,
      targets.map((t) => t.id),
      targets.map((t) => t.type),
      targets.map((t) => t.value),
      targets.map((t) => t.companyId),
      targets.map((t) => t.backfillDays),
    ],
  );
}

export async function deleteTargets(tx: Queryable, monitorId: string, ids: readonly string[]): Promise<void> {
  await tx.query('DELETE FROM monitor_targets WHERE monitor_id = $1 AND id = ANY($2::uuid[])', [monitorId, ids]);
}

export async function resolvedCompanies(db: Queryable, monitorId: string): Promise<number> {
  const rows = await db.query<{ n: number }>(
    'SELECT count(DISTINCT company_id)::int AS n FROM monitor_targets WHERE monitor_id = $1 AND company_id IS NOT NULL',
    [monitorId],
  );
  return rows[0]!.n;
}

/** Each company's newest signal (of the monitored types), by company id. */
export async function lastSignals(
  db: Queryable,
  companyIds: readonly string[],
): Promise<Map<string, { type: SignalType; at: string }>> {
  const last = new Map<string, { type: SignalType; at: string; ms: number }>();
  if (companyIds.length === 0) return last;
  const parts = SIGNAL_SOURCES.flatMap((source) =>
    source.columns.map(
      (column) =>
        `SELECT * FROM (SELECT DISTINCT ON (s.${column}) s.${column}::text AS company_id, '${source.type}' AS type,
                ${iso('s.sort_at', 'at')}, (extract(epoch FROM s.sort_at) * 1000)::float8 AS ms
           FROM ${source.table} s WHERE s.${column} = ANY($1::uuid[]) ORDER BY s.${column}, s.sort_at DESC) x`,
    ),
  );
  const rows = await db.query<{ company_id: string; type: SignalType; at: string; ms: number }>(parts.join(' UNION ALL '), [
    companyIds,
  ]);
  for (const row of rows) {
    const known = last.get(row.company_id);
    if (!known || row.ms > known.ms) last.set(row.company_id, row);
  }
  return last;
}
