import type { Queryable } from '../src/db/port.js';
import type { FundingQuery, MaQuery } from '../src/schemas/v1.js';
import type { PageResultCache } from '../src/db/page-results.js';
import { listFundingRounds } from '../src/services/funding.js';
import { listMergers } from '../src/services/mergers.js';

export interface Scenario {
  id: string;
  label: string;
  /** Path and query string exactly as sent over HTTP. */
  path: string;
  p99TargetMs: number;
  /** The service call the route makes for that query string. */
  callService: (db: Queryable, cache: PageResultCache) => Promise<unknown>;
}

/** Values present in the generated data (see src/seed/v1-generator.ts). */
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
function withQuery(route: string, query: Record<string, string | number>): string {
  const entries = Object.entries(query).map(([name, value]): [string, string] => [name, String(value)]);
  return entries.length === 0 ? route : `${route}?${new URLSearchParams(entries).toString()}`;
}

function fundingScenario(id: string, label: string, query: FundingQuery, p99TargetMs: number): Scenario {
  return {
    id,
    label,
    path: withQuery('/api/v1/funding', { ...query }),
    p99TargetMs,
    callService: (db, cache) => listFundingRounds(db, cache, query),
  };
}

function maScenario(id: string, label: string, query: MaQuery, p99TargetMs: number): Scenario {
  return {
    id,
    label,
    path: withQuery('/api/v1/m-a', { ...query }),
    p99TargetMs,
    callService: (db, cache) => listMergers(db, cache, query),
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
    fundingScenario('a', 'funding, page 1, no filters', {}, PAGE_ONE_P99_MS),
    fundingScenario('b', 'funding, filtered', filteredFundingQuery(asOf), PAGE_ONE_P99_MS),
    fundingScenario('c', 'funding, page 500', { page: 500 }, DEEP_PAGE_P99_MS),
    maScenario(
      'd',
      'm-a, status + acquirer',
      { status: FILTER_VALUES.status, acquiring_company: FILTER_VALUES.acquirerWord },
      PAGE_ONE_P99_MS,
    ),
  ];
}
