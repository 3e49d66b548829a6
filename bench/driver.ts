import pg from 'pg';
import type { Queryable, Row } from '../src/db/port.js';
import { PageResultCache } from '../src/db/page-results.js';
import type { Scenario } from './scenarios.js';
import { LatencyRecorder, percentile, type LoadResult } from './stats.js';

export interface RecordedQuery {
  sql: string;
  params: unknown[];
}

/** Passes every query through to db and keeps what was sent. */
class RecordingQueryable implements Queryable {
  readonly recorded: RecordedQuery[] = [];

  constructor(private readonly db: Queryable) {}

  query<T extends object = Row>(sql: string, params?: readonly unknown[]): Promise<T[]> {
    this.recorded.push({ sql, params: [...(params ?? [])] });
    return this.db.query<T>(sql, params);
  }
}

/**
 * The statements one request of the scenario runs once the cache is warm. The first call
 * fills the cache, as the first request to a server does; the second call's statements are
 * the ones every later request sends. A cache sized like the server's gives the server's
 * steady state; a cache without page memory gives what a page-cache miss costs.
 */
export async function steadyStateQueries(db: Queryable, scenario: Scenario, pageCacheBytes: number): Promise<RecordedQuery[]> {
  const cache = new PageResultCache(pageCacheBytes);
  await scenario.callService(db, cache);
  const recorder = new RecordingQueryable(db);
  await scenario.callService(recorder, cache);
  return recorder.recorded;
}

export interface DriverLoad {
  connectionString: string;
  poolSize: number;
  callers: number;
  warmupSeconds: number;
  seconds: number;
}

interface CallerTally {
  latencies: LatencyRecorder;
  failures: number;
  firstError?: unknown;
}

async function runStatements(pool: pg.Pool, statements: RecordedQuery[]): Promise<void> {
  for (const statement of statements) await pool.query(statement.sql, statement.params);
}

/** One caller: back-to-back requests until the deadline, as one wrk connection does. */
async function caller(pool: pg.Pool, statements: RecordedQuery[], until: number, tally: CallerTally): Promise<void> {
  while (performance.now() < until) {
    const started = performance.now();
    try {
      await runStatements(pool, statements);
      tally.latencies.add(performance.now() - started);
    } catch (err) {
      tally.failures += 1;
      tally.firstError ??= err;
    }
  }
}

async function drive(
  pool: pg.Pool,
  statements: RecordedQuery[],
  callers: number,
  seconds: number,
): Promise<CallerTally & { elapsedMs: number }> {
  const tally: CallerTally = { latencies: new LatencyRecorder(), failures: 0 };
  const started = performance.now();
  const until = started + seconds * 1000;
  await Promise.all(Array.from({ length: callers }, () => caller(pool, statements, until, tally)));
  return { ...tally, elapsedMs: performance.now() - started };
}

/**
 * The floor for the scenario: its exact statements straight through pg, with as many
 * concurrent callers as HTTP connections and a pool as large as the server's.
 */
export async function runDriverFloor(statements: RecordedQuery[], load: DriverLoad): Promise<LoadResult> {
  const pool = new pg.Pool({ connectionString: load.connectionString, max: load.poolSize });
  pool.on('error', (err) => console.warn(`driver pool connection error: ${err.message}`));
  try {
    await drive(pool, statements, load.callers, load.warmupSeconds);
    const run = await drive(pool, statements, load.callers, load.seconds);
    if (run.firstError) console.warn(`!! driver floor: ${run.failures} failed queries, first: ${String(run.firstError)}`);
    const sorted = run.latencies.sorted();
    return {
      reqPerSec: (sorted.length / run.elapsedMs) * 1000,
      p50Ms: percentile(sorted, 50),
      p99Ms: percentile(sorted, 99),
      maxMs: percentile(sorted, 100),
      requests: sorted.length,
      failures: run.failures,
      socketErrors: 0,
    };
  } finally {
    await pool.end();
  }
}
