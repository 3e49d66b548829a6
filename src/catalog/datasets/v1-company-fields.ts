// What the two v1 datasets (funding, m-a) share: the company a record is about, its filters,
// the keys stored for them, and the page size.
import type { CompanyMention } from '../company-links.js';
import type { Condition } from '../conditions.js';
import type { ColumnSpec } from '../table-columns.js';
import type { ColumnKind } from '../table-columns.js';
import { countryKey } from '../countries.js';
import { labelKey, splitList, urlKey } from '../normalize.js';
import { countryKeyOf, dateBounds, urlFilterKey } from '../query-filters.js';

export const V1_PAGE_SIZE = 20;

/** The query parameters of the company filters. */
export interface CompanyQuery {
  category?: string;
  country?: string;
  website?: string;
  linkedin_url?: string;
  date_from?: string;
  date_to?: string;
}

export interface CompanyFilter {
  categoryKeys: string[];
  countryKey?: string;
  websiteKey?: string;
  linkedinKey?: string;
  /** Inclusive lower bound on sort_at (ISO timestamp). */
  from?: string;
  /** Exclusive upper bound on sort_at (ISO timestamp). */
  before?: string;
}

/** The columns the company filters test. */
export interface CompanyColumns {
  category_keys: string[];
  country_key: string | null;
  website_key: string | null;
  linkedin_keys: string[];
  sort_at: string;
}

/** The stored columns of the company filters, with the served document: the tail of a v1 dataset's columns. */
export const COMPANY_COLUMNS = [
  { name: 'category_keys', type: 'text[]' },
  { name: 'country_key', type: 'text' },
  { name: 'website_key', type: 'text' },
  { name: 'linkedin_keys', type: 'text[]' },
  { name: 'sort_at', type: 'timestamptz' },
  { name: 'doc', type: 'text' },
] as const satisfies readonly ColumnSpec<CompanyColumns & { doc: string }>[];

/** How the filter index keeps the company filters' columns. */
export const COMPANY_INDEXED = {
  category_keys: 'multi',
  country_key: 'enum',
  website_key: 'key',
  linkedin_keys: 'key',
} as const satisfies Readonly<Partial<Record<keyof CompanyColumns, ColumnKind>>>;

/** Normalises the company filters; the same keys are computed at write time (companyKeys). */
export function companyFilter(query: CompanyQuery): CompanyFilter {
  const filter: CompanyFilter = {
    categoryKeys: splitList(query.category).map(labelKey),
    ...dateBounds(query.date_from, query.date_to, ['date_from', 'date_to']),
  };
  if (query.country !== undefined) filter.countryKey = countryKeyOf(query.country);
  if (query.website !== undefined) filter.websiteKey = urlFilterKey(query.website);
  if (query.linkedin_url !== undefined) filter.linkedinKey = urlFilterKey(query.linkedin_url);
  return filter;
}

export function companyConditions<Row extends CompanyColumns>(filter: CompanyFilter): Condition<Row>[] {
  const conditions: Condition<Row>[] = [];
  if (filter.categoryKeys.length > 0) conditions.push({ column: 'category_keys', op: 'overlaps', values: filter.categoryKeys });
  if (filter.countryKey !== undefined) conditions.push({ column: 'country_key', op: 'equals', value: filter.countryKey });
  if (filter.websiteKey !== undefined) conditions.push({ column: 'website_key', op: 'equals', value: filter.websiteKey });
  if (filter.linkedinKey !== undefined) conditions.push({ column: 'linkedin_keys', op: 'includes', value: filter.linkedinKey });
  if (filter.from !== undefined) conditions.push({ column: 'sort_at', op: 'atLeast', value: filter.from });
  if (filter.before !== undefined) conditions.push({ column: 'sort_at', op: 'below', value: filter.before });
  return conditions;
}

interface CompanyFields {
  main_category?: string;
  company_info?: {
    categories?: string[];
    hq_country?: string | null;
    website?: string;
    industry?: string;
    year_founded?: number | null;
    description?: string;
    logo_url?: string | null;
  };
  contact_info?: { company_linkedin_url?: string | null; company_twitter_url?: string | null }[];
  historical_headcount?: { date: string; headcount: number }[];
}

/**
 * The company's size and age as funding signals serve them (employeeCount, foundedYear): the
 * headcount of its latest historical_headcount entry (of entries of the same date, the last), and
 * company_info.year_founded; null when absent.
 */
export function companySize(record: CompanyFields): { employee_count: number | null; founded_year: number | null } {
  let latest: { at: number; count: number } | null = null;
  for (const entry of record.historical_headcount ?? []) {
    const at = Date.parse(entry.date);
    if (latest === null || at >= latest.at) latest = { at, count: entry.headcount };
  }
  const integer = (value: unknown) => (typeof value === 'number' && Number.isInteger(value) ? value : null);
  return { employee_count: integer(latest?.count), founded_year: integer(record.company_info?.year_founded) };
}

/** The company a v1 record is about, as company resolution reads it (src/companies). */
export function v1CompanyMention(name: string, record: CompanyFields): CompanyMention {
  const info = record.company_info ?? {};
  const contact = (field: 'company_linkedin_url' | 'company_twitter_url') =>
    (record.contact_info ?? []).map((c) => c[field]).find((url): url is string => typeof url === 'string' && url !== '') ?? null;
  const size = companySize(record);
  return {
    name,
    website: info.website ?? null,
    linkedinUrl: contact('company_linkedin_url'),
    twitterUrl: contact('company_twitter_url'),
    country: info.hq_country ?? null,
    industry: info.industry ?? null,
    employeeCount: size.employee_count,
    foundedYear: size.founded_year,
    description: info.description ?? null,
    logoUrl: info.logo_url ?? null,
  };
}

/** The filter keys of a v1 record, computed at write time exactly as companyFilter computes them. */
export function companyKeys(record: CompanyFields): Omit<CompanyColumns, 'sort_at'> {
  const categories = [record.main_category, ...(record.company_info?.categories ?? [])]
    .filter((c): c is string => typeof c === 'string' && c.trim() !== '')
    .map(labelKey);
  const linkedin = (record.contact_info ?? []).map((c) => urlKey(c.company_linkedin_url)).filter((k): k is string => k !== null);
  return {
    category_keys: [...new Set(categories)],
    country_key: countryKey(record.company_info?.hq_country),
    website_key: urlKey(record.company_info?.website),
    linkedin_keys: [...new Set(linkedin)],
  };
}

/** A v1 page: 20 records, 1-based. */
export const v1Page = (query: { page?: number }) => query.page ?? 1;

const MAX_SAFE = Number.MAX_SAFE_INTEGER;

/** An amount field of an ingested record: between 0 and the largest integer a client reads exactly. */
export function amountInRange(record: Record<string, unknown>, field: string): string | undefined {
  const value = record[field];
  if (typeof value !== 'number') return undefined; // the schema's to report
  return value < 0 || value > MAX_SAFE ? `${field}: must be between 0 and ${MAX_SAFE}` : undefined;
}
