-- A funding round's currency as a column the in-memory index reads: the companies list's
-- total_funding_min adds up a company's rounds in one currency (amounts are never converted).
-- New and re-imported rows get it from src/catalog/datasets/funding.ts prepare; this fills the rows
-- already stored from their documents, without logging them as changed (their served documents
-- stay the same: a logged update would send funding.updated webhooks for rounds that did not change).
-- A row whose document cannot be read (only plain SQL writes such rows) keeps a null currency.
ALTER TABLE funding_rounds ADD COLUMN currency_key text;
ALTER TABLE funding_rounds_stage ADD COLUMN currency_key text;

ALTER TABLE funding_rounds DISABLE TRIGGER funding_rounds_log_update;
DO $$
DECLARE
  r record;
BEGIN
  BEGIN
    UPDATE funding_rounds SET currency_key = upper(btrim(doc::jsonb ->> 'currency'));
  EXCEPTION WHEN OTHERS THEN
    FOR r IN SELECT id FROM funding_rounds LOOP
      BEGIN
        UPDATE funding_rounds SET currency_key = upper(btrim(doc::jsonb ->> 'currency')) WHERE id = r.id;
      EXCEPTION WHEN OTHERS THEN NULL;
      END;
    END LOOP;
  END;
END
$$;
ALTER TABLE funding_rounds ENABLE TRIGGER funding_rounds_log_update;
