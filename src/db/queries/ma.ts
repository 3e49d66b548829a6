import type { Queryable } from '../port.js';
import type { PageResultCache } from '../page-results.js';
import { companyConditions, containsPattern, type CompanyFilter } from './conditions.js';
import { fetchPage, type PageResult } from './pages.js';
import { upserter } from './upsert.js';

export interface MaFilter extends CompanyFilter {
  minAmount?: number;
  status?: string;
  /** Lower-cased substring of the acquirer's name. */
  acquirerContains?: string;
}

export function listMa(
  db: Queryable,
  pageResults: PageResultCache,
  filter: MaFilter,
  limit: number,
  offset: number,
): Promise<PageResult> {
  const c = companyConditions(filter);
  if (filter.minAmount !== undefined) c.add('acquisition_amount >= ?::bigint', filter.minAmount);
  if (filter.status !== undefined) c.add('status = ?', filter.status);
  if (filter.acquirerContains !== undefined) c.add('acquirer_key LIKE ?', containsPattern(filter.acquirerContains));
  return fetchPage(db, pageResults, { table: 'ma_deals', dataset: 'm-a', ...c, limit, offset });
}

export interface MaRow {
  investment_id: string;
  status: string;
  acquisition_amount: number;
  acquirer_key: string;
  category_keys: string[];
  country_key: string | null;
  website_key: string | null;
  linkedin_keys: string[];
  sort_at: string;
  doc: string;
}

export const upsertMaRows = upserter<MaRow>({
  table: 'ma_deals',
  conflictKey: 'investment_id',
  columns: [
    { name: 'investment_id', type: 'uuid' },
    { name: 'status', type: 'text' },
    { name: 'acquisition_amount', type: 'bigint' },
    { name: 'acquirer_key', type: 'text' },
    { name: 'category_keys', type: 'text[]' },
    { name: 'country_key', type: 'text' },
    { name: 'website_key', type: 'text' },
    { name: 'linkedin_keys', type: 'text[]' },
    { name: 'sort_at', type: 'timestamptz' },
    { name: 'doc', type: 'text' },
  ],
});
