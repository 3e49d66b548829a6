// A page in an order other than the index's own, in one of two ways:
// - walk: the main part keeps its positions in the column's order (ColumnOrder); walking it and
//   testing each position against the filter's bitset finds the first offset + limit matches in
//   about (offset + limit) × records / matches steps: a page of an unfiltered or broad filter costs
//   microseconds whatever the dataset's size;
// - select: every match's sort value is read (a typed array by position), and the first offset +
//   limit are selected with a bounded heap: a pass over the matches, cheap for a narrow filter.
// The delta's matches (a few thousand at most) join the candidates either way. Figures in the
// docs/architecture.md ("How a page is served").
import { numberAt, type MainPart } from './base-columns.js';
import { PackedKeys } from './packed-keys.js';
import type { PreparedOrder, PreparedRecord } from './records.js';

type ColumnSort = Exclude<PreparedOrder, { kind: 'sortAt' }>;

/**
 * Steps of the walk worth one match of the selection per comparison it makes (log2 of the page's
 * end): measured, a step costs about 1.5 ns and a match 5 to 15 ns a comparison.
 */
const WALK_STEPS_PER_MATCH = 4;

/** A main part's key for a text value not among its keys: between its neighbours, so it compares by number. */
function textRank(keys: PackedKeys, key: string): number {
  const at = keys.lowerBound(key);
  return at < keys.length && keys.compare(at, key) === 0 ? at : at - 0.5;
}

/**
 * The ids of matches [offset, offset + limit) in `order`. The main part's matches are those of its
 * last evaluate() (`mainTotal` of them), the delta's are `hits[0 .. hitCount)`.
 */
export function orderedPage(
  main: MainPart,
  hits: readonly PreparedRecord[],
  hitCount: number,
  mainTotal: number,
  order: ColumnSort,
  offset: number,
  limit: number,
): number[] {
  const total = mainTotal + hitCount;
  const want = Math.min(total, offset + limit);
  if (want <= offset) return [];
  const columnOrder = order.kind === 'number' ? main.numbers[order.slot]!.order : main.texts[order.slot]!.order;
  // Walk when its steps, about want × size / matches if the matches are spread over the order, cost
  // less than selecting; a walk that takes longer (a date range on a correlated column: most
  // positions it meets are out of range) gives up at that cost and selects.
  const budget = WALK_STEPS_PER_MATCH * mainTotal * Math.log2(want + 2);
  let positions = new Int32Array(0);
  let fromMain = -1;
  if (columnOrder !== null && main.matchedByBits && (want * main.size) / mainTotal <= budget) {
    positions = new Int32Array(Math.min(want, mainTotal));
    fromMain = main.firstInOrder(columnOrder, order.descending, want, positions, budget);
  }
  const walk = fromMain >= 0;
  if (!walk) {
    positions = new Int32Array(mainTotal);
    main.matchPositions(positions);
    fromMain = mainTotal;
  }
  // Candidate i: a main position for i < fromMain, else delta hit i - fromMain. Its value is
  // stored negated when the order is descending, so "before" is always "smaller", ties and nulls aside.
  const candidates = fromMain + hitCount;
  const values = new Float64Array(candidates);
  const ids = new Float64Array(candidates);
  const sign = order.descending ? -1 : 1;
  if (order.kind === 'number') {
    const column = main.numbers[order.slot]!;
    for (let i = 0; i < fromMain; i++) values[i] = sign * numberAt(column, positions[i]!);
  } else {
    const { ranks } = main.texts[order.slot]!;
    for (let i = 0; i < fromMain; i++) {
      const r = ranks[positions[i]!]!;
      values[i] = r < 0 ? NaN : sign * r;
    }
  }
  for (let i = 0; i < fromMain; i++) ids[i] = main.ids[positions[i]!]!;
  const keys = order.kind === 'text' ? main.texts[order.slot]!.keys : PackedKeys.EMPTY;
  for (let h = 0; h < hitCount; h++) {
    const hit = hits[h]!;
    let value: number;
    if (order.kind === 'number') value = hit.numbers[order.slot]!;
    else {
      const key = hit.texts[order.slot]!;
      value = key === null ? NaN : textRank(keys, key);
    }
    values[fromMain + h] = sign * value;
    ids[fromMain + h] = hit.id;
  }
  const descending = order.descending;
  // Two delta texts between the same two keys of the main part get the same value: their keys decide.
  const text = order.kind === 'text';
  const before = (a: number, b: number): boolean => {
    const x = values[a]!;
    const y = values[b]!;
    if (x < y) return true;
    if (x > y) return false;
    const xNull = x !== x;
    if (xNull !== (y !== y)) return !xNull;
    if (text && !xNull && a >= fromMain && b >= fromMain && x !== Math.trunc(x)) {
      const ka = hits[a - fromMain]!.texts[order.slot]!;
      const kb = hits[b - fromMain]!.texts[order.slot]!;
      if (ka !== kb) return descending ? ka > kb : ka < kb;
    }
    return descending ? ids[a]! > ids[b]! : ids[a]! < ids[b]!;
  };
  if (!walk) return pick(selectFirst(range(0, candidates), want, before), offset, want, ids);
  // The walk's candidates are in order already: merged with the delta's best.
  const fromDelta = selectFirst(range(fromMain, candidates), Math.min(want, hitCount), before);
  const chosen = new Int32Array(want);
  let m = 0;
  let d = 0;
  for (let k = 0; k < want; k++) {
    chosen[k] = d === fromDelta.length || (m < fromMain && before(m, fromDelta[d]!)) ? m++ : fromDelta[d++]!;
  }
  return pick(chosen, offset, want, ids);
}

const range = (from: number, to: number) => Int32Array.from({ length: to - from }, (_, i) => from + i);

const pick = (chosen: Int32Array, offset: number, want: number, ids: Float64Array) =>
  Array.from(chosen.subarray(offset, want), (i) => ids[i]!);

/** The first `k` of `items` by `before` (a strict total order), in that order. */
function selectFirst(items: Int32Array, k: number, before: (a: number, b: number) => boolean): Int32Array {
  const compare = (a: number, b: number) => (before(a, b) ? -1 : before(b, a) ? 1 : 0);
  const n = items.length;
  if (k === 0) return new Int32Array(0);
  if (k * 4 >= n) return items.sort(compare).subarray(0, k);
  // A heap of the best k so far with the last of them on top: most items are refused by one comparison.
  const heap = new Int32Array(k);
  let size = 0;
  for (let next = 0; next < n; next++) {
    const item = items[next]!;
    if (size < k) {
      let i = size++;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (!before(heap[parent]!, item)) break;
        heap[i] = heap[parent]!;
        i = parent;
      }
      heap[i] = item;
    } else if (before(item, heap[0]!)) {
      let i = 0;
      for (;;) {
        const left = 2 * i + 1;
        if (left >= k) break;
        const right = left + 1;
        const later = right < k && before(heap[left]!, heap[right]!) ? right : left;
        if (!before(item, heap[later]!)) break;
        heap[i] = heap[later]!;
        i = later;
      }
      heap[i] = item;
    }
  }
  return heap.sort(compare);
}
