// Reading the companies of a request: which field holds each identifier (published aliases), the
// mapping the request as a whole uses (`detectedMapping`), and each row as it is kept and echoed
// back (`input`: every field as a string).
import { invalidParameter } from '../catalog/index.js';
import { COUNTRY_ALIASES, IDENTIFIER_ALIASES, type CompanyInput, type DetectedMapping, type IdentifierField } from './schemas.js';

/** One input as the matcher reads it: each identifier with the field it came from. */
export interface InputIdentifiers {
  name: { field: string; value: string } | null;
  website: { field: string; value: string } | null;
  linkedin: { field: string; value: string } | null;
  country: string | null;
}

const present = (value: unknown): value is string => typeof value === 'string' && value.trim() !== '';

/** The first alias of `field` the row has a non-blank value for. */
function identifier(row: Record<string, unknown>, field: IdentifierField): { field: string; value: string } | null {
  for (const alias of IDENTIFIER_ALIASES[field]) {
    const value = row[alias];
    if (present(value)) return { field: alias, value: value.trim() };
  }
  return null;
}

export function identifiersOf(row: Record<string, string>): InputIdentifiers {
  const country = COUNTRY_ALIASES.map((alias) => row[alias]).find(present);
  return {
    name: identifier(row, 'companyName'),
    website: identifier(row, 'websiteUrl'),
    linkedin: identifier(row, 'linkedinUrl'),
    country: country === undefined ? null : country.trim(),
  };
}

/** A field's value as `input` echoes it: strings as sent, numbers and booleans written out, objects as JSON; null left out. */
function asText(value: unknown): string | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/**
 * The rows as kept: every field as text. A row without any identifier is a 400 naming it (the whole
 * request is refused: nothing is charged or stored).
 */
export function readInputs(companies: readonly CompanyInput[]): Record<string, string>[] {
  return companies.map((company, i) => {
    const row: Record<string, string> = {};
    for (const [field, value] of Object.entries(company)) {
      const text = asText(value);
      if (text !== undefined) row[field] = text;
    }
    const ids = identifiersOf(row);
    if (ids.name === null && ids.website === null && ids.linkedin === null) {
      throw invalidParameter(
        `companies[${i}]: include at least one of company_name, website_url or linkedin_url (or one of their aliases), not blank`,
        `companies[${i}]`,
      );
    }
    return row;
  });
}

/** For each identifier, the alias most rows use (the first in alias order on a tie); null when no row has one. */
export function detectMapping(rows: readonly Record<string, string>[]): DetectedMapping {
  const mapping = (field: IdentifierField): string | null => {
    const counts = new Map<string, number>();
    for (const row of rows) {
      const found = identifier(row, field);
      if (found) counts.set(found.field, (counts.get(found.field) ?? 0) + 1);
    }
    let best: string | null = null;
    for (const alias of IDENTIFIER_ALIASES[field]) {
      if ((counts.get(alias) ?? 0) > (best === null ? 0 : counts.get(best)!)) best = alias;
    }
    return best;
  };
  return { companyName: mapping('companyName'), websiteUrl: mapping('websiteUrl'), linkedinUrl: mapping('linkedinUrl') };
}
