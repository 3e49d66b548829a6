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

/** The documents to read of one table: these ids, and each row's natural key and sort time when `keyColumn` is given. */
export interface DocumentsOfTable {
  table: string;
  ids: readonly number[];
  /** Also read each row's natural key from this column, and its sort time (a view that serves another form needs them). */
  keyColumn?: string;
}

export interface Documents {
  /** Per table asked, in the order asked: the documents found (JSON text) by id; ids not found are absent. */
  tables: {
    docs: Map<number, string>;
    /** Their rows' natural keys as text, by id, when a key column was asked for (else empty). */
    keys: Map<number, string>;
    /** Their rows' sort_at (epoch milliseconds), by id, when a key column was asked for (else empty). */
    sorts: Map<number, number>;
  }[];
  /** The change log's head in the same snapshot as the documents. */
  head: ChangePosition;
}

/**
 * The documents of these ids, of one table or several, and the change log's head, in one statement:
 * when the head is the position the caller's index was current at, the documents are exactly those
 * the index picked, as of that position.
 */
export async function documentsWithHead(db: Queryable, reads: readonly DocumentsOfTable[]): Promise<Documents> {
  const parts = reads.map(({ table, keyColumn }, i) => {
    const key = keyColumn === undefined ? 'NULL::text' : `t.${keyColumn}::text`;
    const sort = keyColumn === undefined ? 'NULL::float8' : indexValueSql('t.sort_at', 'timestamptz');
    return `SELECT ${i} AS part, t.id, t.doc, ${key} AS key, ${sort} AS sort_ms FROM ${table} t WHERE t.id = ANY($${i + 1}::bigint[])`;
  });
  const rows = await db.query<
    BoundsRow & { part: number | null; id: number | null; doc: string | null; key: string | null; sort_ms: number | null }
  >(
    `SELECT b.*, d.part, d.id, d.doc, d.key, d.sort_ms
       FROM (${BOUNDS_SQL}) b
       LEFT JOIN LATERAL (${parts.join(' UNION ALL ')}) d ON true`,
    reads.map(({ ids }) => ids),
  );
  const tables = reads.map(() => ({
    docs: new Map<number, string>(),
    keys: new Map<number, string>(),
    sorts: new Map<number, number>(),
  }));
  for (const row of rows) {
    if (row.id === null) continue;
    const table = tables[row.part!]!;
    table.docs.set(row.id, row.doc!);
    if (row.key !== null) table.keys.set(row.id, row.key);
    if (row.sort_ms !== null) table.sorts.set(row.id, Number(row.sort_ms));
  }
  return { tables, head: boundsOf(rows[0]!).head };
}

/** A websearch question (English configuration) as the tsquery PostgreSQL makes of it, printed; '' when it has no word. */
export async function websearchTsQuery(db: Queryable, query: string): Promise<string> {
  const rows = await db.query<{ tsquery: string }>(`SELECT websearch_to_tsquery('english'::regconfig, $1)::text AS tsquery`, [
    query,
  ]);
  return rows[0]!.tsquery;
}

/**
 * The ids of the rows of `table` whose words (`words`: a table of a tsvector by row id, under a GIN
 * index) match each tsquery (comma-separated, null for none; the tsquery '' stands for every row
 * of `table`), and the change log's head of the same snapshot, in one statement.
 */
export async function fullTextIdsWithHead(
  db: Queryable,
  source: { table: string; words: { table: string; idColumn: string; column: string } },
  tsqueries: readonly string[],
): Promise<{ ids: (string | null)[]; head: ChangePosition }> {
  const { table, words } = source;
  const params = tsqueries.filter((tsquery) => tsquery !== '');
  const lists = tsqueries.map((tsquery, i) =>
    tsquery === ''
      ? `(SELECT string_agg(t.id::text, ',') FROM ${table} t) AS ids${i}`
      : `(SELECT string_agg(w.${words.idColumn}::text, ',') FROM ${words.table} w
           WHERE w.${words.column} @@ $${params.indexOf(tsquery) + 1}::tsquery) AS ids${i}`,
  );
  const rows = await db.query<BoundsRow & Record<string, string | null>>(
    `SELECT b.*, ${lists.join(', ')} FROM (${BOUNDS_SQL}) b`,
    params,
  );
  const row = rows[0]!;
  return { ids: tsqueries.map((_, i) => row[`ids${i}`] ?? null), head: boundsOf(row).head };
}
