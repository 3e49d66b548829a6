// The deterministic synthetic data set: every dataset's generator, prepared and upserted as an
// import would, in multi-row statements.
import type { Static, TObject, TSchema } from '@sinclair/typebox';
import type { Database } from '../platform/db/index.js';
import { analyzeTables, countDatasetRows, upserterOf, type DatasetRowCounts } from '../ingest/index.js';
import type { Dataset, RecordExtras, StoredRow } from '../catalog/index.js';
import { byDatasetName, companies, DATASETS, type DatasetName } from '../catalog/index.js';
import { adoptionOf, CompanyLinker, linkRows, mentionsOf, type RowMentions } from '../companies/index.js';
import { demoGeneratorOf, demoPopulation, type DemoGenerator, type Scale } from './generators.js';
import type { CompanyPopulation } from './company-population.js';

/** Records per dataset, by scale (0: a dataset the demo data does not include). */
export const SCALES: Readonly<Record<Scale, Readonly<Record<DatasetName, number>>>> = {
  demo: byDatasetName((dataset) => demoGeneratorOf(dataset.name)?.sizes.demo ?? 0),
  large: byDatasetName((dataset) => demoGeneratorOf(dataset.name)?.sizes.large ?? 0),
  xlarge: byDatasetName((dataset) => demoGeneratorOf(dataset.name)?.sizes.xlarge ?? 0),
};

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
  onProgress?: (dataset: DatasetName, done: number, total: number) => void;
}

async function seedDataset<Q extends TObject, F, R extends TSchema, Row extends StoredRow>(
  db: Database,
  dataset: Dataset<Q, F, R, Row>,
  generator: DemoGenerator<NoInfer<Static<R>>>,
  options: SeedOptions & { batchSize: number; population: () => CompanyPopulation },
  progress: (done: number, total: number) => void,
): Promise<void> {
  const total = generator.sizes[options.scale];
  const context = { dayStart: options.asOf.toISOString() };
  const upsert = upserterOf(dataset);
  // Records name companies: each batch is linked (its new companies written first), as an import links it.
  const links = dataset.links ?? [];
  const linker = links.length > 0 ? new CompanyLinker(db, () => options.asOf) : undefined;
  let batch: RowMentions<Row>[] = [];
  let done = 0;
  const write = async () => {
    if (linker) {
      await upserterOf(companies)(db, await linkRows(linker, links, batch));
      linker.settle();
    }
    await upsert(
      db,
      batch.map((entry) => entry.row),
    );
    done += batch.length;
    progress(done, total);
    batch = [];
  };
  const records = generator.generate(options.seed + generator.seedOffset, total, options.asOf, options.population());
  for (const { record, extras } of records) {
    const all: RecordExtras = { sourceId: null, status: 'completed', ...extras };
    const row = dataset.prepare(record, all, context);
    if (typeof row === 'string') throw new Error(`${dataset.name}: a generated record was refused: ${row}`);
    const adopt = adoptionOf(dataset, record, all, context);
    batch.push({ row, mentions: mentionsOf(dataset.links, record), ...(adopt && { adopt }) });
    if (batch.length === options.batchSize) await write();
  }
  if (batch.length > 0) await write();
}

/** Loads the synthetic data set in multi-row upserts. Idempotent: natural keys collapse re-runs. */
export async function seedDatabase(db: Database, options: SeedOptions): Promise<DatasetRowCounts> {
  const batchSize = options.batchSize ?? 2_000;
  const report = options.onProgress ?? (() => undefined);
  const existing = options.onlyEmpty ? await countDatasetRows(db) : undefined;
  // The companies every dataset's records are about, built once (on first use) for the whole load.
  let shared: CompanyPopulation | undefined;
  const population = () => (shared ??= demoPopulation(options.seed, options.scale, options.asOf));
  // Companies first: the records of the other datasets are linked to them.
  for (const dataset of [...DATASETS].sort((a, b) => Number(a.links !== undefined) - Number(b.links !== undefined))) {
    if (existing && existing[dataset.name] > 0) continue;
    await demoGeneratorOf(dataset.name)?.withTypes((typed, generator) =>
      seedDataset(db, typed, generator, { ...options, batchSize, population }, (done, total) =>
        report(dataset.name, done, total),
      ),
    );
  }
  await analyzeTables(
    db,
    DATASETS.map((dataset) => dataset.table),
  );
  return countDatasetRows(db);
}

/** Today at 00:00 UTC: the default reference date, so a day's seeds are reproducible. */
export function startOfTodayUtc(now = new Date()): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
}
