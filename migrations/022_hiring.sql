-- Hiring signals (src/catalog/datasets/hiring.ts): open job postings, their import stage (017), their
-- change log (018). The filter columns are what the in-memory index reads; the job description lives
-- only in the document, and PostgreSQL's full-text search answers `description` from an expression
-- index over it (English configuration: stemmed, stop words dropped), so the text is stored once and
-- the index never holds its words.
CREATE TABLE hiring_postings (
  id                bigserial PRIMARY KEY,
  record_id         uuid NOT NULL UNIQUE,
  country_keys      text[] NOT NULL DEFAULT '{}',
  job_country_key   text,
  state_key         text,
  place_text        text NOT NULL,
  category_keys     text[] NOT NULL DEFAULT '{}',
  subcategory       text,
  position          text,
  departments       text[] NOT NULL DEFAULT '{}',
  seniority         text,
  team_size         text,
  applicants        text,
  company_name_text text NOT NULL,
  search_text       text NOT NULL,
  title             text NOT NULL,
  company_name      text NOT NULL,
  location          text,
  date_posted       timestamptz,
  expires_at        timestamptz NOT NULL,
  company_id        uuid,
  sort_at           timestamptz NOT NULL,
  doc               text NOT NULL
);
CREATE INDEX hiring_postings_company ON hiring_postings (company_id);
CREATE INDEX hiring_postings_description ON hiring_postings
  USING gin (to_tsvector('english'::regconfig, coalesce(doc::json ->> 'descriptionText', '')));

CREATE UNLOGGED TABLE hiring_postings_stage AS
  SELECT NULL::uuid AS import_id, 0 AS batch, record_id, country_keys, job_country_key, state_key, place_text,
         category_keys, subcategory, position, departments, seniority, team_size, applicants, company_name_text,
         search_text, title, company_name, location, date_posted, expires_at, company_id, sort_at, doc
    FROM hiring_postings WITH NO DATA;
CREATE INDEX hiring_postings_stage_import ON hiring_postings_stage (import_id, batch);

SELECT attach_change_log('hiring_postings', 'hiring', 'record_id');
