// API keys: their format (checked offline), and every way one is made, shown, rolled or revoked,
// whoever asks: the operator's command (any account, by email) and an account's own pages
// (only that account's keys: every function taking an accountId touches no other row).
import { createHash, randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';
import type { Tier } from '../config.js';
import type { Database, Queryable } from '../platform/db/index.js';
import { upsertAccount } from './account-queries.js';
import {
  countUsableKeys,
  expireAccountKey,
  findAccountKey,
  insertApiKey,
  listAccountKeys,
  revokeApiKey,
  type AccountKeyRow,
  type ApiKeyRow,
} from './api-key-queries.js';
import { normaliseEmail } from '../catalog/index.js';
import { fail, type Outcome } from './form-outcomes.js';

export const KEY_NAME_MAX_LENGTH = 60;
/** Keys that still work, per account: plenty for environments and rotation, bounded against abuse. */
export const MAX_USABLE_KEYS = 25;
export const DEFAULT_ROLL_GRACE_MS = 24 * 60 * 60 * 1000;

/** Where verified keys are remembered (the key verifier): a key that changes is dropped from it. */
export interface VerifiedKeys {
  evict(keyHash: string): void;
}

// Key format: "ds_" + 32 random base62 characters + 6-character base62 CRC32 of the body.
// The checksum lets us refuse a mistyped or made-up key without a database lookup.
export const KEY_PREFIX = 'ds_';
const BODY_LENGTH = 32;
const CHECKSUM_LENGTH = 6;
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const KEY_PATTERN = new RegExp(`^${KEY_PREFIX}[0-9A-Za-z]{${BODY_LENGTH + CHECKSUM_LENGTH}}$`);

function base62(bytes: Buffer, length: number): string {
  let out = '';
  // Rejection sampling keeps every character uniformly distributed.
  let pool = bytes;
  while (out.length < length) {
    for (const byte of pool) {
      if (byte < 248) out += ALPHABET[byte % 62];
      if (out.length === length) break;
    }
    pool = randomBytes(length);
  }
  return out;
}

function encodeChecksum(value: number): string {
  let n = value >>> 0;
  let out = '';
  for (let i = 0; i < CHECKSUM_LENGTH; i++) {
    out = ALPHABET[n % 62] + out;
    n = Math.floor(n / 62);
  }
  return out;
}

function checksumOf(body: string): string {
  return encodeChecksum(crc32(KEY_PREFIX + body));
}

export function generateApiKey(): string {
  const body = base62(randomBytes(BODY_LENGTH * 2), BODY_LENGTH);
  return KEY_PREFIX + body + checksumOf(body);
}

/** True when the key has the right shape and its checksum matches. No I/O. */
export function isWellFormedApiKey(key: string): boolean {
  if (!KEY_PATTERN.test(key)) return false;
  const body = key.slice(KEY_PREFIX.length, KEY_PREFIX.length + BODY_LENGTH);
  return key.endsWith(checksumOf(body));
}

/** Keys are long and random, so one SHA-256 is enough; only this hash is ever stored. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** What the keys table shows instead of the key: "ds_AbCd" and the last 4 characters. */
export function displayParts(key: string): { prefix: string; last4: string } {
  return { prefix: key.slice(0, KEY_PREFIX.length + 4), last4: key.slice(-4) };
}

export function generateKeyId(): string {
  return 'key_' + base62(randomBytes(32), 16);
}

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

/** Creates the account if needed (tier applied when given) and a new key for it: the operator's command. */
export async function createApiKey(db: Queryable, options: { email: string; tier?: Tier; name?: string }): Promise<CreatedKey> {
  const account = await upsertAccount(db, normaliseEmail(options.email), options.tier);
  const { key, row } = await issueKey(db, account.id, options.name?.trim() || 'default');
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

export type KeyStatus =
  { kind: 'active' } | { kind: 'expiring'; at: string } | { kind: 'expired'; at: string } | { kind: 'revoked'; at: string };

export interface AccountKey {
  id: string;
  name: string;
  prefix: string;
  last4: string;
  createdAt: string;
  lastUsedAt: string | null;
  status: KeyStatus;
}

function keyStatus(row: AccountKeyRow): KeyStatus {
  if (row.revoked_at) return { kind: 'revoked', at: row.revoked_at };
  if (row.expires_at) return row.expired ? { kind: 'expired', at: row.expires_at } : { kind: 'expiring', at: row.expires_at };
  return { kind: 'active' };
}

function toAccountKey(row: AccountKeyRow): AccountKey {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    last4: row.last4,
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
    status: keyStatus(row),
  };
}

export const isUsable = (key: AccountKey) => key.status.kind === 'active' || key.status.kind === 'expiring';

/** The account's keys as its pages show them, newest first. */
export async function listOwnKeys(db: Queryable, accountId: number): Promise<AccountKey[]> {
  return (await listAccountKeys(db, accountId)).map(toAccountKey);
}

export interface IssuedKey {
  /** The full key: shown once in the response, never stored. */
  key: string;
  row: ApiKeyRow;
}

function keyNameProblem(name: string): string | null {
  if ([...name].length > KEY_NAME_MAX_LENGTH) return `Key names are at most ${KEY_NAME_MAX_LENGTH} characters.`;
  if (/[\p{Cc}]/u.test(name)) return 'Key names cannot contain control characters.';
  return null;
}

async function issueKey(db: Queryable, accountId: number, name: string): Promise<IssuedKey> {
  const key = generateApiKey();
  const row = await insertApiKey(db, { id: generateKeyId(), accountId, name, hash: hashApiKey(key), ...displayParts(key) });
  return { key, row };
}

export async function createKey(db: Queryable, accountId: number, rawName: string): Promise<Outcome<IssuedKey>> {
  const name = rawName.trim() || 'Default key';
  const badName = keyNameProblem(name);
  if (badName) return fail({ kind: 'invalid', field: 'name', message: badName });
  // Count then insert is not atomic; two simultaneous creates may end one over the cap, which is harmless.
  if ((await countUsableKeys(db, accountId)) >= MAX_USABLE_KEYS) {
    return fail({
      kind: 'invalid',
      field: 'name',
      message: `You already have ${MAX_USABLE_KEYS} working keys. Revoke one you no longer use first.`,
    });
  }
  return { ok: true, ...(await issueKey(db, accountId, name)) };
}

export type KeyChange<T> = ({ ok: true } & T) | { ok: false; reason: 'not_found' | 'not_usable' };

/** The key as the account sees it, or undefined when it is not one of the account's keys. */
export async function findOwnKey(db: Queryable, accountId: number, keyId: string): Promise<AccountKey | undefined> {
  const row = await findAccountKey(db, accountId, keyId);
  return row && toAccountKey(row);
}

/**
 * Rolls a key: a new key with the same name, and the old one keeps working for graceMs, then
 * stops (the key verifier refuses keys past expires_at). Both happen in one transaction.
 */
export async function rollKey(
  db: Database,
  keys: VerifiedKeys,
  accountId: number,
  keyId: string,
  graceMs = DEFAULT_ROLL_GRACE_MS,
): Promise<KeyChange<IssuedKey & { oldKeyExpiresAt: string }>> {
  const result = await db.transaction(
    async (tx): Promise<KeyChange<IssuedKey & { old: { key_hash: string; expires_at: string } }>> => {
      const old = await expireAccountKey(tx, accountId, keyId, graceMs);
      if (!old) return { ok: false, reason: (await findAccountKey(tx, accountId, keyId)) ? 'not_usable' : 'not_found' };
      return { ok: true, old, ...(await issueKey(tx, accountId, old.name)) };
    },
  );
  if (!result.ok) return result;
  // The verifier caches the old key's expiry; drop it so a short grace is exact on this instance.
  keys.evict(result.old.key_hash);
  return { ok: true, key: result.key, row: result.row, oldKeyExpiresAt: result.old.expires_at };
}

/** Revokes one of the account's keys: it stops at once on this instance (cache evicted), within the key cache time elsewhere. */
export async function revokeKey(db: Queryable, keys: VerifiedKeys, accountId: number, keyId: string): Promise<KeyChange<object>> {
  const revoked = await revokeApiKey(db, keyId, accountId);
  if (!revoked) return { ok: false, reason: 'not_found' };
  keys.evict(revoked.key_hash);
  return { ok: true };
}
