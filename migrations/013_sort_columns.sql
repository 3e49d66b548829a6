-- The fields the published sort_by values order by (Signalbase 2.2), as columns the in-memory
-- index reads (src/datasets/*.ts says which field each value maps to):
-- investors: name, typicalCheckSize.min and .max; job changes: discoveredAt, personName,
-- companyName; acquisition signals: employeeCount; funding rounds: the company's headcount (its
-- latest historical_headcount entry's, as funding signals serve employeeCount) and
-- company_info.year_founded. New and re-imported rows get them from their
-- dataset's prepare; this fills the rows already stored from their documents. The text columns hold
-- the field as served: the index orders them by its own collation key (src/filter-index/text.ts).
--
-- The rows are not logged as changed: their served documents stay the same, and a logged update
-- would send *.updated webhooks and changes feed items for records that did not change. A row whose
-- document cannot be read (not JSON, or a field of another type: only plain SQL writes such rows)
-- keeps nulls, and sorts last, until it is imported again.

ALTER TABLE investors ADD COLUMN name text, ADD COLUMN ticket_size_min float8, ADD COLUMN ticket_size_max float8;
ALTER TABLE job_changes ADD COLUMN discovered_at timestamptz, ADD COLUMN person_name text, ADD COLUMN company_name text;
ALTER TABLE acquisition_signals ADD COLUMN employee_count float8;
ALTER TABLE funding_rounds ADD COLUMN employee_count float8, ADD COLUMN founded_year float8;

ALTER TABLE investors DISABLE TRIGGER investors_log_update;
ALTER TABLE job_changes DISABLE TRIGGER job_changes_log_update;
ALTER TABLE acquisition_signals DISABLE TRIGGER acquisition_signals_log_update;
ALTER TABLE funding_rounds DISABLE TRIGGER funding_rounds_log_update;

-- A funding round's company size and age, from its document (JSON): the headcount of the latest
-- historical_headcount entry (of entries of one date, the last; src/datasets/funding.ts companySize).
CREATE FUNCTION funding_company_size_013(d jsonb, OUT employee_count float8, OUT founded_year float8) LANGUAGE sql STABLE AS $$
  SELECT (SELECT (h ->> 'headcount')::float8
            FROM jsonb_array_elements(CASE WHEN jsonb_typeof(d -> 'historical_headcount') = 'array'
                                           THEN d -> 'historical_headcount' ELSE '[]'::jsonb END) WITH ORDINALITY e (h, i)
           ORDER BY (h ->> 'date')::timestamptz DESC, i DESC
           LIMIT 1),
         (d -> 'company_info' ->> 'year_founded')::float8
$$;

-- One statement per table; if a document cannot be read, that table row by row.
DO $$
DECLARE
  r record;
BEGIN
  BEGIN
    UPDATE investors t
       SET name = s.d ->> 'name',
           ticket_size_min = (s.d -> 'typicalCheckSize' ->> 'min')::float8,
           ticket_size_max = (s.d -> 'typicalCheckSize' ->> 'max')::float8
      FROM (SELECT id, doc::jsonb AS d FROM investors) s
     WHERE s.id = t.id;
  EXCEPTION WHEN OTHERS THEN
    FOR r IN SELECT id FROM investors LOOP
      BEGIN
        UPDATE investors t
           SET name = s.d ->> 'name',
               ticket_size_min = (s.d -> 'typicalCheckSize' ->> 'min')::float8,
               ticket_size_max = (s.d -> 'typicalCheckSize' ->> 'max')::float8
          FROM (SELECT doc::jsonb AS d FROM investors WHERE id = r.id) s
         WHERE t.id = r.id;
      EXCEPTION WHEN OTHERS THEN NULL;
      END;
    END LOOP;
  END;

  BEGIN
    UPDATE job_changes t
       SET discovered_at = (s.d ->> 'discoveredAt')::timestamptz,
           person_name = s.d ->> 'personName',
           company_name = s.d ->> 'companyName'
      FROM (SELECT id, doc::jsonb AS d FROM job_changes) s
     WHERE s.id = t.id;
  EXCEPTION WHEN OTHERS THEN
    FOR r IN SELECT id FROM job_changes LOOP
      BEGIN
        UPDATE job_changes t
           SET discovered_at = (s.d ->> 'discoveredAt')::timestamptz,
               person_name = s.d ->> 'personName',
               company_name = s.d ->> 'companyName'
          FROM (SELECT doc::jsonb AS d FROM job_changes WHERE id = r.id) s
         WHERE t.id = r.id;
      EXCEPTION WHEN OTHERS THEN NULL;
      END;
    END LOOP;
  END;

  BEGIN
    UPDATE funding_rounds t
       SET employee_count = (funding_company_size_013(s.d)).employee_count,
           founded_year = (funding_company_size_013(s.d)).founded_year
      FROM (SELECT id, doc::jsonb AS d FROM funding_rounds) s
     WHERE s.id = t.id;
  EXCEPTION WHEN OTHERS THEN
    FOR r IN SELECT id FROM funding_rounds LOOP
      BEGIN
        UPDATE funding_rounds t
           SET employee_count = (funding_company_size_013(s.d)).employee_count,
               founded_year = (funding_company_size_013(s.d)).founded_year
          FROM (SELECT doc::jsonb AS d FROM funding_rounds WHERE id = r.id) s
         WHERE t.id = r.id;
      EXCEPTION WHEN OTHERS THEN NULL;
      END;
    END LOOP;
  END;

  BEGIN
    UPDATE acquisition_signals t
       SET employee_count = (s.d ->> 'employeeCount')::float8
      FROM (SELECT id, doc::jsonb AS d FROM acquisition_signals) s
     WHERE s.id = t.id;
  EXCEPTION WHEN OTHERS THEN
    FOR r IN SELECT id FROM acquisition_signals LOOP
      BEGIN
        UPDATE acquisition_signals t
           SET employee_count = (s.d ->> 'employeeCount')::float8
          FROM (SELECT doc::jsonb AS d FROM acquisition_signals WHERE id = r.id) s
         WHERE t.id = r.id;
      EXCEPTION WHEN OTHERS THEN NULL;
      END;
    END LOOP;
  END;
END
$$;

ALTER TABLE investors ENABLE TRIGGER investors_log_update;
ALTER TABLE job_changes ENABLE TRIGGER job_changes_log_update;
ALTER TABLE acquisition_signals ENABLE TRIGGER acquisition_signals_log_update;
ALTER TABLE funding_rounds ENABLE TRIGGER funding_rounds_log_update;
DROP FUNCTION funding_company_size_013(jsonb);
