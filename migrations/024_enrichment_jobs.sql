-- Enrichment jobs (src/enrichment): a list of companies an account sent to be matched to our
-- companies and their signals. Any instance works on a job: it is claimed under a lease
-- (lease_owner, lease_until) and worked on in chunks, each chunk's results written with the job's
-- progress in one transaction, so a job whose process died goes on from its last chunk when the
-- lease runs out. A finished job keeps its results until expires_at, then answers 410 job_expired.
CREATE TABLE enrichment_jobs (
  id               uuid PRIMARY KEY,
  account_id       bigint NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  key_id           text,
  file_name        text NOT NULL,
  status           text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'running', 'completed', 'failed')),
  total            integer NOT NULL CHECK (total BETWEEN 1 AND 1000),
  processed        integer NOT NULL DEFAULT 0,
  -- The companies as sent (every field, the user's own included, in their order: json, not jsonb), and how
  -- their columns were read.
  inputs           json NOT NULL,
  detected_mapping json NOT NULL,
  -- The published summary's counts over the results written so far.
  summary          json NOT NULL,
  error            json,
  attempts         integer NOT NULL DEFAULT 0,
  lease_owner      text,
  lease_until      timestamptz,
  submitted_at     timestamptz NOT NULL DEFAULT now(),
  completed_at     timestamptz,
  -- Set when the job finishes: its results are kept until then.
  expires_at       timestamptz,
  expired          boolean NOT NULL DEFAULT false
);
-- The queue: unfinished jobs, oldest first.
CREATE INDEX enrichment_jobs_queue ON enrichment_jobs (submitted_at) WHERE status IN ('pending', 'running');
CREATE INDEX enrichment_jobs_expiry ON enrichment_jobs (expires_at) WHERE NOT expired AND expires_at IS NOT NULL;

-- One row per input, in input order: the result as served (JSON text).
CREATE TABLE enrichment_results (
  job_id    uuid NOT NULL REFERENCES enrichment_jobs (id) ON DELETE CASCADE,
  position  integer NOT NULL,
  result    text NOT NULL,
  PRIMARY KEY (job_id, position)
);
