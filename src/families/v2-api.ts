import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { TObject, TSchema } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Dataset, SignalApi, StoredRow, ValidQuery } from '../catalog/index.js';
import { DATASETS, VIEWS } from '../catalog/index.js';
import type { AppServices } from '../app-services.js';
import { keyedAccess, recordUsage } from '../accounts/index.js';
import { authorizationWithoutBearer, bearerKey, keyOnlyInV1Header } from '../accounts/index.js';
import { checkRawQuery } from '../platform/http/index.js';
import { errorHandling, v2ErrorShape } from '../platform/http/index.js';
import { conditionalList, notModified } from '../platform/http/index.js';
import { sendSignalPage, signalPageTag } from '../read/index.js';
import { listSignalPage } from '../read/index.js';
import { changesRoute } from '../changes/index.js';
import { errors, settleCredits } from '../accounts/index.js';
import { webhookRoutes } from '../webhooks/index.js';

const CREDITS_NOTE =
  'Each successful call costs 1 credit per page, whatever the number of rows; `count=true`, 4xx and 5xx cost nothing. ' +
  '`meta.creditsRemaining` and the `X-Credits-Remaining` header give the balance.';

/** The list endpoint of one v2 dataset. */
function signalRoute<Q extends TObject, F, R extends TSchema, Row extends StoredRow>(
  app: FastifyInstance,
  services: AppServices,
  authenticate: ReturnType<typeof keyedAccess>,
  dataset: Dataset<Q, F, R, Row>,
  api: SignalApi<ValidQuery<Q>>,
): void {
  app.withTypeProvider<TypeBoxTypeProvider>().get(
    api.path,
    {
      ...conditionalList,
      onRequest: authenticate,
      schema: {
        tags: ['v2 signals'],
        operationId: api.operationId,
        summary: api.summary,
        description: `${api.description} ${CREDITS_NOTE}`,
        security: [{ bearerAuth: [] }],
        querystring: dataset.query,
        response: { 200: api.response, ...errors },
      },
    },
    async (request, reply) => {
      const page = await listSignalPage(services.readModel, dataset, api, request.query, services.now());
      if (await notModified(request, reply, signalPageTag(services.entityTags, request, page))) return reply;
      const credits = await settleCredits(services.credits, request, api.endpoint, api.paging(request.query).count);
      request.creditsCharged = credits.used;
      if (credits.used > 0) services.metrics.creditsCharged.inc({ endpoint: api.endpoint }, credits.used);
      return sendSignalPage(reply, api.endpoint, page, credits);
    },
  );
}

export async function v2Routes(app: FastifyInstance, services: AppServices): Promise<void> {
  await app.register(errorHandling, { shape: v2ErrorShape });
  app.addHook('preValidation', checkRawQuery);
  if (services.config.usageRecording) app.addHook('onResponse', recordUsage(services.usage, 'v2'));
  const authenticate = keyedAccess({
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
  });

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

  for (const dataset of [...DATASETS, ...VIEWS]) {
    dataset.open((typed) => {
      if (typed.api.family === 'v2') signalRoute(app, services, authenticate, typed, typed.api);
    });
  }
  changesRoute(app, services, authenticate);
  // In a scope of its own: its errors carry the published webhooks API's `code`.
  await app.register((scope) => webhookRoutes(scope, services, authenticate));
}
