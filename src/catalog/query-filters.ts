// query → filter helpers shared by the datasets: the rules the query schemas cannot state.
import { countryCodesOf } from './country-groups.js';
import { countryKey, countryCode, unknownCountryMessage } from './countries.js';
import { invalidParameter } from './errors.js';
import { labelKey, splitList, urlKey } from './normalize.js';
import { searchWords } from './search-words.js';
import type { Condition } from './conditions.js';

const DAY_MS = 86_400_000;

/** Inclusive calendar-date bounds (UTC) as [from, before) timestamps; from after to is a 400. */
export function dateBounds(from: string | undefined, to: string | undefined, names: [string, string]) {
  if (from !== undefined && to !== undefined && from > to) {
    throw invalidParameter(`${names[0]} (${from}) must not be after ${names[1]} (${to})`, names[0]);
  }
  return {
    from: from === undefined ? undefined : `${from}T00:00:00Z`,
    before: to === undefined ? undefined : new Date(Date.parse(`${to}T00:00:00Z`) + DAY_MS).toISOString(),
  };
}

/** Values of a comma-separated parameter, lower-cased, each checked against the allowed list. */
export function allowedValues(name: string, raw: string | undefined, allowed: readonly string[]): string[] {
  const values = splitList(raw).map(labelKey);
  const unknown = values.filter((v) => !allowed.includes(v));
  if (unknown.length > 0) {
    throw invalidParameter(`${name}: "${unknown[0]}" is not allowed; allowed values: ${allowed.join(', ')}`, name);
  }
  return [...new Set(values)];
}

/**
 * v2 `countries`: countries by the one country rule (src/catalog/countries.ts: alpha-2, alpha-3,
 * English names) and the published country categories (their members), any case, as the
 * lower-case keys stored rows carry.
 */
export function countryKeys(raw: string | undefined): string[] {
  const keys = new Set<string>();
  for (const value of splitList(raw)) {
    const codes = countryCodesOf(value);
    // (The parameter's description lists the categories.)
    if (codes === undefined) throw invalidParameter(unknownCountryMessage('countries', value), 'countries');
    for (const code of codes) keys.add(code.toLowerCase());
  }
  return [...keys];
}

/** v1 `country`: one country by the one country rule, as its stored key. */
export function countryKeyOf(raw: string): string {
  if (countryCode(raw) === undefined) throw invalidParameter(unknownCountryMessage('country', raw), 'country');
  return countryKey(raw)!;
}

/**
 * The words of a text filter (v2 `search`, v1 `acquiring_company`), reduced as indexed text is
 * (src/catalog/search-words.ts: accents and case ignored, split on anything but letters and digits).
 * A record matches when every word is the start of a word of its text. Blank matches everything;
 * text with no letter or digit at all is refused, since it could only match everything or nothing.
 */
export function queryWords(name: string, raw: string | undefined): string[] {
  if (raw === undefined || raw.trim() === '') return [];
  const words = [...new Set(searchWords(raw))];
  if (words.length === 0) throw invalidParameter(`${name}: must contain a letter or a digit`, name);
  if (words.length > 10) throw invalidParameter(`${name}: at most 10 words`, name);
  return words;
}

/** One word-prefix condition per query word, on a column of text stored by searchText. */
export const wordConditions = <Row>(column: keyof Row & string, words: readonly string[]): Condition<Row>[] =>
  words.map((word) => ({ column, op: 'wordPrefix', word }));

/** Text stored for word-prefix search: its words, reduced as queryWords reduces them, joined by spaces. */
export const searchText = (parts: (string | null | undefined)[]) =>
  searchWords(parts.filter((p): p is string => typeof p === 'string').join(' ')).join(' ');

/** A URL filter's key; a value that normalises to nothing matches nothing. */
export const urlFilterKey = (raw: string) => urlKey(raw) ?? '';

export const DEFAULT_SIGNAL_LIMIT = 20;

/** A v2 page: `page` (1-based) of `limit` records, or count mode (the total only). */
export const signalPaging = (query: { page?: number; limit?: number; count?: boolean }) => ({
  page: query.page ?? 1,
  limit: query.limit ?? DEFAULT_SIGNAL_LIMIT,
  count: query.count === true,
});
