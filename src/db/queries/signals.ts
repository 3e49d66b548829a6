// SQL of the three v2 signal tables: their filters and their upserts.
import type { Queryable } from '../port.js';
import type { PageResultCache } from '../page-results.js';
import { Conditions, containsPattern } from './conditions.js';
import { fetchPage, type PageResult } from './pages.js';
import { upserter } from './upsert.js';

export interface Paging {
  limit: number;
  offset: number;
}

/** Every word must occur somewhere in the record's search text (trigram index). */
function addSearch(c: Conditions, words: string[]): void {
  for (const word of words) c.add('search_text LIKE ?', containsPattern(word));
}

// ---------- investors ----------

export interface InvestorFilter {
  countryKeys: string[];
  types: string[];
  words: string[];
}

export function listInvestors(
  db: Queryable,
  pageResults: PageResultCache,
  filter: InvestorFilter,
  paging: Paging,
): Promise<PageResult> {
  const c = new Conditions();
  if (filter.countryKeys.length > 0)
    c.addWithWalk('country_key = ANY(?::text[])', "(country_key || '') = ANY(?::text[])", filter.countryKeys);
  if (filter.types.length > 0)
    c.addWithWalk('investor_type = ANY(?::text[])', "(investor_type || '') = ANY(?::text[])", filter.types);
  addSearch(c, filter.words);
  return fetchPage(db, pageResults, { table: 'investors', dataset: 'investors', ...c, ...paging });
}

export interface InvestorRow {
  record_id: string;
  investor_type: string;
  country_key: string | null;
  search_text: string;
  sort_at: string;
  doc: string;
}

export const upsertInvestorRows = upserter<InvestorRow>({
  table: 'investors',
  conflictKey: 'record_id',
  columns: [
    { name: 'record_id', type: 'uuid' },
    { name: 'investor_type', type: 'text' },
    { name: 'country_key', type: 'text' },
    { name: 'search_text', type: 'text' },
    { name: 'sort_at', type: 'timestamptz' },
    { name: 'doc', type: 'text' },
  ],
});

// ---------- job changes ----------

export interface JobChangeFilter {
  words: string[];
  personKey?: string;
  companyKey?: string;
  positions: string[];
  departments: string[];
  seniorities: string[];
}

export function listJobChanges(
  db: Queryable,
  pageResults: PageResultCache,
  filter: JobChangeFilter,
  paging: Paging,
): Promise<PageResult> {
  const c = new Conditions();
  if (filter.personKey !== undefined) c.add('person_key = ?', filter.personKey);
  if (filter.companyKey !== undefined) c.add('company_key = ?', filter.companyKey);
  if (filter.positions.length > 0)
    c.addWithWalk('position = ANY(?::text[])', "(position || '') = ANY(?::text[])", filter.positions);
  if (filter.departments.length > 0)
    c.addWithWalk('departments && ?::text[]', "(departments || '{}'::text[]) && ?::text[]", filter.departments);
  if (filter.seniorities.length > 0)
    c.addWithWalk('seniority = ANY(?::text[])', "(seniority || '') = ANY(?::text[])", filter.seniorities);
  addSearch(c, filter.words);
  return fetchPage(db, pageResults, { table: 'job_changes', dataset: 'job-changes', ...c, ...paging });
}

export interface JobChangeRow {
  record_id: string;
  position: string | null;
  departments: string[];
  seniority: string | null;
  person_key: string | null;
  company_key: string | null;
  search_text: string;
  sort_at: string;
  doc: string;
}

export const upsertJobChangeRows = upserter<JobChangeRow>({
  table: 'job_changes',
  conflictKey: 'record_id',
  columns: [
    { name: 'record_id', type: 'uuid' },
    { name: 'position', type: 'text' },
    { name: 'departments', type: 'text[]' },
    { name: 'seniority', type: 'text' },
    { name: 'person_key', type: 'text' },
    { name: 'company_key', type: 'text' },
    { name: 'search_text', type: 'text' },
    { name: 'sort_at', type: 'timestamptz' },
    { name: 'doc', type: 'text' },
  ],
});

// ---------- acquisition signals ----------

export interface AcquisitionFilter {
  countryKeys: string[];
  categoryKeys: string[];
  words: string[];
  from?: string;
  before?: string;
}

export function listAcquisitions(
  db: Queryable,
  pageResults: PageResultCache,
  filter: AcquisitionFilter,
  paging: Paging,
): Promise<PageResult> {
  const c = new Conditions();
  if (filter.countryKeys.length > 0)
    c.addWithWalk('country_key = ANY(?::text[])', "(country_key || '') = ANY(?::text[])", filter.countryKeys);
  if (filter.categoryKeys.length > 0)
    c.addWithWalk('category_key = ANY(?::text[])', "(category_key || '') = ANY(?::text[])", filter.categoryKeys);
  if (filter.from !== undefined) c.add('sort_at >= ?::timestamptz', filter.from);
  if (filter.before !== undefined) c.add('sort_at < ?::timestamptz', filter.before);
  addSearch(c, filter.words);
  return fetchPage(db, pageResults, { table: 'acquisition_signals', dataset: 'acquisitions', ...c, ...paging });
}

export interface AcquisitionRow {
  record_id: string;
  category_key: string | null;
  country_key: string | null;
  search_text: string;
  sort_at: string;
  doc: string;
}

export const upsertAcquisitionRows = upserter<AcquisitionRow>({
  table: 'acquisition_signals',
  conflictKey: 'record_id',
  columns: [
    { name: 'record_id', type: 'uuid' },
    { name: 'category_key', type: 'text' },
    { name: 'country_key', type: 'text' },
    { name: 'search_text', type: 'text' },
    { name: 'sort_at', type: 'timestamptz' },
    { name: 'doc', type: 'text' },
  ],
});
