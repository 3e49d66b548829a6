// The profile page's monitors card, server side: the browser (assets/monitors.js) posts the card's
// forms as JSON for the signed-in account and asks for the list again, rendered here (pages.ts).
// Every change goes through the monitor service, as the Monitoring API's calls do, and, like them,
// is free but counts against the account's v2 rate limit (as the webhook and enrichment actions of
// these pages do); reading the list is not counted. The session's CSRF token comes in the body of
// each POST; errors answer in the Monitoring API's shape, and the script shows their message.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { rateLimitHeaders } from '../accounts/index.js';
import { requestSession, sessionCsrfValid, type SignedInSession, type WebDeps } from '../accounts/portal/index.js';
import { ApiError, monitorErrorCode } from '../catalog/index.js';
import { codedErrorBody } from '../platform/http/index.js';
import { DELIVERIES_SHOWN, monitorList, TARGETS_SHOWN, type MonitorEntry } from './pages.js';
import { MAX_TARGETS_PER_CALL, MonitorCreateRequest, MonitorParams, type MonitorErrorCode } from './schemas.js';
import type { Caller, MonitorService } from './service.js';

const Csrf = Type.String({ maxLength: 200 });
const CreateBody = Type.Object({
  _csrf: Csrf,
  name: MonitorCreateRequest.properties.name,
  signal_types: MonitorCreateRequest.properties.signal_types,
  // Checked by the service, as the API's is; an empty field means no webhook (an email digest).
  webhook_url: Type.Optional(Type.String({ maxLength: 500 })),
});
const UpdateBody = Type.Object({
  _csrf: Csrf,
  name: Type.Optional(MonitorCreateRequest.properties.name),
  active: Type.Optional(Type.Boolean()),
});
const CsrfBody = Type.Object({ _csrf: Csrf });
const TargetsBody = Type.Object({
  _csrf: Csrf,
  targets: Type.Array(Type.String({ minLength: 1, maxLength: 500 }), { minItems: 1, maxItems: MAX_TARGETS_PER_CALL }),
});

const JSON_LIMITS = { bodyLimit: 512 * 1024 };

/** What the user is told when a field breaks its rule: the schema's own message names a JSON path. */
const FIELD_MESSAGES: ReadonlyMap<string, string> = new Map([
  ['name', 'Give the monitor a name of at most 255 characters.'],
  ['signal_types', 'Choose at least one signal type.'],
  ['webhook_url', 'The webhook URL is too long: at most 500 characters.'],
  ['targets', `Add between 1 and ${MAX_TARGETS_PER_CALL} targets at a time, each at most 500 characters.`],
]);

const codeOf = (status: number) => monitorErrorCode(status) as MonitorErrorCode;
const refuse = (reply: FastifyReply, status: number, message: string, param?: string) =>
  reply.code(status).send(codedErrorBody(codeOf, status, message, param));

function validationMessage(error: Error & { validation?: { instancePath: string }[] }): string {
  const field = error.validation?.[0]?.instancePath.split('/')[1];
  return (field && FIELD_MESSAGES.get(field)) ?? `The form could not be read: ${error.message}`;
}

export function monitorPortalRoutes(app: FastifyInstance, deps: WebDeps): void {
  const { services } = deps;
  // The account pages are given the app's services; the monitor service is absent only where a
  // caller builds the pages with fewer (then there is nothing here to register).
  const found = services.monitors;
  if (!found) return;
  const monitors: MonitorService = found;
  const { db, limiter, webhooks } = services;
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  async function session(request: FastifyRequest, reply: FastifyReply): Promise<SignedInSession | undefined> {
    const found = await requestSession(request, db);
    if (found.status === 'active') return found;
    await refuse(reply, 401, 'Your session has ended: sign in again, then try again.');
    return undefined;
  }

  const callerOf = (signedIn: SignedInSession): Caller => ({ accountId: signedIn.accountId, keyId: null, tier: signedIn.tier });

  /**
   * The signed-in session a change is made for, once its body is read, its CSRF token checked and
   * the change counted against the rate limit; undefined once the refusal is sent.
   */
  async function allowed(request: FastifyRequest, reply: FastifyReply): Promise<SignedInSession | undefined> {
    const signedIn = await session(request, reply);
    if (!signedIn) return undefined;
    if (request.validationError) {
      await refuse(reply, 400, validationMessage(request.validationError));
      return undefined;
    }
    if (!sessionCsrfValid(request, signedIn)) {
      await refuse(reply, 403, 'This page has expired: reload it and try again.');
      return undefined;
    }
    if (limiter) {
      const decision = await limiter.check('v2', signedIn);
      if (!decision.allowed) {
        const headers = rateLimitHeaders(decision, 'v2', limiter.windowMs);
        reply.headers(headers);
        await refuse(reply, 429, `Too many requests: try again in ${headers['retry-after']} seconds.`);
        return undefined;
      }
    }
    return signedIn;
  }

  /** Answers a refusal of the service (or rethrows anything else) in the Monitoring API's shape. */
  function refusal(reply: FastifyReply, error: unknown) {
    if (!(error instanceof ApiError) || error.status >= 500) throw error;
    return refuse(reply, error.status, error.message, error.param);
  }

  /** Each monitor with its newest targets and, with a webhook, its last deliveries. */
  async function entries(accountId: number): Promise<MonitorEntry[]> {
    const list = await monitors.list(accountId);
    return Promise.all(
      list.map(async (monitor) => {
        const targets = await monitors.targets(accountId, monitor.id, { limit: TARGETS_SHOWN, offset: 0 });
        const deliveries =
          monitor.webhook && webhooks
            ? (await webhooks.deliveries(accountId, monitor.webhook.id, { limit: DELIVERIES_SHOWN })).data
            : null;
        return { monitor, targets: targets.data, deliveries };
      }),
    );
  }

  // A reload or a bookmark of the card's address goes to the card.
  app.get('/account/monitors', async (_request, reply) => reply.redirect('/account#monitors', 303));

  api.get('/account/monitors/list', { schema: { hide: true } }, async (request, reply) => {
    const signedIn = await session(request, reply);
    if (!signedIn) return reply;
    const list = monitorList(await entries(signedIn.accountId));
    return reply.header('cache-control', 'private, no-store').type('text/html; charset=utf-8').send(list.value);
  });

  api.post(
    '/account/monitors',
    // A bad body is answered here in JSON, not with the portal's HTML error page.
    { schema: { body: CreateBody, hide: true }, attachValidation: true, ...JSON_LIMITS },
    async (request, reply) => {
      const signedIn = await allowed(request, reply);
      if (!signedIn) return reply;
      const { name, signal_types, webhook_url } = request.body;
      const url = webhook_url?.trim();
      try {
        const monitor = await monitors.create(callerOf(signedIn), { name, signal_types, ...(url && { webhook_url: url }) });
        // The secret is in this response only, as the API's create gives it.
        return reply
          .header('cache-control', 'no-store')
          .send({ success: true, data: { id: monitor.id, name: monitor.name, secret: monitor.webhook?.secret ?? null } });
      } catch (error) {
        return refusal(reply, error);
      }
    },
  );

  api.post(
    '/account/monitors/:id',
    { schema: { params: MonitorParams, body: UpdateBody, hide: true }, attachValidation: true, ...JSON_LIMITS },
    async (request, reply) => {
      const signedIn = await allowed(request, reply);
      if (!signedIn) return reply;
      const { name, active } = request.body;
      if (name === undefined && active === undefined) return refuse(reply, 400, 'Nothing to change.');
      try {
        const monitor = await monitors.update(callerOf(signedIn), request.params.id, {
          ...(name !== undefined && { name }),
          ...(active !== undefined && { active }),
        });
        return reply.send({ success: true, data: { id: monitor.id, name: monitor.name, active: monitor.active } });
      } catch (error) {
        return refusal(reply, error);
      }
    },
  );

  api.post(
    '/account/monitors/:id/delete',
    { schema: { params: MonitorParams, body: CsrfBody, hide: true }, attachValidation: true, ...JSON_LIMITS },
    async (request, reply) => {
      const signedIn = await allowed(request, reply);
      if (!signedIn) return reply;
      try {
        return reply.send({ success: true, data: await monitors.remove(signedIn.accountId, request.params.id) });
      } catch (error) {
        return refusal(reply, error);
      }
    },
  );

  api.post(
    '/account/monitors/:id/targets',
    { schema: { params: MonitorParams, body: TargetsBody, hide: true }, attachValidation: true, ...JSON_LIMITS },
    async (request, reply) => {
      const signedIn = await allowed(request, reply);
      if (!signedIn) return reply;
      try {
        const added = await monitors.addTargets(callerOf(signedIn), request.params.id, { targets: request.body.targets });
        const resolved = added.added.filter((target) => target.status === 'resolved').length;
        return reply.send({
          success: true,
          data: {
            added: added.added.length,
            resolved,
            pending: added.pending.length,
            skipped: added.skipped_existing,
            invalid: added.invalid,
          },
        });
      } catch (error) {
        return refusal(reply, error);
      }
    },
  );
}
