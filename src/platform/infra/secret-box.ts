// Sealing of secrets the server must read back (webhook signing secrets): AES-256-GCM with a key
// from the operator's configuration, never stored beside the data it protects, so a copy of the
// database alone reveals none of them.
//
// A sealed value is `v1:<key id>:<iv>:<ciphertext and tag>` (base64url parts). The key id names
// the key that sealed it, so after a rotation the server knows which key opens a value and which
// values still need re-sealing. The additional authenticated data binds each value to its place
// (the webhook's id): a sealed secret copied onto another row, or changed in any bit, does not open.
import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;
export const SECRET_KEY_BYTES = 32;

/** A sealed value (see the module's comment): what is stored, never usable as the secret itself. */
export type Sealed = string & { readonly __sealed: true };

export interface SecretKey {
  /** Derived from the key (a keyed hash, so it tells nothing about the key): names it in sealed values. */
  id: string;
  bytes: Buffer;
}

/** The key new values are sealed with, and the ones values sealed earlier may still be under. */
export interface Keyring {
  current: SecretKey;
  previous: SecretKey[];
}

/** Why a sealed value did not open: never "here is some other plaintext". */
export class SecretBoxError extends Error {
  override name = 'SecretBoxError';
  constructor(
    readonly reason: 'malformed' | 'unknown_key' | 'tampered',
    message: string,
  ) {
    super(message);
  }
}

export function secretKey(bytes: Buffer): SecretKey {
  if (bytes.length !== SECRET_KEY_BYTES) throw new TypeError(`a secrets key is ${SECRET_KEY_BYTES} bytes`);
  const id = createHmac('sha256', bytes).update('dealsignal secrets key id').digest().subarray(0, 6).toString('base64url');
  return { id, bytes };
}

/** The key derived from SESSION_SECRET (HKDF-SHA256) when no SECRETS_KEY is configured. */
export function derivedSecretKey(sessionSecret: string): SecretKey {
  return secretKey(
    Buffer.from(hkdfSync('sha256', sessionSecret, 'dealsignal', 'webhook signing secrets at rest', SECRET_KEY_BYTES)),
  );
}

/**
 * The keyring of the configuration: SECRETS_KEY (or, unset, the key derived from SESSION_SECRET)
 * seals; SECRETS_KEY_PREVIOUS still opens. With SECRETS_KEY set, the key derived from
 * SESSION_SECRET still opens too, so moving from the derived key to an explicit one is a restart.
 */
export function keyringOf(config: {
  secretsKey: Buffer | undefined;
  secretsKeyPrevious: Buffer | undefined;
  sessionSecret: string | undefined;
}): Keyring {
  const derived = config.sessionSecret === undefined ? undefined : derivedSecretKey(config.sessionSecret);
  const current = config.secretsKey ? secretKey(config.secretsKey) : derived;
  if (!current) throw new Error('SECRETS_KEY or SESSION_SECRET is needed to seal webhook secrets');
  const previous: SecretKey[] = [];
  for (const key of [config.secretsKeyPrevious ? secretKey(config.secretsKeyPrevious) : undefined, derived]) {
    if (key && key.id !== current.id && !previous.some((p) => p.id === key.id)) previous.push(key);
  }
  return { current, previous };
}

const aad = (keyId: string, context: string) => Buffer.from(`${VERSION}:${keyId}:${context}`, 'utf8');

/** Seals plaintext under key, bound to context (where the value is stored, e.g. a webhook's id). */
export function seal(plaintext: string, key: SecretKey, context: string): Sealed {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key.bytes, iv);
  cipher.setAAD(aad(key.id, context));
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]);
  return `${VERSION}:${key.id}:${iv.toString('base64url')}:${body.toString('base64url')}` as Sealed;
}

/** How every value sealed under this key starts (a stored value that does not is plaintext, or another key's). */
export function sealedPrefix(key: SecretKey): string {
  return `${VERSION}:${key.id}:`;
}

/** Opens a value sealed by seal() with the same context; throws SecretBoxError when it cannot. */
export function open(sealed: string, keyring: Keyring, context: string): { plaintext: string; keyId: string } {
  const parts = sealed.split(':');
  if (parts.length !== 4 || parts[0] !== VERSION) throw new SecretBoxError('malformed', 'not a sealed value');
  const [, keyId, ivText, bodyText] = parts as [string, string, string, string];
  const key = [keyring.current, ...keyring.previous].find((k) => k.id === keyId);
  if (!key) throw new SecretBoxError('unknown_key', `sealed with key ${keyId}, which is not configured`);
  const iv = Buffer.from(ivText, 'base64url');
  const body = Buffer.from(bodyText, 'base64url');
  if (iv.length !== IV_BYTES || body.length < TAG_BYTES) throw new SecretBoxError('malformed', 'not a sealed value');
  try {
    const decipher = createDecipheriv('aes-256-gcm', key.bytes, iv);
    decipher.setAAD(aad(keyId, context));
    decipher.setAuthTag(body.subarray(body.length - TAG_BYTES));
    const plaintext = Buffer.concat([decipher.update(body.subarray(0, body.length - TAG_BYTES)), decipher.final()]);
    return { plaintext: plaintext.toString('utf8'), keyId };
  } catch {
    throw new SecretBoxError('tampered', 'the sealed value was changed, or belongs elsewhere');
  }
}
