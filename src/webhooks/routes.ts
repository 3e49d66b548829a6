// /api/v2/webhooks: the published webhooks API (Signalbase 2.2), served as published so a client
// written for it works unchanged; errors carry its `code`. Management is free; an event costs 1
// credit per webhook once its body has been written to the endpoint's connection, whatever the
// answer (data that left was delivered), by an automatic delivery or a retry; later attempts are free.
import type { FastifyInstance } from 'fastify';
import type { AppServices } from '../app-services.js';
import { errorHandling, type ApiFamily } from '../platform/http/index.js';
import { deliveryRoutes, testEventRoutes } from './delivery-routes.js';
import { webhookErrorShape } from './error-shape.js';
import { WEBHOOK_ERRORS } from './route-parts.js';
import { subscriptionRoutes } from './subscription-routes.js';

/** The webhooks API, in the calling scope: the v2 family's key check, with the published API's errors. */
export async function webhookRoutes(app: FastifyInstance, services: AppServices, v2: ApiFamily): Promise<void> {
  await app.register(errorHandling, { shape: webhookErrorShape, notFound: false });
  const family = { ...v2, errors: WEBHOOK_ERRORS };
  subscriptionRoutes(app, services.webhooks, family);
  testEventRoutes(app, services.webhooks, family);
  deliveryRoutes(app, services.webhooks, family);
}
