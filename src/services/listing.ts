// A page of a dataset for its list endpoint: query → filter → conditions → one page statement.
import type { TObject, TSchema } from '@sinclair/typebox';
import type { PageResultCache } from '../db/page-results.js';
import type { Queryable } from '../db/port.js';
import { whereClause } from '../db/queries/conditions.js';
import { fetchPage, type PageResult } from '../db/queries/pages.js';
import { V1_PAGE_SIZE } from '../datasets/company.js';
import type { Dataset, SignalApi, StoredRow, V1Api, ValidQuery } from '../datasets/dataset.js';

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

function fetchFiltered<Q extends TObject, F, R extends TSchema, Row extends StoredRow>(
  db: Queryable,
  pageResults: PageResultCache,
  dataset: Dataset<Q, F, R, Row>,
  query: ValidQuery<Q>,
  paging: { limit: number; offset: number },
): Promise<PageResult> {
  const where = whereClause(dataset.columns, dataset.conditions(dataset.filter(query)));
  return fetchPage(db, pageResults, { table: dataset.table, dataset: dataset.name, ...where, ...paging });
}

export async function listV1Page<Q extends TObject, F, R extends TSchema, Row extends StoredRow>(
  db: Queryable,
  pageResults: PageResultCache,
  dataset: Dataset<Q, F, R, Row>,
  api: V1Api<NoInfer<ValidQuery<Q>>>,
  query: NoInfer<ValidQuery<Q>>,
): Promise<V1Page> {
  const page = api.page(query);
  const result = await fetchFiltered(db, pageResults, dataset, query, { limit: V1_PAGE_SIZE, offset: (page - 1) * V1_PAGE_SIZE });
  return { params: api.params(query), dataJson: result.dataJson, total: result.total, page, perPage: V1_PAGE_SIZE };
}

export async function listSignalPage<Q extends TObject, F, R extends TSchema, Row extends StoredRow>(
  db: Queryable,
  pageResults: PageResultCache,
  dataset: Dataset<Q, F, R, Row>,
  api: SignalApi<NoInfer<ValidQuery<Q>>>,
  query: NoInfer<ValidQuery<Q>>,
): Promise<SignalPage> {
  const { page, limit, count } = api.paging(query);
  // Count mode needs only the total: the same statement with no rows.
  const result = await fetchFiltered(db, pageResults, dataset, query, {
    limit: count ? 0 : limit,
    offset: count ? 0 : (page - 1) * limit,
  });
  return { dataJson: result.dataJson, total: result.total, page, limit };
}
