// POST /api/v2/csv-enrichment and GET /api/v2/csv-enrichment/{jobId}: the published CSV enrichment
// API. A job costs 1 credit when it is accepted; reading it (polling, results) is free. Errors carry
// the published codes (error-shape.ts).
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { errorHandling, keyedRoute, useErrorShapeUnder, type ApiFamily, type FamilyErrors } from '../platform/http/index.js';
import type { AppServices } from '../app-services.js';
import { enrichmentErrorShape } from './error-shape.js';
import {
  EnrichmentCreateResponse,
  EnrichmentError,
  EnrichmentGetResponse,
  EnrichmentRequest,
  JobParams,
  JobQuery,
  MAX_COMPANIES,
} from './schemas.js';
import { ENDPOINT_CREATE, ENDPOINT_GET, INLINE_RESULTS, jobJson, type EnrichmentService } from './service.js';

const GET_META = JSON.stringify({ endpoint: ENDPOINT_GET, creditsUsed: 0 });

/** A body of 1,000 companies with a few columns each is well under this. */
export const ENRICHMENT_BODY_LIMIT = 4 * 1024 * 1024;

const error = (description: string) => ({ ...Type.Ref(EnrichmentError), description });

const ERRORS: FamilyErrors = {
  400: error('A field or parameter breaks its rule; the message names it (invalid_company_payload)'),
  401: error('Invalid or missing API key (invalid_api_key)'),
  429: error('Rate limit exceeded; retryAfter says when to try again (rate_limited)'),
  500: error('An unknown error occurred (match_engine_unavailable)'),
  503: error('The store is temporarily unavailable (match_engine_unavailable)'),
};

const JOB_DESCRIPTION =
  'Matching: the website domain, then the LinkedIn company page (`match_confidence` exact), then the normalised name ' +
  '(fuzzy; legal forms such as Inc or GmbH ignored) as company resolution matches records. A name several companies share ' +
  'is matched only when the input gives a `country` that leaves one of them; otherwise the result is unmatched and lists ' +
  'the `candidates` (summary.ambiguous counts them). Each result carries the newest 5 signals of each type ' +
  '(ENRICHMENT_SIGNALS_PER_TYPE), as the list endpoints serve them, and `signalCounts` with how many there are in all. ' +
  'Jobs are stored and worked on by any instance, in the order submitted; a finished job is kept for 7 days ' +
  '(ENRICHMENT_RETENTION_DAYS, `expiresAt`), then answers 410 job_expired. A job belongs to the account that created it.';

export async function enrichmentRoutes(app: FastifyInstance, services: AppServices, v2: ApiFamily): Promise<void> {
  await app.register(errorHandling, { shape: enrichmentErrorShape, notFound: false });
  // Also what answers before the routes (the load shedder, a path under it no route has).
  useErrorShapeUnder('/api/v2/csv-enrichment', enrichmentErrorShape);
  const family = { ...v2, errors: ERRORS };
  const enrichment: EnrichmentService = services.enrichment;
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  api.post(
    '/csv-enrichment',
    {
      ...keyedRoute(family, {
        tags: ['v2 enrichment'],
        operationId: 'createCSVEnrichmentJob',
        summary: 'Create CSV Enrichment Job',
        description:
          `Submit up to ${MAX_COMPANIES.toLocaleString('en')} companies for enrichment. Each company must include at least one ` +
          'identifier: company name, website URL/domain, or LinkedIn URL (or a published alias); every other field is kept ' +
          'on the row (`input`). 1 credit per accepted job (a refused request costs nothing). Add wait=true to return the ' +
          `finished job inline (with its first ${INLINE_RESULTS} results) when it finishes within timeout seconds; otherwise ` +
          `poll GET /csv-enrichment/{jobId}. ${JOB_DESCRIPTION} ` +
          "The published document's oneOf cannot tell its two answers apart (a finished job also has the accepted job's " +
          'fields): a finished job is the `Csv_CSVEnrichmentJob` fields plus `detectedMapping`.',
        body: EnrichmentRequest,
        response: {
          200: {
            ...EnrichmentCreateResponse,
            description: 'Enrichment job accepted (finished and inline with wait=true in time)',
          },
          402: error('No credits left this month (insufficient_credits); nothing was stored'),
          413: error(`The body is larger than ${ENRICHMENT_BODY_LIMIT / 1024 / 1024} MiB (invalid_company_payload)`),
        },
      }),
      bodyLimit: ENRICHMENT_BODY_LIMIT,
    },
    async (request, reply) => {
      const principal = request.principal!;
      const caller = { accountId: principal.accountId, keyId: principal.keyId };
      const { job, creditsRemaining } = await enrichment.create(caller, request.body);
      request.creditsCharged = 1;
      services.metrics.creditsCharged.inc({ endpoint: ENDPOINT_CREATE }, 1);
      let data = JSON.stringify({ jobId: job.id, detectedMapping: job.detected_mapping });
      if (request.body.wait === true) {
        const now = await enrichment.waitFor(caller.accountId, job.id, (request.body.timeout ?? 30) * 1000);
        if (now.status === 'completed' || now.status === 'failed') {
          data = jobJson(await enrichment.view(now, 0, INLINE_RESULTS), { detectedMapping: job.detected_mapping });
        }
      }
      const meta = JSON.stringify({ endpoint: ENDPOINT_CREATE, creditsUsed: 1, creditsRemaining });
      reply.header('cache-control', 'no-store').header('x-credits-remaining', String(creditsRemaining));
      return reply.type('application/json; charset=utf-8').send(`{"success":true,"data":${data},"meta":${meta}}`);
    },
  );

  api.get(
    '/csv-enrichment/:jobId',
    keyedRoute(family, {
      tags: ['v2 enrichment'],
      operationId: 'getCSVEnrichmentJob',
      summary: 'Get CSV Enrichment Job',
      description:
        'Retrieve job status, progress, summary counts, and the results written so far, in input order. Polling is free and ' +
        `returns creditsUsed: 0. Results are paginated with cursor and limit (default 50, at most 100). ${JOB_DESCRIPTION}`,
      params: JobParams,
      querystring: JobQuery,
      response: {
        200: { ...EnrichmentGetResponse, description: 'Job status and results' },
        404: error("No such job on this account (job_not_found): another account's job id answers the same"),
        410: error("The job's results are no longer kept (job_expired)"),
      },
    }),
    async (request, reply) => {
      const view = await enrichment.read(request.principal!.accountId, request.params.jobId, request.query);
      reply.header('cache-control', 'private, no-cache');
      return reply.type('application/json; charset=utf-8').send(`{"success":true,"data":${jobJson(view)},"meta":${GET_META}}`);
    },
  );
}
