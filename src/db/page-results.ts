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
 * through any instance retires everything cached for that data set on every instance at once.
 */
export class PageResultCache {
  private readonly versions = new Map<string, number>();
  private readonly counts = new Map<string, Map<string, number>>();
  private readonly pages = new Map<string, Map<string, string>>();
  private pageBytes = 0;
  /** Exact counts being computed right now, by data set and filter. */
  readonly countsInFlight = new Map<string, Promise<number>>();
  /** Pages being read right now, by data set, the version their requests saw, and page. */
  readonly pagesInFlight = new Map<string, Promise<{ dataJson: string; total: number }>>();

  constructor(
    /** Memory for cached pages (their JSON text); 0 disables the page cache. */
    private readonly pageBudgetBytes = 64 * 1024 * 1024,
    private readonly maxCountsPerDataset = 10_000,
  ) {}

  get cachesPages(): boolean {
    return this.pageBudgetBytes > 0;
  }

  get(dataset: string, filterKey: string): number | undefined {
    return this.counts.get(dataset)?.get(filterKey);
  }

  isCurrent(dataset: string, version: number | undefined): boolean {
    return version !== undefined && this.versions.get(dataset) === version;
  }

  set(dataset: string, version: number, filterKey: string, total: number): void {
    if (!this.adopt(dataset, version)) return;
    let entries = this.counts.get(dataset);
    if (!entries) this.counts.set(dataset, (entries = new Map()));
    if (entries.size >= this.maxCountsPerDataset) entries.clear();
    entries.set(filterKey, total);
  }

  /** A cached page's JSON text, when cached at exactly this version. */
  page(dataset: string, version: number, pageKey: string): string | undefined {
    if (!this.isCurrent(dataset, version)) return undefined;
    return this.pages.get(dataset)?.get(pageKey);
  }

  setPage(dataset: string, version: number, pageKey: string, dataJson: string): void {
    if (!this.cachesPages || !this.adopt(dataset, version)) return;
    let entries = this.pages.get(dataset);
    if (!entries) this.pages.set(dataset, (entries = new Map()));
    if (entries.has(pageKey)) return;
    entries.set(pageKey, dataJson);
    this.pageBytes += dataJson.length;
    // Oldest first (Map keeps insertion order): a simple FIFO bound on memory.
    for (const [set, map] of this.pages) {
      for (const [key, value] of map) {
        if (this.pageBytes <= this.pageBudgetBytes) return;
        map.delete(key);
        this.pageBytes -= value.length;
      }
      if (map.size === 0) this.pages.delete(set);
    }
  }

  /** Makes version current for the data set (dropping older results); false if version is older. */
  private adopt(dataset: string, version: number): boolean {
    const current = this.versions.get(dataset);
    if (current !== undefined && version < current) return false; // a slower, older snapshot
    if (current !== version) this.invalidate(dataset, version);
    return true;
  }

  /** Forgets every count and page of the data set; the given version becomes current. */
  invalidate(dataset: string, version: number): this {
    const current = this.versions.get(dataset);
    if (current === undefined || version >= current) {
      this.versions.set(dataset, version);
      this.counts.delete(dataset);
      for (const value of this.pages.get(dataset)?.values() ?? []) this.pageBytes -= value.length;
      this.pages.delete(dataset);
    }
    return this;
  }
}
