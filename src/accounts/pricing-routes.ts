// What every paid v2 endpoint shares: the documented error answers and how a request is charged.
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { V2Error, type SignalEndpoint } from '../catalog/index.js';
import type { CreditMeter } from './credits.js';

const errorRef = Type.Ref(V2Error);
export const errors = {
  400: {
    ...errorRef,
    description:
      'A parameter breaks its rule (unknown parameters included); the message names it (code invalid_parameter, `param`)',
  },
  401: { ...errorRef, description: 'Invalid or missing API key (invalid_api_key)' },
  402: { ...errorRef, description: 'API credits exhausted for this billing period (insufficient_credits)' },
  429: { ...errorRef, description: 'Rate limit exceeded (rate_limited)' },
  500: { ...errorRef, description: 'An unknown error occurred (internal_error)' },
  503: { ...errorRef, description: 'Temporarily unavailable; retry after the Retry-After seconds (unavailable)' },
};

/**
 * What a request costs: a page of data 1 credit; count mode nothing. HEAD (Fastify answers it
 * with the GET handler, then drops the body) sends no data, so it costs nothing either, but
 * answers the status and headers GET would: 402 when the balance is short.
 */
export async function settleCredits(
  credits: CreditMeter,
  request: FastifyRequest,
  endpoint: SignalEndpoint | 'changes',
  count: boolean,
) {
  const principal = request.principal!;
  if (count) return { used: 0, remaining: await credits.balance(principal.accountId) };
  if (request.method === 'HEAD') return { used: 0, remaining: await credits.affordable(principal.accountId) };
  return { used: 1, remaining: await credits.charge(principal, endpoint) };
}
