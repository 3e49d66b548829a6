-- Broad filters are served by walking the newest-first index with the filter written in a form
-- no index serves, e.g. (country_key || '') = ANY($1) (see src/db/queries/conditions.ts). The
-- planner knows nothing about such expressions and guesses each matches 0.5 % of the rows; with
-- two of them it expected 16 matches where there were 63,786, and chose a sequential scan and a
-- sort (83 ms) over the walk (0.7 ms). Statistics on exactly those expressions, and on how they
-- combine, give it the real proportions. Needs PostgreSQL 14 or later.
CREATE STATISTICS investors_walk ON (country_key || ''), (investor_type || '') FROM investors;
CREATE STATISTICS job_changes_walk ON (position || ''), (seniority || '') FROM job_changes;
CREATE STATISTICS acquisition_signals_walk ON (country_key || ''), (category_key || '') FROM acquisition_signals;

ANALYZE investors;
ANALYZE job_changes;
ANALYZE acquisition_signals;
