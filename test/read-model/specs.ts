// Per dataset, what the agreement tests need: records as import lines, how to change them (still
// valid, filter fields moved), which values the stored data holds, and random list queries built
// from those values, typed as the route's schema types them.
import type { Static, TObject, TSchema } from '@sinclair/typebox';
import type { Database } from '../../src/platform/db/port.js';
import { whereClause, type WhereClause } from './sql-conditions.js';
import { DEMO_GENERATORS, type DemoGenerator } from '../../src/demo/index.js';
import type { Dataset, RecordExtras, StoredRow, ValidQuery } from '../../src/catalog/dataset.js';
import {
  acquisitions,
  companies as companiesDataset,
  funding,
  fundingSignals,
  investors,
  jobChanges,
  mA,
} from '../../src/catalog/registry.js';
import { MAX_PAGE, MAX_SAFE } from '../../src/catalog/schemas/common.js';
import {
  DEAL_STATUSES,
  type DealStatus,
  type FundingQuery,
  type FundingRecord,
  type MaQuery,
  type MaRecord,
} from '../../src/catalog/schemas/v1-schemas.js';
import {
  COMPANY_SUBCATEGORIES,
  INVESTOR_TYPES,
  type AcquisitionSignalRecord,
  type CompaniesQuery,
  type CompanyRecord,
  type AcquisitionsQuery,
  type FundingSignalsQuery,
  PUBLISHED_ROUND_TYPES,
  type InvestorRecord,
  type InvestorsQuery,
  type JobChangeRecord,
  type JobChangesQuery,
} from '../../src/catalog/schemas/v2-schemas.js';
import {
  ACQUISITION_SORT_FIELDS,
  COMPANY_SORT_FIELDS,
  DATE_PRESETS,
  FUNDING_SORT_FIELDS,
  INVESTOR_SORT_FIELDS,
  JOB_CHANGE_SORT_FIELDS,
  type DatePreset,
} from '../../src/catalog/schemas/published-params.js';
import { countryName } from '../../src/catalog/countries.js';
import { slugify } from '../../src/catalog/normalize.js';
import { DEPARTMENTS, POSITIONS, SENIORITIES } from '../../src/catalog/role-classifier.js';

/** Random choices a query is built from (recorded and shrunk by fast-check), and the stored values. */
export interface Draw {
  int(min: number, max: number): number;
  bool(trueWeight?: number, falseWeight?: number): boolean;
  pick<T>(values: readonly T[]): T;
  some<T>(values: readonly T[], min: number, max: number): T[];
  fact(name: string): readonly (string | number)[];
}

/** A mutation's choices: which value, a shift (days, units), and another record to copy from. */
export interface MutationPick<L> {
  choice: number;
  shift: number;
  donor: L;
}

/** A dataset as the agreement tests drive it, its types erased. */
export interface Spec {
  name: string;
  table: string;
  family: 'v1' | 'v2';
  /** The list endpoint. */
  url: string;
  /** The natural key column, and its type (uuids compare in lower case). */
  keyColumn: string;
  keyType: 'text' | 'uuid';
  /** The first `size` records the seed hook generates for this seed, as import lines. */
  lines(seed: number, size: number): object[];
  key(line: object): string;
  /** A copy of the line with one filter field (or the document only) changed, still valid. */
  mutate(line: object, mutation: number, pick: MutationPick<object>): object;
  /** The stored values queries are drawn from, by name. */
  facts(db: Database): Promise<Record<string, (string | number)[]>>;
  /** Random filters (0 to 4), typed as the route's schema types them (erased here to their values). */
  filters(draw: Draw): Record<string, string | number | boolean>;
  /** Random paging parameters for a result of `total` records: mostly pages up to just past its end. */
  paging(draw: Draw, total: number): Record<string, string | number | boolean>;
  /** The query as SQL: dataset.filter → dataset.conditions → whereClause; throws what dataset.filter throws. */
  where(query: Record<string, string | number | boolean>): WhereClause;
  /** A short name of a served record, for messages. */
  label(doc: Record<string, unknown>): string;
  /** The order the query asks for (dataset.order of its filter); undefined: sort_at DESC, id DESC. */
  order(query: Record<string, string | number | boolean>): SpecOrder | undefined;
  /**
   * A stored document (and its row's natural key and sort_at in epoch ms) as the endpoint serves it for
   * this query: in a view's form (funding signals), with match_confidence when the query names companies.
   */
  served(doc: string, key: string, sortMs: number, query: Record<string, string | number | boolean>): Record<string, unknown>;
}

/** A page's order: by a column of the table (`text`: by its collation key, compared in JavaScript), nulls last, ties by id. */
export interface SpecOrder {
  column: string;
  direction: 'asc' | 'desc';
  text: boolean;
}

/** The clock of the apps under test and of the SQL they are checked against: what date_preset counts from. */
export const AGREEMENT_NOW = new Date('2025-06-01T09:30:00Z');
const AT_NOW = { now: AGREEMENT_NOW };

type Entry<R extends TSchema> = { record: Static<R>; extras?: Partial<RecordExtras> };
type Mutation<L> = (line: L, pick: MutationPick<L>) => void;
type Filters<QV> = Record<string, (draw: Draw) => Partial<QV>>;

/** When the generated records are "as of". */
const AS_OF = new Date('2025-06-01T00:00:00Z');
/** Records generated per seed; a step imports a prefix. */
const PER_SEED = 80;

function defineSpec<Q extends TObject, F, R extends TSchema, Row extends StoredRow, L extends object, QV extends object>(
  dataset: Dataset<Q, F, R, Row>,
  parts: {
    /** Makes the records the lines are made from. */
    generator: DemoGenerator<NoInfer<Static<R>>>;
    line(entry: Entry<R>): L;
    key(line: L): string;
    mutations: readonly Mutation<L>[];
    facts: Record<string, string>;
    filters: Filters<NoInfer<QV>>;
    paging(draw: Draw, total: number): Partial<NoInfer<QV>>;
    where(query: QV): WhereClause;
    label(doc: Record<string, unknown>): string;
  },
): Spec {
  const generated = new Map<number, L[]>();
  const family = dataset.api.family;
  // Erased and restored: every line and query a Spec is handed was built by this same spec.
  const asLine = (line: object) => line as L;
  return {
    name: dataset.name,
    table: dataset.table,
    family,
    url: `/api/${family}${dataset.api.path}`,
    keyColumn: dataset.key.column,
    keyType: dataset.key.type,
    lines(seed, size) {
      let lines = generated.get(seed);
      if (!lines) {
        lines = [...parts.generator.generate(seed * 1009 + 17, PER_SEED, AS_OF)].map((entry) => parts.line(entry));
        generated.set(seed, lines);
      }
      return structuredClone(lines.slice(0, size));
    },
    key: (line) => parts.key(asLine(line)),
    mutate(line, mutation, pick) {
      const copy = structuredClone(asLine(line));
      parts.mutations[mutation % parts.mutations.length]!(copy, { ...pick, donor: asLine(pick.donor) });
      return copy;
    },
    async facts(db) {
      const facts: Record<string, (string | number)[]> = {};
      for (const [name, sql] of Object.entries(parts.facts)) {
        facts[name] = (await db.query<{ v: string | number }>(sql)).map((row) => row.v);
      }
      return facts;
    },
    filters(draw) {
      const count = draw.int(0, 4);
      const names = draw.some(Object.keys(parts.filters), count, count);
      let query: Partial<QV> = {};
      for (const name of names) query = { ...query, ...parts.filters[name]!(draw) };
      return query as Record<string, string | number | boolean>;
    },
    paging: (draw, total) => parts.paging(draw, total) as Record<string, string | number | boolean>,
    where: (query) => parts.where(query as QV),
    label: parts.label,
    order(query) {
      const order = dataset.order?.(dataset.filter(query as ValidQuery<Q>, AT_NOW));
      if (order === undefined) return undefined;
      const kinds = dataset.indexed as Readonly<Record<string, string | undefined>>;
      return { column: order.column, direction: order.direction, text: kinds[order.column] === 'text' };
    },
    served(doc, key, sortMs, query) {
      const record = JSON.parse(dataset.document ? dataset.document.serve(doc, key, sortMs) : doc) as Record<string, unknown>;
      const api = dataset.api;
      const exact = api.family === 'v2' && api.exactMatch?.(query as ValidQuery<Q>) === true;
      return exact ? { ...record, match_confidence: 'exact' } : record;
    },
  };
}

// ---------- values ----------

const DAY_MS = 86_400_000;

const strings = (draw: Draw, fact: string) => draw.fact(fact).map(String);

/** The text as a client might type it: another case, spaces around, inner spaces doubled. */
function variant(draw: Draw, text: string): string {
  switch (draw.int(0, 4)) {
    case 0:
      return text;
    case 1:
      return text.toUpperCase();
    case 2:
      return text.replace(/(^|\s)(\S)/g, (_m, space: string, first: string) => space + first.toUpperCase());
    case 3:
      return ` ${text.replace(/ /g, '  ')} `;
    default:
      return text.toLowerCase();
  }
}

/** A stored value most of the time, else one of `others` (absent, or refused). */
function storedOr(draw: Draw, stored: readonly string[], others: readonly string[]): string {
  return stored.length > 0 && draw.bool(4, 1) ? draw.pick(stored) : draw.pick(others);
}

/** A comma-separated list of 1 to 3 values. */
function list(draw: Draw, stored: readonly string[], others: readonly string[]): string {
  const items = Array.from({ length: draw.int(1, 3) }, () => variant(draw, storedOr(draw, stored, others)));
  return items.join(draw.bool() ? ',' : ', ');
}

/** A calendar date around the stored ones (YYYY-MM-DD). */
function day(draw: Draw): string {
  const days = strings(draw, 'days');
  const base = days.length > 0 && draw.bool(5, 1) ? draw.pick(days) : '2024-06-15';
  return new Date(Date.parse(`${base}T00:00:00Z`) + draw.int(-2, 2) * DAY_MS).toISOString().slice(0, 10);
}

/** A date range: one bound or both; sometimes reversed (refused). */
function range<N extends string>(draw: Draw, from: N, to: N): Partial<Record<N, string>> {
  const mode = draw.int(0, 3);
  if (mode === 0) return { [from]: day(draw) } as Partial<Record<N, string>>;
  if (mode === 1) return { [to]: day(draw) } as Partial<Record<N, string>>;
  const [a, b] = [day(draw), day(draw)].sort();
  return (mode === 2 ? { [from]: a, [to]: b } : { [from]: b, [to]: a }) as Partial<Record<N, string>>;
}

/** A minimum amount near a stored one, or an extreme. */
function amount(draw: Draw): number {
  const amounts = draw.fact('amounts').map(Number);
  switch (draw.int(0, 5)) {
    case 0:
      return 0;
    case 1:
      return MAX_SAFE;
    case 2:
      return draw.int(0, 1_000_000_000);
    default: {
      if (amounts.length === 0) return 1;
      return Math.min(MAX_SAFE, Math.max(0, draw.pick(amounts) + draw.int(-1, 1)));
    }
  }
}

/** A URL naming a stored key in some spelling, or one matching nothing. */
function url(draw: Draw, fact: string): string {
  const keys = strings(draw, fact);
  if (keys.length === 0 || draw.bool(1, 5))
    return draw.pick(['nowhere.example', 'https://', '', 'https://www.linkedin.com/in/nobody']);
  const key = draw.pick(keys);
  return draw.pick([key, `https://www.${key}/`, `HTTP://${key.toUpperCase()}`, `${key}?ref=feed`, `https://${key}//#about`]);
}

/** v1 `country`: a stored country as code or English name, or one matching nothing, or not a country. */
function v1Country(draw: Draw): string {
  const keys = strings(draw, 'countries');
  if (keys.length === 0 || draw.bool(1, 4)) return draw.pick(['AQ', 'Antarctica', 'uk', 'Atlantis', 'XX']);
  const key = draw.pick(keys);
  if (key.length !== 2) return key; // stored as written: not a country the filter accepts
  return draw.pick([key.toUpperCase(), key, countryName(key), ` ${countryName(key).toUpperCase()} `]);
}

/** v2 `countries`: stored ISO codes in any case, plus a category, an absent code or a refused value. */
function v2Countries(draw: Draw): string {
  const codes = strings(draw, 'countries').filter((key) => key.length === 2);
  return list(draw, codes, ['AQ', 'aq', 'ZZ', 'usa', 'CEE', 'we', 'NA', 'LATAM', 'Nordics']);
}

/** v2 `exclude_countries`: stored countries as codes or English names, categories, absent ones, refused ones. */
function excludedCountries(draw: Draw): string {
  const stored = strings(draw, 'countries')
    .filter((key) => key.length === 2)
    .map((code) => (draw.bool() ? code : countryName(code)));
  return list(draw, stored, ['CEE', 'we', 'NA', 'LATAM', 'Nordics', 'China', 'Namibia', 'usa', 'AQ', 'Atlantis', 'XX']);
}

/** v2 `date_preset`, now and then with dateFrom/dateTo too (which it overrides, even reversed). */
function preset(draw: Draw): { date_preset: DatePreset; dateFrom?: string; dateTo?: string } {
  const chosen = { date_preset: draw.pick(DATE_PRESETS) };
  return draw.bool(1, 3) ? { ...chosen, ...range(draw, 'dateFrom', 'dateTo') } : chosen;
}

/**
 * v2 paging and, half of the time, an order: one of the endpoint's published sort fields, with or
 * without sort_order, or sort_order alone (which orders by the default field).
 */
function sortedPaging<Field extends string>(fields: readonly Field[]) {
  return (draw: Draw, total: number): ReturnType<typeof v2Paging> & { sort_by?: Field; sort_order?: 'asc' | 'desc' } => {
    const paging = v2Paging(draw, total);
    switch (draw.int(0, 5)) {
      case 0:
        return { ...paging, sort_by: draw.pick(fields) };
      case 1:
      case 2:
        return { ...paging, sort_by: draw.pick(fields), sort_order: draw.pick(['asc', 'desc'] as const) };
      case 3:
        return { ...paging, sort_order: draw.pick(['asc', 'desc'] as const) };
      default:
        return paging;
    }
  };
}

/** Search text: prefixes of stored words, or text with accents, ligatures, punctuation, too many words. */
function search(draw: Draw): string {
  const words = strings(draw, 'words');
  if (words.length === 0 || draw.bool(1, 5)) {
    return draw.pick([
      'Zürich',
      'STRASSE',
      'ﬁnance',
      'İstanbul',
      '北京',
      '--',
      '%',
      'a_b',
      ' ',
      'zzqx',
      'one two three four five six seven eight nine ten eleven',
    ]);
  }
  const chosen = Array.from({ length: draw.int(1, 3) }, () => {
    const word = draw.pick(words);
    return variant(draw, word.slice(0, draw.int(1, word.length)));
  });
  return chosen.join(draw.pick([' ', ', ', '-', ' & ']));
}

/** A page number for a result of `total` records, `size` a page: the first, any up to just past the last, far beyond. */
function page(draw: Draw, total: number, size: number): number | undefined {
  const last = Math.max(1, Math.ceil(total / size));
  switch (draw.int(0, 9)) {
    case 0:
    case 1:
      return undefined;
    case 2:
      return draw.int(1, Math.min(3, last + 1));
    case 3:
      return draw.pick([last, last + 1, 1_000, MAX_PAGE]);
    default:
      return draw.int(1, last + 1);
  }
}

function v1Page(draw: Draw, total: number): { page?: number } {
  const chosen = page(draw, total, 20);
  return chosen === undefined ? {} : { page: chosen };
}

function v2Paging(draw: Draw, total: number): { page?: number; limit?: number; count?: boolean } {
  const paging: { page?: number; limit?: number; count?: boolean } = {};
  if (draw.bool(3, 1)) paging.limit = draw.bool() ? draw.pick([1, 2, 3, 5, 10, 20, 50, 100]) : draw.int(1, 100);
  const chosen = page(draw, total, paging.limit ?? 20);
  if (chosen !== undefined) paging.page = chosen;
  const mode = draw.int(0, 5);
  if (mode === 0) paging.count = true;
  else if (mode === 1) paging.count = false;
  return paging;
}

/** A date-time near the donor's: the same instant (a tie), day bounds, other offsets, sub-millisecond digits. */
function dateTime(donor: string, choice: number, shift: number): string {
  const ms = Date.parse(donor) + shift * DAY_MS;
  const iso = new Date(ms).toISOString();
  const date = iso.slice(0, 10);
  switch (choice % 8) {
    case 0:
      return donor;
    case 1:
      return iso;
    case 2:
      return `${date}T00:00:00Z`;
    case 3:
      return `${date}T23:59:59.999999Z`;
    case 4:
      return `${date}T23:59:59.9999996Z`; // the database rounds it to the next day
    case 5:
      return `${new Date(ms + 330 * 60_000).toISOString().slice(0, 19)}+05:30`;
    case 6:
      return `${iso.slice(0, 19)}.${String(Math.abs(shift)).padStart(3, '0')}456Z`;
    default:
      return `${date}T00:30:00+01:00`; // the previous UTC day
  }
}

/**
 * v2 company_domain / company_linkedin_url: 1 to 3 stored keys (OR) in the spellings clients use,
 * now and then one stored nowhere, or one refused (not a domain, not a company page).
 */
function companies(draw: Draw, fact: string, kind: 'domain' | 'linkedin'): string {
  const keys = strings(draw, fact);
  const absent = kind === 'domain' ? ['nowhere.example'] : ['linkedin.com/company/nobody'];
  const refused =
    kind === 'domain' ? ['not a domain', 'http://', 'acme'] : ['https://www.linkedin.com/in/nobody', 'linkedin.com'];
  const one = () => {
    if (keys.length === 0 || draw.bool(1, 5)) return draw.pick(draw.bool(1, 4) ? refused : absent);
    const key = draw.pick(keys);
    return draw.pick([key, `https://www.${key}/`, `HTTP://${key.toUpperCase()}`, `${key}?ref=feed`]);
  };
  return Array.from({ length: draw.int(1, 3) }, one).join(draw.bool() ? ',' : ', ');
}

const TEXTS = [
  'Société Générale',
  'Zürich Re-Insurance AG',
  'ACME',
  'Acme Robotics & Co., Inc.',
  "O'Brien 3D Labs",
  'Straße Capital',
  'İstanbul Ventures',
  'ﬁnance ﬂow',
  '北京 Capital',
  'data data data',
  'x',
];

const at = <T>(values: readonly T[], index: number): T => values[index % values.length]!;

/** Names equal to the collation (case, accents, spaces) but not as written, and neighbours that differ by punctuation. */
const NAME_VARIANTS = ['Émile Roy', 'emile roy', ' EMILE  ROY', 'Émile-Roy', "O'Brien", 'OBrien', 'Oak', 'Zoë', 'zoe', 'ZOE'];

// ---------- v1 ----------

type CompanyInfo = NonNullable<FundingRecord['company_info']>;
type ContactInfo = NonNullable<FundingRecord['contact_info']>;

interface CompanyLine {
  company_info?: CompanyInfo;
  main_category?: string;
  contact_info?: ContactInfo;
  date_seen?: string;
}

const COUNTRIES = ['United States', 'US', 'usa', 'United Kingdom', 'gb', 'Germany', 'France', 'Atlantis', ''];
const CATEGORY_SETS: { main?: string; categories: string[] }[] = [
  { main: 'SaaS', categories: [] },
  { main: ' FinTech ', categories: ['saas', 'AI'] },
  { categories: ['Health  Tech'] },
  { categories: [] },
  { main: 'ai', categories: ['ai ', 'AI'] },
];

/** The company mutations both v1 datasets share. */
const companyMutations = <L extends CompanyLine>(): Mutation<L>[] => [
  (line, { choice, donor }) => {
    line.company_info ??= {};
    line.company_info.hq_country =
      choice % 10 === 9 ? null : choice % 10 === 8 ? donor.company_info?.hq_country : at(COUNTRIES, choice);
  },
  (line, { choice, donor }) => {
    const set =
      choice % 6 === 5
        ? { main: donor.main_category, categories: donor.company_info?.categories ?? [] }
        : at(CATEGORY_SETS, choice);
    if (set.main === undefined) delete line.main_category;
    else line.main_category = set.main;
    line.company_info ??= {};
    line.company_info.categories = [...set.categories];
  },
  (line, { choice, donor }) => {
    line.company_info ??= {};
    const mode = choice % 4;
    if (mode === 0) delete line.company_info.website;
    else if (mode === 1) line.company_info.website = 'HTTP://WWW.Shared-Site.COM/';
    else line.company_info.website = donor.company_info?.website ?? 'https://shared-site.com';
  },
  (line, { choice, donor }) => {
    const theirs = donor.contact_info?.[0]?.company_linkedin_url ?? 'https://www.linkedin.com/company/shared';
    const mode = choice % 4;
    if (mode === 0) line.contact_info = [];
    else if (mode === 1) line.contact_info = [{ company_linkedin_url: theirs }];
    else if (mode === 2) line.contact_info = [{ company_linkedin_url: null }, { company_linkedin_url: theirs.toUpperCase() }];
    else line.contact_info = [...(line.contact_info ?? []), { company_linkedin_url: `${theirs}/` }];
  },
];

const COMPANY_FACTS = (table: string) => ({
  countries: `SELECT DISTINCT country_key AS v FROM ${table} WHERE country_key IS NOT NULL ORDER BY v`,
  categories: `SELECT DISTINCT v FROM (SELECT unnest(category_keys) AS v FROM ${table}) s ORDER BY v`,
  websites: `SELECT DISTINCT website_key AS v FROM ${table} WHERE website_key IS NOT NULL ORDER BY v`,
  linkedins: `SELECT DISTINCT v FROM (SELECT unnest(linkedin_keys) AS v FROM ${table}) s ORDER BY v`,
  days: `SELECT DISTINCT to_char(sort_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS v FROM ${table} ORDER BY v`,
});

const COMPANY_FILTERS = {
  category: (draw: Draw) => ({ category: list(draw, strings(draw, 'categories'), ['saas', 'no such category']) }),
  country: (draw: Draw) => ({ country: v1Country(draw) }),
  website: (draw: Draw) => ({ website: url(draw, 'websites') }),
  linkedin_url: (draw: Draw) => ({ linkedin_url: url(draw, 'linkedins') }),
  dates: (draw: Draw) => range(draw, 'date_from', 'date_to'),
  amount: (draw: Draw) => ({ amount: amount(draw) }),
};

type FundingLine = FundingRecord & { source_id?: string };

export const fundingSpec = defineSpec(funding, {
  generator: DEMO_GENERATORS.funding,
  line: ({ record, extras }): FundingLine => (extras?.sourceId ? { ...record, source_id: extras.sourceId } : record),
  // The seed hook gives every round a source id, its natural key.
  key: (line: FundingLine) => {
    if (!line.source_id) throw new Error(`a generated funding round without source_id: ${line.company_name}`);
    return `source:${line.source_id}`;
  },
  mutations: [
    ...companyMutations<FundingLine>(),
    (line, { choice, donor }) => {
      line.round_type =
        choice % 8 === 7
          ? donor.round_type
          : at(['Seed', 'series a', 'SERIES  B', 'Pre-Seed', 'bridge', null, 'Series A'], choice);
    },
    (line, { choice, shift, donor }) => {
      line.funding_amount = Math.min(
        MAX_SAFE,
        Math.max(0, at([donor.funding_amount, donor.funding_amount + shift, 0, MAX_SAFE, choice * 1000], choice)),
      );
    },
    (line, { choice, shift, donor }) => {
      line.date_seen = dateTime(donor.date_seen ?? '2025-01-01T00:00:00Z', choice, shift);
    },
    (line, { choice }) => {
      line.ceo = at(TEXTS, choice); // the document alone changes
    },
  ],
  facts: {
    ...COMPANY_FACTS('funding_rounds'),
    rounds: `SELECT DISTINCT round_key AS v FROM funding_rounds WHERE round_key IS NOT NULL ORDER BY v`,
    amounts: `SELECT DISTINCT funding_amount AS v FROM funding_rounds ORDER BY v`,
  },
  filters: {
    ...COMPANY_FILTERS,
    round: (draw) => ({ round: list(draw, strings(draw, 'rounds'), ['seed', 'series z']) }),
  } satisfies Filters<FundingQuery>,
  paging: v1Page,
  where: (query: FundingQuery) => whereClause(funding.columns, funding.conditions(funding.filter(query))),
  label: (doc) => `${String(doc.company_name)}@${String(doc.date_seen)}`,
});

type MaLine = MaRecord & { status?: DealStatus };

export const maSpec = defineSpec(mA, {
  generator: DEMO_GENERATORS['m-a'],
  line: ({ record, extras }): MaLine => (extras?.status ? { ...record, status: extras.status } : record),
  key: (line: MaLine) => line.investment_id.toLowerCase(),
  mutations: [
    ...companyMutations<MaLine>(),
    (line, { choice, donor }) => {
      line.status = choice % 4 === 3 ? donor.status : at(DEAL_STATUSES, choice);
    },
    (line, { choice, shift, donor }) => {
      const theirs = donor.acquisition_amount;
      line.acquisition_amount = Math.min(MAX_SAFE, Math.max(0, at([theirs, theirs + shift, 0, MAX_SAFE, choice * 1000], choice)));
    },
    (line, { choice, shift, donor }) => {
      line.date_seen = dateTime(donor.date_seen, choice, shift);
    },
    (line, { choice, donor }) => {
      const mode = choice % 4;
      line.acquired_by =
        mode === 0
          ? donor.acquired_by
          : mode === 1
            ? `${donor.acquired_by} ${at(TEXTS, choice >> 2)}`
            : mode === 2
              ? ''
              : at(TEXTS, choice >> 2);
    },
  ],
  facts: {
    ...COMPANY_FACTS('ma_deals'),
    amounts: `SELECT DISTINCT acquisition_amount AS v FROM ma_deals ORDER BY v`,
    words: `SELECT DISTINCT v FROM (SELECT regexp_split_to_table(acquirer_key, ' ') AS v FROM ma_deals) s WHERE v <> '' ORDER BY v`,
  },
  filters: {
    ...COMPANY_FILTERS,
    status: (draw) => ({ status: draw.pick(DEAL_STATUSES) }),
    acquiring_company: (draw) => ({ acquiring_company: search(draw) }),
  } satisfies Filters<MaQuery>,
  paging: v1Page,
  where: (query: MaQuery) => whereClause(mA.columns, mA.conditions(mA.filter(query))),
  label: (doc) => `${String(doc.company_name)} (${String(doc.investment_id).slice(0, 8)})`,
});

// ---------- v2 ----------

const days = (table: string) => `SELECT DISTINCT to_char(sort_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS v FROM ${table} ORDER BY v`;

const words = (table: string) =>
  `SELECT DISTINCT v FROM (SELECT regexp_split_to_table(search_text, ' ') AS v FROM ${table}) s WHERE v <> '' ORDER BY v`;

export const investorsSpec = defineSpec(investors, {
  generator: DEMO_GENERATORS.investors,
  line: ({ record }): InvestorRecord => record,
  key: (line: InvestorRecord) => line.id.toLowerCase(),
  mutations: [
    (line, { choice, donor }) => {
      line.country =
        choice % 8 === 7
          ? donor.country
          : at(['United States', 'France', 'GB', 'Atlantis', '', 'germany', 'United Kingdom'], choice);
    },
    (line, { choice, donor }) => {
      line.investorType = choice % 9 === 8 ? donor.investorType : at(INVESTOR_TYPES, choice);
    },
    (line, { choice, donor }) => {
      line.name = choice % 3 === 0 ? donor.name : choice % 3 === 1 ? at(NAME_VARIANTS, choice >> 2) : at(TEXTS, choice);
    },
    (line, { choice, shift, donor }) => {
      line.lastUpdated = dateTime(donor.lastUpdated, choice, shift);
    },
    (line, { choice, shift, donor }) => {
      const theirs = donor.typicalCheckSize;
      const mode = choice % 5;
      if (mode === 0) line.typicalCheckSize = theirs === null ? null : { ...theirs };
      else if (mode === 1) line.typicalCheckSize = null;
      else if (mode === 2 && theirs !== null) line.typicalCheckSize = { min: theirs.min, max: theirs.max + Math.abs(shift) };
      else
        line.typicalCheckSize = { min: Math.abs(shift) * 1000, max: at([0.5, 1e6, 25_000_000, Math.abs(shift) * 1000], choice) };
    },
    (line, { choice }) => {
      line.description = at(TEXTS, choice); // the document alone changes
    },
  ],
  facts: {
    countries: `SELECT DISTINCT country_key AS v FROM investors WHERE country_key IS NOT NULL ORDER BY v`,
    types: `SELECT DISTINCT investor_type AS v FROM investors ORDER BY v`,
    words: words('investors'),
    days: days('investors'),
  },
  filters: {
    countries: (draw) => ({ countries: v2Countries(draw) }),
    exclude_countries: (draw) => ({ exclude_countries: excludedCountries(draw) }),
    categories: (draw) => ({ categories: list(draw, strings(draw, 'types'), [...INVESTOR_TYPES, 'hedge fund']) }),
    search: (draw) => ({ search: search(draw) }),
    dates: (draw) => range(draw, 'dateFrom', 'dateTo'),
    date_preset: preset,
  } satisfies Filters<InvestorsQuery>,
  paging: sortedPaging(INVESTOR_SORT_FIELDS),
  where: (query: InvestorsQuery) => whereClause(investors.columns, investors.conditions(investors.filter(query, AT_NOW))),
  label: (doc) => `${String(doc.name)} (${String(doc.id).slice(0, 8)})`,
});

const ROLES = [
  'Chief Executive Officer',
  'Co-Founder & CEO',
  'CTO',
  'VP of Engineering',
  'VP Sales',
  'Head of Product',
  'Head of Growth',
  'Engineering Manager',
  'Senior Product Manager',
  'Director of Marketing',
  'Board Observer',
  'Software Engineer',
  'Chief Financial Officer',
  'Founder',
  'Lead Designer',
  'Customer Success Manager',
  'General Counsel',
  'Data Scientist',
];

export const jobChangesSpec = defineSpec(jobChanges, {
  generator: DEMO_GENERATORS['job-changes'],
  line: ({ record }): JobChangeRecord => record,
  key: (line: JobChangeRecord) => line.signalId.toLowerCase(),
  mutations: [
    (line, { choice, donor }) => {
      line.newRole = choice % 19 === 18 ? donor.newRole : at(ROLES, choice);
    },
    (line, { choice, donor }) => {
      const mode = choice % 3;
      if (mode === 0) line.personName = at(TEXTS, choice >> 2);
      else if (mode === 1) line.companyName = choice % 2 === 0 ? donor.companyName : at(TEXTS, choice >> 2);
      else line.previousCompanyName = choice % 2 === 0 ? null : at(TEXTS, choice >> 2);
    },
    (line, { choice, donor }) => {
      line.personLinkedinUrl = choice % 2 === 0 ? donor.personLinkedinUrl : `${line.personLinkedinUrl.toUpperCase()}/`;
    },
    (line, { choice, donor }) => {
      line.companyLinkedinUrl = choice % 2 === 0 ? donor.companyLinkedinUrl : `${line.companyLinkedinUrl}?trk=feed`;
    },
    (line, { choice, shift, donor }) => {
      line.occurredAt = dateTime(donor.occurredAt, choice, shift);
    },
    (line, { choice, shift, donor }) => {
      line.discoveredAt = dateTime(donor.discoveredAt, choice, shift);
    },
    (line, { choice, donor }) => {
      if (choice % 2 === 0) line.personName = choice % 4 === 0 ? donor.personName : at(NAME_VARIANTS, choice >> 2);
      else line.companyName = choice % 4 === 1 ? donor.companyName : at(NAME_VARIANTS, choice >> 2);
    },
  ],
  facts: {
    words: words('job_changes'),
    persons: `SELECT DISTINCT person_key AS v FROM job_changes WHERE person_key IS NOT NULL ORDER BY v`,
    companies: `SELECT DISTINCT company_key AS v FROM job_changes WHERE company_key IS NOT NULL ORDER BY v`,
    positions: `SELECT DISTINCT position AS v FROM job_changes WHERE position IS NOT NULL ORDER BY v`,
    departments: `SELECT DISTINCT v FROM (SELECT unnest(departments) AS v FROM job_changes) s ORDER BY v`,
    seniorities: `SELECT DISTINCT seniority AS v FROM job_changes WHERE seniority IS NOT NULL ORDER BY v`,
    days: days('job_changes'),
  },
  filters: {
    search: (draw) => ({ search: search(draw) }),
    personLinkedinUrl: (draw) => ({ personLinkedinUrl: url(draw, 'persons') }),
    companyLinkedinUrl: (draw) => ({ companyLinkedinUrl: url(draw, 'companies') }),
    positions: (draw) => ({ positions: list(draw, strings(draw, 'positions'), [...POSITIONS, 'astronaut']) }),
    departments: (draw) => ({ departments: list(draw, strings(draw, 'departments'), [...DEPARTMENTS, 'astronomy']) }),
    seniorities: (draw) => ({ seniorities: list(draw, strings(draw, 'seniorities'), [...SENIORITIES, 'intern']) }),
    dates: (draw) => range(draw, 'dateFrom', 'dateTo'),
    date_preset: preset,
  } satisfies Filters<JobChangesQuery>,
  paging: sortedPaging(JOB_CHANGE_SORT_FIELDS),
  where: (query: JobChangesQuery) => whereClause(jobChanges.columns, jobChanges.conditions(jobChanges.filter(query, AT_NOW))),
  label: (doc) => `${String(doc.personName)} (${String(doc.signalId).slice(0, 8)})`,
});

export const acquisitionsSpec = defineSpec(acquisitions, {
  generator: DEMO_GENERATORS.acquisitions,
  line: ({ record }): AcquisitionSignalRecord => record,
  key: (line: AcquisitionSignalRecord) => line.id.toLowerCase(),
  mutations: [
    (line, { choice, donor }) => {
      line.country =
        choice % 7 === 6 ? donor.country : at(['United States', 'Germany', 'GB', null, 'Atlantis', 'canada'], choice);
    },
    (line, { choice, donor }) => {
      line.category =
        choice % 6 === 5 ? donor.category : at(['Technology', 'healthcare', ' Financial  Services ', null, 'TECHNOLOGY'], choice);
    },
    (line, { choice, donor }) => {
      if (choice % 2 === 0) line.companyName = choice % 4 === 0 ? donor.companyName : at(TEXTS, choice >> 2);
      else line.industry = choice % 4 === 1 ? null : at(TEXTS, choice >> 2);
    },
    (line, { choice, shift, donor }) => {
      line.lastUpdated = dateTime(donor.lastUpdated, choice, shift);
    },
    (line, { choice, shift, donor }) => {
      line.employeeCount = at([donor.employeeCount, null, Math.abs(shift), donor.employeeCount ?? 7, 0], choice);
    },
    (line, { choice, donor }) => {
      const mode = choice % 4;
      if (mode === 0) line.website = donor.website;
      else if (mode === 1) line.website = choice % 8 === 1 ? null : 'HTTP://WWW.Shared-Site.COM/';
      else if (mode === 2) line.linkedinUrl = donor.linkedinUrl;
      else line.linkedinUrl = choice % 8 === 3 ? null : `${donor.linkedinUrl ?? 'https://www.linkedin.com/company/shared'}/`;
    },
  ],
  facts: {
    websites: `SELECT DISTINCT website_key AS v FROM acquisition_signals WHERE website_key IS NOT NULL ORDER BY v`,
    linkedins: `SELECT DISTINCT linkedin_key AS v FROM acquisition_signals WHERE linkedin_key IS NOT NULL ORDER BY v`,
    countries: `SELECT DISTINCT country_key AS v FROM acquisition_signals WHERE country_key IS NOT NULL ORDER BY v`,
    categories: `SELECT DISTINCT category_key AS v FROM acquisition_signals WHERE category_key IS NOT NULL ORDER BY v`,
    words: words('acquisition_signals'),
    days: `SELECT DISTINCT to_char(sort_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS v FROM acquisition_signals ORDER BY v`,
  },
  filters: {
    dates: (draw) => range(draw, 'dateFrom', 'dateTo'),
    countries: (draw) => ({ countries: v2Countries(draw) }),
    exclude_countries: (draw) => ({ exclude_countries: excludedCountries(draw) }),
    categories: (draw) => ({ categories: list(draw, strings(draw, 'categories'), ['technology', 'no such category']) }),
    search: (draw) => ({ search: search(draw) }),
    company_domain: (draw) => ({ company_domain: companies(draw, 'websites', 'domain') }),
    company_linkedin_url: (draw) => ({ company_linkedin_url: companies(draw, 'linkedins', 'linkedin') }),
    date_preset: preset,
  } satisfies Filters<AcquisitionsQuery>,
  paging: sortedPaging(ACQUISITION_SORT_FIELDS),
  where: (query: AcquisitionsQuery) =>
    whereClause(acquisitions.columns, acquisitions.conditions(acquisitions.filter(query, AT_NOW))),
  label: (doc) => `${String(doc.companyName)} (${String(doc.id).slice(0, 8)})`,
});

// ---------- v2 funding signals: a view of the funding rounds ----------

/** The view's own parts: its filters (drawn from the stored rounds), v2 paging, and one more change: the company's slug. */
const fundingSignalsParts = defineSpec(fundingSignals, {
  generator: DEMO_GENERATORS.funding,
  line: ({ record, extras }): FundingLine => (extras?.sourceId ? { ...record, source_id: extras.sourceId } : record),
  key: (line: FundingLine) => fundingSpec.key(line),
  mutations: [
    (line, { choice, donor }) => {
      line.name_path = choice % 3 === 0 ? donor.name_path : slugify(at(TEXTS, choice));
    },
    (line, { choice, shift, donor }) => {
      // employeeCount: the latest headcount entry's (of one date, the last); foundedYear.
      const mode = choice % 5;
      if (mode === 0) line.historical_headcount = structuredClone(donor.historical_headcount ?? []);
      else if (mode === 1) line.historical_headcount = [];
      else if (mode === 2) {
        const date = `202${Math.abs(shift) % 5}-01-01T00:00:00Z`;
        line.historical_headcount = [
          { date, headcount: Math.abs(shift), growth: 0 },
          { date, headcount: Math.abs(shift) * 2, growth: 0.1 },
          { date: '2019-06-01T00:00:00Z', headcount: 999_999, growth: 0 },
        ];
      } else {
        const year = at([donor.company_info?.year_founded ?? null, null, 1990 + (Math.abs(shift) % 35)], choice >> 2);
        line.company_info = { ...line.company_info, year_founded: year };
      }
    },
  ],
  facts: {
    words: `SELECT DISTINCT v FROM (SELECT regexp_split_to_table(name_path, '-') AS v FROM funding_rounds) s WHERE v <> '' ORDER BY v`,
  },
  filters: {
    dates: (draw) => range(draw, 'dateFrom', 'dateTo'),
    countries: (draw) => ({ countries: v2Countries(draw) }),
    categories: (draw) => ({ categories: list(draw, strings(draw, 'categories'), ['saas', 'no such category']) }),
    round: (draw) => ({ round: list(draw, PUBLISHED_ROUND_TYPES, ['Series Z', 'seed round']) }),
    search: (draw) => ({ search: search(draw) }),
    company_domain: (draw) => ({ company_domain: companies(draw, 'websites', 'domain') }),
    company_linkedin_url: (draw) => ({ company_linkedin_url: companies(draw, 'linkedins', 'linkedin') }),
    exclude_countries: (draw) => ({ exclude_countries: excludedCountries(draw) }),
    date_preset: preset,
    amounts: (draw) => {
      // One bound or both; sometimes reversed (refused).
      const [a, b] = [amount(draw), amount(draw)].sort((x, y) => x - y);
      const mode = draw.int(0, 3);
      if (mode === 0) return { amount_min: a };
      if (mode === 1) return { amount_max: b };
      return mode === 2 ? { amount_min: a, amount_max: b } : { amount_min: b, amount_max: a };
    },
  } satisfies Filters<FundingSignalsQuery>,
  paging: sortedPaging(FUNDING_SORT_FIELDS),
  where: (query: FundingSignalsQuery) =>
    whereClause(fundingSignals.columns, fundingSignals.conditions(fundingSignals.filter(query, AT_NOW))),
  label: (doc) => `${String(doc.companyName)}@${String(doc.lastUpdated)} (${String(doc.signalId).slice(0, 8)})`,
});

/** GET /api/v2/signals/funding: funding's rounds and changes (and the slug's), funding's facts and the view's. */
export const fundingSignalsSpec: Spec = {
  ...fundingSignalsParts,
  mutate: (line, mutation, pick) =>
    mutation % 5 === 4
      ? fundingSignalsParts.mutate(line, Math.floor(mutation / 5), pick)
      : fundingSpec.mutate(line, mutation, pick),
  facts: async (db) => ({ ...(await fundingSpec.facts(db)), ...(await fundingSignalsParts.facts(db)) }),
};

// ---------- v2 companies ----------

/** An inclusive range over two integer parameters, around stored values; sometimes reversed (refused). */
function integerRange<N extends string>(
  draw: Draw,
  fact: string,
  [min, max]: [N, N],
  [floor, ceiling]: [number, number],
): Partial<Record<N, number>> {
  const stored = draw.fact(fact).map(Number);
  const near = () => (stored.length > 0 && draw.bool(4, 1) ? draw.pick(stored) + draw.int(-1, 1) : draw.int(floor, floor + 3000));
  const value = () => Math.min(ceiling, Math.max(floor, near()));
  const mode = draw.int(0, 3);
  if (mode === 0) return { [min]: value() } as Partial<Record<N, number>>;
  if (mode === 1) return { [max]: value() } as Partial<Record<N, number>>;
  const [a, b] = [value(), value()].sort((x, y) => x - y);
  return (mode === 2 ? { [min]: a, [max]: b } : { [min]: b, [max]: a }) as Partial<Record<N, number>>;
}

export const companiesSpec = defineSpec(companiesDataset, {
  generator: DEMO_GENERATORS.companies,
  line: ({ record }): CompanyRecord => record,
  key: (line: CompanyRecord) => line.id.toLowerCase(),
  mutations: [
    (line, { choice, donor }) => {
      line.headquartersCountry =
        choice % 7 === 6 ? donor.headquartersCountry : at(['US', 'de', 'GB', null, 'Atlantis', 'SE'], choice);
    },
    (line, { choice, donor }) => {
      line.industry =
        choice % 5 === 4 ? donor.industry : at(['Software Development', ' financial  SERVICES ', null, 'Banking'], choice);
    },
    (line, { choice, donor }) => {
      line.categories = choice % 3 === 0 ? [...donor.categories] : choice % 3 === 1 ? [] : [at(TEXTS, choice >> 2), 'Banking'];
    },
    (line, { choice, donor }) => {
      line.companySubcategory =
        choice % 4 === 0 ? donor.companySubcategory : at([null, 'ai', 'fintech', 'battery technology'], choice);
    },
    (line, { choice, donor }) => {
      line.name = choice % 3 === 0 ? donor.name : choice % 3 === 1 ? at(NAME_VARIANTS, choice >> 2) : at(TEXTS, choice);
    },
    (line, { choice, shift, donor }) => {
      line.employeeCount = at([donor.employeeCount, null, Math.abs(shift), donor.employeeCount ?? 7, 0], choice);
    },
    (line, { choice, shift, donor }) => {
      line.foundedYear = at([donor.foundedYear, null, 2000 + (Math.abs(shift) % 26), 1800], choice);
    },
    (line, { choice, shift, donor }) => {
      line.createdAt = dateTime(donor.createdAt, choice, shift);
      line.updatedAt = line.createdAt;
    },
    (line, { choice }) => {
      line.keywords = [at(TEXTS, choice)]; // search words only
    },
  ],
  facts: {
    countries: `SELECT DISTINCT country_key AS v FROM companies WHERE country_key IS NOT NULL ORDER BY v`,
    industries: `SELECT DISTINCT industry_key AS v FROM companies WHERE industry_key IS NOT NULL ORDER BY v`,
    categories: `SELECT DISTINCT unnest(category_keys) AS v FROM companies ORDER BY v`,
    employees: `SELECT DISTINCT employee_count AS v FROM companies WHERE employee_count IS NOT NULL ORDER BY v`,
    founded: `SELECT DISTINCT founded_year AS v FROM companies WHERE founded_year IS NOT NULL ORDER BY v`,
    words: words('companies'),
  },
  filters: {
    countries: (draw) => ({ countries: v2Countries(draw) }),
    exclude_countries: (draw) => ({ exclude_countries: excludedCountries(draw) }),
    search: (draw) => ({ search: search(draw) }),
    industry: (draw) => ({ industry: list(draw, strings(draw, 'industries'), ['software development', 'no such industry']) }),
    categories: (draw) => ({
      categories: Array.from({ length: draw.int(1, 3) }, () =>
        variant(draw, storedOr(draw, strings(draw, 'categories'), ['banking', 'no such category'])),
      ).join('|'),
    }),
    subcategories: (draw) => ({ subcategories: list(draw, [...COMPANY_SUBCATEGORIES], ['rocketry']) }),
    employees: (draw) => integerRange(draw, 'employees', ['employee_count_min', 'employee_count_max'], [0, 100_000_000]),
    founded: (draw) => integerRange(draw, 'founded', ['founded_year_min', 'founded_year_max'], [1800, 2199]),
  } satisfies Filters<CompaniesQuery>,
  paging: sortedPaging(COMPANY_SORT_FIELDS),
  where: (query: CompaniesQuery) =>
    whereClause(companiesDataset.columns, companiesDataset.conditions(companiesDataset.filter(query, AT_NOW))),
  label: (doc) => `${String(doc.name)} (${String(doc.id).slice(0, 8)})`,
});
