// The People query as a filter: every rule the schema cannot state, with the published messages
// ("Invalid seniority value: exec. Accepted values: …"), values normalised as the directory keeps them.
import {
  classifyRole,
  companyIdentifiers,
  countryKeys,
  DEPARTMENTS,
  excludedCountryKeys,
  invalidParameter,
  labelKey,
  searchWords,
  SENIORITIES,
  splitList,
  urlKey,
} from '../catalog/index.js';
import { PERSON_SIGNAL_TYPES, SIZE_BANDS, type PeopleQuery, type PersonSignalType } from './schemas.js';

export interface PeopleFilter {
  /** Title keys (titleKeys of each asked title): any of them. */
  titleKeys: string[];
  functions: string[];
  seniorities: string[];
  countryKeys: string[];
  excludedCountryKeys: string[];
  /** Lower-cased city text; set means the filter is on. */
  city?: string;
  sizeBands: string[];
  industryKeys: string[];
  personKey?: string;
  domainKeys?: string[];
  linkedinKeys?: string[];
  /** The signal types matched_signal is chosen from (all three when the query names none). */
  signalTypes: PersonSignalType[];
  /** Signals on or after this time (ms); undefined: all time. */
  since?: number;
  page: number;
  limit: number;
  count: boolean;
}

/** Longest run of a title's words the directory keys: a longer asked title matches titles of just its words (and its role). */
export const MAX_PHRASE_WORDS = 4;

/**
 * The keys a title is matched by: its words as a phrase, and `pos:<position>` when the role
 * taxonomy names its position. Asked titles are reduced the same way, so "Chief Technology
 * Officer" and "CTO" meet at "pos:cto" and "COO" never meets "Coordinator".
 */
export function askedTitleKeys(title: string): string[] {
  const keys: string[] = [];
  const words = searchWords(title);
  if (words.length > 0) keys.push(words.join(' '));
  const { position } = classifyRole(title);
  if (position !== null) keys.push(`pos:${position}`);
  return keys;
}

/**
 * The keys a held title is found by: every run of up to MAX_PHRASE_WORDS consecutive words, and its
 * position. Words after "to" are someone else's role ("Assistant to the CEO"): no phrase reaches them.
 */
export function heldTitleKeys(title: string | null): string[] {
  if (title === null) return [];
  const all = searchWords(title);
  const to = all.indexOf('to');
  const words = to < 0 ? all : all.slice(0, to);
  // The whole title too: an asked title longer than any run matches the titles of exactly its words.
  const keys = new Set<string>(all.length > 0 ? [all.join(' ')] : []);
  for (let start = 0; start < words.length; start++) {
    for (let end = start + 1; end <= Math.min(words.length, start + MAX_PHRASE_WORDS); end++) {
      keys.add(words.slice(start, end).join(' '));
    }
  }
  const { position } = classifyRole(title);
  if (position !== null) keys.add(`pos:${position}`);
  return [...keys];
}

/** A published list parameter: each value one of `allowed`, any case; else the published 400. */
function publishedValues<T extends string>(name: string, label: string, raw: string | undefined, allowed: readonly T[]): T[] {
  const chosen = new Set<T>();
  for (const value of splitList(raw)) {
    const key = labelKey(value) as T;
    if (!allowed.includes(key)) {
      throw invalidParameter(`Invalid ${label} value: ${value}. Accepted values: ${allowed.join(', ')}.`, name);
    }
    chosen.add(key);
  }
  return [...chosen];
}

const DAY_MS = 86_400_000;
const RANGE = /^(\d{1,4})([dwmy])$/;
/** The longest window: a hundred years, far past any record, short of an unbounded date. */
const MAX_RANGE_DAYS = 36_525;

/** `signal_date_range` as the first instant of the window, counted back from `now`. */
export function windowStart(raw: string, now: Date): number {
  const match = RANGE.exec(raw.trim().toLowerCase());
  const n = match ? Number(match[1]) : 0;
  const unit = match?.[2];
  const days = unit === 'd' ? n : unit === 'w' ? n * 7 : unit === 'm' ? n * 30.44 : n * 365.25;
  if (!match || n < 1 || days > MAX_RANGE_DAYS) {
    throw invalidParameter(
      `Invalid signal_date_range value: ${raw}. Expected <n><unit> with unit d, w, m or y (e.g. 30d, 6m, 2y), at most 100 years.`,
      'signal_date_range',
    );
  }
  const start = new Date(now.getTime());
  if (unit === 'm') start.setUTCMonth(start.getUTCMonth() - n);
  else if (unit === 'y') start.setUTCFullYear(start.getUTCFullYear() - n);
  else start.setTime(now.getTime() - (unit === 'w' ? n * 7 : n) * DAY_MS);
  return start.getTime();
}

const PERSON_PROFILE = /^(?:[a-z]{2,3}\.)?linkedin\.com\/(?:in|pub)\/[^\s]+$/;

export function peopleFilter(query: PeopleQuery, now: Date): PeopleFilter {
  if (query.include_former !== undefined && labelKey(query.include_former) !== 'false') {
    throw invalidParameter(
      'Invalid include_former value: only false is supported (people are served in their current role).',
      'include_former',
    );
  }
  const titles = splitList(query.title);
  const titleKeys = [...new Set(titles.flatMap(askedTitleKeys))];
  if (titles.length > 0 && titleKeys.length === 0) {
    throw invalidParameter(`Invalid title value: ${query.title}. A title needs a letter or a digit.`, 'title');
  }
  let personKey: string | undefined;
  if (query.linkedin_url !== undefined) {
    const key = urlKey(query.linkedin_url);
    if (key === null || !PERSON_PROFILE.test(key)) {
      throw invalidParameter(
        `Invalid linkedin_url value: ${query.linkedin_url}. Expected a LinkedIn profile URL (linkedin.com/in/…); send a company page as company_linkedin_url.`,
        'linkedin_url',
      );
    }
    personKey = key;
  }
  const identifiers = companyIdentifiers({
    company_domain: query.company_domain,
    company_linkedin_url: query.company_linkedin_url,
  });
  const lookup = personKey !== undefined || identifiers.domainKeys !== undefined || identifiers.linkedinKeys !== undefined;
  const range = query.signal_date_range ?? (lookup ? undefined : '12m');
  const types = publishedValues('signal_type', 'signal_type', query.signal_type, PERSON_SIGNAL_TYPES);
  const city = query.city?.trim().toLowerCase();
  return {
    titleKeys,
    functions: publishedValues('function', 'function', query.function, DEPARTMENTS),
    seniorities: publishedValues('seniority', 'seniority', query.seniority, SENIORITIES),
    countryKeys: query.country === undefined ? [] : countryKeysOf('country', query.country),
    excludedCountryKeys: excludedCountryKeys(query.exclude_countries),
    ...(city !== undefined && city !== '' && { city }),
    sizeBands: publishedValues('company_size', 'company_size', query.company_size, SIZE_BANDS),
    industryKeys: [...new Set(splitList(query.industry).map(labelKey))],
    ...(personKey !== undefined && { personKey }),
    ...identifiers,
    signalTypes: types.length > 0 ? types : [...PERSON_SIGNAL_TYPES],
    ...(range !== undefined && { since: windowStart(range, now) }),
    page: query.page ?? 1,
    limit: query.limit ?? 100,
    count: query.count === true,
  };
}

/** `country`, named as this endpoint names it in its 400s. */
function countryKeysOf(name: string, raw: string): string[] {
  try {
    return countryKeys(raw);
  } catch {
    throw invalidParameter(`Invalid ${name} value: ${raw}. Expected ISO 3166-1 alpha-2 country codes (e.g. US,NL).`, name);
  }
}
