-- Webhooks: subscriptions, and the durable queue of their deliveries.
--
-- Events come from the change log (008): one process at a time (the dispatch position's row is
-- locked while it works) reads the entries after webhook_dispatch's position, matches each
-- against the active webhooks, inserts a delivery per match and moves the position, all in one
-- transaction, so an entry becomes deliveries exactly once whatever crashes.
--
-- Deliveries are sent per webhook, oldest change first. A process claims a webhook (a lease: a
-- claimed webhook is skipped by every other process until lease_until, so a crashed process's
-- work is taken over when its lease runs out), sends its pending deliveries in order and
-- releases it. webhooks.next_attempt_at says when its oldest pending delivery is due (null: none
-- pending), so finding work reads one small index, however long the delivery log is.

CREATE TABLE webhooks (
  id                     uuid PRIMARY KEY,
  account_id             bigint NOT NULL REFERENCES accounts (id),
  endpoint_url           text NOT NULL,
  event_types            text[] NOT NULL,
  -- As the client sent them (string values), returned as is.
  filters                jsonb NOT NULL DEFAULT '{}',
  secret                 text NOT NULL,
  active                 boolean NOT NULL DEFAULT true,
  -- Set by DELETE: gone from the API's reads, history kept, PUT active:true brings it back.
  deleted_at             timestamptz,
  -- Why the service paused it (a run of failures), shown to its owner; null when paused by hand.
  paused_reason          text,
  created_at             timestamptz NOT NULL DEFAULT now(),
  updated_at             timestamptz NOT NULL DEFAULT now(),
  last_modified_by       text,
  last_modified_via      text CHECK (last_modified_via IN ('api', 'dashboard')),
  total_deliveries       bigint NOT NULL DEFAULT 0,
  successful_deliveries  bigint NOT NULL DEFAULT 0,
  failed_deliveries      bigint NOT NULL DEFAULT 0,
  last_success_at        timestamptz,
  last_failure_at        timestamptz,
  consecutive_failures   integer NOT NULL DEFAULT 0,
  next_attempt_at        timestamptz,
  lease_until            timestamptz,
  lease_owner            text
);
CREATE INDEX webhooks_account ON webhooks (account_id, created_at DESC, id DESC);
CREATE INDEX webhooks_due ON webhooks (next_attempt_at) WHERE next_attempt_at IS NOT NULL;

-- An event: one change of one record as one event type (or a test event), with the exact body sent
-- (canonical JSON), the same to every webhook it goes to and at every attempt and retry: stored
-- once, however many webhooks match it.
CREATE TABLE webhook_events (
  id          text PRIMARY KEY,
  event_type  text NOT NULL,
  body        text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE webhook_deliveries (
  id                    uuid PRIMARY KEY,
  webhook_id            uuid NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
  -- The change's position in the log: the order deliveries of one webhook are sent in. Test
  -- events and manual retries (sent at once, never queued) have (0, 0).
  seq                   bigint NOT NULL,
  change_id             bigint NOT NULL,
  event_id              text NOT NULL REFERENCES webhook_events (id),
  event_type            text NOT NULL,
  status                text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'done', 'failed')),
  attempt_count         integer NOT NULL DEFAULT 0,
  -- When a pending delivery is tried next (null: as soon as it is the webhook's oldest).
  next_attempt_at       timestamptz,
  response_status       integer,
  response_body         text,
  latency_ms            integer,
  last_error            text,
  delivered_at          timestamptz,
  failed_at             timestamptz,
  created_at            timestamptz NOT NULL DEFAULT now(),
  previous_delivery_id  uuid
);
CREATE INDEX webhook_deliveries_queue ON webhook_deliveries (webhook_id, seq, change_id) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_log ON webhook_deliveries (webhook_id, created_at DESC, id DESC);
CREATE INDEX webhook_deliveries_event ON webhook_deliveries (event_id);

-- How far the change log has been turned into deliveries; null until the first run, which starts
-- at the log's head (events before webhooks existed are not delivered).
CREATE TABLE webhook_dispatch (
  only_row   boolean PRIMARY KEY DEFAULT true CHECK (only_row),
  seq        bigint,
  change_id  bigint
);
INSERT INTO webhook_dispatch DEFAULT VALUES;

-- Credits spent on deliveries are ledger rows like any other debit.
ALTER TABLE credit_ledger DROP CONSTRAINT credit_ledger_reason_check;
ALTER TABLE credit_ledger ADD CONSTRAINT credit_ledger_reason_check
  CHECK (reason IN ('request', 'refill', 'grant', 'set', 'webhook'));
