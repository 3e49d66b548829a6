import type { FastifyRequest } from 'fastify';
import type { Principal } from './key-verifier.js';

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
    /** Credits this request was charged (v2 data requests). */
    creditsCharged: number;
  }
}

export type KeyExtractor = (request: FastifyRequest) => string | undefined;

/** v1: the key travels in the x-lot-api-key header, never in the query string. */
export const v1Key: KeyExtractor = (request) => {
  const value = request.headers['x-lot-api-key'];
  return typeof value === 'string' ? value.trim() : undefined;
};

/** v2: Authorization: Bearer <key>. */
export const bearerKey: KeyExtractor = (request) => {
  const value = request.headers.authorization;
  if (typeof value !== 'string') return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(value);
  return match?.[1];
};

/**
 * A v2 request that carries a key only in v1's header: its 401 says where v2 expects the key,
 * as v1's does the other way round. The hint depends on the header name alone, never on the key.
 */
export const keyOnlyInV1Header = (request: FastifyRequest): boolean =>
  request.headers['x-lot-api-key'] !== undefined && request.headers.authorization === undefined;

/**
 * A v2 request whose Authorization header names no Bearer scheme (`Authorization: ds_…`, or another
 * scheme): its 401 says how to send the key. As above, the hint depends on the header's form alone.
 */
export const authorizationWithoutBearer = (request: FastifyRequest): boolean => {
  const value = request.headers.authorization;
  return typeof value === 'string' && value.trim() !== '' && !/^Bearer(\s|$)/i.test(value.trim());
};
