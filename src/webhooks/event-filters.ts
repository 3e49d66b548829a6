// What a webhook listens to: its event types and filters, turned into the same filters the list
// endpoints answer with, so that a webhook matches exactly the records that request would list.
//
// Two ways to say it, as the published webhooks API does and beyond it:
// - the published `filters` keys (countries, categories, search, dateFrom, dateTo, funding,
//   fundingAmount, acquisitionAmount), each applied to the event types whose records have that
//   field, by the parameter of that data set's list endpoint that filters it (table below);
// - `filters.query`: one list endpoint with its query string ("/api/v2/signals/job-changes?
//   positions=cto"), checked exactly as that endpoint checks it.
import { parse as parseQueryString } from 'node:querystring';
import type { TObject, TSchema } from '@sinclair/typebox';
import type { Dataset, StoredRow, ValidQuery } from '../catalog/index.js';
import { indexedDataset } from '../read/index.js';
import { datasetNamed, DATASETS } from '../catalog/index.js';
import { RecordMatcher, type CompiledFilter, type IndexFilter, type IndexRecord } from '../read/filter-index/index.js';
import { ApiError, invalidParameter } from '../catalog/index.js';
import { checkQueryValues, compileRequestValidator } from '../catalog/index.js';

/** A change's event type (`created` or `updated`), as its dataset declares it; undefined for a deletion (no event). */
export function eventTypeOf(dataset: string, op: string): string | undefined {
  const events = datasetNamed(dataset)?.events;
  if (op === 'created') return events?.created;
  if (op === 'updated') return events?.updated;
  return undefined;
}

export { EVENT_TYPES, type EventType } from './schemas.js';

/** The keys that narrow events here (the other published keys are accepted and narrow nothing; see ACCEPTED_FILTER_KEYS). */
export const FILTER_KEYS = [
  'countries',
  'categories',
  'search',
  'dateFrom',
  'dateTo',
  'funding',
  'fundingAmount',
  'acquisitionAmount',
  'query',
] as const;

/** Parameters of a list endpoint that page rather than filter: meaningless for a webhook. */
const PAGING_PARAMS = new Set(['page', 'limit', 'count']);
/** Parameters that order a list: meaningless for a webhook, which gets each record as it changes. */
const ORDER_PARAMS = new Set(['sort_by', 'sort_order']);

interface DatasetFilters {
  name: string;
  /** The public path of its list endpoint. */
  path: string;
  matcher: RecordMatcher;
  /** query object → the index filter its endpoint would answer with (throws ApiError). */
  toFilter(query: Record<string, unknown>): IndexFilter;
}

/** A data set's list endpoint as a filter compiler: the query checked as the route checks it. */
function datasetFilters<Q extends TObject, F, R extends TSchema, Row extends StoredRow>(
  dataset: Dataset<Q, F, R, Row>,
): DatasetFilters {
  const indexed = indexedDataset(dataset);
  const validate = compileRequestValidator(dataset.query, 'querystring');
  return {
    name: dataset.name,
    path: `/api/${dataset.api.family}${dataset.api.path}`,
    matcher: new RecordMatcher(indexed.columns),
    toFilter(query) {
      const result = validate(checkQueryValues(query, dataset.query));
      if (!('value' in result)) throw invalidParameter(result.message, result.param);
      // The validator has just checked the value against the query's schema.
      return indexed.indexFilter(dataset.conditions(dataset.filter(result.value as ValidQuery<Q>)), () => {
        // An event is about one record as it changes; a company's other records are not part of it.
        throw invalidParameter(
          "a filter that reads other records than the event's (the signal filters of /companies: has_signals, the " +
            'windows, funding_round_types, total_funding_min, job_change_departments and _seniorities; company_domain ' +
            'on job changes) narrows the list, not events: leave it out',
          'query',
        );
      });
    },
  };
}

const byName = new Map<string, DatasetFilters>();
for (const dataset of DATASETS) byName.set(dataset.name, dataset.withTypes(datasetFilters));

/** A webhook's filters, ready to test records: per data set, the filters of which one must match (OR). */
export interface WebhookMatcher {
  /** Data sets whose changes may produce events for this webhook, with their filters. */
  readonly datasets: ReadonlyMap<string, readonly CompiledFilter[]>;
}

/** Whether a record (as the read model indexes it) of a data set matches. */
export function matchesRecord(matcher: WebhookMatcher, dataset: string, record: IndexRecord): boolean {
  const filters = matcher.datasets.get(dataset);
  const compiled = byName.get(dataset);
  if (!filters || !compiled) return false;
  return filters.some((filter) => compiled.matcher.matches(record, filter));
}

/** The data set an event type is about, or undefined (system.test, types with no records here). */
export function datasetOfEventType(eventType: string): string | undefined {
  return DATASETS.find(({ events }) => events.created === eventType || events.updated === eventType)?.name;
}

const wrap = (key: string, error: unknown, param = `filters.${key}`): never => {
  if (error instanceof ApiError) throw invalidParameter(`filters.${key}: ${error.message}`, param);
  throw error;
};

/**
 * Checks a webhook's filters against its event types and compiles them. Throws a 400 naming the
 * filter when a value is one the list endpoint would refuse.
 */
export function compileWebhookFilters(filters: Readonly<Record<string, string>>, eventTypes: readonly string[]): WebhookMatcher {
  const subscribed = new Set(eventTypes.map(datasetOfEventType).filter((name): name is string => name !== undefined));
  const datasets = new Map<string, CompiledFilter[]>();
  if (filters.query !== undefined) {
    const others = FILTER_KEYS.filter((key) => key !== 'query' && filters[key] !== undefined);
    if (others.length > 0) {
      throw invalidParameter(
        `filters.query cannot be combined with filters.${others[0]}: put every condition in the query`,
        'filters.query',
      );
    }
    const { dataset, query } = parseEndpointQuery(filters.query);
    if (!subscribed.has(dataset.name)) {
      const events = datasetNamed(dataset.name)!.events;
      throw invalidParameter(
        `filters.query lists ${dataset.path}, but event_types has neither ${events.created} nor ${events.updated}`,
        'filters.query',
      );
    }
    try {
      datasets.set(dataset.name, [dataset.matcher.compile(dataset.toFilter(query))]);
    } catch (error) {
      wrap('query', error);
    }
    return { datasets };
  }
  for (const name of subscribed) {
    const dataset = byName.get(name)!;
    const keys = datasetNamed(name)?.events.filterKeys ?? {};
    // One query per value of a published list key the endpoint takes one at a time (v1's country).
    let queries: Record<string, string>[] = [{}];
    for (const [key, param] of Object.entries(keys)) {
      const value = filters[key];
      if (value === undefined) continue;
      const values = param === 'country' ? splitList(value) : [value];
      if (values.length === 0) throw invalidParameter(`filters.${key} must not be empty`, `filters.${key}`);
      // Each key alone first, so a refusal names the key at fault, in the webhook's words.
      for (const single of values) checkPublishedKey(dataset, key, param, single);
      queries = queries.flatMap((query) => values.map((v) => ({ ...query, [param]: v })));
    }
    const compiled: CompiledFilter[] = [];
    for (const query of queries) {
      try {
        compiled.push(dataset.matcher.compile(dataset.toFilter(query)));
      } catch (error) {
        // Keys fine alone and refused together (dateFrom after dateTo).
        const together = Object.keys(keys).filter((k) => filters[k] !== undefined);
        // (The param names the first key the message names, as for conflicting query parameters.)
        wrap(together.join(', '), error, `filters.${together[0]}`);
      }
    }
    datasets.set(name, compiled);
  }
  return { datasets };
}

/** A published filter key checked alone by its endpoint parameter; the refusal names the key. */
function checkPublishedKey(dataset: DatasetFilters, key: string, param: string, value: string): void {
  try {
    dataset.toFilter({ [param]: value });
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    const message = error.message.startsWith(param) ? `${key}${error.message.slice(param.length)}` : `${key}: ${error.message}`;
    throw invalidParameter(`filters.${message}`, `filters.${key}`);
  }
}

function splitList(value: string): string[] {
  return value
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
}

/** "/api/v2/signals/job-changes?positions=cto" → the data set and its query parameters. */
function parseEndpointQuery(text: string): { dataset: DatasetFilters; query: Record<string, unknown> } {
  const mark = text.indexOf('?');
  const path = (mark === -1 ? text : text.slice(0, mark)).replace(/\/+$/, '');
  const dataset = [...byName.values()].find((candidate) => candidate.path === path);
  if (!dataset) {
    const paths = [...byName.values()].map((candidate) => candidate.path).join(', ');
    throw invalidParameter(`filters.query must be a list endpoint and its query string, one of ${paths}`, 'filters.query');
  }
  const query: Record<string, unknown> = mark === -1 ? {} : { ...parseQueryString(text.slice(mark + 1)) };
  for (const name of Object.keys(query)) {
    if (PAGING_PARAMS.has(name))
      throw invalidParameter(`filters.query: ${name} pages a list; a webhook has no pages`, 'filters.query');
    if (ORDER_PARAMS.has(name))
      throw invalidParameter(`filters.query: ${name} orders a list; a webhook has no order`, 'filters.query');
    // A webhook's filter is fixed when it is saved; a preset would mean "the last 7 days of that day".
    if (name === 'date_preset') {
      throw invalidParameter(
        'filters.query: date_preset moves with the clock; a webhook needs fixed dates: use dateFrom and dateTo',
        'filters.query',
      );
    }
  }
  return { dataset, query };
}
