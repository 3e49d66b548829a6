-- The change log: every write to a document table appends (dataset, record id, operation) in the
-- writing transaction itself, whatever wrote it (import, admin API, inbox, seed, plain SQL), so an
-- entry exists exactly when its write committed. Readers follow it by position to keep derived
-- state (an in-memory index, a changes feed) current without rescanning the tables.
--
-- Ordering. A sequence number taken while a transaction runs does not give commit order: a
-- transaction that took 5 may commit after one that took 6, and a reader that already moved past
-- 6 would never see 5. So entries carry the id of their transaction, and each transaction gets
-- its number (change_transactions.seq) only when it commits: a deferred constraint trigger takes
-- an advisory lock, then the next number. The lock is held until the commit is visible (locks are
-- released after that), so numbers are handed out in commit order, and a reader that has seen
-- number S can never later see a committed transaction numbered S or less. A position in the log
-- is (transaction seq, entry id); entry ids only order the entries of one transaction.
--
-- The price: transactions that write documents commit one at a time (their commit records are not
-- flushed together). Imports, the seed and the inbox write thousands of rows per transaction, so
-- this costs them nothing measurable; it would cap a workload of thousands of one-row write
-- transactions a second at about one commit per WAL flush.

CREATE SEQUENCE change_transaction_seq;

-- One row per transaction that changed documents. seq and committed_at are set at commit.
CREATE TABLE change_transactions (
  txid          xid8 PRIMARY KEY,
  seq           bigint UNIQUE,
  committed_at  timestamptz
);

-- Only the columns a follower needs: it fetches the documents themselves by primary key. The key
-- (txid, id) is also the reading order within a transaction.
CREATE TABLE change_log (
  txid       xid8 NOT NULL,
  id         bigserial,
  dataset    text NOT NULL,
  record_id  bigint NOT NULL,
  op         text NOT NULL CHECK (op IN ('created', 'updated', 'deleted')),
  PRIMARY KEY (txid, id)
);

-- Where pruning stopped: the position of the newest entry removed. A reader behind it has missed
-- entries and must reload; one at or past it has not. (0, 0) until the first prune. It also keeps
-- the head known when pruning has emptied the log.
CREATE TABLE change_log_pruned (
  only_row   boolean PRIMARY KEY DEFAULT true CHECK (only_row),
  seq        bigint NOT NULL DEFAULT 0,
  change_id  bigint NOT NULL DEFAULT 0
);
INSERT INTO change_log_pruned DEFAULT VALUES;

-- Runs at commit (deferred), once per transaction that logged changes.
CREATE FUNCTION number_change_transaction() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Keyed by schema, so separate installations in one database do not wait on each other.
  PERFORM pg_advisory_xact_lock(hashtext('dealsignal:change-log'), hashtext(TG_TABLE_SCHEMA));
  UPDATE change_transactions SET seq = nextval('change_transaction_seq'), committed_at = clock_timestamp()
   WHERE txid = NEW.txid;
  RETURN NULL;
END
$$;
CREATE CONSTRAINT TRIGGER change_transactions_number AFTER INSERT ON change_transactions
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION number_change_transaction();

-- Statement triggers with transition tables: one INSERT … SELECT per statement, however many rows
-- it wrote, and nothing per row. A transition table serves one event, hence one trigger per event.
-- TG_ARGV[0] is the data set's name, as in data_versions.
CREATE FUNCTION log_created_rows() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  tx xid8 := pg_current_xact_id();
  logged bigint;
BEGIN
  INSERT INTO change_log (txid, dataset, record_id, op) SELECT tx, TG_ARGV[0], id, 'created' FROM new_rows;
  GET DIAGNOSTICS logged = ROW_COUNT;
  IF logged > 0 THEN
    INSERT INTO change_transactions (txid) VALUES (tx) ON CONFLICT DO NOTHING;
  END IF;
  RETURN NULL;
END
$$;

-- An update that leaves the whole row as it was (a re-import of identical data through plain SQL)
-- is not logged. A row whose id changed is logged as a deletion and a creation.
CREATE FUNCTION log_updated_rows() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  tx xid8 := pg_current_xact_id();
  logged bigint;
BEGIN
  INSERT INTO change_log (txid, dataset, record_id, op)
  SELECT tx, TG_ARGV[0], coalesce(n.id, o.id),
         CASE WHEN o.id IS NULL THEN 'created' WHEN n.id IS NULL THEN 'deleted' ELSE 'updated' END
    FROM new_rows n FULL JOIN old_rows o ON o.id = n.id
   WHERE n IS DISTINCT FROM o;
  GET DIAGNOSTICS logged = ROW_COUNT;
  IF logged > 0 THEN
    INSERT INTO change_transactions (txid) VALUES (tx) ON CONFLICT DO NOTHING;
  END IF;
  RETURN NULL;
END
$$;

CREATE FUNCTION log_deleted_rows() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  tx xid8 := pg_current_xact_id();
  logged bigint;
BEGIN
  INSERT INTO change_log (txid, dataset, record_id, op) SELECT tx, TG_ARGV[0], id, 'deleted' FROM old_rows;
  GET DIAGNOSTICS logged = ROW_COUNT;
  IF logged > 0 THEN
    INSERT INTO change_transactions (txid) VALUES (tx) ON CONFLICT DO NOTHING;
  END IF;
  RETURN NULL;
END
$$;

-- TRUNCATE has no transition table: the rows it is about to remove are logged before it runs.
CREATE FUNCTION log_truncated_rows() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  tx xid8 := pg_current_xact_id();
  logged bigint;
BEGIN
  EXECUTE format('INSERT INTO change_log (txid, dataset, record_id, op) SELECT $1, $2, id, ''deleted'' FROM %I.%I',
                 TG_TABLE_SCHEMA, TG_TABLE_NAME)
    USING tx, TG_ARGV[0];
  GET DIAGNOSTICS logged = ROW_COUNT;
  IF logged > 0 THEN
    INSERT INTO change_transactions (txid) VALUES (tx) ON CONFLICT DO NOTHING;
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER funding_rounds_log_insert AFTER INSERT ON funding_rounds
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION log_created_rows('funding');
CREATE TRIGGER funding_rounds_log_update AFTER UPDATE ON funding_rounds
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION log_updated_rows('funding');
CREATE TRIGGER funding_rounds_log_delete AFTER DELETE ON funding_rounds
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION log_deleted_rows('funding');
CREATE TRIGGER funding_rounds_log_truncate BEFORE TRUNCATE ON funding_rounds
  FOR EACH STATEMENT EXECUTE FUNCTION log_truncated_rows('funding');

CREATE TRIGGER ma_deals_log_insert AFTER INSERT ON ma_deals
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION log_created_rows('m-a');
CREATE TRIGGER ma_deals_log_update AFTER UPDATE ON ma_deals
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION log_updated_rows('m-a');
CREATE TRIGGER ma_deals_log_delete AFTER DELETE ON ma_deals
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION log_deleted_rows('m-a');
CREATE TRIGGER ma_deals_log_truncate BEFORE TRUNCATE ON ma_deals
  FOR EACH STATEMENT EXECUTE FUNCTION log_truncated_rows('m-a');

CREATE TRIGGER investors_log_insert AFTER INSERT ON investors
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION log_created_rows('investors');
CREATE TRIGGER investors_log_update AFTER UPDATE ON investors
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION log_updated_rows('investors');
CREATE TRIGGER investors_log_delete AFTER DELETE ON investors
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION log_deleted_rows('investors');
CREATE TRIGGER investors_log_truncate BEFORE TRUNCATE ON investors
  FOR EACH STATEMENT EXECUTE FUNCTION log_truncated_rows('investors');

CREATE TRIGGER job_changes_log_insert AFTER INSERT ON job_changes
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION log_created_rows('job-changes');
CREATE TRIGGER job_changes_log_update AFTER UPDATE ON job_changes
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION log_updated_rows('job-changes');
CREATE TRIGGER job_changes_log_delete AFTER DELETE ON job_changes
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION log_deleted_rows('job-changes');
CREATE TRIGGER job_changes_log_truncate BEFORE TRUNCATE ON job_changes
  FOR EACH STATEMENT EXECUTE FUNCTION log_truncated_rows('job-changes');

CREATE TRIGGER acquisition_signals_log_insert AFTER INSERT ON acquisition_signals
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION log_created_rows('acquisitions');
CREATE TRIGGER acquisition_signals_log_update AFTER UPDATE ON acquisition_signals
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION log_updated_rows('acquisitions');
CREATE TRIGGER acquisition_signals_log_delete AFTER DELETE ON acquisition_signals
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION log_deleted_rows('acquisitions');
CREATE TRIGGER acquisition_signals_log_truncate BEFORE TRUNCATE ON acquisition_signals
  FOR EACH STATEMENT EXECUTE FUNCTION log_truncated_rows('acquisitions');
