// Normalised keys for the URL and label filters, computed the same way at write time and query
// time, and the one form of an email address that accounts are stored and found under.

/**
 * Website / professional-network URL key: no scheme, no "www.", no query or fragment,
 * no trailing slash, lower case. "https://www.Acme.io/" and "acme.io" give "acme.io".
 */
export function urlKey(value: string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  let text = value.trim().toLowerCase();
  if (text === '') return null;
  text = text.replace(/^[a-z][a-z0-9+.-]*:\/\//, '');
  text = text.replace(/[?#].*$/, '');
  text = text.replace(/^www\./, '');
  text = text.replace(/\/+$/, '');
  return text === '' ? null : text;
}

/** Case-insensitive label key (categories, round types): trimmed, lower case, single spaces. */
export function labelKey(value: string): string {
  return value.trim().toLowerCase().replace(/\s+/g, ' ');
}

/** Splits a comma-separated parameter into trimmed, non-empty items. */
export function splitList(value: string | readonly string[] | undefined): string[] {
  if (value === undefined) return [];
  const parts = (typeof value === 'string' ? [value] : value).flatMap((v) => v.split(','));
  return parts.map((p) => p.trim()).filter((p) => p !== '');
}

// Letters an accent-stripping pass leaves alone, spelled in ASCII.
const FOLDED_LETTERS: Record<string, string> = { ß: 'ss', æ: 'ae', œ: 'oe', ø: 'o', ł: 'l', đ: 'd', ı: 'i', þ: 'th', ð: 'd' };

export interface SlugOptions {
  /** Between the words (default "-"). */
  separator?: string;
  /** The word written for "&" (default "and"; "" drops it). */
  ampersand?: string;
  /** Spell ß, æ, ø, ł, … in ASCII ("ss", "ae", "o", "l"); otherwise they separate words. */
  foldLetters?: boolean;
}

/**
 * URL-style slug of a name: its lower-case ASCII words joined by a separator, accents dropped
 * ("Acme Robotics & Co., Inc." -> "acme-robotics-and-co-inc"). The defaults make the name paths
 * of funding rounds and deals (generated and ingested alike); the v2 generator's handles and
 * domains drop "&" and fold letters.
 */
export function slugify(name: string, options: SlugOptions = {}): string {
  let text = name.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
  if (options.foldLetters) text = text.replace(/[ßæœøłđıþð]/gi, (c) => FOLDED_LETTERS[c.toLowerCase()] ?? '');
  return text
    .toLowerCase()
    .replace(/&/g, ` ${options.ampersand ?? 'and'} `)
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== '')
    .join(options.separator ?? '-');
}

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** An email address as accounts are keyed: trimmed, lower case; throws when it is not one. */
export function normaliseEmail(email: string): string {
  const value = email.trim().toLowerCase();
  if (!EMAIL_PATTERN.test(value)) throw new Error(`not a valid email address: ${email}`);
  return value;
}
