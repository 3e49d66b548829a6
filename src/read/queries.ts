// What the in-memory read model (src/read/read-model.ts) reads: each record's filter and sort
// values when it builds (the change log's reader reads them for the changed records), and the
// documents of a page by id, together with the change log's head of the same snapshot.
import { indexValueSql, type Queryable } from '../platform/db/index.js';
import { BOUNDS_SQL, boundsOf, type BoundsRow, type ChangePosition } from '../changes/index.js';
import type { ColumnSpec } from '../catalog/index.js';

/** A row's filter values by column, as the index takes them: text, text[] or a number. */
export interface IndexRow {
  id: number;
  /** sort_at in ms since the epoch (microseconds as the fraction). */
  sort_ms: number;
  [column: string]: string | number | string[] | null;
}

export interface IndexSource {
  table: string;
  /** The filter columns (sort_at aside). */
  columns: readonly { name: string; type: ColumnSpec<never>['type'] }[];
}

function selectList(source: IndexSource): string {
  const columns = source.columns.map(({ name, type }) => `${indexValueSql(name, type)} AS ${name}`);
  return ['id', `${indexValueSql('sort_at', 'timestamptz')} AS sort_ms`, ...columns].join(', ');
}

/** Up to limit rows with an id above afterId, in id order: how the index is built, batch by batch. */
export function indexRowsAfter(db: Queryable, source: IndexSource, afterId: number, limit: number): Promise<IndexRow[]> {
  return db.query<IndexRow>(`SELECT ${selectList(source)} FROM ${source.table} WHERE id > $1 ORDER BY id LIMIT $2`, [
    afterId,
    limit,
  ]);
}

export interface Documents {
  /** The documents found (JSON text) by id; ids not found are absent. */
  docs: Map<number, string>;
  /** Their rows' natural keys as text, by id, when a key column was asked for (else empty). */
  keys: Map<number, string>;
  /** The change log's head in the same snapshot as the documents. */
  head: ChangePosition;
}

/**
 * The documents of these ids and the change log's head, in one statement: when the head is the
 * position the caller's index was current at, the documents are exactly those the index picked,
 * as of that position.
 */
export async function documentsWithHead(
  db: Queryable,
  table: string,
  ids: readonly number[],
  /** Also read each row's natural key from this column (a view that serves another form needs it). */
  keyColumn?: string,
): Promise<Documents> {
  const key = keyColumn === undefined ? 'NULL::text' : `t.${keyColumn}::text`;
  const rows = await db.query<BoundsRow & { id: number | null; doc: string | null; key: string | null }>(
    `SELECT b.*, d.id, d.doc, d.key
       FROM (${BOUNDS_SQL}) b
       LEFT JOIN LATERAL (SELECT t.id, t.doc, ${key} AS key FROM ${table} t WHERE t.id = ANY($1::bigint[])) d ON true`,
    [ids],
  );
  const docs = new Map<number, string>();
  const keys = new Map<number, string>();
  for (const row of rows) {
    if (row.id === null) continue;
    docs.set(row.id, row.doc!);
    if (row.key !== null) keys.set(row.id, row.key);
  }
  return { docs, keys, head: boundsOf(rows[0]!).head };
}
