import type { Tier } from '../config.js';
import type { Queryable } from '../db/port.js';
import { insertApiKey, upsertAccount, type ApiKeyRow } from '../db/queries/accounts.js';
import { displayParts, generateApiKey, generateKeyId, hashApiKey } from './api-keys.js';

export interface CreatedKey {
  /** The full key: shown once, never stored. */
  key: string;
  id: string;
  name: string;
  email: string;
  accountId: number;
  tier: Tier;
  prefix: string;
  last4: string;
  createdAt: string;
}

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function normaliseEmail(email: string): string {
  const value = email.trim().toLowerCase();
  if (!EMAIL_PATTERN.test(value)) throw new Error(`not a valid email address: ${email}`);
  return value;
}

/** Creates the account if needed (tier applied when given) and a new key for it. */
export async function createApiKey(db: Queryable, options: { email: string; tier?: Tier; name?: string }): Promise<CreatedKey> {
  const account = await upsertAccount(db, normaliseEmail(options.email), options.tier);
  const key = generateApiKey();
  const row: ApiKeyRow = await insertApiKey(db, {
    id: generateKeyId(),
    accountId: account.id,
    name: options.name?.trim() || 'default',
    hash: hashApiKey(key),
    ...displayParts(key),
  });
  return {
    key,
    id: row.id,
    name: row.name,
    email: account.email,
    accountId: account.id,
    tier: account.tier,
    prefix: row.prefix,
    last4: row.last4,
    createdAt: row.created_at,
  };
}
