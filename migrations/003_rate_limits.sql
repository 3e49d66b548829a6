-- An enterprise arrangement may raise an account's v1 limit; null means the default.
ALTER TABLE accounts ADD COLUMN v1_rate_limit integer CHECK (v1_rate_limit > 0);
