// Hiring signals (GET /api/v2/signals/hiring): the posting as it is imported and stored, the record as the
// published 2.2 document serves it (`Hiring_HiringSignal`), and the published query.
import { Type, type Static } from '@sinclair/typebox';
import { DateString, linkId, linkMatch, ListString, Nullable } from './common.js';
import { datePreset, excludeCountries, HIRING_SORT_FIELDS, sortBy, sortOrder } from './published-params.js';
import { companyIdParam, countries, MAX_COMPANY_IDENTIFIERS, MetaRef, paging, Pagination, search } from './v2-schemas.js';

/** The published team size bands (the company's employee count) and applicant bands (the posting's applicants). */
export const TEAM_SIZES = ['1-10', '11-50', '51-200', '201-1000', '1000-plus'] as const;
export const APPLICANT_RANGES = ['0-25', '26-50', '51-100', '101-200', '201-plus'] as const;

/**
 * A job posting as it is imported and stored: the published record's own fields, its company as the
 * source names it (what resolution links it by: `companyLinkedinUrl` is ours, as on job changes).
 */
export const HiringPostingRecord = Type.Object(
  {
    id: Type.String({ format: 'uuid', description: 'Unique identifier for the hiring signal' }),
    jobId: Nullable(Type.String({ maxLength: 200, description: 'External job ID from the source platform' })),
    jobUrl: Type.String({ format: 'uri', maxLength: 2048, description: 'URL of the job posting' }),
    title: Type.String({ minLength: 1, maxLength: 500, description: 'Job title' }),
    location: Nullable(Type.String({ maxLength: 500, description: 'Full location string' })),
    city: Nullable(Type.String({ maxLength: 200, description: 'City of the job posting' })),
    region: Nullable(Type.String({ maxLength: 200, description: 'State or region (a US state as its two-letter code)' })),
    jobCountry: Nullable(Type.String({ maxLength: 100, description: 'Country of the job listing (ISO code or English name)' })),
    datePosted: Nullable(Type.String({ format: 'date-time', description: 'When the job was posted' })),
    validThrough: Nullable(Type.String({ format: 'date-time', description: 'When the job posting expires' })),
    employmentType: Nullable(Type.String({ maxLength: 100, description: 'Full-time, Part-time, Contract, …' })),
    seniorityLevel: Nullable(Type.String({ maxLength: 100, description: 'Seniority level of the role, as the source gives it' })),
    jobFunction: Nullable(Type.String({ maxLength: 200, description: 'Job function / department, as the source gives it' })),
    industries: Nullable(Type.String({ maxLength: 500, description: 'Industries associated with the posting' })),
    numApplicants: Nullable(
      Type.String({ maxLength: 20, pattern: '^[0-9]+\\+?$', description: 'Number of applicants (as string)' }),
    ),
    descriptionText: Nullable(Type.String({ maxLength: 100_000, description: 'Plain text job description' })),
    createdAt: Type.String({ format: 'date-time', description: 'When the signal was ingested' }),
    companyName: Type.String({ minLength: 1, maxLength: 300, description: 'Name of the hiring company' }),
    companyWebsite: Nullable(Type.String({ format: 'uri', maxLength: 2048 })),
    companyLinkedinUrl: Type.Optional(Nullable(Type.String({ format: 'uri', maxLength: 2048 }))),
    companyIndustry: Nullable(Type.String({ maxLength: 200 })),
    companyCountry: Nullable(
      Type.String({ maxLength: 100, description: 'Country of the company HQ (ISO code or English name)' }),
    ),
    companySubcategory: Nullable(Type.String({ maxLength: 100 })),
    companyEmployeeCount: Nullable(Type.Integer({ minimum: 0 })),
    companyFoundedYear: Nullable(Type.Integer({ minimum: 1000, maximum: 2200 })),
    companyLogoUrl: Nullable(Type.String({ format: 'uri', maxLength: 2048 })),
    companyDescription: Nullable(Type.String({ maxLength: 20_000 })),
    companySpecialties: Nullable(Type.String({ maxLength: 20_000, description: 'JSON-encoded array of company specialties' })),
    companyCategories: Nullable(Type.String({ maxLength: 20_000, description: 'JSON-encoded array of company categories' })),
  },
  { $id: 'HiringPosting', title: 'HiringPosting' },
);
export type HiringPostingRecord = Static<typeof HiringPostingRecord>;

/** The served record: the posting, its company link, and the published fields every answer carries. */
export const HiringSignal = Type.Intersect(
  [
    Type.Ref(HiringPostingRecord),
    Type.Object({
      match_confidence: Type.Union([Type.Literal('exact'), Type.Literal('fuzzy'), Type.Literal('none')], {
        description:
          'How the query matched this row\'s company, as published: "exact" with `company_domain` / `company_linkedin_url` ' +
          '/ `company_id`, "fuzzy" with `company_name`, "none" when the query names no company',
      }),
      companyId: linkId('the hiring company'),
      companyMatch: linkMatch('the hiring company'),
      isFreeAccess: Type.Boolean({ description: 'Always true for authenticated requests' }),
      companyLogo: Nullable(Type.String({ description: 'Alias of companyLogoUrl' })),
    }),
  ],
  { title: 'HiringSignal' },
);

export const HiringResponse = Type.Object({
  success: Type.Literal(true),
  data: Type.Array(HiringSignal),
  pagination: Type.Ref(Pagination),
  meta: MetaRef,
});

const bands = (values: readonly string[], what: string) =>
  Type.Optional(ListString({ description: `Comma-separated ${what} (OR): ${values.join(', ')}` }));

export const HiringQuery = Type.Object(
  {
    ...paging,
    dateFrom: Type.Optional(DateString('Earliest date of the signal (createdAt, UTC), inclusive')),
    dateTo: Type.Optional(DateString('Latest date of the signal (createdAt, UTC), inclusive')),
    date_preset: datePreset('the signal (createdAt)'),
    search: search('the company name, industry, job title, location and city'),
    description: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 500,
        description:
          'Full-text search over the job description only (PostgreSQL full-text search, English configuration: words are ' +
          'stemmed, so `scaling` matches "scale" and "scaled", and stop words such as "the" are ignored). Whole words, not ' +
          'prefixes; space-separated terms are ANDed, "quoted phrases" match in order, `OR` between terms and a leading `-` ' +
          'to exclude are honoured (`kubernetes OR terraform -intern`), the syntax of `websearch_to_tsquery`. A value with ' +
          'no searchable word (only stop words or punctuation) is a 400. Exact totals, ANDed with every other filter.',
        examples: ['kubernetes'],
      }),
    ),
    countries,
    exclude_countries: excludeCountries,
    job_countries: Type.Optional(
      ListString({
        description:
          'Comma-separated countries of the job listing only (ignores the company HQ); ANDed with `countries` when both are sent',
        examples: ['US'],
      }),
    ),
    states: Type.Optional(ListString({ description: 'Comma-separated US state codes of the job (OR), e.g. `CA,NY`' })),
    city: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description: 'Words matched against the city, location and region (word prefixes, as `search`)',
      }),
    ),
    categories: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 2000,
        description:
          "Pipe-separated company industry categories (OR), matched against the company's industry and categories, e.g. " +
          '`Software Development|Financial Services`',
      }),
    ),
    subcategories: Type.Optional(ListString({ description: 'Comma-separated company subcategories (OR), e.g. `saas`' })),
    positions: Type.Optional(ListString({ description: 'Comma-separated positions (OR); see the allowed values' })),
    departments: Type.Optional(ListString({ description: 'Comma-separated departments (OR)', examples: ['engineering'] })),
    seniorities: Type.Optional(ListString({ description: 'Comma-separated seniorities (OR), e.g. `vp,director`' })),
    team_size: bands(TEAM_SIZES, "team sizes (the company's employee count)"),
    applicants: bands(APPLICANT_RANGES, 'applicant count ranges (postings without a count never match)'),
    company_name: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description:
          'Words of the company name (word prefixes, as `search`); each record then carries `match_confidence: "fuzzy"`. ' +
          'Prefer `company_domain` or `company_linkedin_url` for strict matching',
      }),
    ),
    company_domain: Type.Optional(
      ListString({
        minLength: 1,
        maxLength: 4096,
        description:
          `Comma-separated website domains, up to ${MAX_COMPANY_IDENTIFIERS}: the postings linked to a company with one of ` +
          'these websites (company resolution), each with `match_confidence: "exact"`. Strict: a domain no company has gives ' +
          'an empty page; a malformed value is a 400. Variants are equivalent (`www.`, scheme, trailing slash, case).',
      }),
    ),
    company_linkedin_url: Type.Optional(
      ListString({
        minLength: 1,
        maxLength: 4096,
        description:
          `Comma-separated LinkedIn company page URLs, up to ${MAX_COMPANY_IDENTIFIERS}: the postings linked to a company ` +
          'with one of these pages. Strict, as `company_domain`; a URL that is not a company page (a `/in/` profile) is a 400.',
      }),
    ),
    company_id: companyIdParam,
    include_expired: Type.Optional(
      Type.Boolean({
        default: false,
        description: 'Also list postings whose `validThrough` has passed (by default they are hidden, checked to the minute)',
      }),
    ),
    sort_by: sortBy(
      HIRING_SORT_FIELDS,
      'created_at',
      'date_posted: datePosted; created_at: createdAt; title, company_name, location: case and accents ignored',
    ),
    sort_order: sortOrder,
  },
  { additionalProperties: false },
);
export type HiringQuery = Static<typeof HiringQuery>;
