// Funding signals: GET /api/v2/signals/funding, the published FundingSignal record over the v1
// funding rounds. A view of the funding dataset (src/catalog/dataset-view.ts): the same rows, index and
// ingest; its own query, filter and conditions over funding's columns, and each stored round
// served as a FundingSignal when a page is served.
import type { Condition } from '../conditions.js';
import type { FundingRecord } from '../schemas/v1-schemas.js';
import {
  FundingSignalsQuery,
  FundingSignalsResponse,
  PUBLISHED_ROUND_TYPES,
  type FundingSignalRecord,
  type PublishedRoundType,
} from '../schemas/v2-schemas.js';
import { countryCode, countryName } from '../countries.js';
import { invalidParameter } from '../errors.js';
import { labelKey, splitList } from '../normalize.js';
import { uuidV5 } from '../uuid.js';
import { companyIdentifiers, companyIds, namesCompanies, type CompanyIdentifiers } from '../company-identifiers.js';
import type { RowOrder } from '../dataset.js';
import { countryKeys, queryWords, signalPaging, wordConditions } from '../query-filters.js';
import { funding, type FundingRow } from './funding.js';
import { amountRange, dateRange, excludedCountryKeys, sortOrder } from '../published-parameters.js';
import { defineView } from '../dataset-view.js';

/**
 * Our round labels (as stored in round_key: trimmed, lower case, single spaces) by the published
 * round type each is served as. A label not listed here, and a round without one, is "Other".
 * The README's table shows it; a change here changes served records and the `round` filter alike.
 */
export const ROUND_LABELS: Readonly<Record<Exclude<PublishedRoundType, 'Other'>, readonly string[]>> = {
  'Pre-Seed': ['pre-seed', 'pre seed', 'preseed'],
  Seed: ['seed'],
  'Series A': ['series a'],
  'Series B': ['series b'],
  'Series C': ['series c'],
  'Series D': ['series d'],
  'Series E': ['series e'],
  'Series F+': ['series f', 'series g', 'series h', 'series i', 'series j'],
  Bridge: ['bridge'],
  'Debt Financing': ['debt', 'debt financing', 'venture debt'],
  Grant: ['grant'],
  'Convertible Note': ['convertible note'],
  'Equity Crowdfunding': ['equity crowdfunding', 'crowdfunding'],
  ICO: ['ico', 'initial coin offering'],
  IPO: ['ipo'],
  'Private Equity': ['private equity', 'growth equity', 'growth'],
  Venture: ['venture', 'venture round', 'series unknown'],
  Angel: ['angel'],
  Corporate: ['corporate', 'corporate round'],
};

const ROUND_TYPE_OF_LABEL = new Map<string, PublishedRoundType>(
  Object.entries(ROUND_LABELS).flatMap(([type, labels]) => labels.map((label) => [label, type as PublishedRoundType])),
);
const MAPPED_LABELS = [...ROUND_TYPE_OF_LABEL.keys()];
const ROUND_TYPE_BY_KEY = new Map<string, PublishedRoundType>(PUBLISHED_ROUND_TYPES.map((type) => [labelKey(type), type]));

/** The published round type of one of our round labels (any spelling; null: none). */
export function publishedRoundType(label: string | null | undefined): PublishedRoundType {
  if (typeof label !== 'string') return 'Other';
  return ROUND_TYPE_OF_LABEL.get(labelKey(label)) ?? 'Other';
}

export interface FundingSignalsFilter extends CompanyIdentifiers {
  countryKeys: string[];
  categoryKeys: string[];
  /** The published round types asked for (none: any). */
  roundTypes: PublishedRoundType[];
  words: string[];
  from?: string;
  before?: string;
  excludedCountryKeys: string[];
  minAmount?: number;
  maxAmount?: number;
  companyIds?: string[];
  order?: RowOrder<FundingRow>;
}

/**
 * The published sort fields on funding's columns. A round has one date, date_seen (sort_at, served
 * as announcedDate): it is both when it occurred and when it was discovered. Amounts are compared
 * as stored, in their own currencies, as published.
 */
const SORT_COLUMNS = {
  occurred_at: 'sort_at',
  discovered_at: 'sort_at',
  amount: 'funding_amount',
  employee_count: 'employee_count',
  founded_year: 'founded_year',
} as const;

/** `round` (or another parameter of round types): published round types, case-insensitive; any other value is a 400 naming it. */
export function roundTypes(raw: string | undefined, param = 'round'): PublishedRoundType[] {
  const types = new Set<PublishedRoundType>();
  for (const value of splitList(raw)) {
    const type = ROUND_TYPE_BY_KEY.get(labelKey(value));
    if (type === undefined) {
      throw invalidParameter(
        `${param}: "${value}" is not a round type; allowed values: ${PUBLISHED_ROUND_TYPES.join(', ')}`,
        param,
      );
    }
    types.add(type);
  }
  return [...types];
}

/** The round types as a condition on round_key: the labels mapped to them, or, with "Other", none of the others. */
export function roundCondition(types: readonly PublishedRoundType[]): Condition<FundingRow> | undefined {
  if (types.length === 0) return undefined;
  const chosen = new Set(types);
  if (!chosen.has('Other')) {
    return {
      column: 'round_key',
      op: 'in',
      values: MAPPED_LABELS.filter((label) => chosen.has(ROUND_TYPE_OF_LABEL.get(label)!)),
    };
  }
  // "Other" is every label outside the table, and no label at all: the rounds whose label maps to no type left out.
  const excluded = MAPPED_LABELS.filter((label) => !chosen.has(ROUND_TYPE_OF_LABEL.get(label)!));
  return excluded.length === 0 ? undefined : { column: 'round_key', op: 'notIn', values: excluded };
}

/** Signal ids are version 5 UUIDs of the round's natural key in this namespace (fixed: ids never change). */
export const FUNDING_SIGNAL_NAMESPACE = '8a3a843f-933b-420a-94be-ed909078a8bb';

/**
 * The UTC calendar date of a stored date-time, as PostgreSQL stores it (and dateFrom/dateTo see it):
 * fractional seconds rounded to the microsecond (rint(fraction * 1e6), its ParseFractionalSecond),
 * so "…T23:59:59.9999996Z" is on the next day.
 */
export function utcDate(dateTime: string): string | null {
  const match = /^(.*?:\d{2})(?:\.(\d+))?(Z|[+-]\d{2}:\d{2})$/.exec(dateTime.toUpperCase());
  if (!match) return null;
  const whole = Date.parse(`${match[1]}${match[3]}`);
  if (Number.isNaN(whole)) return null;
  const micros = match[2] === undefined ? 0 : roundHalfEven(Number(`0.${match[2]}`) * 1e6);
  return new Date(whole + Math.floor(micros / 1000)).toISOString().slice(0, 10);
}

function roundHalfEven(value: number): number {
  const floor = Math.floor(value);
  const rest = value - floor;
  if (rest !== 0.5) return Math.round(value);
  return floor % 2 === 0 ? floor : floor + 1;
}

const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value : null);
const integer = (value: unknown): number | null => (typeof value === 'number' && Number.isInteger(value) ? value : null);

/** A stored round: its v1 document, with the company link resolution added (src/companies). */
type StoredRound = Partial<FundingRecord> & { company_id?: string | null; company_match?: FundingSignalRecord['companyMatch'] };

/**
 * The served FundingSignal of a stored round (its v1 document), its natural key and when it sorts
 * (sort_at, epoch milliseconds: `date_seen`, or the start of the day a round without one was imported).
 */
export function fundingSignal(round: StoredRound, naturalKey: string, sortMs: number): FundingSignalRecord {
  const info = round.company_info ?? {};
  const hq = text(info.hq_country);
  const code = hq === null ? undefined : countryCode(hq);
  const headcount = (round.historical_headcount ?? []).reduce<{ at: number; count: number } | null>((latest, entry) => {
    const at = Date.parse(entry.date);
    return latest === null || at >= latest.at ? { at, count: entry.headcount } : latest;
  }, null);
  const dateSeen = text(round.date_seen);
  const fundingAmount = typeof round.funding_amount === 'number' ? round.funding_amount : null;
  const fundingCurrency = text(round.currency);
  const industry = text(info.industry);
  const website = text(info.website);
  const linkedinUrl =
    (round.contact_info ?? []).map((contact) => text(contact.company_linkedin_url)).find((url) => url !== null) ?? null;
  const employeeCount = integer(headcount?.count);
  const foundedYear = integer(info.year_founded);
  const description = text(info.description);
  const categories = [...new Set([round.main_category, ...(info.categories ?? [])].map(text).filter((label) => label !== null))];
  const occurredAt = dateSeen ?? new Date(sortMs).toISOString();
  return {
    signalId: uuidV5(FUNDING_SIGNAL_NAMESPACE, naturalKey),
    companyName: round.company_name ?? '',
    roundType: publishedRoundType(round.round_type),
    fundingAmount,
    fundingCurrency,
    announcedDate: dateSeen === null ? null : utcDate(dateSeen),
    industry,
    country: code === undefined ? hq : countryName(code),
    category: text(round.main_category) ?? text(info.categories?.[0]),
    website,
    linkedinUrl,
    employeeCount,
    foundedYear,
    description,
    investorNames: (round.investors ?? []).map((investor) => investor.name),
    leadInvestor: null,
    totalFundingToDate: null,
    valuation: null,
    useOfFunds: null,
    lastUpdated: dateSeen,
    // The published 2.2 fields; a January field 2.2 renamed is served under both names.
    signalType: 'funding_round',
    occurredAt,
    discoveredAt: occurredAt,
    companyLogo: text(info.logo_url),
    companyWebsite: website,
    companyLinkedin: linkedinUrl,
    companyIndustry: industry,
    companyCountry: code ?? hq,
    companySubcategory: null,
    companyFoundedYear: foundedYear,
    companyCategories: categories.length === 0 ? null : JSON.stringify(categories),
    companyDescription: description,
    companyEmployeeCount: employeeCount,
    roundFlavor: null,
    amount: fundingAmount,
    ...(fundingCurrency !== null && { currency: fundingCurrency }),
    confidenceScore: null,
    isFreeAccess: true,
    investors: (round.investors ?? []).map((investor) => ({ name: investor.name, linkedin: text(investor.linkedin_url) })),
    sources: [],
    // A round stored before resolution has no link: the fields are left out, as on the other lists.
    ...(round.company_id !== undefined && { companyId: round.company_id, companyMatch: round.company_match }),
  };
}

export const fundingSignals = defineView(funding, {
  query: FundingSignalsQuery,
  api: {
    family: 'v2',
    path: '/signals/funding',
    endpoint: 'signals.funding',
    operationId: 'getFundingSignals',
    summary: 'Funding signals',
    description:
      'The funding rounds of `/api/v1/funding` as published funding signals, newest first (the date the round was seen, ' +
      'then a stable id). `roundType` is the published type our round label maps to; fields our rounds do not record ' +
      "(leadInvestor, totalFundingToDate, valuation, useOfFunds) are null. `signalId` is derived from the round's " +
      'natural key, so it stays the same across restarts and re-imports. Each record is the January 2026 FundingSignal ' +
      'with the fields of the 2.2.0 one added (`signalType`, `occurredAt`, `discoveredAt`, the `company…` fields, ' +
      '`amount`, `currency`, `investors`, `sources`, …); where 2.2 renamed a field both names are served with the same ' +
      'value: `fundingAmount`/`amount`, `fundingCurrency`/`currency`, `website`/`companyWebsite`, ' +
      '`linkedinUrl`/`companyLinkedin`, `industry`/`companyIndustry`, `foundedYear`/`companyFoundedYear`, ' +
      '`description`/`companyDescription`, `employeeCount`/`companyEmployeeCount`.',
    response: { ...FundingSignalsResponse, description: 'A page of records' },
    paging: signalPaging,
    exactMatch: namesCompanies,
  },
  filter: (query, context) => ({
    countryKeys: countryKeys(query.countries),
    categoryKeys: [...new Set(splitList(query.categories).map(labelKey))],
    roundTypes: roundTypes(query.round),
    words: queryWords('search', query.search),
    ...dateRange(query, context),
    ...companyIdentifiers(query),
    excludedCountryKeys: excludedCountryKeys(query.exclude_countries),
    ...amountRange(query),
    companyIds: companyIds(query.company_id),
    order: sortOrder<keyof typeof SORT_COLUMNS, FundingRow>(query, SORT_COLUMNS, 'occurred_at'),
  }),
  order: (filter) => filter.order,
  conditions(filter) {
    const conditions: Condition<FundingRow>[] = [];
    if (filter.countryKeys.length > 0) conditions.push({ column: 'country_key', op: 'in', values: filter.countryKeys });
    if (filter.excludedCountryKeys.length > 0) {
      conditions.push({ column: 'country_key', op: 'notIn', values: filter.excludedCountryKeys });
    }
    if (filter.minAmount !== undefined) conditions.push({ column: 'funding_amount', op: 'atLeast', value: filter.minAmount });
    if (filter.maxAmount !== undefined) conditions.push({ column: 'funding_amount', op: 'atMost', value: filter.maxAmount });
    if (filter.categoryKeys.length > 0) conditions.push({ column: 'category_keys', op: 'overlaps', values: filter.categoryKeys });
    const round = roundCondition(filter.roundTypes);
    if (round) conditions.push(round);
    if (filter.domainKeys) conditions.push({ column: 'website_key', op: 'in', values: filter.domainKeys });
    if (filter.linkedinKeys) conditions.push({ column: 'linkedin_keys', op: 'overlaps', values: filter.linkedinKeys });
    if (filter.companyIds) conditions.push({ column: 'company_id', op: 'in', values: filter.companyIds });
    if (filter.from !== undefined) conditions.push({ column: 'sort_at', op: 'atLeast', value: filter.from });
    if (filter.before !== undefined) conditions.push({ column: 'sort_at', op: 'below', value: filter.before });
    conditions.push(...wordConditions<FundingRow>('name_path', filter.words));
    return conditions;
  },
  document: {
    name: 'signals',
    serve: (doc, naturalKey, sortMs) => JSON.stringify(fundingSignal(JSON.parse(doc) as StoredRound, naturalKey, sortMs)),
  },
});
