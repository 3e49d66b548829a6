// Follows the change log from a position: what a derived copy of the data (an in-memory index,
// a feed reader) applies to stay current. Framework-free; any instance can follow the log of a
// shared PostgreSQL, and every instance sees every committed write exactly once, in commit order.
import type { Database, Queryable } from '../platform/db/index.js';
import { changeLogBounds, changeLogHead, comparePositions, type Change, type ChangePosition } from './change-log-queries.js';
import { readChangeRange, type RecordRequest } from './change-reader.js';

/** The follower is behind the pruned horizon: entries it has not applied are gone, it must reload. */
export class ChangeLogExpiredError extends Error {
  override name = 'ChangeLogExpiredError';
  constructor(
    readonly position: ChangePosition,
    readonly pruned: ChangePosition,
  ) {
    super(
      `the change log no longer holds the changes after ${position.seq}.${position.changeId} (pruned through ${pruned.seq}.${pruned.changeId})`,
    );
  }
}

export interface Snapshot<T> {
  /** Where to start following so that nothing is missed or applied twice. */
  head: ChangePosition;
  value: T;
}

/**
 * Reads the log's head and whatever load() reads in one snapshot, so that following the log
 * from that head applies exactly the writes the loaded data does not include. On PostgreSQL
 * that is one REPEATABLE READ transaction (every statement of it sees the same snapshot,
 * however long the load runs); on the embedded store the transaction holds the only
 * connection, so no write can come in between either.
 */
export async function loadSnapshot<T>(db: Database, load: (tx: Queryable) => Promise<T>): Promise<Snapshot<T>> {
  return db.transaction(async (tx) => {
    // Must come before the first query: the snapshot is taken by the head's query.
    await tx.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY');
    const head = await changeLogHead(tx);
    return { head, value: await load(tx) };
  });
}

export interface ChangeFollowerOptions {
  /** Most entries one poll returns. */
  batchSize?: number;
  /** The changed rows read with the entries (default: none). */
  records?: RecordRequest;
}

/**
 * Reads the log in order from a starting position, remembering how far it got. Start it at the
 * head of the snapshot the follower's data was loaded from (loadSnapshot), or at LOG_START to
 * replay the whole retained log. Polls run one at a time even when called concurrently, so no
 * entry is handed out twice.
 */
export class ChangeFollower {
  private current: ChangePosition;
  private readonly batchSize: number;
  private readonly records: RecordRequest | undefined;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly db: Queryable,
    start: ChangePosition,
    options: ChangeFollowerOptions = {},
  ) {
    this.current = { ...start };
    this.batchSize = options.batchSize ?? 1000;
    this.records = options.records;
    if (!Number.isInteger(this.batchSize) || this.batchSize < 1) throw new RangeError('batchSize must be a whole number >= 1');
  }

  /** The position of the last entry returned (or the start). */
  get position(): ChangePosition {
    return { ...this.current };
  }

  /**
   * The next entries after the position, at most batchSize, in log order; empty when caught up.
   * Throws ChangeLogExpiredError when pruning removed entries this follower had not read.
   */
  poll(limit = this.batchSize): Promise<Change[]> {
    return this.queued(limit, async (changes) => {
      const last = changes.at(-1);
      if (last) this.advance(last.position);
      return changes;
    });
  }

  /**
   * The next entries, as poll() reads them, without moving past them: a consumer that may fail to
   * apply them calls advance() once it has, and otherwise reads the same entries again.
   */
  peek(limit = this.batchSize): Promise<Change[]> {
    return this.queued(limit, async (changes) => changes);
  }

  /** Moves the position to an entry read by peek(), once the consumer has applied everything up to it. */
  advance(position: ChangePosition): void {
    if (comparePositions(position, this.current) > 0) this.current = { ...position };
  }

  /** The log's head now; the follower is caught up when its position equals it. */
  head(): Promise<ChangePosition> {
    return changeLogHead(this.db);
  }

  /** Reads in turn with other calls, so concurrent polls never hand out an entry twice. */
  private queued(limit: number, then: (changes: Change[]) => Promise<Change[]>): Promise<Change[]> {
    if (!Number.isInteger(limit) || limit < 1) return Promise.reject(new RangeError('limit must be a whole number >= 1'));
    const next = this.queue.then(async () => then(await this.read(limit)));
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async read(limit: number): Promise<Change[]> {
    // Most reads find nothing new (a request waits for the catch-up before it answers from kept
    // documents): the log's bounds alone say so, far cheaper than the range statement with its rows.
    const now = await changeLogBounds(this.db);
    if (comparePositions(this.current, now.pruned) < 0) throw new ChangeLogExpiredError(this.current, now.pruned);
    if (comparePositions(now.head, this.current) <= 0) return [];
    const { changes, bounds } = await readChangeRange(this.db, this.current, { scanRows: limit, records: this.records });
    // Checked in the same snapshot as the read: the horizon moves before rows are removed.
    if (comparePositions(this.current, bounds.pruned) < 0) throw new ChangeLogExpiredError(this.current, bounds.pruned);
    return changes;
  }
}
