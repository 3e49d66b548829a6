// GET /api/v2/companies/{id} and GET /api/v2/companies/lookup: one company with a summary of its
// signals, one credit; an unknown company is a 404 in the v2 shape and costs nothing.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import { ApiError, CompanyIdParams, CompanyLookupQuery, CompanyProfileResponse, V2Error } from '../catalog/index.js';
import type { AppServices } from '../app-services.js';
import { settleCredits } from '../accounts/index.js';
import { keyedRoute, type ApiFamily } from '../platform/http/index.js';
import { companyProfile, lookupKey } from './profiles.js';

const ENDPOINT = 'companies.get';
const NOT_FOUND = { ...Type.Ref(V2Error), description: 'No such company (not_found); costs nothing' };
const SUMMARY =
  'The company, as `GET /api/v2/companies` serves it, and `signals`: a summary of every record linked to it ' +
  '(funding rounds, M&A deals as target and as acquirer, job changes into and out of it over 30, 90 and 365 days, ' +
  'its latest acquisition signal, the investors on its rounds). One credit; a 404 costs nothing.';

async function send(
  services: AppServices,
  request: FastifyRequest,
  reply: FastifyReply,
  by: Parameters<typeof companyProfile>[1],
): Promise<FastifyReply> {
  const profile = await companyProfile(services.readModel, by, services.now());
  if (profile === undefined) throw new ApiError('NOT_FOUND', 'Company not found');
  const credits = await settleCredits(services.credits, request, ENDPOINT, false);
  request.creditsCharged = credits.used;
  if (credits.used > 0) services.metrics.creditsCharged.inc({ endpoint: ENDPOINT }, credits.used);
  const meta = { endpoint: ENDPOINT, creditsUsed: credits.used, creditsRemaining: credits.remaining };
  reply.header('cache-control', 'private, no-cache').header('x-credits-remaining', String(credits.remaining));
  return reply.type('application/json; charset=utf-8').send(JSON.stringify({ success: true, data: profile, meta }));
}

export function companyRoutes(app: FastifyInstance, services: AppServices, family: ApiFamily): void {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();
  const response = { 200: { ...CompanyProfileResponse, description: 'The company and its signals' }, 404: NOT_FOUND };
  typed.get(
    '/companies/lookup',
    keyedRoute(family, {
      tags: ['v2 companies'],
      operationId: 'lookupCompany',
      summary: 'One company, by its website domain or LinkedIn page',
      description: `${SUMMARY} Send exactly one of \`domain\` and \`linkedin_url\`, normalised as the website filters normalise them (scheme, \`www.\`, query and case ignored).`,
      querystring: CompanyLookupQuery,
      response,
    }),
    (request, reply) => send(services, request, reply, lookupKey(request.query)),
  );
  typed.get(
    '/companies/:id',
    keyedRoute(family, {
      tags: ['v2 companies'],
      operationId: 'getCompany',
      summary: 'One company and its signals',
      description: SUMMARY,
      params: CompanyIdParams,
      response,
    }),
    (request, reply) => send(services, request, reply, { id: request.params.id.toLowerCase() }),
  );
}
