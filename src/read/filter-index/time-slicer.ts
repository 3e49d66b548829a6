// Long jobs (building and rebuilding an index of millions of records) run in slices so the event
// loop keeps answering requests: the job checks the clock every few hundred units of work and,
// once a slice has used its time, waits for setImmediate (timers and I/O run first) before going on.
import { performance } from 'node:perf_hooks';
import { setImmediate } from 'node:timers';

/** Units of work between two readings of the clock: small enough that a slice overruns by well under 1 ms. */
const CHECK_EVERY = 512;

export class Slicer {
  private started = performance.now();
  private units = 0;

  constructor(private readonly sliceMs: number) {}

  /** Counts work done; true when the current slice has used its time and the job should `pause()`. */
  due(units = 1): boolean {
    this.units += units;
    if (this.units < CHECK_EVERY) return false;
    this.units = 0;
    return performance.now() - this.started >= this.sliceMs;
  }

  /** Counts work done and pauses once the slice has used its time (`due`, then `pause`). */
  async step(units = 1): Promise<void> {
    if (this.due(units)) await this.pause();
  }

  /** Lets the event loop run, then starts a new slice. */
  async pause(): Promise<void> {
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.started = performance.now();
    this.units = 0;
  }
}

/** Runs shorter than this are completed by insertion sort before merging. */
const MIN_RUN = 32;

/**
 * Sorts `items` (usually record positions or row numbers) by `compare`, stably, in slices.
 * A natural merge sort: input made of a few sorted runs (the previous index plus a small tail of
 * changes, which is what a rebuild sorts) costs one linear merge instead of n log n comparisons.
 * Returns the sorted array, which may be a different buffer than `items`.
 */
export async function sortIndices(
  items: Int32Array,
  compare: (a: number, b: number) => number,
  slicer: Slicer,
): Promise<Int32Array> {
  const n = items.length;
  if (n < 2) return items;
  let bounds: number[] = [0];
  for (let start = 0; start < n;) {
    let end = start + 1;
    // A run can be the whole input (a rebuild's is): look at the clock while following it.
    if (end < n && compare(items[end - 1]!, items[end]!) > 0) {
      // Strictly descending: reversing keeps the sort stable because no two items are equal.
      for (; end < n && compare(items[end - 1]!, items[end]!) > 0; end++) if (slicer.due()) await slicer.pause();
      items.subarray(start, end).reverse();
    } else {
      for (; end < n && compare(items[end - 1]!, items[end]!) <= 0; end++) if (slicer.due()) await slicer.pause();
    }
    const stop = Math.min(n, Math.max(end, start + MIN_RUN));
    for (let i = end; i < stop; i++) {
      const item = items[i]!;
      let j = i - 1;
      for (; j >= start && compare(items[j]!, item) > 0; j--) items[j + 1] = items[j]!;
      items[j + 1] = item;
    }
    bounds.push(stop);
    if (slicer.due(stop - end)) await slicer.pause();
    start = stop;
  }
  let source: Int32Array = items;
  let target: Int32Array = new Int32Array(n);
  while (bounds.length > 2) {
    const merged: number[] = [0];
    const runs = bounds.length - 1;
    for (let r = 0; r < runs; r += 2) {
      const from = bounds[r]!;
      const middle = bounds[r + 1]!;
      const to = r + 1 < runs ? bounds[r + 2]! : middle;
      let a = from;
      let b = middle;
      let k = from;
      while (a < middle && b < to) {
        target[k++] = compare(source[b]!, source[a]!) < 0 ? source[b++]! : source[a++]!;
        if (slicer.due()) await slicer.pause();
      }
      target.set(source.subarray(a, middle), k);
      target.set(source.subarray(b, to), k + middle - a);
      merged.push(to);
    }
    bounds = merged;
    [source, target] = [target, source];
  }
  return source;
}

/** 0, 1, …, n - 1. */
export async function identity(n: number, slicer: Slicer): Promise<Int32Array> {
  const items = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    items[i] = i;
    if (slicer.due()) await slicer.pause();
  }
  return items;
}

/** An Int32Array that grows as values are appended. */
export class Int32Column {
  private data: Int32Array;
  length = 0;

  /** `capacity`: the length expected, when known, so the column is allocated once. */
  constructor(capacity = 64) {
    this.data = new Int32Array(Math.max(capacity, 16));
  }

  push(value: number): void {
    if (this.length === this.data.length) this.grow();
    this.data[this.length++] = value;
  }

  get(i: number): number {
    return this.data[i]!;
  }

  /** The values appended so far (shares memory with the column until the next push). */
  view(): Int32Array {
    return this.data.subarray(0, this.length);
  }

  private grow(): void {
    const next = new Int32Array(this.data.length * 2);
    next.set(this.data);
    this.data = next;
  }
}

/** A Float64Array that grows as values are appended. */
export class Float64Column {
  private data: Float64Array;
  length = 0;

  /** `capacity`: the length expected, when known, so the column is allocated once. */
  constructor(capacity = 64) {
    this.data = new Float64Array(Math.max(capacity, 16));
  }

  push(value: number): void {
    if (this.length === this.data.length) this.grow();
    this.data[this.length++] = value;
  }

  get(i: number): number {
    return this.data[i]!;
  }

  view(): Float64Array {
    return this.data.subarray(0, this.length);
  }

  private grow(): void {
    const next = new Float64Array(this.data.length * 2);
    next.set(this.data);
    this.data = next;
  }
}
