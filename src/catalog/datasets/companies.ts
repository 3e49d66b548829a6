// Companies: GET /api/v2/companies (the published 2.2 list), ingest kind "companies", webhook
// events new_company.created and company.updated. One record per company, keyed by its stable id.
import type { Condition } from '../conditions.js';
import {
  COMPANY_SUBCATEGORIES,
  CompaniesQuery,
  CompaniesResponse,
  CompanyRecord,
  type CompanySubcategory,
} from '../schemas/v2-schemas.js';
import { countryKey } from '../countries.js';
import { invalidParameter } from '../errors.js';
import { labelKey, splitList, urlKey } from '../normalize.js';
import { defineDataset, type RowOrder } from '../dataset.js';
import { nameKey } from '../company-links.js';
import { countryKeys, queryWords, searchText, signalPaging, wordConditions } from '../query-filters.js';
import { excludedCountryKeys, inclusiveRange, sortOrder } from '../published-parameters.js';

export interface CompanyFilter {
  countryKeys: string[];
  excludedCountryKeys: string[];
  industryKeys: string[];
  categoryKeys: string[];
  subcategories: CompanySubcategory[];
  words: string[];
  minEmployees?: number;
  maxEmployees?: number;
  minFounded?: number;
  maxFounded?: number;
  order: RowOrder<CompanyRow>;
}

export interface CompanyRow {
  record_id: string;
  /** What sort_by=name orders by (the index keeps its collation key). */
  name: string;
  search_text: string;
  country_key: string | null;
  /** `industry`, as labelKey reduces it: what `industry` matches. */
  industry_key: string | null;
  /** `industry` and every one of `categories`, reduced the same way: what `categories` matches. */
  category_keys: string[];
  subcategory: string | null;
  employee_count: number | null;
  founded_year: number | null;
  /** The website's domain and the LinkedIn page as urlKey normalises them: how records name this company. */
  website_key: string | null;
  linkedin_key: string | null;
  /** nameKey of the name: how records that give only a name find the company. */
  name_key: string | null;
  /** Where the company came from: a companies import, or records naming a company no import had. */
  origin: 'import' | 'records';
  /** createdAt: what sort_by=created_at orders by. */
  sort_at: string;
  doc: string | Buffer;
}

/** The published sort fields on our columns. */
const SORT_COLUMNS = {
  name: 'name',
  employee_count: 'employee_count',
  founded_year: 'founded_year',
  created_at: 'sort_at',
} as const;

const SUBCATEGORY_SET: ReadonlySet<string> = new Set(COMPANY_SUBCATEGORIES);

/** `subcategories`: published ids, case-insensitive; any other value is a 400 naming it. */
function subcategories(raw: string | undefined): CompanySubcategory[] {
  const chosen = new Set<CompanySubcategory>();
  for (const value of splitList(raw)) {
    const key = labelKey(value);
    if (!SUBCATEGORY_SET.has(key)) {
      throw invalidParameter(
        `subcategories: "${value}" is not a subcategory; allowed values: ${COMPANY_SUBCATEGORIES.join(', ')}`,
        'subcategories',
      );
    }
    chosen.add(key as CompanySubcategory);
  }
  return [...chosen];
}

/** `categories`, as published, is split on pipes: LinkedIn's industry labels may hold commas. */
const pipeKeys = (raw: string | undefined) => [
  ...new Set(
    (raw ?? '')
      .split('|')
      .map(labelKey)
      .filter((key) => key !== ''),
  ),
];

export const companies = defineDataset<'companies', typeof CompaniesQuery, CompanyFilter, typeof CompanyRecord, CompanyRow>({
  name: 'companies',
  label: 'companies',
  table: 'companies',
  record: CompanyRecord,
  query: CompaniesQuery,
  api: {
    family: 'v2',
    path: '/companies',
    endpoint: 'companies.list',
    operationId: 'getCompanies',
    summary: 'Companies',
    description:
      'Company profiles, independent of any signal: one record per company, its `id` stable across re-imports. By default ' +
      'sorted by name, descending, as published (`sort_by`, `sort_order`); ties go by a stable id. Exact `totalCount` on ' +
      'every filter. `subcategories` refuses an unknown id with a 400 (the published API ignores it silently).',
    response: { ...CompaniesResponse, description: 'A page of records' },
    paging: signalPaging,
  },
  filter(query) {
    const employees = inclusiveRange(query.employee_count_min, query.employee_count_max, [
      'employee_count_min',
      'employee_count_max',
    ]);
    const founded = inclusiveRange(query.founded_year_min, query.founded_year_max, ['founded_year_min', 'founded_year_max']);
    return {
      countryKeys: countryKeys(query.countries),
      excludedCountryKeys: excludedCountryKeys(query.exclude_countries),
      // Labels holding commas can be sent pipe-separated, as `categories` takes them.
      industryKeys: query.industry?.includes('|')
        ? pipeKeys(query.industry)
        : [...new Set(splitList(query.industry).map(labelKey))],
      categoryKeys: pipeKeys(query.categories),
      subcategories: subcategories(query.subcategories),
      words: queryWords('search', query.search),
      minEmployees: employees.min,
      maxEmployees: employees.max,
      minFounded: founded.min,
      maxFounded: founded.max,
      // The published default is name, descending.
      order: sortOrder<keyof typeof SORT_COLUMNS, CompanyRow>(query, SORT_COLUMNS, 'name') ?? {
        column: 'name',
        direction: 'desc',
      },
    };
  },
  conditions(filter) {
    const conditions: Condition<CompanyRow>[] = [];
    if (filter.countryKeys.length > 0) conditions.push({ column: 'country_key', op: 'in', values: filter.countryKeys });
    if (filter.excludedCountryKeys.length > 0) {
      conditions.push({ column: 'country_key', op: 'notIn', values: filter.excludedCountryKeys });
    }
    if (filter.industryKeys.length > 0) conditions.push({ column: 'industry_key', op: 'in', values: filter.industryKeys });
    if (filter.categoryKeys.length > 0) conditions.push({ column: 'category_keys', op: 'overlaps', values: filter.categoryKeys });
    if (filter.subcategories.length > 0) conditions.push({ column: 'subcategory', op: 'in', values: filter.subcategories });
    if (filter.minEmployees !== undefined)
      conditions.push({ column: 'employee_count', op: 'atLeast', value: filter.minEmployees });
    if (filter.maxEmployees !== undefined)
      conditions.push({ column: 'employee_count', op: 'atMost', value: filter.maxEmployees });
    if (filter.minFounded !== undefined) conditions.push({ column: 'founded_year', op: 'atLeast', value: filter.minFounded });
    if (filter.maxFounded !== undefined) conditions.push({ column: 'founded_year', op: 'atMost', value: filter.maxFounded });
    conditions.push(...wordConditions<CompanyRow>('search_text', filter.words));
    return conditions;
  },
  order: (filter) => filter.order,
  indexed: {
    name: 'text',
    search_text: 'words',
    country_key: 'enum',
    industry_key: 'enum',
    category_keys: 'multi',
    subcategory: 'enum',
    employee_count: 'number',
    founded_year: 'number',
    website_key: 'key',
    linkedin_key: 'key',
  },
  columns: [
    { name: 'record_id', type: 'uuid' },
    { name: 'name', type: 'text' },
    { name: 'search_text', type: 'text' },
    { name: 'country_key', type: 'text' },
    { name: 'industry_key', type: 'text' },
    { name: 'category_keys', type: 'text[]' },
    { name: 'subcategory', type: 'text' },
    { name: 'employee_count', type: 'float8' },
    { name: 'founded_year', type: 'float8' },
    { name: 'website_key', type: 'text' },
    { name: 'linkedin_key', type: 'text' },
    { name: 'name_key', type: 'text' },
    { name: 'origin', type: 'text' },
    { name: 'sort_at', type: 'timestamptz' },
    { name: 'doc', type: 'text' },
  ],
  key: { column: 'record_id', type: 'uuid' },
  extras: ['source_id'],
  check(record) {
    const { createdAt, updatedAt } = record;
    if (typeof createdAt === 'string' && typeof updatedAt === 'string' && Date.parse(updatedAt) < Date.parse(createdAt)) {
      return 'updatedAt is before createdAt';
    }
    return undefined;
  },
  prepare: (record) => ({
    record_id: record.id,
    name: record.name,
    search_text: searchText([
      record.name,
      record.industry,
      record.description,
      record.keywords.join(' '),
      record.specialties.join(' '),
    ]),
    country_key: countryKey(record.headquartersCountry),
    industry_key: record.industry === null ? null : labelKey(record.industry),
    category_keys: [
      ...new Set([record.industry, ...record.categories].filter((label): label is string => label !== null).map(labelKey)),
    ],
    subcategory: record.companySubcategory ?? null,
    employee_count: record.employeeCount,
    founded_year: record.foundedYear,
    website_key: urlKey(record.website),
    linkedin_key: urlKey(record.linkedinUrl),
    name_key: nameKey(record.name),
    origin: 'import',
    sort_at: record.createdAt,
    doc: JSON.stringify(serialised(record)),
  }),
  ingestBatchRows: 1000,
  events: {
    created: 'new_company.created',
    updated: 'company.updated',
    filterKeys: { countries: 'countries', search: 'search' },
  },
});

/** The stored document: every field present, in the published order (an absent subcategory is null). */
function serialised(record: CompanyRecord): CompanyRecord {
  return { ...record, companySubcategory: record.companySubcategory ?? null };
}
