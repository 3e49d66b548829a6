// The changes feed's reads (GET /api/v2/changes): the change log scanned by position with a
// filter on data sets, the number of changes after a position, and the documents of a page.
import type { Queryable } from '../platform/db/index.js';
import {
  BOUNDS_SQL,
  boundsOf,
  type BoundsRow,
  type Change,
  type ChangeDataset,
  type ChangeLogBounds,
  type ChangeOp,
  type ChangePosition,
} from './change-log-queries.js';

/** Where a scan starts: after a position, or (undefined) after the pruned horizon, the oldest retained change. */
type Start = ChangePosition | undefined;

// The start position, in the statement's own snapshot: the one given, or the pruned horizon.
const START_CTE = `
  start AS (
    SELECT coalesce($1::bigint, p.seq) AS seq,
           CASE WHEN $1::bigint IS NULL THEN p.change_id ELSE $2::bigint END AS change_id
      FROM change_log_pruned p
  )`;

interface ScanRow extends BoundsRow {
  start_seq: number;
  start_change: number;
  scanned: number;
  last_seq: number | null;
  last_change: number | null;
  seq: number | null;
  id: number | null;
  dataset: ChangeDataset;
  record_id: number;
  record_key: string | null;
  op: ChangeOp;
  committed_at: Date;
}

// The next $3 entries after the start, read as the change log's readChanges reads them (the
// transactions from the seq index, each one's entries from the log's key, so a scan costs about
// $3 entries wherever it starts), then the first $5 of them in the data sets $4 (null: all). With
// the log's bounds and the last entry scanned, all in one snapshot. One row per entry found, or
// one row with null entry columns when none is.
const SCAN_SQL = `
  WITH ${START_CTE}, scanned AS (
    SELECT t.seq, c.id, c.dataset, c.record_id, c.record_key, c.op, t.committed_at
      FROM (SELECT txid, seq, committed_at
              FROM change_transactions
             WHERE seq >= (SELECT seq FROM start)
             ORDER BY seq
             LIMIT $3 + 1) t
     CROSS JOIN LATERAL (
       SELECT c.id, c.dataset, c.record_id, c.record_key, c.op
         FROM change_log c
        WHERE c.txid = t.txid
          AND c.id > CASE WHEN t.seq = (SELECT seq FROM start) THEN (SELECT change_id FROM start) ELSE 0 END
        ORDER BY c.id
        LIMIT $3) c
     ORDER BY t.seq, c.id
     LIMIT $3
  ), matched AS (
    SELECT * FROM scanned
     WHERE $4::text[] IS NULL OR dataset = ANY($4::text[])
     ORDER BY seq, id
     LIMIT $5
  )
  SELECT b.*, s.seq AS start_seq, s.change_id AS start_change,
         (SELECT count(*)::int FROM scanned) AS scanned, l.seq AS last_seq, l.id AS last_change,
         m.seq, m.id, m.dataset, m.record_id, m.record_key, m.op, m.committed_at
    FROM (${BOUNDS_SQL}) b
   CROSS JOIN start s
    LEFT JOIN LATERAL (SELECT seq, id FROM scanned ORDER BY seq DESC, id DESC LIMIT 1) l ON true
    LEFT JOIN matched m ON true
   ORDER BY m.seq, m.id`;

export interface ChangeScan {
  /** The log's head and pruned horizon in the scan's snapshot. */
  bounds: ChangeLogBounds;
  /** Where the scan started (the pruned horizon when no position was given). */
  start: ChangePosition;
  /** Entries read, matching or not: fewer than asked means the scan reached the head. */
  scanned: number;
  /** The last entry read, matching or not; undefined when none was. */
  last: ChangePosition | undefined;
  /** The entries of the selected data sets among those read, in log order. */
  changes: Change[];
}

export interface ScanOptions {
  /** Entries to read, matching or not. */
  scanRows: number;
  /** Only these data sets; undefined for all. */
  datasets: readonly ChangeDataset[] | undefined;
  /** Most matching entries returned. */
  maxChanges: number;
}

/**
 * Reads the entries after a position (or after the pruned horizon) and returns those of the
 * selected data sets, with the log's bounds read in the same snapshot. The caller checks the start
 * against the bounds: a start behind the pruned horizon has missed entries.
 */
export async function scanChanges(db: Queryable, after: Start, options: ScanOptions): Promise<ChangeScan> {
  const rows = await db.query<ScanRow>(SCAN_SQL, [
    after?.seq ?? null,
    after?.changeId ?? null,
    options.scanRows,
    options.datasets ? [...options.datasets] : null,
    options.maxChanges,
  ]);
  const first = rows[0]!;
  const changes: Change[] = [];
  for (const row of rows) {
    if (row.seq === null || row.id === null) continue;
    changes.push({
      position: { seq: row.seq, changeId: row.id },
      dataset: row.dataset,
      id: row.record_id,
      key: row.record_key,
      op: row.op,
      changedAt: row.committed_at,
    });
  }
  return {
    bounds: boundsOf(first),
    start: { seq: first.start_seq, changeId: first.start_change },
    scanned: first.scanned,
    last:
      first.last_seq === null || first.last_change === null ? undefined : { seq: first.last_seq, changeId: first.last_change },
    changes,
  };
}

// Entries after the start in the data sets $3 (null: all), counted on the seq index and the log's
// key: the cost grows with the number counted.
const COUNT_SQL = `
  WITH ${START_CTE}
  SELECT b.*, s.seq AS start_seq, s.change_id AS start_change,
         (SELECT count(*)
            FROM change_transactions t
            JOIN change_log c ON c.txid = t.txid
           WHERE t.seq >= s.seq AND (t.seq > s.seq OR c.id > s.change_id)
             AND ($3::text[] IS NULL OR c.dataset = ANY($3::text[]))) AS total
    FROM (${BOUNDS_SQL}) b
   CROSS JOIN start s`;

export interface ChangeCount {
  bounds: ChangeLogBounds;
  start: ChangePosition;
  /** Retained entries after the start in the selected data sets. */
  total: number;
}

/** How many retained entries of the selected data sets follow a position (or the pruned horizon). */
export async function countChanges(
  db: Queryable,
  after: Start,
  datasets: readonly ChangeDataset[] | undefined,
): Promise<ChangeCount> {
  const rows = await db.query<BoundsRow & { start_seq: number; start_change: number; total: number }>(COUNT_SQL, [
    after?.seq ?? null,
    after?.changeId ?? null,
    datasets ? [...datasets] : null,
  ]);
  const row = rows[0]!;
  return { bounds: boundsOf(row), start: { seq: row.start_seq, changeId: row.start_change }, total: row.total };
}

export interface StoredDocument {
  /** The natural key the row has now. */
  key: string;
  /** The served document (JSON text). */
  doc: string;
}

/**
 * The documents of these rows of one table, by id, with each row's natural key as text (keyColumn
 * comes from the dataset registry, never from a request). Ids not found are absent.
 */
export async function documentsById(
  db: Queryable,
  table: string,
  keyColumn: string,
  ids: readonly number[],
): Promise<Map<number, StoredDocument>> {
  const rows = await db.query<{ id: number; key: string; doc: string | Buffer }>(
    `SELECT id, ${keyColumn}::text AS key, doc FROM ${table} WHERE id = ANY($1::bigint[])`,
    [ids],
  );
  return new Map(
    rows.map((row) => [row.id, { key: row.key, doc: typeof row.doc === 'string' ? row.doc : row.doc.toString('utf8') }]),
  );
}
