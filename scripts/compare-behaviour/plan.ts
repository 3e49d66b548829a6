// The requests sent to both servers, in order: drawn from a seeded PRNG over the API surface, so
// the same seed gives the same list. The lists of parameters and values are written out here, not
// imported from src/: the plan must not change with the code it checks.
//
// A request is a template: {{name}} is replaced with that server's own value of name (its keys,
// the ids of the webhooks it created, the cursors and ETags it gave), captured by earlier steps.
import { gzipSync } from 'node:zlib';

export interface RequestTemplate {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

export interface Answer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

export interface Capture {
  /** The variable later templates name. */
  name: string;
  from: (answer: Answer) => string | undefined;
  /**
   * A value random per run (an id, a secret): shown as <alias> wherever it appears in answers,
   * so two servers' answers compare equal when each holds its own.
   */
  alias?: string;
}

export interface Step {
  request: RequestTemplate;
  captures?: Capture[];
  /** metrics: only the metric names are compared (their values vary). */
  compare?: 'full' | 'metric-names';
}

/** mulberry32: small, fast and good enough to pick test cases. */
export function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

class Picker {
  constructor(private readonly random: () => number) {}
  chance(p: number): boolean {
    return this.random() < p;
  }
  int(min: number, max: number): number {
    return min + Math.floor(this.random() * (max - min + 1));
  }
  one<T>(values: readonly T[]): T {
    if (values.length === 0) throw new Error('nothing to pick from');
    return values[Math.floor(this.random() * values.length)]!;
  }
  some<T>(values: readonly T[], max: number): T[] {
    const count = this.int(1, Math.min(max, values.length));
    const pool = [...values];
    const picked: T[] = [];
    while (picked.length < count) picked.push(pool.splice(Math.floor(this.random() * pool.length), 1)[0]!);
    return picked;
  }
}

const json = (answer: Answer): unknown => {
  try {
    return JSON.parse(answer.body.toString('utf8'));
  } catch {
    return undefined;
  }
};
const at = (value: unknown, ...path: (string | number)[]): unknown =>
  path.reduce<unknown>(
    (node, key) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined),
    value,
  );
const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

// ---------- keys ----------

/** The accounts every server gets, created in this order (see compare-behaviour.ts). */
export const ACCOUNTS = [
  { name: 'ent', tier: 'enterprise' },
  { name: 'pro', tier: 'pro' },
  { name: 'free', tier: 'free' },
  { name: 'hooks', tier: 'enterprise' },
  { name: 'limited', tier: 'pro' },
  { name: 'revoked', tier: 'pro' },
] as const;
/** The v1 limit of the "limited" account: a burst past it meets 429s. */
export const LIMITED_V1 = 3;

const v1Key = (name = 'ent') => ({ 'x-lot-api-key': `{{key.${name}}}` });
const v2Key = (name = 'ent') => ({ authorization: `Bearer {{key.${name}}}` });

/** Keys that are refused, each in its own way. */
const BAD_V1_KEYS: Record<string, string>[] = [
  {},
  { 'x-lot-api-key': '' },
  { 'x-lot-api-key': 'not-a-key' },
  { 'x-lot-api-key': 'ds_00000000000000000000000000000000abcdef' },
  { 'x-lot-api-key': '{{key.revoked}}' },
  { authorization: 'Bearer {{key.ent}}' },
];
const BAD_V2_KEYS: Record<string, string>[] = [
  {},
  { authorization: '' },
  { authorization: 'Bearer' },
  { authorization: 'Bearer not-a-key' },
  { authorization: 'Basic ZGVtbzpkZW1v' },
  { authorization: 'Bearer ds_00000000000000000000000000000000abcdef' },
  { authorization: 'Bearer {{key.revoked}}' },
  { 'x-lot-api-key': '{{key.ent}}' },
];

// ---------- values ----------

/** Calendar dates relative to the day of the run (the demo data ends on it). */
function day(offsetDays: number, today: Date): string {
  return new Date(today.getTime() + offsetDays * 86_400_000).toISOString().slice(0, 10);
}

const COUNTRY = ['US', 'us', 'usa', 'United States', 'DE', 'deu', 'Germany', 'GB', 'uk', 'FR', 'CA', 'IN', ' SE '];
const BAD_COUNTRY = ['Atlantis', 'ZZ', 'XYZ', '', '12'];
const V1_CATEGORY = ['fintech', 'saas', 'FinTech,SaaS', 'healthcare', 'ai', 'fintech,nothing-like-this'];
const V1_ROUND = ['seed', 'Seed', 'series a', 'seed,series a', 'angel', 'bridge', 'growth equity', 'debt', 'pre-seed', 'nope'];
const AMOUNT = ['0', '1000000', '25000000', '9007199254740991'];
const BAD_AMOUNT = ['-1', '1.5', 'abc', '0x10', '+1', '1e3', '1e309', 'Infinity', '9007199254740992', ''];
const PAGE = ['1', '2', '3', '10', '251', '1000000'];
const BAD_PAGE = ['0', '-1', 'abc', '1.0', '1000001', '01', ' 1', ''];
const BAD_DATE = ['2024-02-30', '1899-12-31', '2200-01-01', '2024-1-1', 'yesterday', '2024-13-01', '20240101'];
const STATUS = ['announced', 'completed', 'pending'];
const BAD_STATUS = ['done', 'COMPLETED', ''];
const ACQUIRER = ['sales', 'force', 'group', 'capital holdings', 'é', 'x'.repeat(201)];

const REGIONS = ['NA', 'WE', 'CEE', 'NORDICS', 'LATAM', 'CEE,NORDICS'];
const INVESTOR_TYPES = ['vc', 'angel', 'pe', 'corporate', 'accelerator', 'family_office', 'fund', 'government'];
const COMPANY_CATEGORIES = ['Technology', 'Healthcare', 'fintech', 'saas', 'technology,healthcare'];
const POSITIONS = ['ceo', 'cto', 'cfo', 'vp of engineering', 'head of product', 'founder', 'co-founder', 'product manager'];
const DEPARTMENTS = ['engineering', 'product', 'sales', 'marketing', 'finance', 'data', 'customer_success'];
const SENIORITIES = ['founder', 'c_level', 'vp', 'director', 'head', 'lead', 'manager'];
const DATE_PRESETS = ['today', 'yesterday', 'last_7d', 'last_30d', 'last_90d', 'last_6m', 'last_1y', 'last_2y'];
const DATE_PRESETS_MORE = ['this_week', 'this_month', 'this_quarter', 'this_year', 'last_week', 'last_month', 'last_quarter'];
const PUBLISHED_ROUNDS = [
  'Seed',
  'Series A',
  'series b',
  'Pre-Seed',
  'Bridge',
  'Debt Financing',
  'Private Equity',
  'Other',
  'Angel',
];
const SORTS: Record<string, string[]> = {
  investors: ['name', 'created_at', 'ticket_size_min', 'ticket_size_max'],
  'job-changes': ['occurred_at', 'discovered_at', 'person_name', 'company_name'],
  acquisitions: ['occurred_at', 'discovered_at', 'amount', 'employee_count'],
  funding: ['occurred_at', 'discovered_at', 'amount', 'employee_count', 'founded_year'],
};
const LIMIT = ['1', '5', '20', '50', '100'];
const BAD_LIMIT = ['0', '101', '-5', 'ten', '2.5'];

/** What the first, fixed part of the plan found in the demo data, to build filters that match. */
export interface Discovered {
  websites: string[];
  linkedinUrls: string[];
  companyNames: string[];
  acquirers: string[];
  personLinkedinUrls: string[];
  companyLinkedinUrls: string[];
  acquisitionDomains: string[];
  acquisitionLinkedinUrls: string[];
  investorNames: string[];
  fundingRecord?: Record<string, unknown>;
  dealRecord?: Record<string, unknown>;
  investorRecord?: Record<string, unknown>;
  jobChangeRecord?: Record<string, unknown>;
  acquisitionRecord?: Record<string, unknown>;
}

// ---------- query strings ----------

type Param = [name: string, value: string];

function query(params: Param[]): string {
  if (params.length === 0) return '';
  return '?' + params.map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`).join('&');
}

/** Oddities every list endpoint must refuse or treat as documented, added now and then. */
function oddity(pick: Picker, params: Param[], listParam: string | undefined): Param[] {
  const scalar = params.find(([name]) => name === 'page' || name === 'limit');
  switch (pick.int(0, 6)) {
    case 0:
      return [...params, [pick.one(['foo', '__proto__', 'constructor', '', 'api_key', 'Page']), '1']];
    case 1:
      return scalar ? [...params, [scalar[0], '2']] : [...params, ['page', '1'], ['page', '2']];
    case 2:
      return listParam ? [...params, [listParam, params.find(([n]) => n === listParam)?.[1] ?? 'seed']] : params;
    case 3:
      return [...params, [params[0]?.[0] ?? 'page', 'a\u0000b']];
    case 4:
      return [...params, ['page', 'x'.repeat(30)]];
    default:
      return params;
  }
}

// ---------- the generators ----------

interface Context {
  pick: Picker;
  today: Date;
  found: Discovered;
  /** How many ETags and cursors have been captured: each capture gets a name of its own. */
  counters: { etags: number; cursors: number };
}

function dateParams(ctx: Context, from: string, to: string): Param[] {
  const { pick, today } = ctx;
  const valid = () => day(-pick.int(0, 400), today);
  switch (pick.int(0, 5)) {
    case 0:
      return [[from, valid()]];
    case 1:
      return [[to, valid()]];
    case 2: {
      const a = valid();
      const b = valid();
      return [
        [from, a < b ? a : b],
        [to, a < b ? b : a],
      ];
    }
    case 3:
      return [
        [from, day(-10, today)],
        [to, day(-20, today)],
      ];
    case 4:
      return [[pick.one([from, to]), pick.one(BAD_DATE)]];
    default:
      return [[from, '1900-01-01']];
  }
}

function v1List(ctx: Context, dataset: 'funding' | 'm-a'): Step {
  const { pick, found } = ctx;
  const params: Param[] = [];
  const bad = pick.chance(0.2);
  const options: (() => void)[] = [
    () => params.push(['country', bad && pick.chance(0.5) ? pick.one(BAD_COUNTRY) : pick.one(COUNTRY)]),
    () => params.push(['category', pick.one(V1_CATEGORY)]),
    () => params.push(['amount', bad && pick.chance(0.5) ? pick.one(BAD_AMOUNT) : pick.one(AMOUNT)]),
    () => params.push(['page', bad && pick.chance(0.5) ? pick.one(BAD_PAGE) : pick.one(PAGE)]),
    () => params.push(...dateParams(ctx, 'date_from', 'date_to')),
    () =>
      params.push([
        'website',
        pick.chance(0.8) ? pick.one(found.websites) : pick.one(['https://WWW.nothing.example/', 'x'.repeat(2049)]),
      ]),
    () => params.push(['linkedin_url', pick.one(found.linkedinUrls)]),
  ];
  if (dataset === 'funding') options.push(() => params.push(['round', pick.one(V1_ROUND)]));
  else {
    options.push(() => params.push(['status', bad && pick.chance(0.5) ? pick.one(BAD_STATUS) : pick.one(STATUS)]));
    options.push(() => params.push(['acquiring_company', pick.chance(0.7) ? pick.one(found.acquirers) : pick.one(ACQUIRER)]));
  }
  const count = pick.int(0, 3);
  for (let i = 0; i < count; i += 1) pick.one(options)();
  const withOddity = pick.chance(0.15) ? oddity(pick, params, dataset === 'funding' ? 'round' : 'category') : params;
  const repeatList = pick.chance(0.1)
    ? [...withOddity, ['category', 'fintech'] as Param, ['category', 'saas'] as Param]
    : withOddity;
  const headers = pick.chance(0.06) ? pick.one(BAD_V1_KEYS) : v1Key();
  return { request: { method: 'GET', path: `/api/v1/${dataset}${query(repeatList)}`, headers } };
}

function v1Lookup(ctx: Context): Step {
  const { pick, found } = ctx;
  const dataset = pick.one(['funding', 'm-a']);
  const headers = { ...v1Key(), 'content-type': 'application/json' };
  const websites = Array.from({ length: pick.int(0, 5) }, () =>
    pick.chance(0.8) ? pick.one(found.websites) : pick.one(['not a url at all', 'https://acme', 'https://', 'nothing.example']),
  );
  const linkedinUrls = Array.from({ length: pick.int(0, 3) }, () =>
    pick.chance(0.8) ? pick.one(found.linkedinUrls) : pick.one(['linkedin.com/in/someone', 'example.com/company/x']),
  );
  const bodies: (string | Buffer)[] = [
    JSON.stringify({ websites, linkedin_urls: linkedinUrls }),
    JSON.stringify({ websites }),
    JSON.stringify({ linkedin_urls: linkedinUrls }),
  ];
  switch (pick.int(0, 12)) {
    case 0:
      return { request: { method: 'POST', path: `/api/v1/${dataset}/lookup`, headers, body: '{"websites": [' } };
    case 1:
      return {
        request: { method: 'POST', path: `/api/v1/${dataset}/lookup`, headers, body: JSON.stringify({ websites: [1, 'a.com'] }) },
      };
    case 2:
      return { request: { method: 'POST', path: `/api/v1/${dataset}/lookup`, headers, body: JSON.stringify({ colour: 'red' }) } };
    case 3: {
      const many = Array.from({ length: 101 }, (_, i) => `company-${i}.example`);
      return {
        request: { method: 'POST', path: `/api/v1/${dataset}/lookup`, headers, body: JSON.stringify({ websites: many }) },
      };
    }
    case 4:
      return {
        request: {
          method: 'POST',
          path: `/api/v1/${dataset}/lookup`,
          headers: { ...headers, 'content-encoding': 'gzip' },
          body: gzipSync(JSON.stringify({ websites: ['a.com'] })),
        },
      };
    case 5:
      return { request: { method: 'POST', path: `/api/v1/${dataset}/lookup?page=2`, headers, body: bodies[0] } };
    case 6:
      return { request: { method: 'POST', path: `/api/v1/${dataset}/lookup`, headers: v1Key(), body: '' } };
    case 7:
      return {
        request: {
          method: 'POST',
          path: `/api/v1/${dataset}/lookup`,
          headers: { 'content-type': 'application/json' },
          body: bodies[0],
        },
      };
    case 8:
      return { request: { method: 'POST', path: `/api/v1/${dataset}/lookup`, headers, body: '\u001fnot json' } };
    default:
      return { request: { method: 'POST', path: `/api/v1/${dataset}/lookup`, headers, body: pick.one(bodies) } };
  }
}

const V2_ENDPOINTS = ['investors', 'job-changes', 'acquisitions', 'funding'] as const;
type V2Endpoint = (typeof V2_ENDPOINTS)[number];

function v2List(ctx: Context, endpoint: V2Endpoint, key = 'ent'): Step {
  const { pick, found } = ctx;
  const params: Param[] = [];
  const bad = pick.chance(0.2);
  const options: (() => void)[] = [
    () => params.push(['page', bad && pick.chance(0.4) ? pick.one(BAD_PAGE) : pick.one(PAGE)]),
    () => params.push(['limit', bad && pick.chance(0.4) ? pick.one(BAD_LIMIT) : pick.one(LIMIT)]),
    () => params.push(['count', pick.one(['true', 'true', 'false', 'maybe'])]),
    () => params.push(...dateParams(ctx, 'dateFrom', 'dateTo')),
    () => params.push(['date_preset', bad && pick.chance(0.4) ? 'last_3d' : pick.one([...DATE_PRESETS, ...DATE_PRESETS_MORE])]),
    () => params.push(['sort_by', bad && pick.chance(0.4) ? 'colour' : pick.one(SORTS[endpoint]!)]),
    () => params.push(['sort_order', bad && pick.chance(0.4) ? 'up' : pick.one(['asc', 'desc'])]),
    () => {
      const words = endpoint === 'investors' ? found.investorNames : found.companyNames;
      const word = (pick.one(words).split(/\s+/)[0] ?? 'a').slice(0, pick.int(2, 6));
      params.push(['search', bad && pick.chance(0.4) ? pick.one(['123', 'a b c d e f g h i j k', '!!']) : word]);
    },
  ];
  if (endpoint !== 'job-changes') {
    options.push(() =>
      params.push(['countries', bad && pick.chance(0.4) ? pick.one(BAD_COUNTRY) : pick.one([...COUNTRY, ...REGIONS])]),
    );
    options.push(() => params.push(['exclude_countries', bad && pick.chance(0.4) ? 'XX' : pick.one(['US', 'WE', 'NA', 'de'])]));
    options.push(() =>
      params.push([
        'categories',
        endpoint === 'investors' ? (bad ? 'nope' : pick.some(INVESTOR_TYPES, 3).join(',')) : pick.one(COMPANY_CATEGORIES),
      ]),
    );
  }
  if (endpoint === 'job-changes') {
    options.push(() => params.push(['positions', bad ? 'astronaut' : pick.some(POSITIONS, 3).join(',')]));
    options.push(() => params.push(['departments', bad ? 'kitchen' : pick.some(DEPARTMENTS, 3).join(',')]));
    options.push(() => params.push(['seniorities', pick.some(SENIORITIES, 2).join(',')]));
    options.push(() => params.push(['personLinkedinUrl', pick.one(found.personLinkedinUrls)]));
    options.push(() => params.push(['companyLinkedinUrl', pick.one(found.companyLinkedinUrls)]));
  }
  if (endpoint === 'acquisitions' || endpoint === 'funding') {
    const domains = endpoint === 'funding' ? found.websites : found.acquisitionDomains;
    const linkedins = endpoint === 'funding' ? found.linkedinUrls : found.acquisitionLinkedinUrls;
    options.push(() =>
      params.push([
        'company_domain',
        bad ? pick.one(['not a domain', 'http://', 'novartis', '10.0.0.1', 'acme.io/about']) : pick.some(domains, 3).join(','),
      ]),
    );
    options.push(() => params.push(['company_linkedin_url', bad ? 'linkedin.com/in/someone' : pick.one(linkedins)]));
  }
  if (endpoint === 'funding') {
    options.push(() => params.push(['round', bad ? 'Series Z' : pick.some(PUBLISHED_ROUNDS, 2).join(',')]));
    options.push(() => params.push(['amount_min', bad ? pick.one(BAD_AMOUNT) : pick.one(AMOUNT.slice(0, 3))]));
    options.push(() => params.push(['amount_max', pick.one(['500000', '5000000', '100000000'])]));
  }
  const count = pick.int(0, 4);
  for (let i = 0; i < count; i += 1) pick.one(options)();
  const listParam = endpoint === 'job-changes' ? 'positions' : 'categories';
  const final = pick.chance(0.12) ? oddity(pick, params, listParam) : params;
  const headers = pick.chance(0.05) ? pick.one(BAD_V2_KEYS) : v2Key(key);
  return { request: { method: 'GET', path: `/api/v2/signals/${endpoint}${query(final)}`, headers } };
}

// ---------- conditional requests and HEAD ----------

/** GET a list page, then ask again with its ETag (304), a stale one, "*", a list, and HEAD. */
function conditional(ctx: Context): Step[] {
  const { pick } = ctx;
  const base = pick.chance(0.5) ? v1List(ctx, pick.one(['funding', 'm-a'])) : v2List(ctx, pick.one(V2_ENDPOINTS));
  const name = `etag.${(ctx.counters.etags += 1)}`;
  const first: Step = { ...base, captures: [{ name, from: (answer) => answer.headers['etag'] }] };
  const again = (ifNoneMatch: string, method = 'GET'): Step => ({
    request: { ...base.request, method, headers: { ...base.request.headers, 'if-none-match': ifNoneMatch } },
  });
  return [
    first,
    again(`{{${name}}}`),
    again(`{{${name}}}`, 'HEAD'),
    again(pick.one(['W/"stale"', '"not-this-one"', 'garbage', `W/"x", {{${name}}}`, '*'])),
    { request: { ...base.request, method: 'HEAD' } },
  ];
}

// ---------- the changes feed ----------

function changes(ctx: Context): Step[] {
  const { pick } = ctx;
  const name = `cursor.${(ctx.counters.cursors += 1)}`;
  const capture: Capture = { name, from: (answer) => text(at(json(answer), 'pagination', 'nextCursor')) };
  const datasets = pick.chance(0.5)
    ? `&datasets=${pick.some(['funding', 'm-a', 'investors', 'job-changes', 'acquisitions'], 2).join(',')}`
    : '';
  const steps: Step[] = [
    { request: { method: 'GET', path: `/api/v2/changes?since=now${datasets}`, headers: v2Key() }, captures: [capture] },
    {
      request: { method: 'GET', path: `/api/v2/changes?since={{${name}}}&limit=${pick.one(LIMIT)}${datasets}`, headers: v2Key() },
    },
    { request: { method: 'GET', path: `/api/v2/changes?since={{${name}}}&count=true`, headers: v2Key() } },
  ];
  switch (pick.int(0, 7)) {
    case 0:
      steps.push({ request: { method: 'GET', path: `/api/v2/changes?limit=${pick.one(LIMIT)}${datasets}`, headers: v2Key() } });
      break;
    case 1:
      steps.push({ request: { method: 'GET', path: '/api/v2/changes?since=djEuOTkuOTk5OTk5OTk', headers: v2Key() } });
      break;
    case 2:
      steps.push({ request: { method: 'GET', path: '/api/v2/changes?since=not-a-cursor', headers: v2Key() } });
      break;
    case 3:
      steps.push({ request: { method: 'GET', path: '/api/v2/changes?datasets=funding,nope', headers: v2Key() } });
      break;
    case 4:
      steps.push({ request: { method: 'GET', path: `/api/v2/changes?limit=${pick.one(BAD_LIMIT)}`, headers: v2Key() } });
      break;
    case 5:
      steps.push({ request: { method: 'GET', path: '/api/v2/changes?count=true', headers: v2Key() } });
      break;
    case 6:
      steps.push({ request: { method: 'GET', path: '/api/v2/changes?since=now&colour=red', headers: v2Key() } });
      break;
    default:
      steps.push({ request: { method: 'GET', path: '/api/v2/changes?since=now', headers: pick.one(BAD_V2_KEYS) } });
  }
  return steps;
}

// ---------- webhooks ----------

const webhookJson = (method: string, path: string, body?: unknown, key = 'hooks'): Step => ({
  request: {
    method,
    path,
    headers: body === undefined ? v2Key(key) : { ...v2Key(key), 'content-type': 'application/json' },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  },
});

const webhookCaptures = (name: string): Capture[] => [
  { name: `${name}.id`, from: (answer) => text(at(json(answer), 'data', 'id')), alias: `${name}.id` },
  { name: `${name}.secret`, from: (answer) => text(at(json(answer), 'data', 'secret')), alias: `${name}.secret` },
  secretPreview(name),
];

/** The API shows a webhook's secret afterwards as "…" and its last 4 characters. */
function secretPreview(name: string): Capture {
  const secret = (answer: Answer) => text(at(json(answer), 'data', 'secret'));
  return {
    name: `${name}.secret_preview`,
    from: (answer) => secret(answer) && `…${secret(answer)!.slice(-4)}`,
    alias: `${name}.secret_preview`,
  };
}

function webhooks(receiver: string): Step[] {
  const steps: Step[] = [];
  const create = (name: string, body: unknown) =>
    steps.push({ ...webhookJson('POST', '/api/v2/webhooks', body), captures: webhookCaptures(name) });
  // Refused bodies first: nothing is created by them.
  for (const body of [
    {},
    { endpoint_url: 'not a url', event_types: ['funding.created'] },
    { endpoint_url: 'http://10.0.0.1/hook', event_types: ['funding.created'] },
    { endpoint_url: receiver, event_types: ['nothing.happened'] },
    { endpoint_url: receiver, event_types: [] },
    { endpoint_url: receiver, event_types: ['funding.created'], filters: { colour: 'red' } },
    { endpoint_url: receiver, event_types: ['funding.created'], filters: { countries: 'Atlantis' } },
    { endpoint_url: receiver, event_types: ['funding.created'], filters: { query: '/api/v1/funding?page=2' } },
    { endpoint_url: receiver, event_types: ['funding.created'], filters: { query: '/api/v2/signals/funding?round=Seed' } },
    { endpoint_url: `${receiver}?${'x'.repeat(500)}`, event_types: ['funding.created'] },
    '{"endpoint_url": ',
    JSON.stringify({ endpoint_url: receiver, event_types: ['funding.created'], filters: { search: 'x'.repeat(70_000) } }),
  ]) {
    steps.push(webhookJson('POST', '/api/v2/webhooks', body));
  }
  steps.push({
    request: { method: 'POST', path: '/api/v2/webhooks', headers: { 'content-type': 'application/json' }, body: '{}' },
  });
  create('hook.quiet', { endpoint_url: receiver, event_types: ['hiring.created'], filters: { countries: 'US' } });
  create('hook.camel', {
    endpointUrl: receiver.toUpperCase().replace('HTTP://', 'http://'),
    eventTypes: ['new_company.created'],
  });
  // Hears the deals the admin imports add later: the dispatcher and the sender run on both servers.
  create('hook.deals', {
    endpoint_url: receiver,
    event_types: ['deal.created', 'deal.updated'],
    filters: { query: '/api/v1/m-a?status=pending' },
  });
  steps.push(webhookJson('GET', '/api/v2/webhooks'));
  steps.push(webhookJson('GET', '/api/v2/webhooks?limit=1&offset=1'));
  steps.push(webhookJson('GET', '/api/v2/webhooks?limit=0'));
  steps.push(webhookJson('GET', '/api/v2/webhooks/{{hook.quiet.id}}'));
  steps.push(webhookJson('GET', '/api/v2/webhooks/{{hook.quiet.id}}', undefined, 'ent'));
  steps.push(webhookJson('GET', '/api/v2/webhooks/00000000-0000-4000-8000-000000000000'));
  steps.push(webhookJson('GET', '/api/v2/webhooks/not-an-id'));
  steps.push(webhookJson('PUT', '/api/v2/webhooks/{{hook.quiet.id}}', { active: false }));
  steps.push(
    webhookJson('PUT', '/api/v2/webhooks/{{hook.quiet.id}}', { filters: { countries: 'DE,FR', categories: 'fintech' } }),
  );
  steps.push(webhookJson('PUT', '/api/v2/webhooks/{{hook.quiet.id}}', { endpoint_url: 'ftp://example.com/' }));
  steps.push(webhookJson('PUT', '/api/v2/webhooks/{{hook.quiet.id}}', { event_types: ['investor.created'], active: true }));
  steps.push({
    ...webhookJson('PUT', '/api/v2/webhooks/{{hook.camel.id}}', { rotate_secret: true }),
    captures: [
      { name: 'hook.camel.secret2', from: (answer) => text(at(json(answer), 'data', 'secret')), alias: 'hook.camel.secret2' },
      secretPreview('hook.camel.secret2'),
    ],
  });
  steps.push({
    ...webhookJson('POST', '/api/v2/webhooks/{{hook.quiet.id}}/test'),
    captures: [
      { name: 'hook.quiet.event', from: (answer) => text(at(json(answer), 'data', 'event_id')), alias: 'hook.quiet.event' },
      {
        name: 'hook.quiet.delivery',
        from: (answer) => text(at(json(answer), 'data', 'delivery_id')),
        alias: 'hook.quiet.delivery',
      },
    ],
  });
  steps.push(webhookJson('GET', '/api/v2/webhooks/{{hook.quiet.id}}/deliveries'));
  steps.push(webhookJson('GET', '/api/v2/webhooks/{{hook.quiet.id}}/deliveries?status=failed&limit=5'));
  steps.push(webhookJson('GET', '/api/v2/webhooks/{{hook.quiet.id}}/deliveries?status=bogus'));
  steps.push(webhookJson('POST', '/api/v2/webhooks/{{hook.quiet.id}}/deliveries/{{hook.quiet.delivery}}/retry'));
  steps.push(webhookJson('POST', '/api/v2/webhooks/{{hook.quiet.id}}/deliveries/00000000-0000-4000-8000-000000000000/retry'));
  steps.push(webhookJson('GET', '/api/v2/webhooks/{{hook.camel.id}}'));
  steps.push(webhookJson('DELETE', '/api/v2/webhooks/{{hook.camel.id}}'));
  steps.push(webhookJson('GET', '/api/v2/webhooks/{{hook.camel.id}}'));
  steps.push(webhookJson('DELETE', '/api/v2/webhooks/{{hook.camel.id}}'));
  // Up to the cap (10 an account, the deleted one aside), then one more.
  for (let i = 0; i < 9; i += 1) create(`hook.filler${i}`, { endpoint_url: `${receiver}/${i}`, event_types: ['hiring.created'] });
  steps.push(webhookJson('GET', '/api/v2/webhooks?limit=100'));
  return steps;
}

// ---------- admin ingest ----------

function ingest(found: Discovered, today: Date): Step[] {
  const admin = { authorization: 'Bearer {{admin}}' };
  const post = (
    kind: string,
    body: string | Buffer,
    headers: Record<string, string> = { 'content-type': 'application/x-ndjson' },
    path = '',
  ): Step => ({
    request: { method: 'POST', path: `/admin/ingest/${kind}${path}`, headers: { ...admin, ...headers }, body },
  });
  const ndjson = (records: unknown[]) => records.map((record) => JSON.stringify(record)).join('\n') + '\n';
  const stamp = `${day(0, today)}T08:00:00.000Z`;
  const funding = (i: number) => ({
    ...found.fundingRecord,
    company_name: `Compare Probe ${i}`,
    name_path: `compare-probe-${i}`,
    date_seen: stamp,
    source_id: `compare-${i}`,
  });
  const deal = (i: number) => ({
    ...found.dealRecord,
    investment_id: `00000000-0000-4000-8000-0000000002${10 + i}`,
    company_name: `Compare Deal ${i}`,
    date_seen: stamp,
  });
  const investor = (i: number) => ({
    ...found.investorRecord,
    id: `00000000-0000-4000-8000-0000000000${10 + i}`,
    name: `Compare Investor ${i}`,
  });
  const jobChange = (i: number) => ({
    ...found.jobChangeRecord,
    signalId: `00000000-0000-4000-8000-0000000003${10 + i}`,
    personName: `Compare Person ${i}`,
  });
  const acquisition = (i: number) => ({
    ...found.acquisitionRecord,
    id: `00000000-0000-4000-8000-0000000001${10 + i}`,
    companyName: `Compare Target ${i}`,
  });
  const steps: Step[] = [
    {
      request: { method: 'GET', path: '/api/v2/changes?since=now', headers: v2Key() },
      captures: [{ name: 'cursor.ingest', from: (a) => text(at(json(a), 'pagination', 'nextCursor')) }],
    },
    post('funding', ndjson([funding(1), funding(2)])),
    post('funding', ndjson([funding(1), funding(2)])),
    post('funding', ndjson([{ ...funding(2), funding_amount: 12_345_678 }])),
    post('funding', ndjson([{ ...funding(3), funding_amount: 7_500_000 }]), { 'content-type': 'application/json' }),
    post('funding', JSON.stringify([funding(4)]), { 'content-type': 'application/json' }, '?format=json'),
    post('funding', gzipSync(ndjson([funding(5)])), { 'content-type': 'application/x-ndjson', 'content-encoding': 'gzip' }),
    post('funding', ndjson([funding(6), { ...funding(7), colour: 'red' }, { ...funding(8), date_seen: '2024-02-30T00:00:00Z' }])),
    post('funding', ndjson([funding(6), { ...funding(7), colour: 'red' }]), undefined, '?skipInvalid=true'),
    post('funding', '{"company_name": "cut off'),
    post('funding', ''),
    post('funding', 'not json at all\n'),
    post('funding', ndjson([funding(9)]), { 'content-type': 'text/csv' }),
    post('unicorns', ndjson([funding(9)])),
    {
      request: {
        method: 'POST',
        path: '/admin/ingest/funding',
        headers: { ...v2Key(), 'content-type': 'application/x-ndjson' },
        body: ndjson([funding(9)]),
      },
    },
    {
      request: {
        method: 'POST',
        path: '/admin/ingest/funding',
        headers: { authorization: 'Bearer wrong-admin-token-0123456789abc' },
        body: ndjson([funding(9)]),
      },
    },
    post(
      'm-a',
      ndjson([deal(1), { ...deal(2), status: 'pending' }, { ...deal(3), status: 'done' }]),
      undefined,
      '?skipInvalid=true',
    ),
    post('m-a', ndjson([deal(1), deal(1)])),
    post('investors', ndjson([investor(1), investor(2)])),
    post('investors', ndjson([{ ...investor(3), investorType: 'wizard' }])),
    post('job-changes', ndjson([jobChange(1), jobChange(2)])),
    post('job-changes', ndjson([{ ...jobChange(3), signalId: undefined }])),
    post('acquisitions', ndjson([acquisition(1)])),
    post('acquisitions', ndjson([{ ...acquisition(2), acquisitionSignalScore: 101 }])),
  ];
  // Reads that see the imports.
  const reads: [string, Record<string, string>][] = [
    ['/api/v1/funding', v1Key()],
    ['/api/v1/funding?round=' + encodeURIComponent(String(found.fundingRecord?.round_type ?? 'seed')), v1Key()],
    ['/api/v1/m-a?status=pending', v1Key()],
    ['/api/v1/m-a', v1Key()],
    ['/api/v2/signals/funding?search=compare%20probe', v2Key()],
    ['/api/v2/signals/investors?search=compare', v2Key()],
    ['/api/v2/signals/job-changes?search=compare%20person', v2Key()],
    ['/api/v2/signals/acquisitions?search=compare', v2Key()],
    ['/api/v2/changes?since={{cursor.ingest}}', v2Key()],
    ['/api/v2/changes?since={{cursor.ingest}}&datasets=m-a,investors&limit=2', v2Key()],
    ['/api/v2/changes?since={{cursor.ingest}}&count=true', v2Key()],
  ];
  for (const [path, headers] of reads) steps.push({ request: { method: 'GET', path, headers } });
  steps.push({
    request: {
      method: 'POST',
      path: '/api/v1/funding/lookup',
      headers: v1Key(),
      body: JSON.stringify({ websites: [String(at(found.fundingRecord, 'company_info', 'website') ?? 'a.com')] }),
    },
  });
  return steps;
}

// ---------- pages and operations ----------

function pages(): Step[] {
  const get = (path: string, headers: Record<string, string> = {}): Step => ({ request: { method: 'GET', path, headers } });
  return [
    get('/'),
    get('/signup'),
    get('/login'),
    get('/docs'),
    get('/docs/'),
    get('/openapi.json'),
    get('/account'),
    get('/account/keys'),
    get('/no-such-page'),
    get('/api/v1/no-such-endpoint', v1Key()),
    get('/api/v2/no-such-endpoint', v2Key()),
    get('/api/v1/%zz', v1Key()),
    get('/api/v2/%zz', v2Key()),
    { request: { method: 'DELETE', path: '/api/v1/funding', headers: v1Key() } },
    {
      request: {
        method: 'POST',
        path: '/signup',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'email=x&password=short',
      },
    },
    {
      request: {
        method: 'POST',
        path: '/login',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'email=nobody%40compare.test&password=wrong-password-123',
      },
    },
    get('/healthz'),
    get('/readyz'),
    { request: { method: 'GET', path: '/metrics' }, compare: 'metric-names' },
  ];
}

// ---------- the plan ----------

/** The fixed first part: operations, then pages whose records the rest of the plan draws from. */
export function discoveryPlan(): Step[] {
  const get = (path: string, headers: Record<string, string>): Step => ({ request: { method: 'GET', path, headers } });
  return [
    get('/healthz', {}),
    get('/readyz', {}),
    { request: { method: 'GET', path: '/metrics' }, compare: 'metric-names' },
    get('/api/v1/funding', v1Key()),
    get('/api/v1/funding?page=2', v1Key()),
    get('/api/v1/funding?page=3', v1Key()),
    get('/api/v1/m-a', v1Key()),
    get('/api/v1/m-a?page=2', v1Key()),
    get('/api/v2/signals/investors?limit=100', v2Key()),
    get('/api/v2/signals/job-changes?limit=100', v2Key()),
    get('/api/v2/signals/acquisitions?limit=100', v2Key()),
  ];
}

/** Reads the values the rest of the plan uses from the base server's answers to discoveryPlan(). */
export function discover(answers: Answer[]): Discovered {
  const records = (answer: Answer | undefined, ...path: string[]) => {
    const list = at(answer ? json(answer) : undefined, ...path);
    return Array.isArray(list) ? (list as Record<string, unknown>[]) : [];
  };
  const funding = answers.slice(3, 6).flatMap((a) => records(a, 'response', 'data'));
  const deals = answers.slice(6, 8).flatMap((a) => records(a, 'response', 'data'));
  const investors = records(answers[8], 'data');
  const jobChanges = records(answers[9], 'data');
  const acquisitions = records(answers[10], 'data');
  const strings = (values: unknown[]) =>
    [...new Set(values.filter((v): v is string => typeof v === 'string' && v !== ''))].slice(0, 40);
  const found: Discovered = {
    websites: strings(funding.map((r) => at(r, 'company_info', 'website'))),
    linkedinUrls: strings(
      funding.flatMap((r) => (Array.isArray(r.contact_info) ? r.contact_info.map((c) => at(c, 'company_linkedin_url')) : [])),
    ),
    companyNames: strings([...funding.map((r) => r.company_name), ...acquisitions.map((r) => r.companyName)]),
    acquirers: strings(deals.map((r) => r.acquired_by)).map((name) => name.split(/\s+/)[0]!),
    personLinkedinUrls: strings(jobChanges.map((r) => r.personLinkedinUrl)),
    companyLinkedinUrls: strings(jobChanges.map((r) => r.companyLinkedinUrl)),
    acquisitionDomains: strings(acquisitions.map((r) => r.website)),
    acquisitionLinkedinUrls: strings(acquisitions.map((r) => r.linkedinUrl)),
    investorNames: strings(investors.map((r) => r.name)),
    fundingRecord: funding[0],
    dealRecord: deals[0],
    investorRecord: investors[0],
    jobChangeRecord: jobChanges[0],
    acquisitionRecord: acquisitions[0],
  };
  for (const [name, values] of Object.entries(found)) {
    if (Array.isArray(values) && values.length === 0) throw new Error(`the demo data gave no ${name} to build requests from`);
    if (values === undefined) throw new Error(`the demo data gave no ${name} to build requests from`);
  }
  return found;
}

/**
 * The rest of the plan, about `size` requests: lists with many parameter combinations, lookups,
 * conditional requests, the changes feed, keys that are refused, limits and credits met, the
 * webhooks API, admin imports followed by reads that see them, pages and operations.
 */
export function mainPlan(options: { seed: number; size: number; today: Date; found: Discovered; receiver: string }): Step[] {
  const ctx: Context = {
    pick: new Picker(prng(options.seed)),
    today: options.today,
    found: options.found,
    counters: { etags: 0, cursors: 0 },
  };
  const { pick } = ctx;
  const steps: Step[] = [...pages()];
  // Limits and credits, early and in a burst: the limited account's v1 window and the free account's credits.
  for (let i = 0; i < LIMITED_V1 + 2; i += 1)
    steps.push({ request: { method: 'GET', path: `/api/v1/funding?page=${i + 1}`, headers: v1Key('limited') } });
  for (let i = 0; i < 5; i += 1) steps.push(v2List(ctx, pick.one(V2_ENDPOINTS), 'free'));
  // Count mode and since=now are free, the rest past the free credits a 402.
  steps.push({ request: { method: 'GET', path: '/api/v2/signals/investors?count=true', headers: v2Key('free') } });
  for (const endpoint of V2_ENDPOINTS)
    steps.push({ request: { method: 'GET', path: `/api/v2/signals/${endpoint}?limit=1`, headers: v2Key('free') } });
  steps.push({ request: { method: 'GET', path: '/api/v2/changes?since=now', headers: v2Key('free') } });
  steps.push({ request: { method: 'GET', path: '/api/v2/signals/investors', headers: v2Key('pro') } });
  steps.push(...webhooks(options.receiver));
  const mixed: (() => Step[])[] = [
    () => [v1List(ctx, 'funding')],
    () => [v1List(ctx, 'funding')],
    () => [v1List(ctx, 'm-a')],
    () => [v1Lookup(ctx)],
    () => [v2List(ctx, 'investors')],
    () => [v2List(ctx, 'job-changes')],
    () => [v2List(ctx, 'acquisitions')],
    () => [v2List(ctx, 'funding')],
    () => [v2List(ctx, pick.one(V2_ENDPOINTS), 'pro')],
  ];
  const ingestSteps = ingest(options.found, options.today);
  const closing = pages().slice(-3);
  const target = options.size - closing.length;
  let ingested = false;
  while (steps.length < target - (ingested ? 0 : ingestSteps.length)) {
    if (!ingested && steps.length > target / 2) {
      steps.push(...ingestSteps);
      ingested = true;
    }
    const roll = pick.int(0, 99);
    if (roll < 6) steps.push(...conditional(ctx));
    else if (roll < 10) steps.push(...changes(ctx));
    else steps.push(...pick.one(mixed)());
  }
  if (!ingested) steps.push(...ingestSteps);
  steps.push(...closing);
  return steps;
}
