import pg from 'pg';
import { migrate } from '../src/platform/db/migrate.js';
import { openPostgres } from '../src/platform/db/postgres.js';
import type { Database } from '../src/platform/db/port.js';
import { setV1RateLimit } from '../src/accounts/account-queries.js';
import { createApiKey } from '../src/accounts/api-keys.js';
import { DATASETS } from '../src/catalog/registry.js';
import { SCALES, seedDatabase, startOfTodayUtc } from '../src/demo/seed.js';
import { analyzeTables, countDatasetRows } from '../src/ingest/index.js';

const SEED = 42;
const SCALE = 'large';

/** What the bench database holds; recorded once loaded so later runs reuse it as is. */
export interface Dataset {
  asOf: Date;
  funding: number;
  ma: number;
  loadSeconds: number;
  loadedAt: Date;
  /** True when this run loaded it. */
  loadedNow: boolean;
  /** Exact rows of every data table the seed wrote, the measured ones and the others. */
  rowCounts: Record<string, number>;
}

// Not seeded data: written by migrations, by serving requests (the bench's own included), or the
// change log that every write to a document table appends to (the seed's included).
const NOT_SEEDED_TABLES = [
  'accounts',
  'api_keys',
  'schema_migrations',
  'change_transactions',
  'change_log',
  'change_log_pruned',
  'bench_dataset',
  'usage_events',
  'credit_ledger',
  'web_sessions',
];

async function dataTableCounts(db: Database): Promise<Record<string, number>> {
  const tables = await db.query<{ name: string }>(
    `SELECT table_name AS name FROM information_schema.tables
      WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' AND NOT (table_name = ANY($1::text[]))
      ORDER BY table_name`,
    [NOT_SEEDED_TABLES],
  );
  const counts: Record<string, number> = {};
  for (const { name } of tables) {
    const rows = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${pg.escapeIdentifier(name)}`);
    if (rows[0]!.n > 0) counts[name] = rows[0]!.n;
  }
  return counts;
}

export { ensureDatabase } from './postgres-admin.js';

export async function openBenchDatabase(databaseUrl: string): Promise<Database> {
  const db = await openPostgres({
    connectionString: databaseUrl,
    poolSize: 4,
    onError: (err) => console.warn(`bench database connection error: ${err.message}`),
  });
  const applied = await migrate(db);
  if (applied.length > 0) console.log(`migrations applied: ${applied.join(', ')}`);
  return db;
}

// Lives next to the data it describes, so a dropped or reloaded database is never mistaken for a loaded one.
const MARKER_DDL = `CREATE TABLE IF NOT EXISTS bench_dataset (
  id            int PRIMARY KEY CHECK (id = 1),
  scale         text NOT NULL,
  seed          int NOT NULL,
  as_of         timestamptz NOT NULL,
  funding       int NOT NULL,
  ma            int NOT NULL,
  load_seconds  double precision NOT NULL,
  loaded_at     timestamptz NOT NULL DEFAULT now()
)`;

interface MarkerRow {
  scale: string;
  seed: number;
  as_of: Date;
  funding: number;
  ma: number;
  load_seconds: number;
  loaded_at: Date;
}

/** The rows of the two datasets the v1 benchmark measures. */
async function tableCounts(db: Database): Promise<{ funding: number; ma: number }> {
  const counts = await countDatasetRows(db);
  return { funding: counts.funding, ma: counts['m-a'] };
}

async function readMarker(db: Database): Promise<Dataset | undefined> {
  await db.exec(MARKER_DDL);
  const rows = await db.query<MarkerRow>('SELECT * FROM bench_dataset WHERE id = 1');
  const marker = rows[0];
  if (!marker || marker.scale !== SCALE || marker.seed !== SEED) return undefined;
  const counts = await tableCounts(db);
  if (counts.funding !== marker.funding || counts.ma !== marker.ma) return undefined;
  return {
    asOf: marker.as_of,
    funding: marker.funding,
    ma: marker.ma,
    loadSeconds: marker.load_seconds,
    loadedAt: marker.loaded_at,
    loadedNow: false,
    rowCounts: await dataTableCounts(db),
  };
}

function progressPrinter(): (dataset: string, done: number, total: number) => void {
  let last = 0;
  return (dataset, done, total) => {
    if (Date.now() - last < 5000 && done !== total) return;
    last = Date.now();
    console.log(`  ${dataset}: ${done.toLocaleString('en')} / ${total.toLocaleString('en')}`);
  };
}

const IN_TRANSACTION_BLOCK = '25001';

/**
 * seedDatabase ends with a VACUUM ANALYZE of every dataset's table. When PostgreSQL refuses it (several
 * VACUUMs sent in one simple query run as one transaction block), the rows are all written:
 * vacuum each table on its own so the run can go on, and say so, since `dealsignal seed` fails there too.
 */
async function seedAndVacuum(db: Database, asOf: Date): Promise<void> {
  try {
    await seedDatabase(db, { scale: SCALE, seed: SEED, asOf, onProgress: progressPrinter() });
  } catch (err) {
    if ((err as { code?: string }).code !== IN_TRANSACTION_BLOCK) throw err;
    console.error(
      `!! seedDatabase failed after writing the rows: ${(err as Error).message}.\n` +
        '!! (src/demo/seed.ts sends several VACUUMs in one exec.) Vacuuming the database in one statement instead.',
    );
    await db.exec('VACUUM ANALYZE');
  }
}

async function loadDataset(db: Database): Promise<Dataset> {
  const asOf = startOfTodayUtc();
  const sizes = SCALES[SCALE];
  console.log(
    `loading the ${SCALE} data set (${sizes.funding.toLocaleString('en')} funding rounds, ` +
      `${sizes['m-a'].toLocaleString('en')} M&A deals, seed ${SEED}, as of ${asOf.toISOString().slice(0, 10)})...`,
  );
  // A half-finished earlier load may hold rows of another reference date: start clean.
  await db.exec(`TRUNCATE ${DATASETS.map((dataset) => dataset.table).join(', ')}; DELETE FROM bench_dataset`);
  const started = performance.now();
  // As pg_restore does: the descriptions' GIN index is built once after the rows (one sort) instead of
  // growing with every posting, which slowed the postings from 1,200 to 500 a second.
  await db.exec('DROP INDEX IF EXISTS hiring_description_words_words');
  await seedAndVacuum(db, asOf);
  const buildIndex =
    "SET LOCAL maintenance_work_mem = '1GB'; " +
    'CREATE INDEX hiring_description_words_words ON hiring_description_words USING gin (words)';
  await (db.maintenance ? db.maintenance(buildIndex) : db.exec(buildIndex));
  await analyzeTables(db, ['hiring_description_words']);
  const loadSeconds = (performance.now() - started) / 1000;
  const counts = await tableCounts(db);
  console.log(`loaded in ${loadSeconds.toFixed(1)} s: ${counts.funding} funding rounds, ${counts.ma} M&A deals`);
  await db.query(
    'INSERT INTO bench_dataset (id, scale, seed, as_of, funding, ma, load_seconds) VALUES (1, $1, $2, $3, $4, $5, $6)',
    [SCALE, SEED, asOf, counts.funding, counts.ma, loadSeconds],
  );
  return { asOf, ...counts, loadSeconds, loadedAt: new Date(), loadedNow: true, rowCounts: await dataTableCounts(db) };
}

/** Reuses the large data set when a previous run loaded it completely; loads it otherwise. */
export async function ensureDataset(db: Database): Promise<Dataset> {
  const existing = await readMarker(db);
  if (existing) {
    console.log(
      `reusing the ${SCALE} data set loaded ${existing.loadedAt.toISOString()} ` +
        `(as of ${existing.asOf.toISOString().slice(0, 10)}, load took ${existing.loadSeconds.toFixed(1)} s)`,
    );
    return existing;
  }
  return loadDataset(db);
}

/** The data as a part finds it in the bench database, whatever its scale and however it was loaded. */
export interface FoundData {
  rowCounts: Record<string, number>;
  /** Set when it is the bench's own large set, loaded by an earlier run. */
  benchSet?: Dataset;
}

const SERVED_TABLES = ['funding_rounds', 'ma_deals', 'investors', 'job_changes', 'acquisition_signals'];

/** Describes the data present, loading nothing: a part that measures any scale (`dealsignal seed --scale …`). */
export async function foundData(db: Database): Promise<FoundData> {
  const rowCounts = await dataTableCounts(db);
  const empty = SERVED_TABLES.filter((table) => !rowCounts[table]);
  if (empty.length > 0) {
    throw new Error(
      `the bench database has no rows in ${empty.join(', ')}: load a data set first ` +
        '(DATABASE_URL=<BENCH_DATABASE_URL> dealsignal seed --scale large, or bench/run.ts, which loads the large set)',
    );
  }
  return { rowCounts, benchSet: await readMarker(db) };
}

const BENCH_EMAIL = 'bench@dealsignal.local';
/** Far above any rate the bench reaches in a window (the column is a PostgreSQL integer). */
const BENCH_V1_LIMIT = 2_000_000_000;

/**
 * An enterprise key whose account has its own v1 limit, as an enterprise arrangement would:
 * the limiter stays in the request path, but never refuses a bench request.
 */
export async function createBenchKey(db: Database): Promise<string> {
  const created = await createApiKey(db, { email: BENCH_EMAIL, tier: 'enterprise', name: 'bench' });
  if (!(await setV1RateLimit(db, BENCH_EMAIL, BENCH_V1_LIMIT))) throw new Error(`no account ${BENCH_EMAIL}`);
  return created.key;
}

export async function postgresVersion(db: Database): Promise<string> {
  const rows = await db.query<{ version: string }>("SELECT current_setting('server_version') AS version");
  return rows[0]!.version;
}
