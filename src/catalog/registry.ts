// The registry: every dataset the service serves, ingests and seeds. Routes, ingest, the inbox,
// seed, the tests and the benchmarks iterate it; a new dataset is its module plus one line here
// (and the migration that creates its table).
import type { TObject, TSchema } from '@sinclair/typebox';
import type { Dataset, SignalApi, StoredRow, V1Api, ValidQuery } from './dataset.js';
import { acquisitions } from './datasets/acquisitions.js';
import { companies } from './datasets/companies.js';
import { funding } from './datasets/funding.js';
import { hiring } from './datasets/hiring.js';
import { fundingSignals } from './datasets/funding-signals.js';
import { investors } from './datasets/investors.js';
import { jobChanges } from './datasets/job-changes.js';
import { mA } from './datasets/m-a.js';

export const DATASETS = [funding, mA, investors, jobChanges, acquisitions, companies, hiring] as const;

/**
 * Second endpoints over a dataset's records (src/catalog/dataset-view.ts): served like a dataset's own,
 * stored, indexed, ingested and seeded only as their dataset.
 */
export const VIEWS = [fundingSignals] as const;

export type AnyDataset = (typeof DATASETS)[number];
export type DatasetName = AnyDataset['name'];

export const DATASET_NAMES: readonly DatasetName[] = DATASETS.map((dataset) => dataset.name);

export function isDatasetName(value: string): value is DatasetName {
  return (DATASET_NAMES as readonly string[]).includes(value);
}

/** The dataset of that name; undefined for any other string. */
export function datasetNamed(name: string): AnyDataset | undefined {
  return DATASETS.find((dataset) => dataset.name === name);
}

export { acquisitions, companies, funding, fundingSignals, hiring, investors, jobChanges, mA };
export type { Dataset, RecordExtras, StoredRow } from './dataset.js';

/** A value per dataset, by name. */
export function byDatasetName<T>(value: (dataset: AnyDataset) => T): Readonly<Record<DatasetName, T>> {
  // Every name gets its entry: the map runs over the whole registry.
  return Object.fromEntries(DATASETS.map((dataset) => [dataset.name, value(dataset)])) as Record<DatasetName, T>;
}

/** Hands each dataset a v1 endpoint serves, with that endpoint's declaration, to a function generic over datasets. */
export function eachV1Endpoint(
  use: <Q extends TObject, F, R extends TSchema, Row extends StoredRow>(
    dataset: Dataset<Q, F, R, Row>,
    api: V1Api<ValidQuery<Q>>,
  ) => void,
): void {
  for (const dataset of DATASETS) {
    dataset.withTypes((typed) => {
      if (typed.api.family === 'v1') use(typed, typed.api);
    });
  }
}

/** Hands each dataset and view a v2 signal endpoint serves, with that endpoint's declaration, to a function generic over datasets. */
export function eachSignalEndpoint(
  use: <Q extends TObject, F, R extends TSchema, Row extends StoredRow>(
    dataset: Dataset<Q, F, R, Row>,
    api: SignalApi<ValidQuery<Q>>,
  ) => void,
): void {
  for (const dataset of [...DATASETS, ...VIEWS]) {
    dataset.withTypes((typed) => {
      if (typed.api.family === 'v2') use(typed, typed.api);
    });
  }
}
