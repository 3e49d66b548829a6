// GET /api/v2/changes: the changes feed. Keyed, rate limited and charged like the signal
// endpoints (1 credit per page, count mode and since=now free); the feed itself is src/changes/feed.ts.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { AppServices } from '../app-services.js';
import { conditionalList, keyedRoute, LIST_CACHE_CONTROL, notModified, type ApiFamily } from '../platform/http/index.js';
import { ChangesQuery, ChangesResponse } from './schemas.js';
import { V2Error } from '../catalog/index.js';
import { readChangesPage, type ChangesPage } from './feed.js';
import { settleCredits } from '../accounts/index.js';

const ENDPOINT = 'changes';

const DESCRIPTION =
  'Every change to the data, oldest first: each item is one record created, updated or deleted, in commit order, with ' +
  'the record as its list endpoint serves it now. Keep the last `pagination.nextCursor` and pass it as `since`: ' +
  'resuming never misses or repeats a change, whichever server answers, also after restarts. `hasNextPage: false` ' +
  'means caught up; ask again later with the same cursor. Changes are kept for a limited time (7 days by default): a ' +
  'cursor older than that is answered 410, and the client resyncs from the list endpoints. ' +
  'To start from this moment instead, `since=now` answers an empty page whose `nextCursor` is the head. ' +
  'Each page costs 1 credit, whatever the number of items; `since=now`, `count=true`, 4xx and 5xx cost nothing.';

function sendChangesPage(reply: FastifyReply, page: ChangesPage, credits: { used: number; remaining: number }) {
  const meta = { endpoint: ENDPOINT, creditsUsed: credits.used, creditsRemaining: credits.remaining };
  reply.header('cache-control', LIST_CACHE_CONTROL).header('x-credits-remaining', String(credits.remaining));
  const body = `{"success":true,"data":${page.dataJson},"pagination":${JSON.stringify(page.pagination)},"meta":${JSON.stringify(meta)}}`;
  return reply.type('application/json; charset=utf-8').send(body);
}

export async function changesRoutes(app: FastifyInstance, services: AppServices, family: ApiFamily): Promise<void> {
  app.withTypeProvider<TypeBoxTypeProvider>().get(
    '/changes',
    {
      ...conditionalList,
      ...keyedRoute(family, {
        tags: ['v2 changes'],
        operationId: 'listChanges',
        summary: 'Changes feed: what was created, updated or deleted since a cursor',
        description: DESCRIPTION,
        querystring: ChangesQuery,
        response: {
          200: ChangesResponse,
          400: {
            ...family.errors[400],
            description:
              'A parameter breaks its rule, or `since` is not a cursor this feed returned (invalid_parameter, `param`)',
          },
          410: {
            ...Type.Ref(V2Error),
            description:
              '`since` is older than the retained changes: resync from the list endpoints, then follow the feed again ' +
              '(code gone, param since)',
          },
        },
      }),
    },
    async (request, reply) => {
      const page = await readChangesPage(services.db, request.query, { retentionDays: services.config.changeLogRetentionDays });
      const tag = services.entityTags.of(request, page.dataJson, JSON.stringify(page.pagination));
      if (await notModified(request, reply, tag)) return reply;
      const credits = await settleCredits(services.credits, request, ENDPOINT, page.count);
      request.creditsCharged = credits.used;
      if (credits.used > 0) services.metrics.creditsCharged.inc({ endpoint: ENDPOINT }, credits.used);
      return sendChangesPage(reply, page, credits);
    },
  );
}
