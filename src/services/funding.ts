import type { Queryable } from '../db/port.js';
import { listFunding, type FundingRow } from '../db/queries/funding.js';
import type { FundingParams, FundingQuery, FundingRecord } from '../schemas/v1.js';
import type { PageResultCache } from '../db/page-results.js';
import { labelKey, slugify, splitList } from './normalize.js';
import { companyFilter, companyKeys, pageOffset, V1_PAGE_SIZE } from './v1-filters.js';

export interface V1Page<P> {
  params: P;
  /** The page's records as JSON array text. */
  dataJson: string;
  total: number;
  page: number;
  perPage: number;
}

export async function listFundingRounds(
  db: Queryable,
  pageResults: PageResultCache,
  query: FundingQuery,
): Promise<V1Page<FundingParams>> {
  const rounds = splitList(query.round);
  const filter = { ...companyFilter(query), roundKeys: rounds.map(labelKey), minAmount: query.amount };
  const { page, offset } = pageOffset(query.page);
  const result = await listFunding(db, pageResults, filter, V1_PAGE_SIZE, offset);
  return {
    params: {
      category: splitList(query.category),
      round: rounds,
      amount: query.amount ?? null,
      date_from: query.date_from ?? null,
      date_to: query.date_to ?? null,
    },
    dataJson: result.dataJson,
    total: result.total,
    page,
    perPage: V1_PAGE_SIZE,
  };
}

/** Everything a funding record is filtered by, derived once at write time. */
export function prepareFundingRow(record: FundingRecord, sourceId: string | null = null): FundingRow {
  const namePath = record.name_path || slugify(record.company_name);
  const doc: FundingRecord = { ...record, name_path: namePath };
  const sortAt = record.date_seen ?? new Date().toISOString();
  return {
    natural_key: sourceId ? `source:${sourceId}` : `${namePath}|${labelKey(record.round_type ?? '')}|${sortAt.slice(0, 10)}`,
    source_id: sourceId,
    name_path: namePath,
    round_key: record.round_type === null ? null : labelKey(record.round_type),
    funding_amount: record.funding_amount,
    ...companyKeys(record),
    sort_at: sortAt,
    doc: JSON.stringify(doc),
  };
}
