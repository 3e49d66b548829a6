// The changes feed (GET /api/v2/changes): the change log as clients see it. Each item is one
// change of one record, in commit order, named by the record's natural key, with the document its
// list endpoint serves now. A client that keeps the last cursor and resumes from it never misses
// or repeats a change, whichever instance answers and however often servers restart: a cursor is
// only a position in the shared log (src/changes/change-log-queries.ts).
import { changeLogHead, comparePositions, type Change, type ChangeDataset, type ChangePosition } from './change-log-queries.js';
import { countChanges } from './feed-queries.js';
import { readChangeRange } from './change-reader.js';
import type { Queryable } from '../platform/db/index.js';
import { allowedValues } from '../catalog/index.js';
import { DATASET_NAMES, datasetNamed, isDatasetName } from '../catalog/index.js';
import { encodeCursor, parseCursor } from './cursor.js';
import { ApiError, invalidParameter } from '../catalog/index.js';

/** The feed's query, as its schema accepted it. */
export interface ChangesFeedQuery {
  since?: string;
  datasets?: string;
  limit?: number;
  count?: boolean;
}

export const DEFAULT_CHANGES_LIMIT = 100;

/**
 * `since=now`: the feed's head. A client that starts following the feed takes its cursor here
 * (after loading the records from the list endpoints) instead of paging through every retained change.
 */
export const SINCE_NOW = 'now';

/**
 * With a data set filter, entries are read this many at a time (at least a page and one more)
 * and filtered in the statement: a few milliseconds each.
 */
const SCAN_ROWS = 5_000;
/**
 * At most this many entries are read for one page. Past it, a page with a data set filter may end
 * short (even empty) with hasNextPage true and nextCursor where the reading stopped, so one request
 * never reads a whole import of other data sets, and the next page starts there.
 */
const SCAN_BUDGET = 100_000;

export interface ChangesPagination {
  limit: number;
  nextCursor: string;
  hasNextPage: boolean;
  /** Count mode only. */
  totalCount?: number;
}

export interface ChangesPage {
  /** The items as JSON array text (documents spliced in as stored, not re-serialised). */
  dataJson: string;
  pagination: ChangesPagination;
  /** Count mode: no items, nothing to charge. */
  count: boolean;
}

export interface ChangesFeedOptions {
  /** CHANGE_LOG_RETENTION_DAYS, named in the 410's message. */
  retentionDays: number;
  /** Entries read per statement with a data set filter (default SCAN_ROWS; tests make it small). */
  scanRows?: number;
  /** Most entries read for one page (default SCAN_BUDGET). */
  scanBudget?: number;
}

/** `datasets`: the selected data sets, or undefined for all of them. */
function selectedDatasets(raw: string | undefined): ChangeDataset[] | undefined {
  const names = allowedValues('datasets', raw, DATASET_NAMES).filter(isDatasetName);
  return names.length === 0 || names.length === DATASET_NAMES.length ? undefined : names;
}

function sincePosition(raw: string | undefined): ChangePosition | undefined {
  if (raw === undefined) return undefined;
  const position = parseCursor(raw);
  if (!position) {
    throw invalidParameter(
      'since is not a valid cursor: pass a cursor this feed returned (pagination.nextCursor or an item cursor)',
      'since',
    );
  }
  return position;
}

/** A given cursor must lie between the pruned horizon and the head, in the snapshot the feed was read in. */
function checkSince(since: ChangePosition | undefined, bounds: { head: ChangePosition; pruned: ChangePosition }, days: number) {
  if (!since) return;
  if (comparePositions(since, bounds.pruned) < 0) {
    throw new ApiError(
      'GONE',
      `since is older than the change log's retention (${days} days): changes after it are no longer kept. ` +
        'Resync: read the records again from the list endpoints, then follow this feed from its start (without since).',
      {},
      'since',
    );
  }
  if (comparePositions(since, bounds.head) > 0) {
    throw invalidParameter('since is ahead of the change log: pass a cursor this feed returned', 'since');
  }
}

const later = (a: ChangePosition, b: ChangePosition) => (comparePositions(a, b) >= 0 ? a : b);

/** One page of the feed, or (count mode) the number of changes after since. 400 and 410 as ApiError. */
export async function readChangesPage(db: Queryable, query: ChangesFeedQuery, options: ChangesFeedOptions): Promise<ChangesPage> {
  const limit = query.limit ?? DEFAULT_CHANGES_LIMIT;
  if (query.since === SINCE_NOW) {
    // The data sets do not change the head, but a wrong value is a 400 here as on any page.
    selectedDatasets(query.datasets);
    // Nothing after the head yet: an empty page that reads no record, free as count mode is.
    const pagination = {
      limit,
      nextCursor: encodeCursor(await changeLogHead(db)),
      hasNextPage: false,
      ...(query.count === true && { totalCount: 0 }),
    };
    return { dataJson: '[]', pagination, count: true };
  }
  const since = sincePosition(query.since);
  const datasets = selectedDatasets(query.datasets);

  if (query.count === true) {
    const counted = await countChanges(db, since, datasets);
    checkSince(since, counted.bounds, options.retentionDays);
    // Counting reads nothing: the client goes on from where it stands.
    const pagination = {
      limit,
      nextCursor: encodeCursor(counted.start),
      hasNextPage: counted.total > 0,
      totalCount: counted.total,
    };
    return { dataJson: '[]', pagination, count: true };
  }

  const found: Change[] = [];
  let from = since;
  let scanned = 0;
  let next: ChangePosition;
  let hasNextPage: boolean;
  // One statement without a filter; with one, as many as it takes to fill the page, reach the
  // head or spend the budget. Each statement continues exactly where the last one stopped: the log
  // is read by position, and nothing is ever committed behind a position already read.
  for (let first = true; ; first = false) {
    const scanRows = datasets ? Math.max(options.scanRows ?? SCAN_ROWS, limit + 1) : limit + 1;
    const scan = await readChangeRange(db, from, {
      scanRows,
      datasets,
      maxChanges: limit + 1 - found.length,
      // The sort values too: a dataset with a served form of its own makes it from the row's sort time.
      records: { documents: true, values: true },
    });
    if (first) checkSince(since, scan.bounds, options.retentionDays);
    else if (comparePositions(scan.start, scan.bounds.pruned) < 0) {
      // Pruned past this page while it was being read: it ends here, and the next request is told.
      next = scan.start;
      hasNextPage = true;
      break;
    }
    found.push(...scan.changes);
    scanned += scan.scanned;
    if (found.length > limit) {
      // One more change than the page holds: the page ends at its last item.
      found.length = limit;
      next = found.at(-1)!.position;
      hasNextPage = true;
      break;
    }
    if (scan.scanned < scanRows) {
      // Read up to the head: whatever was skipped need not be read again.
      next = later(scan.bounds.head, scan.start);
      hasNextPage = false;
      break;
    }
    from = scan.last!;
    if (scanned >= (options.scanBudget ?? SCAN_BUDGET)) {
      next = from;
      hasNextPage = comparePositions(scan.bounds.head, from) > 0;
      break;
    }
  }

  return {
    dataJson: itemsJson(found),
    pagination: { limit, nextCursor: encodeCursor(next), hasNextPage },
    count: false,
  };
}

/**
 * The page's items with their records as read with the entries. A deletion has no record; neither
 * has a change whose record was deleted since (or whose row now carries another natural key): its
 * deletion comes later in the feed.
 */
function itemsJson(changes: readonly Change[]): string {
  const items = changes.map((change) => {
    const stored = change.record;
    const current = stored && (change.key === null || stored.key === change.key) ? stored : undefined;
    const head = JSON.stringify({
      cursor: encodeCursor(change.position),
      dataset: change.dataset,
      op: change.op,
      id: change.key ?? current?.key ?? null,
      changedAt: change.changedAt.toISOString(),
    });
    // The record as its list endpoint serves it (hiring and acquisition signals add their published fields).
    const view = datasetNamed(change.dataset)?.document;
    const doc =
      current?.doc !== undefined && view && current.values
        ? view.serve(current.doc, current.key, current.values.sort_ms)
        : current?.doc;
    return `${head.slice(0, -1)},"record":${doc ?? 'null'}}`;
  });
  return `[${items.join(',')}]`;
}
