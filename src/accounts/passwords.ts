import { randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import type { ZxcvbnFactory } from '@zxcvbn-ts/core';

// Password hashes are stored as "scrypt$N$r$p$salt$hash" (salt and hash in base64), so the
// cost can be raised later without invalidating existing hashes.

export const PASSWORD_MIN_LENGTH = 12;
/** Long enough for any passphrase; bounded so a huge body cannot buy a long hash. */
export const PASSWORD_MAX_LENGTH = 200;

/**
 * N = 2^15, r = 8, p = 1: 32 MiB and ~100-200 ms per hash on a small server. The work runs on
 * libuv's thread pool, so it does not block the event loop; login attempts are rate limited.
 */
const COST = { N: 2 ** 15, r: 8, p: 1 } as const;
const SALT_BYTES = 16;
const HASH_BYTES = 32;
/** Upper bounds for parameters read back from a stored hash. */
const MAX_N = 2 ** 20;
const MAX_R = 32;
const MAX_P = 16;

function scrypt(password: string, salt: Buffer, length: number, options: ScryptOptions): Promise<Buffer> {
  // 128 * N * r is scrypt's memory need; Node's default cap (32 MiB) is exactly N=2^15, r=8.
  const maxmem = 256 * (options.N ?? COST.N) * (options.r ?? COST.r) + 1024 * 1024;
  return new Promise((resolve, reject) => {
    scryptCallback(password.normalize('NFKC'), salt, length, { ...options, maxmem }, (err, key) =>
      err ? reject(err) : resolve(key),
    );
  });
}

/** Why a password's length is refused, or null when it is acceptable. */
export function passwordProblem(password: string): string | null {
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH) return `Use at least ${PASSWORD_MIN_LENGTH} characters for your password.`;
  if (length > PASSWORD_MAX_LENGTH) return `Use at most ${PASSWORD_MAX_LENGTH} characters for your password.`;
  return null;
}

/**
 * zxcvbn's score of 0-4: 3 means about 10^8 to 10^10 guesses, out of reach of online guessing
 * (sign-in is rate limited) and costly offline against scrypt.
 */
export const MIN_PASSWORD_SCORE = 3;

/**
 * The estimate's cost grows steeply with length (seconds for 200 random characters, on the event
 * loop), so only the first characters are estimated: a prefix that is hard to guess makes the
 * whole password hard to guess. l33t substitutions are capped for the same reason.
 */
const ESTIMATED_LENGTH = 64;
const MAX_L33T_SUBSTITUTIONS = 10;

let estimator: Promise<ZxcvbnFactory> | undefined;

/**
 * Loads the password dictionaries (common passwords, English words and names) once. It takes
 * about half a second of CPU, so the app loads them while it is built: no request waits for
 * them, and commands that never serve never load them.
 */
export function loadPasswordEstimator(): Promise<ZxcvbnFactory> {
  estimator ??= (async () => {
    const [{ ZxcvbnFactory }, common, en] = await Promise.all([
      import('@zxcvbn-ts/core'),
      import('@zxcvbn-ts/language-common'),
      import('@zxcvbn-ts/language-en'),
    ]);
    return new ZxcvbnFactory({
      dictionary: { ...common.dictionary, ...en.dictionary },
      graphs: common.adjacencyGraphs,
      translations: en.translations,
      maxLength: ESTIMATED_LENGTH,
      l33tMaxSubstitutions: MAX_L33T_SUBSTITUTIONS,
    });
  })();
  return estimator;
}

/**
 * Why a new password is too easy to guess, with the estimator's advice, or null when it is
 * strong enough. userInputs are words an attacker would try first for this user (the parts of
 * their email address, the service's name). Offline: nothing leaves the process.
 */
export async function weakPasswordProblem(password: string, userInputs: readonly string[]): Promise<string | null> {
  const result = (await loadPasswordEstimator()).check(password, [...userInputs]);
  if (result.score >= MIN_PASSWORD_SCORE) return null;
  const { warning, suggestions } = result.feedback;
  const advice = [warning, ...suggestions].filter((line): line is string => Boolean(line));
  if (advice.length === 0) advice.push('Add a few more words.');
  return `This password is too easy to guess. ${advice.join(' ')}`;
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const hash = await scrypt(password, salt, HASH_BYTES, COST);
  return ['scrypt', COST.N, COST.r, COST.p, salt.toString('base64'), hash.toString('base64')].join('$');
}

interface ParsedHash {
  N: number;
  r: number;
  p: number;
  salt: Buffer;
  hash: Buffer;
}

function parseHash(stored: string): ParsedHash | null {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return null;
  const [N, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
  const valid =
    Number.isInteger(N) &&
    N > 1 &&
    N <= MAX_N &&
    (N & (N - 1)) === 0 &&
    Number.isInteger(r) &&
    r >= 1 &&
    r <= MAX_R &&
    Number.isInteger(p) &&
    p >= 1 &&
    p <= MAX_P;
  if (!valid) return null;
  const hash = Buffer.from(parts[5]!, 'base64');
  return hash.length < 16 || hash.length > 64 ? null : { N, r, p, salt: Buffer.from(parts[4]!, 'base64'), hash };
}

// Verified against when the email is unknown or has no password, so a wrong email costs the
// same time as a wrong password and response times do not reveal which emails exist.
let decoyHash: Promise<string> | undefined;
const decoy = () => (decoyHash ??= hashPassword(randomBytes(24).toString('base64')));

/** True when password matches stored. With stored null, spends the same time and answers false. */
export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  if (password.length > PASSWORD_MAX_LENGTH * 4) return false;
  const parsed = parseHash(stored ?? (await decoy()));
  if (!parsed) return false;
  const candidate = await scrypt(password, parsed.salt, parsed.hash.length, { N: parsed.N, r: parsed.r, p: parsed.p });
  const matches = timingSafeEqual(candidate, parsed.hash);
  return matches && stored !== null;
}
