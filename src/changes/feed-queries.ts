// The changes feed's count (GET /api/v2/changes?count=true): the number of changes after a
// position. Its pages are read by the change log's one reader (src/changes/change-reader.ts).
import type { Queryable } from '../platform/db/index.js';
import {
  BOUNDS_SQL,
  boundsOf,
  START_CTE,
  type BoundsRow,
  type ChangeDataset,
  type ChangeLogBounds,
  type ChangePosition,
  type RangeStart,
} from './change-log-queries.js';

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
  after: RangeStart,
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
