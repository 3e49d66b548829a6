import { Type, type Static } from '@sinclair/typebox';
import { DateString, MAX_PAGE, Nullable } from './common.js';

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

export const SIGNAL_ENDPOINTS = ['signals.investors', 'signals.job-changes', 'signals.acquisitions'] as const;
export type SignalEndpoint = (typeof SIGNAL_ENDPOINTS)[number];

export const Meta = Type.Object(
  {
    endpoint: Type.Unsafe<SignalEndpoint>({ type: 'string', enum: [...SIGNAL_ENDPOINTS] }),
    creditsUsed: Type.Integer({ minimum: 0, description: '1 per page of data; 0 in count mode' }),
    creditsRemaining: Type.Integer({ minimum: 0, description: "The account's balance after this call" }),
  },
  { $id: 'Meta', title: 'Meta' },
);

export const V2Error = Type.Object(
  { success: Type.Literal(false), error: Type.String() },
  { $id: 'ErrorResponse', title: 'ErrorResponse' },
);

const envelope = <T extends typeof InvestorRecord | typeof JobChangeRecord | typeof AcquisitionSignalRecord>(record: T) =>
  Type.Object({
    success: Type.Literal(true),
    data: Type.Array(Type.Ref(record)),
    pagination: Type.Ref(Pagination),
    meta: Type.Ref(Meta),
  });

export const InvestorsResponse = envelope(InvestorRecord);
export const JobChangesResponse = envelope(JobChangeRecord);
export const AcquisitionsResponse = envelope(AcquisitionSignalRecord);

export const V2_SHARED_SCHEMAS = [InvestorRecord, JobChangeRecord, AcquisitionSignalRecord, Pagination, Meta, V2Error];

// ---------- queries ----------

const paging = {
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE, default: 1, description: 'Page number' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20, description: 'Records per page, 1 to 100' })),
  count: Type.Optional(
    Type.Boolean({
      default: false,
      description: 'Count mode: `true` returns `data: []` with full pagination and costs no credits',
    }),
  ),
};
const search = (what: string) =>
  Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 200,
      description:
        `Words matched against ${what}: a record matches when every word is the start of a word there, ignoring case and ` +
        'accents ("eng" matches "Engineering"; "neer" does not). Words are split on anything but letters and digits.',
    }),
  );
const countries = Type.Optional(
  Type.String({ description: 'Comma-separated ISO 3166 alpha-2 country codes, case-insensitive', examples: ['US,GB,CA'] }),
);

export const InvestorsQuery = Type.Object(
  {
    ...paging,
    countries,
    categories: Type.Optional(
      Type.String({ description: `Comma-separated investor types: ${INVESTOR_TYPES.join(', ')}`, examples: ['vc,angel'] }),
    ),
    search: search('the investor name or type'),
  },
  { additionalProperties: false },
);
export type InvestorsQuery = Static<typeof InvestorsQuery>;

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
      Type.String({
        description: 'Comma-separated positions (OR); see the allowed values',
        examples: ['cto,head of engineering'],
      }),
    ),
    departments: Type.Optional(
      Type.String({ description: 'Comma-separated departments (OR)', examples: ['engineering,product'] }),
    ),
    seniorities: Type.Optional(Type.String({ description: 'Comma-separated seniorities (OR)', examples: ['c_level,vp,head'] })),
  },
  { additionalProperties: false },
);
export type JobChangesQuery = Static<typeof JobChangesQuery>;

export const AcquisitionsQuery = Type.Object(
  {
    ...paging,
    dateFrom: Type.Optional(DateString('Earliest signal date (lastUpdated, UTC), inclusive')),
    dateTo: Type.Optional(DateString('Latest signal date (lastUpdated, UTC), inclusive')),
    countries,
    categories: Type.Optional(
      Type.String({ description: 'Comma-separated company categories, case-insensitive', examples: ['Technology,Healthcare'] }),
    ),
    search: search('company name and industry'),
  },
  { additionalProperties: false },
);
export type AcquisitionsQuery = Static<typeof AcquisitionsQuery>;
