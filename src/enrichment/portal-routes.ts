// The profile page's enrichment card, server side: the browser (assets/enrichment.js) creates a job
// for the signed-in account and reads it back, as the API does for a key. JSON in and out; a job
// costs 1 credit and counts against the account's v2 rate limit, as the webhook actions of these
// pages do; reading it is free. The session's CSRF token comes in the body of the POST.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { rateLimitHeaders } from '../accounts/index.js';
import { requestSession, sessionCsrfValid, type SignedInSession, type WebDeps } from '../accounts/portal/index.js';
import { ApiError } from '../catalog/index.js';
import { enrichmentErrorBody } from './error-shape.js';
import { CompanyInput, JobQuery, MAX_COMPANIES } from './schemas.js';
import { jobJson, type EnrichmentService } from './service.js';

const PortalJobBody = Type.Object({
  _csrf: Type.String({ maxLength: 200 }),
  fileName: Type.Optional(Type.String({ maxLength: 500 })),
  companies: Type.Array(CompanyInput, { minItems: 1, maxItems: MAX_COMPANIES }),
});

const refuse = (reply: FastifyReply, status: number, message: string) =>
  reply.code(status).send(enrichmentErrorBody(status, message));

export function enrichmentPortalRoutes(app: FastifyInstance, deps: WebDeps): void {
  const { services } = deps;
  const enrichment: EnrichmentService | undefined = services.enrichment;
  if (!enrichment) return;
  const { db, limiter } = services;
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  async function session(request: FastifyRequest, reply: FastifyReply): Promise<SignedInSession | undefined> {
    const found = await requestSession(request, db);
    if (found.status === 'active') return found;
    await refuse(reply, 401, 'Your session has ended: sign in again, then start the list again.');
    return undefined;
  }

  /** Answers a refusal of the service (or rethrows anything else) in the enrichment API's shape. */
  function refusal(reply: FastifyReply, error: unknown) {
    if (!(error instanceof ApiError)) throw error;
    return reply.code(error.status).send(enrichmentErrorBody(error.status, error.message, error.param));
  }

  api.post(
    '/account/enrichment',
    {
      schema: { body: PortalJobBody, hide: true },
      bodyLimit: 4 * 1024 * 1024,
      // A bad body is answered here in JSON, not with the portal's HTML error page.
      attachValidation: true,
    },
    async (request, reply) => {
      const signedIn = await session(request, reply);
      if (!signedIn) return reply;
      if (request.validationError) return refuse(reply, 400, `The list could not be read: ${request.validationError.message}`);
      if (!sessionCsrfValid(request, signedIn)) return refuse(reply, 403, 'This page has expired: reload it and try again.');
      if (limiter) {
        const decision = await limiter.check('v2', signedIn);
        if (!decision.allowed) {
          const headers = rateLimitHeaders(decision, 'v2', limiter.windowMs);
          reply.headers(headers);
          return refuse(reply, 429, `Too many requests: try again in ${headers['retry-after']} seconds.`);
        }
      }
      try {
        const { fileName, companies } = request.body;
        const body = { companies, ...(fileName !== undefined && { fileName }) };
        const { job } = await enrichment.create({ accountId: signedIn.accountId, keyId: null }, body);
        return reply.send({ success: true, data: { jobId: job.id, detectedMapping: job.detected_mapping } });
      } catch (error) {
        return refusal(reply, error);
      }
    },
  );

  api.get(
    '/account/enrichment/:jobId',
    {
      schema: { params: Type.Object({ jobId: Type.String({ maxLength: 100 }) }), querystring: JobQuery, hide: true },
      attachValidation: true,
    },
    async (request, reply) => {
      const signedIn = await session(request, reply);
      if (!signedIn) return reply;
      if (request.validationError) return refuse(reply, 400, request.validationError.message);
      try {
        reply.header('cache-control', 'private, no-store');
        const view = await enrichment.read(signedIn.accountId, request.params.jobId, request.query);
        return reply.type('application/json; charset=utf-8').send(`{"success":true,"data":${jobJson(view)}}`);
      } catch (error) {
        return refusal(reply, error);
      }
    },
  );
}
