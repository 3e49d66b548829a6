// Bitsets over record positions: bit p lives in word p >>> 5, at bit p & 31. Plain Uint32Array
// words, so a filter is a few passes of integer AND/OR over the words of its date range.

/** Words needed for n bits. */
export function wordCount(n: number): number {
  return (n + 31) >>> 5;
}

/** Set bits of a 32-bit word (SWAR: no table, no loop; about as fast as a native popcount in V8). */
export function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}

/** Index of the lowest set bit of a non-zero word. */
export function lowestBit(x: number): number {
  return 31 - Math.clz32(x & -x);
}

/** Index of the r-th (0-based) set bit of x; x has more than r set bits. */
export function selectBit(x: number, r: number): number {
  for (; r > 0; r--) x &= x - 1;
  return lowestBit(x);
}

export function setBit(bits: Uint32Array, p: number): void {
  bits[p >>> 5]! |= 1 << (p & 31);
}

export function hasBit(bits: Uint32Array, p: number): boolean {
  return (bits[p >>> 5]! & (1 << (p & 31))) !== 0;
}

/** The bits of word w that fall inside the positions [lo, hi) (hi > lo). */
export function rangeMask(w: number, lo: number, hi: number): number {
  let mask = -1;
  if (w === lo >>> 5) mask &= -1 << (lo & 31);
  if (w === (hi - 1) >>> 5 && (hi & 31) !== 0) mask &= (1 << (hi & 31)) - 1;
  return mask;
}

/** First index in [from, to) of a sorted array whose value is >= target (to when none). */
export function lowerBound(sorted: ArrayLike<number>, target: number, from = 0, to = sorted.length): number {
  let lo = from;
  let hi = to;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < target) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The values ascending, each once, as a new array (the input is left as it was). */
export function distinctAscending(values: ArrayLike<number>): Float64Array {
  const sorted = Float64Array.from(values).sort();
  let distinct = 0;
  for (let i = 0; i < sorted.length; i++)
    if (distinct === 0 || sorted[i] !== sorted[distinct - 1]) sorted[distinct++] = sorted[i]!;
  return sorted.slice(0, distinct);
}

/** The union of two ascending, distinct lists, ascending and distinct, in one walk of both. */
export function unionAscending(a: ArrayLike<number>, b: ArrayLike<number>): Float64Array {
  const out = new Float64Array(a.length + b.length);
  let i = 0;
  let j = 0;
  let n = 0;
  while (i < a.length || j < b.length) {
    if (j >= b.length || (i < a.length && a[i]! < b[j]!)) out[n++] = a[i++]!;
    else if (i >= a.length || b[j]! < a[i]!) out[n++] = b[j++]!;
    else {
      out[n++] = a[i++]!;
      j++;
    }
  }
  return out.slice(0, n);
}
