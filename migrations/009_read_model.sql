-- Lists are answered from an in-memory filter index per instance, kept current from the change log
-- (008), so nothing reads a data set's version or walks a table for a filter any more: the version
-- counters, the triggers that bumped them on every write, and the statistics kept for the walking
-- plans (007) go.
DROP TRIGGER funding_rounds_version ON funding_rounds;
DROP TRIGGER ma_deals_version ON ma_deals;
DROP TRIGGER investors_version ON investors;
DROP TRIGGER job_changes_version ON job_changes;
DROP TRIGGER acquisition_signals_version ON acquisition_signals;
DROP FUNCTION bump_data_version();
DROP TABLE data_versions;

DROP STATISTICS investors_walk;
DROP STATISTICS job_changes_walk;
DROP STATISTICS acquisition_signals_walk;

-- The indexes that served filters and the newest-first order: no statement reads through them now
-- (documents are fetched by primary key, the index is built in id order), and every write paid to
-- keep them, the trigram ones most. Primary and natural keys stay.
DROP INDEX funding_recent, funding_country_recent, funding_round_recent, funding_categories, funding_website, funding_linkedin;
DROP INDEX ma_recent, ma_status_recent, ma_country_recent, ma_categories, ma_acquirer_trgm, ma_website, ma_linkedin;
DROP INDEX investors_recent, investors_type_recent, investors_country_recent, investors_search;
DROP INDEX job_changes_recent, job_changes_position_recent, job_changes_seniority_recent, job_changes_departments,
  job_changes_person, job_changes_company_recent, job_changes_search;
DROP INDEX acquisition_signals_recent, acquisition_signals_category_recent, acquisition_signals_country_recent,
  acquisition_signals_search;
