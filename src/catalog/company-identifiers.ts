// v2 `company_domain` and `company_linkedin_url` (funding and acquisition signals): companies named
// exactly, by their website domain or LinkedIn company page, as the stored website and LinkedIn keys
// (urlKey, src/catalog/normalize.ts) compare them.
import { MAX_COMPANY_IDENTIFIERS } from './schemas/v2-schemas.js';
import { invalidParameter } from './errors.js';
import { splitList, urlKey } from './normalize.js';
import type { Condition } from './conditions.js';

export interface CompanyIdentifiersQuery {
  company_domain?: string;
  company_linkedin_url?: string;
  company_id?: string;
}

/** The keys of the companies a query names (OR within each list, AND between them); undefined when unused. */
export interface CompanyIdentifiers {
  domainKeys?: string[];
  linkedinKeys?: string[];
}

// A host name: dot-separated labels of letters, digits and inner hyphens (internationalised names
// too), the last one not all digits (an IPv4 address is no domain).
const LABEL = '[\\p{L}\\p{N}](?:[\\p{L}\\p{N}-]{0,61}[\\p{L}\\p{N}])?';
const DOMAIN = new RegExp(`^(?=.{1,253}$)(?:${LABEL}\\.)+(?!\\p{N}+$)${LABEL}$`, 'u');
// A company page: linkedin.com (or a country subdomain of it) /company/ and one path segment.
const LINKEDIN_COMPANY = /^(?:[a-z]{2}\.)?linkedin\.com\/company\/[^/\s]+$/;

function keysOf(
  name: string,
  raw: string | undefined,
  what: string,
  valid: (key: string) => boolean,
  normalise: (value: string) => string | null = urlKey,
): string[] | undefined {
  if (raw === undefined) return undefined;
  const values = splitList(raw);
  if (values.length === 0) throw invalidParameter(`${name}: must name at least one company`, name);
  if (values.length > MAX_COMPANY_IDENTIFIERS) {
    throw invalidParameter(`${name}: at most ${MAX_COMPANY_IDENTIFIERS} values (got ${values.length})`, name);
  }
  const keys = new Set<string>();
  for (const value of values) {
    const key = normalise(value);
    if (key === null || !valid(key)) throw invalidParameter(`${name}: "${value}" is not ${what}`, name);
    keys.add(key);
  }
  return [...keys];
}

/** Normalises company_domain and company_linkedin_url; a value that is neither is a 400 naming it. */
export function companyIdentifiers(query: CompanyIdentifiersQuery): CompanyIdentifiers {
  return {
    domainKeys: keysOf('company_domain', query.company_domain, 'a domain (e.g. novartis.com)', (key) => DOMAIN.test(key)),
    linkedinKeys: keysOf(
      'company_linkedin_url',
      query.company_linkedin_url,
      'a LinkedIn company URL (e.g. linkedin.com/company/novartis)',
      (key) => LINKEDIN_COMPANY.test(key),
    ),
  };
}

/** Whether the query names companies exactly: its records then carry match_confidence "exact". */
export const namesCompanies = (query: CompanyIdentifiersQuery) =>
  query.company_domain !== undefined || query.company_linkedin_url !== undefined || query.company_id !== undefined;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** `company_id`: company ids in lower case; undefined when absent; a value that is no UUID is a 400 naming it. */
export function companyIds(raw: string | undefined): string[] | undefined {
  return keysOf(
    'company_id',
    raw,
    'a company id (a UUID)',
    (key) => UUID.test(key),
    (value) => value.trim().toLowerCase(),
  );
}

/**
 * The records linked through `column` to a company with one of these keys of its own (`website_key` or
 * `linkedin_key` of the companies dataset): how a list whose records name no website (job changes,
 * hiring signals) takes `company_domain` strictly, through the company each record is linked to.
 */
export function linkedCompanyWith<Row>(
  column: keyof Row & string,
  companyColumn: 'website_key' | 'linkedin_key',
  keys: string[],
): Condition<Row> {
  return {
    column,
    op: 'linkedFrom',
    dataset: 'companies',
    links: ['record_id'],
    conditions: [{ column: companyColumn, op: 'in', values: keys }],
  };
}
