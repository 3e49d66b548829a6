// Acquisition signals: GET /api/v2/signals/acquisitions, ingest kind "acquisitions".
import type { Condition } from '../conditions.js';
import { AcquisitionSignalRecord, AcquisitionsQuery, AcquisitionsResponse } from '../schemas/v2-schemas.js';
import { countryCode, countryKey } from '../countries.js';
import { labelKey, splitList, urlKey } from '../normalize.js';
import { companyIdentifiers, companyIds, namesCompanies, type CompanyIdentifiers } from '../company-identifiers.js';
import { defineDataset, type RowOrder } from '../dataset.js';
import { countryKeys, queryWords, searchText, signalPaging, wordConditions } from '../query-filters.js';
import { dateRange, excludedCountryKeys, sortOrder } from '../published-parameters.js';

export interface AcquisitionFilter extends CompanyIdentifiers {
  countryKeys: string[];
  excludedCountryKeys: string[];
  order?: RowOrder<AcquisitionRow>;
  categoryKeys: string[];
  words: string[];
  from?: string;
  before?: string;
  companyIds?: string[];
}

/**
 * The published sort fields on our columns. A signal has one date, lastUpdated (sort_at): it is
 * both when it occurred and when it was discovered. It has no amount (every amount is unknown),
 * so sort_by=amount lists the signals as occurred_at does.
 */
const SORT_COLUMNS = {
  occurred_at: 'sort_at',
  discovered_at: 'sort_at',
  amount: 'sort_at',
  employee_count: 'employee_count',
} as const;

export interface AcquisitionRow {
  record_id: string;
  category_key: string | null;
  country_key: string | null;
  search_text: string;
  /** The company's website and LinkedIn page as urlKey normalises them (company_domain, company_linkedin_url). */
  website_key: string | null;
  linkedin_key: string | null;
  /** employeeCount, what sort_by=employee_count orders by. */
  employee_count: number | null;
  /** The company the signal is about (src/companies), what company_id matches. */
  company_id: string | null;
  sort_at: string;
  doc: string | Buffer;
}

/** A stored signal: its record, with the company link resolution appended once resolved (src/companies). */
type StoredSignal = AcquisitionSignalRecord & { companyId?: string | null; companyMatch?: string };

/**
 * The served record of a stored signal: the record as stored (the January 2026 AcquisitionSignal),
 * the fields of the published 2.2.0 AcquisitionSignal, then the company link fields when resolved.
 * A 2.2 field that renames a January one carries the same value; what signals do not record is null.
 */
/** The fields of the published 2.2 record acquisitionSignal adds to the stored one. */
const PUBLISHED_FIELDS = [
  'signalId',
  'signalType',
  'occurredAt',
  'discoveredAt',
  'companyLogo',
  'companyWebsite',
  'companyLinkedin',
  'companyIndustry',
  'companyCountry',
  'companySubcategory',
  'companyFoundedYear',
  'companyCategories',
  'companyDescription',
  'companyEmployeeCount',
  'acquiringCompanyId',
  'amount',
  'percentage',
  'announcedDate',
  'isFreeAccess',
  'sources',
] as const;

export function acquisitionSignal(stored: StoredSignal): Record<string, unknown> {
  const { companyId, companyMatch, ...record } = stored;
  const country = typeof record.country === 'string' && record.country.trim() !== '' ? record.country : null;
  return {
    ...record,
    signalId: record.id,
    signalType: 'acquisition',
    occurredAt: record.lastUpdated,
    discoveredAt: record.lastUpdated,
    companyLogo: null,
    companyWebsite: record.website,
    companyLinkedin: record.linkedinUrl,
    companyIndustry: record.industry,
    companyCountry: country === null ? null : (countryCode(country) ?? country),
    companySubcategory: null,
    companyFoundedYear: record.foundedYear,
    companyCategories: record.category === null ? null : JSON.stringify([record.category]),
    companyDescription: record.description,
    companyEmployeeCount: record.employeeCount,
    acquiringCompanyId: null,
    amount: null,
    percentage: null,
    announcedDate: null,
    isFreeAccess: true,
    sources: [],
    ...('companyId' in stored && { companyId, companyMatch }),
  };
}

export const acquisitions = defineDataset<
  'acquisitions',
  typeof AcquisitionsQuery,
  AcquisitionFilter,
  typeof AcquisitionSignalRecord,
  AcquisitionRow
>({
  name: 'acquisitions',
  label: 'acquisition signals',
  table: 'acquisition_signals',
  record: AcquisitionSignalRecord,
  query: AcquisitionsQuery,
  api: {
    family: 'v2',
    path: '/signals/acquisitions',
    endpoint: 'signals.acquisitions',
    operationId: 'getAcquisitionSignals',
    summary: 'Acquisition signals',
    description:
      'Companies showing acquisition indicators, newest `lastUpdated` (the signal date) first. Each record is the ' +
      'January 2026 AcquisitionSignal with the fields of the 2.2.0 one added (`signalId`, `signalType`, `occurredAt`, ' +
      '`discoveredAt`, the `company…` fields, …); where 2.2 renamed a field both names are served with the same value: ' +
      '`id`/`signalId`, `lastUpdated`/`occurredAt`/`discoveredAt`, `website`/`companyWebsite`, ' +
      '`linkedinUrl`/`companyLinkedin`, `industry`/`companyIndustry`, `foundedYear`/`companyFoundedYear`, ' +
      '`description`/`companyDescription`, `employeeCount`/`companyEmployeeCount`. Fields signals do not record ' +
      '(`companyLogo`, `companySubcategory`, `acquiringCompanyId`, `amount`, `percentage`, `announcedDate`) are null.',
    response: { ...AcquisitionsResponse, description: 'A page of records' },
    paging: signalPaging,
    exactMatch: namesCompanies,
  },
  servedFields: PUBLISHED_FIELDS,
  document: {
    name: 'published',
    serve: (doc) => JSON.stringify(acquisitionSignal(JSON.parse(doc) as StoredSignal)),
  },
  filter: (query, context) => ({
    countryKeys: countryKeys(query.countries),
    excludedCountryKeys: excludedCountryKeys(query.exclude_countries),
    categoryKeys: [...new Set(splitList(query.categories).map(labelKey))],
    words: queryWords('search', query.search),
    ...dateRange(query, context),
    ...companyIdentifiers(query),
    companyIds: companyIds(query.company_id),
    order: sortOrder<keyof typeof SORT_COLUMNS, AcquisitionRow>(query, SORT_COLUMNS, 'occurred_at'),
  }),
  conditions(filter) {
    const conditions: Condition<AcquisitionRow>[] = [];
    if (filter.countryKeys.length > 0) conditions.push({ column: 'country_key', op: 'in', values: filter.countryKeys });
    if (filter.excludedCountryKeys.length > 0) {
      conditions.push({ column: 'country_key', op: 'notIn', values: filter.excludedCountryKeys });
    }
    if (filter.categoryKeys.length > 0) {
      conditions.push({ column: 'category_key', op: 'in', values: filter.categoryKeys });
    }
    if (filter.from !== undefined) conditions.push({ column: 'sort_at', op: 'atLeast', value: filter.from });
    if (filter.before !== undefined) conditions.push({ column: 'sort_at', op: 'below', value: filter.before });
    conditions.push(...wordConditions<AcquisitionRow>('search_text', filter.words));
    if (filter.domainKeys) conditions.push({ column: 'website_key', op: 'in', values: filter.domainKeys });
    if (filter.linkedinKeys) conditions.push({ column: 'linkedin_key', op: 'in', values: filter.linkedinKeys });
    if (filter.companyIds) conditions.push({ column: 'company_id', op: 'in', values: filter.companyIds });
    return conditions;
  },
  order: (filter) => filter.order,
  indexed: {
    category_key: 'enum',
    country_key: 'enum',
    search_text: 'words',
    website_key: 'key',
    linkedin_key: 'key',
    employee_count: 'number',
    company_id: 'key',
  },
  columns: [
    { name: 'record_id', type: 'uuid' },
    { name: 'category_key', type: 'text' },
    { name: 'country_key', type: 'text' },
    { name: 'search_text', type: 'text' },
    { name: 'website_key', type: 'text' },
    { name: 'linkedin_key', type: 'text' },
    { name: 'employee_count', type: 'float8' },
    { name: 'company_id', type: 'uuid' },
    { name: 'sort_at', type: 'timestamptz' },
    { name: 'doc', type: 'text' },
  ],
  key: { column: 'record_id', type: 'uuid' },
  extras: ['source_id'],
  prepare: (record) => ({
    record_id: record.id,
    category_key: record.category === null ? null : labelKey(record.category),
    country_key: countryKey(record.country),
    search_text: searchText([record.companyName, record.industry]),
    website_key: urlKey(record.website),
    linkedin_key: urlKey(record.linkedinUrl),
    employee_count: record.employeeCount,
    company_id: null,
    sort_at: record.lastUpdated,
    doc: JSON.stringify(record),
  }),
  ingestBatchRows: 1000,
  links: [
    {
      role: 'company',
      column: 'company_id',
      idField: 'companyId',
      matchField: 'companyMatch',
      mention: (record) => ({
        name: record.companyName,
        website: record.website,
        linkedinUrl: record.linkedinUrl,
        country: record.country,
        industry: record.industry,
        employeeCount: record.employeeCount,
        foundedYear: record.foundedYear,
        description: record.description,
      }),
    },
  ],
  events: {
    created: 'acquisition.created',
    updated: 'acquisition.updated',
    // The published webhook filter keys, each the parameter of this list it becomes.
    filterKeys: { countries: 'countries', categories: 'categories', search: 'search', dateFrom: 'dateFrom', dateTo: 'dateTo' },
  },
});
