-- Import staging for the embedded store. PGlite has one connection: a transaction holds it, and
-- every reader's statement waits until it ends. An import there no longer writes its records in
-- one long transaction: it stages them in slices, each one short statement into the table's stage
-- (readers' statements run between them), then publishes the import in one short transaction that
-- upserts the stage's rows into the table (the change log triggers fire there, as for any write).
-- Until then nothing of the import is visible: readers never look at a stage.
--
-- Each import has its own id (import_id); a key the input holds more than once is staged once per
-- write batch (batch: the order they were written in) and the latest one is published. The stage
-- of a failed or abandoned import is deleted by the import itself; one left behind by a crash is
-- emptied when the store is opened next (a process owns the embedded store alone, so every stage
-- found then is abandoned).
--
-- UNLOGGED: a stage is scratch space, never worth a WAL record. The columns are those an import
-- writes (the dataset's columns in src/datasets), with the table's own types: a column added to
-- a data table that imports write must be added to its stage too.
-- The index finds an import's rows by write batch: publishing takes them a few batches at a time,
-- and deleting a stage takes it a slice at a time.

CREATE UNLOGGED TABLE funding_rounds_stage AS
  SELECT NULL::uuid AS import_id, 0 AS batch, natural_key, source_id, name_path, round_key, funding_amount,
         employee_count, founded_year, category_keys, country_key, website_key, linkedin_keys, sort_at, doc
    FROM funding_rounds WITH NO DATA;
CREATE INDEX funding_rounds_stage_import ON funding_rounds_stage (import_id, batch);

CREATE UNLOGGED TABLE ma_deals_stage AS
  SELECT NULL::uuid AS import_id, 0 AS batch, investment_id, status, acquisition_amount, acquirer_key, category_keys,
         country_key, website_key, linkedin_keys, sort_at, doc
    FROM ma_deals WITH NO DATA;
CREATE INDEX ma_deals_stage_import ON ma_deals_stage (import_id, batch);

CREATE UNLOGGED TABLE investors_stage AS
  SELECT NULL::uuid AS import_id, 0 AS batch, record_id, investor_type, country_key, search_text, name,
         ticket_size_min, ticket_size_max, sort_at, doc
    FROM investors WITH NO DATA;
CREATE INDEX investors_stage_import ON investors_stage (import_id, batch);

CREATE UNLOGGED TABLE job_changes_stage AS
  SELECT NULL::uuid AS import_id, 0 AS batch, record_id, position, departments, seniority, person_key, company_key,
         search_text, discovered_at, person_name, company_name, sort_at, doc
    FROM job_changes WITH NO DATA;
CREATE INDEX job_changes_stage_import ON job_changes_stage (import_id, batch);

CREATE UNLOGGED TABLE acquisition_signals_stage AS
  SELECT NULL::uuid AS import_id, 0 AS batch, record_id, category_key, country_key, search_text, website_key,
         linkedin_key, employee_count, sort_at, doc
    FROM acquisition_signals WITH NO DATA;
CREATE INDEX acquisition_signals_stage_import ON acquisition_signals_stage (import_id, batch);
