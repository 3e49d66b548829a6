// Columns resolved against their kind, records checked and reduced to what the index keeps, filters
// checked and reduced to conditions, and those conditions evaluated on one record (the delta part).
import { collationKey, keyHash, searchWords } from '../../catalog/index.js';
import type { ColumnKind, ColumnSpec, IndexFilter, IndexRecord, KeyValues, SortOrder, Term } from './types.js';
import { distinctAscending, hasBit, lowerBound } from './bits.js';

export interface Column {
  readonly name: string;
  readonly kind: ColumnKind;
  /** Index among the columns of the same kind. */
  readonly slot: number;
  /** The main part keeps its positions in this column's order (see ColumnOrder). */
  readonly sorted: boolean;
}

export interface Schema {
  readonly columns: readonly Column[];
  readonly byName: ReadonlyMap<string, Column>;
  /** Columns per kind. */
  readonly counts: Readonly<Record<ColumnKind, number>>;
}

const KINDS: readonly ColumnKind[] = ['enum', 'multi', 'number', 'key', 'words', 'text'];

export function resolveSchema(specs: readonly ColumnSpec[]): Schema {
  const counts: Record<ColumnKind, number> = { enum: 0, multi: 0, number: 0, key: 0, words: 0, text: 0 };
  const byName = new Map<string, Column>();
  const columns: Column[] = [];
  for (const spec of specs) {
    if (!KINDS.includes(spec.kind)) throw new TypeError(`column ${spec.name}: unknown kind ${String(spec.kind)}`);
    if (byName.has(spec.name)) throw new TypeError(`column ${spec.name} is declared twice`);
    const sorted = spec.kind === 'text' || (spec.kind === 'number' && spec.sorted === true);
    const column = { name: spec.name, kind: spec.kind, slot: counts[spec.kind]++, sorted };
    byName.set(spec.name, column);
    columns.push(column);
  }
  return { columns, byName, counts };
}

/**
 * A record as the index keeps it, values grouped by kind (by slot): multi values without duplicates,
 * null numbers as NaN, keys as their hashes, text as its distinct words in sorted order, `text`
 * columns as their collation keys.
 */
export interface PreparedRecord {
  readonly id: number;
  readonly sortAt: number;
  readonly enums: readonly (string | null)[];
  readonly multis: readonly (readonly string[])[];
  readonly numbers: readonly number[];
  readonly keys: readonly (readonly number[])[];
  readonly words: readonly (readonly string[])[];
  readonly texts: readonly (string | null)[];
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
  const texts: (string | null)[] = [];
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
      case 'text':
        if (value !== null && value !== undefined && typeof value !== 'string') {
          throw new TypeError(`column ${column.name}: expected a string or null`);
        }
        texts.push(value === null || value === undefined ? null : collationKey(value));
        break;
    }
  }
  return { id: record.id, sortAt: record.sortAt, enums, multis, numbers, keys, words, texts };
}

/** A filter condition on one column, values reduced the way records are. */
export type Condition =
  | {
      readonly kind: 'enum' | 'multi';
      readonly slot: number;
      readonly values: readonly string[];
      readonly set: ReadonlySet<string>;
    }
  /** The value is none of `values` (a null value, an empty set, matches). */
  | {
      readonly kind: 'none';
      readonly of: 'enum' | 'multi';
      readonly slot: number;
      readonly values: readonly string[];
      readonly set: ReadonlySet<string>;
    }
  | { readonly kind: 'number'; readonly slot: number; readonly min: number }
  | { readonly kind: 'numberMax'; readonly slot: number; readonly max: number }
  /**
   * Some key of the record has one of `hashes` (one for `equals`, several for `anyOf`, any number for
   * `hashes`). Given as `hashes`, they are sorted and distinct (`sorted`): a record's keys are looked
   * up by binary search, and a long list is merged with the part's sorted keys.
   */
  | { readonly kind: 'key'; readonly slot: number; readonly hashes: ArrayLike<number>; readonly sorted?: true }
  /** Some key of the record has a value of at least `least` in `table`. */
  | { readonly kind: 'keyValue'; readonly slot: number; readonly table: KeyValues; readonly least: number }
  /** One word of a words query: some word of the record's text must start with it. */
  | { readonly kind: 'words'; readonly slot: number; readonly prefix: string }
  /** The record's id is a set bit of `ids`. */
  | {
      readonly kind: 'ids';
      readonly ids: Uint32Array;
      readonly combine?: (positionsOf: (ids: Uint32Array) => Uint32Array) => Uint32Array;
    };

export interface PreparedFilter {
  readonly sortFrom: number;
  readonly sortBefore: number;
  readonly conditions: readonly Condition[];
}

type TermField = 'anyOf' | 'noneOf' | 'min' | 'max' | 'equals' | 'words' | 'hashes' | 'keyValues';

/** The one of `fields` the term has; a TypeError when it has none of them. */
function expect<F extends TermField>(column: Column, term: Term, ...fields: F[]): F {
  const field = fields.find((f) => f in term);
  if (field === undefined) {
    throw new TypeError(`filter on ${column.name}: a ${column.kind} column is filtered by ${fields.join(' or ')}`);
  }
  return field;
}

export function prepareFilter(schema: Schema, filter: IndexFilter): PreparedFilter {
  const conditions: Condition[] = [];
  for (const term of filter.terms) {
    if (term.column === undefined) {
      if (!(term.ids instanceof Uint32Array)) throw new TypeError('an ids term takes a Uint32Array');
      conditions.push({ kind: 'ids', ids: term.ids, ...(term.combine && { combine: term.combine }) });
      continue;
    }
    const column = schema.byName.get(term.column);
    if (column === undefined) throw new TypeError(`filter on unknown column ${term.column}`);
    const { kind, slot } = column;
    switch (kind) {
      case 'enum':
      case 'multi': {
        const field = expect(column, term, 'anyOf', 'noneOf');
        const values = (term as unknown as Record<typeof field, readonly string[]>)[field];
        if (values.length === 0) throw new RangeError(`filter on ${column.name}: ${field} is empty`);
        if (field === 'anyOf') conditions.push({ kind, slot, values, set: new Set(values) });
        else conditions.push({ kind: 'none', of: kind, slot, values, set: new Set(values) });
        break;
      }
      case 'number': {
        const field = expect(column, term, 'min', 'max');
        const bound = (term as unknown as Record<typeof field, number>)[field];
        if (typeof bound !== 'number') throw new TypeError(`filter on ${column.name}: ${field} must be a number`);
        conditions.push(field === 'min' ? { kind, slot, min: bound } : { kind: 'numberMax', slot, max: bound });
        break;
      }
      case 'text':
        throw new TypeError(`filter on ${column.name}: a text column orders pages; it is not filtered`);
      case 'key': {
        const field = expect(column, term, 'equals', 'anyOf', 'hashes', 'keyValues');
        if (field === 'keyValues') {
          const { keyValues, least } = term as { keyValues: KeyValues; least: number };
          if (typeof least !== 'number' || Number.isNaN(least))
            throw new TypeError(`filter on ${column.name}: least must be a number`);
          conditions.push({ kind: 'keyValue', slot, table: keyValues, least });
          break;
        }
        if (field === 'hashes') {
          const given = (term as { hashes: Float64Array }).hashes;
          // keysOf gives them sorted and distinct already: checked in one pass rather than sorted again.
          conditions.push({ kind, slot, hashes: isDistinctSorted(given) ? given : distinctAscending(given), sorted: true });
          break;
        }
        const keys = field === 'equals' ? [(term as { equals: string }).equals] : (term as { anyOf: readonly string[] }).anyOf;
        if (keys.length === 0) throw new RangeError(`filter on ${column.name}: anyOf is empty`);
        conditions.push({ kind, slot, hashes: [...new Set(keys.map(keyHash))] });
        break;
      }
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

function isDistinctSorted(hashes: Float64Array): boolean {
  for (let i = 1; i < hashes.length; i++) if (!(hashes[i - 1]! < hashes[i]!)) return false;
  return true;
}

/** Whether bit `id` of an ids set is set: ids past its end, or not integers, are not in it. */
export function hasId(ids: Uint32Array, id: number): boolean {
  return Number.isInteger(id) && id >= 0 && id < ids.length * 32 && hasBit(ids, id);
}

/** Whether an ascending list holds the value (binary search). */
function sortedHas(sorted: ArrayLike<number>, value: number): boolean {
  const at = lowerBound(sorted, value);
  return at < sorted.length && sorted[at] === value;
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
      case 'none':
        if (condition.of === 'enum') {
          const value = record.enums[condition.slot]!;
          if (value !== null && condition.set.has(value)) return false;
        } else {
          for (const value of record.multis[condition.slot]!) if (condition.set.has(value)) return false;
        }
        break;
      case 'number':
        if (!(record.numbers[condition.slot]! >= condition.min)) return false;
        break;
      case 'numberMax':
        if (!(record.numbers[condition.slot]! <= condition.max)) return false;
        break;
      case 'key': {
        const { hashes, sorted } = condition;
        const has = sorted
          ? (hash: number) => sortedHas(hashes, hash)
          : (hash: number) => Array.prototype.includes.call(hashes, hash);
        if (!record.keys[condition.slot]!.some(has)) return false;
        break;
      }
      case 'keyValue': {
        const { hashes, values } = condition.table;
        const atLeast = (hash: number) => {
          const at = lowerBound(hashes, hash);
          return at < hashes.length && hashes[at] === hash && values[at]! >= condition.least;
        };
        if (!record.keys[condition.slot]!.some(atLeast)) return false;
        break;
      }
      case 'words':
        if (!hasPrefix(record.words[condition.slot]!, condition.prefix)) return false;
        break;
      case 'ids':
        if (!hasId(condition.ids, record.id)) return false;
        break;
    }
  }
  return true;
}

/** An order other than the default (sortAt DESC, id DESC), resolved against the columns. */
export type PreparedOrder =
  /** (sortAt ASC, id ASC): the default order reversed. */
  { readonly kind: 'sortAt' } | { readonly kind: 'number' | 'text'; readonly slot: number; readonly descending: boolean };

/** Null for the default order; throws on a column that does not exist or cannot order. */
export function prepareOrder(schema: Schema, order: SortOrder | undefined): PreparedOrder | null {
  if (order === undefined) return null;
  if (order.direction !== 'asc' && order.direction !== 'desc') {
    throw new RangeError(`order direction ${String(order.direction)} is not asc or desc`);
  }
  if (order.column === undefined) return order.direction === 'desc' ? null : { kind: 'sortAt' };
  const column = schema.byName.get(order.column);
  if (column === undefined) throw new TypeError(`order by unknown column ${order.column}`);
  if (column.kind !== 'number' && column.kind !== 'text') {
    throw new TypeError(`order by ${column.name}: a ${column.kind} column cannot order pages`);
  }
  return { kind: column.kind, slot: column.slot, descending: order.direction === 'desc' };
}

/** a comes before b in (sortAt DESC, id DESC) order. */
export function comesBefore(aSortAt: number, aId: number, bSortAt: number, bId: number): boolean {
  return aSortAt > bSortAt || (aSortAt === bSortAt && aId > bId);
}
