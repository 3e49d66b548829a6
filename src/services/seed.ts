import type { Database } from '../db/port.js';
import { upsertFundingRows } from '../db/queries/funding.js';
import { upsertMaRows } from '../db/queries/ma.js';
import { upsertAcquisitionRows, upsertInvestorRows, upsertJobChangeRows } from '../db/queries/signals.js';
import { generateFundingRecords, generateMaRecords } from '../seed/v1-generator.js';
import { generateAcquisitionSignals, generateInvestors, generateJobChanges } from '../seed/v2-generator.js';
import { prepareAcquisitionRow, prepareInvestorRow, prepareJobChangeRow } from './signals.js';
import { prepareFundingRow } from './funding.js';
import { prepareMaRow } from './mergers.js';

export const SCALES = {
  demo: { funding: 5_000, ma: 1_000, investors: 2_000, jobChanges: 10_000, acquisitions: 1_000 },
  large: { funding: 1_000_000, ma: 200_000, investors: 200_000, jobChanges: 2_000_000, acquisitions: 200_000 },
} as const;
export type Scale = keyof typeof SCALES;

/** The seed of the demo data set the server loads into an empty store. */
export const DEMO_SEED = 42;

export interface SeedOptions {
  scale: Scale;
  seed: number;
  /** Reference date the synthetic history ends at; the same seed and date give the same data. */
  asOf: Date;
  batchSize?: number;
  /** Load only the data sets whose table is empty (the server's first start). */
  onlyEmpty?: boolean;
  onProgress?: (dataset: string, done: number, total: number) => void;
}

function* withSourceIds<T>(records: Iterable<T>, seed: number): Generator<{ record: T; sourceId: string }> {
  let index = 0;
  for (const record of records) yield { record, sourceId: `seed-${seed}-${index++}` };
}

async function loadInBatches<T>(
  items: Iterable<T>,
  batchSize: number,
  write: (batch: T[]) => Promise<unknown>,
  progress: (done: number) => void,
): Promise<void> {
  let batch: T[] = [];
  let done = 0;
  for (const item of items) {
    batch.push(item);
    if (batch.length === batchSize) {
      await write(batch);
      done += batch.length;
      progress(done);
      batch = [];
    }
  }
  if (batch.length > 0) {
    await write(batch);
    progress(done + batch.length);
  }
}

export interface SeedCounts {
  funding: number;
  ma: number;
  investors: number;
  jobChanges: number;
  acquisitions: number;
}

/** Loads the synthetic data set in multi-row upserts. Idempotent: natural keys collapse re-runs. */
export async function seedDatabase(db: Database, options: SeedOptions): Promise<SeedCounts> {
  const sizes = SCALES[options.scale];
  const batchSize = options.batchSize ?? 2_000;
  const report = options.onProgress ?? (() => undefined);
  const existing = options.onlyEmpty ? await countAll(db) : undefined;
  const wanted = (dataset: keyof SeedCounts) => !existing || existing[dataset] === 0;
  const generated = <T>(dataset: keyof SeedCounts, items: () => Iterable<T>): Iterable<T> => (wanted(dataset) ? items() : []);

  await loadInBatches(
    generated('funding', () => withSourceIds(generateFundingRecords(options.seed, sizes.funding, options.asOf), options.seed)),
    batchSize,
    // A stable source id per generated round, so re-seeding on another day updates instead of adding.
    (batch) =>
      upsertFundingRows(
        db,
        batch.map(({ record, sourceId }) => prepareFundingRow(record, sourceId)),
      ),
    (done) => report('funding', done, sizes.funding),
  );
  await loadInBatches(
    generated('ma', () => generateMaRecords(options.seed + 1, sizes.ma, options.asOf)),
    batchSize,
    (batch) =>
      upsertMaRows(
        db,
        batch.map(({ record, status }) => prepareMaRow(record, status)),
      ),
    (done) => report('m-a', done, sizes.ma),
  );
  await loadInBatches(
    generated('investors', () => generateInvestors(options.seed + 2, sizes.investors, options.asOf)),
    batchSize,
    (batch) => upsertInvestorRows(db, batch.map(prepareInvestorRow)),
    (done) => report('investors', done, sizes.investors),
  );
  await loadInBatches(
    generated('jobChanges', () => generateJobChanges(options.seed + 3, sizes.jobChanges, options.asOf)),
    batchSize,
    (batch) => upsertJobChangeRows(db, batch.map(prepareJobChangeRow)),
    (done) => report('job-changes', done, sizes.jobChanges),
  );
  await loadInBatches(
    generated('acquisitions', () => generateAcquisitionSignals(options.seed + 4, sizes.acquisitions, options.asOf)),
    batchSize,
    (batch) => upsertAcquisitionRows(db, batch.map(prepareAcquisitionRow)),
    (done) => report('acquisitions', done, sizes.acquisitions),
  );
  // Fresh statistics and visibility map, so the planner picks the indexes and index-only scans work.
  const tables = ['funding_rounds', 'ma_deals', 'investors', 'job_changes', 'acquisition_signals'];
  // One statement per table: a multi-statement string runs as one transaction, where VACUUM is refused.
  for (const t of tables) await db.exec(`${db.kind === 'postgres' ? 'VACUUM ANALYZE' : 'ANALYZE'} ${t}`);
  return countAll(db);
}

export async function countAll(db: Database): Promise<SeedCounts> {
  const rows = await db.query<SeedCounts>(
    `SELECT (SELECT count(*)::int FROM funding_rounds) AS funding, (SELECT count(*)::int FROM ma_deals) AS ma,
            (SELECT count(*)::int FROM investors) AS investors, (SELECT count(*)::int FROM job_changes) AS "jobChanges",
            (SELECT count(*)::int FROM acquisition_signals) AS acquisitions`,
  );
  return rows[0]!;
}

/** Today at 00:00 UTC: the default reference date, so a day's seeds are reproducible. */
export function startOfTodayUtc(now = new Date()): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
}
