// Webhooks on the account pages: created from the profile page, then a page each with its
// settings, edit form, pause and resume, test event, delivery log and redelivery, and confirmed
// delete and secret rotation. Every action goes through the webhook service, as the API's do;
// the service finds webhooks among the signed-in account's own only, so another account's id is
// a 404 and nothing changes.
import { Type, type Static, type TOptional, type TString } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { rateLimitHeaders, windowWords } from '../accounts/index.js';
import { nextRefill } from '../accounts/index.js';
import { ApiError } from '../catalog/index.js';
import { FILTER_KEYS } from './event-filters.js';
import type { WebhookActor, WebhookService, WebhookView } from './service.js';
import { formatDate } from '../platform/web/index.js';
import { errorPage } from '../platform/web/index.js';
import {
  confirmWebhookActionPage,
  filterField,
  webhookPage,
  type RedeliveryOutcome,
  type TestOutcome,
  type WebhookAction,
  type WebhookFormValues,
  type WebhookPageView,
  webhookFieldOf,
  type FieldProblem,
} from './pages.js';
import {
  CSRF_PROBLEM,
  CSRF_STATUS,
  PROBLEM_STATUS,
  pageContext,
  sendPage,
  signInFirst,
  type WebDeps,
} from '../accounts/portal/index.js';
import { requestSession, sessionCsrfValid, type SignedInSession } from '../accounts/portal/index.js';
import { clipText } from '../accounts/portal/index.js';

const CsrfBody = Type.Object({ _csrf: Type.Optional(Type.String({ maxLength: 200 })) });
const FormText = Type.String({ maxLength: 2000 });
const filterFields = Object.fromEntries(FILTER_KEYS.map((key) => [filterField(key), Type.Optional(FormText)])) as Record<
  string,
  TOptional<TString>
>;
const WebhookFormBody = Type.Object({
  _csrf: Type.Optional(Type.String({ maxLength: 200 })),
  endpoint_url: Type.Optional(FormText),
  // One checked box arrives as a string, several as an array.
  event_types: Type.Optional(
    Type.Union([Type.String({ maxLength: 100 }), Type.Array(Type.String({ maxLength: 100 }), { maxItems: 50 })]),
  ),
  ...filterFields,
});
type WebhookForm = Static<typeof WebhookFormBody>;

const WebhookQuery = Type.Object({
  notice: Type.Optional(Type.String({ maxLength: 40 })),
  cursor: Type.Optional(Type.String({ maxLength: 200 })),
});
type WebhookParams = { id: string };
type DeliveryParams = { id: string; deliveryId: string };
const IdParams = Type.Object({ id: Type.String({ maxLength: 100 }) });
const DeliveryIdParams = Type.Object({ id: Type.String({ maxLength: 100 }), deliveryId: Type.String({ maxLength: 100 }) });

const FORM_LIMITS = { bodyLimit: 16 * 1024 };
const DELIVERIES_PER_PAGE = 20;

// A Map: a notice named in the query string is looked up among these keys only.
const NOTICES: ReadonlyMap<string, string> = new Map([
  ['updated', 'Webhook saved. The changes apply to events from now on.'],
  ['paused', 'Webhook paused. Matching events queue up and are sent in order when you resume it.'],
  ['resumed', 'Webhook resumed. Queued events are being sent in order.'],
]);

/** The profile page, re-rendered with the create form as typed and why it was refused. */
export type AccountRenderer = (
  request: FastifyRequest,
  reply: FastifyReply,
  session: SignedInSession,
  status: number,
  webhookForm: { values: WebhookFormValues; problem: FieldProblem },
) => Promise<FastifyReply>;

/** The form as typed: values trimmed, empty filter fields left out. */
function formValues(body: WebhookForm): WebhookFormValues {
  const types = body.event_types === undefined ? [] : Array.isArray(body.event_types) ? body.event_types : [body.event_types];
  const filters: Record<string, string> = {};
  const fields = body as Record<string, unknown>;
  for (const key of FILTER_KEYS) {
    const value = fields[filterField(key)];
    if (typeof value === 'string' && value.trim() !== '') filters[key] = value.trim();
  }
  return { endpointUrl: (body.endpoint_url ?? '').trim(), eventTypes: types, filters };
}

/** The create and update body the service takes, as the API's JSON would be. */
const serviceBody = (values: WebhookFormValues) => ({
  endpoint_url: values.endpointUrl,
  event_types: [...values.eventTypes],
  filters: { ...values.filters },
});

/** A refusal the page shows (bad input, a conflict, no credits), or the error again. */
function refusal(error: unknown): ApiError {
  if (error instanceof ApiError && error.status < 500) return error;
  throw error;
}

/** A refusal about the whole form (an expired form, the rate limit). */
const formWide = (message: string): FieldProblem => ({ message, field: null });

/** A refusal of the service, with the form field it is about, if any (shown next to it, focused). */
const fieldProblem = (error: ApiError): FieldProblem => ({ message: error.message, field: webhookFieldOf(error) });

/** A refused form's status: 422 for bad input, as the other forms; otherwise the service's. */
const refusedStatus = (error: ApiError) => (error.status === 400 ? PROBLEM_STATUS.invalid : error.status);

export function webhookPortalRoutes(app: FastifyInstance, deps: WebDeps, renderAccount: AccountRenderer): void {
  const { services } = deps;
  const webhooks: WebhookService | undefined = services.webhooks;
  if (!webhooks) return;
  const { db, limiter } = services;

  /**
   * Webhook work asked for on these pages (create, edit, pause, resume, rotate, delete, test,
   * redeliver) counts against the account's v2 rate limit: the window its API keys use, in the same
   * store, so shared by every instance. Unmetered, the pages would be a free way to the API's work
   * (a test event is a signed POST to any public URL). Counted once the form's CSRF token is checked,
   * so a forged post cannot use up an account's window. Returns the refusal to show, with the 429's
   * headers set, or undefined once the action is counted.
   */
  async function overLimit(reply: FastifyReply, session: SignedInSession): Promise<string | undefined> {
    if (!limiter) return undefined;
    const decision = await limiter.check('v2', session);
    if (decision.allowed) return undefined;
    services.metrics?.rateLimitRejections.inc({ family: 'v2', reason: 'limit' });
    const headers = rateLimitHeaders(decision, 'v2', limiter.windowMs);
    reply.headers(headers);
    return (
      `Too many requests: your plan allows ${decision.limit} ${windowWords(limiter.windowMs)}, API calls and ` +
      `webhook actions on these pages together, so nothing was done. Try again in ${headers['retry-after']} seconds.`
    );
  }

  const actorOf = (session: SignedInSession): WebhookActor => ({
    accountId: session.accountId,
    actor: `account:${session.accountId}`,
    via: 'dashboard',
  });

  async function signedIn(request: FastifyRequest, reply: FastifyReply): Promise<SignedInSession | undefined> {
    const session = await requestSession(request, db);
    if (session.status === 'active') return session;
    await signInFirst(deps, request, reply, session);
    return undefined;
  }

  function notFound(request: FastifyRequest, reply: FastifyReply, session: SignedInSession) {
    return sendPage(reply, 404, errorPage(pageContext(deps, request, session), 404));
  }

  /** The account's own webhook, or undefined after a 404 page. */
  async function ownWebhook(request: FastifyRequest, reply: FastifyReply, session: SignedInSession, id: string) {
    try {
      return await webhooks!.get(session.accountId, id);
    } catch (error) {
      if (refusal(error).status !== 404) throw error;
      await notFound(request, reply, session);
      return undefined;
    }
  }

  type PageExtras = Omit<WebhookPageView, 'webhook' | 'deliveries' | 'nextCursor' | 'now' | 'csrfToken'>;

  /** The webhook's page with a page of its delivery log (the newest unless a cursor is given). */
  async function renderWebhook(
    request: FastifyRequest,
    reply: FastifyReply,
    session: SignedInSession,
    id: string,
    status: number,
    extras: PageExtras = {},
  ) {
    const webhook = await ownWebhook(request, reply, session, id);
    if (!webhook) return reply;
    let log: Awaited<ReturnType<WebhookService['deliveries']>>;
    try {
      log = await webhooks!.deliveries(session.accountId, id, {
        limit: DELIVERIES_PER_PAGE,
        cursor: extras.cursor ?? undefined,
      });
    } catch (error) {
      // A cursor this page never gave out.
      const refused = refusal(error);
      return sendPage(reply, refused.status, errorPage(pageContext(deps, request, session), refused.status));
    }
    const page = webhookPage(pageContext(deps, request, session), {
      webhook,
      deliveries: log.data,
      nextCursor: log.nextCursor,
      now: new Date(),
      csrfToken: session.csrfToken,
      ...extras,
    });
    return sendPage(reply, status, page);
  }

  function confirmPage(
    request: FastifyRequest,
    reply: FastifyReply,
    session: SignedInSession,
    view: { action: WebhookAction; webhook: WebhookView; status: number; problem?: string },
  ) {
    const page = confirmWebhookActionPage(pageContext(deps, request, session), { ...view, csrfToken: session.csrfToken });
    return sendPage(reply, view.status, page);
  }

  /**
   * The signed-in account's webhook a confirmed action (delete, rotate) is about, once the form's
   * CSRF token is checked and the action counted; undefined once the sign-in page, a 404 or the
   * confirmation page again (a bad token, the rate limit) has been sent.
   */
  async function confirmedWebhook(
    request: FastifyRequest<{ Params: WebhookParams }>,
    reply: FastifyReply,
    action: WebhookAction,
  ): Promise<{ session: SignedInSession; webhook: WebhookView } | undefined> {
    const session = await signedIn(request, reply);
    if (!session) return undefined;
    const webhook = await ownWebhook(request, reply, session, request.params.id);
    if (!webhook) return undefined;
    if (!sessionCsrfValid(request, session)) {
      await confirmPage(request, reply, session, { action, webhook, status: CSRF_STATUS, problem: CSRF_PROBLEM.message });
      return undefined;
    }
    const limited = await overLimit(reply, session);
    if (limited) {
      await confirmPage(request, reply, session, { action, webhook, status: PROBLEM_STATUS.limited, problem: limited });
      return undefined;
    }
    return { session, webhook };
  }

  /** The webhook's page after a POST: a refusal shown on it, or a 404 for an id not the account's. */
  function showRefusal(
    request: FastifyRequest,
    reply: FastifyReply,
    session: SignedInSession,
    id: string,
    error: ApiError,
    extras: PageExtras = {},
  ) {
    if (error.status === 404) return notFound(request, reply, session);
    return renderWebhook(request, reply, session, id, refusedStatus(error), { problem: error.message, ...extras });
  }

  /**
   * Post/redirect/get: what an action produced goes to the webhook's page in the one-time flash
   * cookie, and the browser is sent there. A reload shows the page and sends, rotates or creates
   * nothing again.
   */
  function showOnce(
    request: FastifyRequest,
    reply: FastifyReply,
    session: SignedInSession,
    id: string,
    result: { secret: { value: string; rotated: boolean } } | { test: TestOutcome } | { redelivery: RedeliveryOutcome },
  ) {
    deps.flash.set(request, reply, services.config.publicUrl, session.accountId, { page: 'webhook', webhookId: id, ...result });
    return reply.redirect(`/account/webhooks/${id}`, 303);
  }

  // The create form posts here; a GET (a reload, a bookmark) goes to the webhooks section.
  app.get('/account/webhooks', async (_request, reply) => reply.redirect('/account#webhooks', 303));

  app.post<{ Body: WebhookForm }>(
    '/account/webhooks',
    { schema: { body: WebhookFormBody }, ...FORM_LIMITS },
    async (request, reply) => {
      const session = await signedIn(request, reply);
      if (!session) return reply;
      const values = formValues(request.body);
      if (!sessionCsrfValid(request, session)) {
        return renderAccount(request, reply, session, CSRF_STATUS, { values, problem: formWide(CSRF_PROBLEM.message) });
      }
      const limited = await overLimit(reply, session);
      if (limited) {
        return renderAccount(request, reply, session, PROBLEM_STATUS.limited, { values, problem: formWide(limited) });
      }
      let created: WebhookView;
      try {
        created = await webhooks.create(actorOf(session), serviceBody(values));
      } catch (error) {
        const refused = refusal(error);
        return renderAccount(request, reply, session, refusedStatus(refused), { values, problem: fieldProblem(refused) });
      }
      // The secret is shown once, by the webhook's page this redirects to, as a new key is.
      return showOnce(request, reply, session, created.id, { secret: { value: created.secret!, rotated: false } });
    },
  );

  app.get<{ Params: WebhookParams; Querystring: Static<typeof WebhookQuery> }>(
    '/account/webhooks/:id',
    { schema: { params: IdParams, querystring: WebhookQuery } },
    async (request, reply) => {
      const session = await signedIn(request, reply);
      if (!session) return reply;
      const { notice, cursor } = request.query;
      const { id } = request.params;
      // What the last action produced (a new secret, a test's or a redelivery's answer), this once.
      const flash = deps.flash.take(request, reply, services.config.publicUrl, session.accountId);
      const once = flash?.page === 'webhook' && flash.webhookId === id ? flash : undefined;
      return renderWebhook(request, reply, session, id, 200, {
        notice: notice ? NOTICES.get(notice) : undefined,
        cursor,
        secret: once && 'secret' in once ? once.secret : undefined,
        test: once && 'test' in once ? once.test : undefined,
        redelivery: once && 'redelivery' in once ? once.redelivery : undefined,
      });
    },
  );

  app.post<{ Params: WebhookParams; Body: WebhookForm }>(
    '/account/webhooks/:id',
    { schema: { params: IdParams, body: WebhookFormBody }, ...FORM_LIMITS },
    async (request, reply) => {
      const session = await signedIn(request, reply);
      if (!session) return reply;
      const { id } = request.params;
      const current = await ownWebhook(request, reply, session, id);
      if (!current) return reply;
      const form = formValues(request.body);
      if (!sessionCsrfValid(request, session)) {
        return renderWebhook(request, reply, session, id, CSRF_STATUS, { form, formProblem: formWide(CSRF_PROBLEM.message) });
      }
      const limited = await overLimit(reply, session);
      if (limited) {
        return renderWebhook(request, reply, session, id, PROBLEM_STATUS.limited, { form, formProblem: formWide(limited) });
      }
      // Keys the form has no field for (set through the API, ignored by the service) stay as they are.
      const kept = Object.fromEntries(
        Object.entries(current.filters).filter(([key]) => !(FILTER_KEYS as readonly string[]).includes(key)),
      );
      try {
        await webhooks.update(actorOf(session), id, serviceBody({ ...form, filters: { ...kept, ...form.filters } }));
      } catch (error) {
        const refused = refusal(error);
        if (refused.status === 404) return notFound(request, reply, session);
        return renderWebhook(request, reply, session, id, refusedStatus(refused), { form, formProblem: fieldProblem(refused) });
      }
      return reply.redirect(`/account/webhooks/${id}?notice=updated`, 303);
    },
  );

  for (const [action, active] of [
    ['pause', false],
    ['resume', true],
  ] as const) {
    app.post<{ Params: WebhookParams }>(
      `/account/webhooks/:id/${action}`,
      { schema: { params: IdParams, body: CsrfBody }, ...FORM_LIMITS },
      async (request, reply) => {
        const session = await signedIn(request, reply);
        if (!session) return reply;
        const { id } = request.params;
        if (!sessionCsrfValid(request, session)) {
          return renderWebhook(request, reply, session, id, CSRF_STATUS, { problem: CSRF_PROBLEM.message });
        }
        const limited = await overLimit(reply, session);
        if (limited) return renderWebhook(request, reply, session, id, PROBLEM_STATUS.limited, { problem: limited });
        try {
          await webhooks.update(actorOf(session), id, { active });
        } catch (error) {
          return showRefusal(request, reply, session, id, refusal(error));
        }
        return reply.redirect(`/account/webhooks/${id}?notice=${active ? 'resumed' : 'paused'}`, 303);
      },
    );
  }

  for (const action of ['delete', 'rotate'] as const) {
    app.get<{ Params: WebhookParams }>(
      `/account/webhooks/:id/${action}`,
      { schema: { params: IdParams } },
      async (request, reply) => {
        const session = await signedIn(request, reply);
        if (!session) return reply;
        const webhook = await ownWebhook(request, reply, session, request.params.id);
        if (!webhook) return reply;
        return confirmPage(request, reply, session, { action, webhook, status: 200 });
      },
    );
  }

  app.post<{ Params: WebhookParams }>(
    '/account/webhooks/:id/delete',
    { schema: { params: IdParams, body: CsrfBody }, ...FORM_LIMITS },
    async (request, reply) => {
      const confirmed = await confirmedWebhook(request, reply, 'delete');
      if (!confirmed) return reply;
      const { session, webhook } = confirmed;
      try {
        await webhooks.remove(actorOf(session), webhook.id);
      } catch (error) {
        if (refusal(error).status === 404) return notFound(request, reply, session);
        throw error;
      }
      return reply.redirect('/account?notice=webhook-deleted', 303);
    },
  );

  app.post<{ Params: WebhookParams }>(
    '/account/webhooks/:id/rotate',
    { schema: { params: IdParams, body: CsrfBody }, ...FORM_LIMITS },
    async (request, reply) => {
      const confirmed = await confirmedWebhook(request, reply, 'rotate');
      if (!confirmed) return reply;
      const { session, webhook } = confirmed;
      let rotated: WebhookView;
      try {
        rotated = await webhooks.update(actorOf(session), webhook.id, { rotate_secret: true });
      } catch (error) {
        return showRefusal(request, reply, session, webhook.id, refusal(error));
      }
      return showOnce(request, reply, session, webhook.id, { secret: { value: rotated.secret!, rotated: true } });
    },
  );

  app.post<{ Params: WebhookParams }>(
    '/account/webhooks/:id/test',
    { schema: { params: IdParams, body: CsrfBody }, ...FORM_LIMITS },
    async (request, reply) => {
      const session = await signedIn(request, reply);
      if (!session) return reply;
      const { id } = request.params;
      if (!sessionCsrfValid(request, session)) {
        return renderWebhook(request, reply, session, id, CSRF_STATUS, { problem: CSRF_PROBLEM.message });
      }
      const limited = await overLimit(reply, session);
      if (limited) return renderWebhook(request, reply, session, id, PROBLEM_STATUS.limited, { problem: limited });
      let result: Awaited<ReturnType<WebhookService['test']>>;
      try {
        result = await webhooks.test(session.accountId, id);
      } catch (error) {
        return showRefusal(request, reply, session, id, refusal(error));
      }
      const error = result.success ? null : await lastError(session.accountId, id, result.delivery_id);
      const { success, response_status, response_body } = result;
      return showOnce(request, reply, session, id, {
        test: { success, response_status, response_body: clipText(response_body), error },
      });
    },
  );

  app.post<{ Params: DeliveryParams }>(
    '/account/webhooks/:id/deliveries/:deliveryId/redeliver',
    { schema: { params: DeliveryIdParams, body: CsrfBody }, ...FORM_LIMITS },
    async (request, reply) => {
      const session = await signedIn(request, reply);
      if (!session) return reply;
      const { id, deliveryId } = request.params;
      if (!sessionCsrfValid(request, session)) {
        return renderWebhook(request, reply, session, id, CSRF_STATUS, { problem: CSRF_PROBLEM.message });
      }
      const limited = await overLimit(reply, session);
      if (limited) return renderWebhook(request, reply, session, id, PROBLEM_STATUS.limited, { problem: limited });
      let result: Awaited<ReturnType<WebhookService['retry']>>;
      try {
        result = await webhooks.retry(session.accountId, id, deliveryId);
      } catch (error) {
        const refused = refusal(error);
        if (refused.status === 402) {
          const refill = formatDate(nextRefill(new Date()));
          return renderWebhook(request, reply, session, id, 402, {
            problem:
              'No credits left, so nothing was sent. A redelivery costs 1 credit when it reaches your endpoint; ' +
              `your credits refill on ${refill}.`,
          });
        }
        // The other conflict (the event is being sent right now) is shown as the service words it.
        if (refused.status === 409 && refused.message.includes('already succeeded')) {
          return renderWebhook(request, reply, session, id, 409, {
            problem: 'This delivery was already delivered, so it was not sent again.',
          });
        }
        return showRefusal(request, reply, session, id, refused);
      }
      const error = result.data.success ? null : await lastError(session.accountId, id, result.data.delivery_id);
      const { success, status, response_status, attempt_count } = result.data;
      return showOnce(request, reply, session, id, {
        redelivery: { success, status, response_status, attempt_count, error, credits_used: result.creditsUsed },
      });
    },
  );

  /** Why a delivery just made got no answer ("connection refused", "timed out"), from the log. */
  async function lastError(accountId: number, id: string, deliveryId: string): Promise<string | null> {
    const log = await webhooks!.deliveries(accountId, id, { limit: 5 });
    return log.data.find((delivery) => delivery.id === deliveryId)?.last_error ?? null;
  }
}
