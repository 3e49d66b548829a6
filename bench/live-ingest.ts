// A live feed while a workload runs: every second, new funding rounds and new job changes posted
// through the admin API (one upload of each kind, at once), timed until the server has acknowledged
// both (committed, 200). The records come from the seed generators, dated now, so they are the
// newest and land on everyone's page 1.
import { randomUUID } from 'node:crypto';
import type { Queryable } from '../src/platform/db/port.js';
import { generateFundingRecords } from '../src/demo/v1-generator.js';
import { generateJobChanges } from '../src/demo/v2-generator.js';
import { LatencyRecorder, percentile } from './stats.js';

export const LIVE_RECORDS_PER_SECOND = 10;
const KINDS = ['funding', 'job-changes'] as const;
/** Records per upload: each kind gets its share of every second's records. */
export const LIVE_BATCH = LIVE_RECORDS_PER_SECOND / KINDS.length;

// Every live record carries a mark, so the run can take them out of the bench data again.
const SOURCE_ID_PREFIX = 'bench-live-';

/** The source id of a funding round a benchmark adds: marked, so removeLiveRecords takes it out again. */
export const liveSourceId = (suffix: string) => `${SOURCE_ID_PREFIX}${suffix}`;
/** Job changes are keyed by a UUID: these share their first 48 bits, which no generated UUID is likely to. */
const SIGNAL_ID_PREFIX = 'bec4a11e-0000-';

export interface IngestAcks {
  /** Seconds whose records were all acknowledged with 200 (one upload of each kind). */
  ingests: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** Every acknowledgement time, so runs can be pooled (a few seconds give a p99 that is only their maximum). */
  samplesMs: number[];
  /** Seconds whose uploads were refused or failed, and the first reason. */
  failures: number;
  firstFailure?: string;
}

/** The acknowledgement times of one or more runs, summed up. */
export function ackSummary(samplesMs: number[], failures = 0, firstFailure?: string): IngestAcks {
  const sorted = Float64Array.from(samplesMs).sort();
  return {
    ingests: sorted.length,
    p50Ms: percentile(sorted, 50),
    p99Ms: percentile(sorted, 99),
    maxMs: percentile(sorted, 100),
    samplesMs,
    failures,
    firstFailure,
  };
}

/** Every second while started: LIVE_BATCH records of each kind, one upload per kind, sent together. */
export class LiveIngest {
  private readonly funding: Iterator<object>;
  private readonly jobChanges: Iterator<object>;
  private readonly pending = new Set<Promise<void>>();
  private timer: NodeJS.Timeout | undefined;
  private sequence = 0;
  private latencies = new LatencyRecorder();
  private failures = 0;
  private firstFailure: string | undefined;
  private readonly run = randomUUID().slice(0, 8);

  constructor(
    private readonly baseUrl: string,
    private readonly adminToken: string,
  ) {
    const seed = Math.floor(Math.random() * 2 ** 31);
    this.funding = generateFundingRecords(seed, Number.MAX_SAFE_INTEGER, new Date())[Symbol.iterator]();
    this.jobChanges = generateJobChanges(seed, Number.MAX_SAFE_INTEGER, new Date())[Symbol.iterator]();
  }

  /**
   * Uploads on a fixed clock whether or not the previous one was acknowledged (an open loop): a
   * slow acknowledgement shows as latency instead of lowering the rate.
   */
  start(): void {
    this.timer ??= setInterval(() => void this.ingestOnce(), 1000);
  }

  /** Drops what was measured so far (a warm-up's uploads); the feed goes on. */
  resetSamples(): void {
    this.latencies = new LatencyRecorder();
    this.failures = 0;
    this.firstFailure = undefined;
  }

  /** Stops uploading, waits for the uploads in flight and reports the acknowledgement times since the last reset. */
  async stop(): Promise<IngestAcks> {
    clearInterval(this.timer);
    this.timer = undefined;
    await Promise.all(this.pending);
    return ackSummary([...this.latencies.sorted()], this.failures, this.firstFailure);
  }

  /** The next batch as NDJSON. */
  private nextBatch(kind: (typeof KINDS)[number]): string {
    const now = new Date().toISOString();
    const lines: string[] = [];
    for (let i = 0; i < LIVE_BATCH; i++) {
      if (kind === 'funding') {
        const record = this.funding.next().value as object;
        lines.push(JSON.stringify({ ...record, date_seen: now, source_id: liveSourceId(`${this.run}-${this.sequence++}`) }));
      } else {
        const record = this.jobChanges.next().value as object;
        const signalId = SIGNAL_ID_PREFIX + randomUUID().slice(SIGNAL_ID_PREFIX.length);
        lines.push(JSON.stringify({ ...record, signalId, occurredAt: now, discoveredAt: now }));
      }
    }
    return lines.join('\n') + '\n';
  }

  /** One second's records: an upload of each kind, sent together, timed until both are acknowledged. */
  ingestOnce(): Promise<void> {
    // Made before the clock starts: the time measured is the server's, not the generators'.
    const batches = KINDS.map((kind) => ({ kind, body: this.nextBatch(kind) }));
    const started = performance.now();
    const sent = Promise.all(batches.map(({ kind, body }) => this.upload(kind, body)))
      .then(() => this.latencies.add(performance.now() - started))
      .catch((err: unknown) => this.fail(err instanceof Error ? err.message : String(err)))
      .finally(() => this.pending.delete(sent));
    this.pending.add(sent);
    return sent;
  }

  private async upload(kind: (typeof KINDS)[number], body: string): Promise<void> {
    const response = await fetch(`${this.baseUrl}/admin/ingest/${kind}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${this.adminToken}`, 'content-type': 'application/x-ndjson' },
      body,
    });
    const text = await response.text();
    if (response.status !== 200) throw new Error(`${kind}: HTTP ${response.status} ${text.slice(0, 300)}`);
  }

  private fail(reason: string): void {
    this.failures += 1;
    this.firstFailure ??= reason;
  }
}

/**
 * Takes the live records out of the bench database again, so every run (and every other part,
 * which checks the row counts of the set it loaded) finds the data as it was. Run it with no
 * server attached: a server would go on serving what it last saw.
 */
export async function removeLiveRecords(db: Queryable): Promise<{ funding: number; jobChanges: number }> {
  const funding = await db.query<{ n: number }>(
    'WITH gone AS (DELETE FROM funding_rounds WHERE source_id LIKE $1 RETURNING 1) SELECT count(*)::int AS n FROM gone',
    [`${SOURCE_ID_PREFIX}%`],
  );
  const jobChanges = await db.query<{ n: number }>(
    `WITH gone AS (DELETE FROM job_changes WHERE record_id BETWEEN $1::uuid AND $2::uuid RETURNING 1)
     SELECT count(*)::int AS n FROM gone`,
    [`${SIGNAL_ID_PREFIX}0000-0000-000000000000`, `${SIGNAL_ID_PREFIX}ffff-ffff-ffffffffffff`],
  );
  return { funding: funding[0]!.n, jobChanges: jobChanges[0]!.n };
}
