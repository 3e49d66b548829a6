// The tools of `dealsignal mcp`: one per list endpoint and one for the changes feed. Each tool's
// input schema is its route's querystring schema (TypeBox schemas are JSON Schema), plus `fields`
// and a smaller default page; the calls go through the typed client, and the API checks every
// parameter it takes, so a model reads the API's own message when one is wrong.
import type { CallOptions, DealSignal, QueryOf } from '@dealsignal/client';
import type { TObject, TSchema } from '@sinclair/typebox';
import { CHANGE_FEED_DATASETS, ChangesQuery, ChangesResponse } from '../changes/index.js';
import { FundingQuery, FundingResponse, MaQuery, MaResponse, V1_SHARED_SCHEMAS } from '../catalog/index.js';
import {
  AcquisitionsQuery,
  AcquisitionsResponse,
  CompaniesQuery,
  CompaniesResponse,
  FundingSignalsQuery,
  FundingSignalsResponse,
  HiringQuery,
  HiringResponse,
  InvestorsQuery,
  InvestorsResponse,
  JobChangesQuery,
  JobChangesResponse,
  V2_SHARED_SCHEMAS,
} from '../catalog/index.js';
import { PEOPLE_SHARED_SCHEMAS, PeopleQuery, PeopleResponse } from '../people/index.js';

/** A JSON Schema object as tools/list publishes it. */
export interface ObjectSchema {
  type: 'object';
  properties: Record<string, Record<string, unknown>>;
  required?: string[];
  [keyword: string]: unknown;
}

/** An argument the tool itself refuses (its own `fields` and v1 `limit`, or a value no query string can carry). */
export class ArgumentError extends Error {}

export interface McpTool {
  name: string;
  title: string;
  description: string;
  inputSchema: ObjectSchema;
  outputSchema: ObjectSchema;
  /** The tool's answer (structuredContent); throws an ArgumentError, or the client's DealSignalError for the API's refusal. */
  call(ds: DealSignal, args: Record<string, unknown>, options: CallOptions): Promise<Record<string, unknown>>;
}

/** Records a v2 page holds unless the model asks for more: a page should not flood its context. */
export const DEFAULT_LIMIT = 10;
/** v1 pages always hold 20 records; its tools keep the first `limit` of them. */
export const V1_PAGE_SIZE = 20;

// Keywords only ajv-formats knows (the date bounds): a client validating with a plain JSON Schema
// validator in strict mode refuses the schema. The descriptions state the same range.
const DROPPED_KEYWORDS = new Set(['formatMinimum', 'formatMaximum']);

/** The schema as plain JSON: TypeBox's symbol keys gone, and the keywords above. */
function plainSchema(schema: TObject): ObjectSchema {
  return JSON.parse(JSON.stringify(schema, (key: string, value: unknown) => (DROPPED_KEYWORDS.has(key) ? undefined : value)));
}

const SHARED_SCHEMAS = new Map<string, TSchema>(
  [...V1_SHARED_SCHEMAS, ...V2_SHARED_SCHEMAS, ...PEOPLE_SHARED_SCHEMAS].map((schema) => [String(schema.$id), schema]),
);

/** The top-level property names of a record schema, through $refs, unions and intersections. */
function propertyNames(schema: TSchema): string[] {
  if (typeof schema.$ref === 'string') {
    const target = SHARED_SCHEMAS.get(schema.$ref);
    if (!target) throw new Error(`mcp tools: no shared schema ${schema.$ref}`);
    return propertyNames(target);
  }
  const parts: TSchema[] | undefined = schema.allOf ?? schema.anyOf;
  if (parts) return [...new Set(parts.flatMap(propertyNames))];
  return Object.keys(schema.properties ?? {});
}

/** The record with only the fields asked for (those it has), in its own order. */
function pick(record: object | null, fields: ReadonlySet<string>): object | null {
  return record === null ? null : Object.fromEntries(Object.entries(record).filter(([name]) => fields.has(name)));
}

type QueryValue = string | number | boolean | (string | number)[];
/** Query parameters as the API receives them; it checks them, and its 400 names the one at fault. */
type ToolQuery = Record<string, QueryValue>;

function queryValue(name: string, value: unknown): QueryValue {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  // Lists travel comma-separated, as the API takes them.
  if (Array.isArray(value) && value.every((item) => typeof item === 'string' || typeof item === 'number')) return value;
  throw new ArgumentError(`${name} must be a string, a number, a boolean or a list of strings`);
}

/** The arguments split into the API's query and the tool's own `fields` and (v1) `limit`. */
function readArguments(args: Record<string, unknown>, ownLimit: boolean) {
  const query: ToolQuery = {};
  let fields: unknown;
  let limit: unknown;
  for (const [name, value] of Object.entries(args)) {
    if (value === undefined || value === null) continue;
    if (name === 'fields') fields = value;
    else if (name === 'limit' && ownLimit) limit = value;
    else query[name] = queryValue(name, value);
  }
  return { query, fields, limit };
}

/** `fields` as a set of names the records have; the defaults when absent. */
function fieldSet(value: unknown, allowed: readonly string[], defaults: readonly string[]): Set<string> {
  if (value === undefined) return new Set(defaults);
  // A model sometimes sends a list as one comma-separated string: read it the same way.
  const names = typeof value === 'string' ? value.split(',').map((name) => name.trim()) : value;
  if (!Array.isArray(names) || names.length === 0 || names.some((name) => typeof name !== 'string' || !allowed.includes(name))) {
    throw new ArgumentError(`fields must be a non-empty array of these names: ${allowed.join(', ')}`);
  }
  return new Set(names);
}

function v1Limit(value: unknown): number {
  if (value === undefined) return DEFAULT_LIMIT;
  // Digits in a string are read as the API reads its own integers.
  const limit = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > V1_PAGE_SIZE) {
    throw new ArgumentError(`limit must be an integer from 1 to ${V1_PAGE_SIZE} (a v1 page holds ${V1_PAGE_SIZE} records)`);
  }
  return limit;
}

/** One page of a list endpoint, whichever family. */
interface ListPage {
  total: number;
  page: number;
  hasNextPage: boolean;
  records: readonly object[];
  creditsRemaining?: number;
}

const fromV1 = (page: { total: number; page: number; hasNextPage: boolean; data: readonly object[] }): ListPage => ({
  total: page.total,
  page: page.page,
  hasNextPage: page.hasNextPage,
  records: page.data,
});

interface V2Body {
  data: readonly object[];
  pagination: { totalCount: number; currentPage: number; hasNextPage: boolean };
  meta: { creditsRemaining: number };
}

const fromV2 = ({ data, pagination, meta }: V2Body): ListPage => ({
  total: pagination.totalCount,
  page: pagination.currentPage,
  hasNextPage: pagination.hasNextPage,
  records: data,
  creditsRemaining: meta.creditsRemaining,
});

interface ListToolSpec {
  name: string;
  title: string;
  family: 'v1' | 'v2';
  /** What the records are and what the filters find (the parameters document themselves). */
  about: string;
  /** The route's querystring schema. */
  query: TObject;
  /** The schema of one record of the response. */
  record: TSchema;
  /** Fields returned when the model names none: enough to answer most questions, small enough to list many. */
  defaultFields: readonly string[];
  // The query as the client types it: the tool passes the model's arguments on, and the API checks them.
  list(ds: DealSignal, query: ToolQuery, options: CallOptions): Promise<ListPage>;
}

const V1_TERMS =
  'Free: v1 calls cost no credits. The API serves 20 records a page, newest first: `page` picks the page and `limit` ' +
  `(1-${V1_PAGE_SIZE}, default ${DEFAULT_LIMIT}) keeps its first records, so to read every record use \`limit: ${V1_PAGE_SIZE}\` and ` +
  'raise `page` while `hasNextPage` is true.';

const V2_TERMS =
  'Costs 1 credit per call (one page), whatever the number of records; `count: true` returns only `total` and costs ' +
  `nothing: use it to size a query first. \`limit\` records a page (1-100, default ${DEFAULT_LIMIT}); raise \`page\` while ` +
  '`hasNextPage` is true.';

const RESULT_TERMS =
  '`total` is the exact number of matching records. `fields` picks the record fields returned (default: a short subset; ' +
  'the enum lists them all).';

const LIST_TOOLS: readonly ListToolSpec[] = [
  {
    name: 'list_funding_rounds',
    title: 'Funding rounds',
    family: 'v1',
    about:
      'Venture funding rounds (GET /api/v1/funding): company, round label, amount and currency, investors, category, ' +
      'company details, and when the round was seen. Filters: round labels, categories, minimum amount, HQ country, ' +
      'company website or LinkedIn page, date range.',
    query: FundingQuery,
    record: FundingResponse.properties.response.properties.data.items,
    defaultFields: ['company_name', 'round_type', 'funding_amount', 'currency', 'investors', 'main_category', 'date_seen'],
    list: (ds, query, options) => ds.v1.funding.list(query as QueryOf<'listFunding'>, options).then(fromV1),
  },
  {
    name: 'list_deals',
    title: 'M&A deals',
    family: 'v1',
    about:
      'Mergers and acquisitions (GET /api/v1/m-a): the acquired company, the acquirer, amount (USD), percentage ' +
      'acquired, category, company details, and when the deal was seen. Filters: acquirer name words, status ' +
      '(announced, completed, pending), categories, minimum amount, HQ country, company website or LinkedIn page, dates.',
    query: MaQuery,
    record: MaResponse.properties.response.properties.data.items,
    defaultFields: [
      'investment_id',
      'company_name',
      'acquired_by',
      'acquisition_amount',
      'acquisition_percentage',
      'main_category',
      'date_seen',
    ],
    list: (ds, query, options) => ds.v1.deals.list(query as QueryOf<'listMergersAndAcquisitions'>, options).then(fromV1),
  },
  {
    name: 'list_investors',
    title: 'Investors',
    family: 'v2',
    about:
      'Investors (GET /api/v2/signals/investors): VC funds, angels, PE firms, corporates, accelerators, family offices, ' +
      'with location, assets under management, focus, stages, check size, portfolio and recent activity. Filters: ' +
      'countries, investor types, name search, dates, sorting.',
    query: InvestorsQuery,
    record: InvestorsResponse.properties.data.items,
    defaultFields: [
      'id',
      'name',
      'investorType',
      'country',
      'city',
      'investmentStage',
      'typicalCheckSize',
      'activelyInvesting',
      'lastInvestmentDate',
    ],
    list: (ds, query, options) => ds.v2.investors.list(query as QueryOf<'getInvestors'>, options).then(fromV2),
  },
  {
    name: 'list_job_changes',
    title: 'Job change signals',
    family: 'v2',
    about:
      'Job change signals (GET /api/v2/signals/job-changes): a person who took a new role at a company, with the ' +
      'previous employer and when it happened. Filters: search over person, company and roles, person or company ' +
      'LinkedIn URL, positions, departments, seniorities, dates, sorting.',
    query: JobChangesQuery,
    record: JobChangesResponse.properties.data.items,
    defaultFields: ['signalId', 'personName', 'newRole', 'companyName', 'previousCompanyName', 'occurredAt'],
    list: (ds, query, options) => ds.v2.jobChanges.list(query as QueryOf<'getJobChangeSignals'>, options).then(fromV2),
  },
  {
    name: 'list_hiring_signals',
    title: 'Hiring signals',
    family: 'v2',
    about:
      'Hiring signals (GET /api/v2/signals/hiring): open job postings, with title, location, employment type, applicants, ' +
      'the job description and the hiring company. Filters: description (full-text over the job description: whole ' +
      'words, "phrases", OR, -exclude, e.g. kubernetes OR terraform -intern), search over company, title and location, ' +
      'countries (job or HQ), job_countries, states, city, departments, seniorities, positions, team_size, applicants, ' +
      'company name, domain or LinkedIn page, dates, include_expired, sorting.',
    query: HiringQuery,
    record: HiringResponse.properties.data.items,
    defaultFields: ['id', 'title', 'companyName', 'location', 'datePosted', 'employmentType', 'jobUrl'],
    list: (ds, query, options) => ds.v2.hiring.list(query as QueryOf<'getHiringSignals'>, options).then(fromV2),
  },
  {
    name: 'list_acquisition_signals',
    title: 'Acquisition signals',
    family: 'v2',
    about:
      'Acquisition signals (GET /api/v2/signals/acquisitions): companies showing signs of being acquisition targets, with ' +
      'a score (0-100), the indicators behind it and company details. Filters: countries, categories, search over name ' +
      'and industry, company domains or LinkedIn pages, dates, sorting.',
    query: AcquisitionsQuery,
    record: AcquisitionsResponse.properties.data.items,
    defaultFields: [
      'id',
      'companyName',
      'industry',
      'country',
      'employeeCount',
      'acquisitionSignalScore',
      'signalIndicators',
      'lastUpdated',
    ],
    list: (ds, query, options) => ds.v2.acquisitions.list(query as QueryOf<'getAcquisitionSignals'>, options).then(fromV2),
  },
  {
    name: 'list_funding_signals',
    title: 'Funding signals',
    family: 'v2',
    about:
      'Funding signals (GET /api/v2/signals/funding): the funding rounds of list_funding_rounds as published signals, ' +
      'with a round type from a fixed list, amount, date, company details and investor names. Filters: countries, ' +
      'categories, round types, company name search, company domains or LinkedIn pages, amount range, dates, sorting.',
    query: FundingSignalsQuery,
    record: FundingSignalsResponse.properties.data.items,
    defaultFields: [
      'signalId',
      'companyName',
      'roundType',
      'fundingAmount',
      'fundingCurrency',
      'announcedDate',
      'country',
      'category',
      'investorNames',
    ],
    list: (ds, query, options) => ds.v2.funding.list(query as QueryOf<'getFundingSignals'>, options).then(fromV2),
  },
  {
    name: 'list_companies',
    title: 'Companies',
    family: 'v2',
    about:
      'Company profiles (GET /api/v2/companies), independent of any signal: name, website, LinkedIn page, industry, ' +
      'categories, headquarters country, employee count, founding year, keywords, headcount growth. Filters: search over ' +
      'name, industry, description, keywords and specialties; countries; industries; categories (pipe-separated); ' +
      'subcategories; employee and founding-year ranges; sorting (default: name, descending). Signal filters answer ' +
      '"funded and hiring" in one call: has_signals (funding_round, acquisition, job_change, hiring, all required), ' +
      'signals_since or a window per type (funding_round_since, job_change_since, acquisition_since, hiring_since: a date ' +
      'or last_30d, last_90d, …), funding_round_types, total_funding_min (with total_funding_currency, default USD), ' +
      'job_change_departments and job_change_seniorities (someone who joined, e.g. sales + vp), hiring_departments and ' +
      'hiring_seniorities (a job posted, e.g. engineering + director).',
    query: CompaniesQuery,
    record: CompaniesResponse.properties.data.items,
    defaultFields: ['id', 'name', 'website', 'industry', 'headquartersCountry', 'employeeCount', 'foundedYear'],
    list: (ds, query, options) => ds.v2.companies.list(query as QueryOf<'getCompanies'>, options).then(fromV2),
  },
  {
    name: 'find_people',
    title: 'People to contact',
    family: 'v2',
    about:
      'Whom to contact at companies that just moved (GET /api/v2/people): people at companies that just raised a ' +
      'round (funding_round), were acquired or acquired another company (acquisition), or who just took their role ' +
      '(job_change), each with `matched_signal` {type, date, summary, source_url}, the reason to reach out now, and ' +
      '`is_latest_signal` (false: something newer happened since). Names are masked (first name, last initial); ' +
      '`linkedin_url` is the way to reach them. Filters: title words (CTO also finds Chief Technology Officer), ' +
      "function (sales, engineering, …), seniority (founder, c_level, vp, director, head, lead, manager), the company's " +
      'country and exclude_countries, company_size bands, industry, one person (linkedin_url), one company ' +
      '(company_domain or company_linkedin_url), signal_type, signal_date_range (`30d`, `6m`, `1y`; default 12m, all ' +
      'time when a person or company is given). Newest matched signal first. Decision makers at companies that raised ' +
      'in the last 90 days: seniority c_level,vp,founder with signal_type funding_round and signal_date_range 90d.',
    query: PeopleQuery,
    record: PeopleResponse.properties.data.items,
    defaultFields: ['name', 'title', 'linkedin_url', 'company', 'matched_signal', 'is_latest_signal'],
    list: (ds, query, options) => ds.v2.people.list(query as QueryOf<'searchPeople'>, options).then(fromV2),
  },
];

function fieldsSchema(allowed: readonly string[], description: string, defaults?: readonly string[]) {
  return {
    type: 'array',
    items: { type: 'string', enum: [...allowed] },
    minItems: 1,
    uniqueItems: true,
    ...(defaults === undefined ? {} : { default: [...defaults] }),
    description,
  };
}

const integer = (description: string) => ({ type: 'integer', minimum: 0, description });

/** v1 tools' own `limit`: the API's page size is fixed, so the tool trims the page. */
const V1_LIMIT = {
  type: 'integer',
  minimum: 1,
  maximum: V1_PAGE_SIZE,
  default: DEFAULT_LIMIT,
  description:
    `How many of the page's records to return, from its start (1 to ${V1_PAGE_SIZE}). The API's pages hold ` +
    `${V1_PAGE_SIZE} records: those after the first \`limit\` are skipped, so use ${V1_PAGE_SIZE} to read them all`,
};

/**
 * The tool's input schema: the route's parameters, with the tool's `limit` (v1) or a smaller default
 * one (v2, the route's bounds kept), `count` read as the tool answers it, and `fields`.
 */
function inputSchemaOf(query: TObject, family: 'v1' | 'v2', fields: Record<string, unknown>): ObjectSchema {
  const schema = plainSchema(query);
  const { limit, count } = schema.properties;
  schema.properties = {
    ...schema.properties,
    ...(count && { count: { ...count, description: `${String(count.description)}. Here: \`total\` without records` } }),
    limit:
      family === 'v1'
        ? V1_LIMIT
        : { ...limit, default: DEFAULT_LIMIT, description: `${String(limit?.description)} (default ${DEFAULT_LIMIT} here)` },
    fields,
  };
  return schema;
}

function listTool(spec: ListToolSpec): McpTool {
  const allowed = propertyNames(spec.record);
  const unknown = spec.defaultFields.filter((name) => !allowed.includes(name));
  if (unknown.length > 0) throw new Error(`mcp tools: ${spec.name} has no fields ${unknown.join(', ')}`);
  const fieldsParameter = fieldsSchema(
    allowed,
    `Record fields to return (default: ${spec.defaultFields.join(', ')})`,
    spec.defaultFields,
  );
  const properties: ObjectSchema['properties'] = {
    total: integer('Exact number of records matching the filters'),
    page: { type: 'integer', minimum: 1, description: 'This page number' },
    hasNextPage: { type: 'boolean', description: 'Whether a next page exists (ask again with page + 1)' },
    returned: integer('Records in `records`'),
    records: { type: 'array', items: { type: 'object' }, description: 'The records, with the fields asked for' },
  };
  if (spec.family === 'v2') properties.creditsRemaining = integer("The account's credit balance after this call");
  return {
    name: spec.name,
    title: spec.title,
    description: `${spec.about} ${spec.family === 'v1' ? V1_TERMS : V2_TERMS} ${RESULT_TERMS}`,
    inputSchema: inputSchemaOf(spec.query, spec.family, fieldsParameter),
    outputSchema: { type: 'object', properties, required: ['total', 'page', 'hasNextPage', 'returned', 'records'] },
    async call(ds, args, options) {
      const { query, fields, limit: ownLimit } = readArguments(args, spec.family === 'v1');
      const kept = fieldSet(fields, allowed, spec.defaultFields);
      const size = spec.family === 'v1' ? v1Limit(ownLimit) : undefined;
      if (spec.family === 'v2') query.limit ??= DEFAULT_LIMIT;
      const page = await spec.list(ds, query, options);
      const records = page.records.slice(0, size).map((record) => pick(record, kept));
      return {
        total: page.total,
        page: page.page,
        hasNextPage: page.hasNextPage,
        returned: records.length,
        records,
        ...(page.creditsRemaining === undefined ? {} : { creditsRemaining: page.creditsRemaining }),
      };
    },
  };
}

/**
 * The list tool of each data set the changes feed carries: its records' default fields are that
 * tool's. A data set without a tool here has its records' every field by default.
 */
const TOOL_OF_DATASET: Readonly<Partial<Record<string, string>>> = {
  funding: 'list_funding_rounds',
  'm-a': 'list_deals',
  investors: 'list_investors',
  'job-changes': 'list_job_changes',
  acquisitions: 'list_acquisition_signals',
  companies: 'list_companies',
};

function changesTool(): McpTool {
  const allowed = propertyNames(ChangesResponse.properties.data.items.properties.record);
  const defaults = new Map(
    CHANGE_FEED_DATASETS.flatMap((dataset) => {
      const tool = LIST_TOOLS.find((spec) => spec.name === TOOL_OF_DATASET[dataset]);
      return tool ? [[dataset, new Set(tool.defaultFields)] as const] : [];
    }),
  );
  const fieldsParameter = fieldsSchema(
    allowed,
    "Fields to keep in each change's record (those it has). Default: each data set's default fields, as its list tool " +
      `returns them (${Object.entries(TOOL_OF_DATASET)
        .map(([dataset, tool]) => `${dataset}: ${tool}`)
        .join('; ')})`,
  );
  return {
    name: 'list_changes',
    title: 'Changes feed',
    description:
      'The changes feed (GET /api/v2/changes): every record created, updated or deleted in any data set (funding, m-a, ' +
      'investors, job-changes, acquisitions), oldest first, each with the record as its list endpoint serves it now (null ' +
      'when deleted). To follow changes from this moment, start with `since: "now"`: no changes, free, and the head as ' +
      '`nextCursor`. To read every change kept (7 days by default), start without `since`. Then pass the returned ' +
      '`nextCursor` as `since` to continue; `hasNextPage: false` means caught up (ask later with the same cursor). ' +
      '`datasets` narrows it. Costs 1 credit per call (an empty page too) but `since: "now"` is free; `count: true` returns `total`, the number of ' +
      `changes after \`since\`, and costs nothing. \`limit\` changes a page (1-1000, default ${DEFAULT_LIMIT}).`,
    inputSchema: inputSchemaOf(ChangesQuery, 'v2', fieldsParameter),
    outputSchema: {
      type: 'object',
      properties: {
        nextCursor: { type: 'string', description: 'Pass as `since` to continue right after this page' },
        hasNextPage: { type: 'boolean', description: 'true: more changes follow now; false: caught up' },
        returned: integer('Changes in `changes`'),
        total: integer('Count mode only: the exact number of changes after `since`'),
        changes: {
          type: 'array',
          items: { type: 'object' },
          description: '{cursor, dataset, op, id, changedAt, record}, the record with the fields asked for',
        },
        creditsRemaining: integer("The account's credit balance after this call"),
      },
      required: ['nextCursor', 'hasNextPage', 'returned', 'changes'],
    },
    async call(ds, args, options) {
      const { query, fields } = readArguments(args, false);
      const asked = fields === undefined ? undefined : fieldSet(fields, allowed, []);
      query.limit ??= DEFAULT_LIMIT;
      const page = await ds.v2.changes.list(query as QueryOf<'listChanges'>, options);
      const changes = page.data.map((change) => ({
        ...change,
        // A data set without a list tool keeps its records whole.
        record: ((fields) => (fields ? pick(change.record, fields) : change.record))(asked ?? defaults.get(change.dataset)),
      }));
      const { nextCursor, hasNextPage, totalCount } = page.pagination;
      return {
        nextCursor,
        hasNextPage,
        returned: changes.length,
        ...(totalCount === undefined ? {} : { total: totalCount }),
        changes,
        creditsRemaining: page.meta.creditsRemaining,
      };
    },
  };
}

/** get_company: one company with the summary of its signals, by id, website domain or LinkedIn page. */
function companyTool(): McpTool {
  const text = (description: string) => ({ type: 'string', minLength: 1, maxLength: 2048, description });
  return {
    name: 'get_company',
    title: 'One company and its signals',
    description:
      'One company (GET /api/v2/companies/{id}, or /lookup by website or LinkedIn page) with a summary of every record ' +
      'linked to it: funding rounds (count, total raised per currency, the latest), M&A deals as target and as acquirer, ' +
      'job changes into and out of it over 30/90/365 days, its latest acquisition signal, the investors on its rounds. ' +
      "Give exactly one of `id` (from list_companies or a record's companyId), `domain` or `linkedin_url`. Costs 1 " +
      'credit; an unknown company is an error and costs nothing.',
    inputSchema: {
      type: 'object',
      properties: {
        id: { type: 'string', format: 'uuid', description: 'The company id' },
        domain: text('A website or its domain (acme.com)'),
        linkedin_url: text('A LinkedIn company page (linkedin.com/company/acme)'),
      },
      additionalProperties: false,
    },
    outputSchema: {
      type: 'object',
      properties: {
        company: { type: 'object', description: 'The company and its `signals`' },
        creditsRemaining: integer("The account's credit balance after this call"),
      },
      required: ['company'],
    },
    async call(ds, args, options) {
      const given = ['id', 'domain', 'linkedin_url'].filter((name) => args[name] !== undefined && args[name] !== null);
      if (given.length !== 1 || given.some((name) => typeof args[name] !== 'string')) {
        throw new ArgumentError('give exactly one of id, domain and linkedin_url, as a string');
      }
      const id = args.id;
      const body =
        typeof id === 'string'
          ? await ds.v2.companies.get(id, options)
          : await ds.v2.companies.lookup(
              given[0] === 'domain' ? { domain: String(args.domain) } : { linkedin_url: String(args.linkedin_url) },
              options,
            );
      return { company: body.data, creditsRemaining: body.meta.creditsRemaining };
    },
  };
}

/** Companies enrich_companies takes in one call: a small list, finished within the call. */
const ENRICH_MAX = 100;

/** enrich_companies: a small list of companies matched to ours with their signals, in one call (wait=true). */
function enrichTool(): McpTool {
  const text = (description: string) => ({ type: 'string', maxLength: 2048, description });
  return {
    name: 'enrich_companies',
    title: 'Enrich a list of companies',
    description:
      `Matches up to ${ENRICH_MAX} companies to dealsignal's (POST /api/v2/csv-enrichment with wait=true) and returns, for ` +
      'each, the company it matched (by website domain or LinkedIn page: exact; by name: fuzzy; a name several companies ' +
      'share is left unmatched with its `candidates` unless a `country` picks one), how many funding, acquisition, hiring, ' +
      'job-change and investor signals it has, and the newest of each. Each company needs a name, website/domain or ' +
      'LinkedIn URL; other fields come back as given. Costs 1 credit per call (a new job each time: not free to retry). ' +
      'If the job is not finished within `timeout` seconds, returns its `jobId` and status instead.',
    inputSchema: {
      type: 'object',
      properties: {
        companies: {
          type: 'array',
          minItems: 1,
          maxItems: ENRICH_MAX,
          items: {
            type: 'object',
            properties: {
              company_name: text('Company name'),
              website_url: text('Website or domain (acme.com)'),
              linkedin_url: text('LinkedIn company page'),
              country: text('HQ country (code or English name): picks among companies of the same name'),
            },
            additionalProperties: true,
          },
        },
        fileName: { type: 'string', maxLength: 500, description: 'A label for the job' },
        timeout: { type: 'integer', minimum: 1, maximum: 30, description: 'Seconds to wait for the result (default 30)' },
      },
      required: ['companies'],
      additionalProperties: false,
    },
    outputSchema: {
      type: 'object',
      properties: {
        jobId: { type: 'string' },
        status: { type: 'string', description: 'completed or failed; pending or running when it did not finish in time' },
        summary: { type: 'object', description: 'Counts: totalInputs, matched, unmatched, ambiguous, with*Signals' },
        results: {
          type: 'array',
          items: { type: 'object' },
          description:
            'Per company, in input order: input, matched, companyId, company, match_confidence, matchedField, candidates, ' +
            'signalCounts, and `latest`: the newest signal of each type (null when none)',
        },
        creditsRemaining: integer("The account's credit balance after this call"),
      },
      required: ['jobId', 'status'],
    },
    async call(ds, args, options) {
      const companies = args.companies;
      if (!Array.isArray(companies) || companies.length === 0 || companies.length > ENRICH_MAX) {
        throw new ArgumentError(`companies: give 1 to ${ENRICH_MAX} companies (larger lists: the API's csv-enrichment jobs)`);
      }
      const body = await ds.v2.enrichment.create(
        {
          companies: companies as { [key: string]: unknown }[],
          wait: true,
          timeout: typeof args.timeout === 'number' ? args.timeout : 30,
          ...(typeof args.fileName === 'string' && { fileName: args.fileName }),
        },
        options,
      );
      const data = body.data as { jobId: string; status?: string; summary?: object; results?: Record<string, unknown>[] };
      if (data.status === undefined)
        return { jobId: data.jobId, status: 'running', creditsRemaining: body.meta.creditsRemaining };
      const results = (data.results ?? []).map(({ signals, ...result }) => ({
        ...result,
        latest: Object.fromEntries(
          Object.entries(signals as Record<string, unknown[]>).map(([type, list]) => [type, list[0] ?? null]),
        ),
      }));
      return {
        jobId: data.jobId,
        status: data.status,
        summary: data.summary,
        results,
        creditsRemaining: body.meta.creditsRemaining,
      };
    },
  };
}

/** list_monitors: the account's monitors, as GET /api/v2/monitors answers (free). */
function listMonitorsTool(): McpTool {
  return {
    name: 'list_monitors',
    title: 'List monitors',
    description:
      "The account's monitors (GET /api/v2/monitors): each watch list's id, name, signal_types (funding_round, acquisition, " +
      'job_change, hiring), whether it is active, its webhook (or email digests), and its stats: targets, resolved_targets, ' +
      'signals_30d, last_delivery_at. Free. Use a monitor id with add_monitor_targets.',
    inputSchema: { type: 'object', properties: {}, additionalProperties: false },
    outputSchema: {
      type: 'object',
      properties: { monitors: { type: 'array', items: { type: 'object' }, description: 'Newest first, paused ones included' } },
      required: ['monitors'],
    },
    async call(ds, _args, options) {
      const body = await ds.v2.monitors.list(options);
      return { monitors: body.data };
    },
  };
}

/** Targets add_monitor_targets takes in one call, as the API does. */
const TARGETS_MAX = 500;

/** add_monitor_targets: companies added to a monitor; idempotent, so safe to call again. */
function addMonitorTargetsTool(): McpTool {
  return {
    name: 'add_monitor_targets',
    title: 'Add companies to a monitor',
    description:
      `Adds up to ${TARGETS_MAX} companies to a monitor (POST /api/v2/monitors/{id}/targets): company domains or website ` +
      'URLs (acme.com), LinkedIn company URLs, or LinkedIn profile URLs (the company that person works at). Idempotent: ' +
      'companies already watched are counted in skipped_existing, never added twice, so calling again after a failure is ' +
      'safe. Entries of none of the kinds come back in `invalid`. Known companies resolve at once; the others are `pending` ' +
      'and resolve when data about them arrives. backfill_days (0-90) sends each newly resolved company the past signals of ' +
      'that window once. Free.',
    inputSchema: {
      type: 'object',
      properties: {
        monitor_id: { type: 'string', maxLength: 100, description: 'The monitor (list_monitors gives the ids)' },
        targets: {
          type: 'array',
          minItems: 1,
          maxItems: TARGETS_MAX,
          items: { type: 'string', minLength: 1, maxLength: 500 },
          description: 'Domains, LinkedIn company URLs or LinkedIn profile URLs',
        },
        backfill_days: {
          type: 'integer',
          minimum: 0,
          maximum: 90,
          description: "Days of past signals to send (default: the monitor's)",
        },
      },
      required: ['monitor_id', 'targets'],
      additionalProperties: false,
    },
    outputSchema: {
      type: 'object',
      properties: {
        added: { type: 'array', items: { type: 'object' }, description: 'Targets this call created (value, status, company)' },
        skipped_existing: integer('Targets already in the monitor'),
        invalid: { type: 'array', items: { type: 'string' }, description: 'Entries that are no domain or LinkedIn URL' },
        pending: { type: 'array', items: { type: 'string' }, description: 'Added targets not matched to a company yet' },
        resolved_companies: integer('Distinct companies the monitor now watches'),
      },
      required: ['added', 'skipped_existing', 'invalid', 'pending', 'resolved_companies'],
    },
    async call(ds, args, options) {
      if (typeof args.monitor_id !== 'string' || args.monitor_id === '') throw new ArgumentError('monitor_id: give a monitor id');
      const targets = args.targets;
      if (!Array.isArray(targets) || targets.length === 0 || targets.length > TARGETS_MAX) {
        throw new ArgumentError(`targets: give 1 to ${TARGETS_MAX} domains or LinkedIn URLs`);
      }
      const body = await ds.v2.monitors.addTargets(
        args.monitor_id,
        {
          targets: targets.map(String),
          ...(typeof args.backfill_days === 'number' && { backfill_days: args.backfill_days }),
        },
        options,
      );
      return body.data;
    },
  };
}

export const MCP_TOOLS: readonly McpTool[] = [
  ...LIST_TOOLS.map(listTool),
  changesTool(),
  companyTool(),
  enrichTool(),
  listMonitorsTool(),
  addMonitorTargetsTool(),
];
