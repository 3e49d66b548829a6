-- Company links (src/companies): each record that names a company keeps the id of the company it
-- was resolved to, a filter column of its own (company_id on every v2 list) besides the field its
-- served document carries. Companies keep their normalised name (name matching) and where they
-- came from: a companies import, or records that named a company no one had imported.
ALTER TABLE companies ADD COLUMN name_key text, ADD COLUMN origin text NOT NULL DEFAULT 'import';
ALTER TABLE companies ADD CONSTRAINT companies_origin CHECK (origin IN ('import', 'records'));
CREATE INDEX companies_name ON companies (name_key);
ALTER TABLE companies_stage ADD COLUMN name_key text, ADD COLUMN origin text;

ALTER TABLE funding_rounds ADD COLUMN company_id uuid;
ALTER TABLE funding_rounds_stage ADD COLUMN company_id uuid;
CREATE INDEX funding_company ON funding_rounds (company_id);

ALTER TABLE ma_deals ADD COLUMN company_id uuid, ADD COLUMN acquirer_company_id uuid;
ALTER TABLE ma_deals_stage ADD COLUMN company_id uuid, ADD COLUMN acquirer_company_id uuid;
CREATE INDEX ma_deals_company ON ma_deals (company_id);
CREATE INDEX ma_deals_acquirer_company ON ma_deals (acquirer_company_id);

ALTER TABLE investors ADD COLUMN company_id uuid;
ALTER TABLE investors_stage ADD COLUMN company_id uuid;
CREATE INDEX investors_company ON investors (company_id);

ALTER TABLE job_changes ADD COLUMN company_id uuid, ADD COLUMN previous_company_id uuid;
ALTER TABLE job_changes_stage ADD COLUMN company_id uuid, ADD COLUMN previous_company_id uuid;
CREATE INDEX job_changes_company ON job_changes (company_id);
CREATE INDEX job_changes_previous_company ON job_changes (previous_company_id);

ALTER TABLE acquisition_signals ADD COLUMN company_id uuid;
ALTER TABLE acquisition_signals_stage ADD COLUMN company_id uuid;
CREATE INDEX acquisition_signals_company ON acquisition_signals (company_id);
