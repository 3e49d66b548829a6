import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type, type TObject, type TSchema } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { Dataset, StoredRow, V1Api, ValidQuery } from '../catalog/index.js';
import { DATASETS } from '../catalog/index.js';
import type { AppServices } from '../app-services.js';
import { keyedAccess, recordUsage, windowWords } from '../accounts/index.js';
import { v1Key } from '../accounts/index.js';
import { checkRawQuery } from '../platform/http/index.js';
import { errorHandling, v1ErrorShape } from '../platform/http/index.js';
import { conditionalList, notModified } from '../platform/http/index.js';
import { sendV1Page, v1PageTag, v1PageText } from '../read/index.js';
import { V1Error } from '../catalog/index.js';
import { listV1Page } from '../read/index.js';
import { lookupRoutes } from '../read/index.js';

const errorRef = Type.Ref(V1Error);

const pagingHeaders = {
  'X-Total-Count': { type: 'integer', description: 'Records matching the filters' },
  'X-Page': { type: 'integer', description: 'This page number' },
  'X-Per-Page': { type: 'integer', description: 'Records per page (20)' },
  Link: { type: 'string', description: 'RFC 8288 links with rel="next" / rel="prev" where they exist' },
};

function errorResponses(services: AppServices) {
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

/** The list endpoint of one v1 dataset. */
function v1Route<Q extends TObject, F, R extends TSchema, Row extends StoredRow>(
  app: FastifyInstance,
  services: AppServices,
  authenticate: ReturnType<typeof keyedAccess>,
  dataset: Dataset<Q, F, R, Row>,
  api: V1Api<ValidQuery<Q>>,
): void {
  app.withTypeProvider<TypeBoxTypeProvider>().get(
    api.path,
    {
      ...conditionalList,
      onRequest: authenticate,
      schema: {
        tags: ['v1'],
        operationId: api.operationId,
        summary: api.summary,
        description: api.description,
        security: [{ apiKeyHeader: [] }],
        querystring: dataset.query,
        response: {
          200: { ...api.response, headers: pagingHeaders },
          ...errorResponses(services),
        },
      },
    },
    async (request, reply) => {
      const page = await listV1Page(services.readModel, dataset, api, request.query);
      const text = v1PageText(request, page, services.config.publicUrl);
      if (await notModified(request, reply, v1PageTag(services.entityTags, request, text))) return reply;
      return sendV1Page(reply, text);
    },
  );
}

export async function v1Routes(app: FastifyInstance, services: AppServices): Promise<void> {
  await app.register(errorHandling, { shape: v1ErrorShape });
  app.addHook('preValidation', checkRawQuery);
  if (services.config.usageRecording) app.addHook('onResponse', recordUsage(services.usage, 'v1'));
  const authenticate = keyedAccess({
    family: 'v1',
    keys: services.keys,
    limiter: services.limiter,
    authFailures: services.authFailures,
    metrics: services.metrics,
    extractKey: v1Key,
    unauthorizedMessage: () => 'Invalid or missing API key (send it in the x-lot-api-key header)',
    rateLimitedMessage: (limit, windowMs, what) =>
      `Rate limit exceeded: a maximum of ${limit} ${what} ${windowWords(windowMs)} is allowed`,
  });
  for (const dataset of DATASETS) {
    dataset.open((typed) => {
      if (typed.api.family === 'v1') v1Route(app, services, authenticate, typed, typed.api);
    });
  }
  await app.register((scope) => lookupRoutes(scope, services, authenticate));
}
