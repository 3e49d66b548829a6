// What company resolution reads: the companies a batch of mentions may name, by their keys, and
// the documents of those it may fill.
import type { Queryable } from '../platform/db/index.js';

/** A stored company as resolution compares it: its keys, where it came from, its place in the table. */
export interface CompanyKeyRow {
  /** The table's row id: among equal candidates the oldest wins. */
  id: number;
  record_id: string;
  origin: 'import' | 'records';
  website_key: string | null;
  linkedin_key: string | null;
  name_key: string | null;
  country_key: string | null;
  industry_key: string | null;
  employee_count: number | null;
  founded_year: number | null;
}

/** Every company with one of these website domains, LinkedIn pages or name keys. */
export function companiesByKeys(
  db: Queryable,
  keys: { domains: readonly string[]; linkedins: readonly string[]; names: readonly string[] },
): Promise<CompanyKeyRow[]> {
  return db.query<CompanyKeyRow>(
    `SELECT id::float8 AS id, record_id::text AS record_id, origin, website_key, linkedin_key, name_key, country_key,
            industry_key, employee_count, founded_year
       FROM companies
      WHERE website_key = ANY($1::text[]) OR linkedin_key = ANY($2::text[]) OR name_key = ANY($3::text[])`,
    [keys.domains, keys.linkedins, keys.names],
  );
}

/** The stored documents of these companies, by id. */
export async function companyDocuments(db: Queryable, recordIds: readonly string[]): Promise<Map<string, string>> {
  if (recordIds.length === 0) return new Map();
  const rows = await db.query<{ record_id: string; doc: string }>(
    `SELECT record_id::text AS record_id, doc FROM companies WHERE record_id = ANY($1::uuid[])`,
    [recordIds],
  );
  return new Map(rows.map((row) => [row.record_id, row.doc]));
}

/** A stored record of a dataset with links: its row id, its links as stored, its document. */
export interface LinkedRow {
  id: number;
  doc: string;
  [linkColumn: string]: string | number | null;
}

/** Up to `limit` rows after `afterId`, in id order, with their link columns (names from the declarations). */
export function linkedRowsAfter(
  db: Queryable,
  table: string,
  linkColumns: readonly string[],
  afterId: number,
  limit: number,
): Promise<LinkedRow[]> {
  const links = linkColumns.map((column) => `${column}::text AS ${column}`).join(', ');
  // Ordered by the table's id: a bare `id` would name the float8 output column, and every batch would
  // sort the rest of the table (no index serves the cast).
  return db.query<LinkedRow>(`SELECT id::float8 AS id, ${links}, doc FROM ${table} WHERE id > $1 ORDER BY ${table}.id LIMIT $2`, [
    afterId,
    limit,
  ]);
}

/** Rewrites the links and documents of these rows (by row id) in one statement. */
export async function updateLinks(
  db: Queryable,
  table: string,
  linkColumns: readonly string[],
  rows: readonly { id: number; doc: string; links: readonly (string | null)[] }[],
): Promise<void> {
  if (rows.length === 0) return;
  const values = rows.map((row) => ({
    id: row.id,
    doc: row.doc,
    ...Object.fromEntries(linkColumns.map((c, i) => [c, row.links[i]])),
  }));
  await db.query(
    `UPDATE ${table} t SET ${linkColumns.map((c) => `${c} = v.${c}`).join(', ')}, doc = v.doc
       FROM json_to_recordset($1::json) AS v(id bigint, doc text, ${linkColumns.map((c) => `${c} uuid`).join(', ')})
      WHERE t.id = v.id`,
    [JSON.stringify(values)],
  );
}

/**
 * Rewrites these rows (by row id) in one statement: every column given, as the dataset prepared it
 * (a dataset that adopts its companies' fields: its filter columns change with them).
 */
export async function updateRows(
  db: Queryable,
  table: string,
  columns: readonly { name: string; type: string }[],
  rows: readonly { id: number; values: Record<string, unknown> }[],
): Promise<void> {
  if (rows.length === 0) return;
  const values = rows.map((row) => {
    const doc = row.values.doc;
    return { ...row.values, id: row.id, ...(Buffer.isBuffer(doc) && { doc: doc.toString('utf8') }) };
  });
  await db.query(
    `UPDATE ${table} t SET ${columns.map((c) => `${c.name} = v.${c.name}`).join(', ')}
       FROM json_to_recordset($1::json) AS v(id bigint, ${columns.map((c) => `${c.name} ${c.type}`).join(', ')})
      WHERE t.id = v.id`,
    [JSON.stringify(values)],
  );
}

/**
 * Deletes the companies made from records that no record links to any more (a companies import
 * took their records over, or the records are gone); returns how many. `links` lists every link
 * column of every table. An imported company is never deleted here.
 */
export async function deleteUnlinkedCompanies(
  db: Queryable,
  links: readonly { table: string; column: string }[],
): Promise<number> {
  const unlinked = links.map(({ table, column }) => `NOT EXISTS (SELECT 1 FROM ${table} r WHERE r.${column} = c.record_id)`);
  const rows = await db.query<{ n: number }>(
    `WITH gone AS (DELETE FROM companies c WHERE c.origin = 'records' AND ${unlinked.join(' AND ')} RETURNING 1)
     SELECT count(*)::int AS n FROM gone`,
  );
  return rows[0]!.n;
}
