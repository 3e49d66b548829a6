// /api/v2/webhooks: the published webhooks API (Signalbase 2.2), served as published so a client
// written for it works unchanged; errors carry its `code`. Management is free; an event costs 1
// credit per webhook once its body has been written to the endpoint's connection, whatever the
// answer (data that left was delivered), by an automatic delivery or a retry; later attempts are free.
import { Type, type TSchema } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppServices } from '../app-services.js';
import type { keyedAccess } from '../accounts/index.js';
import { errorHandling } from '../platform/http/index.js';
import { webhookErrorShape } from './error-shape.js';
import {
  DeliveriesQuery,
  DeliveriesResponse,
  RetryResponse,
  WebhookBody,
  WebhookDeleteResponse,
  WebhookError,
  WebhookListQuery,
  WebhookListResponse,
  WebhookResponse,
  WebhookTestResponse,
  WEBHOOK_BODY_LIMIT,
} from './schemas.js';
import type { WebhookActor } from './service.js';

const errorRef = Type.Ref(WebhookError);
/** Test and retry sign with the stored secret: one the server cannot read sends nothing (src/webhooks/secrets.ts). */
const SECRET_UNREADABLE = {
  ...errorRef,
  description:
    "Temporarily unavailable; or the webhook's stored signing secret cannot be read with the server's keys (a key not " +
    'configured, or the stored value was changed): nothing was sent or charged (unavailable). Rotating the secret ' +
    'seals a new one.',
};
const errors = {
  400: { ...errorRef, description: 'A field or parameter breaks its rule; the message names it (code bad_request)' },
  401: { ...errorRef, description: 'Invalid or missing API key (invalid_api_key)' },
  404: { ...errorRef, description: 'No such webhook or delivery on this account (not_found)' },
  429: { ...errorRef, description: 'Rate limit exceeded (rate_limited)' },
  500: { ...errorRef, description: 'An unknown error occurred (internal_error)' },
  503: { ...errorRef, description: 'Temporarily unavailable (unavailable)' },
};

/** The answer to a body over the limit, on the operations that take one. */
const tooLarge = {
  413: {
    ...errorRef,
    description: `The body is larger than ${WEBHOOK_BODY_LIMIT / 1024} KiB (payload_too_large; ours: the published API has no 413)`,
  },
};

const IdParams = Type.Object({ id: Type.String({ maxLength: 100, description: 'Webhook id (UUID)' }) });
const DeliveryParams = Type.Object({
  id: Type.String({ maxLength: 100, description: 'Webhook id (UUID)' }),
  deliveryId: Type.String({ maxLength: 100, description: 'Delivery id (UUID)' }),
});

const FREE = 'Free (0 credits); counts against the rate limit like any v2 request.';

const meta = (endpoint: string, creditsUsed = 0) => ({ endpoint, creditsUsed });

export async function webhookRoutes(
  app: FastifyInstance,
  services: AppServices,
  authenticate: ReturnType<typeof keyedAccess>,
): Promise<void> {
  await app.register(errorHandling, { shape: webhookErrorShape, notFound: false });
  const webhooks = services.webhooks;
  const actor = (request: FastifyRequest): WebhookActor => ({
    accountId: request.principal!.accountId,
    actor: request.principal!.keyId,
    via: 'api',
  });
  const route = <R extends Record<number, TSchema>>(spec: {
    operationId: string;
    summary: string;
    description: string;
    response: R;
    params?: TSchema;
    querystring?: TSchema;
    body?: TSchema;
  }) => {
    const { response, ...rest } = spec;
    return {
      onRequest: authenticate,
      // Every field has a bound (src/webhooks/schemas.ts): a body at all of them is a few KiB.
      bodyLimit: WEBHOOK_BODY_LIMIT,
      schema: { tags: ['v2 webhooks'], security: [{ bearerAuth: [] }], ...rest, response: { ...errors, ...response } },
    };
  };

  app.post(
    '/webhooks',
    route({
      operationId: 'createWebhook',
      summary: 'Create a webhook',
      description:
        'Subscribes an endpoint to event types, optionally narrowed by filters. The signing secret (whsec_…) is in this ' +
        `response only. At most 10 webhooks per account, paused ones included (WEBHOOK_MAX_PER_ACCOUNT). ${FREE}`,
      body: WebhookBody,
      response: { 201: WebhookResponse, ...tooLarge },
    }),
    async (request, reply) => {
      const data = await webhooks.create(actor(request), request.body);
      return reply.code(201).send({ success: true, data, meta: meta('webhooks.create') });
    },
  );

  app.get(
    '/webhooks',
    route({
      operationId: 'listWebhooks',
      summary: 'List webhooks',
      description:
        "The account's webhooks, deleted ones aside (paused ones included, active false), newest first. Every field of a " +
        'webhook is bounded (see the Webhook schema), so one is at most about 4.7 KB and a page of the default ' +
        `10-webhook cap about 52 KB. ${FREE}`,
      querystring: WebhookListQuery,
      response: { 200: WebhookListResponse },
    }),
    async (request) => {
      const { limit = 100, offset = 0 } = request.query as { limit?: number; offset?: number };
      const data = await webhooks.list(request.principal!.accountId, limit, offset);
      return { success: true, data, pagination: { limit, offset, count: data.length }, meta: meta('webhooks.list') };
    },
  );

  app.get(
    '/webhooks/:id',
    route({
      operationId: 'getWebhook',
      summary: 'Retrieve a webhook',
      description: `One webhook, with its secret's preview only. A deleted webhook is a 404. ${FREE}`,
      params: IdParams,
      response: { 200: WebhookResponse },
    }),
    async (request) => {
      const { id } = request.params as { id: string };
      return { success: true, data: await webhooks.get(request.principal!.accountId, id), meta: meta('webhooks.get') };
    },
  );

  app.put(
    '/webhooks/:id',
    route({
      operationId: 'updateWebhook',
      summary: 'Update a webhook',
      description:
        'Changes any subset of the fields. active false pauses: deliveries queue up to a bound (the oldest ' +
        'WEBHOOK_PAUSED_BACKLOG, 1,000 by default; later events are dropped and paused_reason counts them). true turns it ' +
        'on again (also a deleted one, within the 10-webhook cap; queued deliveries then go out in order). rotate_secret ' +
        'true mints a new secret, returned in this ' +
        `response only; the old one stops signing at once. ${FREE}`,
      params: IdParams,
      body: WebhookBody,
      response: { 200: WebhookResponse, ...tooLarge },
    }),
    async (request) => {
      const { id } = request.params as { id: string };
      return { success: true, data: await webhooks.update(actor(request), id, request.body), meta: meta('webhooks.update') };
    },
  );

  app.delete(
    '/webhooks/:id',
    route({
      operationId: 'deleteWebhook',
      summary: 'Delete a webhook',
      description:
        'Soft delete: no more events, gone from the list, its queued deliveries deleted with it; its delivery log is kept ' +
        `and PUT active:true brings it back. ${FREE}`,
      params: IdParams,
      response: { 200: WebhookDeleteResponse },
    }),
    async (request) => {
      const { id } = request.params as { id: string };
      return { success: true, data: await webhooks.remove(actor(request), id), meta: meta('webhooks.delete') };
    },
  );

  app.post(
    '/webhooks/:id/test',
    route({
      operationId: 'testWebhook',
      summary: 'Send a test event',
      description: `Sends a signed system.test event to the endpoint now and records it as a delivery. The body is ignored. ${FREE}`,
      params: IdParams,
      response: { 200: WebhookTestResponse, 503: SECRET_UNREADABLE, ...tooLarge },
    }),
    async (request) => {
      const { id } = request.params as { id: string };
      return { success: true, data: await webhooks.test(request.principal!.accountId, id), meta: meta('webhooks.test') };
    },
  );

  app.get(
    '/webhooks/:id/deliveries',
    route({
      operationId: 'listWebhookDeliveries',
      summary: 'List deliveries',
      description: `The webhook's deliveries, newest first, by cursor. ${FREE}`,
      params: IdParams,
      querystring: DeliveriesQuery,
      response: { 200: DeliveriesResponse },
    }),
    async (request) => {
      const { id } = request.params as { id: string };
      const { limit = 50, status, cursor } = request.query as { limit?: number; status?: string; cursor?: string };
      const page = await webhooks.deliveries(request.principal!.accountId, id, { limit, status, cursor });
      return {
        success: true,
        data: page.data,
        pagination: { next_cursor: page.nextCursor, limit },
        meta: meta('webhooks.deliveries.list'),
      };
    },
  );

  app.post(
    '/webhooks/:id/deliveries/:deliveryId/retry',
    route({
      operationId: 'retryWebhookDelivery',
      summary: 'Retry a delivery',
      description:
        'Sends the delivery again now, with its event_id and body, signed with the current secret, as a new delivery. A ' +
        'delivery still queued is taken out of the queue when this retry succeeds, and otherwise stays queued. 409 when it ' +
        'already succeeded, or while another attempt of the event is being sent. 1 credit when the body is written to the ' +
        'endpoint\'s connection, whatever it answers (this differs on purpose from the published "on success": data that ' +
        'left was delivered), unless an earlier attempt of the event to this webhook was paid already (then free); free ' +
        'when the body never left (refused connection, DNS failure, refused address) and for a system.test event; 402 ' +
        'when the event is not paid yet and the balance is empty. meta.creditsUsed says what this call cost.',
      params: DeliveryParams,
      response: {
        200: RetryResponse,
        ...tooLarge,
        402: { ...errorRef, description: 'No credits left (insufficient_credits)' },
        503: SECRET_UNREADABLE,
        409: {
          ...errorRef,
          description: 'The delivery already succeeded, or another attempt of its event is being sent right now (conflict)',
        },
      },
    }),
    async (request) => {
      const { id, deliveryId } = request.params as { id: string; deliveryId: string };
      const { data, creditsUsed } = await webhooks.retry(request.principal!.accountId, id, deliveryId);
      request.creditsCharged = creditsUsed;
      return { success: true, data, meta: meta('webhooks.deliveries.retry', creditsUsed) };
    },
  );
}
