-- Webhook signing secrets are stored sealed (AES-256-GCM, src/services/secret-box.ts) with a key
-- from the operator's configuration, which SQL does not have: the server seals the secrets still
-- stored in plaintext when it starts (sealStoredSecrets in src/services/webhook-secrets.ts), and
-- webhooks.secret holds `v1:<key id>:<iv>:<ciphertext and tag>` from then on.
--
-- What the API and the profile page show of a secret (its last 4 characters) is kept beside it,
-- so listing webhooks needs no key and never opens a secret.
ALTER TABLE webhooks ADD COLUMN secret_last4 text NOT NULL DEFAULT '';
UPDATE webhooks SET secret_last4 = right(secret, 4) WHERE secret LIKE 'whsec\_%';
