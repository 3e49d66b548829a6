// Investors: GET /api/v2/signals/investors, ingest kind "investors".
import { INVESTOR_TYPES, InvestorRecord, InvestorsQuery, InvestorsResponse } from '../schemas/v2-schemas.js';
import { countryKey } from '../countries.js';
import type { Condition } from '../conditions.js';
import { defineDataset, type RowOrder } from '../dataset.js';
import { allowedValues, countryKeys, queryWords, searchText, signalPaging, wordConditions } from '../query-filters.js';
import { dateRange, excludedCountryKeys, sortOrder } from '../published-parameters.js';
import { companyIds } from '../company-identifiers.js';

export interface InvestorFilter {
  countryKeys: string[];
  excludedCountryKeys: string[];
  types: string[];
  words: string[];
  from?: string;
  before?: string;
  companyIds?: string[];
  order?: RowOrder<InvestorRow>;
}

/**
 * The published sort fields on our columns: investors have no creation date of their own, and
 * lastUpdated (sort_at) is what the published default, created_at descending, lists first here.
 */
const SORT_COLUMNS = {
  name: 'name',
  created_at: 'sort_at',
  ticket_size_min: 'ticket_size_min',
  ticket_size_max: 'ticket_size_max',
} as const;

export interface InvestorRow {
  record_id: string;
  investor_type: string;
  country_key: string | null;
  search_text: string;
  /** What sort_by=name orders by (its collation key is the index's), and typicalCheckSize's bounds. */
  name: string;
  ticket_size_min: number | null;
  ticket_size_max: number | null;
  /** The investor firm as a company (src/companies): what company_id matches. */
  company_id: string | null;
  sort_at: string;
  doc: string | Buffer;
}

export const investors = defineDataset<'investors', typeof InvestorsQuery, InvestorFilter, typeof InvestorRecord, InvestorRow>({
  name: 'investors',
  label: 'investors',
  table: 'investors',
  record: InvestorRecord,
  query: InvestorsQuery,
  api: {
    family: 'v2',
    path: '/signals/investors',
    endpoint: 'signals.investors',
    operationId: 'getInvestors',
    summary: 'Investors',
    description: `Investors, most recently updated first. \`categories\` takes investor types: ${INVESTOR_TYPES.join(', ')}.`,
    response: { ...InvestorsResponse, description: 'A page of records' },
    paging: signalPaging,
  },
  filter: (query, context) => ({
    countryKeys: countryKeys(query.countries),
    excludedCountryKeys: excludedCountryKeys(query.exclude_countries),
    types: allowedValues('categories', query.categories, INVESTOR_TYPES),
    words: queryWords('search', query.search),
    ...dateRange(query, context),
    companyIds: companyIds(query.company_id),
    order: sortOrder<keyof typeof SORT_COLUMNS, InvestorRow>(query, SORT_COLUMNS, 'created_at'),
  }),
  conditions(filter) {
    const conditions: Condition<InvestorRow>[] = [];
    if (filter.countryKeys.length > 0) conditions.push({ column: 'country_key', op: 'in', values: filter.countryKeys });
    if (filter.excludedCountryKeys.length > 0) {
      conditions.push({ column: 'country_key', op: 'notIn', values: filter.excludedCountryKeys });
    }
    if (filter.from !== undefined) conditions.push({ column: 'sort_at', op: 'atLeast', value: filter.from });
    if (filter.before !== undefined) conditions.push({ column: 'sort_at', op: 'below', value: filter.before });
    if (filter.types.length > 0) conditions.push({ column: 'investor_type', op: 'in', values: filter.types });
    conditions.push(...wordConditions<InvestorRow>('search_text', filter.words));
    if (filter.companyIds) conditions.push({ column: 'company_id', op: 'in', values: filter.companyIds });
    return conditions;
  },
  order: (filter) => filter.order,
  indexed: {
    investor_type: 'enum',
    country_key: 'enum',
    search_text: 'words',
    name: 'text',
    ticket_size_min: 'number',
    ticket_size_max: 'number',
    company_id: 'key',
  },
  columns: [
    { name: 'record_id', type: 'uuid' },
    { name: 'investor_type', type: 'text' },
    { name: 'country_key', type: 'text' },
    { name: 'search_text', type: 'text' },
    { name: 'name', type: 'text' },
    { name: 'ticket_size_min', type: 'float8' },
    { name: 'ticket_size_max', type: 'float8' },
    { name: 'company_id', type: 'uuid' },
    { name: 'sort_at', type: 'timestamptz' },
    { name: 'doc', type: 'text' },
  ],
  key: { column: 'record_id', type: 'uuid' },
  extras: ['source_id'],
  prepare: (record) => ({
    record_id: record.id,
    investor_type: record.investorType,
    country_key: countryKey(record.country),
    // The type is searchable as written and as words ("family_office", "family office").
    search_text: searchText([record.name, record.investorType, record.investorType.replace(/_/g, ' ')]),
    name: record.name,
    ticket_size_min: record.typicalCheckSize?.min ?? null,
    ticket_size_max: record.typicalCheckSize?.max ?? null,
    company_id: null,
    sort_at: record.lastUpdated,
    doc: JSON.stringify(record),
  }),
  ingestBatchRows: 1000,
  links: [
    {
      role: 'investor firm',
      column: 'company_id',
      idField: 'companyId',
      matchField: 'companyMatch',
      mention: (record) => ({
        name: record.name,
        website: record.website,
        linkedinUrl: record.linkedinUrl,
        country: record.country,
        foundedYear: record.foundedYear,
        employeeCount: record.teamSize,
        description: record.description,
        industry: 'Venture Capital and Private Equity Principals',
      }),
    },
  ],
  events: {
    created: 'investor.created',
    updated: 'investor.updated',
    // The published webhook filter keys, each the parameter of this list it becomes.
    filterKeys: { countries: 'countries', search: 'search' },
  },
});
