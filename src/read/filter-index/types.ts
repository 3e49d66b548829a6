// The public shapes of the filter index.

/**
 * How a column is indexed and filtered:
 * - `enum`: one value (string or null) per record; filtered by `anyOf` (OR), or by `noneOf` (the
 *   value is none of them: a null value matches).
 * - `multi`: a set of values per record; `anyOf` matches a record having any of the values, `noneOf`
 *   one having none of them (an empty set matches).
 * - `number`: a number or null; filtered by `min` (value >= min) or `max` (value <= max); null never
 *   matches. Pages may be ordered by it.
 * - `key`: one or more high-cardinality strings per record (a website, LinkedIn keys); `equals` one of them.
 * - `words`: free text (a string or several); `words` matches when every query word, reduced by
 *   `searchWords`, is the start of some word of the record's text.
 * - `text`: one string or null per record, never filtered: pages may be ordered by it, by its
 *   `collationKey` (case and accents ignored).
 */
import type { ColumnKind } from '../../catalog/index.js';
import type { MainPartImage } from './base-columns.js';
import type { PreparedRecord } from './records.js';

export type { ColumnKind };

export interface ColumnSpec {
  readonly name: string;
  readonly kind: ColumnKind;
  /**
   * A `number` column pages are often ordered by: the index keeps its records in that order too
   * (4 bytes a record), so such a page walks that order instead of reading every match's value.
   * `text` columns always keep it.
   */
  readonly sorted?: boolean;
}

/**
 * A column value: `enum` string | null; `multi` string[] | null; `number` number | null;
 * `key` string | string[] | null; `words` string | string[] | null. A missing value is null.
 * Values are indexed as given: the owner normalises them (case, URL form) the way it normalises filters.
 */
export type ColumnValue = string | number | null | undefined | readonly string[];

export interface IndexRecord {
  /** Primary key: an integer up to 2^53 (a bigint id that fits in a double). */
  readonly id: number;
  /** Sort and date-bound value (ms since the epoch); pages are in (sortAt DESC, id DESC) order. */
  readonly sortAt: number;
  /** Values by column name; names no column declares are ignored. */
  readonly values: Readonly<Record<string, ColumnValue>>;
}

/**
 * One condition. Lists are never empty (an empty list is rejected rather than read as "no
 * constraint"); a value the index has never seen matches nothing. Several terms are ANDed, even on
 * the same column. A `words` entry that reduces to no word at all ("--") adds no condition.
 */
export type Term =
  | { readonly column: string; readonly anyOf: readonly string[] }
  | { readonly column: string; readonly noneOf: readonly string[] }
  | { readonly column: string; readonly min: number }
  | { readonly column: string; readonly max: number }
  | { readonly column: string; readonly equals: string }
  | { readonly column: string; readonly words: readonly string[] }
  /**
   * A `key` column holding one of these keys, given by their hashes (keyHash) as `keysOf` returns
   * them: how one index's matches narrow another's (a company's signals narrow the companies).
   * An empty list matches nothing.
   */
  | { readonly column: string; readonly hashes: Float64Array }
  /**
   * A `key` column holding a key whose value in `keyValues` is at least `least`: how a company's
   * latest signal or total narrows the companies ("raised since", "raised at least"). A key absent
   * from the table matches nothing. The index reads the table once per main part into a number
   * column by position, so asking again with another `least` costs what a number term costs.
   */
  | { readonly column: string; readonly keyValues: KeyValues; readonly least: number }
  /**
   * The record's id is in the set: bit `id` of `ids` is set (ids past its end are not in it). How a
   * set of records found elsewhere, by their ids, narrows the index (the rows a full-text search
   * of the database matched). The index reads it into a bitset over each main part's positions
   * once, so asking again with the same array costs what an enum term costs.
   *
   * `combine`, when given, says how the set is made of other sets (the words of a full-text question):
   * called with a function that reads one of those into positions, it returns the set's positions
   * from theirs. The index then reads each of those once per main part and combines bitsets of
   * positions, instead of reading every new set whole; it must answer exactly what `ids` holds.
   */
  | {
      readonly column?: undefined;
      readonly ids: Uint32Array;
      readonly combine?: (positionsOf: (ids: Uint32Array) => Uint32Array) => Uint32Array;
    };

/** Keys (hashes, ascending and distinct) and a value each at the same index. Never changed once made. */
export interface KeyValues {
  readonly hashes: Float64Array;
  readonly values: Float64Array;
}

export interface IndexFilter {
  /** Inclusive lower bound on sortAt. */
  readonly sortFrom?: number;
  /** Exclusive upper bound on sortAt. */
  readonly sortBefore?: number;
  readonly terms: readonly Term[];
}

/**
 * The order of a page; without one, (sortAt DESC, id DESC). Without `column`, by sortAt and then id,
 * both in `direction` (asc is the default order reversed). By a `number` or `text` column: records
 * with a value first, by it (text by its collationKey) in `direction`, ties by id in the same
 * direction; then the records without one (null), by id in the same direction.
 */
export interface SortOrder {
  readonly column?: string;
  readonly direction: 'asc' | 'desc';
}

export interface QueryResult {
  /** Every record matching the filter. */
  total: number;
  /** The ids of the requested page, in (sortAt DESC, id DESC) order, or the SortOrder asked for. */
  ids: number[];
}

export interface FilterIndexOptions {
  /**
   * Pending changes (records upserted since the last rebuild, or records removed from it) at which
   * `needsRebuild` turns true. Default 2,000. Every query checks the delta record by record (tens
   * of ns each), while a rebuild costs about a second of CPU a million records, once: at a
   * thousand queries a second and ten changes a second, a delta of a few thousand keeps the sum
   * of both near its lowest.
   */
  rebuildAfter?: number;
  /** Start `rebuild()` by itself once `needsRebuild` turns true (default true). */
  autoRebuild?: boolean;
  /** Called with an error of a rebuild started automatically; without it the error is thrown (an unhandled rejection). */
  onRebuildError?: (error: unknown) => void;
  /** Longest run of build or rebuild work between two turns of the event loop, in ms (default 4). */
  sliceMs?: number;
  /**
   * A `key` or `words` condition matching at most this share of the records in the date range is
   * evaluated from its own list of records, the other conditions checked record by record, instead
   * of by bitset passes over the whole range (default 1/32: about one record per bitset word).
   */
  selectiveShare?: number;
  /**
   * A number column with at most this many distinct values (65,535 at most, the default) keeps a
   * 1- or 2-byte code per record into a dictionary of them rather than 8-byte values.
   */
  maxCodedValues?: number;
  /**
   * Called with each main part put in use, for the copies of the index in other threads
   * (FilterIndex.fromState) to adopt it. With it, main parts are built with their typed arrays in
   * SharedArrayBuffers, so the copies read the same memory.
   */
  onSwap?: (swap: MainSwap) => void;
}

/**
 * A new main part put in use (see FilterIndex.swap), as posted to the threads that read a copy of
 * the index: the part (its tombstones included) and the ids whose delta records it keeps.
 */
export interface MainSwap {
  readonly image: MainPartImage;
  readonly changed: readonly number[];
}

/** Everything an index holds, for another thread to start a copy from (FilterIndex.fromState). */
export interface IndexState {
  readonly image: MainPartImage;
  readonly delta: readonly PreparedRecord[];
}
