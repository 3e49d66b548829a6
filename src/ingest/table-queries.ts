// What the dataset machinery (ingest, seed) asks of the database besides pages and upserts.
import type { Database, Queryable } from '../platform/db/index.js';
import { byDatasetName, DATASETS, type DatasetName } from '../catalog/index.js';

const toastSettings = new WeakMap<Database, string[]>();

/**
 * Session settings of an import on PostgreSQL: documents written with lz4 TOAST compression
 * when the server has it (several times cheaper to compress than the default pglz, and faster
 * to read back); values stored earlier are read either way. Asked on the import's own
 * connection, so an import never waits for a second one.
 */
export async function importSettings(db: Database, tx: Queryable): Promise<string[]> {
  if (db.kind !== 'postgres') return [];
  let settings = toastSettings.get(db);
  if (!settings) {
    const rows = await tx.query<{ lz4: boolean }>(
      `SELECT coalesce(bool_or('lz4' = ANY(enumvals)), false) AS lz4 FROM pg_settings WHERE name = 'default_toast_compression'`,
    );
    settings = rows[0]?.lz4 ? ["SET LOCAL default_toast_compression = 'lz4'"] : [];
    toastSettings.set(db, settings);
  }
  return settings;
}

/** The natural key column of a table, and how its type is written in SQL. */
export interface KeyColumn {
  table: string;
  column: string;
  type: 'text' | 'uuid';
}

/**
 * Which of keys name rows this transaction itself has written (their xmin is its id): an import
 * writing a key a second time tells a row it changed earlier from one it found unchanged.
 */
export async function keysWrittenInThisTransaction(tx: Queryable, key: KeyColumn, keys: string[]): Promise<Set<string>> {
  const rows = await tx.query<{ key: string }>(
    `SELECT ${key.column}::text AS key FROM ${key.table}
      WHERE ${key.column} = ANY($1::${key.type}[]) AND xmin = pg_current_xact_id()::xid`,
    [keys],
  );
  return new Set(rows.map((r) => r.key));
}

/**
 * Fresh statistics (and, on PostgreSQL, a fresh visibility map) after a bulk load, so the
 * planner picks the indexes and index-only scans work. One statement per table: a
 * multi-statement string runs as one transaction, where VACUUM is refused.
 */
export async function analyzeTables(db: Database, tables: readonly string[]): Promise<void> {
  for (const table of tables) {
    const sql = `${db.kind === 'postgres' ? 'VACUUM ANALYZE' : 'ANALYZE'} ${table}`;
    // Not bound by STATEMENT_TIMEOUT_MS: on the large set a VACUUM takes longer than any request may.
    await (db.maintenance ? db.maintenance(sql) : db.exec(sql));
  }
}

/** Exact row counts of the tables, in one statement. */
export async function countRows(db: Queryable, tables: readonly string[]): Promise<number[]> {
  if (tables.length === 0) return [];
  const rows = await db.query<Record<string, number>>(
    `SELECT ${tables.map((table, i) => `(SELECT count(*)::int FROM ${table}) AS n${i}`).join(', ')}`,
  );
  return tables.map((_, i) => rows[0]![`n${i}`]!);
}

/** Rows per dataset. */
export type DatasetRowCounts = Readonly<Record<DatasetName, number>>;

/** Exact row counts of every dataset's table, in one statement. */
export async function countDatasetRows(db: Queryable): Promise<DatasetRowCounts> {
  const counts = await countRows(
    db,
    DATASETS.map((dataset) => dataset.table),
  );
  return byDatasetName((dataset) => counts[DATASETS.indexOf(dataset)]!);
}

/**
 * Deletes up to `limit` staged rows of one import from a table's stage (migration 017); the rows
 * deleted. A slice at a time, so on the embedded store readers' statements run between them.
 */
export async function discardStagedSlice(db: Queryable, stage: string, importId: string, limit: number): Promise<number> {
  const rows = await db.query<{ n: number }>(
    `WITH gone AS (
       DELETE FROM ${stage} WHERE ctid = ANY(ARRAY(SELECT ctid FROM ${stage} WHERE import_id = $1::uuid LIMIT $2))
       RETURNING 1)
     SELECT count(*)::int AS n FROM gone`,
    [importId, limit],
  );
  return rows[0]?.n ?? 0;
}

/** Rows in the stages, by stage (start-up cleaning reports what it removed). */
export async function stagedRows(db: Queryable, stages: readonly string[]): Promise<number[]> {
  return countRows(db, stages);
}

/** Empties the stages: every import staged in them is abandoned. */
export async function emptyStages(db: Queryable, stages: readonly string[]): Promise<void> {
  if (stages.length > 0) await db.query(`TRUNCATE ${stages.join(', ')}`);
}
