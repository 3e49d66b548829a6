-- Acquisition signals get the company keys funding rounds and deals have: the website and the
-- LinkedIn page as urlKey (src/services/normalize.ts) normalises them, which v2 company_domain and
-- company_linkedin_url match. New and re-imported rows get them from the dataset's prepare
-- (src/datasets/acquisitions.ts); this fills the rows already stored, with exactly the keys urlKey
-- gives, in two parts:
--
-- * A value made only of printable ASCII characters other than the space (0x21 to 0x7E: every URL
--   the generated data holds, and any the record schema's uri format admits unless it has non-ASCII
--   letters) gets its key here. On such text the expression of acquisition_url_key_012 is urlKey:
--   JavaScript's trim() has nothing to remove; its toLowerCase() changes A-Z and nothing else, as
--   translate() does (lower() would follow the database's locale); the four patterns are the same
--   in both regex dialects on text with no line terminator (the only characters JavaScript's "."
--   skips); an empty result is null in both.
-- * A row holding any other value (non-ASCII letters, white space, control characters) is listed
--   in acquisition_key_backfill, and the application computes its keys with urlKey itself before it
--   builds its index (src/services/key-backfill.ts), deleting the entries it has done. So does every
--   row if a stored document is one jsonb cannot read (not JSON, or a \u0000 escape): this part
--   then reads none, and urlKey does them all.
--
-- A website or LinkedIn URL that is not a string (or absent) has no key, as urlKey(null) has none.
-- The rows are not logged as changed: their served documents stay the same, and a logged update
-- would send acquisition.updated webhooks and changes feed items for records that did not change.

ALTER TABLE acquisition_signals ADD COLUMN website_key text, ADD COLUMN linkedin_key text;

CREATE TABLE acquisition_key_backfill (
  id bigint PRIMARY KEY
);

-- urlKey of a value of characters 0x21 to 0x7E only.
CREATE FUNCTION acquisition_url_key_012(value text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT NULLIF(
           regexp_replace(
             regexp_replace(
               regexp_replace(
                 regexp_replace(
                   translate(value, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz'),
                   '^[a-z][a-z0-9+.-]*://', ''),
                 '[?#].*$', ''),
               '^www\.', ''),
             '/+$', ''),
           '')
$$;

ALTER TABLE acquisition_signals DISABLE TRIGGER acquisition_signals_log_update;

DO $$
BEGIN
  WITH urls AS (
    SELECT id,
           CASE WHEN jsonb_typeof(d -> 'website') = 'string' THEN d ->> 'website' END AS website,
           CASE WHEN jsonb_typeof(d -> 'linkedinUrl') = 'string' THEN d ->> 'linkedinUrl' END AS linkedin
      FROM (SELECT id, doc::jsonb AS d FROM acquisition_signals) s
  ), sorted AS (
    SELECT id, website, linkedin,
           coalesce(website ~ '^[\x21-\x7e]*$', true) AND coalesce(linkedin ~ '^[\x21-\x7e]*$', true) AS exact
      FROM urls
  ), later AS (
    INSERT INTO acquisition_key_backfill (id) SELECT id FROM sorted WHERE NOT exact
  )
  UPDATE acquisition_signals a
     SET website_key = acquisition_url_key_012(s.website), linkedin_key = acquisition_url_key_012(s.linkedin)
    FROM sorted s
   WHERE s.id = a.id AND s.exact AND (s.website IS NOT NULL OR s.linkedin IS NOT NULL);
EXCEPTION WHEN data_exception THEN
  INSERT INTO acquisition_key_backfill (id) SELECT id FROM acquisition_signals;
END
$$;

ALTER TABLE acquisition_signals ENABLE TRIGGER acquisition_signals_log_update;
DROP FUNCTION acquisition_url_key_012(text);
