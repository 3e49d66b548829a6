import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { keyedAccess, recordUsage, windowWords } from '../../http/access.js';
import { v1Key } from '../../http/auth.js';
import { checkRawQuery } from '../../http/validation.js';
import { installErrorHandling, v1ErrorShape } from '../../http/family.js';
import { sendV1Page } from '../../http/v1-reply.js';
import { FundingQuery, FundingResponse, MaQuery, MaResponse, V1Error } from '../../schemas/v1.js';
import { listFundingRounds } from '../../services/funding.js';
import { listMergers } from '../../services/mergers.js';
import type { AppServices } from '../../dependencies.js';

const errorRef = Type.Ref(V1Error);
const errors = {
  400: { ...errorRef, description: 'A parameter breaks its rule; the message names it' },
  401: { ...errorRef, description: 'Missing, malformed, unknown or revoked API key' },
  429: { ...errorRef, description: 'More than 60 requests in one minute' },
  500: { ...errorRef, description: 'Unexpected failure' },
  503: { ...errorRef, description: 'Temporarily unavailable; retry after the Retry-After seconds' },
};

const pagingHeaders = {
  'X-Total-Count': { type: 'integer', description: 'Records matching the filters' },
  'X-Page': { type: 'integer', description: 'This page number' },
  'X-Per-Page': { type: 'integer', description: 'Records per page (20)' },
  Link: { type: 'string', description: 'RFC 8288 links with rel="next" / rel="prev" where they exist' },
};

export async function v1Routes(app: FastifyInstance, services: AppServices): Promise<void> {
  installErrorHandling(app, v1ErrorShape);
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
    rateLimitedMessage: (limit, windowMs) =>
      `Rate limit exceeded: a maximum of ${limit} requests ${windowWords(windowMs)} is allowed`,
  });
  const security = [{ apiKeyHeader: [] }];

  app.get(
    '/funding',
    {
      onRequest: authenticate,
      schema: {
        tags: ['v1'],
        operationId: 'listFunding',
        summary: 'Funding rounds, newest first',
        description:
          'Venture funding rounds sorted by `date_seen`, newest first (ties broken by a stable internal id), 20 a page. ' +
          'Paging information is in the X-Total-Count, X-Page, X-Per-Page and Link headers.',
        security,
        querystring: FundingQuery,
        response: { 200: { ...FundingResponse, description: 'A page of funding rounds', headers: pagingHeaders }, ...errors },
      },
    },
    async (request, reply) => {
      const page = await listFundingRounds(services.db, services.pageResults, request.query as FundingQuery);
      return sendV1Page(request, reply, page, services.config.publicUrl);
    },
  );

  app.get(
    '/m-a',
    {
      onRequest: authenticate,
      schema: {
        tags: ['v1'],
        operationId: 'listMergersAndAcquisitions',
        summary: 'Mergers and acquisitions, newest first',
        description: 'M&A deals sorted by `date_seen`, newest first, 20 a page; paging in headers as for /funding.',
        security,
        querystring: MaQuery,
        response: { 200: { ...MaResponse, description: 'A page of deals', headers: pagingHeaders }, ...errors },
      },
    },
    async (request, reply) => {
      const page = await listMergers(services.db, services.pageResults, request.query as MaQuery);
      return sendV1Page(request, reply, page, services.config.publicUrl);
    },
  );
}
