// The request lists of the realistic workloads, drawn from the data itself rather than picked by hand:
// records are sampled from each table, and every filter is built from the values of a sampled record
// (its category, country, round, words of its names…), so the lists ask what clients of this data
// would ask, in the proportions the data has, and every combination matches at least that record.
// The lists of the workloads added since (v2 explore with the Signalbase 2.2 parameters, batch
// lookups) are drawn after the first ones, with a random sequence of their own, so the first lists
// stay exactly what they were for the same data and seed.
import { readFileSync } from 'node:fs';
import { publishedRoundType } from '../src/catalog/datasets/funding-signals.js';
import type { Queryable } from '../src/platform/db/port.js';
import {
  ACQUISITION_SORT_FIELDS,
  COUNTRY_CATEGORIES,
  DATE_PRESETS,
  FUNDING_SORT_FIELDS,
  INVESTOR_SORT_FIELDS,
  JOB_CHANGE_SORT_FIELDS,
  SORT_ORDERS,
} from '../src/catalog/schemas/published-params.js';
import { INVESTOR_TYPES } from '../src/catalog/schemas/v2-schemas.js';
import { COUNTRY_CATEGORY_MEMBERS, countryCategory } from '../src/catalog/country-groups.js';
import { countryCode, countryName } from '../src/catalog/countries.js';
import { presetRange } from '../src/catalog/date-presets.js';
import { labelKey, urlKey } from '../src/catalog/normalize.js';
import { classifyRole, type RoleClassification } from '../src/catalog/role-classifier.js';

export type Family = 'v1' | 'v2';

/** A v1 filter as a client sends it; kept as a structure so the peer can be asked the same thing. */
export interface V1Filter {
  dataset: 'funding' | 'm-a';
  category?: string[];
  /** As sent: an English name or an ISO code. */
  country?: string;
  round?: string[];
  amount?: number;
  dateFrom?: string;
  status?: string;
  acquirer?: string;
}

export interface WorkloadPath {
  family: Family;
  /** Path and query string, exactly as sent. */
  path: string;
  /** The filter's identity: paths that differ only in page, spelling or order share it. */
  filter: string;
  /** The v1 filter and page behind the path. */
  v1?: { filter: V1Filter; page: number };
  /** A POST's JSON body (batch lookups: `{"websites": [...]}`); absent for a GET. */
  body?: string;
  /** The inputs in the body (websites), for inputs per second. */
  inputs?: number;
}

export interface WorkloadLists {
  /** Funding and M&A filter combinations, each at pages 1–5. */
  v1Explore: WorkloadPath[];
  /** Job-change, investor and acquisition combinations, each with one `limit` at pages 1–3. */
  v2Explore: WorkloadPath[];
  /** Companies looked up by website, in the URL variants clients type, and sites the data does not hold. */
  lookups: WorkloadPath[];
  /** Saved filters of both families, page 1. */
  polling: WorkloadPath[];
  /** Filters in none of the other lists, page 1: each is asked once. */
  fresh: WorkloadPath[];
  /**
   * v2 explore as clients ask it since Signalbase 2.2: the mix of `v2Explore` with funding signals
   * added (FUNDING_SIGNALS_SHARE of the combinations), and the 2.2 parameters on a share of every
   * endpoint's combinations (PUBLISHED_SHARES); each with one `limit` at pages 1–3. No filter of it
   * is in another list.
   */
  v2Published: WorkloadPath[];
  /** `POST /api/v1/funding/lookup` bodies of BATCH_INPUTS websites: companies in URL variants, and unknown sites. */
  batchLookups: WorkloadPath[];
  /** Distinct filters behind the lists. */
  counts: {
    v1Funding: number;
    v1Ma: number;
    v2: number;
    lookupHits: number;
    lookupMisses: number;
    /** Combinations of v2Published, and how many of them carry each kind of 2.2 parameter. */
    v2Published: number;
    published: PublishedCounts;
    /** Bodies of batchLookups, their inputs in all, and how many of those are known companies and unknown sites. */
    batches: number;
    batchInputs: number;
    batchHits: number;
    batchMisses: number;
  };
}

export interface PublishedCounts {
  /** `/api/v2/signals/funding` combinations. */
  funding: number;
  /** With `sort_by` and `sort_order`. */
  sorted: number;
  /** With `exclude_countries`. */
  excluding: number;
  /** With `date_preset` (instead of dateFrom/dateTo). */
  preset: number;
  /** With a country category (CEE, WE, NORDICS, NA, LATAM) in `countries`. */
  countryCategory: number;
}

export interface ListSizes {
  v1Funding: number;
  v1Ma: number;
  v2: number;
  lookups: number;
  polling: number;
  fresh: number;
  /** Records sampled from each table. */
  sample: number;
  /** Combinations of the v2 explore list with the 2.2 parameters (as many as v2 explore's: the two rows compare). */
  v2Published: number;
  /** Bodies of the batch lookups (each of BATCH_INPUTS websites: 55 on average). */
  batches: number;
}

export const DEFAULT_SIZES: ListSizes = {
  v1Funding: 1500,
  v1Ma: 300,
  v2: 1200,
  lookups: 2000,
  polling: 50,
  fresh: 200,
  sample: 3000,
  v2Published: 1200,
  // 300 bodies × 55 websites ≈ 16,500 inputs, about 14,000 of them distinct known companies.
  batches: 300,
};

const V1_PAGES = 5;
const V2_PAGES = 3;
const V2_LIMITS = [20, 25, 50, 100];
/** Share of lookups for sites the data does not hold. */
const MISS_SHARE = 0.15;

/** Share of the 2.2 list's combinations asked of `/api/v2/signals/funding`; the rest keep v2 explore's proportions. */
const FUNDING_SIGNALS_SHARE = 0.25;
/**
 * Shares of the 2.2 list's combinations that carry each Signalbase 2.2 parameter, drawn independently:
 * - sorted: `sort_by` (any of the endpoint's published fields, its default included) and `sort_order`
 *   (asc or desc), on every endpoint: 1 in 4;
 * - excluding: `exclude_countries` (1–2 of: a country category, an ISO code, an English name; never the
 *   record's own country), on the endpoints that take it (not job changes);
 * - preset: `date_preset`, one of the published values whose range holds the record's date (none does:
 *   none sent), in place of the combination's dateFrom/dateTo;
 * - countryCategory: a single country in `countries` asked as its category (US → NA), when it has one.
 */
export const PUBLISHED_SHARES = { sorted: 0.25, excluding: 0.15, preset: 0.15, countryCategory: 0.3 } as const;
/** Websites in one batch lookup body: uniform, so 55 on average; the endpoint takes up to 100. */
export const BATCH_INPUTS = { min: 10, max: 100 } as const;
/** Seed offset of the random sequence of the lists added since (2.2 list, batch lookups): the first lists keep theirs untouched. */
const SECOND_SEED = 22;

/** The published sort fields of each v2 endpoint (src/catalog/schemas/published-params.ts). */
export const SORT_FIELDS: Readonly<Record<SignalRoute, readonly string[]>> = {
  investors: INVESTOR_SORT_FIELDS,
  'job-changes': JOB_CHANGE_SORT_FIELDS,
  acquisitions: ACQUISITION_SORT_FIELDS,
  funding: FUNDING_SORT_FIELDS,
};
export type SignalRoute = 'investors' | 'job-changes' | 'acquisitions' | 'funding';

/** mulberry32: small, fast, and the same lists for the same seed and data. */
export class Random {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }
}

// ---------- samples ----------

interface FundingSample {
  categories: string[];
  country?: string;
  round?: string;
  amount: number;
  day: string;
  website?: string;
  /** Words of its name as v2 funding `search` matches them (`name_path`, the company's slug). */
  nameWords: string[];
}

interface MaSample {
  status: string;
  categories: string[];
  country?: string;
  acquirerWords: string[];
  amount: number;
  website?: string;
}

interface InvestorSample {
  type: string;
  country?: string;
  words: string[];
  /** lastUpdated, the date its filters compare. */
  day: string;
}

interface JobSample {
  role: RoleClassification;
  words: string[];
  /** occurredAt, the date its filters compare. */
  day: string;
}

interface AcquisitionSample {
  country?: string;
  category?: string;
  day: string;
  words: string[];
}

interface Samples {
  funding: FundingSample[];
  ma: MaSample[];
  investors: InvestorSample[];
  jobs: JobSample[];
  acquisitions: AcquisitionSample[];
}

/** Words a client could search for: letters or digits, at least 3 (shorter ones select nearly everything). */
export function searchableWords(...texts: (string | null | undefined)[]): string[] {
  const words = texts.flatMap((text) => text?.match(/[\p{L}\p{N}]+/gu) ?? []);
  return [...new Set(words.filter((word) => word.length >= 3 && /\p{L}/u.test(word)))];
}

/** List values travel comma-separated: a value with a comma in it cannot be asked for. */
const listable = (value: unknown): value is string => typeof value === 'string' && value.trim() !== '' && !value.includes(',');
/** Only countries the API recognises (anything else is a 400 by contract). */
const knownCountry = (value: unknown): string | undefined =>
  typeof value === 'string' && countryCode(value) !== undefined ? value : undefined;

/**
 * About `size` records of a table, from pages chosen at random (TABLESAMPLE SYSTEM reads only
 * those pages, so sampling 1M rows costs what reading a few thousand does); the same for a seed.
 */
async function sampleRows<T extends object>(
  db: Queryable,
  table: string,
  columns: string,
  size: number,
  seed: number,
): Promise<T[]> {
  const total = (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`))[0]!.n;
  const percent = Math.min(100, (150 * size) / Math.max(1, total));
  return db.query<T>(
    `SELECT ${columns} FROM ${table} TABLESAMPLE SYSTEM ($1::real) REPEATABLE ($2::double precision) LIMIT $3::int`,
    [percent, seed, size],
  );
}

const day = (iso: unknown) => (typeof iso === 'string' ? iso.slice(0, 10) : '');

interface CompanyDoc {
  main_category?: string;
  company_info?: { categories?: string[]; hq_country?: string | null; website?: string };
}

const categoriesOf = (doc: CompanyDoc) => [
  ...new Set([doc.main_category, ...(doc.company_info?.categories ?? [])].filter(listable)),
];

async function drawSamples(db: Queryable, size: number, seed: number): Promise<Samples> {
  const docs = async <T>(table: string, extra = '') =>
    (await sampleRows<{ doc: string; status?: string }>(db, table, `doc${extra}`, size, seed)).map((row) => ({
      doc: JSON.parse(row.doc) as T,
      status: row.status,
    }));
  type FundingDoc = CompanyDoc & { round_type: string | null; funding_amount: number; date_seen?: string; name_path?: string };
  type MaDoc = CompanyDoc & { acquired_by: string; acquisition_amount: number };
  type InvestorDoc = { investorType: string; country?: string | null; name: string; lastUpdated?: string };
  type JobDoc = {
    personName: string;
    companyName: string;
    newRole: string;
    previousCompanyName: string | null;
    occurredAt?: string;
  };
  type AcquisitionDoc = {
    country?: string | null;
    category?: string;
    lastUpdated: string;
    companyName: string;
    industry?: string;
  };

  return {
    funding: (await docs<FundingDoc>('funding_rounds')).map(({ doc }) => ({
      categories: categoriesOf(doc),
      country: knownCountry(doc.company_info?.hq_country),
      round: listable(doc.round_type) ? doc.round_type : undefined,
      amount: doc.funding_amount,
      day: day(doc.date_seen),
      website: doc.company_info?.website,
      nameWords: searchableWords(doc.name_path),
    })),
    ma: (await docs<MaDoc>('ma_deals', ', status')).map(({ doc, status }) => ({
      status: status!,
      categories: categoriesOf(doc),
      country: knownCountry(doc.company_info?.hq_country),
      acquirerWords: searchableWords(doc.acquired_by),
      amount: doc.acquisition_amount,
      website: doc.company_info?.website,
    })),
    investors: (await docs<InvestorDoc>('investors')).map(({ doc }) => ({
      type: doc.investorType,
      country: knownCountry(doc.country) && countryCode(doc.country!),
      words: searchableWords(doc.name),
      day: day(doc.lastUpdated),
    })),
    jobs: (await docs<JobDoc>('job_changes')).map(({ doc }) => ({
      role: classifyRole(doc.newRole),
      words: searchableWords(doc.personName, doc.companyName, doc.newRole, doc.previousCompanyName),
      day: day(doc.occurredAt),
    })),
    acquisitions: (await docs<AcquisitionDoc>('acquisition_signals')).map(({ doc }) => ({
      country: knownCountry(doc.country) && countryCode(doc.country!),
      category: listable(doc.category) ? doc.category : undefined,
      day: day(doc.lastUpdated),
      words: searchableWords(doc.companyName, doc.industry),
    })),
  };
}

// ---------- filters ----------

/** A filter, its identity (what the server would treat as the same question) and its paths. */
interface Combination {
  key: string;
  paths: WorkloadPath[];
}

const encode = (params: [string, string | number][]) =>
  params.map(([name, value]) => `${name}=${encodeURIComponent(String(value))}`).join('&');

/** Amount thresholds a person would type: the data's quantiles, rounded down to two significant digits. */
function thresholds(amounts: number[]): number[] {
  const sorted = amounts.filter((a) => a > 0).sort((a, b) => a - b);
  if (sorted.length === 0) return [];
  const values = [0.1, 0.25, 0.5, 0.75, 0.9].map((q) => {
    const value = sorted[Math.floor(q * (sorted.length - 1))]!;
    const unit = 10 ** Math.max(0, Math.floor(Math.log10(value)) - 1);
    return Math.floor(value / unit) * unit;
  });
  return [...new Set(values)];
}

/** A day present in the data, on or before `limit` (or on or after, for an upper bound). */
function dayAround(rng: Random, days: string[], limit: string, direction: 'before' | 'after'): string {
  const candidates = days.filter((d) => (direction === 'before' ? d <= limit : d >= limit));
  return candidates.length > 0 ? rng.pick(candidates) : limit;
}

/** One or two words of a record; sometimes the start of a word, which substring and word-prefix matching both accept. */
function searchTerm(rng: Random, words: string[]): string {
  const pickWord = () => {
    const word = rng.pick(words);
    return word.length >= 6 && rng.chance(0.3) ? word.slice(0, rng.int(4, word.length - 1)) : word;
  };
  const first = pickWord();
  const second = words.length > 1 && rng.chance(0.25) ? pickWord() : undefined;
  // "Peop People" asks nothing more than "People".
  const overlaps = (a: string, b: string) => a.toLowerCase().startsWith(b.toLowerCase());
  return second && !overlaps(first, second) && !overlaps(second, first) ? `${first} ${second}` : first;
}

/** Sometimes a second value from another record: an OR list. */
function withAnother<T>(rng: Random, first: T, another: () => T | undefined, p: number): T[] {
  const second = rng.chance(p) ? another() : undefined;
  return second === undefined || second === first ? [first] : [first, second];
}

const sortedLower = (values: string[]) => values.map((v) => labelKey(v)).sort();

class V1Combinations {
  private readonly fundingAmounts: number[];
  private readonly maAmounts: number[];
  private readonly days: string[];

  constructor(
    private readonly rng: Random,
    private readonly samples: Samples,
  ) {
    this.fundingAmounts = thresholds(samples.funding.map((s) => s.amount));
    this.maAmounts = thresholds(samples.ma.map((s) => s.amount));
    this.days = [...new Set(samples.funding.map((s) => s.day).filter((d) => d !== ''))].sort();
  }

  funding(): Combination | undefined {
    const { rng } = this;
    const x = rng.pick(this.samples.funding);
    const filter: V1Filter = { dataset: 'funding' };
    if (x.categories.length > 0 && rng.chance(0.6)) {
      filter.category = withAnother(rng, rng.pick(x.categories), () => rng.pick(rng.pick(this.samples.funding).categories), 0.2);
    }
    if (x.country && rng.chance(0.5)) filter.country = rng.chance(0.6) ? x.country : countryCode(x.country);
    if (x.round && rng.chance(0.4)) filter.round = withAnother(rng, x.round, () => rng.pick(this.samples.funding).round, 0.15);
    const amounts = this.fundingAmounts.filter((a) => a <= x.amount);
    if (amounts.length > 0 && rng.chance(0.35)) filter.amount = rng.pick(amounts);
    if (x.day !== '' && rng.chance(0.35)) filter.dateFrom = dayAround(rng, this.days, x.day, 'before');
    return Object.keys(filter).length > 1 ? this.combination(filter) : undefined;
  }

  ma(): Combination | undefined {
    const { rng } = this;
    const x = rng.pick(this.samples.ma);
    const filter: V1Filter = { dataset: 'm-a' };
    if (rng.chance(0.5)) filter.status = x.status;
    if (x.country && rng.chance(0.35)) filter.country = rng.chance(0.6) ? x.country : countryCode(x.country);
    if (x.categories.length > 0 && rng.chance(0.4)) filter.category = [rng.pick(x.categories)];
    if (x.acquirerWords.length > 0 && rng.chance(0.4)) filter.acquirer = rng.pick(x.acquirerWords);
    const amounts = this.maAmounts.filter((a) => a <= x.amount);
    if (amounts.length > 0 && rng.chance(0.3)) filter.amount = rng.pick(amounts);
    return Object.keys(filter).length > 1 ? this.combination(filter) : undefined;
  }

  private combination(filter: V1Filter): Combination {
    const params: [string, string | number][] = [];
    if (filter.category) params.push(['category', filter.category.join(',')]);
    if (filter.country) params.push(['country', filter.country]);
    if (filter.round) params.push(['round', filter.round.join(',')]);
    if (filter.amount !== undefined) params.push(['amount', filter.amount]);
    if (filter.dateFrom) params.push(['date_from', filter.dateFrom]);
    if (filter.status) params.push(['status', filter.status]);
    if (filter.acquirer) params.push(['acquiring_company', filter.acquirer]);
    const route = `/api/v1/${filter.dataset}`;
    const key = JSON.stringify([
      route,
      filter.category && sortedLower(filter.category),
      filter.country && countryCode(filter.country),
      filter.round && sortedLower(filter.round),
      filter.amount,
      filter.dateFrom,
      filter.status,
      filter.acquirer?.toLowerCase(),
    ]);
    const paths = Array.from({ length: V1_PAGES }, (_, i): WorkloadPath => {
      const page = i + 1;
      const query = encode(page === 1 ? params : [...params, ['page', page]]);
      return { family: 'v1', path: `${route}?${query}`, filter: key, v1: { filter, page } };
    });
    return { key, paths };
  }
}

/** The record a v2 combination was drawn from: what the 2.2 parameters must keep matching. */
interface Drawn {
  /** The date the endpoint's date filters compare ('' when unknown). */
  day: string;
  /** Its ISO country code, when it has one we recognise. */
  country?: string;
}

/** The published country category a code belongs to (the categories do not overlap). */
const categoryOfCode = (code: string) => COUNTRY_CATEGORIES.find((name) => COUNTRY_CATEGORY_MEMBERS[name].includes(code));

/**
 * A code `countries` can ask for: `NA` is North America there, not Namibia (docs/api/v2.md, "Country
 * categories"), so a Namibian record cannot be asked for by code.
 */
const askableCode = (code: string | undefined): code is string => code !== undefined && countryCategory(code) === undefined;

/**
 * v2 combinations. Without `published`, the v2 explore list as first defined (job changes,
 * investors and acquisitions, 2 : 1 : 1); with it, the 2.2 list: funding signals added and the 2.2
 * parameters laid over every endpoint's filters (PUBLISHED_SHARES). The plain instance draws exactly
 * the sequence it always drew: everything the 2.2 list adds is drawn only when `published` is set.
 */
class V2Combinations {
  private readonly days: string[];
  private readonly fundingDays: string[];
  private readonly fundingAmounts: number[];
  /** ISO codes found in the sampled records, for exclusions. */
  private readonly countries: string[];

  constructor(
    private readonly rng: Random,
    private readonly samples: Samples,
    /** The 2.2 list: the clock `date_preset` counts from (the server's, the same machine's). */
    private readonly published?: { now: Date },
  ) {
    this.days = [...new Set(samples.acquisitions.map((s) => s.day).filter((d) => d !== ''))].sort();
    this.fundingDays = [...new Set(samples.funding.map((s) => s.day).filter((d) => d !== ''))].sort();
    this.fundingAmounts = thresholds(samples.funding.map((s) => s.amount));
    const codes = [
      ...samples.funding.map((s) => s.country && countryCode(s.country)),
      ...samples.investors.map((s) => s.country),
      ...samples.acquisitions.map((s) => s.country),
    ];
    this.countries = [...new Set(codes.filter(askableCode))].sort();
  }

  any(): Combination | undefined {
    if (this.published && this.rng.chance(FUNDING_SIGNALS_SHARE)) return this.fundingSignals();
    const roll = this.rng.next();
    return roll < 0.5 ? this.jobChanges() : roll < 0.75 ? this.investors() : this.acquisitions();
  }

  private jobChanges(): Combination | undefined {
    const { rng } = this;
    const x = rng.pick(this.samples.jobs);
    const other = () => rng.pick(this.samples.jobs).role;
    const q: Record<string, string> = {};
    if (x.role.position && rng.chance(0.35))
      q.positions = withAnother(rng, x.role.position, () => other().position ?? undefined, 0.3).join(',');
    if (x.role.seniority && rng.chance(0.4))
      q.seniorities = withAnother(rng, x.role.seniority, () => other().seniority ?? undefined, 0.3).join(',');
    if (x.role.departments.length > 0 && rng.chance(0.35)) {
      q.departments = withAnother(rng, rng.pick(x.role.departments), () => other().departments[0], 0.25).join(',');
    }
    if (x.words.length > 0 && (rng.chance(0.45) || Object.keys(q).length === 0)) q.search = searchTerm(rng, x.words);
    return this.combination('job-changes', q, { day: x.day });
  }

  private investors(): Combination | undefined {
    const { rng } = this;
    const x = rng.pick(this.samples.investors);
    const q: Record<string, string> = {};
    if (x.country && rng.chance(0.5)) {
      q.countries = withAnother(rng, x.country, () => rng.pick(this.samples.investors).country, 0.35).join(',');
    }
    if ((INVESTOR_TYPES as readonly string[]).includes(x.type) && rng.chance(0.5)) {
      q.categories = withAnother(rng, x.type, () => rng.pick(this.samples.investors).type, 0.3).join(',');
    }
    if (x.words.length > 0 && (rng.chance(0.35) || Object.keys(q).length === 0)) q.search = searchTerm(rng, x.words);
    return this.combination('investors', q, { day: x.day, country: x.country });
  }

  private acquisitions(): Combination | undefined {
    const { rng } = this;
    const x = rng.pick(this.samples.acquisitions);
    const q: Record<string, string> = {};
    if (x.day !== '' && rng.chance(0.5)) {
      const bounds = rng.int(0, 2);
      if (bounds !== 2) q.dateFrom = dayAround(rng, this.days, x.day, 'before');
      if (bounds !== 1) q.dateTo = dayAround(rng, this.days, x.day, 'after');
    }
    if (x.country && rng.chance(0.35)) q.countries = x.country;
    if (x.category && rng.chance(0.4)) {
      q.categories = withAnother(rng, x.category, () => rng.pick(this.samples.acquisitions).category, 0.2).join(',');
    }
    if (x.words.length > 0 && (rng.chance(0.35) || Object.keys(q).length === 0)) q.search = searchTerm(rng, x.words);
    return this.combination('acquisitions', q, { day: x.day, country: x.country });
  }

  /**
   * Funding rounds as funding signals (2.2 list only), from a sampled round: its category, its
   * country's code, its round label as the published round type it is served as (src/catalog/datasets/funding-signals.ts,
   * `publishedRoundType`: "growth equity" is "Private Equity", no label is "Other"), amount bounds
   * around its amount, a start date, words of its name.
   */
  private fundingSignals(): Combination | undefined {
    const { rng } = this;
    const x = rng.pick(this.samples.funding);
    const code = x.country === undefined ? undefined : countryCode(x.country);
    const q: Record<string, string> = {};
    if (x.categories.length > 0 && rng.chance(0.5)) {
      q.categories = withAnother(
        rng,
        rng.pick(x.categories),
        () => rng.pick(rng.pick(this.samples.funding).categories),
        0.2,
      ).join(',');
    }
    if (askableCode(code) && rng.chance(0.5)) {
      const another = () => {
        const country = rng.pick(this.samples.funding).country;
        const other = country === undefined ? undefined : countryCode(country);
        return askableCode(other) ? other : undefined;
      };
      q.countries = withAnother(rng, code, another, 0.3).join(',');
    }
    if (rng.chance(0.4)) {
      const another = () => publishedRoundType(rng.pick(this.samples.funding).round);
      q.round = withAnother(rng, publishedRoundType(x.round), another, 0.2).join(',');
    }
    const amount = typeof x.amount === 'number' && x.amount > 0 ? x.amount : undefined;
    if (amount !== undefined) {
      const below = this.fundingAmounts.filter((a) => a <= amount);
      if (below.length > 0 && rng.chance(0.35)) q.amount_min = String(rng.pick(below));
      const above = this.fundingAmounts.filter((a) => a >= amount);
      if (above.length > 0 && rng.chance(0.1)) q.amount_max = String(rng.pick(above));
    }
    if (x.day !== '' && rng.chance(0.25)) q.dateFrom = dayAround(rng, this.fundingDays, x.day, 'before');
    if (x.nameWords.length > 0 && (rng.chance(0.15) || Object.keys(q).length === 0)) q.search = searchTerm(rng, x.nameWords);
    return this.combination('funding', q, { day: x.day, country: code });
  }

  /** The 2.2 parameters over a combination's filters, each on its share of the combinations; none matches fewer records than the drawn one. */
  private publish(endpoint: SignalRoute, q: Record<string, string>, drawn: Drawn, now: Date): void {
    const { rng } = this;
    if (q.countries !== undefined && !q.countries.includes(',') && rng.chance(PUBLISHED_SHARES.countryCategory)) {
      const category = categoryOfCode(q.countries.toUpperCase());
      if (category !== undefined) q.countries = category;
    }
    if (endpoint !== 'job-changes' && rng.chance(PUBLISHED_SHARES.excluding)) {
      const exclusions = withAnother(rng, this.exclusion(drawn.country), () => this.exclusion(drawn.country), 0.3);
      const values = exclusions.filter((value): value is string => value !== undefined);
      if (values.length > 0) q.exclude_countries = values.join(',');
    }
    if (drawn.day !== '' && rng.chance(PUBLISHED_SHARES.preset)) {
      const presets = DATE_PRESETS.filter((preset) => {
        const range = presetRange(preset, now);
        return drawn.day >= range.from.slice(0, 10) && drawn.day < range.before.slice(0, 10);
      });
      if (presets.length > 0) {
        q.date_preset = rng.pick(presets);
        delete q.dateFrom;
        delete q.dateTo;
      }
    }
    if (rng.chance(PUBLISHED_SHARES.sorted)) {
      q.sort_by = rng.pick(SORT_FIELDS[endpoint]);
      q.sort_order = rng.pick(SORT_ORDERS);
    }
  }

  /**
   * A country to leave out that is not the record's own: a category it is not in, or another
   * country of the data, by code or (a quarter of the time) by English name. Undefined when none is left.
   */
  private exclusion(own: string | undefined): string | undefined {
    const { rng } = this;
    if (rng.chance(0.4)) {
      const categories = COUNTRY_CATEGORIES.filter((name) => own === undefined || !COUNTRY_CATEGORY_MEMBERS[name].includes(own));
      return categories.length > 0 ? rng.pick(categories) : undefined;
    }
    const others = this.countries.filter((code) => code !== own);
    if (others.length === 0) return undefined;
    const code = rng.pick(others);
    const name = countryName(code);
    return rng.chance(0.25) && listable(name) ? name : code;
  }

  private combination(endpoint: SignalRoute, q: Record<string, string>, drawn: Drawn): Combination | undefined {
    if (Object.keys(q).length === 0) return undefined;
    if (this.published) this.publish(endpoint, q, drawn, this.published.now);
    const names = Object.keys(q).sort();
    const route = `/api/v2/signals/${endpoint}`;
    const key = JSON.stringify([route, ...names.map((name) => [name, q[name]!.toLowerCase().split(/[ ,]/).sort()])]);
    const limit = this.rng.pick(V2_LIMITS);
    const params: [string, string | number][] = [...names.map((name): [string, string] => [name, q[name]!]), ['limit', limit]];
    const paths = Array.from({ length: V2_PAGES }, (_, i): WorkloadPath => ({
      family: 'v2',
      path: `${route}?${encode(i === 0 ? params : [...params, ['page', i + 1]])}`,
      filter: key,
    }));
    return { key, paths };
  }
}

/** Draws up to `wanted` combinations whose keys are not in `seen` (which it extends). */
function distinct(wanted: number, seen: Set<string>, next: () => Combination | undefined): Combination[] {
  const found: Combination[] = [];
  for (let attempts = 0; found.length < wanted && attempts < wanted * 50; attempts++) {
    const combination = next();
    if (!combination || seen.has(combination.key)) continue;
    seen.add(combination.key);
    found.push(combination);
  }
  return found;
}

// ---------- lookups ----------

const SITE_SUFFIXES = ['hq', 'labs', 'app', 'group', 'online', 'global'];

/** The same site as people type it: with or without scheme and www., a trailing slash, any case. */
function websiteVariant(rng: Random, key: string): string {
  const scheme = rng.pick(['https://', 'http://', '']);
  const www = rng.chance(0.5) ? 'www.' : '';
  const slash = rng.chance(0.3) ? '/' : '';
  let site = `${www}${key}`;
  const casing = rng.int(0, 2);
  if (casing === 1) site = site.toUpperCase();
  if (casing === 2) site = site.charAt(0).toUpperCase() + site.slice(1);
  return `${scheme}${site}${slash}`;
}

/** Keys among `keys` that a record of either v1 data set has as its website. */
async function presentWebsites(db: Queryable, keys: string[]): Promise<Set<string>> {
  const rows = await db.query<{ key: string }>(
    // One pass over each table, the keys hashed (website_key has no index: lookups are answered from memory).
    `SELECT website_key AS key FROM funding_rounds WHERE website_key = ANY($1::text[])
      UNION SELECT website_key FROM ma_deals WHERE website_key = ANY($1::text[])`,
    [keys],
  );
  return new Set(rows.map((row) => row.key));
}

async function lookups(db: Queryable, rng: Random, samples: Samples, wanted: number) {
  const sites = (list: { website?: string }[]) => [...new Set(list.map((s) => urlKey(s.website)).filter((k) => k !== null))];
  const funding = sites(samples.funding);
  const ma = sites(samples.ma).filter((key) => !funding.includes(key));
  const hits: WorkloadPath[] = [];
  const hitsWanted = Math.round(wanted * (1 - MISS_SHARE));
  // Mostly funding rounds, a fifth M&A deals; every company once.
  for (const [route, keys, share] of [
    ['/api/v1/funding', funding, 0.8],
    ['/api/v1/m-a', ma, 0.2],
  ] as const) {
    for (const key of keys.slice(0, Math.round(hitsWanted * share))) {
      hits.push({ family: 'v1', path: `${route}?${encode([['website', websiteVariant(rng, key)]])}`, filter: `${route} ${key}` });
    }
  }
  const misses = (await unknownSites(db, rng, funding, wanted - hits.length)).map((key): WorkloadPath => ({
    family: 'v1',
    path: `/api/v1/funding?${encode([['website', websiteVariant(rng, key)]])}`,
    filter: `/api/v1/funding ${key}`,
  }));
  return { paths: [...hits, ...misses], hits: hits.length, misses: misses.length };
}

/** The items in a random order (Fisher–Yates), in place. */
function shuffle<T>(rng: Random, items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = rng.int(0, i);
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}

/** Up to `count` distinct sites no record has: known sites with a suffix and a number added to their name. */
async function unknownSites(db: Queryable, rng: Random, known: string[], count: number): Promise<string[]> {
  const candidates = Array.from({ length: known.length > 0 ? Math.max(0, count) : 0 }, () => {
    const [label, ...rest] = rng.pick(known).split('.');
    return [`${label}${rng.pick(SITE_SUFFIXES)}${rng.int(2, 99)}`, ...rest].join('.');
  });
  const present = candidates.length > 0 ? await presentWebsites(db, candidates) : new Set<string>();
  return [...new Set(candidates)].filter((key) => !present.has(key));
}

// ---------- batch lookups ----------

export const BATCH_LOOKUP_PATH = '/api/v1/funding/lookup';

/**
 * Bodies of `POST /api/v1/funding/lookup`, as a client enriching its own list of companies sends
 * them: BATCH_INPUTS websites each, every input a known company (in the URL variants people type)
 * or, MISS_SHARE of the time, a site the data does not hold. The companies are funding rounds'
 * websites sampled from the table (more of them than the other lists sample: a batch asks many),
 * each asked once before any is asked again; no body holds a company twice unless the data has
 * fewer companies than the body has inputs.
 */
async function batchLookups(db: Queryable, rng: Random, bodies: number, seed: number) {
  const sizes = Array.from({ length: bodies }, () => rng.int(BATCH_INPUTS.min, BATCH_INPUTS.max));
  const inputs = sizes.reduce((sum, n) => sum + n, 0);
  const rows = await sampleRows<{ key: string | null }>(
    db,
    'funding_rounds',
    'website_key AS key',
    Math.ceil(inputs * (1 - MISS_SHARE) * 1.2),
    seed,
  );
  // Shuffled: the sample comes in table order, where neighbours are alike (a client's list is not).
  const known = shuffle(rng, [
    ...new Set(rows.map((row) => row.key).filter((key): key is string => typeof key === 'string' && key !== '')),
  ]);
  if (known.length === 0) return { paths: [], inputs: 0, hits: 0, misses: 0 };
  const misses = await unknownSites(db, rng, known, Math.ceil(inputs * MISS_SHARE * 1.2));
  let nextKnown = 0;
  let nextMiss = 0;
  let hits = 0;
  let missed = 0;
  const paths = sizes.map((size, i): WorkloadPath => {
    const websites: string[] = [];
    for (let j = 0; j < size; j++) {
      const miss = misses.length > 0 && rng.chance(MISS_SHARE);
      const key = miss ? misses[nextMiss++ % misses.length]! : known[nextKnown++ % known.length]!;
      if (miss) missed += 1;
      else hits += 1;
      websites.push(websiteVariant(rng, key));
    }
    return { family: 'v1', path: BATCH_LOOKUP_PATH, filter: `batch ${i + 1}`, body: JSON.stringify({ websites }), inputs: size };
  });
  return { paths, inputs, hits, misses: missed };
}

// ---------- the lists ----------

/**
 * Every list of the realistic workloads, from the data in `db`; the same lists for the same data,
 * seed and day (`now`: what the 2.2 list's `date_preset` values are chosen for, the server's clock).
 */
export async function drawWorkloads(
  db: Queryable,
  sizes: ListSizes = DEFAULT_SIZES,
  seed = 12,
  now = new Date(),
): Promise<WorkloadLists> {
  const samples = await drawSamples(db, sizes.sample, seed);
  const rng = new Random(seed);
  const v1 = new V1Combinations(rng, samples);
  const v2 = new V2Combinations(rng, samples);
  const seen = new Set<string>();
  const funding = distinct(sizes.v1Funding, seen, () => v1.funding());
  const ma = distinct(sizes.v1Ma, seen, () => v1.ma());
  const signals = distinct(sizes.v2, seen, () => v2.any());
  const found = await lookups(db, rng, samples, sizes.lookups);
  const pageOne = (combinations: Combination[]) => combinations.map((c) => c.paths[0]!);
  // Saved filters are ones clients explored: half of each family, page 1.
  const halfPolling = Math.ceil(sizes.polling / 2);
  const v1Saved = [...funding, ...ma].filter(
    (_, i) => i % Math.max(1, Math.floor((funding.length + ma.length) / halfPolling)) === 0,
  );
  const polling = [...pageOne(v1Saved.slice(0, halfPolling)), ...pageOne(signals.slice(0, sizes.polling - halfPolling))];
  const freshV1 = distinct(Math.ceil(sizes.fresh / 2), seen, () => (rng.chance(0.8) ? v1.funding() : v1.ma()));
  const freshV2 = distinct(sizes.fresh - freshV1.length, seen, () => v2.any());
  // The lists added since: their own random sequence, drawn after every first list, and
  // distinct from all of them (the never-seen filters included).
  const second = new Random(seed + SECOND_SEED);
  const v2Published = new V2Combinations(second, samples, { now });
  const published = distinct(sizes.v2Published, seen, () => v2Published.any());
  const batches = await batchLookups(db, second, sizes.batches, seed + SECOND_SEED);
  const withParam = (pattern: RegExp) => published.filter((c) => pattern.test(c.paths[0]!.path)).length;
  const categoryPattern = new RegExp(`[?&]countries=(${COUNTRY_CATEGORIES.join('|')})(&|$)`);
  return {
    v1Explore: [...funding, ...ma].flatMap((c) => c.paths),
    v2Explore: signals.flatMap((c) => c.paths),
    lookups: found.paths,
    polling,
    fresh: [...pageOne(freshV1), ...pageOne(freshV2)],
    v2Published: published.flatMap((c) => c.paths),
    batchLookups: batches.paths,
    counts: {
      v1Funding: funding.length,
      v1Ma: ma.length,
      v2: signals.length,
      lookupHits: found.hits,
      lookupMisses: found.misses,
      v2Published: published.length,
      published: {
        funding: withParam(/^\/api\/v2\/signals\/funding\?/),
        sorted: withParam(/[?&]sort_by=/),
        excluding: withParam(/[?&]exclude_countries=/),
        preset: withParam(/[?&]date_preset=/),
        countryCategory: withParam(categoryPattern),
      },
      batches: batches.paths.length,
      batchInputs: batches.inputs,
      batchHits: batches.hits,
      batchMisses: batches.misses,
    },
  };
}

// ---------- list files: what the wrk scripts read ----------

/** A line of bench/random-paths.lua's list: `FAMILY PATH`. */
export const pathLine = (p: WorkloadPath) => `${p.family} ${p.path}`;

/** A line of bench/conditional-paths.lua's list: `FAMILY PATH ETAG` (`-`: no ETag known, the first request is plain). */
export const taggedLine = (p: WorkloadPath, etag: string | undefined) => `${p.family} ${p.path} ${etag ?? '-'}`;

/** A line of bench/batch-lookups.lua's list: `FAMILY PATH INPUTS BODY` (the body is JSON on one line). */
export const bodyLine = (p: WorkloadPath) => `${p.family} ${p.path} ${p.inputs ?? 0} ${p.body ?? '{}'}`;

/**
 * What bench/conditional-paths.lua and bench/batch-lookups.lua write when a run ends, summed over
 * wrk's threads (each thread has its own Lua state): `name=value` lines.
 */
export interface ScriptReport {
  /** Requests the script made (wrk asks for one more than it sends, to check the script). */
  sent: number;
  /** conditional-paths.lua: 304s, 200s, ETags replaced after a 200 (per thread), responses that named no path. */
  notModified?: number;
  full?: number;
  tagUpdates?: number;
  unmatched?: number;
  /** batch-lookups.lua: inputs in the bodies it sent. */
  inputs?: number;
}

const REPORT_NAMES: Record<string, keyof ScriptReport> = {
  sent: 'sent',
  not_modified: 'notModified',
  full: 'full',
  tag_updates: 'tagUpdates',
  unmatched: 'unmatched',
  inputs: 'inputs',
};

/** The report a script wrote, or undefined when there is none (wrk failed before its done()). */
export function readScriptReport(file: string): ScriptReport | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  const report: Partial<ScriptReport> = {};
  for (const [, name, value] of text.matchAll(/^(\w+)=(\d+)$/gm)) {
    const field = REPORT_NAMES[name!];
    if (field) report[field] = Number(value);
  }
  return report.sent === undefined ? undefined : (report as ScriptReport);
}
