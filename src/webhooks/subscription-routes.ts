// Creating, listing, reading, changing and deleting an account's webhooks.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { ApiFamily } from '../platform/http/index.js';
import { actor, FREE, IdParams, meta, TOO_LARGE, webhookOperation } from './route-parts.js';
import { WebhookBody, WebhookDeleteResponse, WebhookListQuery, WebhookListResponse, WebhookResponse } from './schemas.js';
import type { WebhookService } from './service.js';

export function subscriptionRoutes(app: FastifyInstance, webhooks: WebhookService, family: ApiFamily): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  api.post(
    '/webhooks',
    webhookOperation(family, {
      operationId: 'createWebhook',
      summary: 'Create a webhook',
      description:
        'Subscribes an endpoint to event types, optionally narrowed by filters. The signing secret (whsec_…) is in this ' +
        `response only. At most 10 webhooks per account, paused ones included (WEBHOOK_MAX_PER_ACCOUNT). ${FREE}`,
      body: WebhookBody,
      response: { 201: WebhookResponse, ...TOO_LARGE },
    }),
    async (request, reply) => {
      const data = await webhooks.create(actor(request), request.body);
      return reply.code(201).send({ success: true, data, meta: meta('webhooks.create') });
    },
  );

  api.get(
    '/webhooks',
    webhookOperation(family, {
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
      const { limit = 100, offset = 0 } = request.query;
      const data = await webhooks.list(request.principal!.accountId, limit, offset);
      return { success: true, data, pagination: { limit, offset, count: data.length }, meta: meta('webhooks.list') };
    },
  );

  api.get(
    '/webhooks/:id',
    webhookOperation(family, {
      operationId: 'getWebhook',
      summary: 'Retrieve a webhook',
      description: `One webhook, with its secret's preview only. A deleted webhook is a 404. ${FREE}`,
      params: IdParams,
      response: { 200: WebhookResponse },
    }),
    async (request) => {
      const data = await webhooks.get(request.principal!.accountId, request.params.id);
      return { success: true, data, meta: meta('webhooks.get') };
    },
  );

  api.put(
    '/webhooks/:id',
    webhookOperation(family, {
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
      response: { 200: WebhookResponse, ...TOO_LARGE },
    }),
    async (request) => {
      const data = await webhooks.update(actor(request), request.params.id, request.body);
      return { success: true, data, meta: meta('webhooks.update') };
    },
  );

  api.delete(
    '/webhooks/:id',
    webhookOperation(family, {
      operationId: 'deleteWebhook',
      summary: 'Delete a webhook',
      description:
        'Soft delete: no more events, gone from the list, its queued deliveries deleted with it; its delivery log is kept ' +
        `and PUT active:true brings it back. ${FREE}`,
      params: IdParams,
      response: { 200: WebhookDeleteResponse },
    }),
    async (request) => {
      const data = await webhooks.remove(actor(request), request.params.id);
      return { success: true, data, meta: meta('webhooks.delete') };
    },
  );
}
