import { Type, type Static } from '@sinclair/typebox';
import { DateString, linkId, linkMatch, ListString, MAX_PAGE, MAX_SAFE, Nullable, StringEnum } from './common.js';

// ---------- shared sub-objects ----------

export const V1Investor = Type.Object(
  {
    name: Type.String(),
    linkedin_url: Type.Optional(Type.String({ format: 'uri' })),
  },
  { $id: 'V1Investor', title: 'V1Investor' },
);

export const CompanyInfo = Type.Object(
  {
    name: Type.Optional(Type.String()),
    description: Type.Optional(Type.String()),
    industry: Type.Optional(Type.String()),
    website: Type.Optional(Type.String({ format: 'uri' })),
    size: Type.Optional(Type.String({ description: 'Employee-count range label, e.g. "51-200"' })),
    logo_url: Type.Optional(Nullable(Type.String({ format: 'uri' }))),
    year_founded: Type.Optional(Nullable(Type.Integer())),
    hq_country: Type.Optional(Nullable(Type.String())),
    email: Type.Optional(Nullable(Type.String({ format: 'email' }))),
    phone: Type.Optional(Nullable(Type.String())),
    keywords: Type.Optional(Type.Array(Type.String())),
    specialities: Type.Optional(Type.Array(Type.String())),
    categories: Type.Optional(Type.Array(Type.String())),
    company_interested_in: Type.Optional(Type.Array(Type.String())),
  },
  { $id: 'CompanyInfo', title: 'CompanyInfo' },
);

export const HeadcountData = Type.Object(
  {
    date: Type.String({ format: 'date-time' }),
    headcount: Type.Integer(),
    growth: Type.Number(),
  },
  { $id: 'HeadcountData', title: 'HeadcountData' },
);

export const GrowthInfo = Type.Object(
  {
    growth_1m: Type.Optional(Type.Number()),
    growth_3m: Type.Optional(Type.Number()),
    growth_6m: Type.Optional(Type.Number()),
    growth_9m: Type.Optional(Type.Number()),
    growth_12m: Type.Optional(Type.Number()),
  },
  { $id: 'GrowthInfo', title: 'GrowthInfo' },
);

export const Employee = Type.Object(
  {
    name: Type.String(),
    title: Type.String(),
    linkedin_url: Type.Optional(Nullable(Type.String({ format: 'uri' }))),
    email: Type.Optional(Nullable(Type.String({ format: 'email' }))),
    phone: Type.Optional(Nullable(Type.String())),
    date_started: Type.Optional(Type.String({ format: 'date-time' })),
  },
  { $id: 'Employee', title: 'Employee' },
);

export const ContactInfo = Type.Object(
  {
    employees: Type.Optional(Type.Array(Type.Ref(Employee))),
    company_linkedin_url: Type.Optional(Nullable(Type.String({ format: 'uri' }))),
    company_twitter_url: Type.Optional(Nullable(Type.String({ format: 'uri' }))),
    company_facebook_url: Type.Optional(Nullable(Type.String({ format: 'uri' }))),
  },
  { $id: 'ContactInfo', title: 'ContactInfo' },
);

// ---------- records ----------

export const FundingRecord = Type.Object(
  {
    company_name: Type.String(),
    name_path: Type.Optional(Type.String({ description: 'URL-style slug of the company name' })),
    round_type: Nullable(Type.String({ description: 'Round label, e.g. "seed" or "series a"' })),
    funding_amount: Type.Integer({ description: 'Amount in `currency`' }),
    currency: Type.String({ description: 'ISO 4217 currency code' }),
    ceo: Type.Optional(Nullable(Type.String())),
    investors: Type.Array(Type.Ref(V1Investor)),
    company_info: Type.Optional(Type.Ref(CompanyInfo)),
    historical_headcount: Type.Optional(Type.Array(Type.Ref(HeadcountData))),
    growth_info: Type.Optional(Type.Ref(GrowthInfo)),
    contact_info: Type.Optional(Type.Array(Type.Ref(ContactInfo))),
    main_category: Type.Optional(Type.String()),
    date_seen: Type.Optional(Type.String({ format: 'date-time', description: 'When the round was seen; the sort key' })),
  },
  { $id: 'FundingRecord', title: 'FundingRecord' },
);
export type FundingRecord = Static<typeof FundingRecord>;

export const MaRecord = Type.Object(
  {
    investment_id: Type.String({ format: 'uuid' }),
    company_name: Type.String({ description: 'The acquired company' }),
    acquired_by: Type.String({ description: "The acquirer's name" }),
    acquired_by_linkedin_url: Type.Optional(Type.String({ format: 'uri' })),
    acquired_by_company_info: Type.Optional(Type.Ref(CompanyInfo)),
    name_path: Type.Optional(Type.String()),
    description: Type.Optional(Type.String()),
    acquisition_amount: Type.Integer({ description: 'Amount paid by the acquirer (USD)' }),
    acquisition_percentage: Type.Number({ description: 'Ownership percentage acquired (0-100)' }),
    main_category: Type.Optional(Type.String()),
    company_info: Type.Optional(Type.Ref(CompanyInfo)),
    historical_headcount: Type.Optional(Type.Array(Type.Ref(HeadcountData))),
    growth_info: Type.Optional(Type.Ref(GrowthInfo)),
    contact_info: Type.Optional(Type.Array(Type.Ref(ContactInfo))),
    date_seen: Type.String({ format: 'date-time' }),
  },
  { $id: 'MaRecord', title: 'MaRecord' },
);
export type MaRecord = Static<typeof MaRecord>;

/** The sub-schemas the v1 records refer to by $ref. */
export const V1_RECORD_REFERENCES = [V1Investor, CompanyInfo, HeadcountData, GrowthInfo, Employee, ContactInfo];

export const V1_SHARED_SCHEMAS = [...V1_RECORD_REFERENCES, FundingRecord, MaRecord];

// ---------- queries ----------

// Examples are what the docs page pre-fills in "Try it out", all at once: each alone and all of an
// endpoint's together match records of the demo data set. Exact-match lookups (website, LinkedIn)
// have none, since together with the others they would match nothing.
const listParam = (description: string, example: string) =>
  ListString({ description: `${description}; comma-separated, case-insensitive`, examples: [example] });

const commonFilters = {
  country: Type.Optional(
    Type.String({
      description:
        'Company HQ country: ISO 3166 alpha-2 or alpha-3 code or English name, any case ("US", "USA" or "United States")',
      examples: ['US'],
    }),
  ),
  website: Type.Optional(
    Type.String({ maxLength: 2048, description: 'Company website; compared without scheme, "www.", trailing slash and case' }),
  ),
  linkedin_url: Type.Optional(
    Type.String({ maxLength: 2048, description: "Company's professional-network page; normalised like website" }),
  ),
  page: Type.Optional(
    Type.Integer({ minimum: 1, maximum: MAX_PAGE, default: 1, description: '1-based page number; 20 records a page' }),
  ),
  date_from: Type.Optional(DateString('Earliest calendar date (UTC) of date_seen, inclusive')),
  date_to: Type.Optional(DateString('Latest calendar date (UTC) of date_seen, inclusive')),
};

export const FundingQuery = Type.Object(
  {
    round: Type.Optional(listParam('Round labels, e.g. "seed,series a"; exact match', 'seed,series a')),
    category: Type.Optional(listParam('Categories; matches main_category or any of company_info.categories', 'fintech,saas')),
    amount: Type.Optional(
      Type.Integer({ minimum: 0, maximum: MAX_SAFE, description: 'Minimum funding_amount', examples: [1_000_000] }),
    ),
    ...commonFilters,
  },
  { additionalProperties: false },
);
export type FundingQuery = Static<typeof FundingQuery>;

export const DEAL_STATUSES = ['announced', 'completed', 'pending'] as const;
export type DealStatus = (typeof DEAL_STATUSES)[number];

export const MaQuery = Type.Object(
  {
    amount: Type.Optional(
      Type.Integer({ minimum: 0, maximum: MAX_SAFE, description: 'Minimum acquisition_amount', examples: [10_000_000] }),
    ),
    category: Type.Optional(listParam('Categories of the acquired company', 'fintech,saas')),
    ...commonFilters,
    status: Type.Optional(StringEnum(DEAL_STATUSES, 'Deal status')),
    acquiring_company: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description:
          'Words of the acquirer: a deal matches when every word is the start of a word of acquired_by, ignoring case and ' +
          'accents ("sales" matches "Salesforce, Inc.", "force" does not). Words are split on anything but letters and digits.',
      }),
    ),
  },
  { additionalProperties: false },
);
export type MaQuery = Static<typeof MaQuery>;

// ---------- envelopes ----------

const Message = Type.String({ description: 'Status text', examples: ['Data retrieved successfully'] });

export const FundingParams = Type.Object({
  category: Type.Array(Type.String(), { description: 'Empty when unused' }),
  round: Type.Array(Type.String(), { description: 'Empty when unused' }),
  amount: Nullable(Type.Integer()),
  date_from: Nullable(Type.String({ format: 'date' })),
  date_to: Nullable(Type.String({ format: 'date' })),
});
export type FundingParams = Static<typeof FundingParams>;

export const MaParams = Type.Object({
  category: Type.Array(Type.String(), { description: 'Empty when unused' }),
  amount: Nullable(Type.Integer()),
  country: Nullable(Type.String()),
  status: Nullable(Type.String()),
  acquiring_company: Nullable(Type.String()),
  date_from: Nullable(Type.String({ format: 'date' })),
  date_to: Nullable(Type.String({ format: 'date' })),
});
export type MaParams = Static<typeof MaParams>;

export const FundingResponse = Type.Object({
  message: Message,
  params: FundingParams,
  response: Type.Object({
    data: Type.Array(
      Type.Intersect([
        Type.Ref(FundingRecord),
        Type.Object({ company_id: linkId('the company'), company_match: linkMatch('the company') }),
      ]),
    ),
  }),
});

export const MaResponse = Type.Object({
  message: Message,
  params: MaParams,
  response: Type.Object({
    data: Type.Array(
      Type.Intersect([
        Type.Ref(MaRecord),
        Type.Object({
          company_id: linkId('the acquired company'),
          company_match: linkMatch('the acquired company'),
          acquirer_company_id: linkId('the acquirer'),
          acquirer_match: linkMatch('the acquirer'),
        }),
      ]),
    ),
  }),
});

export const V1Error = Type.Object(
  {
    code: Type.Integer({ format: 'int32', description: 'HTTP status code' }),
    message: Type.String(),
  },
  { $id: 'V1Error', title: 'V1Error' },
);
