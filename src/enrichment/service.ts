// Enrichment jobs as the API sees them: creating one (1 credit, debited in the transaction that
// stores the job, so a refused or failed create costs nothing and leaves nothing), waiting for one
// to finish, and reading one with a page of its results. Framework-free: the routes call these.
import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { setTimeout as delay } from 'node:timers/promises';
import { ApiError, invalidParameter } from '../catalog/index.js';
import { CreditsShort, debitCredits, withRefill, type CreditMeter } from '../accounts/index.js';
import type { Database } from '../platform/db/index.js';
import { emptySummary } from './enrich.js';
import { detectMapping, readInputs } from './inputs.js';
import { findJob, insertJob, resultsPage, type JobRow } from './queries.js';
import type { EnrichmentJob, EnrichmentRequest, Summary } from './schemas.js';

export const ENDPOINT_CREATE = 'csv.enrichment';
export const ENDPOINT_GET = 'csv.enrichment.get';
export const DEFAULT_FILE_NAME = 'api-companies.json';
export const DEFAULT_LIMIT = 50;
/** Results a wait=true answer carries inline, at most (the rest by cursor). */
export const INLINE_RESULTS = 100;

/** How often a waiting request reads the job when no worker of this process tells it of progress. */
const WAIT_POLL_MS = 250;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface Caller {
  accountId: number;
  keyId: string | null;
}

export class EnrichmentService {
  /** Jobs' progress and endings seen by this process's worker: a waiting request wakes at once. */
  private readonly events = new EventEmitter().setMaxListeners(0);

  constructor(
    private readonly db: Database,
    private readonly credits: CreditMeter,
    /** Told when a job was created (the worker looks for it at once). */
    private readonly onCreated: () => void = () => undefined,
  ) {}

  /** Called by the worker: a chunk of the job was written, or it finished. */
  touched(jobId: string): void {
    this.events.emit(jobId);
  }

  /**
   * Stores the job and debits its credit in one transaction; returns the job and the balance after.
   * A row without an identifier is a 400 and no credit is used.
   */
  async create(caller: Caller, body: EnrichmentRequest): Promise<{ job: JobRow; creditsRemaining: number }> {
    const inputs = readInputs(body.companies);
    const mapping = detectMapping(inputs);
    const created = await withRefill(this.credits, caller.accountId, () =>
      this.db.transaction(async (tx) => {
        const balance = await debitCredits(tx, { ...caller, cost: 1, endpoint: ENDPOINT_CREATE });
        if (balance === undefined) throw new CreditsShort();
        const job = await insertJob(tx, {
          id: randomUUID(),
          ...caller,
          fileName: body.fileName ?? DEFAULT_FILE_NAME,
          inputs,
          mapping,
          summary: emptySummary(inputs.length),
        });
        return { job, creditsRemaining: balance };
      }),
    );
    this.onCreated();
    return created;
  }

  /** The job once finished, or as it stands when `timeoutMs` has passed. */
  async waitFor(accountId: number, jobId: string, timeoutMs: number): Promise<JobRow> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const job = await this.job(accountId, jobId);
      const left = deadline - Date.now();
      if (job.status === 'completed' || job.status === 'failed' || left <= 0) return job;
      const controller = new AbortController();
      let wake = () => undefined as void;
      const woken = new Promise<void>((resolve) => (wake = resolve));
      this.events.once(jobId, wake);
      const poll = delay(Math.min(WAIT_POLL_MS, left), undefined, { signal: controller.signal }).catch(() => undefined);
      await Promise.race([woken, poll]);
      this.events.off(jobId, wake);
      controller.abort();
    }
  }

  /** The job of this account; 404 job_not_found for another account's or none, 410 job_expired once its results are gone. */
  async job(accountId: number, jobId: string): Promise<JobRow> {
    const job = UUID.test(jobId) ? await findJob(this.db, accountId, jobId.toLowerCase()) : undefined;
    if (job === undefined) throw new ApiError('NOT_FOUND', 'Enrichment job not found');
    // Past its time, whether or not the hourly pruning has dropped its results yet.
    if (job.expired || (job.expires_at !== null && Date.parse(job.expires_at) <= Date.now())) {
      throw new ApiError(
        'GONE',
        `This job's results were kept until ${job.expires_at} and have expired; submit the companies again`,
      );
    }
    return job;
  }

  /** The job with the page of results from `cursor`. */
  async read(accountId: number, jobId: string, page: { cursor?: string; limit?: number }): Promise<JobView> {
    const job = await this.job(accountId, jobId);
    return this.view(job, cursorPosition(page.cursor), page.limit ?? DEFAULT_LIMIT);
  }

  /** The job as served, with results [from, from + limit) of those written (as stored: JSON text). */
  async view(job: JobRow, from: number, limit: number): Promise<JobView> {
    const results = from < job.processed ? await resultsPage(this.db, job.id, from, Math.min(limit, job.processed - from)) : [];
    const next = from + results.length;
    return {
      jobId: job.id,
      status: job.status,
      progress: { processed: job.processed, total: job.total },
      submittedAt: job.submitted_at,
      completedAt: job.completed_at,
      summary: summaryOf(job.summary),
      results,
      // More written, or more to come while the job runs.
      nextCursor: next < job.processed || (next < job.total && job.status !== 'failed') ? positionCursor(next) : null,
      ...(job.error !== null && { error: job.error }),
      fileName: job.file_name,
      expiresAt: job.expires_at,
    };
  }
}

/** A job as served, its results still the JSON text they are stored as (see jobJson). */
export type JobView = Omit<EnrichmentJob, 'results'> & { results: string[] };

/**
 * The JSON of a job, with `extra` fields: the results spliced in as stored, not parsed and written
 * again (a page of 100 results with their signals is hundreds of kilobytes).
 */
export function jobJson({ results, ...job }: JobView, extra: object = {}): string {
  return `${JSON.stringify({ ...job, ...extra }).slice(0, -1)},"results":[${results.join(',')}]}`;
}

/** The cursor of result `position`: opaque to clients, "r" and the position. */
const positionCursor = (position: number) => `r${position}`;

function cursorPosition(cursor: string | undefined): number {
  if (cursor === undefined) return 0;
  const match = /^r(\d{1,4})$/.exec(cursor);
  if (!match) throw invalidParameter('cursor: not a cursor this endpoint returned (use data.nextCursor as it is)', 'cursor');
  return Number(match[1]);
}

/** The data of an enrichment.completed webhook event: the job, its outcome and its summary (no results: GET them). */
export function completedEvent(job: JobRow) {
  return {
    jobId: job.id,
    status: job.status,
    fileName: job.file_name,
    submittedAt: job.submitted_at,
    completedAt: job.completed_at,
    expiresAt: job.expires_at,
    summary: summaryOf(job.summary),
    ...(job.error !== null && { error: job.error }),
  };
}

/** The summary's counts in the published order (then ours). */
function summaryOf(summary: Summary): Summary {
  const { totalInputs, matched, unmatched, withFundingSignals, withAcquisitionSignals, withHiringSignals, withJobChangeSignals } =
    summary;
  return {
    totalInputs,
    matched,
    unmatched,
    withFundingSignals,
    withAcquisitionSignals,
    withHiringSignals,
    withJobChangeSignals,
    ambiguous: summary.ambiguous,
  };
}
