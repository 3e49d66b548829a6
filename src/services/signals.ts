// v2 signals: query parsing (the rules the schemas cannot express) and write-time preparation.
import type { Queryable } from '../db/port.js';
import type { PageResult } from '../db/queries/pages.js';
import {
  listAcquisitions,
  listInvestors,
  listJobChanges,
  type AcquisitionRow,
  type InvestorRow,
  type JobChangeRow,
} from '../db/queries/signals.js';
import { invalidParameter } from './errors.js';
import {
  INVESTOR_TYPES,
  type AcquisitionSignalRecord,
  type AcquisitionsQuery,
  type InvestorRecord,
  type InvestorsQuery,
  type JobChangeRecord,
  type JobChangesQuery,
} from '../schemas/v2.js';
import type { PageResultCache } from '../db/page-results.js';
import { countryKey, isIsoCountryCode } from './countries.js';
import { labelKey, splitList, urlKey } from './normalize.js';
import { classifyRole, DEPARTMENTS, POSITIONS, SENIORITIES } from './role-classifier.js';
import { dateBounds } from './v1-filters.js';

export const DEFAULT_LIMIT = 20;

export interface SignalPage {
  dataJson: string;
  total: number;
  page: number;
  limit: number;
}

interface PagingQuery {
  page?: number;
  limit?: number;
  count?: boolean;
}

async function paged(query: PagingQuery, list: (paging: { limit: number; offset: number }) => Promise<PageResult>) {
  const page = query.page ?? 1;
  const limit = query.limit ?? DEFAULT_LIMIT;
  // Count mode needs only the total: the same statement with no rows.
  const result = await list({ limit: query.count ? 0 : limit, offset: query.count ? 0 : (page - 1) * limit });
  return { dataJson: result.dataJson, total: result.total, page, limit } satisfies SignalPage;
}

/** Values of a comma-separated parameter, lower-cased, each checked against the allowed list. */
function allowedValues(name: string, raw: string | undefined, allowed: readonly string[]): string[] {
  const values = splitList(raw).map(labelKey);
  const unknown = values.filter((v) => !allowed.includes(v));
  if (unknown.length > 0) {
    throw invalidParameter(`${name}: "${unknown[0]}" is not allowed; allowed values: ${allowed.join(', ')}`);
  }
  return [...new Set(values)];
}

function countryKeys(raw: string | undefined): string[] {
  const codes = splitList(raw);
  const unknown = codes.find((code) => !isIsoCountryCode(code));
  if (unknown !== undefined) {
    throw invalidParameter(`countries: "${unknown}" is not an ISO 3166 alpha-2 country code (e.g. US, GB, DE)`);
  }
  return [...new Set(codes.map((code) => code.toLowerCase()))];
}

function searchWords(raw: string | undefined): string[] {
  if (raw === undefined) return [];
  const words = [
    ...new Set(
      raw
        .toLowerCase()
        .split(/\s+/)
        .filter((w) => w !== ''),
    ),
  ];
  if (words.length > 10) throw invalidParameter('search: at most 10 words');
  return words;
}

const searchText = (parts: (string | null | undefined)[]) =>
  parts
    .filter((p): p is string => typeof p === 'string' && p !== '')
    .join(' \u0001 ') // a separator no search word contains, so words never match across fields
    .toLowerCase();

// ---------- investors ----------

export function listInvestorSignals(db: Queryable, pageResults: PageResultCache, query: InvestorsQuery): Promise<SignalPage> {
  const filter = {
    countryKeys: countryKeys(query.countries),
    types: allowedValues('categories', query.categories, INVESTOR_TYPES),
    words: searchWords(query.search),
  };
  return paged(query, (paging) => listInvestors(db, pageResults, filter, paging));
}

export function prepareInvestorRow(record: InvestorRecord): InvestorRow {
  return {
    record_id: record.id,
    investor_type: record.investorType,
    country_key: countryKey(record.country),
    // The type is searchable as written and as words ("family_office", "family office").
    search_text: searchText([record.name, record.investorType, record.investorType.replace(/_/g, ' ')]),
    sort_at: record.lastUpdated,
    doc: JSON.stringify(record),
  };
}

// ---------- job changes ----------

export function listJobChangeSignals(db: Queryable, pageResults: PageResultCache, query: JobChangesQuery): Promise<SignalPage> {
  const filter = {
    words: searchWords(query.search),
    personKey: query.personLinkedinUrl === undefined ? undefined : (urlKey(query.personLinkedinUrl) ?? ''),
    companyKey: query.companyLinkedinUrl === undefined ? undefined : (urlKey(query.companyLinkedinUrl) ?? ''),
    positions: allowedValues('positions', query.positions, POSITIONS),
    departments: allowedValues('departments', query.departments, DEPARTMENTS),
    seniorities: allowedValues('seniorities', query.seniorities, SENIORITIES),
  };
  return paged(query, (paging) => listJobChanges(db, pageResults, filter, paging));
}

export function prepareJobChangeRow(record: JobChangeRecord): JobChangeRow {
  const role = classifyRole(record.newRole);
  return {
    record_id: record.signalId,
    position: role.position,
    departments: role.departments,
    seniority: role.seniority,
    person_key: urlKey(record.personLinkedinUrl),
    company_key: urlKey(record.companyLinkedinUrl),
    search_text: searchText([record.personName, record.companyName, record.newRole, record.previousCompanyName]),
    sort_at: record.occurredAt,
    doc: JSON.stringify(record),
  };
}

// ---------- acquisition signals ----------

export function listAcquisitionSignals(
  db: Queryable,
  pageResults: PageResultCache,
  query: AcquisitionsQuery,
): Promise<SignalPage> {
  const filter = {
    countryKeys: countryKeys(query.countries),
    categoryKeys: [...new Set(splitList(query.categories).map(labelKey))],
    words: searchWords(query.search),
    ...dateBounds(query.dateFrom, query.dateTo, ['dateFrom', 'dateTo']),
  };
  return paged(query, (paging) => listAcquisitions(db, pageResults, filter, paging));
}

export function prepareAcquisitionRow(record: AcquisitionSignalRecord): AcquisitionRow {
  return {
    record_id: record.id,
    category_key: record.category === null ? null : labelKey(record.category),
    country_key: countryKey(record.country),
    search_text: searchText([record.companyName, record.industry]),
    sort_at: record.lastUpdated,
    doc: JSON.stringify(record),
  };
}
