import type { ColumnSpec } from '../catalog/index.js';
import type { Queryable } from '../platform/db/index.js';

export interface TableSpec<R> {
  table: string;
  /** The natural key: a second write of the same record updates it instead of adding one. */
  conflictKey: keyof R & string;
  columns: ColumnSpec<R>[];
}

/** What one upsert did: rows added, and existing rows whose content changed (the others were left alone). */
export interface UpsertResult {
  inserted: number;
  updated: number;
}

/** A batch's statement with its parameters, built ahead of running it. */
export interface PreparedUpsert {
  sql: string;
  /** Strings, or UTF-8 bytes for joined text (PostgreSQL reads binary text parameters as is). */
  params: (string | Buffer)[];
}

export interface Upserter<R> {
  (db: Queryable, rows: readonly R[]): Promise<UpsertResult>;
  /**
   * Encodes a batch without running it (undefined when empty): the CPU work of a batch, which
   * a bulk loader can do while the previous batch's statement runs.
   */
  prepare(rows: readonly R[]): PreparedUpsert | undefined;
  /** The same batch as rows of the table's stage (migration 017) for one import, in its write batch `batch`. */
  prepareStage(rows: readonly R[], importId: string, batch: number): PreparedUpsert | undefined;
  /**
   * Upserts one import's staged rows of write batches [from, to) into the table; the result counts
   * as an upsert's does. With `repeats` (a key staged more than once, or not known not to be) the
   * latest staged row of each key, in key order, which is only right over all the import's
   * batches at once; without, every staged row as it comes, which spares a sort of the documents.
   * The stage's rows stay (see discardStagedSlice).
   */
  publishStaged(db: Queryable, importId: string, batches: { from: number; to: number }, repeats: boolean): Promise<UpsertResult>;
}

/** The stage of a data table (migration 017): where the embedded store's imports write before they publish. */
export const stageTable = (table: string): string => `${table}_stage`;

/** Runs a prepared stage batch; the rows staged. */
export async function runStage(db: Queryable, prepared: PreparedUpsert | undefined): Promise<number> {
  if (!prepared) return 0;
  const result = await db.query<{ staged: number }>(prepared.sql, prepared.params);
  return result[0]?.staged ?? 0;
}

/** Runs a prepared batch. */
export async function runUpsert(db: Queryable, prepared: PreparedUpsert | undefined): Promise<UpsertResult> {
  if (!prepared) return { inserted: 0, updated: 0 };
  const result = await db.query<UpsertResult>(prepared.sql, prepared.params);
  return result[0] ?? { inserted: 0, updated: 0 };
}

/**
 * Joins a text column's values for string_to_array(): U+001E (record separator) never occurs
 * in JSON text (control characters are escaped), nor, in practice, in names and keys; a batch
 * where it does, or where a value is null, sends that column inside the JSON parameter instead.
 * A text value may also arrive as its UTF-8 bytes (a bulk loader keeps large documents out of
 * the JavaScript heap that way); the joined column is then sent as bytes, which PostgreSQL reads
 * as the text they encode.
 */
const SEPARATOR = '\u001e';
const SEPARATOR_BYTE = 0x1e;
const SEPARATOR_BUFFER = Buffer.from([SEPARATOR_BYTE]);

function splittable(values: unknown[]): boolean {
  // A lone empty value would split into no element at all.
  if (values.length === 1 && (values[0] === '' || (Buffer.isBuffer(values[0]) && values[0].length === 0))) return false;
  for (const value of values) {
    if (typeof value === 'string') {
      if (value.includes(SEPARATOR)) return false;
    } else if (!Buffer.isBuffer(value) || value.includes(SEPARATOR_BYTE)) {
      return false;
    }
  }
  return true;
}

/** The values joined by the separator: a string, or UTF-8 bytes when any value is bytes. */
function joinValues(values: unknown[]): string | Buffer {
  if (!values.some((value) => Buffer.isBuffer(value))) return values.join(SEPARATOR);
  const parts: Buffer[] = [];
  values.forEach((value, i) => {
    if (i > 0) parts.push(SEPARATOR_BUFFER);
    parts.push(Buffer.isBuffer(value) ? value : Buffer.from(value as string, 'utf8'));
  });
  return Buffer.concat(parts);
}

/**
 * Builds the multi-row upsert of a table: one statement per batch, whatever its size. Rows
 * travel in as few, cheap-to-encode parameters as possible: every plain text column (the
 * prepared JSON documents above all) as one string joined by U+001E and split server-side,
 * the other columns as one JSON array of objects read by json_to_recordset, the two zipped
 * by ROWS FROM. A row whose columns are all unchanged is not rewritten, so re-importing a
 * batch changes nothing; the result counts inserted rows (xmax = 0) and updated ones.
 */
export function upserter<R>(spec: TableSpec<R>): Upserter<R> {
  const names = spec.columns.map((c) => c.name);
  const updatable = names.filter((n) => n !== spec.conflictKey);
  const conflict = `ON CONFLICT (${spec.conflictKey}) DO UPDATE SET ${updatable.map((n) => `${n} = EXCLUDED.${n}`).join(', ')}
      WHERE (${updatable.map((n) => `${spec.table}.${n}`).join(', ')}) IS DISTINCT FROM (${updatable.map((n) => `EXCLUDED.${n}`).join(', ')})`;
  const statements = new Map<string, { sql: string; pick: ((row: R) => object) | undefined }>();
  const stage = stageTable(spec.table);

  /**
   * The statement for a set of split text columns (bit i set: column i travels joined), into the
   * table itself or into its stage (two more parameters first: the import's id and batch).
   */
  const statement = (mask: number, staged: boolean) => {
    const id = `${staged ? 'stage' : 'table'}:${mask}`;
    let found = statements.get(id);
    if (found) return found;
    const jsonColumns = spec.columns.filter((_, i) => (mask & (1 << i)) === 0);
    const splitColumns = spec.columns.filter((_, i) => (mask & (1 << i)) !== 0);
    const sources: string[] = [];
    let param = staged ? 3 : 1;
    if (jsonColumns.length > 0) {
      sources.push(`json_to_recordset($${param++}::json) AS (${jsonColumns.map((c) => `${c.name} ${c.type}`).join(', ')})`);
    }
    for (let i = 0; i < splitColumns.length; i++) sources.push(`unnest(string_to_array($${param++}::text, E'\\x1e'))`);
    const aliases = [...jsonColumns, ...splitColumns].map((c) => c.name);
    const rows = `ROWS FROM (${sources.join(', ')}) AS r(${aliases.join(', ')})`;
    const sql = staged
      ? `
      WITH staged AS (
        INSERT INTO ${stage} (import_id, batch, ${names.join(', ')})
        SELECT $1::uuid, $2::int, ${names.map((n) => `r.${n}`).join(', ')}
          FROM ${rows}
        RETURNING 1)
      SELECT count(*)::int AS staged FROM staged`
      : `
      WITH written AS (
        INSERT INTO ${spec.table} (${names.join(', ')})
        SELECT ${names.map((n) => `r.${n}`).join(', ')}
          FROM ${rows}
        ${conflict}
        RETURNING (xmax = 0) AS inserted)
      SELECT count(*) FILTER (WHERE inserted)::int AS inserted, count(*) FILTER (WHERE NOT inserted)::int AS updated
        FROM written`;
    // The JSON columns of a row as a fresh object of one shape: JSON.stringify's fast path.
    const pick =
      jsonColumns.length === 0
        ? undefined
        : (row: R) => {
            const picked: Record<string, unknown> = {};
            for (const column of jsonColumns) {
              const value: unknown = row[column.name];
              picked[column.name] = Buffer.isBuffer(value) ? value.toString('utf8') : value;
            }
            return picked;
          };
    found = { sql, pick };
    statements.set(id, found);
    return found;
  };

  const encode = (rows: readonly R[], staged: boolean): PreparedUpsert | undefined => {
    if (rows.length === 0) return undefined;
    let mask = 0;
    const joined: (string | Buffer)[] = [];
    spec.columns.forEach((column, i) => {
      if (column.type !== 'text') return;
      const values = rows.map((row) => row[column.name]);
      if (!splittable(values)) return;
      mask |= 1 << i;
      joined.push(joinValues(values));
    });
    const { sql, pick } = statement(mask, staged);
    const params: (string | Buffer)[] = [];
    if (pick) params.push(JSON.stringify(rows.map(pick)));
    params.push(...joined);
    return { sql, params };
  };
  const prepare = (rows: readonly R[]) => encode(rows, false);
  const prepareStage = (rows: readonly R[], importId: string, batch: number) => {
    const prepared = encode(rows, true);
    if (prepared) prepared.params.unshift(importId, String(batch));
    return prepared;
  };
  // DISTINCT ON keeps each key's latest batch (an upsert may not touch a row twice), and in key
  // order concurrent writers of overlapping keys lock them in the same order. Without repeats,
  // the rows go as they are: on the embedded store, the only one that stages by default, two
  // transactions never run at once, and sorting 10,000 documents took a sixth of the publishing one.
  const publishSql = (repeats: boolean) => `
      WITH written AS (
        INSERT INTO ${spec.table} (${names.join(', ')})
        SELECT ${repeats ? `DISTINCT ON (s.${spec.conflictKey}) ` : ''}${names.map((n) => `s.${n}`).join(', ')}
          FROM ${stage} s
         WHERE s.import_id = $1::uuid AND s.batch >= $2::int AND s.batch < $3::int
         ${repeats ? `ORDER BY s.${spec.conflictKey}, s.batch DESC` : ''}
        ${conflict}
        RETURNING (xmax = 0) AS inserted)
      SELECT count(*) FILTER (WHERE inserted)::int AS inserted, count(*) FILTER (WHERE NOT inserted)::int AS updated
        FROM written`;
  const publishStaged = (db: Queryable, importId: string, batches: { from: number; to: number }, repeats: boolean) =>
    runUpsert(db, { sql: publishSql(repeats), params: [importId, String(batches.from), String(batches.to)] });
  return Object.assign((db: Queryable, rows: readonly R[]) => runUpsert(db, prepare(rows)), {
    prepare,
    prepareStage,
    publishStaged,
  });
}
