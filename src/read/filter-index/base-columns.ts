// The main part of an index: every record it was built from, in positions sorted by
// (sortAt DESC, id DESC), stored column by column in typed arrays. It never changes after it is
// built except for its tombstones (records updated or removed since), and it answers a filter
// with an exact total and random access to its matches in order (rank, select, next).
import { hasBit, lowerBound, lowestBit, popcount, rangeMask, selectBit, setBit, wordCount } from './bits.js';
import { PackedKeys, sharedCopy, type PackedKeysImage } from './packed-keys.js';
import { comesBefore, type Condition, type Schema } from './records.js';
import { numberIndexOf } from './number-buckets.js';
import type { KeyValues } from './types.js';

export type Codes = Uint8Array | Uint16Array | Int32Array;

/** One value per record: code 0 is null, codes 1… index `values`; a bitset per non-null code. */
export interface EnumIndex {
  readonly values: readonly (string | null)[];
  readonly lookup: ReadonlyMap<string, number>;
  readonly codes: Codes;
  readonly bitsets: readonly Uint32Array[];
}

/** A set of values per record: a bitset per value. */
export interface MultiIndex {
  readonly values: readonly string[];
  readonly lookup: ReadonlyMap<string, number>;
  readonly bitsets: readonly Uint32Array[];
}

/**
 * Values (NaN for null) and a bit-sliced bucket code per record: thresholds[0] is the smallest value
 * and the others are quantiles (up to 255 buckets); a record's code is 1 + the index of the last
 * threshold at or below its value (0 for null), bit i of it in planes[i]. A `min` compares the codes
 * with the bucket of `min` in one word-parallel pass over the planes: records in higher buckets
 * match, and only those in that bucket (about 1/255 of the records, fewer after the other
 * conditions) have their value read.
 */
export interface NumberIndex {
  /**
   * The values when there are too many distinct ones to code (more than 65,535); else null and
   * each position's value is `dictionary[codes[position]]` (1 or 2 bytes a record instead of 8).
   */
  readonly values: Float64Array | null;
  readonly codes: Uint8Array | Uint16Array | null;
  /** The distinct values ascending after NaN (code 0, null); empty when `values` holds them. */
  readonly dictionary: Float64Array;
  readonly thresholds: Float64Array;
  readonly planes: readonly Uint32Array[];
  /** For a `sorted` column. */
  readonly order: ColumnOrder | null;
}

/** The value at a position of a number column (NaN for null). */
export function numberAt(index: NumberIndex, position: number): number {
  const { codes } = index;
  return codes === null ? index.values![position]! : index.dictionary[codes[position]!]!;
}

/**
 * Every position in a column's order: the `valued` ones with a value first, by (value, id)
 * ascending, then those without, by id ascending. Read backwards within each part, it is the
 * descending order (nulls still last).
 */
export interface ColumnOrder {
  readonly positions: Int32Array;
  readonly valued: number;
}

/** (hash, position) pairs sorted by hash, then position: a lookup is a binary search. */
export interface KeyIndex {
  readonly hashes: Float64Array;
  readonly positions: Int32Array;
}

/** Distinct words in sorted order; word i's records are postings[offsets[i] .. offsets[i + 1]), ascending. */
export interface WordsIndex {
  readonly words: PackedKeys;
  readonly offsets: Int32Array;
  readonly postings: Int32Array;
}

/**
 * A `text` column: its distinct collation keys in sorted order, and each position's index among
 * them (-1 for null), so positions compare by a number.
 */
export interface TextIndex {
  readonly keys: PackedKeys;
  readonly ranks: Int32Array;
  readonly order: ColumnOrder;
}

/**
 * Record ids: 4 bytes each when every id of the part is an integer that fits (a table's serial
 * ids, until two billion), else 8 (any integer up to 2^53).
 */
export type IdArray = Int32Array | Float64Array;

export interface MainParts {
  readonly ids: IdArray;
  readonly sortAt: Float64Array;
  /** Positions sorted by id (among equal ids, the one loaded last comes last: the one in force). */
  readonly byId: Int32Array;
  readonly removed: Uint32Array;
  readonly removedCount: number;
  readonly enums: readonly EnumIndex[];
  readonly multis: readonly MultiIndex[];
  readonly numbers: readonly NumberIndex[];
  readonly keys: readonly KeyIndex[];
  readonly words: readonly WordsIndex[];
  readonly texts: readonly TextIndex[];
}

/** A main part as posted to another thread: plain data (see MainPart.image). */
export interface MainPartImage extends Omit<MainParts, 'texts' | 'words'> {
  readonly words: readonly (Omit<WordsIndex, 'words'> & { readonly words: PackedKeysImage })[];
  readonly texts: readonly (Omit<TextIndex, 'keys'> & { readonly keys: PackedKeysImage })[];
}

/**
 * The same structure with every typed array copied into a SharedArrayBuffer (those already shared
 * are kept); Maps, strings and numbers as they are.
 */
function shareArrays(value: unknown): unknown {
  if (ArrayBuffer.isView(value)) {
    const array = value as unknown as Uint8Array;
    return array.buffer instanceof SharedArrayBuffer ? array : sharedCopy(array);
  }
  if (value instanceof PackedKeys) return value.shared();
  if (Array.isArray(value)) return value.map(shareArrays);
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([name, member]) => [name, shareArrays(member)]));
  }
  return value;
}

/** A condition bound to this part's structures. */
type BoundTerm =
  | {
      readonly kind: 'bits';
      readonly sets: readonly Uint32Array[];
      /** For an enum: its per-record codes and which codes are accepted (checked row by row). */
      readonly codes: Codes | null;
      readonly accepted: Uint8Array | null;
    }
  /** None of the sets: for an enum, its codes and which codes are excluded (checked row by row). */
  | {
      readonly kind: 'notBits';
      readonly sets: readonly Uint32Array[];
      readonly codes: Codes | null;
      readonly excluded: Uint8Array | null;
    }
  | { readonly kind: 'number'; readonly index: NumberIndex; readonly min: number }
  | { readonly kind: 'atMost'; readonly index: NumberIndex; readonly max: number }
  /** Ascending position lists data[starts[i] .. ends[i]) for every i, united (a position may be in several). */
  | {
      readonly kind: 'lists';
      readonly data: Int32Array;
      readonly starts: ArrayLike<number>;
      readonly ends: ArrayLike<number>;
      /** Their lengths summed. */
      readonly count: number;
    };

type ListsTerm = Extract<BoundTerm, { kind: 'lists' }>;

const EMPTY_BITS = new Uint32Array(0);

export class MainPart {
  readonly size: number;
  readonly ids: IdArray;
  readonly sortAt: Float64Array;
  readonly byId: Int32Array;
  readonly removed: Uint32Array;
  removedCount: number;
  readonly enums: readonly EnumIndex[];
  readonly multis: readonly MultiIndex[];
  readonly numbers: readonly NumberIndex[];
  readonly keys: readonly KeyIndex[];
  readonly words: readonly WordsIndex[];
  readonly texts: readonly TextIndex[];

  // Scratch space of evaluate(), shared by every query: queries run one at a time, synchronously.
  private readonly acc: Uint32Array;
  private readonly cumulative: Int32Array;
  private readonly scratchBits: Uint32Array[] = [];
  private candidates = new Int32Array(256);
  private matches = new Int32Array(256);
  /** Key tables read against this part's positions (a keyValue condition), while the table is kept. */
  private readonly keyValueReads = new WeakMap<KeyValues, KeyValuesRead>();
  /** Each ids set asked for, read into the bits of the positions whose ids it holds (null: none). */
  private readonly idsReads = new WeakMap<Uint32Array, Uint32Array | null>();

  // What the last evaluate() found: its matches are either `matches[0 .. total)` (listed) or the
  // set bits of `acc` over the words [firstWord, lastWord], with `cumulative` counts before each word.
  private listed = true;
  private total = 0;
  private lo = 0;
  private hi = 0;
  private firstWord = 0;
  private lastWord = -1;

  constructor(parts: MainParts) {
    this.size = parts.ids.length;
    this.ids = parts.ids;
    this.sortAt = parts.sortAt;
    this.byId = parts.byId;
    this.removed = parts.removed;
    this.removedCount = parts.removedCount;
    this.enums = parts.enums;
    this.multis = parts.multis;
    this.numbers = parts.numbers;
    this.keys = parts.keys;
    this.words = parts.words;
    this.texts = parts.texts;
    this.acc = new Uint32Array(wordCount(this.size));
    this.cumulative = new Int32Array(wordCount(this.size));
  }

  static empty(schema: Schema): MainPart {
    const none = new Float64Array(0);
    const positions = new Int32Array(0);
    const repeat = <T>(count: number, make: () => T): T[] => Array.from({ length: count }, make);
    return new MainPart({
      ids: none,
      sortAt: none,
      byId: positions,
      removed: EMPTY_BITS,
      removedCount: 0,
      enums: repeat(schema.counts.enum, () => ({
        values: [null],
        lookup: new Map(),
        codes: new Uint8Array(0),
        bitsets: [EMPTY_BITS],
      })),
      multis: repeat(schema.counts.multi, () => ({ values: [], lookup: new Map(), bitsets: [] })),
      numbers: repeat(schema.counts.number, () => ({
        values: none,
        codes: null,
        dictionary: none,
        thresholds: none,
        planes: [],
        order: null,
      })),
      keys: repeat(schema.counts.key, () => ({ hashes: none, positions })),
      words: repeat(schema.counts.words, () => ({ words: PackedKeys.EMPTY, offsets: new Int32Array(1), postings: positions })),
      texts: repeat(schema.counts.text, () => ({ keys: PackedKeys.EMPTY, ranks: positions, order: { positions, valued: 0 } })),
    });
  }

  /**
   * A copy whose typed arrays live in SharedArrayBuffers, so other threads read them without a copy
   * of their own (see image); its tombstones and scratch space stay its own.
   */
  shared(): MainPart {
    const parts = shareArrays({ ...this.parts(), removed: undefined }) as MainParts;
    return new MainPart({ ...parts, removed: this.removed, removedCount: this.removedCount });
  }

  /**
   * What another thread needs to read this part (MainPart.fromImage): the arrays (not copied when
   * posted if this part is `shared`), the dictionaries, and a copy of the tombstones as of now.
   */
  image(): MainPartImage {
    const parts = this.parts();
    return {
      ...parts,
      removed: this.removed.slice(),
      words: parts.words.map((words) => ({ ...words, words: words.words.image() })),
      texts: parts.texts.map((text) => ({ ...text, keys: text.keys.image() })),
    };
  }

  static fromImage(image: MainPartImage): MainPart {
    return new MainPart({
      ...image,
      words: image.words.map((words) => ({ ...words, words: PackedKeys.fromImage(words.words) })),
      texts: image.texts.map((text) => ({ ...text, keys: PackedKeys.fromImage(text.keys) })),
    });
  }

  private parts(): MainParts {
    const { ids, sortAt, byId, removed, removedCount, enums, multis, numbers, keys, words, texts } = this;
    return { ids, sortAt, byId, removed, removedCount, enums, multis, numbers, keys, words, texts };
  }

  /** Records in force (loaded and not removed since). */
  get liveCount(): number {
    return this.size - this.removedCount;
  }

  /** Position of the record with this id that is in force, or -1. */
  find(id: number): number {
    const { byId, ids } = this;
    let lo = 0;
    let hi = byId.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (ids[byId[mid]!]! <= id) lo = mid + 1;
      else hi = mid;
    }
    if (lo === 0) return -1;
    const position = byId[lo - 1]!;
    return ids[position] === id && !hasBit(this.removed, position) ? position : -1;
  }

  remove(position: number): void {
    setBit(this.removed, position);
    this.removedCount++;
  }

  /** How many positions hold records ordered before (sortAt, id). */
  countBefore(sortAt: number, id: number): number {
    let lo = 0;
    let hi = this.size;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (comesBefore(this.sortAt[mid]!, this.ids[mid]!, sortAt, id)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** First position whose sortAt is below the bound (positions are newest first). */
  private firstBelow(bound: number): number {
    let lo = 0;
    let hi = this.size;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.sortAt[mid]! >= bound) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /**
   * A key table against this part's positions, made on first use per table (one walk of the key
   * index and the table, both sorted by hash) and kept as long as the table is. A table reaching
   * many positions becomes a number column (a position's value is its keys' largest in the table):
   * a threshold is then a word-parallel number term. A table reaching few keeps each entry's
   * positions, and a threshold sets the bits of the entries at or above it.
   */
  private keyValuesRead(slot: number, table: KeyValues): KeyValuesRead {
    let read = this.keyValueReads.get(table);
    if (read !== undefined) return read;
    const { hashes, positions } = this.keys[slot]!;
    // Entry j's positions are pairs [first[j], last[j]) of the key index.
    const first = new Int32Array(table.hashes.length);
    const last = new Int32Array(table.hashes.length);
    let reached = 0;
    // A long table is merged with the index's pairs in one walk; a short one looks each entry up.
    const walk = table.hashes.length * 16 > hashes.length;
    for (let i = 0, j = 0; j < table.hashes.length; j++) {
      const want = table.hashes[j]!;
      if (walk) while (i < hashes.length && hashes[i]! < want) i++;
      else i = lowerBound(hashes, want, i);
      first[j] = i;
      while (i < hashes.length && hashes[i] === want) i++;
      last[j] = i;
      reached += i - first[j]!;
    }
    if (reached > this.size / SPARSE_KEY_VALUES) {
      const values = new Float64Array(this.size).fill(NaN);
      for (let j = 0; j < table.hashes.length; j++) {
        const value = table.values[j]!;
        for (let k = first[j]!; k < last[j]!; k++) {
          const position = positions[k]!;
          if (!(values[position]! >= value)) values[position] = value;
        }
      }
      read = { column: numberIndexOf(values) };
    } else {
      const offsets = new Int32Array(table.hashes.length + 1);
      const reachedPositions = new Int32Array(reached);
      for (let j = 0, n = 0; j < table.hashes.length; j++) {
        for (let k = first[j]!; k < last[j]!; k++) reachedPositions[n++] = positions[k]!;
        offsets[j + 1] = n;
      }
      read = { offsets, positions: reachedPositions };
    }
    this.keyValueReads.set(table, read);
    return read;
  }

  /** The bits of the positions whose keys have a value of at least `least` in the table; null when none has. */
  private keyValuesBits(
    read: { offsets: Int32Array; positions: Int32Array },
    table: KeyValues,
    least: number,
  ): Uint32Array | null {
    const bits = new Uint32Array(wordCount(this.size));
    let any = false;
    for (let j = 0; j < table.values.length; j++) {
      if (!(table.values[j]! >= least)) continue;
      for (let k = read.offsets[j]!; k < read.offsets[j + 1]!; k++) {
        setBit(bits, read.positions[k]!);
        any = true;
      }
    }
    return any ? bits : null;
  }

  /**
   * The bits of the positions of a set made of others (see the `ids` term's `combine`), once per set:
   * each of those is read into positions once per main part (idsBits), so a new question of words
   * already asked costs a few bitset operations instead of a pass over every record.
   */
  private combinedBits(
    idSet: Uint32Array,
    combine: (positionsOf: (ids: Uint32Array) => Uint32Array) => Uint32Array,
  ): Uint32Array | null {
    const kept = this.idsReads.get(idSet);
    if (kept !== undefined) return kept;
    let none: Uint32Array | undefined;
    const bits = combine((ids) => this.idsBits(ids) ?? (none ??= new Uint32Array(wordCount(this.size))));
    const found = bits.some((word) => word !== 0) ? bits : null;
    this.idsReads.set(idSet, found);
    return found;
  }

  /** The bits of the positions whose ids are in the set, once per set; null when none is. */
  private idsBits(idSet: Uint32Array): Uint32Array | null {
    let bits = this.idsReads.get(idSet);
    if (bits !== undefined) return bits;
    const { ids, size } = this;
    const limit = idSet.length * 32;
    const found = new Uint32Array(wordCount(size));
    let any = false;
    let count = 0;
    for (let w = 0; w < idSet.length; w++) count += popcount(idSet[w]!);
    if (count * 32 < size) {
      // Few ids (a rare word): each one's position by binary search, rather than a pass over every record.
      for (let w = 0; w < idSet.length; w++) {
        for (let word = idSet[w]!; word !== 0; word &= word - 1) {
          const p = this.find(w * 32 + lowestBit(word));
          if (p < 0) continue;
          found[p >>> 5]! |= 1 << (p & 31);
          any = true;
        }
      }
      bits = any ? found : null;
      this.idsReads.set(idSet, bits);
      return bits;
    }
    for (let p = 0; p < size; p++) {
      const id = ids[p]!;
      // Float64 ids may exceed the set (or be past 2^32, where >>> would wrap): only ids below its end are in it.
      if (id < limit && (idSet[id >>> 5]! & (1 << (id & 31))) !== 0) {
        found[p >>> 5]! |= 1 << (p & 31);
        any = true;
      }
    }
    bits = any ? found : null;
    this.idsReads.set(idSet, bits);
    return bits;
  }

  /** Binds the conditions to this part; null when one of them can match nothing here. */
  bind(conditions: readonly Condition[]): BoundTerm[] | null {
    const terms: BoundTerm[] = [];
    for (const condition of conditions) {
      switch (condition.kind) {
        case 'enum': {
          const index = this.enums[condition.slot]!;
          const accepted = new Uint8Array(index.values.length);
          const sets: Uint32Array[] = [];
          for (const value of condition.values) {
            const code = index.lookup.get(value);
            if (code === undefined || accepted[code] === 1) continue;
            accepted[code] = 1;
            sets.push(index.bitsets[code]!);
          }
          if (sets.length === 0) return null;
          terms.push({ kind: 'bits', sets, codes: index.codes, accepted });
          break;
        }
        case 'multi': {
          const index = this.multis[condition.slot]!;
          const sets = new Set<Uint32Array>();
          for (const value of condition.values) {
            const code = index.lookup.get(value);
            if (code !== undefined) sets.add(index.bitsets[code]!);
          }
          if (sets.size === 0) return null;
          terms.push({ kind: 'bits', sets: [...sets], codes: null, accepted: null });
          break;
        }
        case 'none': {
          // Values this part has never seen exclude nothing; when none is known, no condition is left.
          const sets: Uint32Array[] = [];
          if (condition.of === 'enum') {
            const index = this.enums[condition.slot]!;
            const excluded = new Uint8Array(index.values.length);
            for (const value of condition.values) {
              const code = index.lookup.get(value);
              if (code === undefined || excluded[code] === 1) continue;
              excluded[code] = 1;
              sets.push(index.bitsets[code]!);
            }
            if (sets.length > 0) terms.push({ kind: 'notBits', sets, codes: index.codes, excluded });
          } else {
            const index = this.multis[condition.slot]!;
            for (const value of new Set(condition.values)) {
              const code = index.lookup.get(value);
              if (code !== undefined) sets.push(index.bitsets[code]!);
            }
            if (sets.length > 0) terms.push({ kind: 'notBits', sets, codes: null, excluded: null });
          }
          break;
        }
        case 'number': {
          const index = this.numbers[condition.slot]!;
          if (Number.isNaN(condition.min) || index.thresholds.length === 0) return null;
          terms.push({ kind: 'number', index, min: condition.min });
          break;
        }
        case 'numberMax': {
          const index = this.numbers[condition.slot]!;
          if (Number.isNaN(condition.max) || index.thresholds.length === 0) return null;
          terms.push({ kind: 'atMost', index, max: condition.max });
          break;
        }
        case 'key': {
          const { hashes, positions } = this.keys[condition.slot]!;
          if (condition.sorted && condition.hashes.length > MERGED_KEYS) {
            // Many keys, sorted: one merge of both sorted lists sets their positions' bits.
            const bits = keyBits(hashes, positions, condition.hashes, this.size);
            if (bits === null) return null;
            terms.push({ kind: 'bits', sets: [bits], codes: null, accepted: null });
            break;
          }
          // Each hash's positions are a sorted run of `positions`; several keys (anyOf) are several lists,
          // united where they are read: into a bitset, or (a generator) sorted together, few as they are then.
          const starts: number[] = [];
          const ends: number[] = [];
          let count = 0;
          for (const hash of Array.from(condition.hashes)) {
            const first = lowerBound(hashes, hash);
            let last = first;
            while (last < hashes.length && hashes[last] === hash) last++;
            if (last === first) continue;
            starts.push(first);
            ends.push(last);
            count += last - first;
          }
          if (count === 0) return null;
          terms.push({ kind: 'lists', data: positions, starts, ends, count });
          break;
        }
        case 'keyValue': {
          const read = this.keyValuesRead(condition.slot, condition.table);
          if ('column' in read) {
            if (read.column.thresholds.length === 0) return null;
            terms.push({ kind: 'number', index: read.column, min: condition.least });
          } else {
            const bits = this.keyValuesBits(read, condition.table, condition.least);
            if (bits === null) return null;
            terms.push({ kind: 'bits', sets: [bits], codes: null, accepted: null });
          }
          break;
        }
        case 'ids': {
          const bits = condition.combine ? this.combinedBits(condition.ids, condition.combine) : this.idsBits(condition.ids);
          if (bits === null) return null;
          terms.push({ kind: 'bits', sets: [bits], codes: null, accepted: null });
          break;
        }
        case 'words': {
          const index = this.words[condition.slot]!;
          const [first, last] = index.words.prefixRange(condition.prefix);
          if (last === first) return null;
          const count = index.offsets[last]! - index.offsets[first]!;
          const starts = index.offsets.subarray(first, last);
          const ends = index.offsets.subarray(first + 1, last + 1);
          terms.push({ kind: 'lists', data: index.postings, starts, ends, count });
          break;
        }
      }
    }
    return terms;
  }

  /**
   * Finds the records matching `terms` (from bind; null matches nothing) whose sortAt is in
   * [sortFrom, sortBefore), not removed. Returns how many there are; rank/select/next then read them.
   */
  evaluate(terms: readonly BoundTerm[] | null, sortFrom: number, sortBefore: number, selectiveShare: number): number {
    const lo = this.firstBelow(sortBefore);
    const hi = Math.max(lo, this.firstBelow(sortFrom));
    this.lo = lo;
    this.hi = hi;
    this.listed = true;
    this.total = 0;
    if (terms === null || lo === hi) return 0;
    let generator: ListsTerm | null = null;
    for (const term of terms) if (term.kind === 'lists' && (generator === null || term.count < generator.count)) generator = term;
    if (generator !== null && generator.count <= (hi - lo) * selectiveShare) this.fromCandidates(terms, generator);
    else this.fromBitsets(terms);
    return this.total;
  }

  /** Matches (of the last evaluate) at positions before p. */
  rank(position: number): number {
    if (this.listed) return lowerBound(this.matches, position, 0, this.total);
    if (position <= this.lo) return 0;
    if (position >= this.hi) return this.total;
    const word = position >>> 5;
    return this.cumulative[word]! + popcount(this.acc[word]! & ((1 << (position & 31)) - 1));
  }

  /** Position of the k-th match (0-based, k < total). */
  select(k: number): number {
    if (this.listed) return this.matches[k]!;
    const { cumulative } = this;
    let lo = this.firstWord;
    let hi = this.lastWord;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (cumulative[mid]! <= k) lo = mid;
      else hi = mid - 1;
    }
    return (lo << 5) | selectBit(this.acc[lo]!, k - cumulative[lo]!);
  }

  /** The last evaluate()'s matches are a bitset (rather than a short list): they can be tested position by position. */
  get matchedByBits(): boolean {
    return !this.listed;
  }

  /**
   * Walks `order` (backwards within each part when descending) and writes the first `k` positions
   * matched by the last evaluate() to `out`; returns how many (fewer when there are fewer matches),
   * or -1 when that took more than `maxSteps` positions. Only when matchedByBits.
   */
  firstInOrder(order: ColumnOrder, descending: boolean, k: number, out: Int32Array, maxSteps: number): number {
    const { acc, lo, hi } = this;
    const { positions, valued } = order;
    let n = 0;
    let steps = 0;
    const take = (from: number, to: number, step: number) => {
      for (let i = from; i !== to && n < k && steps <= maxSteps; i += step, steps++) {
        const p = positions[i]!;
        if (p >= lo && p < hi && (acc[p >>> 5]! & (1 << (p & 31))) !== 0) out[n++] = p;
      }
    };
    if (descending) {
      take(valued - 1, -1, -1);
      take(positions.length - 1, valued - 1, -1);
    } else take(0, positions.length, 1);
    return steps > maxSteps ? -1 : n;
  }

  /** Writes the positions of the last evaluate()'s matches, in order, to `out` (at least `total` long). */
  matchPositions(out: Int32Array): void {
    if (this.listed) {
      out.set(this.matches.subarray(0, this.total));
      return;
    }
    const { acc } = this;
    let n = 0;
    for (let w = this.firstWord; w <= this.lastWord; w++) {
      for (let bits = acc[w]!; bits !== 0; bits &= bits - 1) out[n++] = (w << 5) | lowestBit(bits);
    }
  }

  /** Position of the match after the k-th one, which is at `position`. */
  next(k: number, position: number): number {
    if (this.listed) return this.matches[k + 1]!;
    const { acc } = this;
    let word = position >>> 5;
    let bits = acc[word]! & (-2 << (position & 31));
    while (bits === 0) bits = acc[++word]!;
    return (word << 5) | lowestBit(bits);
  }

  private fromBitsets(terms: readonly BoundTerm[]): void {
    const { acc, removed, lo, hi } = this;
    const firstWord = lo >>> 5;
    const lastWord = (hi - 1) >>> 5;
    this.firstWord = firstWord;
    this.lastWord = lastWord;
    this.listed = false;
    for (let w = firstWord; w <= lastWord; w++) acc[w] = ~removed[w]!;
    acc[firstWord]! &= rangeMask(firstWord, lo, hi);
    acc[lastWord]! &= rangeMask(lastWord, lo, hi);
    // Numbers last: their boundary bucket is checked row by row, best done on few surviving bits.
    const isNumber = (t: BoundTerm) => t.kind === 'number' || t.kind === 'atMost';
    const ordered = [...terms.filter((t) => !isNumber(t)), ...terms.filter(isNumber)];
    let any = 1;
    for (const term of ordered) {
      if (term.kind === 'bits') any = andSets(acc, term.sets, firstWord, lastWord);
      else if (term.kind === 'notBits') any = andNotSets(acc, term.sets, firstWord, lastWord);
      else if (term.kind === 'number') any = andAtLeast(acc, term.index, term.min, firstWord, lastWord);
      else if (term.kind === 'atMost') any = andAtMost(acc, term.index, term.max, firstWord, lastWord);
      else {
        const bits = this.scratch(0);
        bits.fill(0, firstWord, lastWord + 1);
        orLists(bits, term, lo, hi);
        any = 0;
        for (let w = firstWord; w <= lastWord; w++) any |= acc[w] = acc[w]! & bits[w]!;
      }
      if (any === 0) break;
    }
    const { cumulative } = this;
    let total = 0;
    if (any !== 0) {
      for (let w = firstWord; w <= lastWord; w++) {
        cumulative[w] = total;
        total += popcount(acc[w]!);
      }
    }
    this.total = total;
    if (total === 0) this.listed = true;
  }

  private fromCandidates(terms: readonly BoundTerm[], generator: ListsTerm): void {
    const { lo, hi, removed } = this;
    const candidates = this.gather(generator);
    const others = terms.filter((term) => term !== generator);
    const listBits: Uint32Array[] = [];
    for (const term of others) {
      if (term.kind !== 'lists') continue;
      const bits = this.scratch(listBits.length);
      bits.fill(0, lo >>> 5, ((hi - 1) >>> 5) + 1);
      orLists(bits, term, lo, hi);
      listBits.push(bits);
    }
    if (this.matches.length < candidates.length) this.matches = new Int32Array(candidates.length);
    const { matches } = this;
    let total = 0;
    next: for (let i = 0; i < candidates.length; i++) {
      const position = candidates[i]!;
      if (hasBit(removed, position)) continue;
      let list = 0;
      for (const term of others) {
        if (term.kind === 'bits') {
          if (term.codes !== null) {
            if (term.accepted![term.codes[position]!] !== 1) continue next;
          } else {
            let any = false;
            for (let s = 0; s < term.sets.length && !any; s++) any = hasBit(term.sets[s]!, position);
            if (!any) continue next;
          }
        } else if (term.kind === 'notBits') {
          if (term.codes !== null) {
            if (term.excluded![term.codes[position]!] === 1) continue next;
          } else {
            for (let s = 0; s < term.sets.length; s++) if (hasBit(term.sets[s]!, position)) continue next;
          }
        } else if (term.kind === 'number') {
          if (!(numberAt(term.index, position) >= term.min)) continue next;
        } else if (term.kind === 'atMost') {
          if (!(numberAt(term.index, position) <= term.max)) continue next;
        } else if (!hasBit(listBits[list++]!, position)) continue next;
      }
      matches[total++] = position;
    }
    this.total = total;
  }

  /** The generator's positions within [lo, hi), ascending and distinct. */
  private gather(term: ListsTerm): Int32Array {
    const { data, starts, ends } = term;
    if (starts.length === 1) {
      const end = ends[0]!;
      const from = lowerBound(data, this.lo, starts[0]!, end);
      return data.subarray(from, lowerBound(data, this.hi, from, end));
    }
    if (this.candidates.length < term.count) this.candidates = new Int32Array(term.count);
    const out = this.candidates;
    let count = 0;
    for (let i = 0; i < starts.length; i++) {
      const end = ends[i]!;
      for (let k = lowerBound(data, this.lo, starts[i]!, end); k < end && data[k]! < this.hi; k++) out[count++] = data[k]!;
    }
    const sorted = out.subarray(0, count).sort();
    let distinct = 0;
    for (let i = 0; i < count; i++) if (distinct === 0 || sorted[i] !== sorted[distinct - 1]) sorted[distinct++] = sorted[i]!;
    return sorted.subarray(0, distinct);
  }

  private scratch(i: number): Uint32Array {
    while (this.scratchBits.length <= i) this.scratchBits.push(new Uint32Array(this.acc.length));
    return this.scratchBits[i]!;
  }

  /** Estimated memory held, in bytes, per column name and for the rest ("(records)"). */
  bytesByColumn(schema: Schema): Record<string, number> {
    const bytes = (arrays: readonly ArrayBufferView[]) => arrays.reduce((sum, a) => sum + a.byteLength, 0);
    const strings = (values: readonly (string | null)[]) =>
      values.reduce((sum, v) => sum + 16 + (v === null ? 0 : v.length * 2), 0);
    const out: Record<string, number> = {
      '(records)': bytes([
        this.ids,
        this.sortAt,
        this.byId,
        this.removed,
        this.acc,
        this.cumulative,
        this.candidates,
        this.matches,
      ]),
    };
    out['(records)']! += bytes(this.scratchBits);
    for (const column of schema.columns) {
      const slot = column.slot;
      switch (column.kind) {
        case 'enum': {
          const index = this.enums[slot]!;
          out[column.name] = bytes([index.codes, ...index.bitsets]) + strings(index.values);
          break;
        }
        case 'multi': {
          const index = this.multis[slot]!;
          out[column.name] = bytes(index.bitsets) + strings(index.values);
          break;
        }
        case 'number': {
          const index = this.numbers[slot]!;
          out[column.name] = bytes([
            ...(index.values ? [index.values] : []),
            ...(index.codes ? [index.codes] : []),
            index.dictionary,
            index.thresholds,
            ...index.planes,
            ...(index.order ? [index.order.positions] : []),
          ]);
          break;
        }
        case 'key': {
          const index = this.keys[slot]!;
          out[column.name] = bytes([index.hashes, index.positions]);
          break;
        }
        case 'words': {
          const index = this.words[slot]!;
          out[column.name] = bytes([index.offsets, index.postings]) + index.words.bytes();
          break;
        }
        case 'text': {
          const index = this.texts[slot]!;
          out[column.name] = bytes([index.ranks, index.order.positions]) + index.keys.bytes();
          break;
        }
      }
    }
    return out;
  }
}

/** acc &= (OR of the sets) over [firstWord, lastWord]; returns non-zero when any bit is left. */
function andSets(acc: Uint32Array, sets: readonly Uint32Array[], firstWord: number, lastWord: number): number {
  let any = 0;
  if (sets.length === 1) {
    const set = sets[0]!;
    for (let w = firstWord; w <= lastWord; w++) any |= acc[w] = acc[w]! & set[w]!;
    return any;
  }
  for (let w = firstWord; w <= lastWord; w++) {
    const bits = acc[w]!;
    if (bits === 0) continue;
    let union = 0;
    for (let s = 0; s < sets.length; s++) union |= sets[s]![w]!;
    any |= acc[w] = bits & union;
  }
  return any;
}

/** acc &= ~(OR of the sets) over [firstWord, lastWord]; returns non-zero when any bit is left. */
function andNotSets(acc: Uint32Array, sets: readonly Uint32Array[], firstWord: number, lastWord: number): number {
  let any = 0;
  for (let w = firstWord; w <= lastWord; w++) {
    const bits = acc[w]!;
    if (bits === 0) continue;
    let union = 0;
    for (let s = 0; s < sets.length; s++) union |= sets[s]![w]!;
    any |= acc[w] = bits & ~union;
  }
  return any;
}

/** acc &= (value <= max) over [firstWord, lastWord]; only the bucket of `max` is read value by value. */
function andAtMost(acc: Uint32Array, index: NumberIndex, max: number, firstWord: number, lastWord: number): number {
  const { thresholds, planes } = index;
  // `edge` is the code of the bucket holding `max` (the thresholds at or below it): records with a
  // lower code but 0 (null) are <= max, those with that code may be, higher ones are not.
  let edge = 0;
  for (let hi = thresholds.length; edge < hi;) {
    const mid = (edge + hi) >>> 1;
    if (thresholds[mid]! <= max) edge = mid + 1;
    else hi = mid;
  }
  let any = 0;
  for (let w = firstWord; w <= lastWord; w++) {
    const bits = acc[w]!;
    if (bits === 0) continue;
    let below = 0;
    let equal = bits;
    let present = 0;
    for (let plane = planes.length - 1; plane >= 0; plane--) {
      const set = planes[plane]![w]!;
      present |= set;
      if (((edge >>> plane) & 1) !== 0) {
        below |= equal & ~set;
        equal &= set;
      } else equal &= ~set;
    }
    let kept = edge === 0 ? 0 : below & present;
    if (edge !== 0) {
      for (; equal !== 0; equal &= equal - 1) {
        const bit = equal & -equal;
        if (numberAt(index, (w << 5) | lowestBit(bit)) <= max) kept |= bit;
      }
    }
    any |= acc[w] = kept;
  }
  return any;
}

/** acc &= (value >= min) over [firstWord, lastWord]; only the bucket of `min` is read value by value. */
function andAtLeast(acc: Uint32Array, index: NumberIndex, min: number, firstWord: number, lastWord: number): number {
  const { thresholds, planes } = index;
  // Records whose code is above `edge` are >= min; those whose code equals it may be. Code 0 (null)
  // is never checked: when the edge is 0 every non-null record matches.
  const edge = lowerBound(thresholds, min);
  let any = 0;
  for (let w = firstWord; w <= lastWord; w++) {
    const bits = acc[w]!;
    if (bits === 0) continue;
    let above = 0;
    let equal = bits;
    // Highest plane first: once no record of the word still equals the edge's code so far, the lower planes change nothing.
    for (let plane = planes.length - 1; plane >= 0 && equal !== 0; plane--) {
      const set = planes[plane]![w]!;
      if (((edge >>> plane) & 1) !== 0) equal &= set;
      else {
        above |= equal & set;
        equal &= ~set;
      }
    }
    let kept = above;
    if (edge !== 0) {
      for (; equal !== 0; equal &= equal - 1) {
        const bit = equal & -equal;
        if (numberAt(index, (w << 5) | lowestBit(bit)) >= min) kept |= bit;
      }
    }
    any |= acc[w] = kept;
  }
  return any;
}

/**
 * A key table reaching more than 1 in this many positions is read as a number column (9 bytes a
 * position); one reaching fewer keeps its positions (8 bytes an entry or fewer) and sets bits per request.
 */
export const SPARSE_KEY_VALUES = 4;

/** How a part reads a key table: as a number column by position, or as each entry's positions. */
type KeyValuesRead = { column: NumberIndex } | { offsets: Int32Array; positions: Int32Array };

/** Above this many sorted keys, a key condition merges them with the index's keys instead of a search each. */
const MERGED_KEYS = 16;

/**
 * A bitset of the positions holding one of `wanted` (ascending) in a key index, from one walk of
 * both sorted lists; null when none does.
 */
function keyBits(hashes: Float64Array, positions: Int32Array, wanted: ArrayLike<number>, size: number): Uint32Array | null {
  const bits = new Uint32Array(wordCount(size));
  let any = false;
  let i = 0;
  let j = 0;
  while (i < hashes.length && j < wanted.length) {
    const hash = hashes[i]!;
    const want = wanted[j]!;
    if (hash < want) i++;
    else if (hash > want) j++;
    else {
      setBit(bits, positions[i]!);
      any = true;
      i++;
    }
  }
  return any ? bits : null;
}

/**
 * Each position's keys in one key index, as ordinals into the column's distinct keys: position p's
 * keys are distinct[ordinals[k]] for k in offsets[p] .. offsets[p + 1]. The inverse of the index's
 * (hash, position) pairs; with ordinals, the keys of many positions are told apart by marking an
 * array rather than by sorting what was found.
 */
export interface KeysByPosition {
  /** Every key of the column in this part, as its hash, ascending, once. */
  readonly distinct: Float64Array;
  readonly offsets: Int32Array;
  readonly ordinals: Int32Array;
}

export function keysByPosition(index: KeyIndex, size: number): KeysByPosition {
  const { hashes, positions } = index;
  // The pairs are sorted by hash: each new hash is the next distinct key.
  const pairOrdinal = new Int32Array(hashes.length);
  let count = 0;
  for (let k = 0; k < hashes.length; k++) {
    if (k === 0 || hashes[k] !== hashes[k - 1]) count++;
    pairOrdinal[k] = count - 1;
  }
  const distinct = new Float64Array(count);
  for (let k = 0; k < hashes.length; k++) distinct[pairOrdinal[k]!] = hashes[k]!;
  const offsets = new Int32Array(size + 1);
  for (let k = 0; k < positions.length; k++) offsets[positions[k]! + 1]!++;
  for (let p = 0; p < size; p++) offsets[p + 1]! += offsets[p]!;
  const fill = offsets.slice(0, size);
  const ordinals = new Int32Array(hashes.length);
  for (let k = 0; k < positions.length; k++) ordinals[fill[positions[k]!]!++] = pairOrdinal[k]!;
  return { distinct, offsets, ordinals };
}

/** Sets the bits of the term's positions that fall in [lo, hi). */
function orLists(bits: Uint32Array, term: ListsTerm, lo: number, hi: number): void {
  const { data, starts, ends } = term;
  for (let i = 0; i < starts.length; i++) {
    const end = ends[i]!;
    for (let k = lowerBound(data, lo, starts[i]!, end); k < end; k++) {
      const position = data[k]!;
      if (position >= hi) break;
      bits[position >>> 5]! |= 1 << (position & 31);
    }
  }
}
