// Matching a list's companies to ours, by the rules of company resolution (src/companies): the
// website domain, then the LinkedIn company page (both `exact`), then the normalised name (`fuzzy`).
// Unlike resolution, nothing is made: an input no company has stays unmatched, and a name that
// several companies have is not guessed at. With a country the input's own is taken; without, or
// when several of that country remain, the input is reported ambiguous with its candidates.
import { mentionKeys, urlKey, type CompanyKeys, type CompanyRecord } from '../catalog/index.js';
import { companiesByKeys, companyDocuments, type CompanyKeyRow } from '../companies/index.js';
import type { Queryable } from '../platform/db/index.js';
import type { InputIdentifiers } from './inputs.js';
import type { EnrichmentResult } from './schemas.js';

/** Candidates listed on an ambiguous input, at most. */
const CANDIDATES_LISTED = 5;

export interface Match {
  company: CompanyRecord | null;
  confidence: EnrichmentResult['match_confidence'];
  field: string | null;
  candidates?: NonNullable<EnrichmentResult['candidates']>;
}

/** Imported before made from records, then the oldest: the company resolution picks among equals. */
function first(rows: readonly CompanyKeyRow[]): CompanyKeyRow | undefined {
  let best: CompanyKeyRow | undefined;
  for (const row of rows) {
    if (
      best === undefined ||
      (row.origin === 'import' && best.origin !== 'import') ||
      (row.origin === best.origin && row.id < best.id)
    ) {
      best = row;
    }
  }
  return best;
}

type Decision = { row: CompanyKeyRow; confidence: 'exact' | 'fuzzy'; field: string } | { ambiguous: CompanyKeyRow[] } | null;

function decide(
  input: InputIdentifiers,
  keys: CompanyKeys,
  byDomain: Map<string, CompanyKeyRow[]>,
  byLinkedin: Map<string, CompanyKeyRow[]>,
  byName: Map<string, CompanyKeyRow[]>,
): Decision {
  const domainRow = keys.domain === null ? undefined : first(byDomain.get(keys.domain) ?? []);
  if (domainRow) return { row: domainRow, confidence: 'exact', field: input.website!.field };
  const linkedinRow = keys.linkedin === null ? undefined : first(byLinkedin.get(keys.linkedin) ?? []);
  if (linkedinRow) return { row: linkedinRow, confidence: 'exact', field: input.linkedin!.field };
  if (keys.name === null) return null;
  const named = byName.get(keys.name) ?? [];
  // The input's country when it gives one (else a company whose country is unknown), as resolution does.
  const ofCountry = keys.country === null ? named : named.filter((row) => row.country_key === keys.country);
  const inCountry = ofCountry.length > 0 || keys.country === null ? ofCountry : named.filter((row) => row.country_key === null);
  if (inCountry.length === 0) return null;
  if (inCountry.length === 1) return { row: inCountry[0]!, confidence: 'fuzzy', field: input.name!.field };
  return { ambiguous: inCountry };
}

function group(rows: readonly CompanyKeyRow[], key: (row: CompanyKeyRow) => string | null): Map<string, CompanyKeyRow[]> {
  const map = new Map<string, CompanyKeyRow[]>();
  for (const row of rows) {
    const k = key(row);
    if (k === null) continue;
    const list = map.get(k);
    if (list) list.push(row);
    else map.set(k, [row]);
  }
  return map;
}

/** Each input's match, in order: one statement for the candidates' keys, one for the documents of the companies chosen or listed. */
export async function matchCompanies(db: Queryable, inputs: readonly InputIdentifiers[]): Promise<Match[]> {
  const keyed = inputs.map((input) =>
    mentionKeys({
      name: input.name?.value ?? null,
      website: input.website?.value ?? null,
      linkedinUrl: input.linkedin?.value ?? null,
      country: input.country,
    }),
  );
  const distinct = (values: (string | null)[]) => [...new Set(values.filter((value): value is string => value !== null))];
  const rows = await companiesByKeys(db, {
    domains: distinct(keyed.map((k) => k.domain)),
    linkedins: distinct(keyed.map((k) => k.linkedin)),
    names: distinct(keyed.map((k) => k.name)),
  });
  const byDomain = group(rows, (row) => row.website_key);
  const byLinkedin = group(rows, (row) => row.linkedin_key);
  const byName = group(rows, (row) => row.name_key);
  const decisions = inputs.map((input, i) => decide(input, keyed[i]!, byDomain, byLinkedin, byName));
  const wanted = new Set<string>();
  for (const decision of decisions) {
    if (decision === null) continue;
    if ('row' in decision) wanted.add(decision.row.record_id);
    else for (const row of listed(decision.ambiguous)) wanted.add(row.record_id);
  }
  const docs = await companyDocuments(db, [...wanted]);
  const record = (row: CompanyKeyRow) => {
    const doc = docs.get(row.record_id);
    return doc === undefined ? undefined : (JSON.parse(doc) as CompanyRecord);
  };
  return decisions.map((decision): Match => {
    if (decision === null) return { company: null, confidence: 'none', field: null };
    if ('row' in decision) {
      const company = record(decision.row);
      // Deleted between the two statements: as if never there.
      if (company === undefined) return { company: null, confidence: 'none', field: null };
      return { company, confidence: decision.confidence, field: decision.field };
    }
    const candidates = listed(decision.ambiguous).flatMap((row) => {
      const company = record(row);
      return company === undefined
        ? []
        : [{ companyId: company.id, name: company.name, domain: urlKey(company.website), country: company.headquartersCountry }];
    });
    return { company: null, confidence: 'none', field: null, candidates };
  });
}

/** The candidates an ambiguous input lists: imported first, then the oldest. */
function listed(rows: readonly CompanyKeyRow[]): CompanyKeyRow[] {
  return [...rows]
    .sort((a, b) => (a.origin === b.origin ? a.id - b.id : a.origin === 'import' ? -1 : 1))
    .slice(0, CANDIDATES_LISTED);
}
