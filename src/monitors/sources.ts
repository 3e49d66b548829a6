// Where each monitored signal type's records are: the data sets, the link columns that name the
// company the signal is about, and the form a record is sent in (as its v2 list serves it).
import { acquisitions, fundingSignals, hiring, jobChanges, mA, type AnyDataset } from '../catalog/index.js';
import type { DatasetName as ChangeDataset } from '../catalog/index.js';
import type { SignalType } from './schemas.js';

export interface SignalSource {
  type: SignalType;
  /** The data set as the change log names it. */
  dataset: ChangeDataset;
  table: string;
  /** The column of the record's natural key (what the change log names it by). */
  keyColumn: string;
  /** The link columns a watched company may be in (any of them makes the record its signal). */
  columns: readonly string[];
  /** The served form of a stored document (the list endpoint's), from its row's natural key and sort_at (epoch ms). */
  serve(doc: string, key: string, sortMs: number): string;
  /** The list endpoint a record of this source is served by. */
  path: string;
}

const source = (type: SignalType, dataset: AnyDataset, columns: readonly string[]): SignalSource => ({
  type,
  dataset: dataset.name as ChangeDataset,
  table: dataset.table,
  keyColumn: dataset.key.column,
  columns,
  serve: (doc, key, sortMs) => (dataset.document ? dataset.document.serve(doc, key, sortMs) : doc),
  path: `/api/${dataset.api.family}${dataset.api.path}`,
});

export const SIGNAL_SOURCES: readonly SignalSource[] = [
  // Funding rounds in their v2 form (the funding signals list).
  source('funding_round', fundingSignals as unknown as AnyDataset, ['company_id']),
  source('acquisition', acquisitions as unknown as AnyDataset, ['company_id']),
  // M&A deals: the company as the target or the acquirer.
  source('acquisition', mA as unknown as AnyDataset, ['company_id', 'acquirer_company_id']),
  // People who joined the company or left it.
  source('job_change', jobChanges as unknown as AnyDataset, ['company_id', 'previous_company_id']),
  source('hiring', hiring as unknown as AnyDataset, ['company_id']),
];

export const SOURCE_DATASETS: readonly ChangeDataset[] = [...new Set(SIGNAL_SOURCES.map((s) => s.dataset))];

export function sourceOf(dataset: string): SignalSource | undefined {
  return SIGNAL_SOURCES.find((s) => s.dataset === dataset);
}
