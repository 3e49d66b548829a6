import { Type, type Static, type TProperties } from '@sinclair/typebox';
import { DateString, linkId, linkMatch, ListString, MAX_PAGE, MAX_SAFE, Nullable } from './common.js';
import {
  ACQUISITION_SORT_FIELDS,
  amountBound,
  CATEGORY_NOTE,
  datePreset,
  excludeCountries,
  FUNDING_SORT_FIELDS,
  INVESTOR_SORT_FIELDS,
  JOB_CHANGE_SORT_FIELDS,
  COMPANY_SORT_FIELDS,
  sortBy,
  sortOrder,
} from './published-params.js';

export const INVESTOR_TYPES = ['vc', 'angel', 'pe', 'corporate', 'accelerator', 'family_office', 'fund', 'government'] as const;

// ---------- records (the published contract's shapes) ----------

export const InvestorRecord = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    name: Type.String({ minLength: 1 }),
    investorType: Type.Union(INVESTOR_TYPES.map((t) => Type.Literal(t))),
    country: Type.String({ description: 'Country name in English, e.g. "United States"' }),
    city: Nullable(Type.String()),
    state: Nullable(Type.String()),
    description: Type.String(),
    website: Type.String({ format: 'uri' }),
    linkedinUrl: Nullable(Type.String({ format: 'uri' })),
    twitterUrl: Nullable(Type.String({ format: 'uri' })),
    foundedYear: Nullable(Type.Integer()),
    teamSize: Nullable(Type.Integer()),
    aum: Nullable(Type.Number({ description: 'Assets under management, USD' })),
    investmentFocus: Type.Array(Type.String()),
    investmentStage: Type.Array(Type.String()),
    typicalCheckSize: Nullable(Type.Object({ min: Type.Number(), max: Type.Number() })),
    portfolioCompaniesCount: Nullable(Type.Integer()),
    notableInvestments: Type.Array(Type.String()),
    activelyInvesting: Type.Boolean(),
    lastInvestmentDate: Nullable(Type.String({ format: 'date' })),
    lastUpdated: Type.String({ format: 'date-time' }),
  },
  { $id: 'Investor', title: 'Investor' },
);
export type InvestorRecord = Static<typeof InvestorRecord>;

export const JobChangeRecord = Type.Object(
  {
    signalId: Type.String({ format: 'uuid' }),
    personName: Type.String({ minLength: 1 }),
    personLinkedinUrl: Type.String({ format: 'uri' }),
    signalType: Type.Literal('job_change'),
    occurredAt: Type.String({ format: 'date-time', description: 'When the change happened (UTC)' }),
    discoveredAt: Type.String({ format: 'date-time', description: 'When the change was detected (UTC)' }),
    companyName: Type.String({ minLength: 1, description: 'New employer' }),
    companyLinkedinUrl: Type.String({ format: 'uri' }),
    newRole: Type.String({ minLength: 1 }),
    previousCompanyName: Nullable(Type.String()),
  },
  { $id: 'JobChangeSignal', title: 'JobChangeSignal' },
);
export type JobChangeRecord = Static<typeof JobChangeRecord>;

export const AcquisitionSignalRecord = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    companyName: Type.String({ minLength: 1 }),
    industry: Nullable(Type.String()),
    country: Nullable(Type.String({ description: 'Country name in English' })),
    category: Nullable(Type.String()),
    website: Nullable(Type.String({ format: 'uri' })),
    linkedinUrl: Nullable(Type.String({ format: 'uri' })),
    employeeCount: Nullable(Type.Integer()),
    revenue: Nullable(Type.String({ description: 'Revenue range, e.g. "10M-50M"' })),
    foundedYear: Nullable(Type.Integer()),
    description: Nullable(Type.String()),
    acquisitionSignalScore: Nullable(Type.Number({ minimum: 0, maximum: 100 })),
    signalIndicators: Type.Array(Type.String()),
    lastUpdated: Type.String({ format: 'date-time', description: 'The signal date' }),
  },
  { $id: 'AcquisitionSignal', title: 'AcquisitionSignal' },
);
export type AcquisitionSignalRecord = Static<typeof AcquisitionSignalRecord>;

/** The published funding round types (FundingSignal.roundType), in the published order. */
export const PUBLISHED_ROUND_TYPES = [
  'Pre-Seed',
  'Seed',
  'Series A',
  'Series B',
  'Series C',
  'Series D',
  'Series E',
  'Series F+',
  'Bridge',
  'Debt Financing',
  'Grant',
  'Convertible Note',
  'Equity Crowdfunding',
  'ICO',
  'IPO',
  'Private Equity',
  'Venture',
  'Angel',
  'Corporate',
  'Other',
] as const;
export type PublishedRoundType = (typeof PUBLISHED_ROUND_TYPES)[number];

/** `match_confidence` on a record found by company_domain / company_linkedin_url (absent otherwise). */
export const MatchConfidence = Type.Optional(
  Type.Literal('exact', {
    description:
      'Present only when the query names companies by `company_domain` or `company_linkedin_url`: "exact", the record ' +
      "is one of those companies' (its website or LinkedIn page, normalised, equals a value sent)",
  }),
);

/** `sources` of a published 2.2 signal: the articles it was found in. None are recorded, so it is empty. */
const PublishedSources = Type.Array(
  Type.Object({
    url: Type.String(),
    sourceType: Nullable(Type.String()),
    title: Nullable(Type.String()),
    publishedAt: Nullable(Type.String({ format: 'date-time' })),
    isPrimary: Type.Boolean(),
  }),
  { description: 'Source articles of the signal (2.2): none are recorded, so always empty' },
);

/** Where a record keeps what the published 2.2 company fields carry: the January field each is an alias of. */
interface CompanyFieldSources {
  website: string;
  linkedin: string;
  industry: string;
  country: string;
  foundedYear: string;
  description: string;
  employeeCount: string;
  /** What companyCategories lists. */
  categories: string;
  /** Where companyLogo comes from; none: not recorded (null). */
  logo?: string;
}

/** The company fields of a published 2.2 signal, each the same value as the January field it renames. */
function publishedCompanyFields(from: CompanyFieldSources) {
  const alias = (field: string) => `Alias of \`${field}\` (2.2 name): the same value`;
  return {
    companyLogo: Nullable(
      Type.String({ format: 'uri', description: from.logo ? `The company's logo: ${from.logo}` : 'Not recorded: null' }),
    ),
    companyWebsite: Nullable(Type.String({ format: 'uri', description: alias(from.website) })),
    companyLinkedin: Nullable(Type.String({ format: 'uri', description: alias(from.linkedin) })),
    companyIndustry: Nullable(Type.String({ description: alias(from.industry) })),
    companyCountry: Nullable(
      Type.String({
        description: `The ISO 3166 alpha-2 code of \`${from.country}\` when it is a country we recognise, else as recorded`,
      }),
    ),
    companySubcategory: Nullable(Type.String({ description: 'Not classified: null' })),
    companyFoundedYear: Nullable(Type.Integer({ description: alias(from.foundedYear) })),
    companyCategories: Nullable(
      Type.String({ description: `JSON-encoded array of company categories: ${from.categories}; null when none` }),
    ),
    companyDescription: Nullable(Type.String({ description: alias(from.description) })),
    companyEmployeeCount: Nullable(Type.Integer({ description: alias(from.employeeCount) })),
  };
}

/**
 * A funding signal: the published record, made from a v1 funding round when it is served (see
 * src/catalog/datasets/funding-signals.ts). Fields our rounds do not record are null, as published.
 */
export const FundingSignalRecord = Type.Object(
  {
    signalId: Type.String({ format: 'uuid', description: "Stable: derived from the round's natural key (UUID v5)" }),
    match_confidence: MatchConfidence,
    companyName: Type.String(),
    roundType: Type.Unsafe<PublishedRoundType>({
      type: 'string',
      enum: [...PUBLISHED_ROUND_TYPES],
      description: 'The published round type our round label maps to ("Other" for labels outside the table, and none)',
    }),
    fundingAmount: Nullable(Type.Number({ description: 'Amount in `fundingCurrency`' })),
    fundingCurrency: Nullable(Type.String({ description: 'ISO 4217 code' })),
    announcedDate: Nullable(Type.String({ format: 'date', description: 'The UTC date of the round (when it was seen)' })),
    industry: Nullable(Type.String()),
    country: Nullable(Type.String({ description: 'HQ country: its English name when recognised, else as recorded' })),
    category: Nullable(Type.String({ description: 'Primary business category' })),
    website: Nullable(Type.String({ format: 'uri' })),
    linkedinUrl: Nullable(Type.String({ format: 'uri' })),
    employeeCount: Nullable(Type.Integer({ description: 'The latest headcount recorded' })),
    foundedYear: Nullable(Type.Integer()),
    description: Nullable(Type.String()),
    investorNames: Nullable(Type.Array(Type.String())),
    leadInvestor: Nullable(Type.String({ description: 'Not recorded: null' })),
    totalFundingToDate: Nullable(Type.Number({ description: 'Not recorded: null' })),
    valuation: Nullable(Type.Number({ description: 'Not recorded: null' })),
    useOfFunds: Nullable(Type.String({ description: 'Not recorded: null' })),
    lastUpdated: Nullable(Type.String({ format: 'date-time', description: 'When the round was seen' })),
    // The fields of the published 2.2 FundingSignal. Where 2.2 renamed a January field, both names are
    // served with the same value (the aliases below).
    signalType: Type.Literal('funding_round', { description: 'Always "funding_round" on this endpoint (2.2)' }),
    occurredAt: Type.String({
      format: 'date-time',
      description:
        'When the round occurred (2.2): `date_seen` as recorded (the value of `lastUpdated`); a round recorded without ' +
        'one, the time it sorts and is filtered by (the start of the UTC day it was imported on)',
    }),
    discoveredAt: Type.String({
      format: 'date-time',
      description: 'When the round was discovered (2.2): the round has one date, so the value of `occurredAt`',
    }),
    ...publishedCompanyFields({
      website: 'website',
      linkedin: 'linkedinUrl',
      industry: 'industry',
      country: 'country',
      foundedYear: 'foundedYear',
      description: 'description',
      employeeCount: 'employeeCount',
      categories: "the round's `main_category`, then `company_info.categories` (what `categories` matches)",
      logo: '`company_info.logo_url` of the round',
    }),
    roundFlavor: Nullable(
      Type.Union([Type.Literal('bridge'), Type.Literal('extension'), Type.Literal('secondary')], {
        description: 'Not recorded: null (a bridge round is `roundType` "Bridge")',
      }),
    ),
    amount: Nullable(Type.Integer({ description: 'Alias of `fundingAmount` (2.2 name): the same value' })),
    currency: Type.Optional(
      Type.String({ description: 'Alias of `fundingCurrency` (2.2 name): the same value; absent when the round records none' }),
    ),
    confidenceScore: Nullable(Type.Number({ minimum: 0, maximum: 1, description: 'Not recorded: null' })),
    isFreeAccess: Type.Literal(true, { description: 'Always true for authenticated requests' }),
    investors: Type.Array(
      Type.Object({
        name: Type.String(),
        linkedin: Nullable(Type.String({ format: 'uri', description: "The investor's `linkedin_url`, null when not recorded" })),
      }),
      { description: 'The investors of the round (2.2); `investorNames` lists their names' },
    ),
    sources: PublishedSources,
    companyId: linkId('the company'),
    companyMatch: linkMatch('the company'),
  },
  {
    $id: 'FundingSignal',
    title: 'FundingSignal',
    description:
      'A funding round as the January 2026 FundingSignal with the fields of the 2.2.0 one added. Aliases (the same value ' +
      'under both names): `fundingAmount` = `amount`, `fundingCurrency` = `currency`, `website` = `companyWebsite`, ' +
      '`linkedinUrl` = `companyLinkedin`, `industry` = `companyIndustry`, `foundedYear` = `companyFoundedYear`, ' +
      '`description` = `companyDescription`, `employeeCount` = `companyEmployeeCount`, `lastUpdated` = `occurredAt` ' +
      '(when the round records `date_seen`). `country` is the English name and `companyCountry` the ISO code of the ' +
      'same country; `investorNames` are the names of `investors`.',
  },
);
export type FundingSignalRecord = Static<typeof FundingSignalRecord>;

/** The published company subcategories (`subcategories`, `companySubcategory`), in the published order. */
export const COMPANY_SUBCATEGORIES = [
  'ai',
  'saas',
  'software',
  'cybersecurity',
  'web3',
  'devtools',
  'analytics',
  'cloud',
  'iot',
  'fintech',
  'payments',
  'accounting',
  'ecommerce',
  'insurance',
  'vc & investment',
  'regtech',
  'marketing',
  'advertising',
  'sales',
  'hr tech',
  'legal',
  'healthcare',
  'biotechnology',
  'education',
  'real estate',
  'energy',
  'logistics',
  'manufacturing',
  'retail',
  'agriculture',
  'food & beverage',
  'automotive',
  'aerospace & defense',
  'robotics',
  'telecommunications',
  'travel',
  'sports',
  'gaming',
  'media',
  'govtech',
  'construction',
  'environmental services',
  'battery technology',
  'arts',
  'architecture',
  'cosmetics',
  'science',
  'non-profit',
] as const;
export type CompanySubcategory = (typeof COMPANY_SUBCATEGORIES)[number];

const Growth = Type.Number({ minimum: -100, maximum: 1_000_000 });

/**
 * The published Companies_Company (2.2), every field always present (null or [] when unknown),
 * plus `companySubcategory`, which the published enums page says company responses carry.
 */
export const CompanyRecord = Type.Object(
  {
    id: Type.String({ format: 'uuid', description: 'Stable company id: never reused, kept across re-imports' }),
    name: Type.String({ minLength: 1, maxLength: 300 }),
    slug: Type.String({ minLength: 1, maxLength: 300, pattern: '^[a-z0-9]+(?:-[a-z0-9]+)*$', description: 'URL-friendly slug' }),
    description: Nullable(Type.String({ maxLength: 5000 })),
    website: Nullable(Type.String({ format: 'uri', maxLength: 2048 })),
    linkedinUrl: Nullable(Type.String({ format: 'uri', maxLength: 2048, description: 'LinkedIn company page' })),
    twitterUrl: Nullable(Type.String({ format: 'uri', maxLength: 2048 })),
    logoUrl: Nullable(Type.String({ format: 'uri', maxLength: 2048 })),
    industry: Nullable(Type.String({ maxLength: 200, description: "Industry label (LinkedIn's taxonomy)" })),
    foundedYear: Nullable(Type.Integer({ minimum: 1800, maximum: 2199 })),
    headquartersCountry: Nullable(Type.String({ maxLength: 100, description: 'ISO 3166 alpha-2 code where known' })),
    employeeCount: Nullable(Type.Integer({ minimum: 0, maximum: 100_000_000 })),
    categories: Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { maxItems: 50 }),
    keywords: Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { maxItems: 100 }),
    specialties: Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { maxItems: 100 }),
    growthInfo: Nullable(
      Type.Object(
        {
          growth_1m: Type.Optional(Growth),
          growth_3m: Type.Optional(Growth),
          growth_6m: Type.Optional(Growth),
          growth_9m: Type.Optional(Growth),
          growth_12m: Type.Optional(Growth),
        },
        { additionalProperties: false, description: 'Headcount growth in percent over 1 to 12 months' },
      ),
    ),
    companySubcategory: Type.Optional(
      Nullable(
        Type.Union(
          COMPANY_SUBCATEGORIES.map((value) => Type.Literal(value)),
          { description: 'Published subcategory id' },
        ),
      ),
    ),
    createdAt: Type.String({ format: 'date-time' }),
    updatedAt: Type.String({ format: 'date-time' }),
  },
  { $id: 'Company', title: 'Company' },
);
export type CompanyRecord = Static<typeof CompanyRecord>;

// ---------- envelope ----------

export const Pagination = Type.Object(
  {
    currentPage: Type.Integer({ minimum: 1 }),
    totalPages: Type.Integer({ minimum: 0 }),
    totalCount: Type.Integer({ minimum: 0, description: 'Exact number of matching records' }),
    hasNextPage: Type.Boolean(),
    hasPreviousPage: Type.Boolean(),
  },
  { $id: 'Pagination', title: 'Pagination' },
);
export type Pagination = Static<typeof Pagination>;

/** A v2 endpoint's name in `meta.endpoint`, and the endpoint its credits are charged to ("signals.investors"). */
export type SignalEndpoint = string;

/** `meta` of a v2 page. */
export interface SignalMeta {
  endpoint: SignalEndpoint;
  creditsUsed: number;
  creditsRemaining: number;
}

/**
 * A reference to the `Meta` schema, which names every v2 endpoint: it is made from the registry
 * (signal-meta.ts), which the datasets' own envelopes (built on this reference) come before.
 */
export const MetaRef = Type.Unsafe<SignalMeta>(Type.Ref('Meta'));

/**
 * The `code` of a v2 error, with its HTTP status: what a client branches on (the message may be
 * reworded). Each entry of the error catalogue (src/catalog/errors.ts) has one. The webhooks API
 * keeps the published webhooks codes (WebhookError).
 */
export const V2_ERROR_CODES = {
  invalid_parameter: {
    status: 400,
    description:
      'a parameter breaks its rule, is repeated, or is not one the endpoint takes; `param` names it (absent only for a ' +
      'malformed URL path)',
  },
  invalid_api_key: { status: 401, description: 'the API key is missing, malformed, unknown or revoked' },
  insufficient_credits: { status: 402, description: "the account's credits for this billing period are used up" },
  forbidden: { status: 403, description: 'the key may not do this (no v2 endpoint answers it today)' },
  not_found: { status: 404, description: 'no such path under /api/v2, or not with this method' },
  method_not_allowed: {
    status: 405,
    description: 'the path does not take this method (not answered today: such requests are 404)',
  },
  conflict: { status: 409, description: 'the request conflicts with the current state (no v2 endpoint answers it today)' },
  gone: {
    status: 410,
    description: "`since` is older than the change log's retention (`param` is `since`): resync from the list endpoints",
  },
  payload_too_large: {
    status: 413,
    description: 'the body is larger than the endpoint reads (no v2 endpoint but the webhooks API takes a body)',
  },
  request_timeout: { status: 408, description: "the request did not arrive in full within the server's request timeout" },
  uri_too_long: { status: 414, description: 'the URL is longer than 4096 characters' },
  unsupported_media_type: {
    status: 415,
    description: 'a body sent compressed (`Content-Encoding`) where the endpoint reads it as it is (no v2 endpoint today)',
  },
  rate_limited: {
    status: 429,
    description: 'the rate limit, or the limit of failed authentications from one address; retry after Retry-After seconds',
  },
  headers_too_large: { status: 431, description: "the request's headers are larger than 16 KiB" },
  internal_error: { status: 500, description: 'an unexpected failure on our side, logged with the X-Request-Id' },
  unavailable: {
    status: 503,
    description: 'the database is not answering, or the server is overloaded; retry after Retry-After seconds',
  },
} as const;
export type V2ErrorCode = keyof typeof V2_ERROR_CODES;

export const V2Error = Type.Object(
  {
    success: Type.Literal(false),
    error: Type.String({ description: 'What went wrong, in words (it may be reworded: branch on `code`)' }),
    code: Type.Unsafe<V2ErrorCode>({
      type: 'string',
      enum: Object.keys(V2_ERROR_CODES),
      description: `What went wrong, for a program to branch on:\n${Object.entries(V2_ERROR_CODES)
        .map(([code, { status, description }]) => `- \`${code}\` (${status}): ${description}`)
        .join('\n')}`,
    }),
    param: Type.Optional(
      Type.String({
        description:
          'The query parameter at fault (e.g. `limit`, `countries`, `since`; a body field by its path), on every 400 ' +
          'one parameter causes (when two conflict, the first the message names) and on the 410 (`since`); absent otherwise',
        examples: ['limit'],
      }),
    ),
  },
  { $id: 'ErrorResponse', title: 'ErrorResponse' },
);

const envelope = <
  T extends
    | typeof InvestorRecord
    | typeof JobChangeRecord
    | typeof AcquisitionSignalRecord
    | typeof FundingSignalRecord
    | typeof CompanyRecord,
>(
  record: T,
) =>
  Type.Object({
    success: Type.Literal(true),
    data: Type.Array(Type.Ref(record)),
    pagination: Type.Ref(Pagination),
    meta: MetaRef,
  });

/** A v2 page of records with fields added when served (the link fields). */
const envelopeWith = (record: typeof InvestorRecord | typeof JobChangeRecord, added: TProperties) =>
  Type.Object({
    success: Type.Literal(true),
    data: Type.Array(Type.Intersect([Type.Ref(record), Type.Object(added)])),
    pagination: Type.Ref(Pagination),
    meta: MetaRef,
  });

export const InvestorsResponse = envelopeWith(InvestorRecord, {
  companyId: linkId('the investor as a company'),
  companyMatch: linkMatch('it'),
});
export const JobChangesResponse = envelopeWith(JobChangeRecord, {
  match_confidence: MatchConfidence,
  companyId: linkId('the new company'),
  companyMatch: linkMatch('the new company'),
  previousCompanyId: linkId('the previous company'),
  previousCompanyMatch: linkMatch('the previous company'),
});
export const AcquisitionsResponse = Type.Object({
  success: Type.Literal(true),
  data: Type.Array(
    Type.Intersect([
      Type.Ref(AcquisitionSignalRecord),
      Type.Object(
        {
          match_confidence: MatchConfidence,
          // The fields of the published 2.2 AcquisitionSignal.
          signalId: Type.String({ format: 'uuid', description: "The signal's `id` (2.2 name): the same value" }),
          signalType: Type.Literal('acquisition', { description: 'Always "acquisition" on this endpoint (2.2)' }),
          occurredAt: Type.String({
            format: 'date-time',
            description: 'The signal date (2.2): `lastUpdated`, the one date a signal has',
          }),
          discoveredAt: Type.String({ format: 'date-time', description: 'The signal date (2.2): `lastUpdated`' }),
          ...publishedCompanyFields({
            website: 'website',
            linkedin: 'linkedinUrl',
            industry: 'industry',
            country: 'country',
            foundedYear: 'foundedYear',
            description: 'description',
            employeeCount: 'employeeCount',
            categories: "the signal's `category`",
          }),
          acquiringCompanyId: Nullable(Type.String({ format: 'uuid', description: 'The acquirer is not recorded: null' })),
          amount: Nullable(Type.Integer({ description: 'Not recorded: null' })),
          percentage: Nullable(Type.String({ description: 'Not recorded: null' })),
          announcedDate: Nullable(Type.String({ format: 'date', description: 'A signal is no announced acquisition: null' })),
          isFreeAccess: Type.Literal(true, { description: 'Always true for authenticated requests' }),
          sources: PublishedSources,
          companyId: linkId('the company'),
          companyMatch: linkMatch('the company'),
        },
        {
          description:
            'The fields of the published 2.2.0 AcquisitionSignal, added to the January 2026 record. Aliases (the same ' +
            'value under both names): `id` = `signalId`, `lastUpdated` = `occurredAt` = `discoveredAt`, `website` = ' +
            '`companyWebsite`, `linkedinUrl` = `companyLinkedin`, `industry` = `companyIndustry`, `foundedYear` = ' +
            '`companyFoundedYear`, `description` = `companyDescription`, `employeeCount` = `companyEmployeeCount`. ' +
            '`country` is the English name and `companyCountry` the ISO code of the same country.',
        },
      ),
    ]),
  ),
  pagination: Type.Ref(Pagination),
  meta: MetaRef,
});
export const FundingSignalsResponse = envelope(FundingSignalRecord);
export const CompaniesResponse = envelope(CompanyRecord);

/** The v2 schemas the documents refer to by name, but `Meta` (signal-meta.ts adds it in its place). */
export const V2_RECORD_SCHEMAS = [
  InvestorRecord,
  JobChangeRecord,
  AcquisitionSignalRecord,
  FundingSignalRecord,
  CompanyRecord,
  Pagination,
];

// ---------- queries ----------

export const paging = {
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE, default: 1, description: 'Page number' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20, description: 'Records per page, 1 to 100' })),
  count: Type.Optional(
    Type.Boolean({
      default: false,
      description: 'Count mode: `true` returns `data: []` with full pagination and costs no credits',
    }),
  ),
};
export const search = (what: string) =>
  Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 200,
      description:
        `Words matched against ${what}: a record matches when every word is the start of a word there, ignoring case and ` +
        'accents ("eng" matches "Engineering"; "neer" does not). Words are split on anything but letters and digits.',
    }),
  );
export const countries = Type.Optional(
  ListString({
    description:
      'Comma-separated countries: ISO 3166 alpha-2 or alpha-3 codes or English country names (any case: `US`, `usa`, ' +
      `\`United States\`), or country categories. ${CATEGORY_NOTE}`,
    examples: ['US,GB,CA'],
  }),
);

/** `company_id` on every v2 signal list: the records linked to these companies (src/companies). */
export const companyIdParam = Type.Optional(
  ListString({
    minLength: 1,
    maxLength: 4096,
    description:
      'Comma-separated company ids (the `id` of `GET /api/v2/companies`), up to 50: the records linked to any of these ' +
      'companies (on job changes, the new company). A value that is not a UUID is a 400 naming it.',
  }),
);

export const InvestorsQuery = Type.Object(
  {
    ...paging,
    countries,
    categories: Type.Optional(
      ListString({ description: `Comma-separated investor types: ${INVESTOR_TYPES.join(', ')}`, examples: ['vc,angel'] }),
    ),
    search: search('the investor name or type'),
    dateFrom: Type.Optional(DateString('Earliest date of the record (lastUpdated, UTC), inclusive')),
    dateTo: Type.Optional(DateString('Latest date of the record (lastUpdated, UTC), inclusive')),
    date_preset: datePreset('the record (lastUpdated)'),
    exclude_countries: excludeCountries,
    sort_by: sortBy(
      INVESTOR_SORT_FIELDS,
      'created_at',
      'name: the name, case and accents ignored; created_at: lastUpdated; ticket_size_min, ticket_size_max: typicalCheckSize.min, .max',
    ),
    sort_order: sortOrder,
    company_id: companyIdParam,
  },
  { additionalProperties: false },
);
export type InvestorsQuery = Static<typeof InvestorsQuery>;

/** Most values of one company identifier parameter (company_domain, company_linkedin_url, company_id). */
export const MAX_COMPANY_IDENTIFIERS = 50;

export const JobChangesQuery = Type.Object(
  {
    ...paging,
    search: search('person name, company name, new role and previous company'),
    personLinkedinUrl: Type.Optional(
      Type.String({ maxLength: 2048, description: 'Exact profile URL (scheme, www., trailing slash and case ignored)' }),
    ),
    companyLinkedinUrl: Type.Optional(
      Type.String({ maxLength: 2048, description: 'Exact company page URL (normalised the same way)' }),
    ),
    positions: Type.Optional(
      ListString({
        description: 'Comma-separated positions (OR); see the allowed values',
        examples: ['cto,head of engineering'],
      }),
    ),
    departments: Type.Optional(
      ListString({ description: 'Comma-separated departments (OR)', examples: ['engineering,product'] }),
    ),
    seniorities: Type.Optional(ListString({ description: 'Comma-separated seniorities (OR)', examples: ['c_level,vp,head'] })),
    dateFrom: Type.Optional(DateString('Earliest date of the change (occurredAt, UTC), inclusive')),
    dateTo: Type.Optional(DateString('Latest date of the change (occurredAt, UTC), inclusive')),
    date_preset: datePreset('the change (occurredAt)'),
    sort_by: sortBy(
      JOB_CHANGE_SORT_FIELDS,
      'occurred_at',
      'occurred_at: occurredAt; discovered_at: discoveredAt; person_name, company_name: personName, companyName, case and ' +
        'accents ignored',
    ),
    sort_order: sortOrder,
    company_id: companyIdParam,
    ...jobChangeCompanyIdentifiers(),
  },
  { additionalProperties: false },
);
export type JobChangesQuery = Static<typeof JobChangesQuery>;

/**
 * Job changes' `company_domain` and `company_linkedin_url` (published in 2.2): the new company named exactly,
 * its domain through the company the change is linked to (a job change names no website).
 */
function jobChangeCompanyIdentifiers() {
  return {
    company_domain: Type.Optional(
      ListString({
        minLength: 1,
        maxLength: 4096,
        description:
          `Comma-separated website domains of the new company, up to ${MAX_COMPANY_IDENTIFIERS}: the changes linked to a ` +
          'company with one of these websites (company resolution), each with `match_confidence: "exact"`. Strict: a ' +
          "domain no company has gives an empty page. Normalised and checked as the funding signals' `company_domain`.",
      }),
    ),
    company_linkedin_url: Type.Optional(
      ListString({
        minLength: 1,
        maxLength: 4096,
        description:
          `Comma-separated LinkedIn company page URLs, up to ${MAX_COMPANY_IDENTIFIERS}: the changes whose ` +
          '`companyLinkedinUrl` is one of them (as `companyLinkedinUrl`, its legacy one-value spelling), each with ' +
          '`match_confidence: "exact"`. With `company_domain` too, a change must match both.',
      }),
    ),
  };
}

/** v2 `company_domain` and `company_linkedin_url` (funding and acquisition signals): exact company lookups. */
const companyIdentifiers = {
  company_domain: Type.Optional(
    ListString({
      minLength: 1,
      maxLength: 4096,
      description:
        `Comma-separated company website domains, up to ${MAX_COMPANY_IDENTIFIERS} (one credit a page, as always): records of ` +
        'any of these companies, each with `match_confidence: "exact"`. `novartis.com`, `www.novartis.com` and ' +
        '`https://novartis.com/` are the same domain (scheme, "www.", query, trailing slash and case ignored); a value ' +
        'that is not a domain is a 400 naming it. With `company_linkedin_url` too, a record must match both.',
    }),
  ),
  company_linkedin_url: Type.Optional(
    ListString({
      minLength: 1,
      maxLength: 4096,
      description:
        `Comma-separated LinkedIn company page URLs (linkedin.com/company/NAME), up to ${MAX_COMPANY_IDENTIFIERS}: records of ` +
        'any of these companies, each with `match_confidence: "exact"`; normalised like `company_domain`. A URL that is ' +
        'not a company page (a personal /in/ profile) is a 400 naming it.',
    }),
  ),
};

export const AcquisitionsQuery = Type.Object(
  {
    ...paging,
    dateFrom: Type.Optional(DateString('Earliest signal date (lastUpdated, UTC), inclusive')),
    dateTo: Type.Optional(DateString('Latest signal date (lastUpdated, UTC), inclusive')),
    countries,
    categories: Type.Optional(
      ListString({ description: 'Comma-separated company categories, case-insensitive', examples: ['Technology,Healthcare'] }),
    ),
    search: search('company name and industry'),
    ...companyIdentifiers,
    date_preset: datePreset('the signal (lastUpdated)'),
    exclude_countries: excludeCountries,
    sort_by: sortBy(
      ACQUISITION_SORT_FIELDS,
      'occurred_at',
      'occurred_at and discovered_at: lastUpdated, the signal date; employee_count: employeeCount; amount: the signals carry ' +
        'no amount, so as occurred_at',
    ),
    sort_order: sortOrder,
    company_id: companyIdParam,
  },
  { additionalProperties: false },
);
export type AcquisitionsQuery = Static<typeof AcquisitionsQuery>;

export const FundingSignalsQuery = Type.Object(
  {
    ...paging,
    dateFrom: Type.Optional(DateString('Earliest date of the round (announcedDate, UTC), inclusive')),
    dateTo: Type.Optional(DateString('Latest date of the round (announcedDate, UTC), inclusive')),
    countries,
    categories: Type.Optional(
      ListString({
        description: "Comma-separated company categories, case-insensitive (the round's main category or any of its company's)",
        examples: ['fintech,saas'],
      }),
    ),
    round: Type.Optional(
      ListString({
        description:
          `Comma-separated round types, case-insensitive: ${PUBLISHED_ROUND_TYPES.join(', ')}. Any other value is a 400 ` +
          'naming it. Our round labels map to these as the table in docs/api/v2.md says ("Other": any other label, or none).',
        examples: ['Seed,Series A'],
      }),
    ),
    search: search("the company's name"),
    ...companyIdentifiers,
    date_preset: datePreset('the round (announcedDate)'),
    exclude_countries: excludeCountries,
    amount_min: amountBound('min', 1_000_000),
    amount_max: amountBound('max', 50_000_000),
    sort_by: sortBy(
      FUNDING_SORT_FIELDS,
      'occurred_at',
      'occurred_at and discovered_at: the date the round was seen (announcedDate), its only date; amount: fundingAmount, ' +
        'in its own currency; employee_count: employeeCount; founded_year: foundedYear',
    ),
    sort_order: sortOrder,
    company_id: companyIdParam,
  },
  { additionalProperties: false },
);
export type FundingSignalsQuery = Static<typeof FundingSignalsQuery>;

const bound = (what: string, minimum: number, maximum: number, example: number) =>
  Type.Optional(
    Type.Integer({ minimum, maximum, description: `${what}, inclusive; companies without one never match`, examples: [example] }),
  );

/** GET /api/v2/companies: the published 2.2 parameters, with their names and delimiters. */
/** The signal types `has_signals` takes (the monitors' signal types served so far). */
export const COMPANY_SIGNAL_TYPES = ['funding_round', 'acquisition', 'job_change', 'hiring'] as const;
export type CompanySignalType = (typeof COMPANY_SIGNAL_TYPES)[number];

const SIGNAL_WINDOW =
  'a date (`YYYY-MM-DD`: signals on or after that UTC day) or a `date_preset` value of the signal lists ' +
  '(`last_90d`, `this_year`, …: signals within its range)';

const signalWindow = (description: string) => Type.Optional(Type.String({ minLength: 1, maxLength: 32, description }));

/**
 * Ours: filters over a company's signals (its linked funding rounds, M&A deals and job changes),
 * ANDed with each other and with the company filters; exact totals as every filter. Without
 * examples: the document's examples of an operation are sent together ("Try it out"), and with the
 * published company filters' they would leave no company; the operation's description shows a
 * request of them.
 */
const COMPANY_SIGNAL_FILTERS = {
  has_signals: Type.Optional(
    ListString({
      description:
        `Comma-separated signal types the company must all have (AND), within \`signals_since\` when given: ` +
        '`funding_round` (a funding round of the company), `acquisition` (an M&A deal in which it was acquired or acquired), ' +
        '`job_change` (someone joined it), `hiring` (a job posting of it recorded in the window, open or since expired). ' +
        'Another value is a 400 naming it.',
    }),
  ),
  signals_since: signalWindow(
    `The window of every signal filter without one of its own: ${SIGNAL_WINDOW}. Without it, any time.`,
  ),
  funding_round_since: signalWindow(
    `A funding round within this window (${SIGNAL_WINDOW}); implies has_signals=funding_round and is its window.`,
  ),
  acquisition_since: signalWindow(
    `An M&A deal within this window (${SIGNAL_WINDOW}); implies has_signals=acquisition and is its window.`,
  ),
  job_change_since: signalWindow(
    `Someone joined within this window (${SIGNAL_WINDOW}); implies has_signals=job_change and is its window, ` +
      'job_change_departments and job_change_seniorities included.',
  ),
  hiring_since: signalWindow(
    `A job posting recorded within this window (${SIGNAL_WINDOW}); implies has_signals=hiring and is its window, ` +
      'hiring_departments and hiring_seniorities included.',
  ),
  funding_round_types: Type.Optional(
    ListString({
      description:
        "Comma-separated published round types (as the funding signals' `round`): a funding round of one of them, within " +
        'the funding window. Another value is a 400 naming it.',
    }),
  ),
  total_funding_min: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: MAX_SAFE,
      description:
        "The company's funding rounds in `total_funding_currency`, all of them whatever the window, add up to at least " +
        'this. Amounts are never converted: rounds in other currencies are not counted.',
    }),
  ),
  total_funding_currency: Type.Optional(
    Type.String({
      pattern: '^[A-Za-z]{3}$',
      description: 'ISO 4217 code of the rounds `total_funding_min` adds up (default USD; any case)',
    }),
  ),
  job_change_departments: Type.Optional(
    ListString({
      description:
        "Comma-separated departments (as the job change signals' `departments`): someone joined the company in one of them, " +
        'within the job change window. With job_change_seniorities, both hold for the same job change.',
    }),
  ),
  job_change_seniorities: Type.Optional(
    ListString({
      description:
        "Comma-separated seniorities (as the job change signals' `seniorities`): someone joined the company at one of them, " +
        'within the job change window.',
    }),
  ),
  hiring_departments: Type.Optional(
    ListString({
      description:
        "Comma-separated departments (as the hiring signals' `departments`): the company posted a job in one of them, within " +
        'the hiring window. With hiring_seniorities, both hold for the same posting.',
    }),
  ),
  hiring_seniorities: Type.Optional(
    ListString({
      description:
        "Comma-separated seniorities (as the hiring signals' `seniorities`): the company posted a job at one of them, within " +
        'the hiring window.',
    }),
  ),
};

export const CompaniesQuery = Type.Object(
  {
    ...paging,
    search: search('the company name, industry, description, keywords and specialties'),
    countries: Type.Optional(
      ListString({
        description:
          'Comma-separated headquarters countries: ISO 3166 alpha-2 or alpha-3 codes or English country names, or country ' +
          `categories. ${CATEGORY_NOTE}`,
        examples: ['US,GB,DE'],
      }),
    ),
    exclude_countries: excludeCountries,
    industry: Type.Optional(
      ListString({
        description:
          'Comma-separated industry names, exact match on `industry` (case and spacing ignored). A value holding a pipe (`|`) ' +
          'is split on pipes instead, for labels that hold commas (`Technology, Information and Internet|Banking`).',
        examples: ['Software Development,Financial Services'],
      }),
    ),
    categories: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 4096,
        description:
          'Pipe-separated (`|`) industry categories, as published: exact match (case and spacing ignored) on the ' +
          "company's `industry` or any of its `categories`. Pipes, because LinkedIn's labels may hold commas.",
        examples: ['Software Development|Financial Services'],
      }),
    ),
    subcategories: Type.Optional(
      ListString({
        description: `Comma-separated subcategory ids (\`companySubcategory\`): ${COMPANY_SUBCATEGORIES.join(', ')}. Any other value is a 400 naming it.`,
        examples: ['ai,fintech,saas'],
      }),
    ),
    employee_count_min: bound('Minimum employee count', 0, 100_000_000, 50),
    employee_count_max: bound('Maximum employee count', 0, 100_000_000, 5000),
    founded_year_min: bound('Earliest founding year', 1800, 2199, 2020),
    founded_year_max: bound('Latest founding year', 1800, 2199, 2025),
    ...COMPANY_SIGNAL_FILTERS,
    sort_by: sortBy(
      COMPANY_SORT_FIELDS,
      'name',
      'name: the name, case and accents ignored; employee_count: employeeCount; founded_year: foundedYear; created_at: createdAt',
    ),
    sort_order: sortOrder,
  },
  { additionalProperties: false },
);
export type CompaniesQuery = Static<typeof CompaniesQuery>;

// ---------- one company ----------

const DayString = Type.String({ format: 'date', description: 'A UTC date' });
const Window = Type.Object(
  {
    last30Days: Type.Integer({ minimum: 0 }),
    last90Days: Type.Integer({ minimum: 0 }),
    last365Days: Type.Integer({ minimum: 0 }),
  },
  { description: 'Counted back from the request, by the date the change occurred (occurredAt)' },
);

/** What the service knows of a company's signals, beside its profile. */
export const CompanySignals = Type.Object(
  {
    fundingRounds: Type.Object({
      count: Type.Integer({ minimum: 0, description: 'Funding rounds linked to the company' }),
      totalRaised: Type.Array(Type.Object({ currency: Nullable(Type.String()), amount: Type.Number({ minimum: 0 }) }), {
        description: "The sum of the rounds' amounts, one entry per currency (amounts are never converted)",
      }),
      latest: Nullable(
        Type.Object({
          date: Nullable(DayString),
          roundType: Type.String({ description: 'The published round type (as funding signals serve it)' }),
          amount: Nullable(Type.Number()),
          currency: Nullable(Type.String()),
        }),
      ),
    }),
    deals: Type.Object({
      asTarget: Type.Integer({ minimum: 0, description: 'M&A deals in which the company was acquired' }),
      asAcquirer: Type.Integer({ minimum: 0, description: 'M&A deals in which it acquired' }),
      latestDate: Nullable(DayString),
    }),
    jobChanges: Type.Object({
      joined: Window,
      left: Window,
    }),
    acquisitionSignal: Nullable(
      Type.Object({
        score: Nullable(Type.Number({ minimum: 0, maximum: 100 })),
        indicators: Type.Array(Type.String()),
        date: DayString,
      }),
    ),
    investors: Type.Array(Type.String(), {
      description: "The investors named on the company's funding rounds, by name (at most 50)",
    }),
    hiring: Type.Object({
      openPostings: Type.Integer({ minimum: 0, description: 'Its job postings still open (validThrough not passed)' }),
      byDepartment: Type.Record(Type.String(), Type.Integer({ minimum: 0 }), {
        description:
          "Its open postings per department (the hiring signals' `departments`), every department listed; a posting in " +
          'two departments counts in both',
      }),
      latestDate: Nullable({ ...DayString, description: 'When its latest posting was recorded (createdAt), open or not' }),
    }),
  },
  { description: 'Counts over every record linked to the company (see company resolution)' },
);

export const CompanyProfileResponse = Type.Object({
  success: Type.Literal(true),
  data: Type.Intersect([Type.Ref(CompanyRecord), Type.Object({ signals: CompanySignals })]),
  meta: MetaRef,
});

export const CompanyIdParams = Type.Object({
  id: Type.String({ format: 'uuid', description: 'The company id (`id` of GET /api/v2/companies)' }),
});

export const CompanyLookupQuery = Type.Object(
  {
    domain: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 2048,
        description: 'A website or its domain (`acme.com`, `https://www.acme.com/`)',
        examples: ['yarrowhealth.com'],
      }),
    ),
    linkedin_url: Type.Optional(
      Type.String({ minLength: 1, maxLength: 2048, description: 'A LinkedIn company page (`linkedin.com/company/acme`)' }),
    ),
  },
  { additionalProperties: false },
);
export type CompanyLookupQuery = Static<typeof CompanyLookupQuery>;
