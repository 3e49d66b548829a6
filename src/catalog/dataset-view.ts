// A view: a dataset's records behind a second endpoint. It has its own query schema, filter,
// conditions (over the dataset's own columns) and served form; the rows, their table, the
// in-memory index, ingest and seed stay the dataset's, so nothing is stored or indexed twice.
// funding-signals.ts (GET /api/v2/signals/funding over the v1 funding rounds) is one.
import type { TObject, TSchema } from '@sinclair/typebox';
import type { Condition } from './conditions.js';
import type { Dataset, DocumentView, FilterContext, RowOrder, SignalApi, StoredRow, ValidQuery } from './dataset.js';

export interface ViewSpec<Q extends TObject, F, Row extends StoredRow> {
  /** The endpoint's query schema. */
  query: Q;
  api: SignalApi<NoInfer<ValidQuery<Q>>>;
  /** query → filter: the rules the schema cannot state (an ApiError names a broken one), values normalised. */
  filter(query: NoInfer<ValidQuery<Q>>, context?: FilterContext): F;
  /** filter → the conditions a row of the dataset must meet. */
  conditions(filter: F): Condition<Row>[];
  /** The order the filter asks for (see DatasetSpec.order). */
  order?(filter: F): RowOrder<Row> | undefined;
  /** The served record, made from the stored document when a page is served. */
  document: DocumentView;
}

/**
 * The dataset seen through another endpoint: a Dataset whose name, table, columns, index and
 * ingest are the dataset's own, with the view's query, API, filter, conditions and served form.
 * Routes and the read model take it as they take any dataset (the read model finds the dataset's
 * index by its name, and serves `document`'s form of each stored document).
 */
export function defineView<Q extends TObject, F, VQ extends TObject, VF, R extends TSchema, Row extends StoredRow>(
  dataset: Dataset<Q, F, R, Row>,
  spec: ViewSpec<VQ, VF, Row>,
): Dataset<VQ, VF, R, Row> {
  const view: Dataset<VQ, VF, R, Row> = {
    ...dataset,
    query: spec.query,
    api: spec.api,
    filter: spec.filter,
    conditions: spec.conditions,
    order: spec.order,
    document: spec.document,
    withTypes: (use) => use(view),
  };
  return view;
}
