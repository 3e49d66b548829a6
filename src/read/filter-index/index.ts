// The in-memory filter index: exact totals and pages for any filter of one dataset, from memory.
export { FilterIndex } from './filter-index.js';
export { distinctAscending, unionAscending } from './bits.js';
export { SPARSE_KEY_VALUES } from './base-columns.js';
export { RecordMatcher, type CompiledFilter } from './matcher.js';
export { collationKey, keyHash, searchWords } from '../../catalog/index.js';
export type {
  ColumnKind,
  ColumnSpec,
  ColumnValue,
  FilterIndexOptions,
  IndexFilter,
  IndexRecord,
  IndexState,
  KeyValues,
  MainSwap,
  QueryResult,
  SortOrder,
  Term,
} from './types.js';
