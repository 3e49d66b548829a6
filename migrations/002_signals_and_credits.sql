-- Credits: a balance per account, refilled to the tier's allowance at the start of each month
-- (lazily, on first use in the month), and an append-only ledger of every change.
ALTER TABLE accounts
  ADD COLUMN credits_remaining bigint NOT NULL DEFAULT 0 CHECK (credits_remaining >= 0),
  ADD COLUMN credits_period date NOT NULL DEFAULT DATE '1970-01-01';

CREATE TABLE credit_ledger (
  id             bigserial PRIMARY KEY,
  account_id     bigint NOT NULL REFERENCES accounts (id),
  key_id         text,
  delta          bigint NOT NULL,
  balance_after  bigint NOT NULL,
  reason         text NOT NULL CHECK (reason IN ('request', 'refill', 'grant', 'set')),
  endpoint       text,
  created_at     timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX credit_ledger_account ON credit_ledger (account_id, created_at);

INSERT INTO data_versions (name) VALUES ('investors'), ('job-changes'), ('acquisitions');

-- v2 signals. As for v1: doc is the served record, prepared at write time; record_id is the
-- record's own id; id is the stable tie-break of the newest-first order.
CREATE TABLE investors (
  id             bigserial PRIMARY KEY,
  record_id      uuid NOT NULL UNIQUE,
  investor_type  text NOT NULL,
  country_key    text,
  search_text    text NOT NULL,
  sort_at        timestamptz NOT NULL,
  doc            text NOT NULL
);
CREATE INDEX investors_recent ON investors (sort_at DESC, id DESC);
CREATE INDEX investors_type_recent ON investors (investor_type, sort_at DESC, id DESC);
CREATE INDEX investors_country_recent ON investors (country_key, sort_at DESC, id DESC);
CREATE INDEX investors_search ON investors USING gin (search_text gin_trgm_ops);
CREATE TRIGGER investors_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON investors
  FOR EACH STATEMENT EXECUTE FUNCTION bump_data_version('investors');

CREATE TABLE job_changes (
  id           bigserial PRIMARY KEY,
  record_id    uuid NOT NULL UNIQUE,
  position     text,
  departments  text[] NOT NULL DEFAULT '{}',
  seniority    text,
  person_key   text,
  company_key  text,
  search_text  text NOT NULL,
  sort_at      timestamptz NOT NULL,
  doc          text NOT NULL
);
CREATE INDEX job_changes_recent ON job_changes (sort_at DESC, id DESC);
CREATE INDEX job_changes_position_recent ON job_changes (position, sort_at DESC, id DESC);
CREATE INDEX job_changes_seniority_recent ON job_changes (seniority, sort_at DESC, id DESC);
CREATE INDEX job_changes_departments ON job_changes USING gin (departments);
CREATE INDEX job_changes_person ON job_changes (person_key);
CREATE INDEX job_changes_company_recent ON job_changes (company_key, sort_at DESC, id DESC);
CREATE INDEX job_changes_search ON job_changes USING gin (search_text gin_trgm_ops);
CREATE TRIGGER job_changes_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON job_changes
  FOR EACH STATEMENT EXECUTE FUNCTION bump_data_version('job-changes');

CREATE TABLE acquisition_signals (
  id            bigserial PRIMARY KEY,
  record_id     uuid NOT NULL UNIQUE,
  category_key  text,
  country_key   text,
  search_text   text NOT NULL,
  sort_at       timestamptz NOT NULL,
  doc           text NOT NULL
);
CREATE INDEX acquisition_signals_recent ON acquisition_signals (sort_at DESC, id DESC);
CREATE INDEX acquisition_signals_category_recent ON acquisition_signals (category_key, sort_at DESC, id DESC);
CREATE INDEX acquisition_signals_country_recent ON acquisition_signals (country_key, sort_at DESC, id DESC);
CREATE INDEX acquisition_signals_search ON acquisition_signals USING gin (search_text gin_trgm_ops);
CREATE TRIGGER acquisition_signals_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON acquisition_signals
  FOR EACH STATEMENT EXECUTE FUNCTION bump_data_version('acquisitions');
