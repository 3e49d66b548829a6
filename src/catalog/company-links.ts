// Company links: how a record names the companies it is about (its mentions), and the keys a
// mention is resolved on. A dataset declares its links (DatasetSpec.links); src/companies
// resolves each mention to one company when the record is written and keeps the company's id in
// the row (a filter column) and in the served record (a field appended to its document).
import { countryCode } from './countries.js';
import { urlKey } from './normalize.js';
import { searchWords } from './search-words.js';
import type { CompanyRecord } from './schemas/v2-schemas.js';

/** What a record says about one company it names. Only `name` is needed; the rest fills a new company. */
export interface CompanyMention {
  name: string | null;
  website?: string | null;
  linkedinUrl?: string | null;
  /** Any spelling the country rule reads (code, alpha-3, English name). */
  country?: string | null;
  industry?: string | null;
  employeeCount?: number | null;
  foundedYear?: number | null;
  description?: string | null;
  logoUrl?: string | null;
  twitterUrl?: string | null;
}

/**
 * How a link was made: `exact` by the company's website domain or LinkedIn page, `fuzzy` by its
 * normalised name (and country, when the record gives one), `none` when the record names no company.
 */
export type MatchConfidence = 'exact' | 'fuzzy' | 'none';
export const MATCH_CONFIDENCES: readonly MatchConfidence[] = ['exact', 'fuzzy', 'none'];

/** One company a dataset's records name, and where the link is kept. */
export interface CompanyLinkSpec<R> {
  /** The role, in messages and docs ("company", "acquirer", "previous company"). */
  role: string;
  /** The row column that keeps the linked company's id (null: none). */
  column: string;
  /** The served record's fields: the linked company's id, and how it was matched. */
  idField: string;
  matchField: string;
  mention(record: R): CompanyMention | null;
  /**
   * The record with its fields about this company taken from the linked company (the company
   * entity's values, the record's own where the company has none). A dataset whose records carry
   * the company's fields declares it: they are served, and filtered on, as the company's. Applied
   * when the record is written (then prepared again) and by `companies resolve`.
   */
  adopt?(record: R, company: CompanyRecord): R;
}

/** The keys a mention is matched on, in the order they are tried. */
export interface CompanyKeys {
  /** The website as urlKey normalises it (as `company_domain` and the website filters compare it). */
  domain: string | null;
  /** The LinkedIn company page, normalised the same way. */
  linkedin: string | null;
  /** nameKey of the name. */
  name: string | null;
  /** ISO 3166 alpha-2, lower case (the stored country keys' form); null when absent or unknown. */
  country: string | null;
}

// Legal forms left off the end of a name before names are compared ("Acme Inc." is "Acme").
const LEGAL_FORMS = new Set([
  'inc',
  'incorporated',
  'llc',
  'llp',
  'lp',
  'ltd',
  'limited',
  'plc',
  'corp',
  'corporation',
  'co',
  'company',
  'gmbh',
  'ag',
  'kg',
  'se',
  'sa',
  'sas',
  'sarl',
  'srl',
  'spa',
  'bv',
  'nv',
  'oy',
  'oyj',
  'ab',
  'as',
  'asa',
  'aps',
  'pty',
  'pte',
  'kk',
  'sl',
  'sro',
  'zoo',
  'sp',
]);

/**
 * A company name as names are compared: its words (accents and case ignored, split on anything
 * but letters and digits) without trailing legal forms. Null when nothing is left.
 */
export function nameKey(name: string | null | undefined): string | null {
  if (typeof name !== 'string') return null;
  const words = searchWords(name);
  let end = words.length;
  while (end > 1 && LEGAL_FORMS.has(words[end - 1]!)) end--;
  const key = words.slice(0, end).join(' ');
  return key === '' ? null : key;
}

const LINKEDIN_COMPANY = /^(?:[a-z]{2}\.)?linkedin\.com\/company\/[^/\s]+/;

/** The keys of a mention. A LinkedIn URL that is no company page (a person's /in/ page) is not a key. */
export function mentionKeys(mention: CompanyMention): CompanyKeys {
  const linkedin = urlKey(mention.linkedinUrl);
  const country = typeof mention.country === 'string' ? countryCode(mention.country) : undefined;
  return {
    domain: urlKey(mention.website),
    linkedin: linkedin !== null && LINKEDIN_COMPANY.test(linkedin) ? linkedin : null,
    name: nameKey(mention.name),
    country: country === undefined ? null : country.toLowerCase(),
  };
}

/** The JSON text of a document with fields appended (the link fields go last, after the record's own). */
export function appendFields<D extends string | Buffer>(doc: D, fields: readonly (readonly [string, string | null])[]): D {
  const added = fields.map(([name, value]) => `${JSON.stringify(name)}:${JSON.stringify(value)}`).join(',');
  if (typeof doc === 'string') {
    const end = doc.lastIndexOf('}');
    const empty = /^\{\s*$/.test(doc.slice(0, end));
    return `${doc.slice(0, end)}${empty ? '' : ','}${added}${doc.slice(end)}` as D;
  }
  // The encoded document as it is, the fields spliced in before its last brace: no decoding and
  // encoding again of a document of kilobytes for a few dozen bytes.
  const end = doc.lastIndexOf(0x7d);
  // Empty when only white space stands between the last brace and the first (read backwards: a
  // document's last field ends right before its brace, so this stops at once).
  let last = end - 1;
  while (last >= 0 && JSON_SPACE.has(doc[last]!)) last--;
  const empty = last < 0 || doc[last] === 0x7b;
  return Buffer.concat([doc.subarray(0, end), Buffer.from(`${empty ? '' : ','}${added}`), doc.subarray(end)]) as D;
}

/** JSON's white space bytes. */
const JSON_SPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);
