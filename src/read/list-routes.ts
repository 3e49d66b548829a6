// GET /api/v1/<dataset> and GET /api/v2/signals/<dataset>: the list endpoint of every dataset the
// registry gives the family, answered from the read model (src/read/listing.ts). The family that
// mounts them gives its key check, security scheme and errors; a matching If-None-Match is a 304.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { TObject, TSchema } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { Dataset, SignalApi, StoredRow, V1Api, ValidQuery } from '../catalog/index.js';
import { eachSignalEndpoint, eachV1Endpoint } from '../catalog/index.js';
import type { AppServices } from '../app-services.js';
import { settleCredits } from '../accounts/index.js';
import { conditionalList, keyedRoute, notModified, type ApiFamily } from '../platform/http/index.js';
import { listSignalPage, listV1Page } from './listing.js';
import { sendV1Page, v1PageTag, v1PageText } from './v1-reply.js';
import { sendSignalPage, signalPageTag } from './v2-reply.js';

const PAGING_HEADERS = {
  'X-Total-Count': { type: 'integer', description: 'Records matching the filters' },
  'X-Page': { type: 'integer', description: 'This page number' },
  'X-Per-Page': { type: 'integer', description: 'Records per page (20)' },
  Link: { type: 'string', description: 'RFC 8288 links with rel="next" / rel="prev" where they exist' },
};

const CREDITS_NOTE =
  'Each successful call costs 1 credit per page, whatever the number of rows; `count=true`, 4xx and 5xx cost nothing. ' +
  '`meta.creditsRemaining` and the `X-Credits-Remaining` header give the balance.';

function v1ListRoute<Q extends TObject, F, R extends TSchema, Row extends StoredRow>(
  app: FastifyInstance,
  services: AppServices,
  family: ApiFamily,
  dataset: Dataset<Q, F, R, Row>,
  api: V1Api<ValidQuery<Q>>,
): void {
  const { operationId, summary, description } = api;
  const response = { 200: { ...api.response, headers: PAGING_HEADERS } };
  app.withTypeProvider<TypeBoxTypeProvider>().get(
    api.path,
    {
      ...conditionalList,
      ...keyedRoute(family, { tags: ['v1'], operationId, summary, description, querystring: dataset.query, response }),
    },
    async (request, reply) => {
      const page = await listV1Page(services.readModel, dataset, api, request.query);
      const text = v1PageText(request, page, services.config.publicUrl);
      if (await notModified(request, reply, v1PageTag(services.entityTags, request, text))) return reply;
      return sendV1Page(reply, text);
    },
  );
}

function signalListRoute<Q extends TObject, F, R extends TSchema, Row extends StoredRow>(
  app: FastifyInstance,
  services: AppServices,
  family: ApiFamily,
  dataset: Dataset<Q, F, R, Row>,
  api: SignalApi<ValidQuery<Q>>,
): void {
  const { operationId, summary } = api;
  const description = `${api.description} ${CREDITS_NOTE}`;
  const response = { 200: api.response };
  app.withTypeProvider<TypeBoxTypeProvider>().get(
    api.path,
    {
      ...conditionalList,
      ...keyedRoute(family, { tags: ['v2 signals'], operationId, summary, description, querystring: dataset.query, response }),
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

/** The v1 list endpoints: paging in headers, the filters echoed in the body. */
export async function v1ListRoutes(app: FastifyInstance, services: AppServices, family: ApiFamily): Promise<void> {
  eachV1Endpoint((dataset, api) => v1ListRoute(app, services, family, dataset, api));
}

/** The v2 signal endpoints (the datasets' and the views'): paging in the envelope, 1 credit a page. */
export async function v2ListRoutes(app: FastifyInstance, services: AppServices, family: ApiFamily): Promise<void> {
  eachSignalEndpoint((dataset, api) => signalListRoute(app, services, family, dataset, api));
}
