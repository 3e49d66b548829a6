import { LRUCache } from 'lru-cache';

/**
 * One piece of work per key at a time: callers asking for a key already being computed wait for
 * that computation instead of starting their own (the entry goes when it settles).
 */
export function shareInFlight<T>(flights: Map<string, Promise<T>>, key: string, start: () => Promise<T>): Promise<T> {
  let pending = flights.get(key);
  if (!pending) {
    pending = start().finally(() => flights.delete(key));
    flights.set(key, pending);
  }
  return pending;
}

/**
 * Exact counts and served pages per data set, valid for one data version. The version is read
 * in the same snapshot as every page, and a write bumps it in its own transaction, so a write
 * through any instance retires everything cached for that data set on every instance at once:
 * entries are stored under their data version, and only the current version is ever looked up.
 * Retired entries are never served again and are the first to go when memory is needed (least
 * recently used first, which keeps popular pages longer than oldest-first would).
 */
export class PageResultCache {
  /** The newest data version seen per data set. */
  private readonly versions = new Map<string, number>();
  private readonly counts: LRUCache<string, number>;
  /** Page JSON text, bounded by its length; absent when the page cache is off. */
  private readonly pages: LRUCache<string, string> | undefined;
  /** Exact counts being computed right now, by data set and filter. */
  readonly countsInFlight = new Map<string, Promise<number>>();
  /** Pages being read right now, by data set, the version their requests saw, and page. */
  readonly pagesInFlight = new Map<string, Promise<{ dataJson: string; total: number }>>();

  constructor(
    /** Memory for cached pages (their JSON text); 0 disables the page cache. */
    pageBudgetBytes = 64 * 1024 * 1024,
    /** Exact counts kept, over all data sets (a few dozen bytes each). */
    maxCounts = 50_000,
  ) {
    this.counts = new LRUCache({ max: maxCounts });
    this.pages =
      pageBudgetBytes > 0 ? new LRUCache({ maxSize: pageBudgetBytes, sizeCalculation: (page) => page.length }) : undefined;
  }

  get cachesPages(): boolean {
    return this.pages !== undefined;
  }

  /** The exact count for the filter at the data set's current version, if known. */
  get(dataset: string, filterKey: string): number | undefined {
    const version = this.versions.get(dataset);
    return version === undefined ? undefined : this.counts.get(entryKey(dataset, version, filterKey));
  }

  isCurrent(dataset: string, version: number | undefined): boolean {
    return version !== undefined && this.versions.get(dataset) === version;
  }

  set(dataset: string, version: number, filterKey: string, total: number): void {
    if (!this.adopt(dataset, version)) return;
    this.counts.set(entryKey(dataset, version, filterKey), total);
  }

  /** A cached page's JSON text, when cached at exactly this version. */
  page(dataset: string, version: number, pageKey: string): string | undefined {
    if (!this.isCurrent(dataset, version)) return undefined;
    return this.pages?.get(entryKey(dataset, version, pageKey));
  }

  setPage(dataset: string, version: number, pageKey: string, dataJson: string): void {
    if (!this.pages || !this.adopt(dataset, version)) return;
    const key = entryKey(dataset, version, pageKey);
    if (!this.pages.has(key)) this.pages.set(key, dataJson);
  }

  /** Makes version current for the data set; false if a newer one already is (a slower, older snapshot). */
  private adopt(dataset: string, version: number): boolean {
    const current = this.versions.get(dataset);
    if (current !== undefined && version < current) return false;
    this.versions.set(dataset, version);
    return true;
  }
}

/** Entries live under their data set and data version. */
const entryKey = (dataset: string, version: number, key: string) => `${dataset}\u0000${version}\u0000${key}`;
