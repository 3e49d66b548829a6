// A webhook's test event, its delivery log, and a delivery sent again.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { ApiFamily } from '../platform/http/index.js';
import { DeliveryParams, errorRef, FREE, IdParams, meta, SECRET_UNREADABLE, TOO_LARGE, webhookOperation } from './route-parts.js';
import { DeliveriesQuery, DeliveriesResponse, RetryResponse, WebhookTestResponse } from './schemas.js';
import type { WebhookService } from './service.js';

export function testEventRoutes(app: FastifyInstance, webhooks: WebhookService, family: ApiFamily): void {
  app.withTypeProvider<TypeBoxTypeProvider>().post(
    '/webhooks/:id/test',
    webhookOperation(family, {
      operationId: 'testWebhook',
      summary: 'Send a test event',
      description: `Sends a signed system.test event to the endpoint now and records it as a delivery. The body is ignored. ${FREE}`,
      params: IdParams,
      response: { 200: WebhookTestResponse, 503: SECRET_UNREADABLE, ...TOO_LARGE },
    }),
    async (request) => {
      const data = await webhooks.test(request.principal!.accountId, request.params.id);
      return { success: true, data, meta: meta('webhooks.test') };
    },
  );
}

export function deliveryRoutes(app: FastifyInstance, webhooks: WebhookService, family: ApiFamily): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  api.get(
    '/webhooks/:id/deliveries',
    webhookOperation(family, {
      operationId: 'listWebhookDeliveries',
      summary: 'List deliveries',
      description: `The webhook's deliveries, newest first, by cursor. ${FREE}`,
      params: IdParams,
      querystring: DeliveriesQuery,
      response: { 200: DeliveriesResponse },
    }),
    async (request) => {
      const { limit = 50, status, cursor } = request.query;
      const page = await webhooks.deliveries(request.principal!.accountId, request.params.id, { limit, status, cursor });
      const pagination = { next_cursor: page.nextCursor, limit };
      return { success: true, data: page.data, pagination, meta: meta('webhooks.deliveries.list') };
    },
  );

  api.post(
    '/webhooks/:id/deliveries/:deliveryId/retry',
    webhookOperation(family, {
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
        ...TOO_LARGE,
        402: { ...errorRef, description: 'No credits left (insufficient_credits)' },
        503: SECRET_UNREADABLE,
        409: {
          ...errorRef,
          description: 'The delivery already succeeded, or another attempt of its event is being sent right now (conflict)',
        },
      },
    }),
    async (request) => {
      const { id, deliveryId } = request.params;
      const { data, creditsUsed } = await webhooks.retry(request.principal!.accountId, id, deliveryId);
      request.creditsCharged = creditsUsed;
      return { success: true, data, meta: meta('webhooks.deliveries.retry', creditsUsed) };
    },
  );
}
