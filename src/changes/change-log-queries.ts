// The change log (migration 008): what changed in the document tables, in commit order. Triggers
// write it; this module reads it by position and prunes it.
import type { TObject, TSchema } from '@sinclair/typebox';
import { indexValueSql, type Database, type Queryable } from '../platform/db/index.js';
import { DATASET_NAMES, DATASETS, type Dataset, type DatasetName, type StoredRow } from '../catalog/index.js';

/** The data sets whose tables the change log follows (migration 018's attach_change_log): every one in the registry. */
export const CHANGE_DATASETS = DATASET_NAMES;
export type ChangeDataset = DatasetName;

export type ChangeOp = 'created' | 'updated' | 'deleted';

/**
 * A place in the log: the commit sequence number of a transaction and the id of one of its
 * entries. Positions order entries exactly as the log is read. The entry id may be 0: the
 * position just before the transaction's first entry.
 */
export interface ChangePosition {
  seq: number;
  changeId: number;
}

/** Before the first entry ever written. */
export const LOG_START: ChangePosition = Object.freeze({ seq: 0, changeId: 0 });

export function comparePositions(a: ChangePosition, b: ChangePosition): number {
  return a.seq !== b.seq ? Math.sign(a.seq - b.seq) : Math.sign(a.changeId - b.changeId);
}

export interface Change {
  position: ChangePosition;
  dataset: ChangeDataset;
  /** The record's primary key in its table. */
  id: number;
  /**
   * The record's natural key as text (the dataset's key column: funding's natural_key, the uuid of
   * the others), logged with every operation (migration 010), so a deletion still names it. Null
   * only for an entry written before 010 whose record was already gone then.
   */
  key: string | null;
  op: ChangeOp;
  /** When the writing transaction committed (all entries of a transaction share it). */
  changedAt: Date;
  /**
   * The changed row as it is in the snapshot the entry was read in, when the reader asked for its
   * data set's rows; undefined for a deletion and for a row gone since.
   */
  record?: ChangedRecord;
}

/** A row's filter and sort values, as the in-memory filter index takes them: text, text[] or a number. */
export interface RecordValues {
  id: number;
  /** sort_at in ms since the epoch (microseconds as the fraction). */
  sort_ms: number;
  [column: string]: string | number | string[] | null;
}

export interface ChangedRecord {
  /**
   * The row's natural key now: another than the entry's when plain SQL changed it since (the
   * entry's deletion then follows in the log).
   */
  key: string;
  /** The served document (JSON text), when documents were asked for. */
  doc?: string;
  /** The filter and sort values, when they were asked for. */
  values?: RecordValues;
}

export interface ChangeLogBounds {
  /** The newest entry's position (or `pruned` when the log holds none). */
  head: ChangePosition;
  /** The newest entry removed by pruning; a reader behind it has missed entries. */
  pruned: ChangePosition;
}

export interface BoundsRow {
  pruned_seq: number;
  pruned_change: number;
  head_seq: number | null;
  head_change: number | null;
}

// The newest numbered transaction is one backward step on the seq index, its last entry one
// step on the log's key: a few buffer reads however long the log is.
export const BOUNDS_SQL = `
  SELECT (SELECT seq FROM change_log_pruned) AS pruned_seq, (SELECT change_id FROM change_log_pruned) AS pruned_change,
         h.seq AS head_seq, h.change_id AS head_change
    FROM (SELECT 1) one
    LEFT JOIN LATERAL (
      SELECT t.seq, (SELECT c.id FROM change_log c WHERE c.txid = t.txid ORDER BY c.id DESC LIMIT 1) AS change_id
        FROM change_transactions t
       WHERE t.seq IS NOT NULL
       ORDER BY t.seq DESC
       LIMIT 1) h ON true`;

export function boundsOf(row: BoundsRow): ChangeLogBounds {
  const pruned = { seq: row.pruned_seq, changeId: row.pruned_change };
  const newest = row.head_seq === null ? undefined : { seq: row.head_seq, changeId: row.head_change ?? 0 };
  return { pruned, head: newest && comparePositions(newest, pruned) > 0 ? newest : pruned };
}

/** The log's head and its pruned horizon, read in one snapshot. */
export async function changeLogBounds(db: Queryable): Promise<ChangeLogBounds> {
  const rows = await db.query<BoundsRow>(BOUNDS_SQL);
  return boundsOf(rows[0]!);
}

/** The log's head: the position of the newest committed entry. */
export async function changeLogHead(db: Queryable): Promise<ChangePosition> {
  return (await changeLogBounds(db)).head;
}

/** Where a read starts: after a position, or (undefined) after the pruned horizon, the oldest retained change. */
export type RangeStart = ChangePosition | undefined;

// The start position, in the statement's own snapshot: the one given, or the pruned horizon.
export const START_CTE = `
  start AS (
    SELECT coalesce($1::bigint, p.seq) AS seq,
           CASE WHEN $1::bigint IS NULL THEN p.change_id ELSE $2::bigint END AS change_id
      FROM change_log_pruned p
  )`;

/** What the range statement reads of a dataset's changed rows. */
interface RecordSource {
  dataset: ChangeDataset;
  /** The filter and sort values, in the order of the JSON array the statement returns them in. */
  valueColumns: readonly string[];
  /** The CTE reading the changed rows of the entries of this dataset, by primary key. */
  rows: string;
  /** Its join to the entries. */
  join: string;
}

// A dataset's changed row, read only for an entry of that dataset that is not a deletion, when the
// dataset is among those asked for ($6): with the parameters known, the planner drops the join of a
// dataset nobody asked for. The document ($7) and the index values ($8) are read only when asked,
// the values as one JSON array (a column per value of every dataset made rows five times wider and
// their parsing the larger part of the read). The rows are read by primary key, all of a dataset's
// at once (as many steps per entry made the read slower than the separate statements it replaces).
function recordSource<Q extends TObject, F, R extends TSchema, Row extends StoredRow>(
  dataset: Dataset<Q, F, R, Row>,
  alias: string,
): RecordSource {
  const values = [
    { name: 'sort_ms', sql: indexValueSql('t.sort_at', 'timestamptz') },
    ...Object.keys(dataset.indexed).map((name) => {
      const spec = dataset.columns.find((column) => column.name === name);
      if (!spec) throw new Error(`${dataset.name}: indexed column ${name} is not a column of ${dataset.table}`);
      return { name, sql: indexValueSql(`t.${name}`, spec.type) };
    }),
  ];
  const rows = `${alias} AS (
    SELECT t.id, t.${dataset.key.column}::text AS key, CASE WHEN $7::boolean THEN t.doc END AS doc,
           CASE WHEN $8::boolean THEN json_build_array(${values.map(({ sql }) => sql).join(', ')})::text END AS "values"
      FROM ${dataset.table} t
     WHERE '${dataset.name}' = ANY($6::text[])
       AND t.id = ANY(ARRAY(SELECT record_id FROM matched WHERE dataset = '${dataset.name}' AND op <> 'deleted'))
  )`;
  const join = `
    LEFT JOIN ${alias} ON m.dataset = '${dataset.name}' AND m.op <> 'deleted' AND ${alias}.id = m.record_id`;
  return { dataset: dataset.name as ChangeDataset, valueColumns: values.map(({ name }) => name), rows, join };
}

export const RECORD_SOURCES: readonly RecordSource[] = DATASETS.map((dataset, i) =>
  dataset.withTypes((typed) => recordSource(typed, `r${i}`)),
);

/** One entry read by CHANGE_RANGE_SQL, with the log's bounds and how far the read went. */
export interface ChangeRangeRow extends BoundsRow {
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
  /** The changed row's natural key now; null when no row was read. */
  row_key: string | null;
  doc: string | Buffer | null;
  /** The filter and sort values as a JSON array, in the order of the dataset's valueColumns. */
  values: string | null;
}

// The next $3 entries after the start (the transactions from the seq index, each one's entries from
// the log's key, each capped at $3, so a read costs about $3 entries wherever it starts, also inside
// a transaction of millions; one transaction more than $3 is taken because the first may have
// nothing left), then the first $5 of them in the data sets $4 (null: all), each with its changed
// row as it is in the same snapshot. With the log's bounds and the last entry read, matching or
// not. One row per entry found, or one row with null entry columns when none is.
const CHANGE_RANGE_SQL = `
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
  ), ${RECORD_SOURCES.map((source) => source.rows).join(', ')}
  SELECT b.*, s.seq AS start_seq, s.change_id AS start_change,
         (SELECT count(*)::int FROM scanned) AS scanned, l.seq AS last_seq, l.id AS last_change,
         m.seq, m.id, m.dataset, m.record_id, m.record_key, m.op, m.committed_at,
         coalesce(${RECORD_SOURCES.map((_, i) => `r${i}.key`).join(', ')}) AS row_key,
         coalesce(${RECORD_SOURCES.map((_, i) => `r${i}.doc`).join(', ')}) AS doc,
         coalesce(${RECORD_SOURCES.map((_, i) => `r${i}."values"`).join(', ')}) AS "values"
    FROM (${BOUNDS_SQL}) b
   CROSS JOIN start s
    LEFT JOIN LATERAL (SELECT seq, id FROM scanned ORDER BY seq DESC, id DESC LIMIT 1) l ON true
    LEFT JOIN matched m ON true${RECORD_SOURCES.map((source) => source.join).join('')}
   ORDER BY m.seq, m.id`;

export interface ChangeRangeParams {
  after: RangeStart;
  scanRows: number;
  datasets: readonly ChangeDataset[] | undefined;
  maxChanges: number;
  /** The data sets whose changed rows are read. */
  recordDatasets: readonly ChangeDataset[];
  documents: boolean;
  values: boolean;
}

export function queryChangeRange(db: Queryable, params: ChangeRangeParams): Promise<ChangeRangeRow[]> {
  return db.query<ChangeRangeRow>(CHANGE_RANGE_SQL, [
    params.after?.seq ?? null,
    params.after?.changeId ?? null,
    params.scanRows,
    params.datasets ? [...params.datasets] : null,
    params.maxChanges,
    [...params.recordDatasets],
    params.documents,
    params.values,
  ]);
}

export interface PruneResult {
  /** The pruned horizon after this run. */
  pruned: ChangePosition;
  removedChanges: number;
  removedTransactions: number;
}

// Moves the horizon to the last entry of the newest transaction committed before $1. The oldest
// transactions come first on the seq index, so finding the first one to keep reads only those to
// remove. Commit times follow seq order (both are taken under the same lock) unless the clock
// steps back, which at worst keeps some entries a little longer.
const ADVANCE_HORIZON_SQL = `
  WITH first_kept AS (
    SELECT seq FROM change_transactions
     WHERE seq IS NOT NULL AND committed_at >= $1
     ORDER BY seq
     LIMIT 1
  ), last_removed AS (
    SELECT t.seq, t.txid FROM change_transactions t
     WHERE t.seq IS NOT NULL AND t.seq < coalesce((SELECT seq FROM first_kept), 9223372036854775807)
     ORDER BY t.seq DESC
     LIMIT 1
  )
  UPDATE change_log_pruned p
     SET seq = l.seq,
         change_id = coalesce((SELECT max(c.id) FROM change_log c WHERE c.txid = l.txid), 0)
    FROM last_removed l
   WHERE l.seq > p.seq`;

// One chunk of entries at or below the horizon, after a position (the read above, bounded). Also
// returns the newest transaction looked at, to step over transactions that have no entries left.
const DELETE_CHANGES_SQL = `
  WITH txs AS (
    SELECT txid, seq FROM change_transactions
     WHERE seq >= $1 AND seq <= $3
     ORDER BY seq
     LIMIT $4 + 1
  ), doomed AS (
    SELECT t.seq, c.txid, c.id
      FROM txs t
     CROSS JOIN LATERAL (
       SELECT c.txid, c.id FROM change_log c
        WHERE c.txid = t.txid AND c.id > CASE WHEN t.seq = $1 THEN $2::bigint ELSE 0 END
        ORDER BY c.id
        LIMIT $4) c
     ORDER BY t.seq, c.id
     LIMIT $4
  ), gone AS (
    DELETE FROM change_log c USING doomed d WHERE c.txid = d.txid AND c.id = d.id RETURNING c.id
  )
  SELECT (SELECT count(*)::int FROM gone) AS removed, (SELECT max(seq) FROM txs) AS scanned_seq, last.seq, last.id
    FROM (SELECT 1) one
    LEFT JOIN (SELECT seq, id FROM doomed ORDER BY seq DESC, id DESC LIMIT 1) last ON true`;

// Transactions at or below the horizon whose entries are all gone.
const DELETE_TRANSACTIONS_SQL = `
  WITH doomed AS (
    SELECT txid, seq FROM change_transactions WHERE seq > $1 AND seq <= $2 ORDER BY seq LIMIT $3
  ), gone AS (
    DELETE FROM change_transactions t USING doomed d
     WHERE t.txid = d.txid AND NOT EXISTS (SELECT 1 FROM change_log c WHERE c.txid = d.txid)
    RETURNING t.seq
  )
  SELECT (SELECT count(*)::int FROM gone) AS removed, (SELECT max(seq) FROM doomed) AS seq`;

export interface PruneOptions {
  /** Entries (and transactions) removed per statement. */
  chunkRows?: number;
  /** Stops between chunks (shutdown); the next run carries on where this one stopped. */
  signal?: AbortSignal;
}

/**
 * Removes the entries of transactions committed before `before`. The horizon moves first, in its
 * own statement, so from then on a reader behind it is told it has missed entries while the rows
 * go, in chunks (each its own statement: no long lock, no statement timeout). Safe to run from
 * several instances at once.
 */
export async function pruneChangeLog(db: Database, before: Date, options: PruneOptions = {}): Promise<PruneResult> {
  const chunkRows = options.chunkRows ?? 10_000;
  await db.query(ADVANCE_HORIZON_SQL, [before]);
  const { pruned } = await changeLogBounds(db);
  let removedChanges = 0;
  let from: ChangePosition = LOG_START;
  for (;;) {
    const rows = await db.query<{ removed: number; scanned_seq: number | null; seq: number | null; id: number | null }>(
      DELETE_CHANGES_SQL,
      [from.seq, from.changeId, pruned.seq, chunkRows],
    );
    const chunk = rows[0]!;
    removedChanges += chunk.removed;
    if (chunk.seq !== null && chunk.id !== null) from = { seq: chunk.seq, changeId: chunk.id };
    else if (chunk.scanned_seq !== null && chunk.scanned_seq > from.seq)
      from = { seq: chunk.scanned_seq, changeId: Number.MAX_SAFE_INTEGER };
    else break;
    if (options.signal?.aborted) return { pruned, removedChanges, removedTransactions: 0 };
  }
  let removedTransactions = 0;
  let fromSeq = 0;
  for (;;) {
    const rows = await db.query<{ removed: number; seq: number | null }>(DELETE_TRANSACTIONS_SQL, [
      fromSeq,
      pruned.seq,
      chunkRows,
    ]);
    const chunk = rows[0]!;
    removedTransactions += chunk.removed;
    if (chunk.seq === null || options.signal?.aborted) break;
    fromSeq = chunk.seq;
  }
  return { pruned, removedChanges, removedTransactions };
}
