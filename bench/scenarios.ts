import type { TObject, TSchema } from '@sinclair/typebox';
import type { ReadModel } from '../src/read/read-model.js';
import type { Dataset, StoredRow, ValidQuery } from '../src/catalog/dataset.js';
import { funding, mA } from '../src/catalog/registry.js';
import type { FundingQuery } from '../src/catalog/schemas/v1-schemas.js';
import { listSignalPage, listV1Page } from '../src/read/listing.js';

export interface Scenario {
  id: string;
  label: string;
  /** Path and query string exactly as sent over HTTP. */
  path: string;
  p99TargetMs: number;
  /** The service call the route makes for that query string. */
  callService: (readModel: ReadModel) => Promise<unknown>;
}

/** Values present in the generated data (see src/demo/v1-generator.ts). */
export const FILTER_VALUES = {
  category: 'fintech',
  country: 'US',
  minAmount: 1_000_000,
  status: 'completed',
  acquirerWord: 'group',
} as const;

const PAGE_ONE_P99_MS = 15;
const DEEP_PAGE_P99_MS = 30;
const DAY_MS = 86_400_000;

const isoDate = (date: Date) => date.toISOString().slice(0, 10);

/** One definition gives both the HTTP query string and the object the route hands to the service. */
function withQuery(route: string, query: Record<string, string | number | boolean | undefined>): string {
  const entries = Object.entries(query).flatMap(([name, value]): [string, string][] =>
    value === undefined ? [] : [[name, String(value)]],
  );
  return entries.length === 0 ? route : `${route}?${new URLSearchParams(entries).toString()}`;
}

/** A request to a dataset's list endpoint. */
export function datasetScenario<Q extends TObject, F, R extends TSchema, Row extends StoredRow>(
  dataset: Dataset<Q, F, R, Row>,
  id: string,
  label: string,
  query: NoInfer<ValidQuery<Q>> & Record<string, string | number | boolean | undefined>,
  p99TargetMs: number,
): Scenario {
  const api = dataset.api;
  return {
    id,
    label,
    path: withQuery(`/api/${api.family}${api.path}`, query),
    p99TargetMs,
    callService: (readModel) =>
      api.family === 'v1' ? listV1Page(readModel, dataset, api, query) : listSignalPage(readModel, dataset, api, query),
  };
}

/** The filtered funding query, also the one the Platformatic comparison approximates. */
export function filteredFundingQuery(asOf: Date) {
  return {
    category: FILTER_VALUES.category,
    country: FILTER_VALUES.country,
    date_from: isoDate(new Date(asOf.getTime() - 365 * DAY_MS)),
    date_to: isoDate(asOf),
    amount: FILTER_VALUES.minAmount,
  } satisfies FundingQuery;
}

export function buildScenarios(asOf: Date): Scenario[] {
  return [
    datasetScenario(funding, 'a', 'funding, page 1, no filters', {}, PAGE_ONE_P99_MS),
    datasetScenario(funding, 'b', 'funding, filtered', filteredFundingQuery(asOf), PAGE_ONE_P99_MS),
    datasetScenario(funding, 'c', 'funding, page 500', { page: 500 }, DEEP_PAGE_P99_MS),
    datasetScenario(
      mA,
      'd',
      'm-a, status + acquirer',
      { status: FILTER_VALUES.status, acquiring_company: FILTER_VALUES.acquirerWord },
      PAGE_ONE_P99_MS,
    ),
  ];
}
