// The filter index's behaviour written the obvious way: every record in an array, each filter a
// predicate, sort, slice. The index must give the same totals and pages.
import {
  collationKey,
  keyHash,
  searchWords,
  type ColumnSpec,
  type IndexFilter,
  type IndexRecord,
  type QueryResult,
  type SortOrder,
  type Term,
} from '../../src/read/filter-index/index.js';

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

  query(filter: IndexFilter, offset: number, limit: number, order?: SortOrder): QueryResult {
    const matching = [...this.records.values()].filter((record) => this.matches(record, filter)).sort(this.compare(order));
    return { total: matching.length, ids: matching.slice(offset, offset + limit).map((record) => record.id) };
  }

  /** The distinct hashes of a key column's values over the matching records, ascending. */
  keysOf(filter: IndexFilter, column: string): number[] {
    const hashes = new Set<number>();
    for (const record of this.records.values()) {
      if (this.matches(record, filter)) for (const key of keysOfValue(record.values[column])) hashes.add(keyHash(key));
    }
    return [...hashes].sort((a, b) => a - b);
  }

  /** A number column's sum over the matching records, per key hash (nulls add nothing; records without a key left out). */
  keyTotals(filter: IndexFilter, keyColumn: string, numberColumn: string): Map<number, number> {
    const totals = new Map<number, number>();
    for (const record of this.records.values()) {
      if (!this.matches(record, filter)) continue;
      const value = record.values[numberColumn];
      for (const key of new Set(keysOfValue(record.values[keyColumn]))) {
        if (typeof value === 'number') totals.set(keyHash(key), (totals.get(keyHash(key)) ?? 0) + value);
      }
    }
    return totals;
  }

  /** The latest sortAt of the matching records, per key hash. */
  keyLatest(filter: IndexFilter, keyColumn: string): Map<number, number> {
    const latest = new Map<number, number>();
    for (const record of this.records.values()) {
      if (!this.matches(record, filter)) continue;
      for (const key of keysOfValue(record.values[keyColumn])) {
        latest.set(keyHash(key), Math.max(latest.get(keyHash(key)) ?? -Infinity, record.sortAt));
      }
    }
    return latest;
  }

  /** The order of SortOrder's definition: a value first (by it), then nulls; ties and nulls by id; all in `direction`. */
  private compare(order: SortOrder | undefined): (a: IndexRecord, b: IndexRecord) => number {
    const sign = order?.direction === 'asc' ? 1 : -1;
    const by = (x: number | string, y: number | string) => (x < y ? -sign : x > y ? sign : 0);
    const column = order?.column;
    if (column === undefined) return (a, b) => by(a.sortAt, b.sortAt) || by(a.id, b.id);
    const text = this.columns.find((c) => c.name === column)!.kind === 'text';
    const value = (record: IndexRecord): number | string | null => {
      const v = record.values[column] ?? null;
      if (v === null) return null;
      return text ? collationKey(v as string) : (v as number);
    };
    return (a, b) => {
      const x = value(a);
      const y = value(b);
      if (x === null || y === null) return x === y ? by(a.id, b.id) : x === null ? 1 : -1;
      return by(x, y) || by(a.id, b.id);
    };
  }

  private matches(record: IndexRecord, filter: IndexFilter): boolean {
    if (filter.sortFrom !== undefined && !(record.sortAt >= filter.sortFrom)) return false;
    if (filter.sortBefore !== undefined && !(record.sortAt < filter.sortBefore)) return false;
    return filter.terms.every((term) => this.termMatches(record, term));
  }

  private termMatches(record: IndexRecord, term: Term): boolean {
    if (term.column === undefined) {
      const word = Math.floor(record.id / 32);
      return word < term.ids.length && Math.floor(term.ids[word]! / 2 ** (record.id % 32)) % 2 === 1;
    }
    const kind = this.columns.find((column) => column.name === term.column)!.kind;
    const value = record.values[term.column] ?? null;
    const strings = value === null ? [] : typeof value === 'string' ? [value] : (value as readonly string[]);
    switch (kind) {
      case 'enum':
        if ('noneOf' in term) return typeof value !== 'string' || !term.noneOf.includes(value);
        return 'anyOf' in term && typeof value === 'string' && term.anyOf.includes(value);
      case 'multi':
        if ('noneOf' in term) return !strings.some((item) => term.noneOf.includes(item));
        return 'anyOf' in term && strings.some((item) => term.anyOf.includes(item));
      case 'number':
        if ('max' in term) return typeof value === 'number' && value <= term.max;
        return 'min' in term && typeof value === 'number' && value >= term.min;
      case 'key':
        if ('hashes' in term) return strings.some((item) => term.hashes.includes(keyHash(item)));
        if ('keyValues' in term) {
          const { hashes, values } = term.keyValues;
          return strings.some((item) => {
            const at = hashes.indexOf(keyHash(item));
            return at >= 0 && values[at]! >= term.least;
          });
        }
        if ('anyOf' in term) return strings.some((item) => term.anyOf.includes(item));
        return 'equals' in term && strings.includes(term.equals);
      case 'words': {
        if (!('words' in term)) return false;
        const words = strings.flatMap(searchWords);
        return term.words.flatMap(searchWords).every((prefix) => words.some((word) => word.startsWith(prefix)));
      }
      case 'text':
        return false;
    }
  }
}

function keysOfValue(value: unknown): readonly string[] {
  if (value === null || value === undefined) return [];
  return typeof value === 'string' ? [value] : (value as readonly string[]);
}
