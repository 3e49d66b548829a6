// A sorted list of distinct strings packed into one string and its offsets: a text column's
// collation keys. An array of millions of short strings costs a header and a pointer each (about
// 40 bytes for a 15-character name); packed, a name costs its characters (one byte each unless a
// key holds a character above U+00FF) and a 4-byte offset. Keys are read one at a time (a binary
// search for a changed record, a merge on rebuild), as slices.

export class PackedKeys {
  static readonly EMPTY = new PackedKeys('', Int32Array.of(0), false);

  private constructor(
    private readonly text: string,
    /** Key i is text[offsets[i], offsets[i + 1]). */
    private readonly offsets: Int32Array,
    /** Some key holds a character above U+00FF: the string takes two bytes a character. */
    private readonly wide: boolean,
  ) {}

  /** Keys already sorted and distinct. */
  static pack(keys: readonly string[]): PackedKeys {
    const offsets = new Int32Array(keys.length + 1);
    let wide = false;
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!;
      offsets[i + 1] = offsets[i]! + key.length;
      for (let c = 0; c < key.length && !wide; c++) wide = key.charCodeAt(c) > 0xff;
    }
    return new PackedKeys(keys.join(''), offsets, wide);
  }

  get length(): number {
    return this.offsets.length - 1;
  }

  at(i: number): string {
    return this.text.slice(this.offsets[i]!, this.offsets[i + 1]!);
  }

  /** The index of the first key not below `key` (length when none). */
  lowerBound(key: string): number {
    let lo = 0;
    let hi = this.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.at(mid) < key) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Estimated memory held, in bytes. */
  bytes(): number {
    return this.offsets.byteLength + 16 + this.text.length * (this.wide ? 2 : 1);
  }
}
