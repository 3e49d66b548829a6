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
  return db.query<LinkedRow>(`SELECT id::float8 AS id, ${links}, doc FROM ${table} WHERE id > $1 ORDER BY id LIMIT $2`, [
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

/** A company's stored document: by id, or by its website or LinkedIn key (imported first, then the oldest). */
export async function companyDocument(
  db: Queryable,
  by: { id: string } | { websiteKey: string } | { linkedinKey: string },
): Promise<string | undefined> {
  const [column, value] =
    'id' in by ? ['record_id', by.id] : 'websiteKey' in by ? ['website_key', by.websiteKey] : ['linkedin_key', by.linkedinKey];
  const rows = await db.query<{ doc: string }>(
    `SELECT doc FROM companies WHERE ${column} = $1 ORDER BY (origin = 'import') DESC, id LIMIT 1`,
    [value],
  );
  return rows[0]?.doc;
}

/** The raw counts behind a company's signal summary, in one statement. */
export interface SignalCountsRow {
  rounds: number;
  raised: { currency: string | null; amount: number }[];
  latest_round: { date: string | null; round_type: string | null; amount: number | null; currency: string | null } | null;
  investors: string[];
  deals_target: number;
  deals_acquirer: number;
  latest_deal: string | null;
  joined_30: number;
  joined_90: number;
  joined_365: number;
  left_30: number;
  left_90: number;
  left_365: number;
  acquisition: { score: number | null; indicators: string[] | null; date: string } | null;
}

export async function signalCounts(db: Queryable, companyId: string, now: Date): Promise<SignalCountsRow> {
  const rows = await db.query<SignalCountsRow>(
    `WITH rounds AS (
       SELECT funding_amount, sort_at, doc::json AS doc FROM funding_rounds WHERE company_id = $1::uuid
     ), joined AS (
       SELECT sort_at FROM job_changes
        WHERE company_id = $1::uuid AND sort_at >= $2::timestamptz - interval '365 days' AND sort_at <= $2::timestamptz
     ), left_ AS (
       SELECT sort_at FROM job_changes
        WHERE previous_company_id = $1::uuid AND sort_at >= $2::timestamptz - interval '365 days' AND sort_at <= $2::timestamptz
     )
     SELECT
       (SELECT count(*)::int FROM rounds) AS rounds,
       (SELECT coalesce(json_agg(json_build_object('currency', currency, 'amount', amount) ORDER BY currency NULLS LAST), '[]'::json)
          FROM (SELECT doc->>'currency' AS currency, sum(funding_amount)::float8 AS amount FROM rounds GROUP BY 1) t) AS raised,
       (SELECT json_build_object('date', to_char(sort_at AT TIME ZONE 'UTC', 'YYYY-MM-DD'), 'round_type', doc->>'round_type',
                                 'amount', funding_amount::float8, 'currency', doc->>'currency')
          FROM rounds ORDER BY sort_at DESC LIMIT 1) AS latest_round,
       (SELECT coalesce(json_agg(name ORDER BY name), '[]'::json)
          FROM (SELECT DISTINCT i->>'name' AS name FROM rounds, json_array_elements(doc->'investors') i
                 WHERE i->>'name' IS NOT NULL ORDER BY 1 LIMIT 50) n) AS investors,
       (SELECT count(*)::int FROM ma_deals WHERE company_id = $1::uuid) AS deals_target,
       (SELECT count(*)::int FROM ma_deals WHERE acquirer_company_id = $1::uuid) AS deals_acquirer,
       (SELECT to_char(max(sort_at) AT TIME ZONE 'UTC', 'YYYY-MM-DD') FROM ma_deals
         WHERE company_id = $1::uuid OR acquirer_company_id = $1::uuid) AS latest_deal,
       (SELECT count(*) FILTER (WHERE sort_at >= $2::timestamptz - interval '30 days')::int FROM joined) AS joined_30,
       (SELECT count(*) FILTER (WHERE sort_at >= $2::timestamptz - interval '90 days')::int FROM joined) AS joined_90,
       (SELECT count(*)::int FROM joined) AS joined_365,
       (SELECT count(*) FILTER (WHERE sort_at >= $2::timestamptz - interval '30 days')::int FROM left_) AS left_30,
       (SELECT count(*) FILTER (WHERE sort_at >= $2::timestamptz - interval '90 days')::int FROM left_) AS left_90,
       (SELECT count(*)::int FROM left_) AS left_365,
       (SELECT json_build_object('score', (doc::json->>'acquisitionSignalScore')::float8,
                                 'indicators', doc::json->'signalIndicators',
                                 'date', to_char(sort_at AT TIME ZONE 'UTC', 'YYYY-MM-DD'))
          FROM acquisition_signals WHERE company_id = $1::uuid ORDER BY sort_at DESC, id DESC LIMIT 1) AS acquisition`,
    [companyId, now.toISOString()],
    // Planning these subqueries costs more than running them (about 1.6 ms against 0.5 on the large set).
    { prepared: 'company_signal_counts' },
  );
  return rows[0]!;
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
