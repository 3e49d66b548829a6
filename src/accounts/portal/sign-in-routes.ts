// /signup, /login and /logout.
import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { logIn, signUp } from '../accounts.js';
import type { FormProblem } from '../form-outcomes.js';
import { createSession, endSession } from '../web-sessions.js';
import { loginPage, logoutPage, signupPage } from './sign-in-pages.js';
import { CSRF_PROBLEM, CSRF_STATUS, loginNotice, PROBLEM_STATUS, pageContext, sendPage, type WebDeps } from './page-context.js';
import {
  clearSessionCookie,
  formCsrfValid,
  issueFormCsrf,
  requestSession,
  sessionCsrfValid,
  setSessionCookie,
} from './cookies.js';

// Bounds well above any real value: the services give the precise messages.
const CredentialsBody = Type.Object({
  _csrf: Type.Optional(Type.String({ maxLength: 200 })),
  email: Type.Optional(Type.String({ maxLength: 1000 })),
  password: Type.Optional(Type.String({ maxLength: 1000 })),
});
type CredentialsBody = Static<typeof CredentialsBody>;

const LogoutBody = Type.Object({ _csrf: Type.Optional(Type.String({ maxLength: 200 })) });
const LoginQuery = Type.Object({ reason: Type.Optional(Type.String({ maxLength: 40 })) });

const FORM_LIMITS = { bodyLimit: 16 * 1024 };

export function authRoutes(app: FastifyInstance, deps: WebDeps): void {
  const { db, config, rateLimitStore } = deps.services;

  async function startSession(request: FastifyRequest, reply: FastifyReply, accountId: number) {
    // Every sign-in gets a new session (no fixation); one this browser already had ends.
    const previous = await requestSession(request, db);
    if (previous.status === 'active') await endSession(db, previous.token);
    const session = await createSession(db, accountId, deps.sessionTtlMs);
    setSessionCookie(request, reply, config.publicUrl, session.token, deps.sessionTtlMs);
  }

  /** The form again, with the email as typed and why it was refused. */
  function formAgain(
    render: typeof signupPage,
    request: FastifyRequest<{ Body: CredentialsBody }>,
    reply: FastifyReply,
    status: number,
    problem: FormProblem,
  ) {
    // After a CSRF failure the old token is not trusted again.
    const csrfToken = issueFormCsrf(request, reply, config.publicUrl, status === CSRF_STATUS);
    const ctx = pageContext(deps, request, { status: 'none' });
    return sendPage(reply, status, render(ctx, { csrfToken, email: request.body.email ?? '', problem }));
  }

  app.get('/signup', async (request, reply) => {
    const session = await requestSession(request, db);
    if (session.status === 'active') return reply.redirect('/account', 303);
    const csrfToken = issueFormCsrf(request, reply, config.publicUrl);
    return sendPage(reply, 200, signupPage(pageContext(deps, request, session), { csrfToken }));
  });

  app.post<{ Body: CredentialsBody }>(
    '/signup',
    { schema: { body: CredentialsBody }, ...FORM_LIMITS },
    async (request, reply) => {
      if (!formCsrfValid(request)) return formAgain(signupPage, request, reply, CSRF_STATUS, CSRF_PROBLEM);
      const { email = '', password = '' } = request.body;
      const result = await signUp(db, rateLimitStore, deps.limits, { email, password, ip: request.ip });
      if (!result.ok) return formAgain(signupPage, request, reply, PROBLEM_STATUS[result.problem.kind], result.problem);
      // The same answer whether the email was new or not; no session, so no cookie tells them apart
      // (the flash carrying the email for the sign-in form is set either way).
      deps.flash.set(request, reply, config.publicUrl, null, { page: 'login', email });
      return reply.redirect('/login?reason=signed-up', 303);
    },
  );

  app.get<{ Querystring: Static<typeof LoginQuery> }>(
    '/login',
    { schema: { querystring: LoginQuery } },
    async (request, reply) => {
      const session = await requestSession(request, db);
      if (session.status === 'active') return reply.redirect('/account', 303);
      const csrfToken = issueFormCsrf(request, reply, config.publicUrl);
      const notice = loginNotice(request.query.reason);
      // Just signed up: the sign-in form comes with that email (kept until sign-in, so a reload keeps it too).
      const flash = deps.flash.read(request, null);
      const email = flash?.page === 'login' ? flash.email : undefined;
      return sendPage(reply, 200, loginPage(pageContext(deps, request, session), { csrfToken, notice, email }));
    },
  );

  app.post<{ Body: CredentialsBody }>('/login', { schema: { body: CredentialsBody }, ...FORM_LIMITS }, async (request, reply) => {
    if (!formCsrfValid(request)) return formAgain(loginPage, request, reply, CSRF_STATUS, CSRF_PROBLEM);
    const { email = '', password = '' } = request.body;
    const result = await logIn(db, rateLimitStore, deps.limits, { email, password, ip: request.ip });
    if (!result.ok) return formAgain(loginPage, request, reply, PROBLEM_STATUS[result.problem.kind], result.problem);
    await startSession(request, reply, result.accountId);
    deps.flash.clear(request, reply, config.publicUrl);
    return reply.redirect('/account', 303);
  });

  app.get('/logout', async (request, reply) => {
    const session = await requestSession(request, db);
    if (session.status !== 'active') return reply.redirect('/login', 303);
    return sendPage(reply, 200, logoutPage({ ...pageContext(deps, request, session), viewer: session.viewer }));
  });

  app.post('/logout', { schema: { body: LogoutBody }, ...FORM_LIMITS }, async (request, reply) => {
    const session = await requestSession(request, db);
    if (session.status !== 'active') {
      clearSessionCookie(request, reply, config.publicUrl);
      return reply.redirect('/login', 303);
    }
    if (!sessionCsrfValid(request, session)) {
      const ctx = { ...pageContext(deps, request, session), viewer: session.viewer };
      return sendPage(reply, CSRF_STATUS, logoutPage(ctx, CSRF_PROBLEM.message));
    }
    await endSession(db, session.token);
    clearSessionCookie(request, reply, config.publicUrl);
    return reply.redirect('/login?reason=signed-out', 303);
  });
}
