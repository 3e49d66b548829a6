// Acquisition signals: GET /api/v2/signals/acquisitions, ingest kind "acquisitions".
import type { Condition } from '../db/queries/conditions.js';
import { generateAcquisitionSignals } from '../seed/v2-generator.js';
import { AcquisitionSignalRecord, AcquisitionsQuery, AcquisitionsResponse } from '../schemas/v2.js';
import { countryKey } from '../services/countries.js';
import { labelKey, splitList } from '../services/normalize.js';
import { defineDataset } from './dataset.js';
import { countryKeys, dateBounds, queryWords, searchText, signalPaging, wordConditions } from './filters.js';

export interface AcquisitionFilter {
  countryKeys: string[];
  categoryKeys: string[];
  words: string[];
  from?: string;
  before?: string;
}

export interface AcquisitionRow {
  record_id: string;
  category_key: string | null;
  country_key: string | null;
  search_text: string;
  sort_at: string;
  doc: string | Buffer;
}

export const acquisitions = defineDataset<
  'acquisitions',
  typeof AcquisitionsQuery,
  AcquisitionFilter,
  typeof AcquisitionSignalRecord,
  AcquisitionRow
>({
  name: 'acquisitions',
  label: 'acquisition signals',
  table: 'acquisition_signals',
  record: AcquisitionSignalRecord,
  query: AcquisitionsQuery,
  api: {
    family: 'v2',
    path: '/signals/acquisitions',
    endpoint: 'signals.acquisitions',
    operationId: 'getAcquisitionSignals',
    summary: 'Acquisition signals',
    description: 'Companies showing acquisition indicators, newest `lastUpdated` (the signal date) first.',
    response: { ...AcquisitionsResponse, description: 'A page of records' },
    paging: signalPaging,
  },
  filter: (query) => ({
    countryKeys: countryKeys(query.countries),
    categoryKeys: [...new Set(splitList(query.categories).map(labelKey))],
    words: queryWords('search', query.search),
    ...dateBounds(query.dateFrom, query.dateTo, ['dateFrom', 'dateTo']),
  }),
  conditions(filter) {
    const conditions: Condition<AcquisitionRow>[] = [];
    if (filter.countryKeys.length > 0) conditions.push({ column: 'country_key', op: 'in', values: filter.countryKeys });
    if (filter.categoryKeys.length > 0) {
      conditions.push({ column: 'category_key', op: 'in', values: filter.categoryKeys });
    }
    if (filter.from !== undefined) conditions.push({ column: 'sort_at', op: 'atLeast', value: filter.from });
    if (filter.before !== undefined) conditions.push({ column: 'sort_at', op: 'below', value: filter.before });
    conditions.push(...wordConditions<AcquisitionRow>('search_text', filter.words));
    return conditions;
  },
  indexed: { category_key: 'enum', country_key: 'enum', search_text: 'words' },
  columns: [
    { name: 'record_id', type: 'uuid' },
    { name: 'category_key', type: 'text' },
    { name: 'country_key', type: 'text' },
    { name: 'search_text', type: 'text' },
    { name: 'sort_at', type: 'timestamptz' },
    { name: 'doc', type: 'text' },
  ],
  key: { column: 'record_id', type: 'uuid' },
  extras: ['source_id'],
  prepare: (record) => ({
    record_id: record.id,
    category_key: record.category === null ? null : labelKey(record.category),
    country_key: countryKey(record.country),
    search_text: searchText([record.companyName, record.industry]),
    sort_at: record.lastUpdated,
    doc: JSON.stringify(record),
  }),
  ingestBatchRows: 1000,
  seed: {
    sizes: { demo: 1_000, large: 200_000 },
    seedOffset: 4,
    *generate(seed, count, asOf) {
      for (const record of generateAcquisitionSignals(seed, count, asOf)) yield { record };
    },
  },
});
