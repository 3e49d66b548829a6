// The SQL of enrichment jobs: creating one, claiming the next under a lease, writing a chunk's
// results with the job's progress, finishing, reading a job and a page of its results, expiring.
import type { Queryable } from '../platform/db/index.js';
import type { DetectedMapping, JobStatus, Summary } from './schemas.js';

export interface JobRow {
  id: string;
  account_id: number;
  file_name: string;
  status: JobStatus;
  total: number;
  processed: number;
  detected_mapping: DetectedMapping;
  summary: Summary;
  error: { code: 'match_engine_unavailable'; message: string } | null;
  submitted_at: string;
  completed_at: string | null;
  expires_at: string | null;
  expired: boolean;
}

// Times as ISO 8601 in UTC with milliseconds, as every other answer writes them.
const iso = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS ${column}`;
const JOB_COLUMNS = `id::text AS id, account_id::float8 AS account_id, file_name, status, total, processed, detected_mapping,
  summary, error, ${iso('submitted_at')}, ${iso('completed_at')}, ${iso('expires_at')}, expired`;

export async function insertJob(
  db: Queryable,
  job: {
    id: string;
    accountId: number;
    keyId: string | null;
    fileName: string;
    inputs: readonly Record<string, string>[];
    mapping: DetectedMapping;
    summary: Summary;
  },
): Promise<JobRow> {
  const rows = await db.query<JobRow>(
    `INSERT INTO enrichment_jobs (id, account_id, key_id, file_name, total, inputs, detected_mapping, summary)
     VALUES ($1, $2, $3, $4, $5, $6::json, $7::json, $8::json)
     RETURNING ${JOB_COLUMNS}`,
    [
      job.id,
      job.accountId,
      job.keyId,
      job.fileName,
      job.inputs.length,
      JSON.stringify(job.inputs),
      JSON.stringify(job.mapping),
      JSON.stringify(job.summary),
    ],
  );
  return rows[0]!;
}

/** The job, if this account has it (another account's is as good as absent). */
export async function findJob(db: Queryable, accountId: number, id: string): Promise<JobRow | undefined> {
  const rows = await db.query<JobRow>(`SELECT ${JOB_COLUMNS} FROM enrichment_jobs WHERE id = $1 AND account_id = $2`, [
    id,
    accountId,
  ]);
  return rows[0];
}

/** Results [from, from + limit) of the job, as served (JSON text), in input order. */
export async function resultsPage(db: Queryable, jobId: string, from: number, limit: number): Promise<string[]> {
  const rows = await db.query<{ result: string }>(
    `SELECT result FROM enrichment_results WHERE job_id = $1 AND position >= $2 ORDER BY position LIMIT $3`,
    [jobId, from, limit],
  );
  return rows.map((row) => row.result);
}

export interface ClaimedJob {
  id: string;
  account_id: number;
  total: number;
  processed: number;
  attempts: number;
  inputs: Record<string, string>[];
  summary: Summary;
}

/**
 * Claims the oldest unfinished job nobody holds (pending, or running under a lease that ran out: its
 * process died or stalled) for `owner` until the lease ends. SKIP LOCKED: instances claiming at the
 * same time take different jobs.
 */
export async function claimJob(db: Queryable, owner: string, leaseMs: number): Promise<ClaimedJob | undefined> {
  const rows = await db.query<ClaimedJob>(
    `UPDATE enrichment_jobs j
        SET status = 'running', lease_owner = $1, lease_until = now() + $2 * interval '1 millisecond', attempts = j.attempts + 1
      WHERE j.id = (SELECT id FROM enrichment_jobs
                     WHERE status IN ('pending', 'running') AND (lease_until IS NULL OR lease_until < now())
                     ORDER BY submitted_at, id LIMIT 1 FOR UPDATE SKIP LOCKED)
      RETURNING j.id::text AS id, j.account_id::float8 AS account_id, j.total, j.processed, j.attempts, j.inputs, j.summary`,
    [owner, leaseMs],
  );
  return rows[0];
}

/**
 * Writes the results of positions [from, from + results.length) and the job's progress, and extends
 * the lease; false (nothing written) when the job is no longer this owner's.
 */
export async function writeChunk(
  db: Queryable,
  job: { id: string; owner: string; leaseMs: number },
  from: number,
  results: readonly string[],
  summary: Summary,
): Promise<boolean> {
  const rows = await db.query<{ id: string }>(
    `WITH job AS (
       UPDATE enrichment_jobs SET processed = $3 + cardinality($4::text[]), summary = $5::json,
              lease_until = now() + $6 * interval '1 millisecond'
        WHERE id = $1 AND lease_owner = $2 AND status = 'running' AND processed = $3
        RETURNING id
     ), written AS (
       INSERT INTO enrichment_results (job_id, position, result)
       SELECT job.id, $3 + r.n - 1, r.result FROM job, unnest($4::text[]) WITH ORDINALITY AS r(result, n)
       ON CONFLICT (job_id, position) DO UPDATE SET result = excluded.result
     )
     SELECT id::text AS id FROM job`,
    [job.id, job.owner, from, results, JSON.stringify(summary), job.leaseMs],
  );
  return rows.length > 0;
}

/** Marks the job finished (completed, or failed with its error), kept for `retentionMs`; false when it is not this owner's. */
export async function finishJob(
  db: Queryable,
  job: { id: string; owner: string },
  outcome: { status: 'completed' } | { status: 'failed'; error: { code: 'match_engine_unavailable'; message: string } },
  retentionMs: number,
): Promise<JobRow | undefined> {
  const rows = await db.query<JobRow>(
    `UPDATE enrichment_jobs
        SET status = $3, error = $4::json, completed_at = now(), expires_at = now() + $5 * interval '1 millisecond',
            lease_owner = NULL, lease_until = NULL
      WHERE id = $1 AND lease_owner = $2 AND status = 'running'
      RETURNING ${JOB_COLUMNS}`,
    [job.id, job.owner, outcome.status, outcome.status === 'failed' ? JSON.stringify(outcome.error) : null, retentionMs],
  );
  return rows[0];
}

/** Gives a claimed job back (a process shutting down): another may take it at once. */
export async function releaseJob(db: Queryable, id: string, owner: string): Promise<void> {
  await db.query(`UPDATE enrichment_jobs SET lease_until = NULL, lease_owner = NULL WHERE id = $1 AND lease_owner = $2`, [
    id,
    owner,
  ]);
}

/**
 * Drops the results and inputs of finished jobs past their time (the job row stays, answering 410
 * job_expired); returns how many expired.
 */
export async function expireJobs(db: Queryable, limit = 1000): Promise<number> {
  const rows = await db.query<{ id: string }>(
    `WITH due AS (
       SELECT id FROM enrichment_jobs WHERE NOT expired AND expires_at < now() ORDER BY expires_at LIMIT $1 FOR UPDATE SKIP LOCKED
     ), gone AS (
       DELETE FROM enrichment_results r USING due WHERE r.job_id = due.id
     )
     UPDATE enrichment_jobs j SET expired = true, inputs = '[]'::json FROM due WHERE j.id = due.id RETURNING j.id::text AS id`,
    [limit],
  );
  return rows.length;
}
