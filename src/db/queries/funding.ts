import type { Queryable } from '../port.js';
import type { PageResultCache } from '../page-results.js';
import { companyConditions, type CompanyFilter } from './conditions.js';
import { fetchPage, type PageResult } from './pages.js';
import { upserter } from './upsert.js';

export interface FundingFilter extends CompanyFilter {
  roundKeys: string[];
  minAmount?: number;
}

export function listFunding(
  db: Queryable,
  pageResults: PageResultCache,
  filter: FundingFilter,
  limit: number,
  offset: number,
): Promise<PageResult> {
  const c = companyConditions(filter);
  if (filter.roundKeys.length > 0) c.add('round_key = ANY(?::text[])', filter.roundKeys);
  if (filter.minAmount !== undefined) c.add('funding_amount >= ?::bigint', filter.minAmount);
  return fetchPage(db, pageResults, { table: 'funding_rounds', dataset: 'funding', ...c, limit, offset });
}

/** A funding round as stored: the filter columns plus the served document. */
export interface FundingRow {
  natural_key: string;
  source_id: string | null;
  name_path: string;
  round_key: string | null;
  funding_amount: number;
  category_keys: string[];
  country_key: string | null;
  website_key: string | null;
  linkedin_keys: string[];
  sort_at: string;
  doc: string;
}

/** Upserts rows in one statement; returns how many were inserted or changed. */
export const upsertFundingRows = upserter<FundingRow>({
  table: 'funding_rounds',
  conflictKey: 'natural_key',
  columns: [
    { name: 'natural_key', type: 'text' },
    { name: 'source_id', type: 'text' },
    { name: 'name_path', type: 'text' },
    { name: 'round_key', type: 'text' },
    { name: 'funding_amount', type: 'bigint' },
    { name: 'category_keys', type: 'text[]' },
    { name: 'country_key', type: 'text' },
    { name: 'website_key', type: 'text' },
    { name: 'linkedin_keys', type: 'text[]' },
    { name: 'sort_at', type: 'timestamptz' },
    { name: 'doc', type: 'text' },
  ],
});
