// The demo data's generators, by dataset name: how `dealsignal seed` (and the server's first start
// on an empty store) makes each dataset's synthetic records. A dataset without an entry is not
// seeded. The generators load faker, which only the CLI, start-up seeding and the benchmarks need.
import type { Static, TObject, TSchema } from '@sinclair/typebox';
import {
  acquisitions,
  companies,
  funding,
  hiring,
  investors,
  jobChanges,
  mA,
  type AnyDataset,
  type Dataset,
  type DatasetName,
  type RecordExtras,
  type StoredRow,
} from '../catalog/index.js';
import { generateCompanies } from './company-generator.js';
import { generateHiringPostings } from './hiring-generator.js';
import { companyPopulation, type CompanyPopulation } from './company-population.js';
import { generateFundingRecords, generateMaRecords } from './v1-generator.js';
import { generateAcquisitionSignals, generateInvestors, generateJobChanges } from './v2-generator.js';

export type Scale = 'demo' | 'large' | 'xlarge';

/** How the seed makes one dataset's synthetic records. */
export interface DemoGenerator<Rec> {
  /** Records per scale. */
  sizes: Readonly<Record<Scale, number>>;
  /** Added to the seed, so each dataset draws its own sequence (fixed: the data stays the same). */
  seedOffset: number;
  /**
   * Deterministic in (seed, count, asOf, population). The companies the records are about come from
   * `population` (the seed's: demoPopulation); without one, from a small population of `seed`'s own.
   */
  generate(
    seed: number,
    count: number,
    asOf: Date,
    population?: CompanyPopulation,
  ): Iterable<{ record: Rec; extras?: Partial<RecordExtras> }>;
}

/**
 * A generator with the dataset it makes records for, handed on together to a function generic
 * over datasets (as Dataset.withTypes does), so the seed prepares the generated records typed.
 */
export interface DatasetGenerator<Rec> extends DemoGenerator<Rec> {
  withTypes<T>(
    use: <Q extends TObject, F, R extends TSchema, Row extends StoredRow>(
      dataset: Dataset<Q, F, R, Row>,
      generator: DemoGenerator<Static<R>>,
    ) => T,
  ): T;
}

function generatorOf<Q extends TObject, F, R extends TSchema, Row extends StoredRow>(
  dataset: Dataset<Q, F, R, Row>,
  generator: DemoGenerator<NoInfer<Static<R>>>,
): DatasetGenerator<Static<R>> {
  return { ...generator, withTypes: (use) => use(dataset, generator) };
}

type RecordOf<N extends DatasetName> = Static<Extract<AnyDataset, { name: N }>['record']>;

export const DEMO_GENERATORS = {
  funding: generatorOf(funding, {
    sizes: { demo: 5_000, large: 1_000_000, xlarge: 2_800_000 },
    seedOffset: 0,
    // A stable source id per generated round, so re-seeding on another day updates instead of adding.
    *generate(seed, count, asOf, population) {
      let index = 0;
      for (const record of generateFundingRecords(seed, count, asOf, population)) {
        yield { record, extras: { sourceId: `seed-${seed}-${index++}` } };
      }
    },
  }),
  'm-a': generatorOf(mA, {
    sizes: { demo: 1_000, large: 200_000, xlarge: 550_000 },
    seedOffset: 1,
    *generate(seed, count, asOf, population) {
      for (const { record, status } of generateMaRecords(seed, count, asOf, population)) yield { record, extras: { status } };
    },
  }),
  investors: generatorOf(investors, {
    sizes: { demo: 2_000, large: 200_000, xlarge: 550_000 },
    seedOffset: 2,
    *generate(seed, count, asOf) {
      for (const record of generateInvestors(seed, count, asOf)) yield { record };
    },
  }),
  'job-changes': generatorOf(jobChanges, {
    sizes: { demo: 10_000, large: 2_000_000, xlarge: 5_550_000 },
    seedOffset: 3,
    *generate(seed, count, asOf, population) {
      for (const record of generateJobChanges(seed, count, asOf, population)) yield { record };
    },
  }),
  acquisitions: generatorOf(acquisitions, {
    sizes: { demo: 1_000, large: 200_000, xlarge: 550_000 },
    seedOffset: 4,
    *generate(seed, count, asOf, population) {
      for (const record of generateAcquisitionSignals(seed, count, asOf, population)) yield { record };
    },
  }),
  // The companies are also the population the other datasets' records are about (demoPopulation).
  companies: generatorOf(companies, {
    sizes: { demo: 3_000, large: 500_000, xlarge: 1_000_000 },
    seedOffset: 5,
    *generate(seed, count, asOf) {
      for (const record of generateCompanies(seed, count, asOf)) yield { record };
    },
  }),
  // The same population: a company hires and raises, is acquired, gains and loses people.
  hiring: generatorOf(hiring, {
    sizes: { demo: 3_000, large: 2_000_000, xlarge: 4_000_000 },
    seedOffset: 6,
    *generate(seed, count, asOf, population) {
      for (const record of generateHiringPostings(seed, count, asOf, population)) yield { record };
    },
  }),
} satisfies { readonly [N in DatasetName]?: DatasetGenerator<RecordOf<N>> };

/** The dataset's generator; undefined for a dataset the demo data does not include. */
export function demoGeneratorOf(name: DatasetName): DatasetGenerator<unknown> | undefined {
  const generators: { readonly [N in DatasetName]?: DatasetGenerator<unknown> } = DEMO_GENERATORS;
  return generators[name];
}

/**
 * The company population of a demo data set: the companies dataset's records at the scale (for
 * `seed` plus its offset, as the seed loads them), which the funding rounds, M&A deals, job changes
 * and acquisition signals of the same seed, scale and date are about.
 */
export function demoPopulation(seed: number, scale: Scale, asOf: Date): CompanyPopulation {
  const generator = DEMO_GENERATORS.companies;
  return companyPopulation(seed + generator.seedOffset, generator.sizes[scale], asOf);
}
