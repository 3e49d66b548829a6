// What a stored row says about people and signals: the people a job change, a funding round or a
// deal names (the candidates a person is made of), and the signal the row is for its companies.
// Pure functions of the row, used alike by the directory's build and by each change it follows.
import { countryCode, labelKey, nameKey, publishedRoundType, urlKey } from '../catalog/index.js';
import type { SourceDataset, SourceRow } from './queries.js';
import { sizeBand, type PersonSignalType, type SizeBand } from './schemas.js';

/** A signal as a person's `matched_signal` serves it. */
export interface PersonSignal {
  type: PersonSignalType;
  /** ms since the epoch. */
  at: number;
  summary: string;
  sourceUrl: string | null;
}

/** One mention of a person: who they are and the role a row gives them. */
export interface Candidate {
  /** The row it came from (sourceOf): what a change of that row replaces. */
  source: number;
  /** How people are told apart: the LinkedIn profile key, else the name at the company. */
  identity: string;
  name: string;
  linkedinUrl: string | null;
  title: string | null;
  companyId: string | null;
  /** The company as the row names it (served when it is linked to no company). */
  companyName: string | null;
  companyLinkedinUrl: string | null;
  /** When the row puts them in this role (ms): the newest mention is the person's current role. */
  at: number;
  /** Whether it is a job change: the move into this role (its signal is made when served, moveSignal). */
  move: boolean;
}

/** A company as a person's `company` serves it. */
export interface CompanyFacts {
  name: string | null;
  domain: string | null;
  linkedinUrl: string | null;
  /** ISO alpha-2. */
  country: string | null;
  sizeBand: SizeBand | null;
  industry: string | null;
}

const SOURCE_CODES: Readonly<Record<SourceDataset, number>> = { 'job-changes': 0, funding: 1, 'm-a': 2, acquisitions: 3 };

const DATASETS_BY_CODE = (Object.keys(SOURCE_CODES) as SourceDataset[]).sort((a, b) => SOURCE_CODES[a] - SOURCE_CODES[b]);

/** A row as one number (its id and its table): a key a few million rows are kept under without a string each. */
export const sourceOf = (dataset: SourceDataset, id: number) => id * 4 + SOURCE_CODES[dataset];
/** The table of a row's sourceOf. */
export const datasetOfSource = (source: number) => DATASETS_BY_CODE[source % 4]!;
/** The id of a row's sourceOf. */
export const idOfSource = (source: number) => Math.floor(source / 4);

/** A job change's signal, as served. */
export function moveSignal(move: Candidate): PersonSignal {
  return {
    type: 'job_change',
    at: move.at,
    summary: `${maskedName(move.name) ?? 'Someone'} started as ${move.title ?? 'a new role'} at ${move.companyName ?? 'a new company'}`,
    sourceUrl: move.linkedinUrl,
  };
}

/** "Sarah K.": the published mask of a name (first name and last initial). */
export function maskedName(name: string): string | null {
  const words = name
    .trim()
    .split(/\s+/)
    .filter((word) => word !== '');
  if (words.length === 0) return null;
  if (words.length === 1) return words[0]!;
  return `${words[0]} ${[...words.at(-1)!][0]!.toUpperCase()}.`;
}

/** A person's identity: their LinkedIn profile, else their name at the company (its id, else its name). */
function identityOf(name: string, linkedinUrl: string | null, companyId: string | null, companyName: string | null) {
  const profile = urlKey(linkedinUrl);
  if (profile !== null) return profile;
  return `name:${nameKey(name) ?? name.toLowerCase()}@${companyId ?? `name:${nameKey(companyName) ?? ''}`}`;
}

interface Employee {
  name?: unknown;
  title?: unknown;
  linkedin_url?: unknown;
}
interface ContactInfo {
  employees?: Employee[];
  company_linkedin_url?: unknown;
}

/** A candidate of a row: the person as the row names them, at the row's company and date. */
function mention(
  source: number,
  row: SourceRow,
  name: string,
  title: string | null,
  linkedinUrl: string | null,
  companyName: string | null,
  companyLinkedinUrl: string | null,
  move: boolean,
): Candidate {
  const companyId = row.company_id;
  const identity = identityOf(name, linkedinUrl, companyId, companyName);
  return { source, identity, name, linkedinUrl, title, companyId, companyName, companyLinkedinUrl, at: row.sort_ms, move };
}

const str = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value : null);

/** The people a row names, with the role it gives each. */
export function candidatesOf(dataset: SourceDataset, row: SourceRow, doc: Record<string, unknown>): Candidate[] {
  const source = sourceOf(dataset, row.id);
  if (dataset === 'job-changes') {
    const name = str(doc.personName) ?? '';
    const linkedinUrl = str(doc.personLinkedinUrl);
    const companyName = str(doc.companyName);
    return [mention(source, row, name, str(doc.newRole), linkedinUrl, companyName, str(doc.companyLinkedinUrl), true)];
  }
  if (dataset === 'acquisitions') return [];
  // A funding round's or a deal's people: the employees of its contact info, and the CEO it names.
  const companyName = str(doc.company_name);
  const contacts = Array.isArray(doc.contact_info) ? (doc.contact_info as ContactInfo[]) : [];
  const people: Candidate[] = [];
  const named = new Set<string>();
  const add = (name: string, title: string | null, linkedinUrl: string | null, companyLinkedinUrl: string | null) => {
    named.add(nameKey(name) ?? name);
    people.push(mention(source, row, name, title, linkedinUrl, companyName, companyLinkedinUrl, false));
  };
  for (const contact of contacts) {
    if (contact === null || typeof contact !== 'object' || !Array.isArray(contact.employees)) continue;
    for (const employee of contact.employees) {
      const name = str(employee?.name);
      if (name !== null) add(name, str(employee.title), str(employee.linkedin_url), str(contact.company_linkedin_url));
    }
  }
  const ceo = str(doc.ceo);
  // The CEO is often among the employees too, with a profile: one person, not two.
  if (ceo !== null && !named.has(nameKey(ceo) ?? ceo)) add(ceo, 'CEO', null, null);
  // Several mentions of one person in one row are one candidate.
  const seen = new Set<string>();
  return people.filter((person) => !seen.has(person.identity) && seen.add(person.identity) !== undefined);
}

const SYMBOLS: Record<string, string> = { USD: '$', EUR: '€', GBP: '£', JPY: '¥', INR: '₹' };

/** "$40M", "€3.5M", "CHF 800K". */
export function formatAmount(amount: number, currency: string | null): string {
  const code = (currency ?? 'USD').toUpperCase();
  const [value, unit] =
    amount >= 1e9
      ? [amount / 1e9, 'B']
      : amount >= 1e6
        ? [amount / 1e6, 'M']
        : amount >= 1e3
          ? [amount / 1e3, 'K']
          : [amount, ''];
  const digits = value >= 100 || Number.isInteger(value) ? 0 : 1;
  const number = `${Number(value.toFixed(digits))}${unit}`;
  const symbol = SYMBOLS[code];
  return symbol ? `${symbol}${number}` : `${code} ${number}`;
}

/**
 * The signal a row is for the company it is linked by (`company`): a funding round, a deal (as target
 * or acquirer), an acquisition signal. Undefined for job changes (a person's own signal).
 */
export function signalOf(
  dataset: SourceDataset,
  row: SourceRow,
  doc: Record<string, unknown>,
  company: string,
): PersonSignal | undefined {
  if (dataset === 'funding') {
    const type = publishedRoundType(str(doc.round_type));
    const amount =
      typeof doc.funding_amount === 'number' && doc.funding_amount > 0
        ? formatAmount(doc.funding_amount, str(doc.currency))
        : null;
    const investors = (Array.isArray(doc.investors) ? doc.investors : [])
      .map((investor: { name?: unknown }) => str(investor?.name))
      .filter((name): name is string => name !== null);
    const parts = [type === 'Other' ? 'Funding round' : type, amount].filter((part) => part !== null).join(', ');
    const by =
      investors.length === 0 ? '' : ` from ${investors.slice(0, 2).join(' and ')}${investors.length > 2 ? ' and others' : ''}`;
    return { type: 'funding_round', at: row.sort_ms, summary: `${parts}${by}`, sourceUrl: null };
  }
  if (dataset === 'm-a') {
    const amount =
      typeof doc.acquisition_amount === 'number' && doc.acquisition_amount > 0
        ? ` for ${formatAmount(doc.acquisition_amount, 'USD')}`
        : '';
    const summary =
      row.acquirer_company_id === company && row.company_id !== company
        ? `Acquired ${str(doc.company_name) ?? 'a company'}${amount}`
        : `Acquired by ${str(doc.acquired_by) ?? 'another company'}${amount}`;
    return { type: 'acquisition', at: row.sort_ms, summary, sourceUrl: null };
  }
  if (dataset === 'acquisitions') {
    const score = typeof doc.acquisitionSignalScore === 'number' ? ` (score ${doc.acquisitionSignalScore})` : '';
    const indicators = (Array.isArray(doc.signalIndicators) ? doc.signalIndicators : []).filter(
      (indicator): indicator is string => typeof indicator === 'string',
    );
    const why = indicators.length === 0 ? '' : `: ${indicators.slice(0, 2).join(', ')}`;
    return { type: 'acquisition', at: row.sort_ms, summary: `Likely acquisition target${score}${why}`, sourceUrl: null };
  }
  return undefined;
}

/** The companies a signal row is linked to. */
export function signalCompanies(row: SourceRow): string[] {
  const ids = [row.company_id, row.acquirer_company_id].filter((id): id is string => id !== null);
  return [...new Set(ids)];
}

/** A company's facts from its stored document. */
export function companyFacts(doc: Record<string, unknown>): CompanyFacts {
  const website = urlKey(str(doc.website));
  const country = str(doc.headquartersCountry);
  const industry = str(doc.industry);
  return {
    name: str(doc.name),
    // The domain alone: a website's path is no part of it.
    domain: website === null ? null : website.split('/')[0]!,
    linkedinUrl: str(doc.linkedinUrl),
    country: country === null ? null : (countryCode(country) ?? null),
    sizeBand: sizeBand(typeof doc.employeeCount === 'number' ? doc.employeeCount : null),
    industry,
  };
}

export const industryKey = (industry: string | null) => (industry === null ? null : labelKey(industry));
