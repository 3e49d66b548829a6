// Deterministic synthetic v1 data: venture funding rounds and M&A deals.
//
// Every generator owns a seeded Faker instance backed by a small, fast PRNG. Faker builds the
// per-run pools (investor firms, acquirers, identifiers); the per-record work draws straight from
// the same PRNG so a million records stay cheap. Same seed + count + `now` gives identical output.

import { Faker, de, en, en_IN, es, fr, it, nl, pl, pt_BR, sv, type LocaleDefinition } from '@faker-js/faker';
import type { FundingRecord, MaRecord, DealStatus } from '../catalog/index.js';
import { countryName } from '../catalog/index.js';
import { slugify } from '../catalog/index.js';
import { Rng, sfc32Randomizer, Weighted } from './random.js';
import { COMPANY_INDUSTRY_LABELS } from './company-generator.js';
import { defaultPopulation, type CompanyPopulation, type CompanySampler } from './company-population.js';
import {
  type Category,
  CATEGORIES,
  ACRONYMS,
  type Country,
  COUNTRIES,
  FX,
  SIZE_LABELS,
  ROOT_NOUNS,
  ROOT_ADJECTIVES,
  BRAND_STARTS,
  BRAND_MIDS,
  BRAND_ENDS,
  type Stage,
  STAGES,
  EXEC_ROLES,
  CEO_TITLES,
  INTERESTS,
  ACQUIRER_INTERESTS,
  INVESTOR_ROOTS,
  EARLY_SUFFIXES,
  VENTURE_SUFFIXES,
  GROWTH_SUFFIXES,
  DEBT_SUFFIXES,
  GRANT_BODIES,
  DEFAULT_GRANT_BODIES,
  ACQUIRER_SUFFIXES,
  ACQUIRER_GENERIC,
  HAND_NAME_POOLS,
  ACQUIRED_STAGE_MIX,
} from './v1-vocabulary.js';

export type { DealStatus };

type CompanyInfo = NonNullable<FundingRecord['company_info']>;
type HeadcountData = NonNullable<FundingRecord['historical_headcount']>[number];
type GrowthInfo = NonNullable<FundingRecord['growth_info']>;
type ContactInfo = NonNullable<FundingRecord['contact_info']>[number];
type Employee = NonNullable<ContactInfo['employees']>[number];
type Investor = FundingRecord['investors'][number];

// ---------------------------------------------------------------------------------------------
// Reference data
// ---------------------------------------------------------------------------------------------

const CATEGORY_BY_KEY = new Map(CATEGORIES.map((c) => [c.key, c]));
const CATEGORY_PICKER = new Weighted(CATEGORIES.map((c) => [c, c.weight] as const));

function titleCase(phrase: string): string {
  return phrase
    .split(' ')
    .map((word) => {
      if (ACRONYMS.has(word)) return word === 'mlops' ? 'MLOps' : word === 'defi' ? 'DeFi' : word.toUpperCase();
      if (word === 'and' || word === 'of') return word;
      return word.charAt(0).toUpperCase() + word.slice(1);
    })
    .join(' ');
}

const SPECIALITIES = new Map(CATEGORIES.map((c) => [c.key, c.keywords.map(titleCase)]));

/** A keyword as it reads in running text: lower case, acronyms restored ("mlops" -> "MLOps"). */
function prose(keyword: string): string {
  return keyword
    .split(' ')
    .map((word) => (ACRONYMS.has(word) ? titleCase(word) : word))
    .join(' ');
}

/** "a" or "an" by the sound of the first letter (acronyms by letter name). */
function article(word: string): string {
  const acronym =
    word.length > 1 && word[0] === word[0]!.toUpperCase() && word[1] === word[1]!.toUpperCase() && /[A-Z]/.test(word[0]!);
  if (acronym) return 'AEFHILMNORSX'.includes(word[0]!) ? 'an' : 'a';
  if (/^(uni|use|usa|uti|ure|eu|one)/i.test(word)) return 'a';
  if (/^(8|11|18)/.test(word)) return 'an';
  return /^[aeiou]/i.test(word) ? 'an' : 'a';
}

const COUNTRY_PICKER = new Weighted(COUNTRIES.map((c) => [c, c.weight] as const));
const ACQUIRER_COUNTRY_PICKER = new Weighted(COUNTRIES.map((c) => [c, c.code === 'US' ? c.weight * 1.6 : c.weight] as const));

const V1_COUNTRY_BY_CODE = new Map(COUNTRIES.map((c) => [c.code, c]));
/** Population countries the v1 vocabulary lacks: a neighbour's names, phones and currency stand in. */
const COUNTRY_STAND_INS: Record<string, string> = { LU: 'BE', MY: 'SG', TH: 'SG', PH: 'SG' };

/** The v1 country of a population company's country code (a weighted draw when it has none). */
function v1Country(rng: Rng, code: string | null): Country {
  if (code === null) return COUNTRY_PICKER.pick(rng);
  return V1_COUNTRY_BY_CODE.get(code) ?? V1_COUNTRY_BY_CODE.get(COUNTRY_STAND_INS[code] ?? 'US') ?? COUNTRIES[0]!;
}

/** The v1 category of a company-generator industry label's main category, where no v1 category lists the label. */
const MAIN_CATEGORY_FALLBACK: Record<string, string> = {
  tech: 'saas',
  pro: 'saas',
  fin: 'fintech',
  health: 'healthtech',
  mfg: 'hardware',
  retail: 'e-commerce',
  wholesale: 'logistics',
  admin: 'hr tech',
  edu: 'edtech',
  realEstate: 'proptech',
  construction: 'construction tech',
  utilities: 'energy',
  mining: 'energy',
  transport: 'logistics',
  accommodation: 'travel tech',
  consumer: 'e-commerce',
  entertainment: 'media',
  farming: 'agtech',
  government: 'data analytics',
  holding: 'fintech',
};

/** The v1 categories fitting a LinkedIn industry label: those listing it, else its main category's. */
const CATEGORIES_BY_LABEL = new Map<string, Category[]>(
  [...COMPANY_INDUSTRY_LABELS].map(([label, { main }]) => {
    const listing = CATEGORIES.filter((c) => c.industries.includes(label));
    const fallback = CATEGORY_BY_KEY.get(MAIN_CATEGORY_FALLBACK[main] ?? 'saas') ?? CATEGORIES[0]!;
    return [label, listing.length > 0 ? listing : [fallback]] as const;
  }),
);

function categoryOf(rng: Rng, label: string | null): Category {
  const fitting = label === null ? undefined : CATEGORIES_BY_LABEL.get(label);
  return fitting ? rng.pick(fitting) : CATEGORY_PICKER.pick(rng);
}

/** The host of a website URL without "www." ("https://www.nimbus.io" -> "nimbus.io"). */
function hostOf(website: string): string {
  return website
    .replace(/^https?:\/\//, '')
    .replace(/^www\./, '')
    .replace(/[/?#].*$/, '')
    .toLowerCase();
}

/** The population companies funding rounds and M&A deals draw, and what they drew of them. */
interface PopulationDraw {
  population: CompanyPopulation;
  sampler: CompanySampler;
}

function sizeLabel(headcount: number): string {
  for (const [max, label] of SIZE_LABELS) if (headcount <= max) return label;
  return '10001+';
}

// ---------------------------------------------------------------------------------------------
// People
// ---------------------------------------------------------------------------------------------

function asciiToken(value: string): string {
  const out = value
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/ß/g, 'ss')
    .replace(/ł/g, 'l')
    .replace(/[øö]/g, 'o')
    .replace(/æ/g, 'ae')
    .replace(/[^a-z]/g, '');
  return out === '' ? 'x' : out;
}

interface NamePool {
  first: string[];
  last: string[];
  firstKey: string[];
  lastKey: string[];
}

function namePool(first: readonly string[], last: readonly string[]): NamePool {
  const clean = (list: readonly string[]) => [
    ...new Set(list.map((n) => n.trim()).filter((n) => n !== '' && !/[^\p{L}\s'’-]/u.test(n) && n.length <= 18)),
  ];
  const f = clean(first);
  const l = clean(last);
  return { first: f, last: l, firstKey: f.map(asciiToken), lastKey: l.map(asciiToken) };
}

function localeNames(locale: LocaleDefinition): NamePool {
  const person = locale.person;
  const firstDef = person?.first_name;
  const lastDef = person?.last_name;
  const first = [...(firstDef?.generic ?? []), ...(firstDef?.female ?? []), ...(firstDef?.male ?? [])];
  const last = [...(lastDef?.generic ?? []), ...(lastDef?.female ?? []), ...(lastDef?.male ?? [])];
  return namePool(first, last);
}

let namePoolsCache: Map<string, NamePool> | undefined;

function namePools(): Map<string, NamePool> {
  if (namePoolsCache) return namePoolsCache;
  const pools = new Map<string, NamePool>([
    ['en', localeNames(en)],
    ['de', localeNames(de)],
    ['fr', localeNames(fr)],
    ['in', localeNames(en_IN)],
    ['es', localeNames(es)],
    ['pt', localeNames(pt_BR)],
    ['nl', localeNames(nl)],
    ['sv', localeNames(sv)],
    ['it', localeNames(it)],
    ['pl', localeNames(pl)],
    ...Object.entries(HAND_NAME_POOLS).map(([key, names]) => [key, namePool(names.first, names.last)] as const),
  ]);
  namePoolsCache = pools;
  return pools;
}

interface Person {
  name: string;
  first: string;
  last: string;
}

// ---------------------------------------------------------------------------------------------
// Names coined from the word pools
// ---------------------------------------------------------------------------------------------

const ROOTS = [...ROOT_NOUNS, ...ROOT_ADJECTIVES];

const VOWELS = 'aeiouy';

function cap(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

const LINKS = 'lnrvstmdk';

function joinSyllables(a: string, b: string): string {
  if (b === '') return a;
  const last = a.charAt(a.length - 1).toLowerCase();
  const first = b.charAt(0);
  // Two vowels meeting get a linking consonant ("Ga" + "ia" -> "Galia").
  if (VOWELS.includes(last) && VOWELS.includes(first))
    return a + LINKS.charAt((a.length * 7 + b.length * 3 + a.charCodeAt(0)) % LINKS.length) + b;
  if (!VOWELS.includes(last) && !VOWELS.includes(first) && !VOWELS.includes(a.charAt(a.length - 2).toLowerCase())) {
    return a + 'a' + b;
  }
  if (last === first) return a + b.slice(1);
  return a + b;
}

/** An invented, pronounceable brand word ("Zentrio", "Kovala"); `long` forces a middle syllable. */
function brandWord(rng: Rng, long = false): string {
  let word = rng.pick(BRAND_STARTS);
  const r = rng.next();
  const mids = long ? (r < 0.6 ? 1 : 2) : r < 0.35 ? 0 : r < 0.85 ? 1 : 2;
  for (let i = 0; i < mids; i++) word = joinSyllables(word, rng.pick(BRAND_MIDS));
  word = joinSyllables(word, rng.pick(BRAND_ENDS));
  while (word.length < 4) word = joinSyllables(word, rng.pick(BRAND_ENDS));
  return word;
}

function compoundWord(rng: Rng): string {
  const a = rng.chance(0.5) ? rng.pick(ROOT_ADJECTIVES) : rng.pick(ROOT_NOUNS);
  let b = rng.pick(ROOT_NOUNS);
  while (b === a) b = rng.pick(ROOT_NOUNS);
  return rng.chance(0.3) ? cap(a) + cap(b) : cap(a + b);
}

// ---------------------------------------------------------------------------------------------
// Rounds
// ---------------------------------------------------------------------------------------------

const STAGE_BY_LABEL = new Map(STAGES.map((s) => [s.label ?? 'undisclosed', s]));

const FUNDING_STAGE_MIX: ReadonlyArray<readonly [Stage, number]> = STAGES.map((s) => [s, s.weight] as const);
const ACQUIRED_STAGE_PICKS: ReadonlyArray<readonly [Stage, number]> = ACQUIRED_STAGE_MIX.map(
  ([label, weight]) => [STAGE_BY_LABEL.get(label)!, weight] as const,
);

/** Rounds money the way press releases do: a few significant figures, occasionally exact-ish. */
function roundAmount(rng: Rng, value: number): number {
  if (value < 1000) return Math.max(1000, Math.round(value / 100) * 100);
  const magnitude = Math.pow(10, Math.floor(Math.log10(value)));
  const r = rng.next();
  const step =
    r < 0.06 ? magnitude / 100 : r < 0.3 ? magnitude / 20 : r < 0.75 ? magnitude / 10 : r < 0.9 ? magnitude / 4 : magnitude / 2;
  return Math.max(step, Math.round(value / step) * step);
}

// ---------------------------------------------------------------------------------------------
// Time
// ---------------------------------------------------------------------------------------------

const DAY_MS = 86_400_000;
const YEAR_MS = 365.25 * DAY_MS;
const MONTH_MS = YEAR_MS / 12;
const HISTORY_MS = 5 * YEAR_MS;
const RECENCY_MS = 2.6 * YEAR_MS;
const RECENCY_NORM = 1 - Math.exp(-HISTORY_MS / RECENCY_MS);

const monthIsoCache = new Map<number, string>();

function monthIndex(ms: number): number {
  const d = new Date(ms);
  return d.getUTCFullYear() * 12 + d.getUTCMonth();
}

function monthIso(index: number): string {
  let iso = monthIsoCache.get(index);
  if (iso === undefined) {
    iso = new Date(Date.UTC(Math.floor(index / 12), index % 12, 1)).toISOString();
    monthIsoCache.set(index, iso);
  }
  return iso;
}

function round4(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}

// ---------------------------------------------------------------------------------------------
// Generator context
// ---------------------------------------------------------------------------------------------

interface InvestorFirm {
  name: string;
  linkedin: string | null;
}

interface Acquirer {
  name: string;
  linkedin: string;
  category: Category;
  info: CompanyInfo;
}

const EARLY_EXEC_ROLES = EXEC_ROLES.map((variants) =>
  variants.filter((t) => !/^(VP|Chief Revenue|CFO|CMO|Engineering Manager)/.test(t)),
).filter((variants) => variants.length > 0);
interface Company {
  name: string;
  namePath: string;
  category: Category;
  country: Country;
  ceo: string | null;
  info: CompanyInfo;
  headcount: HeadcountData[];
  growth: GrowthInfo;
  contact: ContactInfo;
  city: string;
  stage: Stage;
}

class Context {
  readonly rng: Rng;
  readonly faker: Faker;
  readonly nowMs: number;
  private readonly pools = namePools();
  private readonly firms: Record<'early' | 'venture' | 'growth' | 'debt', InvestorFirm[]>;

  /**
   * The draws of the population companies the records are about, apart from everything else: the
   * same companies get the same records whatever the reference date (as the docs' lookup examples need).
   */
  readonly picks: Rng;

  constructor(seed: number, salt: number, now: Date) {
    this.picks = new Rng(sfc32Randomizer([seed, salt, 0x5049434b]));
    this.rng = new Rng(sfc32Randomizer());
    this.faker = this.rng.faker;
    this.faker.seed([seed, salt]);
    this.nowMs = now.getTime();
    this.firms = this.buildFirms();
  }

  // ---- people ------------------------------------------------------------------------------

  private poolFor(country: Country): NamePool {
    const key = this.rng.chance(0.22) ? 'en' : country.names;
    return this.pools.get(key) ?? this.pools.get('en')!;
  }

  person(country: Country): Person {
    const pool = this.poolFor(country);
    const fi = Math.floor(this.rng.next() * pool.first.length);
    const li = Math.floor(this.rng.next() * pool.last.length);
    const first = pool.first[fi]!;
    const last = pool.last[li]!;
    return { name: `${first} ${last}`, first: pool.firstKey[fi]!, last: pool.lastKey[li]! };
  }

  personLinkedin(p: Person): string {
    return `https://www.linkedin.com/in/${p.first}-${p.last}-${this.rng.hex(this.rng.int(6, 9))}`;
  }

  phone(country: Country): string {
    let out = `+${country.dial} `;
    for (const ch of country.phone) {
      if (ch === '#') out += String.fromCharCode(48 + Math.floor(this.rng.next() * 10));
      else if (ch === 'N') out += String.fromCharCode(50 + Math.floor(this.rng.next() * 8));
      else out += ch;
    }
    return out;
  }

  // ---- dates -------------------------------------------------------------------------------

  /** A moment in the last five years, denser towards `now`; whole seconds, never in the future. */
  dateSeenMs(): number {
    const age = -RECENCY_MS * Math.log(1 - this.rng.next() * RECENCY_NORM);
    const ms = this.nowMs - Math.max(age, 1000);
    return Math.floor(ms / 1000) * 1000;
  }

  // ---- investors ---------------------------------------------------------------------------

  private buildFirms(): Record<'early' | 'venture' | 'growth' | 'debt', InvestorFirm[]> {
    const f = this.faker;
    const used = new Set<string>();
    const make = (count: number, suffixes: string[]): InvestorFirm[] => {
      const out: InvestorFirm[] = [];
      let guard = 0;
      while (out.length < count && guard++ < count * 20) {
        const r = f.number.float();
        let name: string;
        if (r < 0.3) name = `${f.person.lastName()} ${f.helpers.arrayElement(suffixes)}`;
        else if (r < 0.38) name = `${f.person.lastName()} & ${f.person.lastName()}`;
        else if (r < 0.78) name = `${f.helpers.arrayElement(INVESTOR_ROOTS)} ${f.helpers.arrayElement(suffixes)}`;
        else if (r < 0.9) name = `${cap(brandWord(this.rng))} ${f.helpers.arrayElement(suffixes)}`;
        else name = `${cap(f.helpers.arrayElement(ROOTS))} ${f.helpers.arrayElement(suffixes)}`;
        if (/[^A-Za-z0-9 &.'-]/.test(name) || used.has(name.toLowerCase())) continue;
        used.add(name.toLowerCase());
        out.push({ name, linkedin: f.datatype.boolean(0.9) ? `https://www.linkedin.com/company/${slugify(name)}` : null });
      }
      return out;
    };
    return {
      early: make(1600, EARLY_SUFFIXES),
      venture: make(1400, VENTURE_SUFFIXES),
      growth: make(500, GROWTH_SUFFIXES),
      debt: make(250, DEBT_SUFFIXES),
    };
  }

  private firm(kind: 'early' | 'venture' | 'growth' | 'debt'): Investor {
    // Mostly firms focused on the stage; some cross over from the neighbouring pool.
    let pool = this.firms[kind];
    if (kind !== 'debt' && this.rng.chance(0.2)) {
      pool = kind === 'venture' ? this.firms[this.rng.chance(0.5) ? 'early' : 'growth'] : this.firms.venture;
    }
    const firm = pool[this.rng.skewed(pool.length, 1.8)]!;
    return firm.linkedin === null ? { name: firm.name } : { name: firm.name, linkedin_url: firm.linkedin };
  }

  investors(stage: Stage, country: Country): Investor[] {
    const rng = this.rng;
    if (stage.kind === 'grant') {
      const bodies = GRANT_BODIES[country.code] ?? DEFAULT_GRANT_BODIES;
      const picked = rng.sample(bodies, rng.chance(0.85) ? 1 : 2);
      return picked.map((name) =>
        rng.chance(0.8) ? { name, linkedin_url: `https://www.linkedin.com/company/${slugify(name)}` } : { name },
      );
    }
    const count = rng.int(stage.investors[0], stage.investors[1]);
    const out: Investor[] = [];
    const names = new Set<string>();
    let guard = 0;
    while (out.length < count && guard++ < count * 6) {
      let investor: Investor;
      if (rng.chance(stage.angelShare)) {
        const p = this.person(country);
        investor = rng.chance(0.7) ? { name: p.name, linkedin_url: this.personLinkedin(p) } : { name: p.name };
      } else {
        investor = this.firm(stage.kind === 'debt' ? 'debt' : stage.kind);
      }
      if (names.has(investor.name)) continue;
      names.add(investor.name);
      out.push(investor);
    }
    // Debt rounds often sit alongside an existing equity backer.
    if (stage.kind === 'debt' && out.length === 1 && rng.chance(0.3)) out.push(this.firm('venture'));
    return out;
  }

  // ---- companies ---------------------------------------------------------------------------

  private categories(main: Category): string[] {
    const rng = this.rng;
    const r = rng.next();
    const extra = r < 0.35 ? 0 : r < 0.75 ? 1 : 2;
    const out = [main.key];
    for (const key of rng.sample(main.related, extra)) if (CATEGORY_BY_KEY.has(key)) out.push(key);
    return out;
  }

  private description(
    name: string,
    category: Category,
    country: Country | null,
    city: string,
    yearFounded: number | null,
    ceo: string | null,
    headcount: number,
  ): string {
    const rng = this.rng;
    const product = rng.pick(category.products);
    const adjective = rng.chance(0.55) ? `${rng.pick(category.adjectives)} ` : '';
    const audience = rng.pick(category.audiences);
    const outcome = rng.pick(category.outcomes);
    const phrase = `${adjective}${product}`;
    const a = article(phrase);
    let first: string;
    switch (Math.floor(rng.next() * 4)) {
      case 0:
        first = `${name} is ${a} ${phrase} that helps ${audience} ${outcome}.`;
        break;
      case 1:
        first = `${name} provides ${audience} with ${a} ${phrase} to ${outcome}.`;
        break;
      case 2:
        first = `${name} develops ${a} ${phrase} for ${audience}, helping them ${outcome}.`;
        break;
      default:
        first = `${name} builds ${a} ${phrase} that lets ${audience} ${outcome}.`;
    }
    const r = rng.next();
    if (r < 0.3 || country === null) return first;
    const countryLabel = countryName(country.code);
    const place = countryLabel.startsWith(city) ? countryLabel.replace(/ SAR China$/, '') : `${city}, ${countryLabel}`;
    if (r < 0.5 && yearFounded !== null) return `${first} Founded in ${yearFounded}, the company is headquartered in ${place}.`;
    if (r < 0.65 && ceo !== null && yearFounded !== null)
      return `${first} It was founded in ${yearFounded} by ${ceo} and is based in ${place}.`;
    if (r < 0.82) {
      const customers = headcount < 15 ? rng.int(2, 8) * 10 : headcount < 100 ? rng.int(1, 9) * 100 : rng.int(1, 20) * 500;
      return `${first} The company serves more than ${thousands(customers)} customers across ${rng.int(2, 40)} countries.`;
    }
    return `${first} Headquartered in ${place}, it has a team of about ${headcount < 10 ? headcount : Math.round(headcount / 10) * 10} people.`;
  }

  private headcountSeries(stage: Stage, foundedMs: number, seenMs: number, latest?: number): HeadcountData[] {
    const rng = this.rng;
    const endIdx = monthIndex(seenMs);
    const available = Math.max(6, Math.floor((seenMs - foundedMs) / MONTH_MS));
    const wanted = rng.chance(0.55) ? rng.int(18, 24) : rng.int(6, 17);
    const n = Math.min(wanted, Math.min(24, available));
    const target = latest ?? rng.logTriangular(stage.headcount[0], stage.headcount[1]);
    const g = rng.float(stage.growth[0], stage.growth[1]);
    let h = Math.max(1, target / Math.pow(1 + g, n - 1));
    let prev = Math.max(1, Math.round(h));
    const series: HeadcountData[] = [{ date: monthIso(endIdx - n + 1), headcount: prev, growth: 0 }];
    for (let i = 1; i < n; i++) {
      let step = g + (rng.next() - 0.5) * g * 1.4;
      if (rng.chance(0.03)) step = -rng.float(0.01, 0.08);
      h = Math.max(1, h * (1 + step));
      const value = Math.max(1, Math.round(h));
      series.push({ date: monthIso(endIdx - n + 1 + i), headcount: value, growth: round4((value - prev) / prev) });
      prev = value;
    }
    return series;
  }

  private static growthInfo(series: HeadcountData[]): GrowthInfo {
    const info: GrowthInfo = {};
    const last = series[series.length - 1]!.headcount;
    const at = (k: number) => {
      const base = series[series.length - 1 - k]!.headcount;
      return round4((last - base) / base);
    };
    if (series.length > 1) info.growth_1m = at(1);
    if (series.length > 3) info.growth_3m = at(3);
    if (series.length > 6) info.growth_6m = at(6);
    if (series.length > 9) info.growth_9m = at(9);
    if (series.length > 12) info.growth_12m = at(12);
    return info;
  }

  private employees(
    stage: Stage,
    category: Category,
    country: Country,
    ceo: Person | null,
    domain: string,
    foundedIdx: number,
    seenIdx: number,
    headcount: number,
  ): Employee[] {
    const rng = this.rng;
    const r = rng.next();
    let count = r < 0.08 ? 0 : r < 0.23 ? 1 : r < 0.45 ? 2 : r < 0.7 ? 3 : r < 0.87 ? 4 : 5;
    count = Math.min(count, Math.max(1, headcount));
    const out: Employee[] = [];
    const started = (founder: boolean) =>
      monthIso(founder ? foundedIdx : foundedIdx + Math.floor(rng.next() * Math.max(1, seenIdx - foundedIdx + 1)));
    const employee = (p: Person, title: string, founder: boolean): Employee => ({
      name: p.name,
      title,
      linkedin_url: rng.chance(0.9) ? this.personLinkedin(p) : null,
      email: rng.chance(0.75) ? `${p.first}@${domain}` : null,
      phone: rng.chance(0.25) ? this.phone(country) : null,
      date_started: started(founder),
    });
    if (count === 0) return out;
    if (ceo !== null) out.push(employee(ceo, rng.pick(CEO_TITLES), true));
    const roles = stage.early ? EARLY_EXEC_ROLES : EXEC_ROLES;
    const used = new Set<string>();
    let guard = 0;
    while (out.length < count && guard++ < 20) {
      let title: string;
      let key: string;
      if (category.titles && rng.chance(0.25)) {
        title = rng.pick(category.titles);
        key = title;
      } else {
        const role = Math.floor(rng.next() * roles.length);
        title = rng.pick(roles[role]!);
        key = `role:${role}`;
      }
      if (used.has(key) || used.has(title)) continue;
      used.add(key);
      used.add(title);
      out.push(employee(this.person(country), title, /^Co-Founder/.test(title)));
    }
    return out;
  }

  // ---- population companies --------------------------------------------------------------

  /** A date a record of the company was seen: dateSeenMs(), moved after its founding when it falls before. */
  seenAfterFounding(foundedYear: number | null): number {
    const seenMs = this.dateSeenMs();
    if (foundedYear === null) return seenMs;
    const foundedMs = Date.UTC(foundedYear, 0, 1);
    if (seenMs >= foundedMs + 30 * DAY_MS) return seenMs;
    const span = Math.max(0, this.nowMs - 1000 - foundedMs);
    return Math.floor((foundedMs + span * this.rng.next()) / 1000) * 1000;
  }

  /** The company's headcount when a record was seen: today's, less about 20% a year back (null: unknown). */
  static headcountAt(employees: number | null, seenMs: number, nowMs: number): number | null {
    if (employees === null) return null;
    return Math.max(1, Math.round(employees / Math.pow(1.2, (nowMs - seenMs) / YEAR_MS)));
  }

  /** A stage from `picker`'s mix, made to fit the company's age and headcount where they are known. */
  stageFor(stages: ReadonlyArray<readonly [Stage, number]>, ageYears: number | null, headcount: number | null): Stage {
    let total = 0;
    const weights = stages.map(([stage, weight]) => {
      let fit = weight;
      if (ageYears !== null && (ageYears < stage.age[0] - 1 || ageYears > stage.age[1] * 1.5 + 2)) fit *= 0.03;
      if (headcount !== null && (headcount < stage.headcount[0] / 3 || headcount > stage.headcount[1] * 3)) fit *= 0.05;
      total += fit;
      return fit;
    });
    let target = this.rng.next() * total;
    for (let i = 0; i < stages.length; i++) {
      target -= weights[i]!;
      if (target < 0) return stages[i]![0];
    }
    return stages[stages.length - 1]![0];
  }

  /** The population's company `index` as a v1 record describes it when seen at `seenMs`, at `stage`. */
  populationCompany(population: CompanyPopulation, index: number, stage: Stage, seenMs: number): Company {
    const rng = this.rng;
    const name = population.name(index);
    const website = population.website(index);
    const linkedinUrl = population.linkedinUrl(index);
    const code = population.country(index);
    const label = population.industry(index);
    const foundedYear = population.foundedYear(index);
    const category = categoryOf(rng, label);
    const country = v1Country(rng, code);
    const namePath = population.linkedinHandle(index) ?? slugify(name);
    const domain = website === null ? null : hostOf(website);
    const city = rng.pick(country.cities);

    const foundedMs =
      foundedYear !== null
        ? Math.min(seenMs - 30 * DAY_MS, Date.UTC(foundedYear, rng.int(0, 11), 1))
        : seenMs - rng.float(stage.age[0], stage.age[1]) * YEAR_MS;
    const foundedIdx = monthIndex(foundedMs);
    const seenIdx = monthIndex(seenMs);

    const headcount = this.headcountSeries(
      stage,
      foundedMs,
      seenMs,
      Context.headcountAt(population.employeeCount(index), seenMs, this.nowMs) ?? undefined,
    );
    const latest = headcount[headcount.length - 1]!.headcount;
    const ceoPerson = rng.chance(0.92) ? this.person(country) : null;

    const catKeys = this.categories(category);
    const keywords = rng.sample(category.keywords, rng.int(3, 6));
    for (const key of catKeys.slice(1)) {
      const other = CATEGORY_BY_KEY.get(key);
      if (other && rng.chance(0.6)) {
        const kw = rng.pick(other.keywords);
        if (!keywords.includes(kw)) keywords.push(kw);
      }
    }
    const handle = slugify(name).replace(/-/g, '').slice(0, 15);
    const emailDomain = domain ?? `${slugify(name).replace(/-/g, '')}.com`;

    const info: CompanyInfo = {
      name,
      description:
        population.description(index) ??
        this.description(name, category, code === null ? null : country, city, foundedYear, ceoPerson?.name ?? null, latest),
      industry: label ?? rng.pick(category.industries),
      ...(website === null ? {} : { website }),
      size: sizeLabel(latest),
      logo_url: rng.chance(0.85)
        ? `https://media.licdn.com/dms/image/C4E0BAQ${rng.hex(12)}/company-logo_200_200/0/${Math.floor(seenMs / 1000) - rng.int(0, 86400 * 900)}`
        : null,
      year_founded: foundedYear,
      hq_country: code === null ? null : countryName(code),
      email: domain !== null && rng.chance(0.8) ? `${rng.pick(['info', 'hello', 'contact', 'team', 'hi'])}@${domain}` : null,
      phone: rng.chance(0.65) ? this.phone(country) : null,
      keywords,
      specialities: rng.sample(SPECIALITIES.get(category.key)!, rng.int(2, 5)),
      categories: catKeys,
      company_interested_in: rng.sample(INTERESTS, rng.int(1, 4)),
    };

    const contact: ContactInfo = {
      company_linkedin_url: linkedinUrl,
      company_twitter_url: rng.chance(0.72) ? `https://${rng.chance(0.5) ? 'twitter.com' : 'x.com'}/${handle}` : null,
      company_facebook_url: rng.chance(0.55) ? `https://www.facebook.com/${handle}` : null,
      employees: this.employees(stage, category, country, ceoPerson, emailDomain, foundedIdx, seenIdx, latest),
    };

    return {
      name,
      namePath,
      category,
      country,
      ceo: ceoPerson?.name ?? null,
      info,
      headcount,
      growth: Context.growthInfo(headcount),
      contact,
      city,
      stage,
    };
  }

  /** The population's company `index` as an acquirer: a large, established company. */
  populationAcquirer(population: CompanyPopulation, index: number): Acquirer {
    const rng = this.rng;
    const name = population.name(index);
    const website = population.website(index);
    const code = population.country(index);
    const label = population.industry(index);
    const category = categoryOf(rng, label);
    const country = v1Country(rng, code);
    const employees = population.employeeCount(index);
    const yearFounded = population.foundedYear(index);
    const domain = website === null ? null : hostOf(website);
    const focus = rng.sample(category.keywords, 3).map(prose);
    const description =
      population.description(index) ??
      `${name} is ${article(category.display)} ${category.display} company serving ${rng.pick(category.audiences)}, ` +
        `with offerings spanning ${focus[0]}, ${focus[1]} and ${focus[2]}.` +
        (yearFounded !== null && code !== null
          ? ` Founded in ${yearFounded}, it is headquartered in ${rng.pick(country.cities)}, ${countryName(code)}.`
          : '');
    const info: CompanyInfo = {
      name,
      description,
      industry: label ?? rng.pick(category.industries),
      ...(website === null ? {} : { website }),
      size: sizeLabel(employees ?? 500),
      logo_url: rng.chance(0.95)
        ? `https://media.licdn.com/dms/image/C4D0BAQ${rng.hex(12)}/company-logo_200_200/0/${1_500_000_000 + rng.int(0, 200_000_000)}`
        : null,
      year_founded: yearFounded,
      hq_country: code === null ? null : countryName(code),
      email:
        domain !== null && rng.chance(0.7) ? `${rng.pick(['info', 'contact', 'press', 'media', 'investors'])}@${domain}` : null,
      phone: rng.chance(0.85) ? this.phone(country) : null,
      keywords: rng.sample(category.keywords, rng.int(4, 8)),
      specialities: rng.sample(SPECIALITIES.get(category.key)!, rng.int(3, 7)),
      categories: [category.key, ...rng.sample(category.related, rng.int(1, 3))].filter((k) => CATEGORY_BY_KEY.has(k)),
      company_interested_in: rng.sample(ACQUIRER_INTERESTS, rng.int(2, 5)),
    };
    return { name, linkedin: population.linkedinUrl(index)!, category, info };
  }

  // ---- funding ---------------------------------------------------------------------------

  funding(draw: PopulationDraw): FundingRecord {
    const rng = this.rng;
    const { population, sampler } = draw;
    const index = sampler.pick(this.picks);
    const foundedYear = population.foundedYear(index);
    const seenMs = this.seenAfterFounding(foundedYear);
    const ageYears = foundedYear === null ? null : (seenMs - Date.UTC(foundedYear, 6, 1)) / YEAR_MS;
    const stage = this.stageFor(
      FUNDING_STAGE_MIX,
      ageYears,
      Context.headcountAt(population.employeeCount(index), seenMs, this.nowMs),
    );
    const company = this.populationCompany(population, index, stage, seenMs);
    const country = company.country;
    const currency = rng.chance(country.localShare * 0.85) ? country.currency : 'USD';
    const usd = rng.logTriangular(stage.amount[0], stage.amount[1]);
    const amount = roundAmount(rng, usd * (FX[currency] ?? 1));
    return {
      company_name: company.name,
      name_path: company.namePath,
      round_type: stage.label,
      funding_amount: amount,
      currency,
      ceo: company.ceo,
      investors: this.investors(stage, country),
      company_info: company.info,
      historical_headcount: company.headcount,
      growth_info: company.growth,
      contact_info: [company.contact],
      main_category: company.category.key,
      date_seen: new Date(seenMs).toISOString(),
    };
  }

  // ---- M&A -------------------------------------------------------------------------------

  /** `count` acquirers, none named (by LinkedIn handle) as a `reserved` one is. */
  buildAcquirers(count: number, reserved: ReadonlySet<string>): { all: Acquirer[]; byCategory: Map<string, Acquirer[]> } {
    const f = this.faker;
    const rng = this.rng;
    const used = new Set<string>();
    const all: Acquirer[] = [];
    let guard = 0;
    while (all.length < count && guard++ < count * 30) {
      const category = CATEGORY_PICKER.pick(rng);
      const suffixes = ACQUIRER_SUFFIXES[category.key];
      const suffix =
        suffixes && f.datatype.boolean(0.5) ? f.helpers.arrayElement(suffixes) : f.helpers.arrayElement(ACQUIRER_GENERIC);
      const r = f.number.float();
      let name: string;
      if (r < 0.25) name = `${f.person.lastName()} ${suffix}`;
      else if (r < 0.45) name = `${cap(brandWord(rng))} ${suffix}`;
      else if (r < 0.62) name = `${f.helpers.arrayElement(INVESTOR_ROOTS)} ${suffix}`;
      else if (r < 0.75) name = `${compoundWord(rng)} ${suffix}`;
      else if (r < 0.85) name = f.company.name();
      else if (r < 0.93) name = `${cap(brandWord(rng))}`;
      else name = `${f.person.lastName()} & ${f.person.lastName()}`;
      if (/[^A-Za-z0-9 &.,'-]/.test(name) || / - /.test(name)) continue;
      const namePath = slugify(name);
      if (used.has(namePath) || reserved.has(namePath)) continue;
      used.add(namePath);

      const country = ACQUIRER_COUNTRY_PICKER.pick(rng);
      const sizeRoll = rng.next();
      const size = sizeRoll < 0.06 ? '501-1000' : sizeRoll < 0.45 ? '1001-5000' : sizeRoll < 0.68 ? '5001-10000' : '10001+';
      const yearFounded = rng.chance(0.3) ? rng.int(1890, 1979) : rng.int(1980, 2014);
      const domainLabel = namePath.replace(/-(inc|corporation|group|holdings|international|global)$/, '').replace(/-/g, '');
      const tld = country.code === 'US' || rng.chance(0.6) ? 'com' : rng.pick(country.tlds.length > 0 ? country.tlds : ['com']);
      const domain = `${domainLabel}.${tld}`;
      const audience = rng.pick(category.audiences);
      const markets = rng.int(12, 150);
      const focus = rng.sample(category.keywords, 3).map(prose);
      const description =
        `${name} is a global ${category.display} company serving ${audience} in more than ${markets} countries, ` +
        `with offerings spanning ${focus[0]}, ${focus[1]} and ${focus[2]}.` +
        (rng.chance(0.6)
          ? ` Founded in ${yearFounded}, it is headquartered in ${rng.pick(country.cities)}, ${countryName(country.code)}.`
          : '');
      const catKeys = [category.key, ...rng.sample(category.related, rng.int(1, 3))];
      const info: CompanyInfo = {
        name,
        description,
        industry: rng.pick(category.industries),
        website: `https://www.${domain}`,
        size,
        logo_url: rng.chance(0.95)
          ? `https://media.licdn.com/dms/image/C4D0BAQ${rng.hex(12)}/company-logo_200_200/0/${1_500_000_000 + rng.int(0, 200_000_000)}`
          : null,
        year_founded: yearFounded,
        hq_country: countryName(country.code),
        email: rng.chance(0.7) ? `${rng.pick(['info', 'contact', 'press', 'media', 'investors'])}@${domain}` : null,
        phone: rng.chance(0.85) ? this.phone(country) : null,
        keywords: rng.sample(category.keywords, rng.int(4, 8)),
        specialities: rng.sample(SPECIALITIES.get(category.key)!, rng.int(3, 7)),
        categories: catKeys.filter((k) => CATEGORY_BY_KEY.has(k)),
        company_interested_in: rng.sample(ACQUIRER_INTERESTS, rng.int(2, 5)),
      };
      all.push({ name, linkedin: `https://www.linkedin.com/company/${namePath}`, category, info });
    }
    const byCategory = new Map<string, Acquirer[]>();
    for (const acquirer of all) {
      const list = byCategory.get(acquirer.category.key) ?? [];
      list.push(acquirer);
      byCategory.set(acquirer.category.key, list);
    }
    return { all, byCategory };
  }
}

function copyInfo(info: CompanyInfo): CompanyInfo {
  return {
    ...info,
    keywords: info.keywords?.slice(),
    specialities: info.specialities?.slice(),
    categories: info.categories?.slice(),
    company_interested_in: info.company_interested_in?.slice(),
  };
}

function money(usd: number): string {
  const trim = (value: number, digits: number) => String(Number(value.toFixed(digits)));
  if (usd >= 1e9) return `$${trim(usd / 1e9, 1)} billion`;
  return `$${trim(usd / 1e6, usd < 1e7 ? 1 : 0)} million`;
}

function thousands(value: number): string {
  return String(value).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

// ---------------------------------------------------------------------------------------------
// Public API
// ---------------------------------------------------------------------------------------------

/** The most activity counted for a company's funding rounds and for its being acquired (a few rounds, seldom more than one deal). */
const MAX_FUNDING_ACTIVITY = 6;
const MAX_TARGET_ACTIVITY = 2.5;

/** Share of M&A deals whose acquirer is a company of the population (the others: the run's acquirer pool). */
const POPULATION_ACQUIRER_SHARE = 0.35;

/**
 * `count` funding rounds, lazily; deterministic in (seed, count, now, population) and prefix-stable.
 * The rounds' companies are the population's (by default a small one of the seed's own): mostly
 * young companies, the more active ones many times.
 */
export function* generateFundingRecords(
  seed: number,
  count: number,
  now: Date,
  population: CompanyPopulation = defaultPopulation(seed, now),
): Generator<FundingRecord> {
  const ctx = new Context(seed, 0x46554e44, now);
  const nowYear = now.getUTCFullYear();
  const sampler = population.sampler((i) => {
    const founded = population.foundedYear(i);
    const employees = population.employeeCount(i);
    return (founded === null ? 0.5 : nowYear - founded <= 15 ? 1 : 0.25) * (employees === null || employees <= 5000 ? 1 : 0.3);
  }, MAX_FUNDING_ACTIVITY);
  const draw = { population, sampler };
  for (let i = 0; i < count; i++) yield ctx.funding(draw);
}

/**
 * `count` M&A deals with their status, lazily; deterministic in (seed, count, now, population) and
 * prefix-stable. The acquired companies are the population's (by default a small one of the seed's
 * own); so are the acquirers of about a third of the deals (larger companies of the population).
 */
export function* generateMaRecords(
  seed: number,
  count: number,
  now: Date,
  population: CompanyPopulation = defaultPopulation(seed, now),
): Generator<{ record: MaRecord; status: DealStatus }> {
  const ctx = new Context(seed, 0x4d414e44, now);
  const rng = ctx.rng;
  // The run's own acquirers are no population companies: none has the LinkedIn page of one.
  const handles = new Set<string>();
  for (let i = 0; i < population.size; i++) {
    const handle = population.linkedinHandle(i);
    if (handle !== null) handles.add(handle);
  }
  const { all, byCategory } = ctx.buildAcquirers(300, handles);
  handles.clear();
  const targets = population.sampler((i) => {
    const employees = population.employeeCount(i);
    return employees === null ? 0.5 : employees >= 3 && employees <= 3000 ? 1 : 0.2;
  }, MAX_TARGET_ACTIVITY);
  const buyers = population.sampler((i) => {
    const employees = population.employeeCount(i);
    if (employees === null || employees < 150 || population.linkedinUrl(i) === null) return 0;
    return Math.log10(employees);
  });
  const populationAcquirers = new Map<number, Acquirer>();

  for (let i = 0; i < count; i++) {
    const index = targets.pick(ctx.picks);
    const fromPopulation = ctx.picks.next() < POPULATION_ACQUIRER_SHARE;
    const candidate = buyers.pick(ctx.picks);
    const foundedYear = population.foundedYear(index);
    const seenMs = ctx.seenAfterFounding(foundedYear);
    const ageYears = foundedYear === null ? null : (seenMs - Date.UTC(foundedYear, 6, 1)) / YEAR_MS;
    const stage = ctx.stageFor(
      ACQUIRED_STAGE_PICKS,
      ageYears,
      Context.headcountAt(population.employeeCount(index), seenMs, ctx.nowMs),
    );
    const company = ctx.populationCompany(population, index, stage, seenMs);
    let acquirer: Acquirer;
    const buyerIndex = fromPopulation ? candidate : index;
    if (buyerIndex !== index) {
      let known = populationAcquirers.get(buyerIndex);
      if (known === undefined) {
        known = ctx.populationAcquirer(population, buyerIndex);
        populationAcquirers.set(buyerIndex, known);
      }
      acquirer = known;
    } else {
      const sameCategory = byCategory.get(company.category.key);
      const pool = sameCategory && sameCategory.length > 0 && rng.chance(0.55) ? sameCategory : all;
      acquirer = pool[rng.skewed(pool.length, 1.8)]!;
    }

    // Recent deals are more often still open; older ones have mostly closed.
    const ageDays = (ctx.nowMs - seenMs) / DAY_MS;
    const open = 0.15 + 0.65 * Math.exp(-ageDays / 365);
    const roll = rng.next();
    const status: DealStatus = roll < open * 0.57 ? 'announced' : roll < open ? 'pending' : 'completed';

    const latest = company.headcount[company.headcount.length - 1]!.headcount;
    const perEmployee = Math.exp(Math.log(250_000) + rng.quickNormal() * 1.3);
    let value = latest * perEmployee;
    if (value < 1_000_000) value = rng.logTriangular(1_000_000, 4_000_000);
    else if (value > 5_000_000_000) value = rng.logTriangular(1_500_000_000, 5_000_000_000);
    const amount = Math.min(5_000_000_000, Math.max(1_000_000, roundAmount(rng, value)));
    let percentage = 100;
    if (rng.chance(0.14)) {
      const r = rng.next();
      percentage = r < 0.4 ? rng.int(51, 99) : r < 0.7 ? rng.int(51, 98) + 0.5 : Math.round(rng.float(51, 99) * 10) / 10;
    }

    const capability = prose(rng.pick(company.category.keywords));
    const target = company.name;
    const buyer = acquirer.name;
    const stake = percentage === 100 ? target : `${article(String(percentage))} ${percentage}% stake in ${target}`;
    const located = company.info.hq_country
      ? `${article(company.city)} ${company.city}-based`
      : article(company.category.display);
    const kind = `${located} ${company.category.display} company`;
    let description: string;
    const variant = Math.floor(rng.next() * 3);
    if (status === 'completed') {
      description =
        variant === 0
          ? `${buyer} acquired ${stake} to expand its ${capability} capabilities.`
          : variant === 1
            ? `${buyer} acquired ${stake}, ${kind}, to strengthen its ${capability} offering.`
            : `${buyer} completed its acquisition of ${stake} to accelerate growth in ${capability}.`;
    } else if (status === 'announced') {
      description =
        variant === 0
          ? `${buyer} announced an agreement to acquire ${stake} to expand its ${capability} capabilities.`
          : variant === 1
            ? `${buyer} announced it will acquire ${stake}, ${kind}, to broaden its ${capability} portfolio.`
            : `${buyer} announced plans to acquire ${stake} to accelerate growth in ${capability}.`;
    } else {
      description =
        variant === 0
          ? `${buyer} agreed to acquire ${stake} to expand its ${capability} capabilities; the deal is pending regulatory approval.`
          : variant === 1
            ? `${buyer} entered into a definitive agreement to acquire ${stake}, ${kind}, subject to customary closing conditions.`
            : `${buyer} agreed to acquire ${stake} to strengthen its ${capability} offering; closing is expected in the coming months.`;
    }
    if (rng.chance(0.45)) {
      description +=
        percentage === 100
          ? ` The transaction values ${target} at approximately ${money(amount)}.`
          : ` The transaction is valued at approximately ${money(amount)}.`;
    }

    const record: MaRecord = {
      investment_id: ctx.faker.string.uuid(),
      company_name: company.name,
      acquired_by: acquirer.name,
      acquired_by_linkedin_url: acquirer.linkedin,
      acquired_by_company_info: copyInfo(acquirer.info),
      name_path: company.namePath,
      description,
      acquisition_amount: amount,
      acquisition_percentage: percentage,
      main_category: company.category.key,
      company_info: company.info,
      historical_headcount: company.headcount,
      growth_info: company.growth,
      contact_info: [company.contact],
      date_seen: new Date(seenMs).toISOString(),
    };
    yield { record, status };
  }
}
