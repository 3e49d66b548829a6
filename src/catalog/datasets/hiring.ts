// Hiring signals: GET /api/v2/signals/hiring, ingest kind "hiring", webhook events hiring.created and
// hiring.updated. Open job postings; positions, departments and seniorities come from the title (the
// role classifier the job changes use); `description` is PostgreSQL full-text search over the job text.
import type { Condition } from '../conditions.js';
import { countryKey } from '../countries.js';
import { defineDataset, type RowOrder } from '../dataset.js';
import { invalidParameter } from '../errors.js';
import { labelKey, splitList } from '../normalize.js';
import { allowedValues, countryKeys, queryWords, searchText, signalPaging, wordConditions } from '../query-filters.js';
import { dateRange, excludedCountryKeys, sortOrder } from '../published-parameters.js';
import { companyIdentifiers, companyIds, linkedCompanyWith, type CompanyIdentifiers } from '../company-identifiers.js';
import { classifyRole, DEPARTMENTS, POSITIONS, SENIORITIES } from '../role-classifier.js';
import type { CompanyRecord } from '../schemas/v2-schemas.js';
import { APPLICANT_RANGES, HiringPostingRecord, HiringQuery, HiringResponse, TEAM_SIZES } from '../schemas/hiring-schemas.js';
import { pipeKeys, subcategories } from './companies.js';

export interface HiringFilter extends CompanyIdentifiers {
  countryKeys: string[];
  excludedCountryKeys: string[];
  jobCountryKeys: string[];
  states: string[];
  placeWords: string[];
  categoryKeys: string[];
  subcategories: string[];
  positions: string[];
  departments: string[];
  seniorities: string[];
  teamSizes: string[];
  applicants: string[];
  companyWords: string[];
  words: string[];
  /** The websearch query over the job description, as sent. */
  description?: string;
  companyIds?: string[];
  from?: string;
  before?: string;
  /** Postings still open at this time (ISO, the start of the request's minute); absent with include_expired. */
  openAt?: string;
  order?: RowOrder<HiringRow>;
}

/** The published sort fields on our columns (createdAt is sort_at). */
const SORT_COLUMNS = {
  date_posted: 'date_posted',
  created_at: 'sort_at',
  title: 'title',
  company_name: 'company_name',
  location: 'location',
} as const;

/** companyLogoUrl's JSON value in a stored document: null or a string (escapes and all). */
const COMPANY_LOGO = /"companyLogoUrl":(null|"(?:[^"\\]|\\.)*")/;

const MINUTE_MS = 60_000;

/** A posting without validThrough never expires: it stands as this date. */
export const NEVER_EXPIRES = '9999-12-31T00:00:00.000Z';

export interface HiringRow {
  record_id: string;
  /** The job's country and the company HQ's (what `countries` and `exclude_countries` match). */
  country_keys: string[];
  job_country_key: string | null;
  /** A US job's state, as its two-letter code. */
  state_key: string | null;
  /** The words of the city, location and region (`city`). */
  place_text: string;
  category_keys: string[];
  subcategory: string | null;
  position: string | null;
  departments: string[];
  seniority: string | null;
  team_size: string | null;
  applicants: string | null;
  company_name_text: string;
  search_text: string;
  title: string;
  company_name: string;
  location: string | null;
  date_posted: string | null;
  /** validThrough, or NEVER_EXPIRES. */
  expires_at: string;
  company_id: string | null;
  sort_at: string;
  doc: string | Buffer;
}

/** The team size band of an employee count. */
export function teamSize(employees: number | null): string | null {
  if (employees === null) return null;
  if (employees <= 10) return '1-10';
  if (employees <= 50) return '11-50';
  if (employees <= 200) return '51-200';
  if (employees <= 1000) return '201-1000';
  return '1000-plus';
}

/** The applicant band of numApplicants ("45", "200+"). */
export function applicantRange(applicants: string | null): string | null {
  if (applicants === null) return null;
  const count = Number.parseInt(applicants, 10);
  if (Number.isNaN(count)) return null;
  if (count <= 25) return '0-25';
  if (count <= 50) return '26-50';
  if (count <= 100) return '51-100';
  if (count <= 200) return '101-200';
  return '201-plus';
}

/** A US state as its code: the region of a job in the US (its country key), when it is one (two letters). */
function stateKey(countryKey: string | null, region: string | null): string | null {
  const code = region?.trim().toUpperCase() ?? '';
  return countryKey === 'us' && /^[A-Z]{2}$/.test(code) ? code : null;
}

/** JSON-encoded string arrays (companyCategories, companySpecialties) as values; anything else gives none. */
function encodedList(raw: string | null): string[] {
  if (raw === null) return [];
  try {
    const parsed: unknown = JSON.parse(raw);
    return Array.isArray(parsed) ? parsed.filter((value): value is string => typeof value === 'string') : [];
  } catch {
    return [];
  }
}

/**
 * The posting with its company fields the company entity's, as the published record serves them
 * (the company's name always; every other field the company's where it has one, the posting's where
 * it has none). So `team_size`, `categories`, `countries` and `company_name` filter on what is served.
 */
function adoptCompany(record: HiringPostingRecord, company: CompanyRecord): HiringPostingRecord {
  const list = (values: readonly string[], own: string | null) => (values.length > 0 ? JSON.stringify(values) : own);
  const linkedinUrl = company.linkedinUrl ?? record.companyLinkedinUrl;
  return {
    ...record,
    companyName: company.name,
    companyWebsite: company.website ?? record.companyWebsite,
    // Optional in the posting: present when either has it.
    ...(linkedinUrl !== undefined && { companyLinkedinUrl: linkedinUrl }),
    companyIndustry: company.industry ?? record.companyIndustry,
    companyCountry: company.headquartersCountry ?? record.companyCountry,
    companySubcategory: company.companySubcategory ?? record.companySubcategory,
    companyEmployeeCount: company.employeeCount ?? record.companyEmployeeCount,
    companyFoundedYear: company.foundedYear ?? record.companyFoundedYear,
    companyLogoUrl: company.logoUrl ?? record.companyLogoUrl,
    companyDescription: company.description ?? record.companyDescription,
    companySpecialties: list(company.specialties, record.companySpecialties),
    companyCategories: list(company.categories, record.companyCategories),
  };
}

function stateCodes(raw: string | undefined): string[] {
  return [
    ...new Set(
      splitList(raw).map((value) => {
        const code = value.trim().toUpperCase();
        if (!/^[A-Z]{2}$/.test(code)) throw invalidParameter(`states: "${value}" is not a US state code (e.g. CA)`, 'states');
        return code;
      }),
    ),
  ];
}

export const hiring = defineDataset<'hiring', typeof HiringQuery, HiringFilter, typeof HiringPostingRecord, HiringRow>({
  name: 'hiring',
  label: 'hiring signals',
  table: 'hiring_postings',
  record: HiringPostingRecord,
  query: HiringQuery,
  api: {
    family: 'v2',
    path: '/signals/hiring',
    endpoint: 'signals.hiring',
    operationId: 'getHiringSignals',
    summary: 'Hiring signals',
    description:
      'Open job postings, newest `createdAt` first. Positions, departments and seniorities are derived from the job `title` ' +
      "when the posting is recorded (the job changes' role classifier); OR within one list, AND across lists. " +
      'A posting whose `validThrough` has passed (checked to the minute: one that expired during the current minute ' +
      'is still listed) is hidden unless `include_expired=true`; one without `validThrough` never expires. `countries` matches the job country or the company HQ, `job_countries` the job country only. ' +
      "The company fields (`companyName` to `companyCategories`) are the linked company's (`companyId`): its values, the posting's own " +
      'where the company has none, as of when the posting was written (an operator takes later company changes to postings with ' +
      '`dealsignal companies resolve`); the filters on company fields read the same values. ' +
      `positions: ${POSITIONS.join(', ')}. departments: ${DEPARTMENTS.join(', ')}. seniorities: ${SENIORITIES.join(', ')}.`,
    response: { ...HiringResponse, description: 'A page of records' },
    paging: signalPaging,
    matchConfidence: (query) =>
      query.company_domain !== undefined || query.company_linkedin_url !== undefined || query.company_id !== undefined
        ? 'exact'
        : query.company_name !== undefined
          ? 'fuzzy'
          : undefined,
  },
  // The published record: match_confidence after the id ("none" unless the query names companies, see
  // matchConfidence), isFreeAccess and companyLogo (companyLogoUrl's published alias) at the end.
  document: {
    name: 'published',
    serve(doc) {
      // Spliced, not parsed: a document is several kilobytes of description. Only the document's own keys
      // are spelled with bare quotes (a string's quotes are escaped), so this finds the field's JSON value.
      const logo = COMPANY_LOGO.exec(doc)?.[1] ?? 'null';
      const afterId = doc.indexOf(',');
      return (
        `${doc.slice(0, afterId)},"match_confidence":"none"${doc.slice(afterId, -1)}` +
        `,"isFreeAccess":true,"companyLogo":${logo}}`
      );
    },
  },
  filter: (query, context) => {
    const now = context?.now ?? new Date();
    return {
      countryKeys: countryKeys(query.countries),
      excludedCountryKeys: excludedCountryKeys(query.exclude_countries),
      jobCountryKeys: countryKeys(query.job_countries),
      states: stateCodes(query.states),
      placeWords: queryWords('city', query.city),
      categoryKeys: pipeKeys(query.categories),
      subcategories: subcategories(query.subcategories),
      positions: allowedValues('positions', query.positions, POSITIONS),
      departments: allowedValues('departments', query.departments, DEPARTMENTS),
      seniorities: allowedValues('seniorities', query.seniorities, SENIORITIES),
      teamSizes: allowedValues('team_size', query.team_size, TEAM_SIZES),
      applicants: allowedValues('applicants', query.applicants, APPLICANT_RANGES),
      companyWords: queryWords('company_name', query.company_name),
      words: queryWords('search', query.search),
      ...(query.description !== undefined && { description: query.description }),
      ...companyIdentifiers(query),
      companyIds: companyIds(query.company_id),
      ...dateRange(query, context),
      // To the minute: every request of a minute asks the same filter, so the pages and counts of one search
      // share the index's answer (asked to the millisecond, no two requests would).
      ...(query.include_expired !== true && { openAt: new Date(now.getTime() - (now.getTime() % MINUTE_MS)).toISOString() }),
      order: sortOrder<keyof typeof SORT_COLUMNS, HiringRow>(query, SORT_COLUMNS, 'created_at'),
    };
  },
  conditions(filter) {
    const conditions: Condition<HiringRow>[] = [];
    if (filter.countryKeys.length > 0) conditions.push({ column: 'country_keys', op: 'overlaps', values: filter.countryKeys });
    if (filter.excludedCountryKeys.length > 0) {
      conditions.push({ column: 'country_keys', op: 'notOverlaps', values: filter.excludedCountryKeys });
    }
    if (filter.jobCountryKeys.length > 0) conditions.push({ column: 'job_country_key', op: 'in', values: filter.jobCountryKeys });
    if (filter.states.length > 0) conditions.push({ column: 'state_key', op: 'in', values: filter.states });
    conditions.push(...wordConditions<HiringRow>('place_text', filter.placeWords));
    if (filter.categoryKeys.length > 0) conditions.push({ column: 'category_keys', op: 'overlaps', values: filter.categoryKeys });
    if (filter.subcategories.length > 0) conditions.push({ column: 'subcategory', op: 'in', values: filter.subcategories });
    if (filter.positions.length > 0) conditions.push({ column: 'position', op: 'in', values: filter.positions });
    if (filter.departments.length > 0) conditions.push({ column: 'departments', op: 'overlaps', values: filter.departments });
    if (filter.seniorities.length > 0) conditions.push({ column: 'seniority', op: 'in', values: filter.seniorities });
    if (filter.teamSizes.length > 0) conditions.push({ column: 'team_size', op: 'in', values: filter.teamSizes });
    if (filter.applicants.length > 0) conditions.push({ column: 'applicants', op: 'in', values: filter.applicants });
    conditions.push(...wordConditions<HiringRow>('company_name_text', filter.companyWords));
    conditions.push(...wordConditions<HiringRow>('search_text', filter.words));
    if (filter.description !== undefined) {
      conditions.push({
        column: 'doc',
        op: 'fullText',
        field: 'descriptionText',
        words: { table: 'hiring_description_words', idColumn: 'posting_id', column: 'words' },
        query: filter.description,
        param: 'description',
      });
    }
    if (filter.from !== undefined) conditions.push({ column: 'sort_at', op: 'atLeast', value: filter.from });
    if (filter.before !== undefined) conditions.push({ column: 'sort_at', op: 'below', value: filter.before });
    if (filter.openAt !== undefined) conditions.push({ column: 'expires_at', op: 'atLeast', value: filter.openAt });
    if (filter.companyIds) conditions.push({ column: 'company_id', op: 'in', values: filter.companyIds });
    // The company's website and LinkedIn page are the linked company's (strict, as published).
    if (filter.domainKeys) conditions.push(linkedCompanyWith<HiringRow>('company_id', 'website_key', filter.domainKeys));
    if (filter.linkedinKeys) conditions.push(linkedCompanyWith<HiringRow>('company_id', 'linkedin_key', filter.linkedinKeys));
    return conditions;
  },
  order: (filter) => filter.order,
  indexed: {
    country_keys: 'multi',
    job_country_key: 'enum',
    state_key: 'enum',
    place_text: 'words',
    category_keys: 'multi',
    subcategory: 'enum',
    position: 'enum',
    departments: 'multi',
    seniority: 'enum',
    team_size: 'enum',
    applicants: 'enum',
    company_name_text: 'words',
    search_text: 'words',
    title: 'text',
    company_name: 'text',
    location: 'text',
    date_posted: 'number',
    expires_at: 'number',
    company_id: 'key',
  },
  columns: [
    { name: 'record_id', type: 'uuid' },
    { name: 'country_keys', type: 'text[]' },
    { name: 'job_country_key', type: 'text' },
    { name: 'state_key', type: 'text' },
    { name: 'place_text', type: 'text' },
    { name: 'category_keys', type: 'text[]' },
    { name: 'subcategory', type: 'text' },
    { name: 'position', type: 'text' },
    { name: 'departments', type: 'text[]' },
    { name: 'seniority', type: 'text' },
    { name: 'team_size', type: 'text' },
    { name: 'applicants', type: 'text' },
    { name: 'company_name_text', type: 'text' },
    { name: 'search_text', type: 'text' },
    { name: 'title', type: 'text' },
    { name: 'company_name', type: 'text' },
    { name: 'location', type: 'text' },
    { name: 'date_posted', type: 'timestamptz' },
    { name: 'expires_at', type: 'timestamptz' },
    { name: 'company_id', type: 'uuid' },
    { name: 'sort_at', type: 'timestamptz' },
    { name: 'doc', type: 'text' },
  ],
  key: { column: 'record_id', type: 'uuid' },
  extras: ['source_id'],
  check(record) {
    const { datePosted, validThrough } = record;
    if (typeof datePosted === 'string' && typeof validThrough === 'string' && Date.parse(validThrough) < Date.parse(datePosted)) {
      return 'validThrough is before datePosted';
    }
    return undefined;
  },
  prepare(record) {
    const role = classifyRole(record.title);
    const jobCountry = countryKey(record.jobCountry);
    const hqCountry = countryKey(record.companyCountry);
    return {
      record_id: record.id,
      country_keys: [...new Set([jobCountry, hqCountry].filter((key): key is string => key !== null))],
      job_country_key: jobCountry,
      state_key: stateKey(jobCountry, record.region),
      place_text: searchText([record.city, record.location, record.region]),
      category_keys: [
        ...new Set(
          [record.companyIndustry, ...encodedList(record.companyCategories)]
            .filter((label): label is string => label !== null)
            .map(labelKey),
        ),
      ].filter((key) => key !== ''),
      subcategory: record.companySubcategory === null ? null : labelKey(record.companySubcategory),
      position: role.position,
      departments: role.departments,
      seniority: role.seniority,
      team_size: teamSize(record.companyEmployeeCount),
      applicants: applicantRange(record.numApplicants),
      company_name_text: searchText([record.companyName]),
      search_text: searchText([record.companyName, record.companyIndustry, record.title, record.location, record.city]),
      title: record.title,
      company_name: record.companyName,
      location: record.location,
      date_posted: record.datePosted,
      expires_at: record.validThrough ?? NEVER_EXPIRES,
      company_id: null,
      sort_at: record.createdAt,
      doc: JSON.stringify(record),
    };
  },
  ingestBatchRows: 500,
  links: [
    {
      role: 'company',
      column: 'company_id',
      idField: 'companyId',
      matchField: 'companyMatch',
      mention: (record) => ({
        name: record.companyName,
        website: record.companyWebsite,
        linkedinUrl: record.companyLinkedinUrl ?? null,
        country: record.companyCountry,
        industry: record.companyIndustry,
        employeeCount: record.companyEmployeeCount,
        foundedYear: record.companyFoundedYear,
        description: record.companyDescription,
        logoUrl: record.companyLogoUrl,
      }),
      adopt: adoptCompany,
    },
  ],
  events: {
    created: 'hiring.created',
    updated: 'hiring.updated',
    filterKeys: { countries: 'countries', search: 'search' },
  },
});
