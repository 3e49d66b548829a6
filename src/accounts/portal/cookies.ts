// Cookies of the account pages: the session cookie, and a CSRF cookie for the forms shown
// before there is a session (sign-up, sign-in). Both are signed, HttpOnly and SameSite=Lax.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Tier } from '../../config.js';
import type { Queryable } from '../../platform/db/index.js';
import { randomToken, readSession, sameSecret, type SessionState } from '../web-sessions.js';
import { CSRF_FIELD, type Viewer } from '../../platform/web/index.js';

export const SESSION_COOKIE = 'ds_session';
export const FORM_CSRF_COOKIE = 'ds_csrf';
/** Long enough to fill in a form after a coffee; the token is replaced on each form shown. */
const FORM_CSRF_MAX_AGE_S = 24 * 60 * 60;

export interface SignedInSession {
  status: 'active';
  accountId: number;
  email: string;
  /** Read with the session: the account's webhook actions on these pages count against its v2 limit. */
  tier: Tier;
  csrfToken: string;
  token: string;
  viewer: Viewer;
}

export type RequestSession = SignedInSession | { status: 'expired' | 'none' };

/**
 * Secure when the request reached us over TLS, or when the service's public URL is https (a
 * TLS-terminating proxy in front). trustProxy is off, so X-Forwarded-Proto is not believed.
 */
export function secureCookies(request: FastifyRequest, publicUrl: string): boolean {
  return request.protocol === 'https' || publicUrl.startsWith('https:');
}

function cookieOptions(request: FastifyRequest, publicUrl: string, maxAgeSeconds: number) {
  return {
    path: '/',
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: secureCookies(request, publicUrl),
    signed: true,
    maxAge: maxAgeSeconds,
  };
}

function signedCookie(request: FastifyRequest, name: string): string | undefined {
  const value = request.cookies[name];
  if (!value) return undefined;
  const unsigned = request.unsignCookie(value);
  return unsigned.valid && unsigned.value !== null ? unsigned.value : undefined;
}

export function setSessionCookie(request: FastifyRequest, reply: FastifyReply, publicUrl: string, token: string, ttlMs: number) {
  reply.setCookie(SESSION_COOKIE, token, cookieOptions(request, publicUrl, Math.floor(ttlMs / 1000)));
}

export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply, publicUrl: string) {
  reply.clearCookie(SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'lax', secure: secureCookies(request, publicUrl) });
}

const sessions = new WeakMap<FastifyRequest, Promise<RequestSession>>();

/** The visitor's session, looked up once per request. */
export function requestSession(request: FastifyRequest, db: Queryable): Promise<RequestSession> {
  let session = sessions.get(request);
  if (!session) {
    session = lookup(request, db);
    sessions.set(request, session);
  }
  return session;
}

async function lookup(request: FastifyRequest, db: Queryable): Promise<RequestSession> {
  const token = signedCookie(request, SESSION_COOKIE);
  const state: SessionState = await readSession(db, token);
  if (state.status !== 'active') return state;
  return { ...state, token: token!, viewer: { email: state.email, csrfToken: state.csrfToken } };
}

/** The CSRF token a form posts back, if any. */
export function postedCsrf(body: unknown): string | undefined {
  const value = (body as Record<string, unknown> | undefined)?.[CSRF_FIELD];
  return typeof value === 'string' ? value : undefined;
}

/** Sign-up and sign-in forms: the token lives in a signed cookie and in the form (double submit). */
export function issueFormCsrf(request: FastifyRequest, reply: FastifyReply, publicUrl: string, fresh = false): string {
  const token = (!fresh && signedCookie(request, FORM_CSRF_COOKIE)) || randomToken();
  reply.setCookie(FORM_CSRF_COOKIE, token, cookieOptions(request, publicUrl, FORM_CSRF_MAX_AGE_S));
  return token;
}

export function formCsrfValid(request: FastifyRequest): boolean {
  const expected = signedCookie(request, FORM_CSRF_COOKIE);
  return expected !== undefined && sameSecret(postedCsrf(request.body), expected);
}

export function sessionCsrfValid(request: FastifyRequest, session: SignedInSession): boolean {
  return sameSecret(postedCsrf(request.body), session.csrfToken);
}
