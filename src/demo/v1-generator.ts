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
import {
  type Category,
  CATEGORIES,
  ACRONYMS,
  type Country,
  COUNTRIES,
  FX,
  GENERIC_TLDS,
  SIZE_LABELS,
  ROOT_NOUNS,
  ROOT_ADJECTIVES,
  ROOT_ENDINGS,
  BRAND_STARTS,
  BRAND_MIDS,
  BRAND_ENDS,
  NAME_PREFIXES,
  GENERIC_SUFFIXES,
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

function rootWithEnding(rng: Rng): string {
  let root = rng.pick(ROOT_NOUNS);
  const ending = rng.pick(ROOT_ENDINGS);
  if (root.endsWith('e') && VOWELS.includes(ending.charAt(0))) root = root.slice(0, -1);
  if (root.endsWith('y') && ending === 'ly') return cap(root.slice(0, -1) + 'ily');
  if (VOWELS.includes(root.charAt(root.length - 1)) && VOWELS.includes(ending.charAt(0))) return cap(root + ending.slice(1));
  return cap(root + ending);
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

const STAGE_PICKER = new Weighted(STAGES.map((s) => [s, s.weight] as const));
const STAGE_BY_LABEL = new Map(STAGES.map((s) => [s.label ?? 'undisclosed', s]));

const ACQUIRED_STAGE_PICKER = new Weighted(
  ACQUIRED_STAGE_MIX.map(([label, weight]) => [STAGE_BY_LABEL.get(label)!, weight] as const),
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
  private readonly seen = new Set<string>();
  private readonly pools = namePools();
  private readonly firms: Record<'early' | 'venture' | 'growth' | 'debt', InvestorFirm[]>;

  constructor(seed: number, salt: number, now: Date) {
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

  private candidateName(category: Category, country: Country, attempt: number): string {
    const rng = this.rng;
    const suffix = () => (rng.chance(0.7) ? rng.pick(category.suffixes) : rng.pick(GENERIC_SUFFIXES));
    // Later attempts switch to the patterns with the most room, so large sets stay collision-free.
    if (attempt >= 3) return rng.chance(0.4) ? cap(brandWord(rng, true)) : `${cap(brandWord(rng, true))} ${suffix()}`;
    const r = rng.next();
    if (r < 0.24) return cap(brandWord(rng));
    if (r < 0.48) return `${cap(brandWord(rng))} ${suffix()}`;
    if (r < 0.62) return compoundWord(rng);
    if (r < 0.71) return `${compoundWord(rng)} ${suffix()}`;
    if (r < 0.79) return rng.chance(0.6) ? rootWithEnding(rng) : `${rootWithEnding(rng)} ${suffix()}`;
    if (r < 0.85) return `${rng.pick(NAME_PREFIXES)}${cap(rng.pick(ROOT_NOUNS))}`;
    if (r < 0.94) return `${cap(rng.pick(ROOTS))} ${suffix()}`;
    const pool = this.pools.get(country.names) ?? this.pools.get('en')!;
    const surname = rng.pick(pool.last);
    return `${surname.split(' ').map(cap).join(' ')} ${rng.pick(category.suffixes)}`;
  }

  /** A company name whose slug has not been used in this data set yet. */
  private uniqueName(category: Category, country: Country): { name: string; base: string; namePath: string; suffixed: boolean } {
    for (let attempt = 0; attempt < 8; attempt++) {
      const base = this.candidateName(category, country, attempt);
      const name = this.rng.chance(0.05) ? `${base}${country.legal.startsWith('Inc') ? ', ' : ' '}${country.legal}` : base;
      const namePath = slugify(name);
      if (namePath === '' || this.seen.has(namePath)) continue;
      this.seen.add(namePath);
      return { name, base, namePath, suffixed: false };
    }
    const base = this.candidateName(category, country, 0);
    let namePath = `${slugify(base)}-${this.rng.hex(4)}`;
    while (this.seen.has(namePath)) namePath = `${slugify(base)}-${this.rng.hex(6)}`;
    this.seen.add(namePath);
    return { name: base, base, namePath, suffixed: true };
  }

  private domain(base: string, category: Category, country: Country, taken: boolean): string {
    const rng = this.rng;
    let label = slugify(base).replace(/-/g, '');
    if (taken) label = `${rng.pick(['get', 'try', 'use', 'join'])}${label}`;
    else if (label.length <= 4 && rng.chance(0.5)) label = `${label}${rng.pick(['hq', 'app', 'labs'])}`;
    let tld: string;
    const r = rng.next();
    if (category.tlds && r < 0.45) tld = rng.pick(category.tlds);
    else if (country.tlds.length > 0 && r < 0.7) tld = rng.pick(country.tlds);
    else tld = rng.pick(GENERIC_TLDS);
    return `${label}.${tld}`;
  }

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

  private headcountSeries(stage: Stage, foundedMs: number, seenMs: number): HeadcountData[] {
    const rng = this.rng;
    const endIdx = monthIndex(seenMs);
    const available = Math.max(6, Math.floor((seenMs - foundedMs) / MONTH_MS));
    const wanted = rng.chance(0.55) ? rng.int(18, 24) : rng.int(6, 17);
    const n = Math.min(wanted, Math.min(24, available));
    const target = rng.logTriangular(stage.headcount[0], stage.headcount[1]);
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

  company(stage: Stage, seenMs: number, extraAgeYears = 0): Company {
    const rng = this.rng;
    const category = CATEGORY_PICKER.pick(rng);
    const country = COUNTRY_PICKER.pick(rng);
    const { name, base, namePath, suffixed } = this.uniqueName(category, country);
    const domain = this.domain(base, category, country, suffixed);
    const city = rng.pick(country.cities);

    const ageYears = rng.float(stage.age[0], stage.age[1]) + extraAgeYears;
    const foundedMs = seenMs - ageYears * YEAR_MS;
    const yearFounded = new Date(foundedMs).getUTCFullYear();
    const foundedIdx = monthIndex(foundedMs);
    const seenIdx = monthIndex(seenMs);

    const headcount = this.headcountSeries(stage, foundedMs, seenMs);
    const latest = headcount[headcount.length - 1]!.headcount;
    const ceoPerson = rng.chance(0.92) ? this.person(country) : null;
    const hqKnown = rng.chance(0.97);
    const yearKnown = rng.chance(0.96);

    const catKeys = this.categories(category);
    const keywords = rng.sample(category.keywords, rng.int(3, 6));
    for (const key of catKeys.slice(1)) {
      const other = CATEGORY_BY_KEY.get(key);
      if (other && rng.chance(0.6)) {
        const kw = rng.pick(other.keywords);
        if (!keywords.includes(kw)) keywords.push(kw);
      }
    }
    const handle = slugify(base).replace(/-/g, '').slice(0, 15);

    const info: CompanyInfo = {
      name,
      description: this.description(
        name,
        category,
        hqKnown ? country : null,
        city,
        yearKnown ? yearFounded : null,
        ceoPerson?.name ?? null,
        latest,
      ),
      industry: rng.pick(category.industries),
      website: `https://www.${domain}`,
      size: sizeLabel(latest),
      logo_url: rng.chance(0.85)
        ? `https://media.licdn.com/dms/image/C4E0BAQ${rng.hex(12)}/company-logo_200_200/0/${Math.floor(seenMs / 1000) - rng.int(0, 86400 * 900)}`
        : null,
      year_founded: yearKnown ? yearFounded : null,
      hq_country: hqKnown ? countryName(country.code) : null,
      email: rng.chance(0.8) ? `${rng.pick(['info', 'hello', 'contact', 'team', 'hi'])}@${domain}` : null,
      phone: rng.chance(0.65) ? this.phone(country) : null,
      keywords,
      specialities: rng.sample(SPECIALITIES.get(category.key)!, rng.int(2, 5)),
      categories: catKeys,
      company_interested_in: rng.sample(INTERESTS, rng.int(1, 4)),
    };

    const contact: ContactInfo = {
      company_linkedin_url: `https://www.linkedin.com/company/${namePath}`,
      company_twitter_url: rng.chance(0.72) ? `https://${rng.chance(0.5) ? 'twitter.com' : 'x.com'}/${handle}` : null,
      company_facebook_url: rng.chance(0.55) ? `https://www.facebook.com/${handle}` : null,
      employees: this.employees(stage, category, country, ceoPerson, domain, foundedIdx, seenIdx, latest),
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

  // ---- funding ---------------------------------------------------------------------------

  funding(): FundingRecord {
    const rng = this.rng;
    const seenMs = this.dateSeenMs();
    const stage = STAGE_PICKER.pick(rng);
    const company = this.company(stage, seenMs);
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

  buildAcquirers(count: number): { all: Acquirer[]; byCategory: Map<string, Acquirer[]> } {
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
      if (used.has(namePath)) continue;
      used.add(namePath);
      // Acquirers keep their names to themselves: no acquired company gets the same slug.
      this.seen.add(namePath);

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

/** `count` funding rounds, lazily; deterministic in (seed, count, now). */
export function* generateFundingRecords(seed: number, count: number, now: Date): Generator<FundingRecord> {
  const ctx = new Context(seed, 0x46554e44, now);
  for (let i = 0; i < count; i++) yield ctx.funding();
}

/** `count` M&A deals with their status, lazily; deterministic in (seed, count, now). */
export function* generateMaRecords(seed: number, count: number, now: Date): Generator<{ record: MaRecord; status: DealStatus }> {
  const ctx = new Context(seed, 0x4d414e44, now);
  const rng = ctx.rng;
  const { all, byCategory } = ctx.buildAcquirers(300);

  for (let i = 0; i < count; i++) {
    const seenMs = ctx.dateSeenMs();
    const stage = ACQUIRED_STAGE_PICKER.pick(rng);
    const company = ctx.company(stage, seenMs, 1.5);
    const sameCategory = byCategory.get(company.category.key);
    const pool = sameCategory && sameCategory.length > 0 && rng.chance(0.55) ? sameCategory : all;
    const acquirer = pool[rng.skewed(pool.length, 1.8)]!;

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
