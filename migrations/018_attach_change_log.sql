-- One function attaches the change log (008, 010) to a dataset's table: it (re)creates the table's
-- four triggers, each handing the log functions the dataset's name (TG_ARGV[0], what the change
-- log, the feed and webhooks call it) and its natural key column (TG_ARGV[1]). A new dataset's
-- migration creates its table (and its stage, 017), then attaches the log in one line:
--
--   SELECT attach_change_log('patents', 'patents', 'record_id');   (docs/adding-a-dataset.md)
--
-- The triggers are named after the table (TABLE_log_insert, …_update, …_delete, …_truncate):
-- a migration that must write rows unlogged disables TABLE_log_update by that name (as 012 and
-- 013 do). Attaching again replaces them, so it also re-attaches a table under a new key column.
CREATE FUNCTION attach_change_log(table_name text, dataset text, key_column text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format('DROP TRIGGER IF EXISTS %I ON %I', table_name || '_log_insert', table_name);
  EXECUTE format('DROP TRIGGER IF EXISTS %I ON %I', table_name || '_log_update', table_name);
  EXECUTE format('DROP TRIGGER IF EXISTS %I ON %I', table_name || '_log_delete', table_name);
  EXECUTE format('DROP TRIGGER IF EXISTS %I ON %I', table_name || '_log_truncate', table_name);
  EXECUTE format('CREATE TRIGGER %I AFTER INSERT ON %I
                    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION log_created_rows(%L, %L)',
                 table_name || '_log_insert', table_name, dataset, key_column);
  EXECUTE format('CREATE TRIGGER %I AFTER UPDATE ON %I
                    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION log_updated_rows(%L, %L)',
                 table_name || '_log_update', table_name, dataset, key_column);
  EXECUTE format('CREATE TRIGGER %I AFTER DELETE ON %I
                    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION log_deleted_rows(%L, %L)',
                 table_name || '_log_delete', table_name, dataset, key_column);
  -- TRUNCATE has no transition table: log_truncated_rows reads the rows before they go.
  EXECUTE format('CREATE TRIGGER %I BEFORE TRUNCATE ON %I
                    FOR EACH STATEMENT EXECUTE FUNCTION log_truncated_rows(%L, %L)',
                 table_name || '_log_truncate', table_name, dataset, key_column);
END
$$;

-- Today's datasets through it: the same triggers as 010 made, with the same names and arguments.
SELECT attach_change_log('funding_rounds', 'funding', 'natural_key');
SELECT attach_change_log('ma_deals', 'm-a', 'investment_id');
SELECT attach_change_log('investors', 'investors', 'record_id');
SELECT attach_change_log('job_changes', 'job-changes', 'record_id');
SELECT attach_change_log('acquisition_signals', 'acquisitions', 'record_id');
