import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppServices } from '../app-services.js';
import { keyedAccess, recordUsage } from '../accounts/index.js';
import { authorizationWithoutBearer, bearerKey, keyOnlyInV1Header } from '../accounts/index.js';
import { checkRawQuery } from '../platform/http/index.js';
import { errorHandling, v2ErrorShape, type ApiFamily } from '../platform/http/index.js';
import { v2ListRoutes } from '../read/index.js';
import { changesRoutes } from '../changes/index.js';
import { companyRoutes } from '../companies/index.js';
import { errors } from '../accounts/index.js';
import { webhookRoutes } from '../webhooks/index.js';
import { enrichmentRoutes } from '../enrichment/index.js';
import { monitorRoutes } from '../monitors/index.js';
import { peopleRoutes } from '../people/index.js';

export async function v2Routes(app: FastifyInstance, services: AppServices): Promise<void> {
  await app.register(errorHandling, { shape: v2ErrorShape });
  app.addHook('preValidation', checkRawQuery);
  if (services.config.usageRecording) app.addHook('onResponse', recordUsage(services.usage, 'v2'));
  const family: ApiFamily = {
    authenticate: keyedAccess({
      family: 'v2',
      keys: services.keys,
      limiter: services.limiter,
      authFailures: services.authFailures,
      metrics: services.metrics,
      extractKey: bearerKey,
      unauthorizedMessage: (request) => {
        if (keyOnlyInV1Header(request)) return 'Invalid API key: v2 expects Authorization: Bearer <key>';
        if (authorizationWithoutBearer(request)) return 'Invalid API key: send Authorization: Bearer <key>';
        return 'Invalid API key';
      },
      rateLimitedMessage: () => 'Rate limit exceeded. Please try again later.',
    }),
    security: [{ bearerAuth: [] }],
    errors,
  };

  // Every keyed v2 response reports the balance, also when nothing was charged; except a 503,
  // where the database holding it did not answer, and asking again would only double the wait.
  app.addHook('onSend', async (request: FastifyRequest, reply: FastifyReply) => {
    if (!request.principal || reply.hasHeader('x-credits-remaining') || reply.statusCode === 503) return;
    try {
      reply.header('x-credits-remaining', String(await services.credits.balance(request.principal.accountId)));
    } catch {
      // The balance is informative; a failing read must not turn an answer into an error.
    }
  });

  await app.register((scope) => v2ListRoutes(scope, services, family));
  await app.register((scope) => companyRoutes(scope, services, family));
  await app.register((scope) => peopleRoutes(scope, services, family));
  await app.register((scope) => changesRoutes(scope, services, family));
  // In a scope of its own: its errors carry the published webhooks API's `code`.
  await app.register((scope) => webhookRoutes(scope, services, family));
  // In a scope of its own: its errors carry the published CSV enrichment API's `code`.
  await app.register((scope) => enrichmentRoutes(scope, services, family));
  // In a scope of its own: its errors carry the published Monitoring API's `code`.
  await app.register((scope) => monitorRoutes(scope, services, family));
}
