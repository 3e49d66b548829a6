// One error handler for every family: ApiErrors, validation failures, an unavailable or too
// slow database and anything unexpected become a response in the family's own shape, and
// nothing internal (message, stack, SQL) ever reaches the client.
import fp from 'fastify-plugin';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DatabaseUnavailableError, QueryTimeoutError } from '../db/port.js';
import { ApiError, ERROR_STATUS } from '../services/errors.js';
import { validationMessage } from './validation.js';

/** How one family answers with an error. */
export interface ErrorShape {
  /** Sends the error (the status is set); message is safe to show, and only a client error's tells its cause. */
  send(request: FastifyRequest, reply: FastifyReply, status: number, message: string): FastifyReply | Promise<FastifyReply>;
  /** Texts used when the failure is ours, not the client's (never the real cause). */
  internalMessage: string;
  unavailableMessage: string;
  notFoundMessage: string;
  /** A framework client error the family words its own way, if any. */
  clientMessage?(error: FastifyError): string | undefined;
}

/** An error shape whose body is JSON. */
export interface JsonErrorShape extends ErrorShape {
  body(status: number, message: string): object;
}

/** An error shape whose body is the JSON that body() makes. */
export function jsonErrorShape(body: JsonErrorShape['body'], texts: Omit<ErrorShape, 'send'>): JsonErrorShape {
  return { ...texts, body, send: (_request, reply, status, message) => reply.code(status).send(body(status, message)) };
}

export const v1ErrorShape = jsonErrorShape((status, message) => ({ code: status, message }), {
  internalMessage: 'Internal server error',
  unavailableMessage: 'Service temporarily unavailable, please retry shortly',
  notFoundMessage: 'Not found',
});

export const v2ErrorShape = jsonErrorShape((_status, message) => ({ success: false, error: message }), {
  internalMessage: 'An unknown error occurred',
  unavailableMessage: 'Service temporarily unavailable. Please try again later.',
  notFoundMessage: 'Not found',
});

/** The published webhooks API's error codes, by status. */
const WEBHOOK_ERROR_CODES: Readonly<Record<number, string>> = {
  400: 'bad_request',
  401: 'invalid_api_key',
  402: 'insufficient_credits',
  404: 'not_found',
  409: 'conflict',
  429: 'rate_limited',
  503: 'unavailable',
};

/** The v2 shape plus the published webhooks API's `code`. */
export const webhookErrorShape = jsonErrorShape(
  (status, message) => ({
    success: false,
    error: message,
    code: WEBHOOK_ERROR_CODES[status] ?? (status >= 500 ? 'internal_error' : 'bad_request'),
  }),
  {
    internalMessage: v2ErrorShape.internalMessage,
    unavailableMessage: v2ErrorShape.unavailableMessage,
    notFoundMessage: v2ErrorShape.notFoundMessage,
  },
);

/** The error shape of the API family a path belongs to; anything else outside a family answers as v1 does. */
export function errorShapeFor(url: string): JsonErrorShape {
  return url.startsWith('/api/v2') ? v2ErrorShape : v1ErrorShape;
}

type ShapeOf = ErrorShape | ((request: FastifyRequest) => ErrorShape);
const resolve = (shape: ShapeOf, request: FastifyRequest) => (typeof shape === 'function' ? shape(request) : shape);

/** Answers a path no route serves, in the shape of the family it is under. */
export function notFoundHandler(shape: ShapeOf) {
  return (request: FastifyRequest, reply: FastifyReply) => {
    const family = resolve(shape, request);
    return family.send(
      request,
      reply.code(404),
      404,
      `${family.notFoundMessage}: ${request.method} ${request.url.split('?')[0]}`,
    );
  };
}

export interface ErrorHandlingOptions {
  shape: ErrorShape;
  /** Also answer unknown paths under the scope's prefix (default true). */
  notFound?: boolean;
}

/**
 * The error handler (and not-found handler) of the scope that registers it: each family
 * registers it with its own shape inside its encapsulated plugin.
 */
export const errorHandling = fp(async (app: FastifyInstance, options: ErrorHandlingOptions) => {
  const { shape } = options;
  const answer = (request: FastifyRequest, reply: FastifyReply, status: number, message: string) =>
    shape.send(request, reply.code(status), status, message);

  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof ApiError) return answer(request, reply.headers(error.headers), error.status, error.message);
    if (error.validation) return answer(request, reply, ERROR_STATUS.INVALID_PARAMETER, validationMessage(error.validation));
    if (error instanceof DatabaseUnavailableError || error instanceof QueryTimeoutError) {
      request.log.warn({ err: error }, error instanceof QueryTimeoutError ? 'statement timeout' : 'database unavailable');
      return answer(request, reply.header('retry-after', '2'), ERROR_STATUS.UNAVAILABLE, shape.unavailableMessage);
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      // Framework-level client errors (bad content type, body too large, ...): their text is safe.
      return answer(request, reply, status, shape.clientMessage?.(error) ?? error.message);
    }
    request.log.error({ err: error }, 'unhandled error');
    return answer(request, reply, ERROR_STATUS.INTERNAL, shape.internalMessage);
  });

  if (options.notFound ?? true) app.setNotFoundHandler(notFoundHandler(shape));
});
