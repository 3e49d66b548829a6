-- One row per keyed API request, written in batches off the request path.
CREATE TABLE usage_events (
  id          bigserial PRIMARY KEY,
  account_id  bigint NOT NULL REFERENCES accounts (id),
  key_id      text NOT NULL,
  family      text NOT NULL CHECK (family IN ('v1', 'v2')),
  endpoint    text NOT NULL,
  status      integer NOT NULL,
  credits     integer NOT NULL DEFAULT 0,
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX usage_events_account_time ON usage_events (account_id, created_at);
