// Companies: GET /api/v2/companies (the published 2.2 list), ingest kind "companies", webhook
// events new_company.created and company.updated. One record per company, keyed by its stable id.
import type { Condition } from '../conditions.js';
import {
  COMPANY_SIGNAL_TYPES,
  COMPANY_SUBCATEGORIES,
  CompaniesQuery,
  CompaniesResponse,
  CompanyRecord,
  type CompanySubcategory,
  type PublishedRoundType,
} from '../schemas/v2-schemas.js';
import { countryKey } from '../countries.js';
import { invalidParameter } from '../errors.js';
import { labelKey, splitList, urlKey } from '../normalize.js';
import { defineDataset, type FilterContext, type RowOrder } from '../dataset.js';
import { DATE_PRESETS, type DatePreset } from '../schemas/published-params.js';
import { presetRange } from '../date-presets.js';
import { DEPARTMENTS, SENIORITIES } from '../role-classifier.js';
import { roundCondition, roundTypes } from './funding-signals.js';
import { nameKey } from '../company-links.js';
import { allowedValues, countryKeys, queryWords, searchText, signalPaging, wordConditions } from '../query-filters.js';
import { excludedCountryKeys, inclusiveRange, sortOrder } from '../published-parameters.js';

/** Signals from (inclusive) and before (exclusive), ISO timestamps; either absent: unbounded. */
interface SignalWindow {
  from?: string;
  before?: string;
}

/** What the company's signals must hold: each present part is one condition, ANDed. */
export interface CompanySignalFilter {
  fundingRound?: { window: SignalWindow; roundTypes: PublishedRoundType[] };
  acquisition?: { window: SignalWindow };
  jobChange?: { window: SignalWindow; departments: string[]; seniorities: string[] };
  hiring?: { window: SignalWindow; departments: string[]; seniorities: string[] };
  totalFunding?: { min: number; currency: string };
}

export interface CompanyFilter {
  signals: CompanySignalFilter;
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
export function subcategories(raw: string | undefined): CompanySubcategory[] {
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

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A signal window parameter: a UTC day (from its start on) or a date_preset's range; anything else is a 400 naming it. */
function signalWindow(raw: string | undefined, param: string, context: FilterContext | undefined): SignalWindow | undefined {
  if (raw === undefined) return undefined;
  const value = raw.trim();
  if ((DATE_PRESETS as readonly string[]).includes(value)) return presetRange(value as DatePreset, context?.now ?? new Date());
  const day = DAY.exec(value);
  const start = day ? Date.UTC(Number(day[1]), Number(day[2]) - 1, Number(day[3])) : NaN;
  if (!day || new Date(start).toISOString().slice(0, 10) !== value) {
    throw invalidParameter(
      `${param}: "${raw}" is neither a date (YYYY-MM-DD) nor a date_preset value (${DATE_PRESETS.join(', ')})`,
      param,
    );
  }
  return { from: new Date(start).toISOString() };
}

/** The signal filters of the query; `{}` when it has none. */
function signalFilter(query: CompaniesQuery, context: FilterContext | undefined): CompanySignalFilter {
  const types = new Set(allowedValues('has_signals', query.has_signals, COMPANY_SIGNAL_TYPES));
  const since = signalWindow(query.signals_since, 'signals_since', context) ?? {};
  const own = {
    funding_round: signalWindow(query.funding_round_since, 'funding_round_since', context),
    acquisition: signalWindow(query.acquisition_since, 'acquisition_since', context),
    job_change: signalWindow(query.job_change_since, 'job_change_since', context),
    hiring: signalWindow(query.hiring_since, 'hiring_since', context),
  };
  const rounds = roundTypes(query.funding_round_types, 'funding_round_types');
  const departments = allowedValues('job_change_departments', query.job_change_departments, DEPARTMENTS);
  const seniorities = allowedValues('job_change_seniorities', query.job_change_seniorities, SENIORITIES);
  const hiringDepartments = allowedValues('hiring_departments', query.hiring_departments, DEPARTMENTS);
  const hiringSeniorities = allowedValues('hiring_seniorities', query.hiring_seniorities, SENIORITIES);
  const wanted = (type: keyof typeof own, implied: boolean) => types.has(type) || own[type] !== undefined || implied;
  const filter: CompanySignalFilter = {};
  if (wanted('funding_round', rounds.length > 0)) {
    filter.fundingRound = { window: own.funding_round ?? since, roundTypes: rounds };
  }
  if (wanted('acquisition', false)) filter.acquisition = { window: own.acquisition ?? since };
  if (wanted('job_change', departments.length > 0 || seniorities.length > 0)) {
    filter.jobChange = { window: own.job_change ?? since, departments, seniorities };
  }
  if (wanted('hiring', hiringDepartments.length > 0 || hiringSeniorities.length > 0)) {
    filter.hiring = { window: own.hiring ?? since, departments: hiringDepartments, seniorities: hiringSeniorities };
  }
  if (query.total_funding_min !== undefined) {
    filter.totalFunding = { min: query.total_funding_min, currency: (query.total_funding_currency ?? 'USD').toUpperCase() };
  } else if (query.total_funding_currency !== undefined) {
    throw invalidParameter(
      'total_funding_currency: it says which rounds total_funding_min adds up; send both',
      'total_funding_currency',
    );
  }
  return filter;
}

type LinkedConditions = Condition<Record<string, unknown>>[];

/** A window as conditions on the linked records' date (sort_at). */
function windowConditions(window: SignalWindow): LinkedConditions {
  const conditions: LinkedConditions = [];
  if (window.from !== undefined) conditions.push({ column: 'sort_at', op: 'atLeast', value: window.from });
  if (window.before !== undefined) conditions.push({ column: 'sort_at', op: 'below', value: window.before });
  return conditions;
}

/** The signal filters as conditions on the company's id: each one a set of records of another dataset linked to it. */
function signalConditions(signals: CompanySignalFilter): Condition<CompanyRow>[] {
  const conditions: Condition<CompanyRow>[] = [];
  const { fundingRound, acquisition, jobChange, hiring, totalFunding } = signals;
  if (fundingRound) {
    const linked = windowConditions(fundingRound.window);
    const round = roundCondition(fundingRound.roundTypes);
    if (round) linked.push(round as Condition<Record<string, unknown>>);
    conditions.push({ column: 'record_id', op: 'linkedFrom', dataset: 'funding', links: ['company_id'], conditions: linked });
  }
  if (acquisition) {
    conditions.push({
      column: 'record_id',
      op: 'linkedFrom',
      dataset: 'm-a',
      links: ['company_id', 'acquirer_company_id'],
      conditions: windowConditions(acquisition.window),
    });
  }
  if (jobChange) {
    const linked = windowConditions(jobChange.window);
    if (jobChange.departments.length > 0) linked.push({ column: 'departments', op: 'overlaps', values: jobChange.departments });
    if (jobChange.seniorities.length > 0) linked.push({ column: 'seniority', op: 'in', values: jobChange.seniorities });
    conditions.push({ column: 'record_id', op: 'linkedFrom', dataset: 'job-changes', links: ['company_id'], conditions: linked });
  }
  if (hiring) {
    const linked = windowConditions(hiring.window);
    if (hiring.departments.length > 0) linked.push({ column: 'departments', op: 'overlaps', values: hiring.departments });
    if (hiring.seniorities.length > 0) linked.push({ column: 'seniority', op: 'in', values: hiring.seniorities });
    conditions.push({ column: 'record_id', op: 'linkedFrom', dataset: 'hiring', links: ['company_id'], conditions: linked });
  }
  if (totalFunding) {
    conditions.push({
      column: 'record_id',
      op: 'linkedTotal',
      dataset: 'funding',
      link: 'company_id',
      sum: 'funding_amount',
      atLeast: totalFunding.min,
      conditions: [{ column: 'currency_key', op: 'in', values: [totalFunding.currency] }],
    });
  }
  return conditions;
}

/** `categories`, as published, is split on pipes: LinkedIn's industry labels may hold commas. */
export const pipeKeys = (raw: string | undefined) => [
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
      'every filter. `subcategories` refuses an unknown id with a 400 (the published API ignores it silently). ' +
      "Beyond the published API, filters over the company's signals (the funding rounds, M&A deals and job changes " +
      'linked to it by company resolution), ANDed with each other and the company filters, exact totals too: ' +
      '`has_signals`, `signals_since` and the windows of each type, `funding_round_types`, `total_funding_min`, ' +
      '`job_change_departments`, `job_change_seniorities`. "Raised in the last 90 days and hired a VP of sales in the ' +
      'last 30, in DACH" is `funding_round_since=last_90d&job_change_since=last_30d&job_change_departments=sales&' +
      'job_change_seniorities=vp&countries=DE,AT,CH`.',
    response: { ...CompaniesResponse, description: 'A page of records' },
    paging: signalPaging,
  },
  filter(query, context) {
    const employees = inclusiveRange(query.employee_count_min, query.employee_count_max, [
      'employee_count_min',
      'employee_count_max',
    ]);
    const founded = inclusiveRange(query.founded_year_min, query.founded_year_max, ['founded_year_min', 'founded_year_max']);
    return {
      signals: signalFilter(query, context),
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
    conditions.push(...signalConditions(filter.signals));
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
    // The signal filters: the companies their linked records name, looked up by id.
    record_id: 'key',
    // A lookup by domain or LinkedIn page prefers an imported company to one made from records.
    origin: 'enum',
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
