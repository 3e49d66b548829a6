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

/** URL-style slug of a company name ("Acme Robotics, Inc." -> "acme-robotics-inc"). */
export function slugify(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** An email address as accounts are keyed: trimmed, lower case; throws when it is not one. */
export function normaliseEmail(email: string): string {
  const value = email.trim().toLowerCase();
  if (!EMAIL_PATTERN.test(value)) throw new Error(`not a valid email address: ${email}`);
  return value;
}
