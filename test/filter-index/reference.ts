// The filter index's behaviour written the obvious way: every record in an array, each filter a
// predicate, sort, slice. The index must give the same totals and pages.
import {
  searchWords,
  type ColumnSpec,
  type IndexFilter,
  type IndexRecord,
  type QueryResult,
  type Term,
} from '../../src/filter-index/index.js';

export class ReferenceIndex {
  private records = new Map<number, IndexRecord>();

  constructor(private readonly columns: readonly ColumnSpec[]) {}

  get size(): number {
    return this.records.size;
  }

  build(records: readonly IndexRecord[]): void {
    this.records = new Map(records.map((record) => [record.id, record]));
  }

  upsert(record: IndexRecord): void {
    this.records.set(record.id, record);
  }

  remove(id: number): boolean {
    return this.records.delete(id);
  }

  query(filter: IndexFilter, offset: number, limit: number): QueryResult {
    const matching = [...this.records.values()]
      .filter((record) => this.matches(record, filter))
      .sort((a, b) => b.sortAt - a.sortAt || b.id - a.id);
    return { total: matching.length, ids: matching.slice(offset, offset + limit).map((record) => record.id) };
  }

  private matches(record: IndexRecord, filter: IndexFilter): boolean {
    if (filter.sortFrom !== undefined && !(record.sortAt >= filter.sortFrom)) return false;
    if (filter.sortBefore !== undefined && !(record.sortAt < filter.sortBefore)) return false;
    return filter.terms.every((term) => this.termMatches(record, term));
  }

  private termMatches(record: IndexRecord, term: Term): boolean {
    const kind = this.columns.find((column) => column.name === term.column)!.kind;
    const value = record.values[term.column] ?? null;
    const strings = value === null ? [] : typeof value === 'string' ? [value] : (value as readonly string[]);
    switch (kind) {
      case 'enum':
        return 'anyOf' in term && typeof value === 'string' && term.anyOf.includes(value);
      case 'multi':
        return 'anyOf' in term && strings.some((item) => term.anyOf.includes(item));
      case 'number':
        return 'min' in term && typeof value === 'number' && value >= term.min;
      case 'key':
        return 'equals' in term && strings.includes(term.equals);
      case 'words': {
        if (!('words' in term)) return false;
        const words = strings.flatMap(searchWords);
        return term.words.flatMap(searchWords).every((prefix) => words.some((word) => word.startsWith(prefix)));
      }
    }
  }
}
