// The bucket planes of a number column (see NumberIndex): thresholds placed from a sample of the
// values, and each position's bucket code written bit by bit into the planes.
import { wordCount } from './bits.js';
import type { NumberIndex } from './base-columns.js';

/** Buckets per number column (codes 1…255 in 8 bit planes; code 0 is null). See NumberIndex. */
const NUMBER_BUCKETS = 255;
/** Values sampled to place the bucket thresholds (they need not be exact quantiles; the first is the exact minimum). */
const NUMBER_SAMPLE = 16_384;

/** The bucket thresholds of values by position (NaN is null), the exact minimum first; empty when none has a value. */
export function bucketThresholds(values: Float64Array, min: number, present: number): Float64Array {
  if (present === 0) return new Float64Array(0);
  const n = values.length;
  const step = Math.max(1, Math.floor(n / NUMBER_SAMPLE));
  const sampled: number[] = [];
  for (let p = 0; p < n; p += step) if (values[p] === values[p]) sampled.push(values[p]!);
  const sample = Float64Array.from(sampled).sort();
  const thresholds = [min];
  for (let k = 1; k < NUMBER_BUCKETS; k++) {
    const value = sample[Math.floor((k * sample.length) / NUMBER_BUCKETS)];
    if (value !== undefined && value > thresholds[thresholds.length - 1]!) thresholds.push(value);
  }
  return Float64Array.from(thresholds);
}

/** Planes enough for every code of these thresholds, all bits clear. */
export function emptyPlanes(thresholds: Float64Array, size: number): Uint32Array[] {
  return Array.from({ length: 32 - Math.clz32(thresholds.length) }, () => new Uint32Array(wordCount(size)));
}

/**
 * Writes the codes of positions [from, to): a value's code is 1 + the index of the last threshold
 * at or below it; bit i of the code goes into plane i.
 */
export function writeCodes(
  values: Float64Array,
  thresholds: Float64Array,
  planes: Uint32Array[],
  from: number,
  to: number,
): void {
  for (let p = from; p < to; p++) {
    const value = values[p]!;
    if (value !== value) continue;
    let lo = 0;
    let hi = thresholds.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (thresholds[mid]! <= value) lo = mid;
      else hi = mid - 1;
    }
    const bit = 1 << (p & 31);
    for (let code = lo + 1, plane = 0; code !== 0; code >>>= 1, plane++) if ((code & 1) !== 0) planes[plane]![p >>> 5]! |= bit;
  }
}

/** A number column over values by position (NaN is null), built at once: for values made at read time. */
export function numberIndexOf(values: Float64Array): NumberIndex {
  let min = Infinity;
  let present = 0;
  for (const value of values) {
    if (value === value) {
      present++;
      if (value < min) min = value;
    }
  }
  const thresholds = bucketThresholds(values, min, present);
  const planes = emptyPlanes(thresholds, values.length);
  writeCodes(values, thresholds, planes, 0, values.length);
  return { values, codes: null, dictionary: new Float64Array(0), thresholds, planes, order: null };
}
