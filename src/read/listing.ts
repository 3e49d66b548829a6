// A page of a dataset for its list endpoint: query → filter → conditions → the read model.
import type { TObject, TSchema } from '@sinclair/typebox';
import { V1_PAGE_SIZE } from '../catalog/index.js';
import type { Dataset, SignalApi, StoredRow, V1Api, ValidQuery } from '../catalog/index.js';
import type { ReadModel } from './read-model.js';

export interface V1Page {
  /** The filters as echoed in the body. */
  params: object;
  /** The page's records as JSON array text. */
  dataJson: string;
  total: number;
  page: number;
  perPage: number;
}

export interface SignalPage {
  dataJson: string;
  total: number;
  page: number;
  limit: number;
}

export async function listV1Page<Q extends TObject, F, R extends TSchema, Row extends StoredRow>(
  readModel: ReadModel,
  dataset: Dataset<Q, F, R, Row>,
  api: V1Api<NoInfer<ValidQuery<Q>>>,
  query: NoInfer<ValidQuery<Q>>,
): Promise<V1Page> {
  const page = api.page(query);
  const conditions = dataset.conditions(dataset.filter(query));
  const result = await readModel.page(dataset, conditions, (page - 1) * V1_PAGE_SIZE, V1_PAGE_SIZE);
  return { params: api.params(query), dataJson: result.dataJson, total: result.total, page, perPage: V1_PAGE_SIZE };
}

export async function listSignalPage<Q extends TObject, F, R extends TSchema, Row extends StoredRow>(
  readModel: ReadModel,
  dataset: Dataset<Q, F, R, Row>,
  api: SignalApi<NoInfer<ValidQuery<Q>>>,
  query: NoInfer<ValidQuery<Q>>,
  /** The time of the request (what `date_preset` counts from); the clock's when absent. */
  now?: Date,
): Promise<SignalPage> {
  const { page, limit, count } = api.paging(query);
  const filter = dataset.filter(query, { now: now ?? new Date() });
  const conditions = dataset.conditions(filter);
  // Count mode needs only the total.
  const offset = count ? 0 : (page - 1) * limit;
  const result = await readModel.page(dataset, conditions, offset, count ? 0 : limit, dataset.order?.(filter));
  const confidence = api.matchConfidence?.(query);
  const dataJson = api.exactMatch?.(query)
    ? withExactMatch(result.dataJson)
    : confidence !== undefined
      ? // Only the served records' own key is spelled with bare quotes: a description's text has them escaped.
        result.dataJson.replaceAll('"match_confidence":"none"', `"match_confidence":"${confidence}"`)
      : result.dataJson;
  return { dataJson, total: result.total, page, limit };
}

/** The page's records, each with `match_confidence: "exact"` (after the record's id, as published). */
function withExactMatch(dataJson: string): string {
  const records = JSON.parse(dataJson) as Record<string, unknown>[];
  return JSON.stringify(
    records.map((record) => {
      const [first, ...rest] = Object.entries(record);
      return Object.fromEntries(first ? [first, ['match_confidence', 'exact'], ...rest] : [['match_confidence', 'exact']]);
    }),
  );
}
