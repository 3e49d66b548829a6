import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DatabaseUnavailableError, QueryTimeoutError } from '../db/port.js';
import { ApiError, ERROR_STATUS } from '../services/errors.js';
import { validationMessage } from './validation.js';

/** How one API family writes its error bodies. */
export interface ErrorShape {
  body(status: number, message: string): object;
  /** Texts used when the failure is ours, not the client's (never the real cause). */
  internalMessage: string;
  unavailableMessage: string;
  notFoundMessage: string;
}

export const v1ErrorShape: ErrorShape = {
  body: (status, message) => ({ code: status, message }),
  internalMessage: 'Internal server error',
  unavailableMessage: 'Service temporarily unavailable, please retry shortly',
  notFoundMessage: 'Not found',
};

export const v2ErrorShape: ErrorShape = {
  body: (_status, message) => ({ success: false, error: message }),
  internalMessage: 'An unknown error occurred',
  unavailableMessage: 'Service temporarily unavailable. Please try again later.',
  notFoundMessage: 'Not found',
};

/**
 * Installs one error handler and one not-found handler for a family (inside its
 * encapsulated plugin), so every failure under its prefix has the family's body shape
 * and nothing internal (message, stack, SQL) ever reaches the client.
 */
export function installErrorHandling(app: FastifyInstance, shape: ErrorShape): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof ApiError) {
      return reply.code(error.status).headers(error.headers).send(shape.body(error.status, error.message));
    }
    if (error.validation) {
      return reply.code(ERROR_STATUS.INVALID_PARAMETER).send(shape.body(400, validationMessage(error.validation)));
    }
    if (error instanceof DatabaseUnavailableError || error instanceof QueryTimeoutError) {
      request.log.warn({ err: error }, error instanceof QueryTimeoutError ? 'statement timeout' : 'database unavailable');
      return reply.code(503).header('retry-after', '2').send(shape.body(503, shape.unavailableMessage));
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      // Framework-level client errors (bad content type, body too large, ...): their text is safe.
      return reply.code(status).send(shape.body(status, error.message));
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.code(500).send(shape.body(500, shape.internalMessage));
  });

  app.setNotFoundHandler((request, reply) => {
    reply.code(404).send(shape.body(404, `${shape.notFoundMessage}: ${request.method} ${request.url.split('?')[0]}`));
  });
}
