// Works on enrichment jobs: claims the oldest unfinished job under a lease (any instance may; a
// job whose process died is taken over when its lease runs out), enriches its inputs a chunk at a
// time, each chunk's results written with the job's progress in one transaction, so a job taken
// over goes on from its last chunk. One job at a time per worker: a large list never starves the
// API of the store, and jobs go in the order they were submitted.
import { randomUUID } from 'node:crypto';
import type { Database } from '../platform/db/index.js';
import type { ReadModel } from '../read/index.js';
import { addToSummary, enrichChunk } from './enrich.js';
import { claimJob, finishJob, releaseJob, writeChunk, type ClaimedJob, type JobRow } from './queries.js';

export interface WorkerOptions {
  pollMs: number;
  leaseMs: number;
  retentionMs: number;
  signalsPerType: number;
  /** Inputs enriched per chunk (a transaction each). */
  chunk?: number;
}

export interface WorkerLog {
  error(object: object, message: string): void;
}

/** Tries of a job whose chunks keep failing, before it is failed (match_engine_unavailable). */
export const MAX_ATTEMPTS = 5;

const DEFAULT_CHUNK = 100;

export class EnrichmentWorker {
  readonly owner = `${process.pid}-${randomUUID().slice(0, 8)}`;
  private timer: NodeJS.Timeout | undefined;
  private ticking: Promise<void> | null = null;
  private again = false;
  private stopped = false;

  constructor(
    private readonly db: Database,
    private readonly readModel: ReadModel,
    private readonly options: WorkerOptions,
    private readonly log: WorkerLog,
    /** Told of each chunk written and each job finished here. */
    private readonly listener: { progress(jobId: string): void; finished(job: JobRow): void | Promise<void> },
  ) {}

  start(): void {
    this.timer = setInterval(() => this.wake(), this.options.pollMs);
    this.timer.unref();
    this.wake();
  }

  /** Looks for a job now (one was just created) instead of at the next poll. */
  wake(): void {
    if (this.stopped) return;
    if (this.ticking) {
      this.again = true;
      return;
    }
    this.ticking = this.tick()
      .catch((err: unknown) => this.log.error({ err }, 'enrichment: claiming a job failed'))
      .finally(() => {
        this.ticking = null;
        if (this.again) {
          this.again = false;
          this.wake();
        }
      });
  }

  /** Stops claiming; the job in hand is given back after its current chunk. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.ticking;
  }

  private async tick(): Promise<void> {
    while (!this.stopped) {
      const job = await claimJob(this.db, this.owner, this.options.leaseMs);
      if (job === undefined) return;
      await this.work(job);
    }
  }

  private async work(job: ClaimedJob): Promise<void> {
    const held = { id: job.id, owner: this.owner, leaseMs: this.options.leaseMs };
    const chunk = this.options.chunk ?? DEFAULT_CHUNK;
    let { processed, summary } = job;
    try {
      while (processed < job.total) {
        if (this.stopped) return await releaseJob(this.db, job.id, this.owner);
        const inputs = job.inputs.slice(processed, processed + chunk);
        const results = await enrichChunk(this.db, this.readModel, inputs, this.options.signalsPerType);
        summary = addToSummary(summary, results);
        const serialized = results.map((result) => JSON.stringify(result));
        // Not ours any more (the lease ran out and another took it): that one finishes it.
        if (!(await this.db.transaction((tx) => writeChunk(tx, held, processed, serialized, summary)))) return;
        processed += inputs.length;
        this.listener.progress(job.id);
      }
      const finished = await finishJob(this.db, held, { status: 'completed' }, this.options.retentionMs);
      if (finished) await this.listener.finished(finished);
    } catch (err) {
      this.log.error({ err, jobId: job.id, attempt: job.attempts }, 'enrichment: a chunk failed');
      // Tried again when the lease runs out (by any instance), unless it has failed too often.
      if (job.attempts < MAX_ATTEMPTS) return;
      const failed = await finishJob(
        this.db,
        held,
        {
          status: 'failed',
          error: {
            code: 'match_engine_unavailable',
            message: 'The matching engine failed on this job repeatedly; submit it again',
          },
        },
        this.options.retentionMs,
      ).catch(() => undefined);
      if (failed) await this.listener.finished(failed);
    }
  }
}
