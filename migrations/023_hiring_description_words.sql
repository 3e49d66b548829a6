-- The words of each job description as PostgreSQL's full-text search makes them (English configuration:
-- stemmed, stop words dropped, positions kept), in a table of their own beside the postings, under a GIN
-- index; they replace the expression index of 022.
--
-- Stored, because the index alone answers a question of words, but a "phrase" is checked row by row
-- against the words' positions: with an expression index that check parsed each candidate's whole
-- document again (about half a millisecond a row), so a phrase of two common words took minutes.
-- Apart from the postings, so that a page of postings reads no words (about 3 KB a posting, mostly out of
-- line) and the ids of a common word's postings are read from this table's narrow rows instead of the
-- postings' (450 bytes).
--
-- The triggers keep the words in the statement that writes the posting, as the change log is kept, so a
-- committed posting's words are always there: an insert parses them, an update parses them again only
-- when the description changed, a delete or truncate removes them.
DROP INDEX hiring_postings_description;

CREATE TABLE hiring_description_words (
  posting_id  bigint PRIMARY KEY,
  words       tsvector NOT NULL
);

CREATE FUNCTION hiring_words_of(doc text) RETURNS tsvector LANGUAGE sql IMMUTABLE AS $$
  SELECT to_tsvector('english'::regconfig, coalesce(doc::json ->> 'descriptionText', ''))
$$;

CREATE FUNCTION hiring_words_created() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO hiring_description_words (posting_id, words) SELECT id, hiring_words_of(doc) FROM new_rows;
  RETURN NULL;
END
$$;

CREATE FUNCTION hiring_words_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE hiring_description_words w SET words = hiring_words_of(n.doc)
    FROM new_rows n JOIN old_rows o ON o.id = n.id
   WHERE w.posting_id = n.id
     AND (n.doc::json ->> 'descriptionText') IS DISTINCT FROM (o.doc::json ->> 'descriptionText');
  RETURN NULL;
END
$$;

CREATE FUNCTION hiring_words_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM hiring_description_words w USING old_rows o WHERE w.posting_id = o.id;
  RETURN NULL;
END
$$;

CREATE FUNCTION hiring_words_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE hiring_description_words;
  RETURN NULL;
END
$$;

CREATE TRIGGER hiring_postings_words_insert AFTER INSERT ON hiring_postings
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION hiring_words_created();
CREATE TRIGGER hiring_postings_words_update AFTER UPDATE ON hiring_postings
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION hiring_words_updated();
CREATE TRIGGER hiring_postings_words_delete AFTER DELETE ON hiring_postings
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION hiring_words_deleted();
CREATE TRIGGER hiring_postings_words_truncate AFTER TRUNCATE ON hiring_postings
  FOR EACH STATEMENT EXECUTE FUNCTION hiring_words_truncated();

INSERT INTO hiring_description_words (posting_id, words) SELECT id, hiring_words_of(doc) FROM hiring_postings;
CREATE INDEX hiring_description_words_words ON hiring_description_words USING gin (words);
