// An in-memory index of one dataset's filter and sort values that answers any filter with the
// exact total and any page of ids, in (sortAt DESC, id DESC) order, while records keep changing.
//
// Two parts: the main part (typed arrays and bitsets over positions sorted newest first, built in
// one go) and the delta (records upserted since, kept as plain objects in order and checked one by
// one). An upsert or removal tombstones the record's main position and puts the new version in the
// delta; a rebuild folds the delta into a new main part in the background, in slices, while queries
// keep using the current parts. Changes made while a build or rebuild runs are noted by id and
// re-applied when the new main part is swapped in, so none is lost.
import { finalize, Staging, stageRebuild } from './build.js';
import { distinctAscending, lowerBound, unionAscending } from './bits.js';
import { keysByPosition, MainPart, numberAt, type KeysByPosition } from './base-columns.js';
import { orderedPage } from './order.js';
import {
  comesBefore,
  prepareFilter,
  prepareOrder,
  prepareRecord,
  recordMatches,
  resolveSchema,
  type PreparedFilter,
  type PreparedRecord,
  type Schema,
} from './records.js';
import type {
  ColumnSpec,
  FilterIndexOptions,
  IndexFilter,
  IndexRecord,
  IndexState,
  KeyValues,
  MainSwap,
  QueryResult,
  SortOrder,
} from './types.js';
import { Slicer } from './time-slicer.js';

/** Most distinct values a number column is coded with: codes take 2 bytes at most, 0 being null. */
const MAX_CODED_VALUES = 0xffff;

/**
 * Each main part's keys by position, per key column, made the first time keysOf or keyTotals reads
 * that column of the part (8 bytes a record and 8 a distinct key) and dropped with the part.
 */
const keysOfParts = new WeakMap<MainPart, Map<number, KeysByPosition>>();

function keysOfPart(main: MainPart, slot: number): KeysByPosition {
  let bySlot = keysOfParts.get(main);
  if (bySlot === undefined) keysOfParts.set(main, (bySlot = new Map()));
  let keys = bySlot.get(slot);
  if (keys === undefined) bySlot.set(slot, (keys = keysByPosition(main.keys[slot]!, main.size)));
  return keys;
}

/**
 * Takes a value into a key's slot: its first value as it is, the next ones added to it (`sum`) or
 * kept when larger. A plain function, not a closure: it runs once per matching record, up to
 * millions of times a call.
 */
function reduceInto(reduced: Float64Array, touched: Uint8Array, ordinal: number, value: number, sum: boolean): void {
  if (touched[ordinal] === 0) {
    touched[ordinal] = 1;
    reduced[ordinal] = value;
  } else if (sum) reduced[ordinal]! += value;
  else if (value > reduced[ordinal]!) reduced[ordinal] = value;
}

/** Rough size of one delta record (object, arrays and strings) for bytesUsed(). */
const DELTA_RECORD_BYTES = 256;

export class FilterIndex {
  private readonly schema: Schema;
  private readonly rebuildAfter: number;
  private readonly autoRebuild: boolean;
  private readonly onRebuildError: ((error: unknown) => void) | undefined;
  private readonly sliceMs: number;
  private readonly selectiveShare: number;
  private readonly maxCodedValues: number;
  private readonly onSwap: ((swap: MainSwap) => void) | undefined;
  private main: MainPart;
  /** Records upserted since the main part was built, in (sortAt DESC, id DESC) order. */
  private delta: PreparedRecord[] = [];
  private readonly deltaById = new Map<number, PreparedRecord>();
  /** Ids upserted or removed while a build or rebuild runs (null when none runs). */
  private changedDuring: Set<number> | null = null;
  private running: Promise<void> | null = null;
  /** Delta records matching the current query, at its start (see matchDelta); reused by every query. */
  private readonly hits: PreparedRecord[] = [];

  constructor(columns: readonly ColumnSpec[], options: FilterIndexOptions = {}) {
    this.schema = resolveSchema(columns);
    this.rebuildAfter = options.rebuildAfter ?? 2_000;
    this.autoRebuild = options.autoRebuild ?? true;
    this.onRebuildError = options.onRebuildError;
    this.sliceMs = options.sliceMs ?? 4;
    this.selectiveShare = options.selectiveShare ?? 1 / 32;
    this.maxCodedValues = Math.min(options.maxCodedValues ?? MAX_CODED_VALUES, MAX_CODED_VALUES);
    this.onSwap = options.onSwap;
    if (!(this.rebuildAfter >= 1)) throw new RangeError(`rebuildAfter ${this.rebuildAfter} is below 1`);
    if (!(this.sliceMs >= 0)) throw new RangeError(`sliceMs ${this.sliceMs} is below 0`);
    if (!(this.selectiveShare >= 0)) throw new RangeError(`selectiveShare ${this.selectiveShare} is below 0`);
    this.main = MainPart.empty(this.schema);
  }

  /**
   * A copy of an index another thread holds: it starts from that index's state, then takes the same
   * upserts and removals and every main part that index swaps in (adopt); it never rebuilds itself.
   */
  static fromState(
    columns: readonly ColumnSpec[],
    state: IndexState,
    options: Pick<FilterIndexOptions, 'selectiveShare'> = {},
  ): FilterIndex {
    const index = new FilterIndex(columns, { ...options, autoRebuild: false });
    index.main = MainPart.fromImage(state.image);
    index.delta = [...state.delta];
    for (const record of index.delta) index.deltaById.set(record.id, record);
    return index;
  }

  /** This index's state, for a copy in another thread (fromState). */
  state(): IndexState {
    return { image: this.main.image(), delta: this.delta.slice() };
  }

  /** Puts in use a main part the index this one copies has swapped in (its `onSwap`). */
  adopt(swap: MainSwap): void {
    const changed = new Set(swap.changed);
    this.main = MainPart.fromImage(swap.image);
    this.keepDelta(changed);
  }

  /** Records in the index. */
  get size(): number {
    return this.main.liveCount + this.delta.length;
  }

  /**
   * No record has a sortAt above this (-Infinity when there is none): the main part's first, its
   * latest, or a later one upserted since. A removed record may still count; the bound holds.
   */
  get latestSortAt(): number {
    let latest = this.main.size > 0 ? this.main.sortAt[0]! : -Infinity;
    for (const record of this.delta) latest = Math.max(latest, record.sortAt);
    return latest;
  }

  /** Records upserted since the main part was built. */
  get deltaSize(): number {
    return this.delta.length;
  }

  /** The delta, or the records removed from the main part, have reached `rebuildAfter`. */
  get needsRebuild(): boolean {
    const { rebuildAfter } = this;
    return this.delta.length >= rebuildAfter || this.main.removedCount >= rebuildAfter;
  }

  /** A build or rebuild is running. */
  get busy(): boolean {
    return this.running !== null;
  }

  /**
   * Replaces the contents with the records of `batches` (any order; of an id given twice, the
   * last one counts), working in slices. Queries see the previous contents until it finishes;
   * upserts and removals made meanwhile apply on top of the new contents.
   */
  async build(batches: AsyncIterable<readonly IndexRecord[]> | Iterable<readonly IndexRecord[]>): Promise<void> {
    while (this.running !== null) await this.running.catch(() => undefined);
    this.running = this.run(() => this.load(batches));
    return this.running;
  }

  /**
   * Folds the delta into a new main part in the background; resolves once it is in use. While a
   * build or rebuild runs, returns that one.
   */
  rebuild(): Promise<void> {
    this.running ??= this.run(() => this.merge());
    return this.running;
  }

  /** Adds a record or replaces the one with the same id. */
  upsert(record: IndexRecord): void {
    const prepared = prepareRecord(this.schema, record);
    this.discard(prepared.id);
    this.delta.splice(this.deltaIndex(prepared), 0, prepared);
    this.deltaById.set(prepared.id, prepared);
    this.changedDuring?.add(prepared.id);
    this.startRebuildIfNeeded();
  }

  /** Removes the record with this id; false when there was none. */
  remove(id: number): boolean {
    const found = this.discard(id);
    this.changedDuring?.add(id);
    this.startRebuildIfNeeded();
    return found;
  }

  /**
   * The records matching the filter: how many, and the ids of `limit` of them from `offset` in
   * (sortAt DESC, id DESC) order, or in `order` (none past the end). Synchronous: about a
   * millisecond for a million records in the index's own order (or its reverse); another order
   * reads the sort value of every match (see order.ts).
   */
  query(filter: IndexFilter, offset: number, limit: number, order?: SortOrder): QueryResult {
    if (!Number.isSafeInteger(offset) || offset < 0) throw new RangeError(`offset ${offset} is not an integer >= 0`);
    if (!Number.isSafeInteger(limit) || limit < 0) throw new RangeError(`limit ${limit} is not an integer >= 0`);
    const prepared = prepareFilter(this.schema, filter);
    const sort = prepareOrder(this.schema, order);
    const { main } = this;
    const mainTotal = main.evaluate(main.bind(prepared.conditions), prepared.sortFrom, prepared.sortBefore, this.selectiveShare);
    const hitCount = this.matchDelta(prepared);
    const total = mainTotal + hitCount;
    if (limit === 0 || offset >= total) return { total, ids: [] };
    if (sort === null) return { total, ids: this.inOrder(mainTotal, hitCount, offset, limit) };
    if (sort.kind === 'sortAt') {
      // Oldest first: the default order read backwards.
      const end = total - offset;
      const start = Math.max(0, end - limit);
      return { total, ids: this.inOrder(mainTotal, hitCount, start, end - start).reverse() };
    }
    return { total, ids: orderedPage(main, this.hits, hitCount, mainTotal, sort, offset, limit) };
  }

  /** The sortAt of the record with this id, when the index holds it (a page's dates, without its documents). */
  sortAtOf(id: number): number | undefined {
    const changed = this.deltaById.get(id);
    if (changed !== undefined) return changed.sortAt;
    const position = this.main.find(id);
    return position < 0 ? undefined : this.main.sortAt[position];
  }

  /**
   * The distinct keys of a `key` column over every record matching the filter, as their hashes,
   * ascending: what a `hashes` term of another index takes. How the companies with a matching signal
   * are found: the signal index's matches, read back to the companies they are linked to.
   */
  keysOf(filter: IndexFilter, column: string): Float64Array {
    const slot = this.keySlot(column);
    const prepared = prepareFilter(this.schema, filter);
    const { main } = this;
    const mainTotal = main.evaluate(main.bind(prepared.conditions), prepared.sortFrom, prepared.sortBefore, this.selectiveShare);
    const hitCount = this.matchDelta(prepared);
    if (mainTotal > 0) {
      // Each match marks its keys' ordinals; the marked ones, in order, are the distinct keys ascending.
      const { distinct, offsets, ordinals } = keysOfPart(main, slot);
      const marked = new Uint8Array(distinct.length);
      const positions = new Int32Array(mainTotal);
      main.matchPositions(positions);
      let count = 0;
      for (const position of positions) {
        for (let k = offsets[position]!; k < offsets[position + 1]!; k++) {
          const ordinal = ordinals[k]!;
          if (marked[ordinal] === 0) count++;
          marked[ordinal] = 1;
        }
      }
      const keys = new Float64Array(count);
      for (let i = 0, n = 0; n < count; i++) if (marked[i] === 1) keys[n++] = distinct[i]!;
      if (hitCount === 0) return keys;
      // The delta's few matches are merged in, not sorted with the main part's many.
      const found: number[] = [];
      for (let i = 0; i < hitCount; i++) found.push(...this.hits[i]!.keys[slot]!);
      return unionAscending(keys, distinctAscending(found));
    }
    const found: number[] = [];
    for (let i = 0; i < hitCount; i++) found.push(...this.hits[i]!.keys[slot]!);
    return distinctAscending(found);
  }

  /**
   * The sum of a `number` column over every record matching the filter, per key of a `key` column:
   * the keys' hashes ascending and their totals at the same index (what a company's funding rounds
   * add up to). Null values add nothing; records without a key are left out. Arrays, not a map: a
   * filter over every record can reach most of the keys.
   */
  keyTotals(filter: IndexFilter, keyColumn: string, numberColumn: string): KeyValues {
    const number = this.schema.byName.get(numberColumn);
    if (number?.kind !== 'number') throw new TypeError(`keyTotals: ${numberColumn} is not a number column`);
    const values = this.main.numbers[number.slot]!;
    return this.perKey(
      filter,
      keyColumn,
      'sum',
      (position) => numberAt(values, position),
      (record) => record.numbers[number.slot]!,
    );
  }

  /**
   * The latest `sortAt` of the records matching the filter, per key of a `key` column: the keys'
   * hashes ascending and their latest at the same index (when a company last raised). A window on
   * sortAt is then a comparison per key, not a new read of every record.
   */
  keyLatest(filter: IndexFilter, keyColumn: string): KeyValues {
    const { sortAt } = this.main;
    return this.perKey(
      filter,
      keyColumn,
      'max',
      (position) => sortAt[position]!,
      (record) => record.sortAt,
    );
  }

  /** One value per key over the matching records (NaN values left out): their sum or their largest. */
  private perKey(
    filter: IndexFilter,
    keyColumn: string,
    reduce: 'sum' | 'max',
    mainValue: (position: number) => number,
    deltaValue: (record: PreparedRecord) => number,
  ): KeyValues {
    const slot = this.keySlot(keyColumn);
    const prepared = prepareFilter(this.schema, filter);
    const { main } = this;
    const mainTotal = main.evaluate(main.bind(prepared.conditions), prepared.sortFrom, prepared.sortBefore, this.selectiveShare);
    const hitCount = this.matchDelta(prepared);
    const { distinct, offsets, ordinals } = keysOfPart(main, slot);
    const sum = reduce === 'sum';
    const reduced = new Float64Array(distinct.length);
    const touched = new Uint8Array(distinct.length);
    if (mainTotal > 0) {
      const positions = new Int32Array(mainTotal);
      main.matchPositions(positions);
      const values = new Float64Array(mainTotal);
      for (let m = 0; m < mainTotal; m++) values[m] = mainValue(positions[m]!);
      for (let m = 0; m < mainTotal; m++) {
        const value = values[m]!;
        if (value !== value) continue;
        const position = positions[m]!;
        for (let k = offsets[position]!, end = offsets[position + 1]!; k < end; k++) {
          reduceInto(reduced, touched, ordinals[k]!, value, sum);
        }
      }
    }
    // The delta's keys: most are keys of the main part too; the others are reduced apart.
    const others = new Map<number, number>();
    for (let i = 0; i < hitCount; i++) {
      const record = this.hits[i]!;
      const value = deltaValue(record);
      if (Number.isNaN(value)) continue;
      for (const hash of record.keys[slot]!) {
        const at = lowerBound(distinct, hash);
        if (at < distinct.length && distinct[at] === hash) reduceInto(reduced, touched, at, value, sum);
        else {
          const before = others.get(hash);
          others.set(hash, before === undefined ? value : sum ? before + value : Math.max(before, value));
        }
      }
    }
    const otherHashes = distinctAscending([...others.keys()]);
    let count = 0;
    for (const mark of touched) count += mark;
    const hashes = new Float64Array(count + otherHashes.length);
    const values = new Float64Array(hashes.length);
    // Both lists are ascending and disjoint: merged in one walk.
    let i = 0;
    let j = 0;
    for (let n = 0; n < hashes.length; n++) {
      while (i < distinct.length && touched[i] === 0) i++;
      if (j >= otherHashes.length || (i < distinct.length && distinct[i]! < otherHashes[j]!)) {
        hashes[n] = distinct[i]!;
        values[n] = reduced[i++]!;
      } else {
        hashes[n] = otherHashes[j]!;
        values[n] = others.get(otherHashes[j++]!)!;
      }
    }
    return { hashes, values };
  }

  private keySlot(column: string): number {
    const spec = this.schema.byName.get(column);
    if (spec?.kind !== 'key') throw new TypeError(`${column} is not a key column`);
    return spec.slot;
  }

  /** Matches [offset, offset + limit) of the last evaluation in (sortAt DESC, id DESC) order; offset < total. */
  private inOrder(mainTotal: number, hitCount: number, offset: number, limit: number): number[] {
    const { main, hits } = this;
    const ids: number[] = [];
    // Where the main part's matches and the delta's interleave: delta hit d is preceded by the main
    // matches at positions before it (a rank, no walk) and by d other hits. Find how many hits
    // come before the offset by binary search, then merge from there.
    const mainBefore = (hit: PreparedRecord) => main.countBefore(hit.sortAt, hit.id);
    let lo = 0;
    let hi = hitCount;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (main.rank(mainBefore(hits[mid]!)) + mid < offset) lo = mid + 1;
      else hi = mid;
    }
    let hit = lo;
    let match = offset - hit;
    let position = match < mainTotal ? main.select(match) : -1;
    let hitAfter = hit < hitCount ? mainBefore(hits[hit]!) : Infinity;
    while (ids.length < limit && (match < mainTotal || hit < hitCount)) {
      if (match < mainTotal && position < hitAfter) {
        ids.push(main.ids[position]!);
        if (match + 1 < mainTotal) position = main.next(match, position);
        match++;
      } else {
        ids.push(hits[hit]!.id);
        hit++;
        hitAfter = hit < hitCount ? mainBefore(hits[hit]!) : Infinity;
      }
    }
    return ids;
  }

  /** Estimated memory held by the index, in bytes (typed arrays, strings, the delta). */
  bytesUsed(): number {
    return Object.values(this.bytesByColumn()).reduce((sum, bytes) => sum + bytes, 0);
  }

  /** bytesUsed() per column, with "(records)" for ids, order and scratch space and "(delta)". */
  bytesByColumn(): Record<string, number> {
    return { ...this.main.bytesByColumn(this.schema), '(delta)': this.delta.length * DELTA_RECORD_BYTES };
  }

  private startRebuildIfNeeded(): void {
    if (!this.autoRebuild || this.running !== null || !this.needsRebuild) return;
    const { onRebuildError } = this;
    const job = this.rebuild();
    if (onRebuildError !== undefined) job.catch(onRebuildError);
  }

  private async run(job: () => Promise<void>): Promise<void> {
    try {
      await job();
    } finally {
      this.running = null;
      this.changedDuring = null;
    }
    this.startRebuildIfNeeded();
  }

  private async load(batches: AsyncIterable<readonly IndexRecord[]> | Iterable<readonly IndexRecord[]>): Promise<void> {
    this.changedDuring = new Set();
    const slicer = new Slicer(this.sliceMs);
    const staging = new Staging(this.schema);
    for await (const batch of batches) {
      for (const record of batch) {
        staging.add(prepareRecord(this.schema, record));
        if (slicer.due(8)) await slicer.pause();
      }
    }
    this.swap(this.shareable(await finalize(this.schema, staging, slicer, { maxCodedValues: this.maxCodedValues })));
  }

  /** The part as this index keeps it: with its arrays in SharedArrayBuffers when copies in other threads read it. */
  private shareable(main: MainPart): MainPart {
    return this.onSwap ? main.shared() : main;
  }

  private async merge(): Promise<void> {
    this.changedDuring = new Set();
    const slicer = new Slicer(this.sliceMs);
    const base = this.main;
    const staged = await stageRebuild(this.schema, base, base.removed.slice(), this.delta.slice(), slicer);
    const { staging, idOrder, newRow, changeRows } = staged;
    const carried = { base, newRow, changeRows };
    this.swap(
      this.shareable(await finalize(this.schema, staging, slicer, { idOrder, carried, maxCodedValues: this.maxCodedValues })),
    );
  }

  /**
   * Puts a new main part in use. It holds the records as they were when its build started; the
   * ids changed since are removed from it and keep their current version (if any) in the delta.
   */
  private swap(main: MainPart): void {
    const changed = this.changedDuring ?? new Set<number>();
    this.changedDuring = null;
    this.main = main;
    this.keepDelta(changed);
    for (const id of changed) {
      const position = main.find(id);
      if (position >= 0) main.remove(position);
    }
    this.onSwap?.({ image: main.image(), changed: [...changed] });
  }

  /** Keeps the delta records of these ids only (the others are in the main part just swapped in). */
  private keepDelta(changed: ReadonlySet<number>): void {
    this.delta = this.delta.filter((record) => changed.has(record.id));
    this.hits.length = 0;
    this.deltaById.clear();
    for (const record of this.delta) this.deltaById.set(record.id, record);
  }

  /** Takes the record with this id out of both parts; false when it was in neither. */
  private discard(id: number): boolean {
    let found = false;
    const position = this.main.find(id);
    if (position >= 0) {
      this.main.remove(position);
      found = true;
    }
    const previous = this.deltaById.get(id);
    if (previous !== undefined) {
      this.delta.splice(this.deltaIndex(previous), 1);
      this.deltaById.delete(id);
      found = true;
    }
    return found;
  }

  /** Index of the first delta record not ordered before this one. */
  private deltaIndex(record: PreparedRecord): number {
    const { delta } = this;
    let lo = 0;
    let hi = delta.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const other = delta[mid]!;
      if (comesBefore(other.sortAt, other.id, record.sortAt, record.id)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Puts the delta records matching the filter, in order, at the start of `hits`; returns how many. */
  private matchDelta(filter: PreparedFilter): number {
    const { delta, hits } = this;
    let count = 0;
    let lo = 0;
    let hi = delta.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (delta[mid]!.sortAt >= filter.sortBefore) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo; i < delta.length; i++) {
      const record = delta[i]!;
      if (record.sortAt < filter.sortFrom) break;
      if (recordMatches(record, filter.conditions)) hits[count++] = record;
    }
    return count;
  }
}
