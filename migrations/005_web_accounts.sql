-- Sign-in for the account pages. Accounts created with the CLI have no password and cannot
-- sign in; signing up with their email is refused rather than taking them over.
ALTER TABLE accounts ADD COLUMN password_hash text;

-- A browser session. The cookie carries a random 32-byte token; only its SHA-256 is stored
-- here, so a copy of this table cannot be replayed as cookies. A session ends at expires_at
-- (an absolute lifetime from sign-in) or when revoked_at is set (sign-out).
CREATE TABLE web_sessions (
  id          text PRIMARY KEY,
  account_id  bigint NOT NULL REFERENCES accounts (id),
  csrf_token  text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  expires_at  timestamptz NOT NULL,
  revoked_at  timestamptz
);
CREATE INDEX web_sessions_account ON web_sessions (account_id, expires_at);
