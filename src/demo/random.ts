// The random source of the synthetic data generators: a seeded stream of uniform numbers (the
// same one their Faker instance draws from) with the distributions the generators need, and a
// weighted picker. Everything is deterministic in the seed, so a data set is reproducible.
import { base, en, Faker, generateMersenne53Randomizer, type Randomizer } from '@faker-js/faker';

function mix32(x: number): number {
  x = Math.imul(x ^ (x >>> 16), 0x21f0aaad);
  x = Math.imul(x ^ (x >>> 15), 0x735a2d97);
  return (x ^ (x >>> 15)) >>> 0;
}

/** sfc32: a small, fast, well-distributed 32-bit generator, usable as Faker's randomizer. */
class Sfc32 implements Randomizer {
  private a = 0;
  private b = 0;
  private c = 0;
  private d = 0;

  constructor(seed: number | number[]) {
    // Faker keeps references to these and calls them unbound.
    this.next = this.next.bind(this);
    this.seed = this.seed.bind(this);
    this.seed(seed);
  }

  seed(seed: number | number[]): void {
    const parts = Array.isArray(seed) ? seed : [seed];
    let h = mix32(0x9e3779b9 ^ parts.length);
    for (const part of parts) {
      const v = Number.isFinite(part) ? Math.trunc(part) : 0;
      h = mix32(h ^ (v >>> 0));
      h = mix32(h ^ (Math.floor(v / 4294967296) >>> 0) ^ 0x6a09e667);
    }
    this.a = mix32(h ^ 0x243f6a88);
    this.b = mix32(h ^ 0x85a308d3);
    this.c = mix32(h ^ 0x13198a2e);
    this.d = 1;
    for (let i = 0; i < 16; i++) this.u32();
  }

  private u32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  next(): number {
    return this.u32() / 4294967296;
  }
}

export function sfc32Randomizer(seed: number | number[] = 0): Randomizer {
  return new Sfc32(seed);
}

/** Faker's Mersenne Twister (53-bit), seeded by a whole number and a stream number. */
export function mersenneRandomizer(seed: number, stream: number): Randomizer {
  const randomizer = generateMersenne53Randomizer();
  const whole = Math.trunc(Number.isFinite(seed) ? seed : 0);
  randomizer.seed([whole >>> 0, Math.floor(whole / 0x1_0000_0000) >>> 0, stream >>> 0]);
  return randomizer;
}

/** Draws from one randomizer, shared with its Faker instance (English names, for uuids and the like). */
export class Rng {
  readonly faker: Faker;

  constructor(private readonly source: Randomizer) {
    this.faker = new Faker({ locale: [en, base], randomizer: source });
  }

  /** Uniform in [0, 1). */
  next(): number {
    return this.source.next();
  }

  /** Integer in [min, max], both inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.source.next() * (max - min + 1));
  }

  /** Uniform in [min, max). */
  float(min: number, max: number): number {
    return min + this.source.next() * (max - min);
  }

  chance(p: number): boolean {
    return this.source.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.source.next() * items.length)] as T;
  }

  /** Index in [0, n) skewed towards 0 (a few items are very popular, most are rare). */
  skewed(n: number, power: number): number {
    return Math.min(n - 1, Math.floor(n * Math.pow(this.source.next(), power)));
  }

  /** Log-uniform in [min, max]: as many values per decade. */
  logUniform(min: number, max: number): number {
    return min * Math.pow(max / min, this.source.next());
  }

  /** Log-space triangular draw between lo and hi (mode in the geometric middle). */
  logTriangular(lo: number, hi: number): number {
    const u = (this.source.next() + this.source.next()) / 2;
    return Math.exp(Math.log(lo) + u * (Math.log(hi) - Math.log(lo)));
  }

  /** Symmetric triangular noise in [-width, width]. */
  triangular(width: number): number {
    return (this.source.next() - this.source.next()) * width;
  }

  /** Standard normal (Box-Muller). */
  normal(): number {
    const u = 1 - this.source.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * this.source.next());
  }

  /** Close to standard normal and cheaper: the scaled sum of four uniforms (unit variance, bounded tails). */
  quickNormal(): number {
    return (this.source.next() + this.source.next() + this.source.next() + this.source.next() - 2) * 1.7320508075688772;
  }

  /** `length` hex digits, 32 bits per eight. */
  hex(length: number): string {
    let out = '';
    while (out.length < length)
      out += Math.floor(this.source.next() * 4294967296)
        .toString(16)
        .padStart(8, '0');
    return out.slice(0, length);
  }

  /** k distinct items (k clamped to the list length), in draw order. */
  sample<T>(items: readonly T[], k: number): T[] {
    const n = items.length;
    const count = Math.min(k, n);
    const out: T[] = [];
    const used = new Set<number>();
    while (out.length < count) {
      const i = Math.floor(this.source.next() * n);
      if (used.has(i)) continue;
      used.add(i);
      out.push(items[i] as T);
    }
    return out;
  }

  uuid(): string {
    return this.faker.string.uuid();
  }
}

/** Weighted choice by binary search over cumulative weights. */
export class Weighted<T> {
  readonly items: readonly T[];
  private readonly cumulative: Float64Array;
  private readonly total: number;

  constructor(entries: ReadonlyArray<readonly [T, number]>) {
    this.items = entries.map(([item]) => item);
    this.cumulative = new Float64Array(entries.length);
    let sum = 0;
    entries.forEach(([, weight], i) => {
      sum += weight;
      this.cumulative[i] = sum;
    });
    this.total = sum;
  }

  pick(rng: Rng): T {
    const target = rng.next() * this.total;
    const cumulative = this.cumulative;
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((cumulative[mid] as number) > target) hi = mid;
      else lo = mid + 1;
    }
    return this.items[lo] as T;
  }
}

/** Picks k distinct items, weighted, skipping any rejected by `allow`. */
export function pickDistinct<T>(
  rng: Rng,
  entries: ReadonlyArray<readonly [T, number]>,
  k: number,
  allow?: (item: T, chosen: readonly T[]) => boolean,
): T[] {
  const pool = entries.slice();
  const chosen: T[] = [];
  while (chosen.length < k && pool.length > 0) {
    let total = 0;
    for (const [, w] of pool) total += w;
    let target = rng.next() * total;
    let index = pool.length - 1;
    for (let i = 0; i < pool.length; i++) {
      target -= (pool[i] as readonly [T, number])[1];
      if (target < 0) {
        index = i;
        break;
      }
    }
    const [item] = pool[index] as readonly [T, number];
    pool.splice(index, 1);
    if (!allow || allow(item, chosen)) chosen.push(item);
  }
  return chosen;
}
