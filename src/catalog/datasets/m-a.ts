// Mergers and acquisitions: GET /api/v1/m-a, ingest kind "m-a".
import { MaQuery, MaRecord, MaResponse, V1_RECORD_REFERENCES } from '../schemas/v1-schemas.js';
import { slugify, splitList } from '../normalize.js';
import {
  amountInRange,
  COMPANY_COLUMNS,
  COMPANY_INDEXED,
  companyConditions,
  companyFilter,
  companyKeys,
  v1CompanyMention,
  v1Page,
  type CompanyColumns,
  type CompanyFilter,
} from './v1-company-fields.js';
import { defineDataset } from '../dataset.js';
import { queryWords, searchText, wordConditions } from '../query-filters.js';

export interface MaFilter extends CompanyFilter {
  minAmount?: number;
  status?: string;
  /** Every one must start a word of the acquirer's name. */
  acquirerWords: string[];
}

export interface MaRow extends CompanyColumns {
  investment_id: string;
  status: string;
  acquisition_amount: number;
  acquirer_key: string;
  /** The acquired company and the acquirer (src/companies). */
  company_id: string | null;
  acquirer_company_id: string | null;
  doc: string | Buffer;
}

export const mA = defineDataset<'m-a', typeof MaQuery, MaFilter, typeof MaRecord, MaRow>({
  name: 'm-a',
  label: 'M&A deals',
  table: 'ma_deals',
  record: MaRecord,
  references: V1_RECORD_REFERENCES,
  query: MaQuery,
  api: {
    family: 'v1',
    path: '/m-a',
    operationId: 'listMergersAndAcquisitions',
    summary: 'Mergers and acquisitions, newest first',
    description: 'M&A deals sorted by `date_seen`, newest first, 20 a page; paging in headers as for /funding.',
    response: { ...MaResponse, description: 'A page of deals' },
    params: (query) => ({
      category: splitList(query.category),
      amount: query.amount ?? null,
      country: query.country ?? null,
      status: query.status ?? null,
      acquiring_company: query.acquiring_company ?? null,
      date_from: query.date_from ?? null,
      date_to: query.date_to ?? null,
    }),
    page: v1Page,
    lookupExample: {
      websites: ['https://www.echotixconstruction.com', 'tidewatermedical.com', 'no-such-company.example'],
      linkedin_urls: ['https://www.linkedin.com/company/leadway-it-solutions/'],
    },
  },
  filter: (query) => ({
    ...companyFilter(query),
    minAmount: query.amount,
    status: query.status,
    acquirerWords: queryWords('acquiring_company', query.acquiring_company),
  }),
  conditions(filter) {
    const conditions = companyConditions<MaRow>(filter);
    if (filter.minAmount !== undefined) conditions.push({ column: 'acquisition_amount', op: 'atLeast', value: filter.minAmount });
    if (filter.status !== undefined) conditions.push({ column: 'status', op: 'equals', value: filter.status });
    conditions.push(...wordConditions<MaRow>('acquirer_key', filter.acquirerWords));
    return conditions;
  },
  indexed: {
    status: 'enum',
    acquisition_amount: 'number',
    acquirer_key: 'words',
    // The companies list's has_signals=acquisition: the deals each company was in, either side.
    company_id: 'key',
    acquirer_company_id: 'key',
    ...COMPANY_INDEXED,
  },
  columns: [
    { name: 'investment_id', type: 'uuid' },
    { name: 'status', type: 'text' },
    { name: 'acquisition_amount', type: 'bigint' },
    { name: 'acquirer_key', type: 'text' },
    { name: 'company_id', type: 'uuid' },
    { name: 'acquirer_company_id', type: 'uuid' },
    ...COMPANY_COLUMNS,
  ],
  key: { column: 'investment_id', type: 'uuid' },
  extras: ['source_id', 'status'],
  check: (record) => amountInRange(record, 'acquisition_amount'),
  prepare(record, extras) {
    const doc: MaRecord = { ...record, name_path: record.name_path || slugify(record.company_name) };
    return {
      investment_id: record.investment_id,
      status: extras.status,
      acquisition_amount: record.acquisition_amount,
      acquirer_key: searchText([record.acquired_by]),
      ...companyKeys(record),
      company_id: null,
      acquirer_company_id: null,
      sort_at: record.date_seen,
      doc: JSON.stringify(doc),
    };
  },
  ingestBatchRows: 500,
  links: [
    {
      role: 'acquired company',
      column: 'company_id',
      idField: 'company_id',
      matchField: 'company_match',
      mention: (record) => v1CompanyMention(record.company_name, record),
    },
    {
      role: 'acquirer',
      column: 'acquirer_company_id',
      idField: 'acquirer_company_id',
      matchField: 'acquirer_match',
      mention: (record) => {
        const info = record.acquired_by_company_info ?? {};
        return {
          ...v1CompanyMention(record.acquired_by, { company_info: info }),
          linkedinUrl: record.acquired_by_linkedin_url ?? null,
        };
      },
    },
  ],
  events: {
    created: 'deal.created',
    updated: 'deal.updated',
    // The published webhook filter keys, each the parameter of this list it becomes.
    filterKeys: {
      countries: 'country',
      categories: 'category',
      acquisitionAmount: 'amount',
      dateFrom: 'date_from',
      dateTo: 'date_to',
    },
  },
});
