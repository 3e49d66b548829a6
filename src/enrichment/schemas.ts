// The published CSV enrichment API's shapes (Signalbase 2.2, `Csv_*`), with our additions marked:
// one schema each validates the request, types the code, serialises the answer and documents it.
import { Type, type Static } from '@sinclair/typebox';
import { Nullable } from '../catalog/index.js';

/** The identifier fields and their published aliases, in the order a row's own are looked at. */
export const IDENTIFIER_ALIASES = {
  companyName: ['company_name', 'companyName', 'name'],
  websiteUrl: ['website_url', 'websiteUrl', 'website', 'domain'],
  linkedinUrl: ['linkedin_url', 'linkedinUrl', 'linkedin', 'company_linkedin_url'],
} as const;
export type IdentifierField = keyof typeof IDENTIFIER_ALIASES;

/** Fields read as the company's headquarters country (ours: the published input has none), to choose among namesakes. */
export const COUNTRY_ALIASES = ['country', 'company_country', 'hq_country', 'headquarters_country'] as const;

export const MAX_COMPANIES = 1000;
/** An identifier longer than this is refused (a name, URL or domain is far shorter). */
const MAX_IDENTIFIER = 2048;

const identifier = (description: string) => Type.Optional(Type.String({ maxLength: MAX_IDENTIFIER, description }));

export const CompanyInput = Type.Object(
  {
    company_name: identifier('Company name'),
    companyName: identifier('Alias for company_name'),
    name: identifier('Alias for company_name'),
    website_url: identifier('Company website URL or domain'),
    websiteUrl: identifier('Alias for website_url'),
    website: identifier('Alias for website_url'),
    domain: identifier('Alias for website_url'),
    linkedin_url: identifier('Company LinkedIn URL'),
    linkedinUrl: identifier('Alias for linkedin_url'),
    linkedin: identifier('Alias for linkedin_url'),
    company_linkedin_url: identifier('Alias for linkedin_url'),
  },
  {
    additionalProperties: true,
    description:
      'Company input. Include at least one of company_name, website_url, or linkedin_url (or an alias). Additional fields ' +
      'are preserved on the enrichment row (`input`), as strings. Ours: `country` (or `company_country`, `hq_country`, ' +
      '`headquarters_country`; a code or English name) chooses among companies of the same name.',
  },
);
export type CompanyInput = Static<typeof CompanyInput>;

export const EnrichmentRequest = Type.Object(
  {
    fileName: Type.Optional(
      Type.String({
        maxLength: 500,
        description: 'Optional label stored on the enrichment job. Defaults to api-companies.json.',
      }),
    ),
    wait: Type.Optional(
      Type.Boolean({ description: 'If true, wait up to timeout seconds and return completed results inline when available.' }),
    ),
    timeout: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 30, description: 'Maximum wait time in seconds when wait=true (default 30).' }),
    ),
    companies: Type.Array(CompanyInput, {
      minItems: 1,
      maxItems: MAX_COMPANIES,
      description: 'Companies to enrich. Maximum 1,000 companies per request.',
    }),
  },
  { title: 'Csv_CSVEnrichmentRequest' },
);
export type EnrichmentRequest = Static<typeof EnrichmentRequest>;

export const DetectedMapping = Type.Object(
  {
    companyName: Nullable(Type.String()),
    websiteUrl: Nullable(Type.String()),
    linkedinUrl: Nullable(Type.String()),
  },
  { description: 'The input field read for each identifier: the one most companies of the request use (null: none has it)' },
);
export type DetectedMapping = Static<typeof DetectedMapping>;

export const JOB_STATUSES = ['pending', 'running', 'completed', 'failed'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

export const Summary = Type.Object({
  totalInputs: Type.Integer({ minimum: 0 }),
  matched: Type.Integer({ minimum: 0 }),
  unmatched: Type.Integer({ minimum: 0 }),
  withFundingSignals: Type.Integer({ minimum: 0 }),
  withAcquisitionSignals: Type.Integer({ minimum: 0 }),
  withHiringSignals: Type.Integer({ minimum: 0 }),
  withJobChangeSignals: Type.Integer({ minimum: 0 }),
  ambiguous: Type.Integer({
    minimum: 0,
    description: 'Ours: unmatched inputs named only by a name that several companies have (see `candidates` on the result)',
  }),
});
export type Summary = Static<typeof Summary>;

export const SIGNAL_TYPES = ['funding', 'acquisition', 'hiring', 'job_change', 'investors'] as const;
export type SignalType = (typeof SIGNAL_TYPES)[number];

const signalList = (what: string) =>
  Type.Array(Type.Object({}, { additionalProperties: true }), {
    description: `${what}, newest first, as the list endpoint serves them (at most ENRICHMENT_SIGNALS_PER_TYPE, 5 by default)`,
  });

export const ResultCompany = Type.Object({
  name: Type.String(),
  domain: Nullable(Type.String()),
  industry: Nullable(Type.String()),
  country: Nullable(Type.String()),
  employeeCount: Nullable(Type.Integer()),
});

export const MATCH_CONFIDENCES = ['exact', 'fuzzy', 'none'] as const;

export const EnrichmentResult = Type.Object(
  {
    input: Type.Record(Type.String(), Type.String(), { description: 'The company as sent, every field as a string' }),
    matched: Type.Boolean(),
    companyId: Nullable(Type.String({ format: 'uuid' })),
    company: Nullable(ResultCompany),
    signals: Type.Object({
      funding: signalList('Funding signals of the company (`GET /api/v2/signals/funding`)'),
      acquisition: signalList('Acquisition signals about the company (`/signals/acquisitions`)'),
      hiring: signalList('Its job postings (`/signals/hiring`), open or not'),
      job_change: signalList('Job changes into the company (`/signals/job-changes`: people who joined it)'),
      investors: signalList('The company as an investor firm (`/signals/investors`)'),
    }),
    match_confidence: Type.Union(
      MATCH_CONFIDENCES.map((value) => Type.Literal(value)),
      {
        description:
          'Ours: `exact` by the website domain or LinkedIn page, `fuzzy` by the name (and country), `none` when nothing matched',
      },
    ),
    matchedField: Nullable(
      Type.String({ description: 'Ours: the input field the match was made on (as the input spells it), or null' }),
    ),
    candidates: Type.Optional(
      Type.Array(
        Type.Object({
          companyId: Type.String({ format: 'uuid' }),
          name: Type.String(),
          domain: Nullable(Type.String()),
          country: Nullable(Type.String()),
        }),
        {
          description:
            'Ours, on an input named only by a name several companies have (and no country to choose by): up to 5 of them. ' +
            'The input is left unmatched rather than guessed; send its website or country to match it.',
        },
      ),
    ),
    signalCounts: Type.Object(
      {
        funding: Type.Integer({ minimum: 0 }),
        acquisition: Type.Integer({ minimum: 0 }),
        hiring: Type.Integer({ minimum: 0 }),
        job_change: Type.Integer({ minimum: 0 }),
        investors: Type.Integer({ minimum: 0 }),
      },
      { description: 'Ours: how many signals of each type the company has in all (the lists hold the newest)' },
    ),
  },
  { $id: 'Csv_EnrichmentResult', title: 'Csv_EnrichmentResult' },
);
export type EnrichmentResult = Static<typeof EnrichmentResult>;

export const JobError = Type.Object({
  code: Type.Literal('match_engine_unavailable'),
  message: Type.String(),
});

const jobFields = {
  jobId: Type.String({ format: 'uuid' }),
  status: Type.Union(JOB_STATUSES.map((value) => Type.Literal(value))),
  progress: Type.Object({ processed: Type.Integer({ minimum: 0 }), total: Type.Integer({ minimum: 0 }) }),
  submittedAt: Type.String({ format: 'date-time' }),
  completedAt: Nullable(Type.String({ format: 'date-time' })),
  summary: Summary,
  results: Type.Array(Type.Ref(EnrichmentResult)),
  nextCursor: Nullable(
    Type.String({
      description:
        'The cursor of the next page of results; while the job runs, it points past the results written so far. Null once every result is read.',
    }),
  ),
  error: Type.Optional(JobError),
  fileName: Type.String({ description: 'Ours: the job label (fileName as sent, or api-companies.json)' }),
  expiresAt: Nullable(
    Type.String({
      format: 'date-time',
      description: 'Ours: when a finished job stops being kept (410 job_expired after); null while it runs',
    }),
  ),
};

export const EnrichmentJob = Type.Object(jobFields, { $id: 'Csv_CSVEnrichmentJob', title: 'Csv_CSVEnrichmentJob' });
export type EnrichmentJob = Static<typeof EnrichmentJob>;

const createMeta = Type.Object({
  endpoint: Type.Literal('csv.enrichment'),
  creditsUsed: Type.Literal(1),
  creditsRemaining: Type.Integer({ minimum: 0 }),
});

export const EnrichmentCreateResponse = Type.Object(
  {
    success: Type.Literal(true),
    data: Type.Union([
      Type.Intersect([Type.Ref(EnrichmentJob), Type.Object({ detectedMapping: DetectedMapping })], {
        description: 'wait=true and the job finished in time',
      }),
      Type.Object(
        { jobId: Type.String({ format: 'uuid' }), detectedMapping: DetectedMapping },
        { description: 'The job was accepted (and, with wait=true, did not finish in time): poll GET /csv-enrichment/{jobId}' },
      ),
    ]),
    meta: createMeta,
  },
  { title: 'Csv_CSVEnrichmentCreateResponse' },
);

export const EnrichmentGetResponse = Type.Object(
  {
    success: Type.Literal(true),
    data: Type.Ref(EnrichmentJob),
    meta: Type.Object({ endpoint: Type.Literal('csv.enrichment.get'), creditsUsed: Type.Literal(0) }),
  },
  { title: 'Csv_CSVEnrichmentGetResponse' },
);

export const JobParams = Type.Object({
  jobId: Type.String({ maxLength: 100, description: 'Job ID returned by POST /csv-enrichment' }),
});

export const JobQuery = Type.Object(
  {
    cursor: Type.Optional(Type.String({ maxLength: 100, description: 'Pagination cursor returned as data.nextCursor' })),
    limit: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 100, description: 'Results per page. Defaults to 50, maximum 100.' }),
    ),
  },
  { additionalProperties: false },
);

export const ENRICHMENT_ERROR_CODES = [
  'invalid_company_payload',
  'invalid_api_key',
  'subscription_expired',
  'insufficient_credits',
  'rate_limited',
  'job_not_found',
  'job_expired',
  'match_engine_unavailable',
] as const;
export type EnrichmentErrorCode = (typeof ENRICHMENT_ERROR_CODES)[number];

export const EnrichmentError = Type.Object(
  {
    success: Type.Literal(false),
    error: Type.String(),
    // Documented, not checked when written: an answer is never turned into a 500 over its code.
    code: Type.Unsafe<EnrichmentErrorCode>({ type: 'string', enum: [...ENRICHMENT_ERROR_CODES] }),
    retryAfter: Type.Optional(
      Type.Integer({ description: 'Seconds until retry is recommended, present on rate limit responses.' }),
    ),
    param: Type.Optional(Type.String({ description: 'Ours: the field or parameter at fault, when one is' })),
  },
  { $id: 'Csv_ErrorResponse', title: 'Csv_ErrorResponse' },
);

export const ENRICHMENT_SHARED_SCHEMAS = [EnrichmentResult, EnrichmentJob, EnrichmentError];
