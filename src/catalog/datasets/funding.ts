// Venture funding rounds: GET /api/v1/funding, ingest kind "funding".
import { FundingQuery, FundingRecord, FundingResponse, V1_RECORD_REFERENCES } from '../schemas/v1-schemas.js';
import { labelKey, slugify, splitList } from '../normalize.js';
import {
  amountInRange,
  COMPANY_COLUMNS,
  COMPANY_INDEXED,
  companyConditions,
  companyFilter,
  companyKeys,
  companySize,
  v1CompanyMention,
  v1Page,
  type CompanyColumns,
  type CompanyFilter,
} from './v1-company-fields.js';
import { defineDataset } from '../dataset.js';

export interface FundingFilter extends CompanyFilter {
  roundKeys: string[];
  minAmount?: number;
}

/** A funding round as stored: the filter columns plus the served document. */
export interface FundingRow extends CompanyColumns {
  natural_key: string;
  source_id: string | null;
  name_path: string;
  round_key: string | null;
  funding_amount: number;
  /** `currency`, upper case: which rounds the companies list's total_funding_min adds up. */
  currency_key: string;
  /** What v2 funding signals' sort_by=employee_count and founded_year order by (see companySize). */
  employee_count: number | null;
  founded_year: number | null;
  /** The company the round is about (src/companies): what v2 funding signals' company_id matches. */
  company_id: string | null;
  doc: string | Buffer;
}

export const funding = defineDataset<'funding', typeof FundingQuery, FundingFilter, typeof FundingRecord, FundingRow>({
  name: 'funding',
  label: 'funding rounds',
  table: 'funding_rounds',
  record: FundingRecord,
  references: V1_RECORD_REFERENCES,
  query: FundingQuery,
  api: {
    family: 'v1',
    path: '/funding',
    operationId: 'listFunding',
    summary: 'Funding rounds, newest first',
    description:
      'Venture funding rounds sorted by `date_seen`, newest first (ties broken by a stable internal id), 20 a page. ' +
      'Paging information is in the X-Total-Count, X-Page, X-Per-Page and Link headers.',
    response: { ...FundingResponse, description: 'A page of funding rounds' },
    params: (query) => ({
      category: splitList(query.category),
      round: splitList(query.round),
      amount: query.amount ?? null,
      date_from: query.date_from ?? null,
      date_to: query.date_to ?? null,
    }),
    page: v1Page,
    lookupExample: {
      websites: ['https://www.yarrowhealth.com/', 'oakhurstmanufacturing.com', 'no-such-company.example'],
      linkedin_urls: ['linkedin.com/company/verdely-marketplace'],
    },
  },
  filter: (query) => ({
    ...companyFilter(query),
    roundKeys: splitList(query.round).map(labelKey),
    minAmount: query.amount,
  }),
  conditions(filter) {
    const conditions = companyConditions<FundingRow>(filter);
    if (filter.roundKeys.length > 0) conditions.push({ column: 'round_key', op: 'in', values: filter.roundKeys });
    if (filter.minAmount !== undefined) conditions.push({ column: 'funding_amount', op: 'atLeast', value: filter.minAmount });
    return conditions;
  },
  indexed: {
    round_key: 'enum',
    funding_amount: 'number',
    currency_key: 'enum',
    employee_count: 'number',
    founded_year: 'number',
    // The words of the company's slug: what v2 `search` matches (src/catalog/datasets/funding-signals.ts).
    name_path: 'words',
    company_id: 'key',
    ...COMPANY_INDEXED,
  },
  columns: [
    { name: 'natural_key', type: 'text' },
    { name: 'source_id', type: 'text' },
    { name: 'name_path', type: 'text' },
    { name: 'round_key', type: 'text' },
    { name: 'funding_amount', type: 'bigint' },
    { name: 'currency_key', type: 'text' },
    { name: 'employee_count', type: 'float8' },
    { name: 'founded_year', type: 'float8' },
    { name: 'company_id', type: 'uuid' },
    ...COMPANY_COLUMNS,
  ],
  // A round has no id of its own: its source's id when the file gives one, else what tells rounds apart.
  key: { column: 'natural_key', type: 'text' },
  extras: ['source_id'],
  check: (record) => amountInRange(record, 'funding_amount'),
  prepare(record, extras, context) {
    const namePath = record.name_path || slugify(record.company_name);
    if (namePath === '' && extras.sourceId === null) {
      return 'name_path: cannot be derived from company_name; send name_path or source_id';
    }
    // Without date_seen the round sorts at the start of the import's day, so importing the
    // same file again that day finds it unchanged instead of moving it.
    const sortAt = record.date_seen ?? context.dayStart;
    const doc: FundingRecord = { ...record, name_path: namePath };
    return {
      natural_key: extras.sourceId
        ? `source:${extras.sourceId}`
        : `${namePath}|${labelKey(record.round_type ?? '')}|${sortAt.slice(0, 10)}`,
      source_id: extras.sourceId,
      name_path: namePath,
      round_key: record.round_type === null ? null : labelKey(record.round_type),
      funding_amount: record.funding_amount,
      currency_key: record.currency.trim().toUpperCase(),
      ...companySize(record),
      ...companyKeys(record),
      company_id: null,
      sort_at: sortAt,
      doc: JSON.stringify(doc),
    };
  },
  ingestBatchRows: 500,
  links: [
    {
      role: 'company',
      column: 'company_id',
      idField: 'company_id',
      matchField: 'company_match',
      mention: (record) => v1CompanyMention(record.company_name, record),
    },
  ],
  events: {
    created: 'funding.created',
    updated: 'funding.updated',
    // The published webhook filter keys, each the parameter of this list it becomes.
    filterKeys: {
      countries: 'country',
      categories: 'category',
      funding: 'round',
      fundingAmount: 'amount',
      dateFrom: 'date_from',
      dateTo: 'date_to',
    },
  },
});
