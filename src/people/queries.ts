// The rows people are made from: job changes, funding rounds and M&A deals (the people they name),
// the signals of each company (its funding rounds, deals and acquisition signals) and the companies.
// Each row is read as the change log hands the directory a changed row (its id, document, date and
// company links), so one function (sources.ts) makes people from either.
import type { Queryable } from '../platform/db/index.js';
import { BOUNDS_SQL, boundsOf, type BoundsRow, type ChangePosition } from '../changes/index.js';

/** A row as sources.ts reads it: the row's id, its document, its date and the companies it is linked to. */
export interface SourceRow {
  id: number;
  doc: string;
  sort_ms: number;
  company_id: string | null;
  acquirer_company_id: string | null;
}

/** The tables people and signals are read from, by the dataset name the change log gives them. */
export const SOURCE_TABLES = {
  'job-changes': { table: 'job_changes', acquirer: false },
  funding: { table: 'funding_rounds', acquirer: false },
  'm-a': { table: 'ma_deals', acquirer: true },
  acquisitions: { table: 'acquisition_signals', acquirer: false },
} as const;
export type SourceDataset = keyof typeof SOURCE_TABLES;

/**
 * A source table's rows `where` selects (at most `limit`, in id order), as SourceRows. The document
 * goes whole: picking its fields in SQL (`doc::json->'field'`) parses the text once a field and
 * costs the database several times what parsing it in Node costs (funding rounds, 20,000 rows:
 * 2.0 s against 0.4 s).
 */
function sourceRows(dataset: SourceDataset, where: string, limit: string): string {
  const { table } = SOURCE_TABLES[dataset];
  // Ordered by the table's id: a bare `id` would name the float8 output column, which no index serves.
  return `SELECT ${rowColumns(dataset)} FROM ${table} WHERE ${where} ORDER BY ${table}.id LIMIT ${limit}`;
}

/** A SourceRow's columns. */
function rowColumns(dataset: SourceDataset): string {
  const acquirer = SOURCE_TABLES[dataset].acquirer ? 'acquirer_company_id::text' : 'NULL::text';
  return `id::float8 AS id, doc, (extract(epoch FROM sort_at) * 1000)::float8 AS sort_ms,
          company_id::text AS company_id, ${acquirer} AS acquirer_company_id`;
}

/** One batch of a table's rows after an id, in id order (the directory's build). */
export function sourceRowsAfter(db: Queryable, dataset: SourceDataset, afterId: number, limit: number): Promise<SourceRow[]> {
  return db.query<SourceRow>(sourceRows(dataset, 'id > $1', '$2'), [afterId, limit]);
}

/**
 * The rows of several tables by id and the change log's head, in one statement (the rows a page of
 * people is served from): when the head is the position the directory stood at, the rows are those
 * it picked the page from.
 */
export async function sourceRowsWithHead(
  db: Queryable,
  ids: ReadonlyMap<SourceDataset, readonly number[]>,
): Promise<{ rows: (SourceRow & { dataset: SourceDataset })[]; head: ChangePosition }> {
  const asked = [...ids].filter(([, list]) => list.length > 0);
  const selects = asked.map(
    ([dataset], i) =>
      `SELECT '${dataset}' AS dataset, ${rowColumns(dataset)} FROM ${SOURCE_TABLES[dataset].table} WHERE id = ANY($${i + 1}::bigint[])`,
  );
  const rows = await db.query<BoundsRow & Partial<SourceRow> & { dataset: SourceDataset | null }>(
    selects.length === 0
      ? BOUNDS_SQL
      : `SELECT b.*, d.* FROM (${BOUNDS_SQL}) b LEFT JOIN LATERAL (${selects.join(' UNION ALL ')}) d ON true`,
    asked.map(([, list]) => list),
  );
  const found = rows.filter((row): row is typeof row & SourceRow & { dataset: SourceDataset } => row.dataset != null);
  return { rows: found, head: boundsOf(rows[0]!).head };
}

export interface CompanyDocRow {
  record_id: string;
  doc: string;
}

const companyRows = (where: string, limit: string) =>
  `SELECT record_id::text AS record_id, doc FROM companies WHERE ${where} ORDER BY companies.record_id LIMIT ${limit}`;

/** One batch of the companies after a record id, in record id order. */
export function companiesAfter(db: Queryable, afterId: string, limit: number): Promise<CompanyDocRow[]> {
  return db.query<CompanyDocRow>(companyRows('record_id > $1::uuid', '$2'), [afterId, limit]);
}

/** The companies of these ids (those that exist). */
export function companiesByIds(db: Queryable, ids: readonly string[]): Promise<CompanyDocRow[]> {
  return db.query<CompanyDocRow>(companyRows('record_id = ANY($1::uuid[])', 'ALL'), [ids]);
}

/** A company's newest row of a signal table, with the company it is the newest of. */
export interface LatestSignalRow extends SourceRow {
  company: string;
}

/**
 * The newest row of a signal table linked to each of these companies (newest date, then highest
 * id); for M&A deals, the newest as target and the newest as acquirer.
 */
export function latestSignalRows(
  db: Queryable,
  dataset: Exclude<SourceDataset, 'job-changes'>,
  ids: readonly string[],
): Promise<LatestSignalRow[]> {
  const { table, acquirer } = SOURCE_TABLES[dataset];
  // Qualified names: a bare `id` in ORDER BY would name the float8 output column.
  const newest = (column: string) =>
    `(SELECT DISTINCT ON (t.${column}) t.${column}::text AS company, ${rowColumns(dataset)}
        FROM ${table} t WHERE t.${column} = ANY($1::uuid[]) ORDER BY t.${column}, t.sort_at DESC, t.id DESC)`;
  return db.query<LatestSignalRow>(
    acquirer ? `${newest('company_id')} UNION ALL ${newest('acquirer_company_id')}` : newest('company_id'),
    [ids],
  );
}
