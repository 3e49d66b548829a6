import {
  constants,
  monitorEventLoopDelay,
  performance,
  PerformanceObserver,
  type EventLoopUtilization,
  type IntervalHistogram,
} from 'node:perf_hooks';
import { getHeapStatistics } from 'node:v8';

export interface LoadSheddingSettings {
  /** Event-loop delay (ms) above which the process counts as overloaded; 0 turns the check off. */
  maxEventLoopDelayMs: number;
  /** Event-loop utilisation (0–1) above which the process counts as overloaded; 0 turns the check off. */
  maxEventLoopUtilization: number;
  /**
   * Share (0–1) of the V8 heap's limit that what survived the last full collection may reach
   * before the thread counts as overloaded; 0 or absent turns the check off. Set for serving
   * threads with a heap limit (THREAD_HEAP_MB), which would end at the limit rather than grow.
   */
  maxHeapShare?: number;
}

/** A `gc` performance entry: its detail says which kind of collection it was. */
type GcEntry = PerformanceEntry & { detail?: { kind?: number } };

/** A heap's size in use and its limit (v8.getHeapStatistics, replaceable in tests). */
export type HeapReading = () => { used_heap_size: number; heap_size_limit: number };

const SAMPLE_INTERVAL_MS = 100;
// The histogram's own timer ticks this often; every sample includes one tick, which is not delay.
const RESOLUTION_MS = 10;
// Utilisation is judged over the last second: one busy 100 ms stretch is work, not overload.
const UTILIZATION_SAMPLES = 10;

/**
 * Measures how late the event loop runs, from numbers that exist: the longest delay the
 * histogram saw since the last sample, and how late the sampler itself fired. A sample that
 * saw no histogram tick (the loop was busy inside one callback) is judged by the sampler's
 * lateness alone, never read as "infinitely late".
 */
export class EventLoopMonitor {
  private readonly histogram: IntervalHistogram | undefined;
  private timer: NodeJS.Timeout | undefined;
  private nextSampleAt = 0;
  private delayMs = 0;
  private utilization = 0;
  private readonly utilizationHistory: EventLoopUtilization[] = [];
  private gcObserver: PerformanceObserver | undefined;
  /** The heap in use as a share of its limit, read after the last full collection (what survived it). */
  private heapShare = 0;

  constructor(
    private readonly settings: LoadSheddingSettings,
    private readonly readHeap: HeapReading = getHeapStatistics,
  ) {
    if (settings.maxEventLoopDelayMs > 0) this.histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  }

  get enabled(): boolean {
    return this.settings.maxEventLoopDelayMs > 0 || this.settings.maxEventLoopUtilization > 0 || this.heapWatched;
  }

  private get heapWatched(): boolean {
    return (this.settings.maxHeapShare ?? 0) > 0;
  }

  start(): void {
    if (!this.enabled || this.timer) return;
    this.histogram?.enable();
    this.utilizationHistory.push(performance.eventLoopUtilization());
    if (this.heapWatched) {
      this.gcObserver = new PerformanceObserver((list) => {
        const full = list.getEntries().some((entry) => (entry as GcEntry).detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR);
        if (full) this.afterFullCollection();
      });
      this.gcObserver.observe({ entryTypes: ['gc'] });
    }
    this.schedule();
  }

  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.histogram?.disable();
    this.gcObserver?.disconnect();
    this.gcObserver = undefined;
  }

  /** What is in use right after a full collection is what the thread holds: judged against the limit. */
  afterFullCollection(): void {
    this.heapShare = this.currentHeapShare();
  }

  private currentHeapShare(): number {
    const heap = this.readHeap();
    return heap.heap_size_limit > 0 ? heap.used_heap_size / heap.heap_size_limit : 0;
  }

  /**
   * The current delay: the last measurement, or how overdue the next one is, whichever is
   * larger, so a request read right after a long stall sees it before the sampler has run.
   */
  currentDelayMs(): number {
    return Math.max(this.delayMs, performance.now() - this.nextSampleAt);
  }

  /** True only when a measured figure exceeds its setting. */
  overloaded(): boolean {
    const { maxEventLoopDelayMs, maxEventLoopUtilization } = this.settings;
    if (maxEventLoopDelayMs > 0 && this.timer && this.currentDelayMs() > maxEventLoopDelayMs) return true;
    if (this.heapWatched && this.heapShare > this.settings.maxHeapShare!) return true;
    return maxEventLoopUtilization > 0 && this.utilization > maxEventLoopUtilization;
  }

  private schedule(): void {
    this.nextSampleAt = performance.now() + SAMPLE_INTERVAL_MS;
    this.timer = setTimeout(() => this.sample(), SAMPLE_INTERVAL_MS);
    this.timer.unref();
  }

  private sample(): void {
    const lateMs = performance.now() - this.nextSampleAt;
    let delayMs = Math.max(0, lateMs);
    if (this.histogram && this.histogram.count > 0) {
      delayMs = Math.max(delayMs, this.histogram.max / 1e6 - RESOLUTION_MS);
    }
    this.histogram?.reset();
    this.delayMs = delayMs;

    const now = performance.eventLoopUtilization();
    const utilization = performance.eventLoopUtilization(now, this.utilizationHistory[0]).utilization;
    this.utilization = Number.isFinite(utilization) ? utilization : 0;
    this.utilizationHistory.push(now);
    if (this.utilizationHistory.length > UTILIZATION_SAMPLES) this.utilizationHistory.shift();
    // Shedding allocates little, so the next full collection may be far off: the heap in use now is
    // at least what would survive one, and once it is back under the share, so is that.
    if (this.heapWatched && this.heapShare > this.settings.maxHeapShare!) {
      this.heapShare = Math.min(this.heapShare, this.currentHeapShare());
    }
    this.schedule();
  }
}
