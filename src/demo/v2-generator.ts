// Deterministic synthetic data for the v2 "signals" family: investors, job changes and
// acquisition signals. Every value comes from a seeded Mersenne Twister shared with a Faker
// instance, so the same seed, count and reference date always give the same records.
// Record streams are prefix-stable: the first N records do not depend on `count`.
// Per-record work draws from pools precomputed once per call, keeping the hot loops cheap.

import {
  da,
  de,
  en,
  en_GH,
  en_IN,
  en_NG,
  es,
  es_MX,
  fi,
  fr,
  id_ID,
  it,
  nb_NO,
  nl,
  pl,
  pt_BR,
  pt_PT,
  ro,
  sv,
  tr,
  yo_NG,
  type LocaleDefinition,
} from '@faker-js/faker';
import type { AcquisitionSignalRecord, InvestorRecord, JobChangeRecord } from '../catalog/index.js';
import { countryName } from '../catalog/index.js';
import { slugify } from '../catalog/index.js';
import { mersenneRandomizer, pickDistinct, Rng, Weighted } from './random.js';
import { defaultPopulation, type CompanyPopulation } from './company-population.js';
import { COMPANY_INDUSTRY_LABELS } from './company-generator.js';
import {
  COUNTRY_DATA,
  SHORT_COUNTRY_NAMES,
  WORDS,
  COMPOUND_LEFT,
  COMPOUND_RIGHT,
  BRAND_HEAD,
  BRAND_TAIL,
  GENERIC_DESCRIPTORS,
  HAND_NAME_GROUPS,
  INVESTOR_TYPE_MIX,
  STAGE_CHECK,
  STAGE_SETS,
  FOCUS_AREAS,
  CORPORATE_SECTORS,
  FIRM_QUALIFIERS,
  ANGEL_BACKGROUNDS,
  ROLE_FAMILIES,
  ROLE_TAGLINES,
  INDUSTRY_DATA,
  SIGNAL_INDICATORS,
  CONFLICTS,
  INDICATOR_COUNT_MIX,
  type InvestorType,
} from './v2-vocabulary.js';

// ---------------------------------------------------------------------------------------------
// Randomness
// ---------------------------------------------------------------------------------------------

/** Independent streams per purpose, so pools and records never shift each other. */
const STREAM = {
  investors: 0x1f0e,
  investorPools: 0x1f0f,
  jobChanges: 0x2a11,
  jobChangePools: 0x2a12,
  /** The population companies the records are about: apart, so they are the same whatever the date. */
  jobChangeCompanies: 0x2a14,
  acquisitions: 0x3b21,
  acquisitionCompanies: 0x3b22,
} as const;

// ---------------------------------------------------------------------------------------------
// Formatting helpers
// ---------------------------------------------------------------------------------------------

const HOUR = 3_600_000;
const DAY = 86_400_000;

const PAD2 = Array.from({ length: 60 }, (_, i) => String(i).padStart(2, '0'));
const dayStrings = new Map<number, string>();

/** YYYY-MM-DD of a UTC day number, memoised (the data spans a few thousand days at most). */
function dayString(day: number): string {
  let text = dayStrings.get(day);
  if (text === undefined) {
    text = new Date(day * DAY).toISOString().slice(0, 10);
    if (dayStrings.size > 50_000) dayStrings.clear();
    dayStrings.set(day, text);
  }
  return text;
}

/** ISO date-time with second precision and a Z suffix, e.g. 2024-11-15T10:30:00Z. */
export function isoSeconds(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  const day = Math.floor(seconds / 86_400);
  let rest = seconds - day * 86_400;
  const h = Math.floor(rest / 3600);
  rest -= h * 3600;
  const m = Math.floor(rest / 60);
  return `${dayString(day)}T${PAD2[h] as string}:${PAD2[m] as string}:${PAD2[rest - m * 60] as string}Z`;
}

function isoDay(ms: number): string {
  return dayString(Math.floor(ms / DAY));
}

/** A moment within `spanDays` before `nowMs`, denser towards `nowMs` as `power` grows above 1. */
export function recentMs(rng: Rng, nowMs: number, spanDays: number, power: number): number {
  return Math.floor((nowMs - spanDays * DAY * Math.pow(rng.next(), power)) / 1000) * 1000;
}

/** Handles in URLs and domains ("Nimbus Labs" -> "nimbus-labs"): letters are folded to ASCII, "&" is dropped. */
export function urlSlug(text: string, separator = '-'): string {
  return slugify(text, { separator, ampersand: '', foldLetters: true });
}

const LEGAL_SUFFIX_RE =
  /[,\s]+(inc\.?|llc|ltd\.?|limited|plc|corp\.?|gmbh|ag|sas|sa|s\.a\.|b\.v\.|ab|pvt ltd|private limited|pty ltd|k\.k\.|co\., ltd\.|s\.l\.|s\.r\.l\.|s\.p\.a\.|ltda\.)$/i;

function withoutLegalSuffix(name: string): string {
  return name.replace(LEGAL_SUFFIX_RE, '');
}

/** Rounds to a "nice" amount: 1, 1.5, 2, 2.5, 3, 4, 5, 7.5 times a power of ten. */
function niceAmount(value: number): number {
  const magnitude = Math.pow(10, Math.floor(Math.log10(value)));
  const steps = [1, 1.5, 2, 2.5, 3, 4, 5, 7.5, 10];
  const scaled = value / magnitude;
  let best = 1;
  for (const step of steps) if (Math.abs(step - scaled) < Math.abs(best - scaled)) best = step;
  return Math.round(best * magnitude);
}

function usd(value: number): string {
  const trim = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(1).replace(/\.0$/, ''));
  if (value >= 1e9) return `$${trim(value / 1e9)}B`;
  if (value >= 1e6) return `$${trim(value / 1e6)}M`;
  if (value >= 1e3) return `$${trim(value / 1e3)}K`;
  return `$${value}`;
}

function listPhrase(items: readonly string[]): string {
  if (items.length <= 1) return items[0] ?? '';
  if (items.length === 2) return `${items[0]} and ${items[1]}`;
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

function article(word: string): string {
  return /^[aeiou]/i.test(word) ? 'an' : 'a';
}

/** "the United States", "the Netherlands", "Germany": a country name as used mid-sentence. */
export function inCountry(country: CountryInfo): string {
  return /^(United |Netherlands|Philippines|Czech Republic)/.test(country.name) ? `the ${country.name}` : country.name;
}

export function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Keeps trying fresh names, then qualifies a repeated one, so names stay unique within a call. */
export function uniqueName(taken: Set<string>, draw: () => string, qualifiers: readonly string[], rng: Rng): string {
  for (let attempt = 0; attempt < 4; attempt++) {
    const name = draw();
    if (!taken.has(name.toLowerCase())) {
      taken.add(name.toLowerCase());
      return name;
    }
  }
  const stem = draw();
  const start = rng.int(0, qualifiers.length - 1);
  for (let i = 0; i < qualifiers.length; i++) {
    const name = `${stem} ${qualifiers[(start + i) % qualifiers.length]}`;
    if (!taken.has(name.toLowerCase())) {
      taken.add(name.toLowerCase());
      return name;
    }
  }
  for (let n = 2; ; n++) {
    const name = `${stem} ${ROMAN[n] ?? n}`;
    if (!taken.has(name.toLowerCase())) {
      taken.add(name.toLowerCase());
      return name;
    }
  }
}

/** A slug not yet in `taken`; LinkedIn-style numeric suffixes break ties. */
function uniqueSlug(taken: Set<string>, slug: string, separator = '-'): string {
  let candidate = slug;
  for (let n = 2; taken.has(candidate); n++) candidate = `${slug}${separator}${n}`;
  taken.add(candidate);
  return candidate;
}

const ROMAN = ['', 'I', 'II', 'III', 'IV', 'V', 'VI', 'VII', 'VIII', 'IX', 'X', 'XI', 'XII'];

// ---------------------------------------------------------------------------------------------
// Geography
// ---------------------------------------------------------------------------------------------

interface Place {
  city: string;
  region: string;
}

export interface CountryInfo {
  code: string;
  name: string;
  /** Short form for compounds ("U.S.-based", "UK Innovation Fund"). */
  short: string;
  demonym: string;
  /** Local top-level domain, used by about half the companies there. */
  tld: string;
  /** Whether the region is a state/province that is always shown. */
  states: boolean;
  legal: readonly string[];
  places: Weighted<Place>;
  placeList: readonly Place[];
}

const COUNTRIES: readonly CountryInfo[] = COUNTRY_DATA.map(([code, , demonym, tld, states, legal, places]) => {
  const entries = places.split(';').map((spec) => {
    const [city = '', region = '', weight = '1'] = spec.split('|');
    return [{ city, region }, Number(weight)] as const;
  });
  return {
    code,
    name: countryName(code),
    short: SHORT_COUNTRY_NAMES[code] ?? countryName(code),
    demonym,
    tld,
    states,
    legal: legal.split('|'),
    places: new Weighted(entries),
    placeList: entries.map(([place]) => place),
  };
});

export const COUNTRY_TABLE = new Weighted(
  COUNTRIES.map((c, i) => [c, (COUNTRY_DATA[i] as (typeof COUNTRY_DATA)[number])[1]] as const),
);

// ---------------------------------------------------------------------------------------------
// Name material
// ---------------------------------------------------------------------------------------------

const ACRONYM_LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** Names with their URL slugs, computed once. */
interface NameList {
  names: readonly string[];
  slugs: readonly string[];
}

function nameList(names: readonly string[]): NameList {
  const kept = [...new Set(names)].filter((name) => urlSlug(name) !== '');
  return { names: kept, slugs: kept.map((name) => urlSlug(name)) };
}

interface NameGroup {
  female: NameList;
  male: NameList;
  lastFemale: NameList;
  lastMale: NameList;
  /** Share of people with a double surname (Spanish-speaking naming). */
  doubleSurname: number;
}

function groupFromLocale(locale: LocaleDefinition, doubleSurname = 0): NameGroup {
  const first: { generic?: readonly string[]; female?: readonly string[]; male?: readonly string[] } =
    locale.person?.first_name ?? {};
  const last: { generic?: readonly string[]; female?: readonly string[]; male?: readonly string[] } =
    locale.person?.last_name ?? {};
  const generic = first.generic ?? [];
  const lastGeneric = last.generic ?? [];
  return {
    female: nameList(first.female ?? generic),
    male: nameList(first.male ?? generic),
    lastFemale: nameList(last.female ?? lastGeneric),
    lastMale: nameList(last.male ?? lastGeneric),
    doubleSurname,
  };
}

function handGroup(female: string, male: string, surnames: string): NameGroup {
  const last = nameList(surnames.split(' '));
  return {
    female: nameList(female.split(' ')),
    male: nameList(male.split(' ')),
    lastFemale: last,
    lastMale: last,
    doubleSurname: 0,
  };
}

let nameGroupsCache: Weighted<NameGroup> | undefined;

/** Name groups by locale, weighted roughly like the professional population of the data set. */
function nameGroups(): Weighted<NameGroup> {
  if (nameGroupsCache) return nameGroupsCache;
  nameGroupsCache = new Weighted<NameGroup>([
    [groupFromLocale(en), 42],
    [groupFromLocale(en_IN), 10],
    [groupFromLocale(de), 6],
    [groupFromLocale(fr), 4.5],
    [groupFromLocale(es, 0.35), 4],
    [groupFromLocale(es_MX, 0.3), 2],
    [groupFromLocale(it), 2.5],
    [groupFromLocale(nl), 2],
    [groupFromLocale(pt_BR), 2],
    [groupFromLocale(pt_PT), 0.8],
    [groupFromLocale(sv), 1],
    [groupFromLocale(nb_NO), 0.6],
    [groupFromLocale(da), 0.6],
    [groupFromLocale(fi), 0.5],
    [groupFromLocale(pl), 1.5],
    [groupFromLocale(ro), 0.7],
    [groupFromLocale(tr), 1.2],
    [groupFromLocale(en_NG), 1.2],
    [groupFromLocale(yo_NG), 0.6],
    [groupFromLocale(en_GH), 0.4],
    [groupFromLocale(id_ID), 0.6],
    [handGroup(...HAND_NAME_GROUPS.chinese), 5.5],
    [handGroup(...HAND_NAME_GROUPS.korean), 1.3],
    [handGroup(...HAND_NAME_GROUPS.japanese), 1.4],
    [handGroup(...HAND_NAME_GROUPS.vietnamese), 0.9],
    [handGroup(...HAND_NAME_GROUPS.arabic), 2],
    [handGroup(...HAND_NAME_GROUPS.hebrew), 1],
  ]);
  return nameGroupsCache;
}

interface PersonName {
  first: string;
  last: string;
  full: string;
  /** "first-last", ASCII. */
  slug: string;
}

function drawPersonName(rng: Rng, groups: Weighted<NameGroup>): PersonName {
  const group = groups.pick(rng);
  const female = rng.next() < 0.45;
  const firsts = female ? group.female : group.male;
  const f = Math.floor(rng.next() * firsts.names.length);
  const surnames = female ? group.lastFemale : group.lastMale;
  const l = Math.floor(rng.next() * surnames.names.length);
  const first = firsts.names[f] as string;
  let last = surnames.names[l] as string;
  let slug = `${firsts.slugs[f] as string}-${surnames.slugs[l] as string}`;
  if (group.doubleSurname > 0 && rng.next() < group.doubleSurname) {
    const l2 = Math.floor(rng.next() * surnames.names.length);
    last = `${last} ${surnames.names[l2] as string}`;
    slug = `${slug}-${surnames.slugs[l2] as string}`;
  }
  const middle = rng.next() < 0.03 ? ` ${ACRONYM_LETTERS.charAt(rng.int(0, 25))}.` : '';
  return { first, last, full: `${first}${middle} ${last}`, slug };
}

let firmSurnamesCache: readonly string[] | undefined;

/**
 * ASCII-only surnames for firm names ("Haag Ventures", "Lindqvist Family Office"), capped per locale so
 * no single language dominates; English names are listed twice, so they come up about twice as often.
 */
export function firmSurnames(): readonly string[] {
  if (firmSurnamesCache) return firmSurnamesCache;
  const out: string[] = [];
  const locales: ReadonlyArray<readonly [LocaleDefinition, number, number]> = [
    [en, 600, 2],
    [de, 300, 1],
    [it, 200, 1],
    [fr, 150, 1],
    [nl, 120, 1],
    [sv, 90, 1],
    [da, 80, 1],
    [nb_NO, 80, 1],
    [pl, 120, 1],
  ];
  for (const [locale, cap, copies] of locales) {
    const names = [...new Set(locale.person?.last_name?.generic ?? [])]
      .filter((name) => /^[A-Z][a-z]+$/.test(name) && name.length >= 4 && name.length <= 11)
      .sort();
    const step = Math.max(1, names.length / cap);
    const kept: string[] = [];
    for (let i = 0; i < names.length && kept.length < cap; i += step) kept.push(names[Math.floor(i)] as string);
    for (let c = 0; c < copies; c++) out.push(...kept);
  }
  firmSurnamesCache = out;
  return firmSurnamesCache;
}

/** A coined brand: "Brightpath", "DataBridge", "Nimbus". */
export function brandWord(rng: Rng): string {
  const roll = rng.next();
  if (roll < 0.22) return rng.pick(WORDS);
  const head = rng.pick(BRAND_HEAD);
  let tail = rng.pick(BRAND_TAIL);
  if (head.toLowerCase().endsWith(tail.charAt(0)) && tail.length > 2) tail = tail.slice(1);
  if (roll < 0.4) return head + capitalize(tail);
  return head + tail;
}

function firmWord(rng: Rng): string {
  const roll = rng.next();
  if (roll < 0.55) return rng.pick(WORDS);
  const left = rng.pick(COMPOUND_LEFT);
  let right = rng.pick(COMPOUND_RIGHT);
  if (right === left) right = 'Ridge';
  return roll < 0.85 ? `${left} ${right}` : left + right.toLowerCase();
}

function acronym(rng: Rng): string {
  let out = '';
  const length = rng.next() < 0.7 ? 3 : 2;
  for (let i = 0; i < length; i++) out += ACRONYM_LETTERS.charAt(rng.int(0, 25));
  return out;
}

/** A company name in the styles seen on company pages. */
export function companyName(rng: Rng, surnames: readonly string[], descriptors: readonly string[] = GENERIC_DESCRIPTORS): string {
  const roll = rng.next();
  if (roll < 0.26) return brandWord(rng);
  if (roll < 0.52) return `${brandWord(rng)} ${rng.pick(descriptors)}`;
  if (roll < 0.68) return `${rng.pick(WORDS)} ${rng.pick(descriptors)}`;
  if (roll < 0.76) return `${rng.pick(COMPOUND_LEFT)} ${rng.pick(COMPOUND_RIGHT)} ${rng.pick(descriptors)}`;
  if (roll < 0.84) return `${rng.pick(surnames)} ${rng.pick(descriptors)}`;
  if (roll < 0.88) return `${rng.pick(surnames)} & ${rng.pick(surnames)}`;
  if (roll < 0.91) return `${brandWord(rng)} ${rng.pick(descriptors)}`;
  if (roll < 0.95) return `${acronym(rng)} ${rng.pick(descriptors)}`;
  const tld = rng.pick(['.ai', '.io', '.co', '.ai', '.app']);
  return `${brandWord(rng)}${tld}`;
}

/** https://www.<domain> with the country's TLD about half the time outside the US. */
export function websiteFor(rng: Rng, domainSlug: string, country: CountryInfo, techy: boolean): string {
  let tld = 'com';
  const roll = rng.next();
  if (techy && roll < 0.14) tld = rng.pick(['io', 'ai', 'co', 'tech']);
  else if (country.code !== 'US' && roll < 0.6) tld = country.tld;
  return `https://www.${domainSlug}.${tld}`;
}

// ---------------------------------------------------------------------------------------------
// Investors
// ---------------------------------------------------------------------------------------------

const INVESTOR_TYPE_TABLE = new Weighted(INVESTOR_TYPE_MIX);

const FOCUS_BY_TYPE: Record<InvestorType, ReadonlyArray<readonly [string, number]>> = Object.fromEntries(
  (['vc', 'angel', 'pe', 'corporate', 'accelerator', 'family_office', 'fund', 'government'] as const).map((type) => [
    type,
    FOCUS_AREAS.map(([focus, weight, bias]) => [focus, weight * (bias?.[type] ?? 1)] as const),
  ]),
) as unknown as Record<InvestorType, ReadonlyArray<readonly [string, number]>>;

const STAGE_TABLES = Object.fromEntries(Object.entries(STAGE_SETS).map(([type, sets]) => [type, new Weighted(sets)])) as Record<
  InvestorType,
  Weighted<readonly string[]>
>;

interface InvestorPools {
  surnames: readonly string[];
  surnameSet: ReadonlySet<string>;
  startups: readonly string[];
  groups: Weighted<NameGroup>;
}

function buildInvestorPools(seed: number): InvestorPools {
  const rng = new Rng(mersenneRandomizer(seed, STREAM.investorPools));
  const surnames = firmSurnames();
  const startups = new Set<string>();
  for (let guard = 0; startups.size < 6000 && guard < 60_000; guard++) {
    const roll = rng.next();
    if (roll < 0.55) startups.add(brandWord(rng));
    else if (roll < 0.75)
      startups.add(
        `${brandWord(rng)} ${rng.pick(['Labs', 'AI', 'Health', 'Pay', 'Bio', 'Robotics', 'Cloud', 'Energy', 'Security', 'Systems'])}`,
      );
    else if (roll < 0.88) startups.add(`${brandWord(rng)}${rng.pick(['.ai', '.io', '.co'])}`);
    else startups.add(rng.pick(WORDS));
  }
  return { surnames, surnameSet: new Set(surnames), startups: [...startups], groups: nameGroups() };
}

function stagePhrase(stages: readonly string[]): string {
  const early = stages.every((s) => s === 'Pre-Seed' || s === 'Seed');
  const growth = stages.every((s) => ['Series C', 'Series D+', 'Growth', 'Late Stage', 'Buyout'].includes(s));
  if (stages.length >= 5) return 'multi-stage';
  if (early) return stages.includes('Pre-Seed') ? 'pre-seed' : 'seed-stage';
  if (growth) return stages.includes('Buyout') ? 'buyout and growth' : 'growth-stage';
  if (stages.includes('Seed') || stages.includes('Series A')) return 'early-stage';
  return 'expansion-stage';
}

function checkSizeFor(rng: Rng, type: InvestorType, stages: readonly string[]): { min: number; max: number } {
  if (type === 'angel') {
    const min = niceAmount(rng.logUniform(5_000, 60_000));
    return { min, max: Math.max(niceAmount(min * rng.float(2, 8)), niceAmount(min * 2)) };
  }
  if (type === 'accelerator') {
    const min = rng.pick([25_000, 25_000, 50_000, 50_000, 75_000, 100_000, 120_000, 125_000, 150_000]);
    const max = rng.pick([100_000, 125_000, 150_000, 200_000, 250_000, 250_000].filter((m) => m > min));
    return { min, max };
  }
  const first = STAGE_CHECK[stages[0] ?? 'Seed'] ?? [250_000, 3_000_000];
  const last = STAGE_CHECK[stages[stages.length - 1] ?? 'Seed'] ?? first;
  const typeFactor = type === 'government' ? 0.5 : type === 'corporate' ? 0.6 : type === 'family_office' ? 0.7 : 1;
  let min = niceAmount(first[0] * rng.float(0.6, 1.6) * typeFactor);
  let max = niceAmount(last[1] * rng.float(0.35, 1.1) * typeFactor);
  if (max <= min) max = niceAmount(min * rng.float(2.5, 6));
  if (max <= min) max = min * 3;
  if (min < 10_000) min = 10_000;
  return { min, max };
}

function aumFor(
  rng: Rng,
  type: InvestorType,
  stages: readonly string[],
  check: { min: number; max: number } | null,
): number | null {
  const ranges: Record<InvestorType, readonly [number, number, number]> = {
    // min, max, chance of being null
    vc: [15e6, 2e9, 0.1],
    angel: [5e5, 2e7, 0.75],
    pe: [3e8, 8e10, 0.05],
    corporate: [5e7, 2e9, 0.45],
    accelerator: [5e6, 4e8, 0.4],
    family_office: [1e8, 1.5e10, 0.25],
    fund: [5e7, 5e9, 0.08],
    government: [1e8, 2e10, 0.2],
  };
  const [lo, hi, nullChance] = ranges[type];
  if (rng.next() < nullChance) return null;
  let min = lo;
  let max = hi;
  if (type === 'vc') {
    const phrase = stagePhrase(stages);
    if (phrase === 'pre-seed' || phrase === 'seed-stage') max = 4e8;
    else if (phrase === 'multi-stage' || phrase === 'growth-stage') {
      min = 5e8;
      max = 3e10;
    }
  }
  // A fund is many times its largest check.
  if (check) min = Math.max(min, Math.min(max / 2, check.max * 8));
  return niceAmount(rng.logUniform(min, max));
}

function investorName(
  rng: Rng,
  type: InvestorType,
  pools: InvestorPools,
  country: CountryInfo,
  place: Place,
  stages: readonly string[],
): string {
  const word = () => firmWord(rng);
  const surname = () => rng.pick(pools.surnames);
  const roll = rng.next();
  switch (type) {
    case 'vc':
      if (roll < 0.17) return `${surname()} Ventures`;
      if (roll < 0.39) return `${word()} Capital`;
      if (roll < 0.61) return `${word()} Ventures`;
      if (roll < 0.71) return `${word()} Partners`;
      if (roll < 0.79) return `${word()} Venture Partners`;
      if (roll < 0.84) return `${surname()} Capital`;
      if (roll < 0.88) return `${word()} VC`;
      if (roll < 0.91) return `${surname()} ${surname()}`;
      if (roll < 0.95) return `${brandWord(rng)} Ventures`;
      return stages.includes('Seed') || stages.includes('Pre-Seed') ? `${word()} Seed Fund` : `${word()} Growth Partners`;
    case 'pe':
      if (roll < 0.35) return `${word()} Equity Partners`;
      if (roll < 0.55) return `${word()} Capital Partners`;
      if (roll < 0.65) return `${surname()} Equity`;
      if (roll < 0.75) return `${word()} Private Equity`;
      if (roll < 0.8) return `${surname()} & ${surname()}`;
      if (roll < 0.9) return `${word()} Partners`;
      return `${word()} Equity`;
    case 'accelerator':
      if (roll < 0.25) return `${word()} Labs`;
      if (roll < 0.4) return `${word()} Launchpad`;
      if (roll < 0.6) return `${word()} Accelerator`;
      if (roll < 0.7) return `${place.city} Startup Accelerator`;
      if (roll < 0.78) return `Launchpad ${place.city}`;
      if (roll < 0.86) return `${word()} Foundry`;
      if (roll < 0.93) return `${word()} Startup Studio`;
      return `${word()} Incubator`;
    case 'family_office':
      if (roll < 0.45) return `${surname()} Family Office`;
      if (roll < 0.6) return `${surname()} Family Holdings`;
      if (roll < 0.7) return `${surname()} Family Investments`;
      if (roll < 0.8) return `${surname()} Family Capital`;
      if (roll < 0.9) return `${word()} Family Office`;
      return `${surname()} Private Investments`;
    case 'fund':
      if (roll < 0.4) return `${word()} Growth Fund`;
      if (roll < 0.52) return `${word()} Opportunity Fund`;
      if (roll < 0.62) return `${word()} Impact Fund`;
      if (roll < 0.72) return `${word()} Innovation Fund`;
      if (roll < 0.8) return `${word()} Technology Fund`;
      if (roll < 0.9) return `${word()} Fund ${ROMAN[rng.int(2, 6)] ?? 'II'}`;
      return `${word()} Evergreen Fund`;
    case 'government': {
      const region = country.states || rng.next() < 0.5 ? place.region : place.city;
      // U.S. public investors are mostly state and city programmes.
      if (country.code === 'US' && roll >= 0.45 && roll < 0.65)
        return `${place.region} ${rng.pick(['Development Bank', 'Growth Fund', 'Venture Capital Fund', 'Technology Development Fund'])}`;
      if (roll < 0.2) return country.code === 'US' ? `${place.region} Innovation Fund` : `${country.short} Innovation Fund`;
      if (roll < 0.35)
        return country.code === 'US' ? `${place.region} Innovation Partnership` : `${country.demonym} Innovation Fund`;
      if (roll < 0.45)
        return `National ${rng.pick(['Innovation', 'Research and Innovation', 'Technology Development', 'Enterprise Development', 'Industrial Development'])} Agency`;
      if (roll < 0.55) return `${country.demonym} Development Bank`;
      if (roll < 0.65)
        return `${country.demonym} ${rng.pick(['Venture Capital Fund', 'Growth Fund', 'Sovereign Technology Fund', 'Seed Fund'])}`;
      if (roll < 0.8)
        return `${region} ${rng.pick(['Innovation Fund', 'Economic Development Agency', 'Technology Fund', 'Venture Fund', 'Enterprise Agency'])}`;
      return `${place.city} ${rng.pick(['Innovation Fund', 'Seed Fund', 'Economic Development Corporation', 'Startup Fund'])}`;
    }
    case 'angel':
    case 'corporate':
      return word();
  }
}

function investorDescription(
  rng: Rng,
  type: InvestorType,
  name: string,
  focus: readonly string[],
  stages: readonly string[],
  check: { min: number; max: number } | null,
  place: Place,
  country: CountryInfo,
  extra: { parent?: string; background?: string; surname?: string; weeks?: number },
): string {
  const focusText = listPhrase(focus.slice(0, 4));
  const stageText = listPhrase(stages);
  const phrase = stagePhrase(stages);
  const checks = check ? `${usd(check.min)} to ${usd(check.max)}` : '';
  const where = `${place.city}, ${country.code === 'HK' ? 'Hong Kong' : country.name}`;
  const opt = (text: string) => (check ? text : '');
  const stageWord = stages.length > 1 ? 'stages' : 'stage';
  const roll = rng.next();
  switch (type) {
    case 'vc':
      if (roll < 0.3)
        return `${name} is ${article(phrase)} ${phrase} venture capital firm investing in ${focusText}. Based in ${where}, the firm typically ${check ? `writes checks of ${checks} in` : 'participates in'} ${stageText} rounds.`;
      if (roll < 0.55)
        return `${capitalize(phrase)} VC firm backing founders building in ${focusText}. Invests in ${stageText} rounds${opt(` with checks from ${checks}`)}.`;
      if (roll < 0.8)
        return `Venture firm partnering with ${phrase} companies in ${focusText}. ${name} leads and co-leads ${stageText} rounds from its base in ${place.city}.`;
      return `${name} backs exceptional founders at the ${stageText} ${stageWord} across ${focusText}${opt(`, typically investing ${checks} per company`)}.`;
    case 'angel':
      if (roll < 0.4)
        return `Angel investor and ${extra.background ?? 'operator'}. Invests in ${stageText} companies in ${focusText}${opt(`, typically writing checks of ${checks}`)}.`;
      if (roll < 0.7)
        return `Operator-turned-angel (${extra.background ?? 'founder'}) backing ${phrase} founders building in ${focusText} from ${place.city}.`;
      return `Serial entrepreneur and angel investor focused on ${focusText} at the ${stageText} ${stageWord}.${opt(` Checks of ${checks}.`)}`;
    case 'pe':
      if (roll < 0.5)
        return `${name} is a private equity firm focused on ${phrase} investments in ${focusText} businesses${opt(`, with equity investments of ${checks}`)}.`;
      return `${rng.pick(['Middle-market', 'Lower middle-market', 'Global', 'Growth-oriented'])} private equity firm headquartered in ${where}, partnering with management teams in ${focusText}.${opt(` Invests ${checks} per transaction.`)}`;
    case 'corporate':
      if (roll < 0.5)
        return `The corporate venture capital arm of ${extra.parent ?? name}, investing in ${stageText} startups in ${focusText} that complement its core business.`;
      return `Strategic investor backing ${focusText} companies from ${stageText}, offering portfolio companies access to ${extra.parent ?? name}'s customers, data and distribution.${opt(` Typical checks of ${checks}.`)}`;
    case 'accelerator':
      if (roll < 0.55)
        return `${extra.weeks ?? 12}-week accelerator program for ${phrase} startups in ${focusText}.${opt(` Invests ${checks} per company alongside mentorship and a demo day.`)}`;
      return `Startup accelerator based in ${where} supporting ${stageText} founders building in ${focusText}${opt(`, with initial investments of ${checks}`)}.`;
    case 'family_office':
      if (roll < 0.5 && extra.surname)
        return `Single-family office of the ${extra.surname} family, investing directly in ${stageText} companies in ${focusText} alongside real estate and public markets.`;
      return `Multi-generational family office based in ${place.city} making long-term minority investments in ${focusText}${opt(`, typically ${checks}`)}.`;
    case 'fund':
      if (roll < 0.5)
        return `${name} invests in ${stageText} companies across ${focusText}, targeting businesses with proven product-market fit${opt(` and checks of ${checks}`)}.`;
      return `${capitalize(phrase)} fund providing capital to ${focusText} companies in ${inCountry(country)} and beyond.`;
    case 'government':
      if (roll < 0.5)
        return `Government-backed fund supporting ${phrase} innovation in ${focusText} across ${inCountry(country)}.`;
      return `Public agency that co-invests alongside private investors in ${country.short}-based ${stageText} startups working on ${focusText}${opt(`, with investments of ${checks}`)}.`;
  }
}

export function* generateInvestors(seed: number, count: number, now: Date): Generator<InvestorRecord> {
  const rng = new Rng(mersenneRandomizer(seed, STREAM.investors));
  const pools = buildInvestorPools(seed);
  const nowMs = now.getTime();
  const nowYear = now.getUTCFullYear();
  const names = new Set<string>();
  const domains = new Set<string>();
  const linkedinSlugs = new Set<string>();
  const handles = new Set<string>();

  for (let i = 0; i < count; i++) {
    const id = rng.uuid();
    const type = INVESTOR_TYPE_TABLE.pick(rng);
    const country = COUNTRY_TABLE.pick(rng);
    const place = country.places.pick(rng);
    const city = rng.next() < 0.03 ? null : place.city;
    const state = country.states ? place.region : city !== null && rng.next() < 0.35 ? place.region : null;

    const stages = [...STAGE_TABLES[type].pick(rng)];
    const extra: { parent?: string; background?: string; surname?: string; weeks?: number } = {};
    let person: PersonName | undefined;
    let focusBias: readonly string[] = [];
    let name: string;
    if (type === 'angel') {
      let drawn = drawPersonName(rng, pools.groups);
      name = uniqueName(
        names,
        () => {
          drawn = drawPersonName(rng, pools.groups);
          return drawn.full;
        },
        ['Jr.'],
        rng,
      );
      person = drawn;
      extra.background = `${rng.pick(ANGEL_BACKGROUNDS)} at ${rng.pick(pools.startups)}`;
    } else if (type === 'corporate') {
      const [sector, favoured] = rng.pick(CORPORATE_SECTORS);
      focusBias = favoured;
      name = uniqueName(
        names,
        () => {
          const parent = sector ? `${brandWord(rng)} ${sector}` : brandWord(rng);
          extra.parent = parent;
          const roll = rng.next();
          if (roll < 0.5) return `${parent} Ventures`;
          if (roll < 0.68) return `${parent} Corporate Ventures`;
          if (roll < 0.78) return `${parent} Capital`;
          if (roll < 0.86) return `${parent} Digital Ventures`;
          if (roll < 0.93) return `${parent} Venture Capital`;
          return `${parent} Technology Ventures`;
        },
        FIRM_QUALIFIERS,
        rng,
      );
    } else {
      name = uniqueName(names, () => investorName(rng, type, pools, country, place, stages), FIRM_QUALIFIERS, rng);
      const family = /^(\S+) (Family|Private) /.exec(name)?.[1];
      if (type === 'family_office' && family && pools.surnameSet.has(family)) extra.surname = family;
      if (type === 'accelerator') extra.weeks = rng.pick([8, 10, 12, 12, 12, 13, 16, 24]);
    }

    // Thesis
    const focusCount = type === 'angel' ? rng.int(1, 4) : type === 'pe' ? rng.int(2, 5) : rng.int(2, 6);
    const focus =
      focusBias.length > 0
        ? pickDistinct(
            rng,
            focusBias.map((f) => [f, 1] as const),
            Math.min(focusCount, rng.int(1, 3)),
          )
        : [];
    for (const f of pickDistinct(rng, FOCUS_BY_TYPE[type], focusCount))
      if (!focus.includes(f) && focus.length < focusCount) focus.push(f);
    const check = type !== 'angel' && type !== 'accelerator' && rng.next() < 0.06 ? null : checkSizeFor(rng, type, stages);
    const aum = aumFor(rng, type, stages, check);

    // Firm profile
    let foundedYear: number | null;
    const yearsBack = (span: number, power: number) => nowYear - 1 - Math.floor(span * Math.pow(rng.next(), power));
    switch (type) {
      case 'angel':
        foundedYear = rng.next() < 0.7 ? null : yearsBack(18, 1.3);
        break;
      case 'pe':
        foundedYear = yearsBack(50, 1.4);
        break;
      case 'government':
      case 'family_office':
        foundedYear = yearsBack(60, 1.6);
        break;
      case 'corporate':
        foundedYear = yearsBack(30, 1.6);
        break;
      default:
        foundedYear = yearsBack(52, 2.2);
    }
    if (foundedYear !== null && rng.next() < 0.04) foundedYear = null;

    let teamSize: number | null;
    if (type === 'angel') teamSize = 1;
    else if (aum !== null) {
      const base = Math.max(0, Math.log10(aum) - 7);
      const scale = type === 'pe' ? 28 : type === 'family_office' ? 6 : 12;
      teamSize = Math.max(2, Math.round((2 + Math.pow(base, 1.6) * scale) * rng.float(0.6, 1.4)));
    } else teamSize = rng.next() < 0.1 ? null : rng.int(type === 'accelerator' ? 3 : 2, 40);

    const age = foundedYear === null ? rng.int(2, 12) : Math.max(1, nowYear - foundedYear);
    const dealsPerYear: Record<InvestorType, readonly [number, number]> = {
      vc: stages.includes('Pre-Seed') || stages.includes('Seed') ? [3, 20] : [1.5, 9],
      angel: [1, 8],
      pe: [0.5, 4],
      corporate: [1, 8],
      accelerator: [8, 60],
      family_office: [0.5, 5],
      fund: [1, 8],
      government: [3, 30],
    };
    const [dMin, dMax] = dealsPerYear[type];
    const portfolioCompaniesCount = rng.next() < 0.08 ? null : Math.max(1, Math.round(Math.min(age, 25) * rng.float(dMin, dMax)));

    const notableCount = Math.min(portfolioCompaniesCount ?? 3, type === 'angel' ? rng.int(0, 4) : rng.int(0, 6));
    const notableInvestments = pickDistinct(
      rng,
      Array.from({ length: notableCount * 3 }, () => [rng.pick(pools.startups), 1] as const),
      notableCount,
      (item, chosen) => !chosen.includes(item),
    );

    // Activity and freshness
    const activelyInvesting = rng.next() < (type === 'government' || type === 'angel' ? 0.82 : 0.88);
    const lastUpdatedMs = recentMs(rng, nowMs, 730, 2);
    let lastInvestmentMs: number | null;
    if (activelyInvesting)
      lastInvestmentMs = rng.next() < 0.02 ? null : lastUpdatedMs - DAY * (1 + Math.floor(200 * Math.pow(rng.next(), 2.5)));
    else lastInvestmentMs = rng.next() < 0.6 ? null : lastUpdatedMs - DAY * rng.int(400, 1800);
    if (lastInvestmentMs !== null && foundedYear !== null) {
      const investedYear = new Date(lastInvestmentMs).getUTCFullYear();
      if (investedYear < foundedYear) foundedYear = investedYear - rng.int(0, 3);
    }

    // Web presence
    const nameSlug = urlSlug(name, '');
    let website: string;
    if (type === 'angel' && person) {
      website =
        rng.next() < 0.5
          ? `https://wellfound.com/u/${uniqueSlug(domains, person.slug)}`
          : `https://www.${uniqueSlug(domains, person.slug.replace(/-/g, ''))}.com`;
    } else {
      let domain = nameSlug;
      const core = urlSlug(name.replace(/\b(Capital|Ventures|Venture|Partners|VC|Equity)\b.*$/i, ''), '');
      const roll = rng.next();
      if (core && core !== nameSlug && roll < 0.12 && (type === 'vc' || type === 'corporate')) domain = `${core}.vc`;
      else if (core && core !== nameSlug && roll < 0.22 && / Capital/.test(name)) domain = `${core}cap`;
      if (!domain.includes('.')) domain = uniqueSlug(domains, domain);
      else if (domains.has(domain)) domain = uniqueSlug(domains, nameSlug);
      else domains.add(domain);
      website = domain.endsWith('.vc') ? `https://www.${domain}` : websiteFor(rng, domain, country, false);
    }
    const linkedinUrl =
      rng.next() < (type === 'angel' ? 0.1 : 0.05)
        ? null
        : type === 'angel' && person
          ? `https://www.linkedin.com/in/${uniqueSlug(linkedinSlugs, person.slug)}`
          : `https://www.linkedin.com/company/${uniqueSlug(linkedinSlugs, urlSlug(name))}`;
    const twitterNull = type === 'angel' ? 0.4 : type === 'government' || type === 'family_office' ? 0.55 : 0.18;
    let twitterUrl: string | null = null;
    if (rng.next() >= twitterNull) {
      const handleBase = (person ? person.slug.replace(/-/g, '') : nameSlug).slice(0, 13);
      twitterUrl = `https://twitter.com/${uniqueSlug(handles, handleBase, '')}`;
    }

    const description = investorDescription(rng, type, name, focus, stages, check, place, country, extra);

    yield {
      id,
      name,
      investorType: type,
      country: country.name,
      city,
      state,
      description,
      website,
      linkedinUrl,
      twitterUrl,
      foundedYear,
      teamSize,
      aum,
      investmentFocus: focus,
      investmentStage: stages,
      typicalCheckSize: check,
      portfolioCompaniesCount,
      notableInvestments,
      activelyInvesting,
      lastInvestmentDate: lastInvestmentMs === null ? null : isoDay(lastInvestmentMs),
      lastUpdated: isoSeconds(lastUpdatedMs),
    };
  }
}

// ---------------------------------------------------------------------------------------------
// Job changes
// ---------------------------------------------------------------------------------------------

let roleTableCache: Weighted<string> | undefined;

function roleTable(): Weighted<string> {
  if (roleTableCache) return roleTableCache;
  const weights = new Map<string, number>();
  for (const [familyWeight, variants] of ROLE_FAMILIES) {
    const decay = variants.map((_, i) => 1 / Math.pow(i + 1, 0.9));
    const sum = decay.reduce((a, b) => a + b, 0);
    variants.forEach((variant, i) =>
      weights.set(variant, (weights.get(variant) ?? 0) + (familyWeight * (decay[i] as number)) / sum),
    );
  }
  roleTableCache = new Weighted([...weights.entries()]);
  return roleTableCache;
}

function oddCasing(rng: Rng, role: string): string {
  const roll = rng.next();
  if (roll < 0.6) return role.toLowerCase();
  if (roll < 0.8) return role.toUpperCase();
  return role.replace(/[A-Za-z]+/g, (w) => w.charAt(0).toUpperCase() + w.slice(1).toLowerCase());
}

/** Employers outside the population: the previous employers of some job changes. */
interface CompanyPool {
  names: readonly string[];
  table: Weighted<number>;
}

const JOB_COMPANY_POOL_SIZE = 20_000;

function buildCompanyPool(seed: number): CompanyPool {
  const rng = new Rng(mersenneRandomizer(seed, STREAM.jobChangePools));
  const surnames = firmSurnames();
  const taken = new Set<string>();
  const names: string[] = [];
  let guard = 0;
  while (names.length < JOB_COMPANY_POOL_SIZE && guard++ < JOB_COMPANY_POOL_SIZE * 20) {
    let name = companyName(rng, surnames);
    if (!name.includes('.') && rng.next() < 0.08) name += rng.pick([' Inc.', ' Inc', ' LLC', ' Ltd', ' GmbH', ' Corp.']);
    const key = withoutLegalSuffix(name).toLowerCase();
    if (taken.has(key)) continue;
    taken.add(key);
    if (!urlSlug(withoutLegalSuffix(name))) continue;
    names.push(name);
  }
  // Employer popularity is heavy-tailed: a few large companies hire constantly, most rarely.
  const table = new Weighted(names.map((_, i) => [i, 1 / Math.pow(i + 1, 0.6)] as const));
  return { names, table };
}

interface KnownPerson {
  name: string;
  url: string;
  company: number;
  occurredMs: number;
}

/** Share of job changes whose previous employer (when named) is a company of the population, not one of the run's pool. */
const PREVIOUS_FROM_POPULATION = 0.6;

/**
 * `count` job changes, lazily; deterministic in (seed, count, now, population) and prefix-stable.
 * The new employers are the population's companies with a LinkedIn page (by default a small
 * population of the seed's own), the more active and the larger ones more often; so are most of
 * the previous employers, the others coming from a pool of the run's own.
 */
export function* generateJobChanges(
  seed: number,
  count: number,
  now: Date,
  population: CompanyPopulation = defaultPopulation(seed, now),
): Generator<JobChangeRecord> {
  const rng = new Rng(mersenneRandomizer(seed, STREAM.jobChanges));
  const companies = buildCompanyPool(seed);
  const picks = new Rng(mersenneRandomizer(seed, STREAM.jobChangeCompanies));
  const employers = population.sampler((i) =>
    population.linkedinUrl(i) === null ? 0 : Math.sqrt(population.employeeCount(i) ?? 20),
  );
  /** A previous employer: a population index (>= 0) or -1 - an index of the run's pool. */
  const previousEmployer = (company: number): number => {
    if (rng.next() < PREVIOUS_FROM_POPULATION) {
      let previous = employers.pick(rng);
      while (previous === company && employers.size > 1) previous = employers.pick(rng);
      return previous;
    }
    return -1 - companies.table.pick(rng);
  };
  const employerName = (employer: number): string =>
    employer >= 0 ? population.name(employer) : (companies.names[-1 - employer] as string);
  const roles = roleTable();
  const groups = nameGroups();
  const nowMs = now.getTime();
  const spanMs = (3 * 365 - 1) * DAY;
  const windowStart = nowMs - 3 * 365 * DAY;
  // Profile URLs carry a 6-hex suffix that is a bijection of the person number, so they never repeat
  // (for up to 16.7M distinct people per call).
  const hexMask = new Rng(mersenneRandomizer(seed, STREAM.jobChangePools + 1)).int(0, 0xffffff);
  const recent: KnownPerson[] = [];
  const RECENT_SIZE = 4096;
  let people = 0;

  for (let i = 0; i < count; i++) {
    const signalId = rng.uuid();

    // When it happened: denser towards now; often day- or month-precision like profile dates.
    let occurredMs = nowMs - HOUR - spanMs * Math.pow(rng.next(), 1.6);
    const precision = rng.next();
    if (precision < 0.45) occurredMs = Math.floor(occurredMs / DAY) * DAY;
    else if (precision < 0.7) {
      const d = new Date(occurredMs);
      const monthStart = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
      occurredMs = monthStart >= windowStart ? monthStart : Math.floor(occurredMs / DAY) * DAY;
    } else occurredMs = Math.floor(occurredMs / 1000) * 1000;

    // Who: mostly new people, sometimes someone seen earlier moving on again.
    let person: KnownPerson | undefined;
    let previous: number | null;
    if (recent.length > 64 && rng.next() < 0.07) {
      const slot = rng.int(0, recent.length - 1);
      const known = recent[slot] as KnownPerson;
      const later = known.occurredMs + DAY * rng.int(60, 900);
      if (later <= nowMs - HOUR) {
        occurredMs = Math.floor(later / DAY) * DAY;
        person = known;
      }
    }
    let company = employers.pick(picks);
    if (person) {
      previous = person.company;
      while (company === previous && employers.size > 1) company = employers.pick(rng);
      person.company = company;
      person.occurredMs = occurredMs;
    } else {
      const name = drawPersonName(rng, groups);
      const hex = (((people * 0x9e3779 + 0x5bd1e9) % 0x1000000) ^ hexMask).toString(16).padStart(6, '0');
      people++;
      const url = `https://www.linkedin.com/in/${name.slug}-${hex}`;
      previous = rng.next() < 0.15 ? null : previousEmployer(company);
      person = { name: name.full, url, company, occurredMs };
      if (recent.length < RECENT_SIZE) recent.push(person);
      else recent[rng.int(0, RECENT_SIZE - 1)] = person;
    }

    // When it was noticed: hours to a month later, never in the future.
    const lagRoll = rng.next();
    const lag = lagRoll < 0.55 ? HOUR * rng.float(1, 48) : lagRoll < 0.9 ? DAY * rng.float(2, 10) : DAY * rng.float(10, 30);
    let discoveredMs = occurredMs + lag;
    if (discoveredMs > nowMs) discoveredMs = occurredMs + (nowMs - occurredMs) * rng.float(0.2, 1);

    const companyName = population.name(company);
    let newRole = roles.pick(rng);
    const quirk = rng.next();
    if (quirk < 0.02) newRole = `${newRole} @ ${companyName}`;
    else if (quirk < 0.027) newRole = `${newRole} at ${companyName}`;
    else if (quirk < 0.035) newRole = `${newRole} | ${rng.pick(ROLE_TAGLINES)}`;
    else if (quirk < 0.05) newRole = oddCasing(rng, newRole);

    yield {
      signalId,
      personName: person.name,
      personLinkedinUrl: person.url,
      signalType: 'job_change',
      occurredAt: isoSeconds(occurredMs),
      discoveredAt: isoSeconds(discoveredMs),
      companyName,
      companyLinkedinUrl: population.linkedinUrl(company) as string,
      newRole,
      previousCompanyName: previous === null ? null : employerName(previous),
    };
  }
}

// ---------------------------------------------------------------------------------------------
// Acquisition signals
// ---------------------------------------------------------------------------------------------

export interface Industry {
  name: string;
  category: string;
  weight: number;
  /** Revenue per employee, USD (median). */
  revenuePerEmployee: number;
  products: readonly string[];
  audiences: readonly string[];
  descriptors: readonly string[];
  techy: boolean;
}

export const INDUSTRIES: readonly Industry[] = INDUSTRY_DATA.map(
  ([name, category, weight, rpe, products, audiences, descriptors]) => ({
    name,
    category,
    weight,
    revenuePerEmployee: rpe * 1000,
    products: products.split('|'),
    audiences: audiences.split('|'),
    descriptors: descriptors.split('|'),
    techy:
      category === 'Technology' ||
      name.includes('Technology') ||
      name === 'Artificial Intelligence' ||
      name === 'E-Learning Providers',
  }),
);

const INDUSTRY_TABLE = new Weighted(INDUSTRIES.map((industry) => [industry, industry.weight] as const));

const INDICATOR_WEIGHT = new Map(SIGNAL_INDICATORS.map(([name, weight]) => [name, weight]));
const INDICATOR_ENTRIES = SIGNAL_INDICATORS.map(([name, , prevalence]) => [name, prevalence] as const);

function compatible(item: string, chosen: readonly string[]): boolean {
  for (const [a, b] of CONFLICTS) {
    if ((item === a && chosen.includes(b)) || (item === b && chosen.includes(a))) return false;
  }
  return true;
}

const INDICATOR_COUNT = new Weighted(INDICATOR_COUNT_MIX);

function revenueBand(revenue: number): string {
  if (revenue < 5e6) return '1M-5M';
  if (revenue < 1e7) return '5M-10M';
  if (revenue < 5e7) return '10M-50M';
  if (revenue < 1e8) return '50M-100M';
  return '100M+';
}

function acquisitionDescription(
  rng: Rng,
  name: string,
  industry: Industry,
  country: CountryInfo,
  foundedYear: number,
  employees: number,
): string {
  const product = rng.pick(industry.products);
  const audience = rng.pick(industry.audiences);
  const short = withoutLegalSuffix(name);
  const roll = rng.next();
  if (roll < 0.22) return `Leading provider of ${product} for ${audience}.`;
  if (roll < 0.42) return `${short} ${rng.pick(['provides', 'delivers', 'offers'])} ${product} for ${audience}.`;
  if (roll < 0.6)
    return `Founded in ${foundedYear}, ${short} offers ${product} to ${audience} across ${country.code === 'US' ? 'North America' : inCountry(country)}.`;
  if (roll < 0.76)
    return `${capitalize(rng.pick(['innovative', 'fast-growing', 'independent', 'established', 'specialist']))} ${industry.category.toLowerCase()} company focused on ${product} for ${audience}.`;
  if (roll < 0.9)
    return `${short} helps ${audience} with ${product}. Headquartered in ${inCountry(country)} with a team of ${employees >= 1000 ? 'over 1,000' : employees >= 100 ? `${Math.floor(employees / 50) * 50}+` : 'fewer than 100'} people.`;
  return `${country.demonym} ${industry.name.toLowerCase()} company providing ${product} to ${audience}.`;
}

/** The v2 industries standing in for the company industries' own vocabularies that have none. */
const EXTRA_VOCABULARY_INDUSTRIES: Record<string, string> = {
  blockchain: 'Software Development',
  accounting: 'Business Consulting and Services',
  events: 'Media Production',
  nonprofit: 'Education Administration Programs',
  government: 'Business Consulting and Services',
  entertainment: 'Media Production',
  sports: 'Media Production',
  mining: 'Oil and Gas',
  architecture: 'Construction',
  wellness: 'Hospitals and Health Care',
  engineering: 'Industrial Machinery Manufacturing',
};

let industryByLabelCache: Map<string, Industry> | undefined;

/**
 * The v2 industry (category, revenue per employee, description material) of a company industry
 * label. Built on first use: this module and the company generator's import each other.
 */
function industryByLabel(): Map<string, Industry> {
  if (industryByLabelCache) return industryByLabelCache;
  const byName = new Map(INDUSTRIES.map((industry) => [industry.name, industry]));
  industryByLabelCache = new Map();
  for (const [label, { vocabulary }] of COMPANY_INDUSTRY_LABELS) {
    const industry = byName.get(vocabulary) ?? byName.get(EXTRA_VOCABULARY_INDUSTRIES[vocabulary] ?? '');
    if (industry) industryByLabelCache.set(label, industry);
  }
  return industryByLabelCache;
}

const COUNTRY_BY_CODE = new Map(COUNTRIES.map((country) => [country.code, country]));

/** Draws before a signal gives up looking for a company without one and takes a repeat. */
const DISTINCT_TRIES = 40;

/**
 * `count` acquisition signals, lazily; deterministic in (seed, count, now, population) and
 * prefix-stable. Their companies are the population's (by default a small one of the seed's own)
 * with a known country and 10 to 5,000 employees, the more active ones first: a company gets one
 * signal, or a repeat once most of the likely ones have theirs.
 */
export function* generateAcquisitionSignals(
  seed: number,
  count: number,
  now: Date,
  population: CompanyPopulation = defaultPopulation(seed, now),
): Generator<AcquisitionSignalRecord> {
  const rng = new Rng(mersenneRandomizer(seed, STREAM.acquisitions));
  const nowMs = now.getTime();
  const nowYear = now.getUTCFullYear();
  const industries = industryByLabel();
  const targets = population.sampler((i) => {
    const code = population.country(i);
    const employees = population.employeeCount(i);
    return code !== null && COUNTRY_BY_CODE.has(code) && employees !== null && employees >= 10 && employees <= 5000 ? 1 : 0;
  });
  const signalled = new Set<number>();
  const picks = new Rng(mersenneRandomizer(seed, STREAM.acquisitionCompanies));

  for (let i = 0; i < count; i++) {
    const id = rng.uuid();
    let index = targets.pick(picks);
    for (let tries = 1; signalled.has(index) && tries < DISTINCT_TRIES; tries++) index = targets.pick(picks);
    signalled.add(index);

    const label = population.industry(index);
    const industry = (label === null ? undefined : industries.get(label)) ?? INDUSTRY_TABLE.pick(rng);
    const country = COUNTRY_BY_CODE.get(population.country(index) as string) as CountryInfo;
    const displayName = population.name(index);
    const employeeCount = population.employeeCount(index) as number;
    const revenue = employeeCount * industry.revenuePerEmployee * Math.exp(0.35 * rng.normal());
    let foundedYear = population.foundedYear(index);
    if (foundedYear === null) {
      const sizeFactor = Math.log(employeeCount / 10) / Math.log(500);
      const age = Math.max(1, Math.round((2 + sizeFactor * 22) * Math.exp(0.45 * rng.normal())));
      foundedYear = Math.max(1950, nowYear - Math.min(age, 70));
    }

    // Signals, and a score that follows their combined strength.
    const k = INDICATOR_COUNT.pick(rng);
    const signalIndicators = pickDistinct(rng, INDICATOR_ENTRIES, k, (item, chosen) => {
      if (!compatible(item, chosen)) return false;
      if (item === 'Founder succession planning' && nowYear - (foundedYear as number) < 15) return false;
      return true;
    });
    let strength = 0;
    for (const indicator of signalIndicators) strength += INDICATOR_WEIGHT.get(indicator) ?? 0;
    const rawScore = 100 * (1 - Math.exp(-(strength + 6) / 30)) + rng.triangular(7);
    const bounded = Math.min(100, Math.max(0, rawScore));
    const acquisitionSignalScore = rng.next() < 0.5 ? Math.round(bounded) : Math.round(bounded * 10) / 10;

    const description =
      population.description(index) ?? acquisitionDescription(rng, displayName, industry, country, foundedYear, employeeCount);
    const lastUpdatedMs = recentMs(rng, nowMs, 730, 2);

    yield {
      id,
      companyName: displayName,
      industry: label ?? industry.name,
      country: country.name,
      category: industry.category,
      website: population.website(index),
      linkedinUrl: population.linkedinUrl(index),
      employeeCount,
      revenue: revenueBand(revenue),
      foundedYear,
      description,
      acquisitionSignalScore,
      signalIndicators,
      lastUpdated: isoSeconds(lastUpdatedMs),
    };
  }
}
