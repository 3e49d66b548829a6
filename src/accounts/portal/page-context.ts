import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppServices } from '../../app-services.js';
import type { WebLimits } from '../accounts.js';
import type { FormProblem } from '../form-outcomes.js';
import type { Assets } from '../../platform/web/index.js';
import type { PageContext } from '../../platform/web/index.js';
import { loginPage } from './sign-in-pages.js';
import { clearSessionCookie, issueFormCsrf, type RequestSession } from './cookies.js';
import type { FlashCookie } from './flash.js';

/**
 * The shared services the account pages use (and nothing more). Without the webhook service the
 * profile page has no webhooks section and the webhook pages are not registered (nor the enrichment
 * card without the enrichment service); without the
 * limiter (rate limits off) their actions are not metered.
 */
export type AccountServices = Pick<AppServices, 'config' | 'db' | 'keys' | 'credits' | 'usage' | 'rateLimitStore'> &
  Partial<Pick<AppServices, 'webhooks' | 'enrichment' | 'monitors' | 'limiter' | 'metrics'>>;

/** What every account route needs, resolved once at registration. */
export interface WebDeps {
  services: AccountServices;
  assets: Assets;
  rollGraceMs: number;
  sessionTtlMs: number;
  limits: WebLimits;
  /** One-time results carried across a form's redirect (see flash.ts). */
  flash: FlashCookie;
}

/** HTTP status of a refused form, by the kind of problem. */
export const PROBLEM_STATUS: Record<FormProblem['kind'], number> = {
  invalid: 422,
  unauthorized: 401,
  limited: 429,
};

export const CSRF_PROBLEM: FormProblem = {
  kind: 'invalid',
  message: 'This form has expired or was sent from somewhere else, so nothing was changed. Please try again.',
};
export const CSRF_STATUS = 403;

export function pageContext(deps: WebDeps, request: FastifyRequest, session: RequestSession): PageContext {
  return {
    assets: deps.assets,
    viewer: session.status === 'active' ? session.viewer : null,
    path: request.url.split('?')[0]!,
  };
}

/** Pages can carry a key shown once, CSRF tokens and account data: never stored by any cache. */
export function sendPage(reply: FastifyReply, status: number, page: string) {
  return reply.code(status).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(page);
}

export type LoginReason = 'expired' | 'signed-out' | 'required' | 'signed-up';

// A Map, not an object literal: a reason from the query string must never reach an inherited
// property ("constructor", "__proto__", "toString").
const LOGIN_NOTICES: ReadonlyMap<string, string> = new Map<LoginReason, string>([
  ['expired', 'Your session has expired. Please sign in again.'],
  ['signed-out', 'You have signed out.'],
  ['required', 'Please sign in to continue.'],
  // Shown after every sign-up, whether the email was new or already had an account.
  [
    'signed-up',
    'Thanks for signing up. Sign in with your email and password to continue. ' +
      'If this email already had an account, nothing about it has changed: use the password you already have.',
  ],
]);

export function loginNotice(reason: unknown): string | null {
  return (typeof reason === 'string' && LOGIN_NOTICES.get(reason)) || null;
}

/**
 * A page that needs a session was asked for without one. GETs go to the sign-in page; a form
 * post gets the sign-in form straight away, saying why, and nothing it asked for is done.
 */
export function signInFirst(deps: WebDeps, request: FastifyRequest, reply: FastifyReply, session: RequestSession) {
  const reason: LoginReason = session.status === 'expired' ? 'expired' : 'required';
  if (session.status === 'expired') clearSessionCookie(request, reply, deps.services.config.publicUrl);
  if (request.method === 'GET' || request.method === 'HEAD') {
    return reply.redirect(session.status === 'expired' ? '/login?reason=expired' : '/login', 303);
  }
  const csrfToken = issueFormCsrf(request, reply, deps.services.config.publicUrl);
  const page = loginPage(pageContext(deps, request, { status: 'none' }), { csrfToken, notice: loginNotice(reason) });
  return sendPage(reply, 401, page);
}
