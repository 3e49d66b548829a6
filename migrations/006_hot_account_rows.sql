-- Every charged v2 request updates its account's row (the guarded credit debit), so that row is the
-- hottest in the database. Two things keep updating it cheap under sustained load:
--
-- 1. usage_events no longer references accounts by foreign key. The check took a KEY SHARE lock on
--    the account row for every recorded request, and every debit that overlapped a usage batch then
--    had to create a MultiXact; in a long soak the debits were seen waiting on MultiXact buffers as
--    well as on the row lock itself.
--    Usage events are written only for keys that were just verified, and accounts are never deleted.
ALTER TABLE usage_events DROP CONSTRAINT IF EXISTS usage_events_account_id_fkey;

-- 2. Free space on each page for HOT updates, and autovacuum after a fixed number of dead row
--    versions instead of a fraction of what is a small table.
ALTER TABLE accounts SET (fillfactor = 50, autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 1000);
