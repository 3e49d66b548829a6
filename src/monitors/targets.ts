// Target entries as the published rules read them: a company domain or website URL, a LinkedIn
// company page or a LinkedIn member profile, normalised (scheme, `www.`, path and case stripped) to
// the value served and matched on. The value is also the key each kind is matched by: a company's
// website_key or linkedin_key (urlKey of its website or page), a job change's person_key.
import type { TargetType } from './schemas.js';

export interface ParsedTarget {
  type: TargetType;
  value: string;
}

const LINKEDIN = /^(?:[a-z]{2,3}\.)?linkedin\.com\/(company|in)\/([^/?#\s]+)/;
// A host name: labels of letters, digits and hyphens, a top-level label of letters (or punycode).
const HOST = /^(?=.{4,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;

/** The target an entry names, or null when it is none of the three kinds. */
export function parseTarget(entry: string): ParsedTarget | null {
  let text = entry.trim().toLowerCase();
  if (text === '' || /\s/.test(text)) return null;
  text = text.replace(/^[a-z][a-z0-9+.-]*:\/\//, '').replace(/^www\./, '');
  const linkedin = LINKEDIN.exec(text);
  if (linkedin) {
    let slug: string;
    try {
      slug = decodeURIComponent(linkedin[2]!);
    } catch {
      return null;
    }
    if (slug === '' || /[/\s]/.test(slug)) return null;
    return linkedin[1] === 'company'
      ? { type: 'linkedin_company', value: `linkedin.com/company/${slug}` }
      : { type: 'linkedin_profile', value: `linkedin.com/in/${slug}` };
  }
  // A domain or website URL: the host without credentials or port.
  const host = text
    .replace(/[/?#].*$/, '')
    .replace(/^.*@/, '')
    .replace(/:\d+$/, '')
    .replace(/\.$/, '');
  // Any other LinkedIn page (a school, a post) is no company.
  if (!HOST.test(host) || host === 'linkedin.com' || host.endsWith('.linkedin.com')) return null;
  return { type: 'domain', value: host };
}

export interface ReadEntries {
  /** Distinct targets, in the order first sent. */
  targets: ParsedTarget[];
  /** Entries of none of the kinds, as sent. */
  invalid: string[];
}

/** The entries of a request, normalised and de-duplicated. */
export function readEntries(entries: readonly string[]): ReadEntries {
  const seen = new Set<string>();
  const targets: ParsedTarget[] = [];
  const invalid: string[] = [];
  for (const entry of entries) {
    const target = parseTarget(entry);
    if (target === null) invalid.push(entry);
    else if (!seen.has(target.value)) {
      seen.add(target.value);
      targets.push(target);
    }
  }
  return { targets, invalid };
}
