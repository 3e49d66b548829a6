/** What one measured run produced, whoever generated the load. */
export interface LoadResult {
  reqPerSec: number;
  p50Ms: number;
  p99Ms: number;
  /** The slowest request of the run. */
  maxMs: number;
  requests: number;
  /** Responses that were not a success (HTTP status ≥ 400, or failed queries for the driver). */
  failures: number;
  /** Connection-level errors and timeouts. */
  socketErrors: number;
  /** Responses outside 2xx by status, when the load script tallies them (bench/random-paths.lua). */
  statuses?: Record<string, number>;
  /** The start of the first body of each of those statuses. */
  statusSamples?: Record<string, string>;
}

/** Nearest-rank percentile of an ascending array. */
export function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

/** Latencies grow without reallocation per sample; a 10 s run at 20k req/s is 200k numbers. */
export class LatencyRecorder {
  private samples = new Float64Array(1 << 16);
  private count = 0;

  add(ms: number): void {
    if (this.count === this.samples.length) {
      const bigger = new Float64Array(this.samples.length * 2);
      bigger.set(this.samples);
      this.samples = bigger;
    }
    this.samples[this.count++] = ms;
  }

  get size(): number {
    return this.count;
  }

  sorted(): Float64Array {
    return this.samples.slice(0, this.count).sort();
  }
}

export const ratio = (a: number, b: number): number => (b > 0 ? a / b : Number.NaN);
