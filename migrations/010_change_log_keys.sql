-- The change log names each changed record by its natural key too (record_key: funding's
-- natural_key, the uuid of the other data sets, as text), not only by its row id: a deleted row's
-- natural key is gone with the row, and a changes feed client, which knows records only by their
-- natural keys, needs it to apply the deletion to its copy.
--
-- The triggers of 008 get the key column's name as a second argument (TG_ARGV[1]). Column names
-- cannot be parameters, so the statements are built with format(%I) and run with EXECUTE; the
-- transition tables (new_rows, old_rows) are visible to EXECUTE as to static SQL. It is still one
-- INSERT … SELECT per statement, however many rows it wrote; only its plan is made per statement.
--
-- An update that changes a row's natural key (only plain SQL does: imports upsert on it) is logged
-- as a deletion of the old key and a creation of the new one, both with the row's id, so a copy
-- kept by natural key drops the old key. The read model reads rows by id and does not mind.

ALTER TABLE change_log ADD COLUMN record_key text;

CREATE OR REPLACE FUNCTION log_created_rows() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  tx xid8 := pg_current_xact_id();
  logged bigint;
BEGIN
  EXECUTE format('INSERT INTO change_log (txid, dataset, record_id, record_key, op)
                  SELECT $1, $2, id, %I::text, ''created'' FROM new_rows', TG_ARGV[1])
    USING tx, TG_ARGV[0];
  GET DIAGNOSTICS logged = ROW_COUNT;
  IF logged > 0 THEN
    INSERT INTO change_transactions (txid) VALUES (tx) ON CONFLICT DO NOTHING;
  END IF;
  RETURN NULL;
END
$$;

-- An update that leaves the whole row as it was is not logged. A row whose id changed is logged as
-- a deletion and a creation, and so is one whose natural key changed. The statement's deletions
-- come first: a row whose id changed keeps its natural key, and a copy kept by natural key that
-- applied the creation first would then delete the record.
CREATE OR REPLACE FUNCTION log_updated_rows() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  tx xid8 := pg_current_xact_id();
  logged bigint;
BEGIN
  EXECUTE format('INSERT INTO change_log (txid, dataset, record_id, record_key, op)
                  SELECT $1, $2, e.record_id, e.record_key, e.op
                    FROM (SELECT n.id AS new_id, n.%1$I::text AS new_key, o.id AS old_id, o.%1$I::text AS old_key
                            FROM new_rows n FULL JOIN old_rows o ON o.id = n.id
                           WHERE n IS DISTINCT FROM o) c
                   CROSS JOIN LATERAL (VALUES
                     (c.old_id, c.old_key, ''deleted''),
                     (c.new_id, c.new_key,
                      CASE WHEN c.old_id IS NULL OR c.new_key IS DISTINCT FROM c.old_key THEN ''created'' ELSE ''updated'' END)
                   ) e (record_id, record_key, op)
                   WHERE e.record_id IS NOT NULL
                     AND (e.op <> ''deleted'' OR c.new_id IS NULL OR c.new_key IS DISTINCT FROM c.old_key)
                   ORDER BY e.op <> ''deleted'', e.record_id', TG_ARGV[1])
    USING tx, TG_ARGV[0];
  GET DIAGNOSTICS logged = ROW_COUNT;
  IF logged > 0 THEN
    INSERT INTO change_transactions (txid) VALUES (tx) ON CONFLICT DO NOTHING;
  END IF;
  RETURN NULL;
END
$$;

CREATE OR REPLACE FUNCTION log_deleted_rows() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  tx xid8 := pg_current_xact_id();
  logged bigint;
BEGIN
  EXECUTE format('INSERT INTO change_log (txid, dataset, record_id, record_key, op)
                  SELECT $1, $2, id, %I::text, ''deleted'' FROM old_rows', TG_ARGV[1])
    USING tx, TG_ARGV[0];
  GET DIAGNOSTICS logged = ROW_COUNT;
  IF logged > 0 THEN
    INSERT INTO change_transactions (txid) VALUES (tx) ON CONFLICT DO NOTHING;
  END IF;
  RETURN NULL;
END
$$;

-- TRUNCATE has no transition table: the rows it is about to remove are logged before it runs.
CREATE OR REPLACE FUNCTION log_truncated_rows() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  tx xid8 := pg_current_xact_id();
  logged bigint;
BEGIN
  EXECUTE format('INSERT INTO change_log (txid, dataset, record_id, record_key, op)
                  SELECT $1, $2, id, %I::text, ''deleted'' FROM %I.%I', TG_ARGV[1], TG_TABLE_SCHEMA, TG_TABLE_NAME)
    USING tx, TG_ARGV[0];
  GET DIAGNOSTICS logged = ROW_COUNT;
  IF logged > 0 THEN
    INSERT INTO change_transactions (txid) VALUES (tx) ON CONFLICT DO NOTHING;
  END IF;
  RETURN NULL;
END
$$;

-- The triggers again, each with its data set's key column.
DROP TRIGGER funding_rounds_log_insert ON funding_rounds;
DROP TRIGGER funding_rounds_log_update ON funding_rounds;
DROP TRIGGER funding_rounds_log_delete ON funding_rounds;
DROP TRIGGER funding_rounds_log_truncate ON funding_rounds;
CREATE TRIGGER funding_rounds_log_insert AFTER INSERT ON funding_rounds
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION log_created_rows('funding', 'natural_key');
CREATE TRIGGER funding_rounds_log_update AFTER UPDATE ON funding_rounds
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION log_updated_rows('funding', 'natural_key');
CREATE TRIGGER funding_rounds_log_delete AFTER DELETE ON funding_rounds
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION log_deleted_rows('funding', 'natural_key');
CREATE TRIGGER funding_rounds_log_truncate BEFORE TRUNCATE ON funding_rounds
  FOR EACH STATEMENT EXECUTE FUNCTION log_truncated_rows('funding', 'natural_key');

DROP TRIGGER ma_deals_log_insert ON ma_deals;
DROP TRIGGER ma_deals_log_update ON ma_deals;
DROP TRIGGER ma_deals_log_delete ON ma_deals;
DROP TRIGGER ma_deals_log_truncate ON ma_deals;
CREATE TRIGGER ma_deals_log_insert AFTER INSERT ON ma_deals
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION log_created_rows('m-a', 'investment_id');
CREATE TRIGGER ma_deals_log_update AFTER UPDATE ON ma_deals
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION log_updated_rows('m-a', 'investment_id');
CREATE TRIGGER ma_deals_log_delete AFTER DELETE ON ma_deals
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION log_deleted_rows('m-a', 'investment_id');
CREATE TRIGGER ma_deals_log_truncate BEFORE TRUNCATE ON ma_deals
  FOR EACH STATEMENT EXECUTE FUNCTION log_truncated_rows('m-a', 'investment_id');

DROP TRIGGER investors_log_insert ON investors;
DROP TRIGGER investors_log_update ON investors;
DROP TRIGGER investors_log_delete ON investors;
DROP TRIGGER investors_log_truncate ON investors;
CREATE TRIGGER investors_log_insert AFTER INSERT ON investors
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION log_created_rows('investors', 'record_id');
CREATE TRIGGER investors_log_update AFTER UPDATE ON investors
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION log_updated_rows('investors', 'record_id');
CREATE TRIGGER investors_log_delete AFTER DELETE ON investors
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION log_deleted_rows('investors', 'record_id');
CREATE TRIGGER investors_log_truncate BEFORE TRUNCATE ON investors
  FOR EACH STATEMENT EXECUTE FUNCTION log_truncated_rows('investors', 'record_id');

DROP TRIGGER job_changes_log_insert ON job_changes;
DROP TRIGGER job_changes_log_update ON job_changes;
DROP TRIGGER job_changes_log_delete ON job_changes;
DROP TRIGGER job_changes_log_truncate ON job_changes;
CREATE TRIGGER job_changes_log_insert AFTER INSERT ON job_changes
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION log_created_rows('job-changes', 'record_id');
CREATE TRIGGER job_changes_log_update AFTER UPDATE ON job_changes
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION log_updated_rows('job-changes', 'record_id');
CREATE TRIGGER job_changes_log_delete AFTER DELETE ON job_changes
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION log_deleted_rows('job-changes', 'record_id');
CREATE TRIGGER job_changes_log_truncate BEFORE TRUNCATE ON job_changes
  FOR EACH STATEMENT EXECUTE FUNCTION log_truncated_rows('job-changes', 'record_id');

DROP TRIGGER acquisition_signals_log_insert ON acquisition_signals;
DROP TRIGGER acquisition_signals_log_update ON acquisition_signals;
DROP TRIGGER acquisition_signals_log_delete ON acquisition_signals;
DROP TRIGGER acquisition_signals_log_truncate ON acquisition_signals;
CREATE TRIGGER acquisition_signals_log_insert AFTER INSERT ON acquisition_signals
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION log_created_rows('acquisitions', 'record_id');
CREATE TRIGGER acquisition_signals_log_update AFTER UPDATE ON acquisition_signals
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION log_updated_rows('acquisitions', 'record_id');
CREATE TRIGGER acquisition_signals_log_delete AFTER DELETE ON acquisition_signals
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION log_deleted_rows('acquisitions', 'record_id');
CREATE TRIGGER acquisition_signals_log_truncate BEFORE TRUNCATE ON acquisition_signals
  FOR EACH STATEMENT EXECUTE FUNCTION log_truncated_rows('acquisitions', 'record_id');

-- Entries written before this migration get the key of their row where it still exists. A
-- deleted row's key is gone: its entries keep a null key.
UPDATE change_log c SET record_key = t.natural_key FROM funding_rounds t WHERE c.dataset = 'funding' AND t.id = c.record_id;
UPDATE change_log c SET record_key = t.investment_id::text FROM ma_deals t WHERE c.dataset = 'm-a' AND t.id = c.record_id;
UPDATE change_log c SET record_key = t.record_id::text FROM investors t WHERE c.dataset = 'investors' AND t.id = c.record_id;
UPDATE change_log c SET record_key = t.record_id::text FROM job_changes t WHERE c.dataset = 'job-changes' AND t.id = c.record_id;
UPDATE change_log c SET record_key = t.record_id::text FROM acquisition_signals t
 WHERE c.dataset = 'acquisitions' AND t.id = c.record_id;
