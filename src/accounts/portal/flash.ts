// One-time results carried across a form's redirect (post/redirect/get): a new key, a webhook's
// signing secret, a test event's answer, the email just signed up with. The form's POST sets the
// flash cookie and answers 303; the GET it redirects to shows the result and clears the cookie in
// the same response, so a reload (or the back button) shows the page without it and repeats nothing.
//
// The cookie is sealed like a webhook's stored secret (services/secret-box.ts: AES-256-GCM, here
// under a key derived from the session secret for this use alone), not only signed: a key or a secret never sits readable in the browser's cookie store. It lives
// two minutes at most, is bound to the account it was made for, and names the page that shows it.
import { hkdfSync } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { NewKeyView } from './profile-page.js';
import type { RedeliveryOutcome, TestOutcome } from '../../webhooks/index.js';
import { open, seal, secretKey, type Keyring } from '../../platform/infra/index.js';
import { secureCookies } from './cookies.js';

export const FLASH_COOKIE = 'ds_flash';
/** Long enough for the redirect's GET, short enough that a forgotten flash is gone soon after. */
const FLASH_MAX_AGE_S = 120;
/** Sign-up's email is kept a little longer: the sign-in form is filled in after it is shown. */
const EMAIL_MAX_AGE_S = 15 * 60;

/** What a page shows once, by the page that shows it. */
export type Flash =
  | { page: 'account'; newKey: NewKeyView }
  | { page: 'webhook'; webhookId: string; secret: { value: string; rotated: boolean } }
  | { page: 'webhook'; webhookId: string; test: TestOutcome }
  | { page: 'webhook'; webhookId: string; redelivery: RedeliveryOutcome }
  | { page: 'login'; email: string };

interface Sealed {
  /** The account the flash was made for; null before sign-in. */
  account: number | null;
  expires: number;
  flash: Flash;
}

/**
 * A browser keeps a cookie of at most 4,096 bytes: text carried in a flash (a receiver's answer,
 * up to 1,000 characters) is cut to this many UTF-8 bytes, which leaves room for the rest.
 */
export const FLASH_TEXT_BYTES = 1500;

export function clipText(text: string, bytes = FLASH_TEXT_BYTES): string {
  if (Buffer.byteLength(text) <= bytes) return text;
  let out = '';
  let used = 0;
  for (const char of text) {
    used += Buffer.byteLength(char);
    if (used > bytes - 3) break;
    out += char;
  }
  return `${out}…`;
}

export class FlashCookie {
  private readonly keyring: Keyring;

  constructor(sessionSecret: string) {
    const key = secretKey(Buffer.from(hkdfSync('sha256', sessionSecret, 'dealsignal', 'account-pages flash cookie', 32)));
    this.keyring = { current: key, previous: [] };
  }

  set(request: FastifyRequest, reply: FastifyReply, publicUrl: string, account: number | null, flash: Flash): void {
    const maxAge = flash.page === 'login' ? EMAIL_MAX_AGE_S : FLASH_MAX_AGE_S;
    const sealed: Sealed = { account, expires: Date.now() + maxAge * 1000, flash };
    const value = seal(JSON.stringify(sealed), this.keyring.current, FLASH_COOKIE);
    reply.setCookie(FLASH_COOKIE, value, {
      path: '/',
      httpOnly: true,
      sameSite: 'lax',
      secure: secureCookies(request, publicUrl),
      maxAge,
    });
  }

  /** The flash for this page and account, if the request carries one; it is not cleared. */
  read(request: FastifyRequest, account: number | null): Flash | undefined {
    const value = request.cookies[FLASH_COOKIE];
    if (!value) return undefined;
    let sealed: Sealed;
    try {
      sealed = JSON.parse(open(value, this.keyring, FLASH_COOKIE).plaintext) as Sealed;
    } catch {
      return undefined; // Not ours, tampered with, or made with another secret.
    }
    if (sealed.expires < Date.now() || sealed.account !== account) return undefined;
    return sealed.flash;
  }

  clear(request: FastifyRequest, reply: FastifyReply, publicUrl: string): void {
    if (request.cookies[FLASH_COOKIE] === undefined) return;
    reply.clearCookie(FLASH_COOKIE, { path: '/', httpOnly: true, sameSite: 'lax', secure: secureCookies(request, publicUrl) });
  }

  /** Reads the flash and clears the cookie in this response: it is shown once. */
  take(request: FastifyRequest, reply: FastifyReply, publicUrl: string, account: number | null): Flash | undefined {
    const flash = this.read(request, account);
    this.clear(request, reply, publicUrl);
    return flash;
  }
}
