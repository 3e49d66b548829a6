import pg from 'pg';
import type { Database, Row, Transaction } from '../src/platform/db/port.js';
import { ReadModel } from '../src/read/read-model.js';
import type { Scenario } from './scenarios.js';
import { LatencyRecorder, percentile, type LoadResult } from './stats.js';

export interface RecordedQuery {
  sql: string;
  params: unknown[];
}

/** The bench database, keeping what is sent through `query` while recording. */
export class RecordingDatabase implements Database {
  private recorded: RecordedQuery[] | null = null;

  constructor(private readonly db: Database) {}

  get kind(): Database['kind'] {
    return this.db.kind;
  }

  query<T extends object = Row>(sql: string, params?: readonly unknown[]): Promise<T[]> {
    this.recorded?.push({ sql, params: [...(params ?? [])] });
    return this.db.query<T>(sql, params);
  }

  transaction<T>(fn: (tx: Transaction) => Promise<T>): Promise<T> {
    return this.db.transaction(fn);
  }

  exec(sql: string): Promise<void> {
    return this.db.exec(sql);
  }

  close(): Promise<void> {
    return this.db.close();
  }

  /** The statements `run` sends. */
  async record(run: () => Promise<unknown>): Promise<RecordedQuery[]> {
    this.recorded = [];
    try {
      await run();
      return this.recorded;
    } finally {
      this.recorded = null;
    }
  }
}

/**
 * The statements one request of the scenario runs in steady state: the read model (built on the
 * recording database) answers the scenario once, then the second answer's statements are recorded.
 */
export async function steadyStateQueries(
  db: RecordingDatabase,
  readModel: ReadModel,
  scenario: Scenario,
): Promise<RecordedQuery[]> {
  await scenario.callService(readModel);
  return db.record(() => scenario.callService(readModel));
}

export interface RecordingReadModel {
  recordingDb: RecordingDatabase;
  readModel: ReadModel;
}

/**
 * One read model over the bench database, built as a server worker builds its own at start, to
 * record the statements of any scenario with steadyStateQueries. Building it takes long on the
 * large set: build it once per run and reuse it.
 */
export async function openRecordingReadModel(db: Database): Promise<RecordingReadModel> {
  const recordingDb = new RecordingDatabase(db);
  console.log('building the read model (the filter index of every dataset)...');
  const started = performance.now();
  const readModel = await ReadModel.open(recordingDb);
  console.log(`read model built in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return { recordingDb, readModel };
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
