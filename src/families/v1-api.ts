import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { AppServices } from '../app-services.js';
import { keyedAccess, recordUsage, windowWords } from '../accounts/index.js';
import { v1Key } from '../accounts/index.js';
import { checkRawQuery } from '../platform/http/index.js';
import { errorHandling, v1ErrorShape, type ApiFamily, type FamilyErrors } from '../platform/http/index.js';
import { V1Error } from '../catalog/index.js';
import { lookupRoutes, v1ListRoutes } from '../read/index.js';

function v1Errors(services: AppServices): FamilyErrors {
  const errorRef = Type.Ref(V1Error);
  const { v1, windowMs } = services.config.rateLimits;
  return {
    400: { ...errorRef, description: 'A parameter breaks its rule; the message names it' },
    401: { ...errorRef, description: 'Missing, malformed, unknown or revoked API key' },
    429: {
      ...errorRef,
      description: `More requests ${windowWords(windowMs)} than the account's limit (${v1} unless the account has its own)`,
    },
    500: { ...errorRef, description: 'Unexpected failure' },
    503: { ...errorRef, description: 'Temporarily unavailable; retry after the Retry-After seconds' },
  };
}

export async function v1Routes(app: FastifyInstance, services: AppServices): Promise<void> {
  await app.register(errorHandling, { shape: v1ErrorShape });
  app.addHook('preValidation', checkRawQuery);
  if (services.config.usageRecording) app.addHook('onResponse', recordUsage(services.usage, 'v1'));
  const family: ApiFamily = {
    authenticate: keyedAccess({
      family: 'v1',
      keys: services.keys,
      limiter: services.limiter,
      authFailures: services.authFailures,
      metrics: services.metrics,
      extractKey: v1Key,
      unauthorizedMessage: () => 'Invalid or missing API key (send it in the x-lot-api-key header)',
      rateLimitedMessage: (limit, windowMs, what) =>
        `Rate limit exceeded: a maximum of ${limit} ${what} ${windowWords(windowMs)} is allowed`,
    }),
    security: [{ apiKeyHeader: [] }],
    errors: v1Errors(services),
  };
  await app.register((scope) => v1ListRoutes(scope, services, family));
  await app.register((scope) => lookupRoutes(scope, services, family));
}
