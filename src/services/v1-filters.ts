import { invalidParameter } from './errors.js';
import type { CompanyFilter } from '../db/queries/conditions.js';
import { countryKey, countryCode } from './countries.js';
import { labelKey, splitList, urlKey } from './normalize.js';

export const V1_PAGE_SIZE = 20;

export interface CompanyQuery {
  category?: string;
  country?: string;
  website?: string;
  linkedin_url?: string;
  date_from?: string;
  date_to?: string;
}

const DAY_MS = 86_400_000;

/** Inclusive calendar-date bounds (UTC) as [from, before) timestamps; from after to is a 400. */
export function dateBounds(from: string | undefined, to: string | undefined, names: [string, string]) {
  if (from !== undefined && to !== undefined && from > to) {
    throw invalidParameter(`${names[0]} (${from}) must not be after ${names[1]} (${to})`);
  }
  return {
    from: from === undefined ? undefined : `${from}T00:00:00Z`,
    before: to === undefined ? undefined : new Date(Date.parse(`${to}T00:00:00Z`) + DAY_MS).toISOString(),
  };
}

/** Normalises the filters v1 funding and m-a share; the same keys are computed at write time. */
export function companyFilter(query: CompanyQuery): CompanyFilter {
  const filter: CompanyFilter = {
    categoryKeys: splitList(query.category).map(labelKey),
    ...dateBounds(query.date_from, query.date_to, ['date_from', 'date_to']),
  };
  if (query.country !== undefined) {
    if (countryCode(query.country) === undefined) {
      throw invalidParameter('country must be an ISO 3166 alpha-2 code (e.g. "US") or an English country name');
    }
    filter.countryKey = countryKey(query.country)!;
  }
  if (query.website !== undefined) filter.websiteKey = urlKey(query.website) ?? '';
  if (query.linkedin_url !== undefined) filter.linkedinKey = urlKey(query.linkedin_url) ?? '';
  return filter;
}

export function pageOffset(page: number | undefined): { page: number; offset: number } {
  const current = page ?? 1;
  return { page: current, offset: (current - 1) * V1_PAGE_SIZE };
}

interface CompanyFields {
  main_category?: string;
  company_info?: { categories?: string[]; hq_country?: string | null; website?: string };
  contact_info?: { company_linkedin_url?: string | null }[];
}

/** The filter keys of a v1 record, computed at write time exactly as companyFilter computes them. */
export function companyKeys(record: CompanyFields) {
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
