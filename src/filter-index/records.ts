// Columns resolved against their kind, records checked and reduced to what the index keeps, filters
// checked and reduced to conditions, and those conditions evaluated on one record (the delta part).
import { keyHash, searchWords } from './text.js';
import type { ColumnKind, ColumnSpec, IndexFilter, IndexRecord, Term } from './types.js';

export interface Column {
  readonly name: string;
  readonly kind: ColumnKind;
  /** Index among the columns of the same kind. */
  readonly slot: number;
}

export interface Schema {
  readonly columns: readonly Column[];
  readonly byName: ReadonlyMap<string, Column>;
  /** Columns per kind. */
  readonly counts: Readonly<Record<ColumnKind, number>>;
}

const KINDS: readonly ColumnKind[] = ['enum', 'multi', 'number', 'key', 'words'];

export function resolveSchema(specs: readonly ColumnSpec[]): Schema {
  const counts: Record<ColumnKind, number> = { enum: 0, multi: 0, number: 0, key: 0, words: 0 };
  const byName = new Map<string, Column>();
  const columns: Column[] = [];
  for (const spec of specs) {
    if (!KINDS.includes(spec.kind)) throw new TypeError(`column ${spec.name}: unknown kind ${String(spec.kind)}`);
    if (byName.has(spec.name)) throw new TypeError(`column ${spec.name} is declared twice`);
    const column = { name: spec.name, kind: spec.kind, slot: counts[spec.kind]++ };
    byName.set(spec.name, column);
    columns.push(column);
  }
  return { columns, byName, counts };
}

/**
 * A record as the index keeps it, values grouped by kind (by slot): multi values without duplicates,
 * null numbers as NaN, keys as their hashes, text as its distinct words in sorted order.
 */
export interface PreparedRecord {
  readonly id: number;
  readonly sortAt: number;
  readonly enums: readonly (string | null)[];
  readonly multis: readonly (readonly string[])[];
  readonly numbers: readonly number[];
  readonly keys: readonly (readonly number[])[];
  readonly words: readonly (readonly string[])[];
}

const EMPTY: readonly never[] = [];

function stringList(column: Column, value: unknown): readonly string[] {
  if (value === null || value === undefined) return EMPTY;
  if (typeof value === 'string') return [value];
  if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return value as string[];
  throw new TypeError(`column ${column.name}: expected a string, a list of strings or null`);
}

export function prepareRecord(schema: Schema, record: IndexRecord): PreparedRecord {
  if (!Number.isSafeInteger(record.id)) throw new TypeError(`record id ${String(record.id)} is not an integer up to 2^53`);
  if (!Number.isFinite(record.sortAt)) throw new TypeError(`record ${record.id}: sortAt must be a finite number`);
  const enums: (string | null)[] = [];
  const multis: (readonly string[])[] = [];
  const numbers: number[] = [];
  const keys: (readonly number[])[] = [];
  const words: (readonly string[])[] = [];
  for (const column of schema.columns) {
    const value = record.values[column.name];
    switch (column.kind) {
      case 'enum':
        if (value !== null && value !== undefined && typeof value !== 'string') {
          throw new TypeError(`column ${column.name}: expected a string or null`);
        }
        enums.push(value ?? null);
        break;
      case 'multi': {
        if (typeof value === 'string') throw new TypeError(`column ${column.name}: expected a list of strings or null`);
        multis.push([...new Set(stringList(column, value))]);
        break;
      }
      case 'number':
        if (value !== null && value !== undefined && (typeof value !== 'number' || Number.isNaN(value))) {
          throw new TypeError(`column ${column.name}: expected a number or null`);
        }
        numbers.push(value ?? NaN);
        break;
      case 'key':
        keys.push([...new Set(stringList(column, value).map(keyHash))]);
        break;
      case 'words': {
        const distinct = new Set<string>();
        for (const text of stringList(column, value)) for (const word of searchWords(text)) distinct.add(word);
        words.push([...distinct].sort());
        break;
      }
    }
  }
  return { id: record.id, sortAt: record.sortAt, enums, multis, numbers, keys, words };
}

/** A filter condition on one column, values reduced the way records are. */
export type Condition =
  | {
      readonly kind: 'enum' | 'multi';
      readonly slot: number;
      readonly values: readonly string[];
      readonly set: ReadonlySet<string>;
    }
  | { readonly kind: 'number'; readonly slot: number; readonly min: number }
  | { readonly kind: 'key'; readonly slot: number; readonly hash: number }
  /** One word of a words query: some word of the record's text must start with it. */
  | { readonly kind: 'words'; readonly slot: number; readonly prefix: string };

export interface PreparedFilter {
  readonly sortFrom: number;
  readonly sortBefore: number;
  readonly conditions: readonly Condition[];
}

function expect(column: Column, term: Term, field: 'anyOf' | 'min' | 'equals' | 'words'): void {
  if (!(field in term)) throw new TypeError(`filter on ${column.name}: a ${column.kind} column is filtered by ${field}`);
}

export function prepareFilter(schema: Schema, filter: IndexFilter): PreparedFilter {
  const conditions: Condition[] = [];
  for (const term of filter.terms) {
    const column = schema.byName.get(term.column);
    if (column === undefined) throw new TypeError(`filter on unknown column ${term.column}`);
    const { kind, slot } = column;
    switch (kind) {
      case 'enum':
      case 'multi': {
        expect(column, term, 'anyOf');
        const values = (term as { anyOf: readonly string[] }).anyOf;
        if (values.length === 0) throw new RangeError(`filter on ${column.name}: anyOf is empty`);
        conditions.push({ kind, slot, values, set: new Set(values) });
        break;
      }
      case 'number': {
        expect(column, term, 'min');
        const min = (term as { min: number }).min;
        if (typeof min !== 'number') throw new TypeError(`filter on ${column.name}: min must be a number`);
        conditions.push({ kind, slot, min });
        break;
      }
      case 'key':
        expect(column, term, 'equals');
        conditions.push({ kind, slot, hash: keyHash((term as { equals: string }).equals) });
        break;
      case 'words': {
        expect(column, term, 'words');
        const query = (term as { words: readonly string[] }).words;
        if (query.length === 0) throw new RangeError(`filter on ${column.name}: words is empty`);
        for (const text of query) for (const prefix of searchWords(text)) conditions.push({ kind, slot, prefix });
        break;
      }
    }
  }
  const { sortFrom = -Infinity, sortBefore = Infinity } = filter;
  if (Number.isNaN(sortFrom) || Number.isNaN(sortBefore)) throw new RangeError('sortFrom and sortBefore must be numbers');
  return { sortFrom, sortBefore, conditions };
}

/** Some word of a sorted word list starts with the prefix. */
export function hasPrefix(sortedWords: readonly string[], prefix: string): boolean {
  let lo = 0;
  let hi = sortedWords.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sortedWords[mid]! < prefix) lo = mid + 1;
    else hi = mid;
  }
  return lo < sortedWords.length && sortedWords[lo]!.startsWith(prefix);
}

export function recordMatches(record: PreparedRecord, conditions: readonly Condition[]): boolean {
  for (const condition of conditions) {
    switch (condition.kind) {
      case 'enum': {
        const value = record.enums[condition.slot]!;
        if (value === null || !condition.set.has(value)) return false;
        break;
      }
      case 'multi': {
        const values = record.multis[condition.slot]!;
        let any = false;
        for (let i = 0; i < values.length && !any; i++) any = condition.set.has(values[i]!);
        if (!any) return false;
        break;
      }
      case 'number':
        if (!(record.numbers[condition.slot]! >= condition.min)) return false;
        break;
      case 'key':
        if (!record.keys[condition.slot]!.includes(condition.hash)) return false;
        break;
      case 'words':
        if (!hasPrefix(record.words[condition.slot]!, condition.prefix)) return false;
        break;
    }
  }
  return true;
}

/** a comes before b in (sortAt DESC, id DESC) order. */
export function comesBefore(aSortAt: number, aId: number, bSortAt: number, bId: number): boolean {
  return aSortAt > bSortAt || (aSortAt === bSortAt && aId > bId);
}
