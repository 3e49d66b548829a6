// The home page, the profile page and the key actions. Key routes find the key among the
// signed-in account's own keys first: another account's key id is a 404, never a change.
import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { loadProfile } from '../accounts.js';
import { createKey, findOwnKey, revokeKey, rollKey, type AccountKey } from '../api-keys.js';
import type { FormProblem } from '../form-outcomes.js';
import { accountPage, type NewKeyView } from './profile-page.js';
import { errorPage } from '../../platform/web/index.js';
import { homePage } from './home-page.js';
import { confirmKeyActionPage, type KeyAction } from './keys-page.js';
import { WEBHOOKS_ON_PROFILE, type FieldProblem, type WebhookFormValues } from '../../webhooks/index.js';
import { CSRF_PROBLEM, CSRF_STATUS, PROBLEM_STATUS, pageContext, sendPage, signInFirst, type WebDeps } from './page-context.js';
import { requestSession, sessionCsrfValid, type SignedInSession } from './cookies.js';
import { webhookPortalRoutes } from '../../webhooks/index.js';
import { enrichmentPortalRoutes } from '../../enrichment/index.js';
import { monitorPortalRoutes } from '../../monitors/index.js';

const CsrfBody = Type.Object({ _csrf: Type.Optional(Type.String({ maxLength: 200 })) });
const CreateKeyBody = Type.Object({
  _csrf: Type.Optional(Type.String({ maxLength: 200 })),
  name: Type.Optional(Type.String({ maxLength: 1000 })),
});
const AccountQuery = Type.Object({ notice: Type.Optional(Type.String({ maxLength: 40 })) });
type KeyParams = { id: string };

const FORM_LIMITS = { bodyLimit: 16 * 1024 };
const KEY_ID = /^key_[0-9A-Za-z]{16}$/;

// A Map: a notice named in the query string is looked up among these keys only, never among
// an object's inherited properties ("constructor", "__proto__").
const NOTICES: ReadonlyMap<string, string> = new Map([
  ['revoked', 'Key revoked. Requests made with it are refused from now on.'],
  ['webhook-deleted', 'Webhook deleted. No more events are sent to it.'],
]);

interface AccountExtras {
  newKey?: NewKeyView;
  notice?: string | null;
  problem?: FormProblem;
  keyName?: string;
  /** The create-webhook form as typed, when it was refused, and why. */
  webhookForm?: { values: WebhookFormValues; problem: FieldProblem };
}

export function profileRoutes(app: FastifyInstance, deps: WebDeps): void {
  const { services } = deps;
  const { db, config } = services;

  /** The signed-in session, or undefined once the visitor has been sent to sign in. */
  async function signedIn(request: FastifyRequest, reply: FastifyReply): Promise<SignedInSession | undefined> {
    const session = await requestSession(request, db);
    if (session.status === 'active') return session;
    await signInFirst(deps, request, reply, session);
    return undefined;
  }

  function notFound(request: FastifyRequest, reply: FastifyReply, session: SignedInSession) {
    return sendPage(reply, 404, errorPage(pageContext(deps, request, session), 404));
  }

  async function renderAccount(
    request: FastifyRequest,
    reply: FastifyReply,
    session: SignedInSession,
    status: number,
    extras: AccountExtras = {},
  ) {
    const profile = await loadProfile(services, session.accountId);
    if (!profile) return notFound(request, reply, session);
    const { webhookForm, ...rest } = extras;
    const now = new Date();
    const webhooks = services.webhooks && {
      // One more than the page shows, to know whether there are more.
      webhooks: await services.webhooks.list(session.accountId, WEBHOOKS_ON_PROFILE + 1, 0),
      csrfToken: session.csrfToken,
      now,
      form: webhookForm?.values,
      problem: webhookForm?.problem,
    };
    const page = accountPage(pageContext(deps, request, session), {
      profile,
      now,
      publicUrl: config.publicUrl,
      csrfToken: session.csrfToken,
      webhooks,
      enrichment: services.enrichment !== undefined,
      ...rest,
    });
    return sendPage(reply, status, page);
  }

  /** The account's own key named in the URL, or undefined after a 404 page. */
  async function ownKey(request: FastifyRequest<{ Params: KeyParams }>, reply: FastifyReply, session: SignedInSession) {
    const { id } = request.params;
    const key = KEY_ID.test(id) ? await findOwnKey(db, session.accountId, id) : undefined;
    if (!key) await notFound(request, reply, session);
    return key;
  }

  function confirmPage(
    request: FastifyRequest,
    reply: FastifyReply,
    session: SignedInSession,
    view: { action: KeyAction; key: AccountKey; status: number; problem?: string },
  ) {
    const page = confirmKeyActionPage(pageContext(deps, request, session), {
      ...view,
      csrfToken: session.csrfToken,
      graceMs: deps.rollGraceMs,
    });
    return sendPage(reply, view.status, page);
  }

  /** Redirects to the keys section, which shows the new key once. */
  function showNewKey(request: FastifyRequest, reply: FastifyReply, session: SignedInSession, newKey: NewKeyView) {
    deps.flash.set(request, reply, config.publicUrl, session.accountId, { page: 'account', newKey });
    return reply.redirect('/account#keys', 303);
  }

  app.get('/', async (request, reply) => {
    const session = await requestSession(request, db);
    return sendPage(reply, 200, homePage(pageContext(deps, request, session), config));
  });

  app.get<{ Querystring: Static<typeof AccountQuery> }>(
    '/account',
    { schema: { querystring: AccountQuery } },
    async (request, reply) => {
      const session = await signedIn(request, reply);
      if (!session) return reply;
      const notice = request.query.notice ? NOTICES.get(request.query.notice) : undefined;
      // A key just created or rolled is shown by this GET only: the cookie that carried it is cleared.
      const flash = deps.flash.take(request, reply, config.publicUrl, session.accountId);
      const newKey = flash?.page === 'account' ? flash.newKey : undefined;
      return renderAccount(request, reply, session, 200, { notice, newKey });
    },
  );

  // The key forms post here; a GET (a reload, a bookmark, a link) goes to the keys section.
  app.get('/account/keys', async (_request, reply) => reply.redirect('/account#keys', 303));

  app.post<{ Body: Static<typeof CreateKeyBody> }>(
    '/account/keys',
    { schema: { body: CreateKeyBody }, ...FORM_LIMITS },
    async (request, reply) => {
      const session = await signedIn(request, reply);
      if (!session) return reply;
      const keyName = request.body.name ?? '';
      if (!sessionCsrfValid(request, session)) {
        return renderAccount(request, reply, session, CSRF_STATUS, { problem: CSRF_PROBLEM, keyName });
      }
      const created = await createKey(db, session.accountId, keyName);
      if (!created.ok) {
        return renderAccount(request, reply, session, PROBLEM_STATUS[created.problem.kind], {
          problem: created.problem,
          keyName,
        });
      }
      // Post/redirect/get: a reload of the page shown next cannot create a second key. The full
      // key goes to that page only, in the one-time flash cookie; the server stores only its hash.
      return showNewKey(request, reply, session, { key: created.key, name: created.row.name });
    },
  );

  for (const action of ['roll', 'revoke'] as const) {
    app.get<{ Params: KeyParams }>(`/account/keys/:id/${action}`, async (request, reply) => {
      const session = await signedIn(request, reply);
      if (!session) return reply;
      const key = await ownKey(request, reply, session);
      if (!key) return reply;
      return confirmPage(request, reply, session, { action, key, status: 200 });
    });
  }

  app.post<{ Params: KeyParams }>(
    '/account/keys/:id/roll',
    { schema: { body: CsrfBody }, ...FORM_LIMITS },
    async (request, reply) => {
      const session = await signedIn(request, reply);
      if (!session) return reply;
      const key = await ownKey(request, reply, session);
      if (!key) return reply;
      if (!sessionCsrfValid(request, session)) {
        return confirmPage(request, reply, session, { action: 'roll', key, status: CSRF_STATUS, problem: CSRF_PROBLEM.message });
      }
      const rolled = await rollKey(db, services.keys, session.accountId, key.id, deps.rollGraceMs);
      if (!rolled.ok) {
        if (rolled.reason === 'not_found') return notFound(request, reply, session);
        const current = (await findOwnKey(db, session.accountId, key.id)) ?? key;
        return confirmPage(request, reply, session, { action: 'roll', key: current, status: 409 });
      }
      const newKey = { key: rolled.key, name: rolled.row.name, previousExpiresAt: rolled.oldKeyExpiresAt };
      return showNewKey(request, reply, session, newKey);
    },
  );

  app.post<{ Params: KeyParams }>(
    '/account/keys/:id/revoke',
    { schema: { body: CsrfBody }, ...FORM_LIMITS },
    async (request, reply) => {
      const session = await signedIn(request, reply);
      if (!session) return reply;
      const key = await ownKey(request, reply, session);
      if (!key) return reply;
      if (!sessionCsrfValid(request, session)) {
        return confirmPage(request, reply, session, {
          action: 'revoke',
          key,
          status: CSRF_STATUS,
          problem: CSRF_PROBLEM.message,
        });
      }
      const revoked = await revokeKey(db, services.keys, session.accountId, key.id);
      if (!revoked.ok) return notFound(request, reply, session);
      return reply.redirect('/account?notice=revoked#keys', 303);
    },
  );

  webhookPortalRoutes(app, deps, (request, reply, session, status, webhookForm) =>
    renderAccount(request, reply, session, status, { webhookForm }),
  );
  enrichmentPortalRoutes(app, deps);
  monitorPortalRoutes(app, deps);
}
