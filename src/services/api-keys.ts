import { createHash, randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';

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
