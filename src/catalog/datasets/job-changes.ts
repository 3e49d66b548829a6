// Job change signals: GET /api/v2/signals/job-changes, ingest kind "job-changes".
import type { Condition } from '../conditions.js';
import { JobChangeRecord, JobChangesQuery, JobChangesResponse } from '../schemas/v2-schemas.js';
import { urlKey } from '../normalize.js';
import { classifyRole, DEPARTMENTS, POSITIONS, SENIORITIES } from '../role-classifier.js';
import { defineDataset, type RowOrder } from '../dataset.js';
import { allowedValues, queryWords, searchText, signalPaging, urlFilterKey, wordConditions } from '../query-filters.js';
import { dateRange, sortOrder } from '../published-parameters.js';
import {
  companyIdentifiers,
  companyIds,
  linkedCompanyWith,
  namesCompanies,
  type CompanyIdentifiers,
} from '../company-identifiers.js';

export interface JobChangeFilter extends CompanyIdentifiers {
  words: string[];
  personKey?: string;
  companyKey?: string;
  positions: string[];
  departments: string[];
  seniorities: string[];
  from?: string;
  before?: string;
  companyIds?: string[];
  order?: RowOrder<JobChangeRow>;
}

/** The published sort fields on our columns (occurredAt is sort_at). */
const SORT_COLUMNS = {
  occurred_at: 'sort_at',
  discovered_at: 'discovered_at',
  person_name: 'person_name',
  company_name: 'company_name',
} as const;

export interface JobChangeRow {
  record_id: string;
  position: string | null;
  departments: string[];
  seniority: string | null;
  person_key: string | null;
  company_key: string | null;
  search_text: string;
  /** What sort_by orders by besides sort_at: discoveredAt, and the names (the index orders by their collation keys). */
  discovered_at: string;
  person_name: string;
  company_name: string;
  /** The new company and the previous one (src/companies); company_id is what company_id matches. */
  company_id: string | null;
  previous_company_id: string | null;
  sort_at: string;
  doc: string | Buffer;
}

export const jobChanges = defineDataset<
  'job-changes',
  typeof JobChangesQuery,
  JobChangeFilter,
  typeof JobChangeRecord,
  JobChangeRow
>({
  name: 'job-changes',
  label: 'job changes',
  table: 'job_changes',
  record: JobChangeRecord,
  query: JobChangesQuery,
  api: {
    family: 'v2',
    path: '/signals/job-changes',
    endpoint: 'signals.job-changes',
    operationId: 'getJobChangeSignals',
    summary: 'Job change signals',
    description:
      'People who changed role or company, newest `occurredAt` first. Positions, departments and seniorities are derived from ' +
      '`newRole` when the signal is recorded; OR within one list, AND across lists. ' +
      `positions: ${POSITIONS.join(', ')}. departments: ${DEPARTMENTS.join(', ')}. seniorities: ${SENIORITIES.join(', ')}.`,
    response: { ...JobChangesResponse, description: 'A page of records' },
    paging: signalPaging,
    exactMatch: namesCompanies,
  },
  filter: (query, context) => ({
    words: queryWords('search', query.search),
    personKey: query.personLinkedinUrl === undefined ? undefined : urlFilterKey(query.personLinkedinUrl),
    companyKey: query.companyLinkedinUrl === undefined ? undefined : urlFilterKey(query.companyLinkedinUrl),
    positions: allowedValues('positions', query.positions, POSITIONS),
    departments: allowedValues('departments', query.departments, DEPARTMENTS),
    seniorities: allowedValues('seniorities', query.seniorities, SENIORITIES),
    ...dateRange(query, context),
    companyIds: companyIds(query.company_id),
    ...companyIdentifiers(query),
    order: sortOrder<keyof typeof SORT_COLUMNS, JobChangeRow>(query, SORT_COLUMNS, 'occurred_at'),
  }),
  conditions(filter) {
    const conditions: Condition<JobChangeRow>[] = [];
    if (filter.personKey !== undefined) conditions.push({ column: 'person_key', op: 'equals', value: filter.personKey });
    if (filter.companyKey !== undefined) conditions.push({ column: 'company_key', op: 'equals', value: filter.companyKey });
    if (filter.positions.length > 0) conditions.push({ column: 'position', op: 'in', values: filter.positions });
    if (filter.departments.length > 0) {
      conditions.push({ column: 'departments', op: 'overlaps', values: filter.departments });
    }
    if (filter.seniorities.length > 0) conditions.push({ column: 'seniority', op: 'in', values: filter.seniorities });
    if (filter.from !== undefined) conditions.push({ column: 'sort_at', op: 'atLeast', value: filter.from });
    if (filter.before !== undefined) conditions.push({ column: 'sort_at', op: 'below', value: filter.before });
    conditions.push(...wordConditions<JobChangeRow>('search_text', filter.words));
    if (filter.companyIds) conditions.push({ column: 'company_id', op: 'in', values: filter.companyIds });
    if (filter.linkedinKeys) conditions.push({ column: 'company_key', op: 'in', values: filter.linkedinKeys });
    // A job change names no website: the domain is the linked company's.
    if (filter.domainKeys) conditions.push(linkedCompanyWith<JobChangeRow>('company_id', 'website_key', filter.domainKeys));
    return conditions;
  },
  order: (filter) => filter.order,
  indexed: {
    discovered_at: 'number',
    person_name: 'text',
    company_name: 'text',
    position: 'enum',
    departments: 'multi',
    seniority: 'enum',
    person_key: 'key',
    company_key: 'key',
    search_text: 'words',
    company_id: 'key',
    // A company's profile counts the people who left it (src/companies).
    previous_company_id: 'key',
  },
  columns: [
    { name: 'record_id', type: 'uuid' },
    { name: 'position', type: 'text' },
    { name: 'departments', type: 'text[]' },
    { name: 'seniority', type: 'text' },
    { name: 'person_key', type: 'text' },
    { name: 'company_key', type: 'text' },
    { name: 'search_text', type: 'text' },
    { name: 'discovered_at', type: 'timestamptz' },
    { name: 'person_name', type: 'text' },
    { name: 'company_name', type: 'text' },
    { name: 'company_id', type: 'uuid' },
    { name: 'previous_company_id', type: 'uuid' },
    { name: 'sort_at', type: 'timestamptz' },
    { name: 'doc', type: 'text' },
  ],
  key: { column: 'record_id', type: 'uuid' },
  extras: ['source_id'],
  prepare(record) {
    const role = classifyRole(record.newRole);
    return {
      record_id: record.signalId,
      position: role.position,
      departments: role.departments,
      seniority: role.seniority,
      person_key: urlKey(record.personLinkedinUrl),
      company_key: urlKey(record.companyLinkedinUrl),
      search_text: searchText([record.personName, record.companyName, record.newRole, record.previousCompanyName]),
      discovered_at: record.discoveredAt,
      person_name: record.personName,
      company_name: record.companyName,
      company_id: null,
      previous_company_id: null,
      sort_at: record.occurredAt,
      doc: JSON.stringify(record),
    };
  },
  ingestBatchRows: 2000,
  links: [
    {
      role: 'new company',
      column: 'company_id',
      idField: 'companyId',
      matchField: 'companyMatch',
      mention: (record) => ({ name: record.companyName, linkedinUrl: record.companyLinkedinUrl }),
    },
    {
      role: 'previous company',
      column: 'previous_company_id',
      idField: 'previousCompanyId',
      matchField: 'previousCompanyMatch',
      mention: (record) => (record.previousCompanyName === null ? null : { name: record.previousCompanyName }),
    },
  ],
  events: {
    created: 'job_change.created',
    updated: 'job_change.updated',
    // The published webhook filter keys, each the parameter of this list it becomes.
    filterKeys: { search: 'search' },
  },
});
