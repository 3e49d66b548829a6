import type { Queryable } from '../port.js';
import { shareInFlight, type PageResultCache } from '../page-results.js';

/** A filtered, newest-first listing over one of the document tables. */
export interface PageRequest {
  /** Table with columns id, sort_at and doc (the record's prepared JSON text). */
  table: string;
  /** Name in data_versions; bumped by any write to the table. */
  dataset: string;
  /** SQL conditions joined with AND, using $1..$n of params. */
  conditions: string[];
  /** The same conditions in a form no index serves (see WhereClause), for filters matching many rows. */
  walkConditions?: string[];
  params: unknown[];
  limit: number;
  offset: number;
}

export interface PageResult {
  /** The records as one JSON array text, ready to be embedded in the response body. */
  dataJson: string;
  /** Exact number of records matching the filters. */
  total: number;
}

/**
 * A page of documents with its exact count.
 *
 * With the page cache on, a small statement reads the data set's version first; a page
 * already served at that version is answered from memory. Otherwise one statement returns
 * the version, the page (found on the narrow sort index, then joined to the documents: a
 * deferred join keeps deep pages cheap) and, unless cached for this filter and version, the
 * exact count, all in one snapshot.
 */
export async function fetchPage(db: Queryable, cache: PageResultCache, req: PageRequest): Promise<PageResult> {
  const where = req.conditions.length > 0 ? `WHERE ${req.conditions.join(' AND ')}` : '';
  const filterKey = `${req.table}|${where}|${JSON.stringify(req.params)}`;
  const pageKey = `${filterKey}|${req.limit}|${req.offset}`;

  if (cache.cachesPages) {
    const rows = await db.query<{ version: number }>('SELECT version::int AS version FROM data_versions WHERE name = $1', [
      req.dataset,
    ]);
    const version = rows[0]?.version ?? 0;
    const countIsCurrent = cache.isCurrent(req.dataset, version);
    const total = countIsCurrent ? cache.get(req.dataset, filterKey) : undefined;
    const dataJson = cache.page(req.dataset, version, pageKey);
    if (total !== undefined && dataJson !== undefined) return { dataJson, total };
    // Past the end of a known count: nothing to fetch.
    if (total !== undefined && req.offset >= total) return { dataJson: '[]', total };
    // Many clients asking for the same uncached page at once (a popular page right after an
    // import retired the cache) share one statement instead of each running it. Only requests
    // that saw the same version share: the statement's snapshot is taken after its starter read
    // that version, so it holds every write a sharer could have seen, and a request that arrives
    // after a newer write reads the newer version and starts its own. A count cached at an older
    // version is of no use: the statement then counts afresh.
    return shareInFlight(cache.pagesInFlight, `${req.dataset}|${version}|${pageKey}`, () =>
      queryPage(db, cache, req, where, filterKey, pageKey, countIsCurrent),
    );
  }
  return queryPage(db, cache, req, where, filterKey, pageKey, true);
}

/** Above this many matches, walking the newest-first index finds a page faster than collecting every match. */
const WALK_MIN_MATCHES = 5000;

/** The WHERE of the page statement: the walking form when the exact count says the filter is broad. */
function pageWhere(req: PageRequest, where: string, total: number): string {
  const walk = req.walkConditions;
  if (!walk || walk.length === 0 || total < WALK_MIN_MATCHES || walk.every((c, i) => c === req.conditions[i])) return where;
  return `WHERE ${walk.join(' AND ')}`;
}

/** Counts first, in its own statement: the plan of the page depends on it. */
function countFirst(db: Queryable, cache: PageResultCache, req: PageRequest, where: string, filterKey: string): Promise<number> {
  // Concurrent first requests for a filter share one count instead of each computing it.
  return shareInFlight(cache.countsInFlight, `${req.dataset}|${filterKey}`, async () => {
    const rows = await db.query<{ version: number; total: number }>(
      `SELECT (SELECT version::int FROM data_versions WHERE name = $${req.params.length + 1}) AS version,
              (SELECT count(*)::int FROM ${req.table} ${where}) AS total`,
      [...req.params, req.dataset],
    );
    cache.set(req.dataset, rows[0]!.version, filterKey, rows[0]!.total);
    return rows[0]!.total;
  });
}

async function queryPage(
  db: Queryable,
  cache: PageResultCache,
  req: PageRequest,
  where: string,
  filterKey: string,
  pageKey: string,
  useCachedCount: boolean,
): Promise<PageResult> {
  let cachedTotal = useCachedCount ? cache.get(req.dataset, filterKey) : undefined;
  if (cachedTotal === undefined && req.walkConditions?.some((c, i) => c !== req.conditions[i])) {
    cachedTotal = await countFirst(db, cache, req, where, filterKey);
  }
  const n = req.params.length;
  const countColumn = `, (SELECT count(*)::int FROM ${req.table} ${where}) AS total`;
  const sql = `
    SELECT (SELECT version::int FROM data_versions WHERE name = $${n + 3}) AS version,
           (SELECT coalesce(string_agg(t.doc, ',' ORDER BY t.sort_at DESC, t.id DESC), '')
              FROM (SELECT id FROM ${req.table} ${cachedTotal === undefined ? where : pageWhere(req, where, cachedTotal)}
                    ORDER BY sort_at DESC, id DESC LIMIT $${n + 1} OFFSET $${n + 2}) page
              JOIN ${req.table} t ON t.id = page.id) AS data
           ${cachedTotal === undefined ? countColumn : ''}`;
  const rows = await db.query<{ version: number; data: string; total?: number }>(sql, [
    ...req.params,
    req.limit,
    req.offset,
    req.dataset,
  ]);
  const row = rows[0]!;
  let total = row.total;
  if (total === undefined) {
    if (!cache.isCurrent(req.dataset, row.version)) {
      // The data changed since the count was cached: count again in one snapshot with the page.
      return queryPage(db, cache, req, where, filterKey, pageKey, false);
    }
    total = cachedTotal!;
  } else {
    cache.set(req.dataset, row.version, filterKey, total);
  }
  const dataJson = `[${row.data}]`;
  cache.setPage(req.dataset, row.version, pageKey, dataJson);
  return { dataJson, total };
}
