// One record against one filter, without an index: the test the index's delta part applies record
// by record, for code that sees records one at a time (webhooks matching each change as it comes).
import { prepareFilter, prepareRecord, recordMatches, resolveSchema, type PreparedFilter, type Schema } from './records.js';
import type { ColumnSpec, IndexFilter, IndexRecord } from './types.js';

/** A filter checked and reduced once, for many records. */
export interface CompiledFilter {
  readonly prepared: PreparedFilter;
}

export class RecordMatcher {
  private readonly schema: Schema;

  constructor(columns: readonly ColumnSpec[]) {
    this.schema = resolveSchema(columns);
  }

  /** Throws as FilterIndex.query would on a filter that does not fit the columns. */
  compile(filter: IndexFilter): CompiledFilter {
    return { prepared: prepareFilter(this.schema, filter) };
  }

  /** Whether the record would be among the filter's matches in an index of these columns. */
  matches(record: IndexRecord, filter: CompiledFilter): boolean {
    const { sortFrom, sortBefore, conditions } = filter.prepared;
    if (!(record.sortAt >= sortFrom && record.sortAt < sortBefore)) return false;
    return recordMatches(prepareRecord(this.schema, record), conditions);
  }
}
