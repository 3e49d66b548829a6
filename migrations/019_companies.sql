-- Companies (src/catalog/datasets/companies.ts): one row per company, its import stage (017), its
-- change log (018). website_key and linkedin_key are the company's domain and LinkedIn page as
-- urlKey normalises them: what records naming a company are matched on.
CREATE TABLE companies (
  id                bigserial PRIMARY KEY,
  record_id         uuid NOT NULL UNIQUE,
  name              text NOT NULL,
  search_text       text NOT NULL,
  country_key       text,
  industry_key      text,
  category_keys     text[] NOT NULL DEFAULT '{}',
  subcategory       text,
  employee_count    float8,
  founded_year      float8,
  website_key       text,
  linkedin_key      text,
  sort_at           timestamptz NOT NULL,
  doc               text NOT NULL
);
CREATE INDEX companies_website ON companies (website_key);
CREATE INDEX companies_linkedin ON companies (linkedin_key);

CREATE UNLOGGED TABLE companies_stage AS
  SELECT NULL::uuid AS import_id, 0 AS batch, record_id, name, search_text, country_key, industry_key, category_keys,
         subcategory, employee_count, founded_year, website_key, linkedin_key, sort_at, doc
    FROM companies WITH NO DATA;
CREATE INDEX companies_stage_import ON companies_stage (import_id, batch);

SELECT attach_change_log('companies', 'companies', 'record_id');
