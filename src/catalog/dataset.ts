// What a dataset is: everything the machinery (routes, listing, ingest, the inbox, seed, tests,
// benchmarks) needs to know about one kind of record, in one place. Each dataset is one module
// in this folder; src/catalog/registry.ts lists them. A declaration only says what the data is:
// ingest builds its upsert from it (upserterOf), and the demo data keeps its generator
// (src/demo/generators.ts).
import type { Static, TObject, TSchema } from '@sinclair/typebox';
import type { CompanyLinkSpec } from './company-links.js';
import type { Condition } from './conditions.js';
import type { ColumnSpec } from './table-columns.js';
import type { ColumnKind } from './table-columns.js';
import type { LookupBody } from './schemas/lookup-schemas.js';
import type { DealStatus } from './schemas/v1-schemas.js';

/** A stored row: at least its sort time and its served document (JSON text, or its UTF-8 bytes). */
export interface StoredRow {
  sort_at: string;
  doc: string | Buffer;
}

/**
 * A query once its schema accepted it: written exactly as Fastify's TypeBox type provider
 * writes the type of request.query, so a route generic over the dataset hands it on as is.
 */
type Validated<Q> = Q extends TSchema ? Static<Q> : unknown;
export type ValidQuery<Q> = [Validated<Q>] extends [undefined] ? unknown : Validated<Q>;

/** Fields a file may carry besides the API's: stripped before validation, never served. */
export type ExtraField = 'source_id' | 'status';

export interface RecordExtras {
  sourceId: string | null;
  /** An M&A deal's status (a filter, not part of the served record). */
  status: DealStatus;
}

export interface PrepareContext {
  /** Sort time of a record sent without its own: the start of the import's UTC day. */
  dayStart: string;
}

interface ApiDocs {
  /** Path under the family's prefix. */
  path: string;
  operationId: string;
  summary: string;
  description: string;
  /** The 200 body, with its description. */
  response: TSchema;
}

/** A v1 endpoint: 20 records a page, paging in headers, the filters echoed in the body. */
export interface V1Api<Query> extends ApiDocs {
  family: 'v1';
  /** The filters as echoed in the body's `params`. */
  params(query: Query): object;
  page(query: Query): number;
  /** A body for its batch lookup (POST PATH/lookup) that finds records of the demo data: the docs' example. */
  lookupExample?: LookupBody;
}

/** A v2 signal endpoint: page and limit in the query, paging in the envelope, credits charged. */
export interface SignalApi<Query> extends ApiDocs {
  family: 'v2';
  /** Its name in `meta.endpoint`, and the endpoint its credits are charged to ("signals.investors"). */
  endpoint: string;
  paging(query: Query): { page: number; limit: number; count: boolean };
  /**
   * Whether the query names its companies exactly (company_domain, company_linkedin_url): each
   * record served then carries `match_confidence: "exact"`.
   */
  exactMatch?(query: Query): boolean;
  /**
   * Records served with `match_confidence: "none"` (a document view puts it there) take this value
   * instead when the query names companies: "exact" by an identifier, "fuzzy" by a name.
   */
  matchConfidence?(query: Query): 'exact' | 'fuzzy' | undefined;
}

/**
 * The form a view (src/catalog/dataset-view.ts) serves its dataset's records in: made from the stored
 * document, the row's natural key and its sort time when a page is served.
 */
export interface DocumentView {
  /** Names the served form: the read model keeps it apart from the stored documents. */
  name: string;
  /**
   * The served record's JSON text, from the stored document's JSON text, the row's natural key and
   * its sort_at (epoch milliseconds: when a record without a date of its own sorts).
   */
  serve(doc: string, naturalKey: string, sortMs: number): string;
}

/** What a query is read against besides itself. */
export interface FilterContext {
  /** The time of the request, which relative dates (v2 `date_preset`) count from; the clock's when absent. */
  now?: Date;
}

/** A page's order: by a column (nulls last), ties by id, both in `direction`. */
export interface RowOrder<Row> {
  column: keyof Row & string;
  direction: 'asc' | 'desc';
}

/** The webhook events a dataset's records raise. */
export interface DatasetEvents {
  /** The event type of a new record ("funding.created"). */
  created: string;
  /** The event type of a change to a record seen before ("funding.updated"). */
  updated: string;
  /**
   * The published webhook filter keys (countries, categories, search, dateFrom, dateTo, funding,
   * fundingAmount, acquisitionAmount) that narrow these events, each the list endpoint parameter it
   * becomes. A key not listed narrows nothing here; `filters.query` narrows any dataset.
   */
  filterKeys: Readonly<Record<string, string>>;
}

export interface DatasetSpec<Q extends TObject, F, R extends TSchema, Row extends StoredRow> {
  /** The one spelling: ingest kind, inbox file prefix, name in the change log, seed progress. */
  name: string;
  /** What its records are, in the plural ("funding rounds"). */
  label: string;
  table: string;
  /** The served record's schema (ingested records are held to it, strictly). */
  record: R;
  /** Schemas the record refers to by $ref. */
  references?: readonly TSchema[];
  /** The list endpoint's query schema. */
  query: Q;
  /**
   * How the list endpoint serves the stored documents (a view's form, or a dataset's published form that adds
   * fields: hiring signals); absent, they are served as stored. The changes feed and webhooks carry them as stored.
   */
  document?: DocumentView;
  api: V1Api<NoInfer<ValidQuery<Q>>> | SignalApi<NoInfer<ValidQuery<Q>>>;
  /** query → filter: the rules the schema cannot state (an ApiError names a broken one), values normalised. */
  filter(query: NoInfer<ValidQuery<Q>>, context?: FilterContext): F;
  /** filter → the conditions a record must meet. */
  conditions(filter: F): Condition<Row>[];
  /**
   * The order the filter asks for (v2 `sort_by`, `sort_order`); absent or undefined, the index's own:
   * newest `sort_at` first, ties by id. The column is `sort_at` or one indexed as `number` or `text`.
   */
  order?(filter: F): RowOrder<Row> | undefined;
  /**
   * How the in-memory filter index (src/filter-index) keeps each column a condition tests, sort_at
   * aside (it is the index's order): one value (enum), a set (multi), a minimum (number), an exact
   * key looked up by hash (key), or words matched by prefix (words).
   */
  indexed: Readonly<Partial<Record<keyof Row & string, ColumnKind>>>;
  /** The stored row's columns (besides id): what is written, and what conditions may test. */
  columns: readonly ColumnSpec<Row>[];
  /** The natural key: a second write of the same record updates it instead of adding one. */
  key: { column: keyof Row & string; type: 'text' | 'uuid' };
  /**
   * Fields the served form adds (the published 2.2 aliases of acquisition signals): a file made from the
   * API's answers carries them, and ingest takes them off, as it takes off the link fields.
   */
  servedFields?: readonly string[];
  /** Extra top-level fields allowed in an ingested file. */
  extras: readonly ExtraField[];
  /**
   * Rules the schema cannot state; returns a reason, or undefined when the record keeps them.
   * Runs on records the schema may have refused too, so it looks only at well-typed fields.
   */
  check?(record: Record<string, unknown>): string | undefined;
  /** A valid record as a stored row (derived filter columns, the served document); a string is a reason to reject it. */
  prepare(record: NoInfer<Static<R>>, extras: RecordExtras, context: PrepareContext): Row | string;
  /** Rows an import writes per statement, at most. */
  ingestBatchRows: number;
  /** Its webhook events; absent, `NAME.created` and `NAME.updated`, narrowed only by `filters.query`. */
  events?: Partial<DatasetEvents>;
  /**
   * The companies its records name (src/companies resolves each when a record is written): the
   * row column each link is kept in (prepare leaves it null) and the fields the served document
   * gains.
   */
  links?: readonly CompanyLinkSpec<NoInfer<Static<R>>>[];
}

export interface Dataset<Q extends TObject, F, R extends TSchema, Row extends StoredRow> extends DatasetSpec<Q, F, R, Row> {
  events: DatasetEvents;
  /** A row's natural key, as the database compares it (uuids in lower case). */
  naturalKey(row: Row): string;
  /**
   * Hands this dataset, with its types, to a function generic over datasets: how code that
   * iterates the registry (whose members differ in their types) works on each one, typed.
   */
  withTypes<T>(
    use: <Q2 extends TObject, F2, R2 extends TSchema, Row2 extends StoredRow>(dataset: Dataset<Q2, F2, R2, Row2>) => T,
  ): T;
}

export function defineDataset<const N extends string, Q extends TObject, F, R extends TSchema, Row extends StoredRow>(
  spec: DatasetSpec<Q, F, R, Row> & { name: N },
): Dataset<Q, F, R, Row> & { name: N } {
  const dataset: Dataset<Q, F, R, Row> & { name: N } = {
    ...spec,
    events: {
      created: spec.events?.created ?? `${spec.name}.created`,
      updated: spec.events?.updated ?? `${spec.name}.updated`,
      filterKeys: spec.events?.filterKeys ?? {},
    },
    naturalKey(row) {
      const value = String(row[spec.key.column]);
      return spec.key.type === 'uuid' ? value.toLowerCase() : value;
    },
    withTypes: (use) => use(dataset),
  };
  return dataset;
}
