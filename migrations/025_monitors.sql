-- Monitors (src/monitors): an account's named lists of companies to watch, each with the signal
-- types it wants and, optionally, a webhook of the webhooks API (011) the signals go to; without
-- one they are mailed as digests. A target names a company by its domain, its LinkedIn page or a
-- person's LinkedIn profile (the company that person works at) and is resolved to a company of
-- 019 when one matches, at once or later, when an import brings it.
CREATE TABLE monitors (
  id               uuid PRIMARY KEY,
  account_id       bigint NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  name             text NOT NULL,
  signal_types     text[] NOT NULL,
  active           boolean NOT NULL DEFAULT true,
  webhook_id       uuid REFERENCES webhooks (id),
  -- The window of past signals a target newly resolved is sent (0: none), unless added with its own.
  backfill_days    integer NOT NULL DEFAULT 0 CHECK (backfill_days BETWEEN 0 AND 90),
  -- Email digests (monitors without a webhook): when the last went out, and whether the owner
  -- unsubscribed from them.
  last_email_at    timestamptz,
  email_unsubscribed boolean NOT NULL DEFAULT false,
  last_delivery_at timestamptz,
  created_at       timestamptz NOT NULL DEFAULT now(),
  updated_at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX monitors_account ON monitors (account_id, created_at DESC, id DESC);

CREATE TABLE monitor_targets (
  id             uuid PRIMARY KEY,
  monitor_id     uuid NOT NULL REFERENCES monitors (id) ON DELETE CASCADE,
  account_id     bigint NOT NULL,
  type           text NOT NULL CHECK (type IN ('domain', 'linkedin_company', 'linkedin_profile')),
  -- Normalised as served (acme.com, linkedin.com/company/acme, linkedin.com/in/jane-doe): also the
  -- key it is matched on (companies.website_key, companies.linkedin_key, job_changes.person_key).
  value          text NOT NULL,
  company_id     uuid,
  resolved_at    timestamptz,
  -- Days of past signals still to send for this target once it is resolved (0: none, or sent).
  backfill_days  integer NOT NULL DEFAULT 0,
  created_at     timestamptz NOT NULL DEFAULT now(),
  UNIQUE (monitor_id, value)
);
CREATE INDEX monitor_targets_list ON monitor_targets (monitor_id, created_at DESC, id DESC);
CREATE INDEX monitor_targets_account ON monitor_targets (account_id);
CREATE INDEX monitor_targets_company ON monitor_targets (company_id) WHERE company_id IS NOT NULL;
CREATE INDEX monitor_targets_value ON monitor_targets (value);
CREATE INDEX monitor_targets_backfill ON monitor_targets (created_at) WHERE backfill_days > 0 AND company_id IS NOT NULL;

-- What each monitor was sent (or is to be mailed): the event's id and exact body, kept as long as the
-- change log so a replay sends the same events again.
CREATE TABLE monitor_events (
  monitor_id   uuid NOT NULL REFERENCES monitors (id) ON DELETE CASCADE,
  event_id     text NOT NULL,
  body         text NOT NULL,
  -- The change's position in the log (backfill: 0 and the signal's time in ms, so it sorts by date).
  seq          bigint NOT NULL,
  change_id    bigint NOT NULL,
  backfill     boolean NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now(),
  -- Monitors without a webhook: the event is still to go out in a digest.
  mail_pending boolean NOT NULL DEFAULT false,
  PRIMARY KEY (monitor_id, event_id)
);
CREATE INDEX monitor_events_time ON monitor_events (monitor_id, created_at);
CREATE INDEX monitor_events_unmailed ON monitor_events (monitor_id, seq, change_id) WHERE mail_pending;

-- A monitor's webhook is a webhook of the webhooks API, owned by the monitor.
ALTER TABLE webhooks ADD COLUMN monitor_id uuid;

-- How far the change log has been read for monitors: like webhook_dispatch, null until the first run.
CREATE TABLE monitor_dispatch (
  only_row   boolean PRIMARY KEY DEFAULT true CHECK (only_row),
  seq        bigint,
  change_id  bigint
);
INSERT INTO monitor_dispatch DEFAULT VALUES;
