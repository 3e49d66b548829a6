// A sorted list of distinct strings packed into one array of UTF-16 code units and its offsets: a
// text column's collation keys, a words column's words. An array of millions of short strings costs
// a header and a pointer each (about 40 bytes for a 15-character name); packed, a name costs its
// characters (one byte each unless a key holds a character above U+00FF) and a 4-byte offset, and
// both arrays can live in SharedArrayBuffers, read by every serving thread without a copy. Keys
// are compared in place (binary searches) and read one at a time as strings only when needed.

import type { Slicer } from './time-slicer.js';

/** PackedKeys as plain data, for postMessage. */
export interface PackedKeysImage {
  readonly chars: Uint8Array | Uint16Array;
  readonly offsets: Int32Array;
}

export class PackedKeys {
  static readonly EMPTY = new PackedKeys(new Uint8Array(0), Int32Array.of(0));

  private constructor(
    /** Key i is chars[offsets[i], offsets[i + 1]) (one byte a character when every one is below U+0100). */
    private readonly chars: Uint8Array | Uint16Array,
    private readonly offsets: Int32Array,
  ) {}

  /**
   * Keys already sorted and distinct, packed a run at a time, the slicer pausing between runs as a
   * build does: millions of keys take tens of milliseconds, longer than a build may hold the event loop.
   */
  static async packInRuns(keys: readonly string[], slicer: Slicer): Promise<PackedKeys> {
    const packing = new Packing(keys);
    for (let from = 0; from < keys.length; from += RUN) {
      packing.measure(from, Math.min(keys.length, from + RUN));
      await slicer.step(RUN);
    }
    packing.allocate();
    for (let from = 0; from < keys.length; from += RUN) {
      packing.write(from, Math.min(keys.length, from + RUN));
      await slicer.step(RUN);
    }
    return packing.keys();
  }

  /** The same keys with both arrays in SharedArrayBuffers. */
  shared(): PackedKeys {
    if (this.offsets.buffer instanceof SharedArrayBuffer) return this;
    return new PackedKeys(sharedCopy(this.chars), sharedCopy(this.offsets));
  }

  /** As posted to another thread (not copied if `shared`). */
  image(): PackedKeysImage {
    return { chars: this.chars, offsets: this.offsets };
  }

  static fromImage(image: PackedKeysImage): PackedKeys {
    return new PackedKeys(image.chars, image.offsets);
  }

  get length(): number {
    return this.offsets.length - 1;
  }

  at(i: number): string {
    const { chars, offsets } = this;
    const start = offsets[i]!;
    const end = offsets[i + 1]!;
    let text = '';
    // In runs: String.fromCharCode takes its arguments on the stack.
    for (let from = start; from < end; from += 4096) {
      text += String.fromCharCode.apply(null, chars.subarray(from, Math.min(end, from + 4096)) as unknown as number[]);
    }
    return text;
  }

  /** Every key, as strings (a rebuild merges them with new ones), a run at a time (see packInRuns). */
  async toArrayInRuns(slicer: Slicer): Promise<string[]> {
    const keys: string[] = [];
    for (let i = 0; i < this.length; i++) {
      keys.push(this.at(i));
      if ((i + 1) % RUN === 0) await slicer.step(RUN);
    }
    return keys;
  }

  /** Key i compared with `key` as strings compare: negative, zero or positive. */
  compare(i: number, key: string): number {
    const { chars, offsets } = this;
    const start = offsets[i]!;
    const length = offsets[i + 1]! - start;
    const common = Math.min(length, key.length);
    for (let c = 0; c < common; c++) {
      const difference = chars[start + c]! - key.charCodeAt(c);
      if (difference !== 0) return difference;
    }
    return length - key.length;
  }

  /** Key i starts with `prefix`. */
  startsWith(i: number, prefix: string): boolean {
    const { chars, offsets } = this;
    const start = offsets[i]!;
    if (offsets[i + 1]! - start < prefix.length) return false;
    for (let c = 0; c < prefix.length; c++) if (chars[start + c] !== prefix.charCodeAt(c)) return false;
    return true;
  }

  /** The index of the first key not below `key` (length when none). */
  lowerBound(key: string): number {
    let lo = 0;
    let hi = this.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.compare(mid, key) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The index of `key`, or -1. */
  indexOf(key: string): number {
    const i = this.lowerBound(key);
    return i < this.length && this.compare(i, key) === 0 ? i : -1;
  }

  /** The keys starting with the prefix: a range [first, last) (they are contiguous in sorted order). */
  prefixRange(prefix: string): [number, number] {
    const first = this.lowerBound(prefix);
    let lo = first;
    let hi = this.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.startsWith(mid, prefix)) lo = mid + 1;
      else hi = mid;
    }
    return [first, lo];
  }

  /** Estimated memory held, in bytes. */
  bytes(): number {
    return this.offsets.byteLength + this.chars.byteLength + 16;
  }
}

/** Keys packed between two pauses of a build. */
const RUN = 4096;

/** PackedKeys being made: lengths first (to size the arrays), then the characters. */
class Packing {
  readonly offsets: Int32Array;
  private wide = false;
  private chars: Uint8Array | Uint16Array = new Uint8Array(0);

  constructor(private readonly source: readonly string[]) {
    this.offsets = new Int32Array(source.length + 1);
  }

  measure(from: number, to: number): void {
    const { source, offsets } = this;
    for (let i = from; i < to; i++) {
      const key = source[i]!;
      offsets[i + 1] = offsets[i]! + key.length;
      for (let c = 0; c < key.length && !this.wide; c++) this.wide = key.charCodeAt(c) > 0xff;
    }
  }

  allocate(): void {
    const length = this.offsets[this.source.length]!;
    this.chars = this.wide ? new Uint16Array(length) : new Uint8Array(length);
  }

  write(from: number, to: number): void {
    const { source, offsets, chars } = this;
    for (let i = from; i < to; i++) {
      const key = source[i]!;
      const start = offsets[i]!;
      for (let c = 0; c < key.length; c++) chars[start + c] = key.charCodeAt(c);
    }
  }

  keys(): PackedKeys {
    return PackedKeys.fromImage({ chars: this.chars, offsets: this.offsets });
  }
}

/** A copy of a typed array in a SharedArrayBuffer, readable by every thread it is posted to. */
export function sharedCopy<T extends ArrayBufferView & { set(array: T): void }>(array: T): T {
  const Kind = array.constructor as new (buffer: SharedArrayBuffer) => T;
  const copy = new Kind(new SharedArrayBuffer(array.byteLength));
  copy.set(array);
  return copy;
}
