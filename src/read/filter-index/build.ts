// Building a main part. Records are first appended to a staging area, column by column in growable
// typed arrays (values as codes, lists as (row, code) pairs, no object per record), then sorted
// and turned into the main part's structures. A rebuild stages the previous main part's records in
// force merged with the changes since, already in order, so its sorts find one run and cost one pass.
// Every loop runs in slices (see Slicer) so a build never holds the event loop for long.
import { popcount, setBit, wordCount } from './bits.js';
import { PackedKeys } from './packed-keys.js';
import {
  MainPart,
  numberAt,
  type ColumnOrder,
  type Codes,
  type IdArray,
  type EnumIndex,
  type MultiIndex,
  type NumberIndex,
  type TextIndex,
  type WordsIndex,
} from './base-columns.js';
import { bucketThresholds, emptyPlanes, writeCodes } from './number-buckets.js';
import { comesBefore, type PreparedRecord, type Schema } from './records.js';
import { Float64Column, identity, Int32Column, Slicer, sortIndices } from './time-slicer.js';

/** Rows (or pairs) processed between two looks at the clock. */
const CHUNK = 4096;

class StagingEnum {
  readonly values: (string | null)[];
  readonly lookup: Map<string, number>;
  readonly codes: Int32Column;

  constructor(rows: number, base?: EnumIndex) {
    this.codes = new Int32Column(rows);
    this.values = base === undefined ? [null] : [...base.values];
    this.lookup = new Map(base?.lookup);
  }

  code(value: string | null): number {
    if (value === null) return 0;
    let code = this.lookup.get(value);
    if (code === undefined) {
      code = this.values.length;
      this.values.push(value);
      this.lookup.set(value, code);
    }
    return code;
  }
}

class StagingMulti {
  readonly values: string[];
  readonly lookup: Map<string, number>;
  readonly rows = new Int32Column();
  readonly codes = new Int32Column();

  constructor(base?: MultiIndex) {
    this.values = base === undefined ? [] : [...base.values];
    this.lookup = new Map(base?.lookup);
  }

  add(row: number, value: string): void {
    let code = this.lookup.get(value);
    if (code === undefined) {
      code = this.values.length;
      this.values.push(value);
      this.lookup.set(value, code);
    }
    this.rows.push(row);
    this.codes.push(code);
  }
}

class StagingKeys {
  readonly rows = new Int32Column();
  readonly hashes = new Float64Column();
}

class StagingWords {
  /** The previous main part's sorted words (codes 0…), then words seen since (codes base.length…). */
  readonly base: PackedKeys;
  readonly extra = new Map<string, number>();
  readonly extraWords: string[] = [];
  readonly rows = new Int32Column();
  readonly codes = new Int32Column();

  constructor(base?: WordsIndex) {
    this.base = base?.words ?? PackedKeys.EMPTY;
  }

  add(row: number, word: string): void {
    const { base } = this;
    const found = base.indexOf(word);
    let code = found >= 0 ? found : this.extra.get(word);
    if (code === undefined) {
      code = base.length + this.extraWords.length;
      this.extraWords.push(word);
      this.extra.set(word, code);
    }
    this.rows.push(row);
    this.codes.push(code);
  }
}

class StagingText {
  /** The previous main part's sorted keys (codes 0…), then keys seen since (codes base.length…). */
  readonly base: PackedKeys;
  readonly extra = new Map<string, number>();
  readonly extraKeys: string[] = [];
  /** Per row: a code, or -1 for null. */
  readonly codes: Int32Column;

  constructor(rows: number, base?: TextIndex) {
    this.codes = new Int32Column(rows);
    this.base = base?.keys ?? PackedKeys.EMPTY;
  }

  add(key: string | null): void {
    if (key === null) {
      this.codes.push(-1);
      return;
    }
    const { base } = this;
    const found = base.indexOf(key);
    let code = found >= 0 ? found : this.extra.get(key);
    if (code === undefined) {
      code = base.length + this.extraKeys.length;
      this.extraKeys.push(key);
      this.extra.set(key, code);
    }
    this.codes.push(code);
  }
}

export class Staging {
  readonly ids: Float64Column;
  readonly sortAt: Float64Column;
  readonly enums: StagingEnum[];
  readonly multis: StagingMulti[];
  readonly numbers: Float64Column[];
  readonly keys: StagingKeys[];
  readonly words: StagingWords[];
  readonly texts: StagingText[];

  /**
   * With `base`, value codes start as the base's, so its records are copied code for code.
   * `rows`: the number of records expected, when known.
   */
  constructor(schema: Schema, base?: MainPart, rows?: number) {
    const slots = (count: number) => Array.from({ length: count }, (_, slot) => slot);
    this.ids = new Float64Column(rows);
    this.sortAt = new Float64Column(rows);
    this.enums = slots(schema.counts.enum).map((slot) => new StagingEnum(rows ?? 64, base?.enums[slot]));
    this.multis = slots(schema.counts.multi).map((slot) => new StagingMulti(base?.multis[slot]));
    this.numbers = slots(schema.counts.number).map(() => new Float64Column(rows));
    this.keys = slots(schema.counts.key).map(() => new StagingKeys());
    this.words = slots(schema.counts.words).map((slot) => new StagingWords(base?.words[slot]));
    this.texts = slots(schema.counts.text).map((slot) => new StagingText(rows ?? 64, base?.texts[slot]));
  }

  get rows(): number {
    return this.ids.length;
  }

  /** Appends a record; returns its row. */
  add(record: PreparedRecord): number {
    const row = this.ids.length;
    this.ids.push(record.id);
    this.sortAt.push(record.sortAt);
    this.enums.forEach((column, slot) => column.codes.push(column.code(record.enums[slot]!)));
    this.multis.forEach((column, slot) => record.multis[slot]!.forEach((value) => column.add(row, value)));
    this.numbers.forEach((column, slot) => column.push(record.numbers[slot]!));
    this.keys.forEach((column, slot) => {
      for (const hash of record.keys[slot]!) {
        column.rows.push(row);
        column.hashes.push(hash);
      }
    });
    this.words.forEach((column, slot) => record.words[slot]!.forEach((word) => column.add(row, word)));
    this.texts.forEach((column, slot) => column.add(record.texts[slot]!));
    return row;
  }

  /** Appends the one-value columns of a base record; its lists are copied in bulk by `stageRebuild`. */
  addFromBase(base: MainPart, position: number): number {
    const row = this.ids.length;
    this.ids.push(base.ids[position]!);
    this.sortAt.push(base.sortAt[position]!);
    for (let slot = 0; slot < this.enums.length; slot++) this.enums[slot]!.codes.push(base.enums[slot]!.codes[position]!);
    for (let slot = 0; slot < this.numbers.length; slot++) this.numbers[slot]!.push(numberAt(base.numbers[slot]!, position));
    // The base's ranks are its key codes (its keys are the staging's base keys).
    for (let slot = 0; slot < this.texts.length; slot++) this.texts[slot]!.codes.push(base.texts[slot]!.ranks[position]!);
    return row;
  }
}

/**
 * Stages the records in force of `base` (those not in `removed`, a copy of its tombstones taken
 * when the rebuild started) merged in order with `changes` (sorted the same way). Returns the
 * staging area, its rows in id order (a hint for the sort by id), and where the base's positions
 * and the changes went (rows), so the base's column orders can be carried over.
 */
export async function stageRebuild(
  schema: Schema,
  base: MainPart,
  removed: Uint32Array,
  changes: readonly PreparedRecord[],
  slicer: Slicer,
): Promise<{ staging: Staging; idOrder: Int32Array; newRow: Int32Array; changeRows: Int32Array }> {
  const staging = new Staging(schema, base, base.size - removedCount(removed) + changes.length);
  const newRow = new Int32Array(base.size).fill(-1);
  const changeRows = new Int32Array(changes.length);
  let position = 0;
  let change = 0;
  for (;;) {
    while (position < base.size && (removed[position >>> 5]! & (1 << (position & 31))) !== 0) position++;
    const next = changes[change];
    if (
      position < base.size &&
      (next === undefined || comesBefore(base.sortAt[position]!, base.ids[position]!, next.sortAt, next.id))
    ) {
      newRow[position] = staging.addFromBase(base, position++);
    } else if (next !== undefined) {
      changeRows[change++] = staging.add(next);
    } else break;
    if (slicer.due()) await slicer.pause();
  }
  await slicer.pause();
  for (let slot = 0; slot < staging.multis.length; slot++) {
    const column = staging.multis[slot]!;
    const { bitsets } = base.multis[slot]!;
    for (let code = 0; code < bitsets.length; code++) {
      const bits = bitsets[code]!;
      for (let w = 0; w < bits.length; w++) {
        for (let word = bits[w]!; word !== 0; word &= word - 1) {
          const row = newRow[(w << 5) | (31 - Math.clz32(word & -word))]!;
          if (row >= 0) {
            column.rows.push(row);
            column.codes.push(code);
          }
        }
        if (slicer.due()) await slicer.pause();
      }
    }
  }
  for (let slot = 0; slot < staging.keys.length; slot++) {
    const column = staging.keys[slot]!;
    const { hashes, positions } = base.keys[slot]!;
    for (let k = 0; k < hashes.length; k++) {
      const row = newRow[positions[k]!]!;
      if (row >= 0) {
        column.rows.push(row);
        column.hashes.push(hashes[k]!);
      }
      if (slicer.due()) await slicer.pause();
    }
  }
  for (let slot = 0; slot < staging.words.length; slot++) {
    const column = staging.words[slot]!;
    const { offsets, postings } = base.words[slot]!;
    for (let word = 0; word + 1 < offsets.length; word++) {
      for (let k = offsets[word]!; k < offsets[word + 1]!; k++) {
        const row = newRow[postings[k]!]!;
        if (row >= 0) {
          column.rows.push(row);
          column.codes.push(word);
        }
      }
      if (slicer.due(offsets[word + 1]! - offsets[word]! + 1)) await slicer.pause();
    }
  }
  const idOrder = new Int32Column();
  for (let i = 0; i < base.byId.length; i++) {
    const row = newRow[base.byId[i]!]!;
    if (row >= 0) idOrder.push(row);
    if (slicer.due()) await slicer.pause();
  }
  for (const row of changeRows) idOrder.push(row);
  return { staging, idOrder: idOrder.view(), newRow, changeRows };
}

function removedCount(removed: Uint32Array): number {
  let count = 0;
  for (let w = 0; w < removed.length; w++) count += popcount(removed[w]!);
  return count;
}

/** What a rebuild staged from its base: the base itself, and the rows its positions and the changes went to. */
export interface Carried {
  base: MainPart;
  /** Per base position: its row, or -1 when it is not in force. */
  newRow: Int32Array;
  changeRows: Int32Array;
}

export interface FinalizeOptions {
  /** A rebuild's rows in id order (see stageRebuild); absent on a first build. */
  idOrder?: Int32Array;
  /** A rebuild's base, whose column orders are carried over. */
  carried?: Carried;
  /** Most distinct values a number column is coded with (see codeValues). */
  maxCodedValues: number;
}

/** Turns a staging area into a main part: rows sorted newest first, then each column's structures. */
export async function finalize(schema: Schema, staging: Staging, slicer: Slicer, options: FinalizeOptions): Promise<MainPart> {
  const { idOrder, carried } = options;
  const n = staging.rows;
  const rowIds = staging.ids.view();
  const rowSortAt = staging.sortAt.view();
  const order = await sortIndices(
    await identity(n, slicer),
    (a, b) => rowSortAt[b]! - rowSortAt[a]! || rowIds[b]! - rowIds[a]! || a - b,
    slicer,
  );
  await slicer.pause();
  const rank = new Int32Array(n);
  const ids = new Float64Array(n);
  const sortAt = new Float64Array(n);
  await chunked(n, slicer, (from, to) => {
    for (let p = from; p < to; p++) {
      const row = order[p]!;
      rank[row] = p;
      ids[p] = rowIds[row]!;
      sortAt[p] = rowSortAt[row]!;
    }
  });
  // Among records loaded twice under one id, the one loaded last is in force; the others are removed.
  const positionsInIdOrder = idOrder ?? (await identity(n, slicer));
  if (idOrder !== undefined) {
    await chunked(n, slicer, (from, to) => {
      for (let i = from; i < to; i++) positionsInIdOrder[i] = rank[positionsInIdOrder[i]!]!;
    });
  }
  const byId = await sortIndices(positionsInIdOrder, (a, b) => ids[a]! - ids[b]! || order[a]! - order[b]!, slicer);
  const removed = new Uint32Array(wordCount(n));
  let removedCount = 0;
  await chunked(n, slicer, (from, to) => {
    for (let i = Math.max(1, from); i < to; i++) {
      if (ids[byId[i]!] === ids[byId[i - 1]!]) {
        setBit(removed, byId[i - 1]!);
        removedCount++;
      }
    }
  });
  await slicer.pause();
  const enums: EnumIndex[] = [];
  for (const column of staging.enums) enums.push(await finalizeEnum(column, rank, slicer));
  const multis: MultiIndex[] = [];
  for (const column of staging.multis) multis.push(await finalizeMulti(column, rank, slicer));
  const numbers: NumberIndex[] = [];
  for (const column of staging.numbers) numbers.push(await finalizeNumber(column.view(), rank, slicer));
  const keys = [];
  for (const column of staging.keys) {
    const rows = column.rows.view();
    const rowHashes = column.hashes.view();
    const rowPositions = new Int32Array(rows.length);
    await chunked(rows.length, slicer, (from, to) => {
      for (let k = from; k < to; k++) rowPositions[k] = rank[rows[k]!]!;
    });
    const compare = (a: number, b: number) => rowHashes[a]! - rowHashes[b]! || rowPositions[a]! - rowPositions[b]!;
    const sorted = await sortIndices(await identity(rows.length, slicer), compare, slicer);
    const hashes = new Float64Array(rows.length);
    const positions = new Int32Array(rows.length);
    await chunked(rows.length, slicer, (from, to) => {
      for (let i = from; i < to; i++) {
        hashes[i] = rowHashes[sorted[i]!]!;
        positions[i] = rowPositions[sorted[i]!]!;
      }
    });
    keys.push({ hashes, positions });
    await slicer.pause();
  }
  const words: WordsIndex[] = [];
  for (const column of staging.words) words.push(await finalizeWords(column, rank, slicer));
  const texts: TextIndex[] = [];
  for (const column of staging.texts) {
    const { keys: textKeys, ranks } = await finalizeText(column, rank, slicer);
    const value = (p: number) => (ranks[p]! < 0 ? NaN : ranks[p]!);
    const order = carried
      ? await carryOrder(value, ids, rank, slicer, carried, carried.base.texts[texts.length]!.order)
      : await rankOrder(ranks, textKeys.length, byId, slicer);
    texts.push({ keys: textKeys, ranks, order });
  }
  for (const column of schema.columns) {
    if (column.kind !== 'number' || !column.sorted) continue;
    const values = numbers[column.slot]!.values!;
    const order = carried
      ? await carryOrder((p) => values[p]!, ids, rank, slicer, carried, carried.base.numbers[column.slot]!.order)
      : await valueOrder(values, byId, slicer);
    numbers[column.slot] = { ...numbers[column.slot]!, order };
  }
  for (let slot = 0; slot < numbers.length; slot++) {
    numbers[slot] = await codeValues(numbers[slot]!, options.maxCodedValues, slicer);
  }
  return new MainPart({
    ids: await narrowIds(ids, slicer),
    sortAt,
    byId,
    removed,
    removedCount,
    enums,
    multis,
    numbers,
    keys,
    words,
    texts,
  });
}

/** The ids in an Int32Array when every one fits in it (half the bytes), else as they are. */
async function narrowIds(ids: Float64Array, slicer: Slicer): Promise<IdArray> {
  let fits = true;
  await chunked(ids.length, slicer, (from, to) => {
    for (let p = from; p < to && fits; p++) fits = (ids[p]! | 0) === ids[p];
  });
  return fits ? Int32Array.from(ids) : ids;
}

/** A text column's ColumnOrder on a first build: a counting sort by rank of the positions in id order. */
async function rankOrder(ranks: Int32Array, keyCount: number, positionsById: Int32Array, slicer: Slicer): Promise<ColumnOrder> {
  // starts[r + 1]: where rank r begins; rank -1 (null) goes after every key.
  const starts = new Int32Array(keyCount + 2);
  await chunked(ranks.length, slicer, (from, to) => {
    for (let p = from; p < to; p++) {
      const r = ranks[p]!;
      starts[(r < 0 ? keyCount : r) + 1]!++;
    }
  });
  for (let r = 0; r <= keyCount; r++) starts[r + 1]! += starts[r]!;
  const valued = starts[keyCount]!;
  const positions = new Int32Array(ranks.length);
  await chunked(positionsById.length, slicer, (from, to) => {
    for (let i = from; i < to; i++) {
      const p = positionsById[i]!;
      const r = ranks[p]!;
      positions[starts[r < 0 ? keyCount : r]!++] = p;
    }
  });
  return { positions, valued };
}

/** A number column's ColumnOrder on a first build: the positions in id order, sorted stably by value. */
async function valueOrder(values: Float64Array, positionsById: Int32Array, slicer: Slicer): Promise<ColumnOrder> {
  const valued = new Int32Column(positionsById.length);
  const nulls = new Int32Column();
  await chunked(positionsById.length, slicer, (from, to) => {
    for (let i = from; i < to; i++) {
      const p = positionsById[i]!;
      (values[p] === values[p] ? valued : nulls).push(p);
    }
  });
  const byValue = (a: number, b: number) => (values[a]! < values[b]! ? -1 : values[a]! > values[b]! ? 1 : 0);
  return joinOrder(await sortIndices(valued.view(), byValue, slicer), nulls.view());
}

/**
 * A column's ColumnOrder after a rebuild (`value` is NaN for null): the base's order, carried to
 * the new positions, is in order already; only the changed records are sorted and merged into it.
 */
async function carryOrder(
  value: (position: number) => number,
  ids: Float64Array,
  rank: Int32Array,
  slicer: Slicer,
  carried: Carried,
  baseOrder: ColumnOrder | null,
): Promise<ColumnOrder> {
  const byValue = (a: number, b: number) => {
    const x = value(a);
    const y = value(b);
    return x < y ? -1 : x > y ? 1 : ids[a]! - ids[b]!;
  };
  const byId = (a: number, b: number) => ids[a]! - ids[b]!;
  const valued = new Int32Column();
  const nulls = new Int32Column();
  for (const row of carried.changeRows) (value(rank[row]!) === value(rank[row]!) ? valued : nulls).push(rank[row]!);
  const changedValued = await sortIndices(valued.view(), byValue, slicer);
  const changedNulls = await sortIndices(nulls.view(), byId, slicer);
  const base = baseOrder ?? { positions: new Int32Array(0), valued: 0 };
  const carry = async (from: number, to: number) => {
    const out = new Int32Column(to - from);
    await chunked(to - from, slicer, (start, end) => {
      for (let i = from + start; i < from + end; i++) {
        const row = carried.newRow[base.positions[i]!]!;
        if (row >= 0) out.push(rank[row]!);
      }
    });
    return out.view();
  };
  const mergedValued = await merge(await carry(0, base.valued), changedValued, byValue, slicer);
  const mergedNulls = await merge(await carry(base.valued, base.positions.length), changedNulls, byId, slicer);
  return joinOrder(mergedValued, mergedNulls);
}

function joinOrder(valued: Int32Array, nulls: Int32Array): ColumnOrder {
  const positions = new Int32Array(valued.length + nulls.length);
  positions.set(valued);
  positions.set(nulls, valued.length);
  return { positions, valued: valued.length };
}

/** Two sorted lists as one. */
async function merge(
  a: Int32Array,
  b: Int32Array,
  compare: (x: number, y: number) => number,
  slicer: Slicer,
): Promise<Int32Array> {
  const out = new Int32Array(a.length + b.length);
  let i = 0;
  let j = 0;
  let k = 0;
  while (i < a.length && j < b.length) {
    out[k++] = compare(b[j]!, a[i]!) < 0 ? b[j++]! : a[i++]!;
    if (slicer.due()) await slicer.pause();
  }
  out.set(a.subarray(i), k);
  out.set(b.subarray(j), k + a.length - i);
  return out;
}

async function chunked(n: number, slicer: Slicer, body: (from: number, to: number) => void): Promise<void> {
  for (let from = 0; from < n; from += CHUNK) {
    const to = Math.min(n, from + CHUNK);
    body(from, to);
    if (slicer.due(to - from)) await slicer.pause();
  }
}

function codesFor(n: number, distinct: number): Codes {
  if (distinct <= 0x100) return new Uint8Array(n);
  if (distinct <= 0x10000) return new Uint16Array(n);
  return new Int32Array(n);
}

/** Values no record holds any more are dropped, so their bitsets do not linger. */
async function finalizeEnum(column: StagingEnum, rank: Int32Array, slicer: Slicer): Promise<EnumIndex> {
  const n = rank.length;
  const rowCodes = column.codes.view();
  const counts = new Int32Array(column.values.length);
  await chunked(n, slicer, (from, to) => {
    for (let row = from; row < to; row++) counts[rowCodes[row]!]!++;
  });
  const renumber = new Int32Array(column.values.length);
  const values: (string | null)[] = [null];
  const lookup = new Map<string, number>();
  for (let code = 1; code < counts.length; code++) {
    if (counts[code] === 0) continue;
    const value = column.values[code]!;
    renumber[code] = values.length;
    lookup.set(value, values.length);
    values.push(value);
  }
  const codes = codesFor(n, values.length);
  const bitsets = values.map((value) => (value === null ? new Uint32Array(0) : new Uint32Array(wordCount(n))));
  await chunked(n, slicer, (from, to) => {
    for (let row = from; row < to; row++) {
      const code = renumber[rowCodes[row]!]!;
      const position = rank[row]!;
      codes[position] = code;
      if (code !== 0) bitsets[code]![position >>> 5]! |= 1 << (position & 31);
    }
  });
  return { values, lookup, codes, bitsets };
}

async function finalizeMulti(column: StagingMulti, rank: Int32Array, slicer: Slicer): Promise<MultiIndex> {
  const rows = column.rows.view();
  const rowCodes = column.codes.view();
  const counts = new Int32Array(column.values.length);
  await chunked(rowCodes.length, slicer, (from, to) => {
    for (let k = from; k < to; k++) counts[rowCodes[k]!]!++;
  });
  const renumber = new Int32Array(column.values.length);
  const values: string[] = [];
  const lookup = new Map<string, number>();
  for (let code = 0; code < counts.length; code++) {
    if (counts[code] === 0) continue;
    renumber[code] = values.length;
    lookup.set(column.values[code]!, values.length);
    values.push(column.values[code]!);
  }
  const bitsets = values.map(() => new Uint32Array(wordCount(rank.length)));
  await chunked(rows.length, slicer, (from, to) => {
    for (let k = from; k < to; k++) setBit(bitsets[renumber[rowCodes[k]!]!]!, rank[rows[k]!]!);
  });
  return { values, lookup, bitsets };
}

async function finalizeNumber(rowValues: Float64Array, rank: Int32Array, slicer: Slicer): Promise<NumberIndex> {
  const n = rank.length;
  const values = new Float64Array(n);
  let min = Infinity;
  let present = 0;
  await chunked(n, slicer, (from, to) => {
    for (let row = from; row < to; row++) {
      const value = rowValues[row]!;
      values[rank[row]!] = value;
      if (value === value) {
        present++;
        if (value < min) min = value;
      }
    }
  });
  const thresholds = bucketThresholds(values, min, present);
  const planes = emptyPlanes(thresholds, n);
  await chunked(n, slicer, (from, to) => writeCodes(values, thresholds, planes, from, to));
  return { values, codes: null, dictionary: new Float64Array(0), thresholds, planes, order: null };
}

/**
 * A number column's values as codes into a dictionary of its distinct values when there are at
 * most `maxCoded` of them (amounts, head counts and years repeat: 8 bytes a record become 1 or 2),
 * else as they are. Codes follow the values' order, and -0 is coded as 0 (they compare equal).
 */
async function codeValues(index: NumberIndex, maxCoded: number, slicer: Slicer): Promise<NumberIndex> {
  const values = index.values!;
  const seen = new Map<number, number>();
  let fits = true;
  await chunked(values.length, slicer, (from, to) => {
    for (let p = from; p < to && fits; p++) {
      const value = values[p]!;
      if (value === value && !seen.has(value)) {
        seen.set(value, 0);
        fits = seen.size <= maxCoded;
      }
    }
  });
  if (!fits) return index;
  const dictionary = Float64Array.from([Number.NaN, ...Float64Array.from(seen.keys()).sort()]);
  for (let code = 1; code < dictionary.length; code++) seen.set(dictionary[code]!, code);
  const codes = dictionary.length <= 0x100 ? new Uint8Array(values.length) : new Uint16Array(values.length);
  await chunked(values.length, slicer, (from, to) => {
    for (let p = from; p < to; p++) {
      const value = values[p]!;
      if (value === value) codes[p] = seen.get(value)!;
    }
  });
  return { ...index, values: null, codes, dictionary };
}

async function finalizeWords(column: StagingWords, rank: Int32Array, slicer: Slicer): Promise<WordsIndex> {
  const n = rank.length;
  const rows = column.rows.view();
  const wordCodes = column.codes.view();
  const all = (await column.base.toArrayInRuns(slicer)).concat(column.extraWords);
  const counts = new Int32Array(all.length);
  await chunked(wordCodes.length, slicer, (from, to) => {
    for (let k = from; k < to; k++) counts[wordCodes[k]!]!++;
  });
  const used = new Int32Column();
  await chunked(all.length, slicer, (from, to) => {
    for (let code = from; code < to; code++) if (counts[code] !== 0) used.push(code);
  });
  const sorted = await sortIndices(used.view(), (a, b) => (all[a]! < all[b]! ? -1 : all[a]! > all[b]! ? 1 : 0), slicer);
  const renumber = new Int32Array(all.length);
  const words: string[] = [];
  const offsets = new Int32Array(sorted.length + 1);
  await chunked(sorted.length, slicer, (from, to) => {
    for (let i = from; i < to; i++) {
      const code = sorted[i]!;
      renumber[code] = i;
      words.push(all[code]!);
      offsets[i + 1] = offsets[i]! + counts[code]!;
    }
  });
  // Pairs in position order (a counting sort), so each word's postings come out ascending.
  const starts = new Int32Array(n + 1);
  await chunked(rows.length, slicer, (from, to) => {
    for (let k = from; k < to; k++) starts[rank[rows[k]!]! + 1]!++;
  });
  await chunked(n, slicer, (from, to) => {
    for (let p = from; p < to; p++) starts[p + 1]! += starts[p]!;
  });
  const byPosition = new Int32Array(rows.length);
  await chunked(rows.length, slicer, (from, to) => {
    for (let k = from; k < to; k++) byPosition[starts[rank[rows[k]!]!]!++] = k;
  });
  const postings = new Int32Array(rows.length);
  const fill = offsets.slice(0, sorted.length);
  await chunked(rows.length, slicer, (from, to) => {
    for (let i = from; i < to; i++) {
      const k = byPosition[i]!;
      postings[fill[renumber[wordCodes[k]!]!]!++] = rank[rows[k]!]!;
    }
  });
  return { words: await PackedKeys.packInRuns(words, slicer), offsets, postings };
}

/**
 * Keys no record holds any more are dropped. The base's keys are already in order; only the keys
 * seen since are sorted (all of them on a first build), then merged in.
 */
async function finalizeText(column: StagingText, rank: Int32Array, slicer: Slicer): Promise<Omit<TextIndex, 'order'>> {
  const n = rank.length;
  const rowCodes = column.codes.view();
  const { base, extraKeys } = column;
  const counts = new Int32Array(base.length + extraKeys.length);
  await chunked(n, slicer, (from, to) => {
    for (let row = from; row < to; row++) {
      const code = rowCodes[row]!;
      if (code >= 0) counts[code]!++;
    }
  });
  const usedExtra = new Int32Column();
  for (let i = 0; i < extraKeys.length; i++) if (counts[base.length + i] !== 0) usedExtra.push(i);
  const compare = (a: number, b: number) => (extraKeys[a]! < extraKeys[b]! ? -1 : extraKeys[a]! > extraKeys[b]! ? 1 : 0);
  const sortedExtra = await sortIndices(usedExtra.view(), compare, slicer);
  const renumber = new Int32Array(counts.length);
  const keys: string[] = [];
  let b = 0;
  let e = 0;
  while (b < base.length || e < sortedExtra.length) {
    if (b < base.length && counts[b] === 0) {
      b++;
      continue;
    }
    const baseKey = b < base.length ? base.at(b) : undefined;
    const takeBase = baseKey !== undefined && (e === sortedExtra.length || baseKey < extraKeys[sortedExtra[e]!]!);
    const code = takeBase ? b++ : base.length + sortedExtra[e++]!;
    renumber[code] = keys.length;
    keys.push(takeBase ? baseKey : extraKeys[code - base.length]!);
    if (slicer.due()) await slicer.pause();
  }
  const ranks = new Int32Array(n);
  await chunked(n, slicer, (from, to) => {
    for (let row = from; row < to; row++) {
      const code = rowCodes[row]!;
      ranks[rank[row]!] = code < 0 ? -1 : renumber[code]!;
    }
  });
  return { keys: await PackedKeys.packInRuns(keys, slicer), ranks };
}
