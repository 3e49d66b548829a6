-- Accounts and API keys: only a hash of each key is stored, with a display prefix and last 4.
CREATE TABLE accounts (
  id          bigserial PRIMARY KEY,
  email       text NOT NULL UNIQUE,
  tier        text NOT NULL DEFAULT 'free' CHECK (tier IN ('free', 'pro', 'enterprise')),
  created_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE api_keys (
  id            text PRIMARY KEY,
  account_id    bigint NOT NULL REFERENCES accounts (id),
  name          text NOT NULL,
  key_hash      text NOT NULL UNIQUE,
  prefix        text NOT NULL,
  last4         text NOT NULL,
  created_at    timestamptz NOT NULL DEFAULT now(),
  last_used_at  timestamptz,
  revoked_at    timestamptz,
  expires_at    timestamptz
);
CREATE INDEX api_keys_account ON api_keys (account_id, created_at);

-- One version per data set, bumped by any statement that writes it. Readers fetch it in the
-- same snapshot as their page, so cached counts keyed by version are never stale.
CREATE TABLE data_versions (
  name     text PRIMARY KEY,
  version  bigint NOT NULL DEFAULT 0
);
INSERT INTO data_versions (name) VALUES ('funding'), ('m-a');

CREATE FUNCTION bump_data_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE data_versions SET version = version + 1 WHERE name = TG_ARGV[0];
  RETURN NULL;
END
$$;

-- Funding rounds. doc is the record exactly as served (JSON text, prepared at write time);
-- the other columns exist to filter and sort it.
CREATE TABLE funding_rounds (
  id              bigserial PRIMARY KEY,
  natural_key     text NOT NULL UNIQUE,
  source_id       text,
  name_path       text NOT NULL,
  round_key       text,
  funding_amount  bigint NOT NULL,
  category_keys   text[] NOT NULL DEFAULT '{}',
  country_key     text,
  website_key     text,
  linkedin_keys   text[] NOT NULL DEFAULT '{}',
  sort_at         timestamptz NOT NULL,
  doc             text NOT NULL
);
CREATE INDEX funding_recent ON funding_rounds (sort_at DESC, id DESC);
CREATE INDEX funding_country_recent ON funding_rounds (country_key, sort_at DESC, id DESC);
CREATE INDEX funding_round_recent ON funding_rounds (round_key, sort_at DESC, id DESC);
CREATE INDEX funding_categories ON funding_rounds USING gin (category_keys);
CREATE INDEX funding_website ON funding_rounds (website_key);
CREATE INDEX funding_linkedin ON funding_rounds USING gin (linkedin_keys);
CREATE TRIGGER funding_rounds_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON funding_rounds
  FOR EACH STATEMENT EXECUTE FUNCTION bump_data_version('funding');

-- Mergers and acquisitions. status is not part of the served record, only a filter.
CREATE TABLE ma_deals (
  id                  bigserial PRIMARY KEY,
  investment_id       uuid NOT NULL UNIQUE,
  status              text NOT NULL CHECK (status IN ('announced', 'completed', 'pending')),
  acquisition_amount  bigint NOT NULL,
  acquirer_key        text NOT NULL,
  category_keys       text[] NOT NULL DEFAULT '{}',
  country_key         text,
  website_key         text,
  linkedin_keys       text[] NOT NULL DEFAULT '{}',
  sort_at             timestamptz NOT NULL,
  doc                 text NOT NULL
);
CREATE INDEX ma_recent ON ma_deals (sort_at DESC, id DESC);
CREATE INDEX ma_status_recent ON ma_deals (status, sort_at DESC, id DESC);
CREATE INDEX ma_country_recent ON ma_deals (country_key, sort_at DESC, id DESC);
CREATE INDEX ma_categories ON ma_deals USING gin (category_keys);
CREATE INDEX ma_acquirer_trgm ON ma_deals USING gin (acquirer_key gin_trgm_ops);
CREATE INDEX ma_website ON ma_deals (website_key);
CREATE INDEX ma_linkedin ON ma_deals USING gin (linkedin_keys);
CREATE TRIGGER ma_deals_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON ma_deals
  FOR EACH STATEMENT EXECUTE FUNCTION bump_data_version('m-a');
