// The one reader of the change log: the read model's follower, the webhook dispatcher and the
// changes feed all read it here. A range of entries after a position, in commit order, optionally
// of some data sets only, each with its changed row (natural key, document, filter values) read in
// the same statement and snapshot, and the log's bounds of that snapshot.
import type { Queryable } from '../platform/db/index.js';
import {
  boundsOf,
  queryChangeRange,
  RECORD_SOURCES,
  type Change,
  type ChangeDataset,
  type ChangeLogBounds,
  type ChangePosition,
  type ChangeRangeRow,
  type ChangedRecord,
  type RangeStart,
  type RecordValues,
} from './change-log-queries.js';

export interface RecordRequest {
  /** Only the rows of these data sets (default: all). */
  datasets?: readonly ChangeDataset[];
  /** The served documents. */
  documents?: boolean;
  /** The filter and sort values. */
  values?: boolean;
}

export interface ChangeRangeOptions {
  /** Entries to read, matching or not. */
  scanRows: number;
  /** Most matching entries returned (default scanRows). */
  maxChanges?: number;
  /** Only these data sets; undefined for all. */
  datasets?: readonly ChangeDataset[];
  /** The changed rows to read with the entries; none when undefined. */
  records?: RecordRequest;
}

export interface ChangeRange {
  /** The log's head and pruned horizon in the read's snapshot. */
  bounds: ChangeLogBounds;
  /** Where the read started (the pruned horizon when no position was given). */
  start: ChangePosition;
  /** Entries read, matching or not: fewer than asked means the read reached the head. */
  scanned: number;
  /** The last entry read, matching or not; undefined when none was. */
  last: ChangePosition | undefined;
  /** The entries of the selected data sets among those read, in log order. */
  changes: Change[];
}

const ALL_DATASETS = RECORD_SOURCES.map((source) => source.dataset);
const VALUE_COLUMNS = new Map(RECORD_SOURCES.map((source) => [source.dataset, source.valueColumns]));

/**
 * Reads the entries after a position (or after the pruned horizon) in one statement. The caller
 * checks the start against the bounds: a start behind the pruned horizon has missed entries.
 */
export async function readChangeRange(db: Queryable, after: RangeStart, options: ChangeRangeOptions): Promise<ChangeRange> {
  const records = options.records;
  const rows = await queryChangeRange(db, {
    after,
    scanRows: options.scanRows,
    datasets: options.datasets,
    maxChanges: options.maxChanges ?? options.scanRows,
    recordDatasets: records ? (records.datasets ?? ALL_DATASETS) : [],
    documents: records?.documents === true,
    values: records?.values === true,
  });
  const first = rows[0]!;
  const changes: Change[] = [];
  for (const row of rows) {
    if (row.seq === null || row.id === null) continue;
    const record = changedRecord(row, records);
    changes.push({
      position: { seq: row.seq, changeId: row.id },
      dataset: row.dataset,
      id: row.record_id,
      key: row.record_key,
      op: row.op,
      changedAt: row.committed_at,
      ...(record && { record }),
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

function changedRecord(row: ChangeRangeRow, request: RecordRequest | undefined): ChangedRecord | undefined {
  if (row.row_key === null) return undefined;
  const record: ChangedRecord = { key: row.row_key };
  if (request?.documents && row.doc !== null) record.doc = typeof row.doc === 'string' ? row.doc : row.doc.toString('utf8');
  if (request?.values) {
    const read = JSON.parse(row.values!) as RecordValues[string][];
    const values: RecordValues = { id: row.record_id, sort_ms: 0 };
    for (const [i, name] of VALUE_COLUMNS.get(row.dataset)!.entries()) values[name] = read[i] ?? null;
    record.values = values;
  }
  return record;
}
