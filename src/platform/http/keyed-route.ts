// What every keyed API operation's options share, written once: the family's key check before
// anything else, and the family's part of the operation's documentation (its security scheme, and
// the errors any of its operations may answer next to the operation's own answers).
import type { TSchema } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** The errors a keyed operation may answer whatever it does: a parameter, the key, the rate limit, a failure, an outage. */
export type FamilyErrors = Record<400 | 401 | 429 | 500 | 503, TSchema> & Record<number, TSchema>;

/** What a family (v1, v2, …) gives the operations it mounts. */
export interface ApiFamily {
  /** The family's onRequest guard: the key, then the rate limit. */
  authenticate: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
  /** How the OpenAPI document names the family's key. */
  security: ReadonlyArray<{ [securityLabel: string]: readonly string[] }>;
  errors: FamilyErrors;
}

/** An operation's own documentation: what the family adds is left out. */
export interface KeyedOperation {
  tags: readonly string[];
  operationId: string;
  summary: string;
  description: string;
  params?: TSchema;
  querystring?: TSchema;
  body?: TSchema;
  /** The operation's answers; one at a status the family's errors also document takes its place. */
  response: Record<number, TSchema>;
}

/**
 * The route options of a keyed operation: spread into the route's options (with conditionalList
 * for a list), the route schema keeps the operation's types, so the handler's request is typed.
 */
export function keyedRoute<const Operation extends KeyedOperation>(family: ApiFamily, operation: Operation) {
  const { response, ...documented } = operation;
  return {
    onRequest: family.authenticate,
    schema: { ...documented, security: family.security, response: { ...family.errors, ...response } },
  };
}
