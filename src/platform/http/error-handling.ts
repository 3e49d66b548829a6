// One error handler for every family: ApiErrors, validation failures, an unavailable or too
// slow database and anything unexpected become a response in the family's own shape, and
// nothing internal (message, stack, SQL) ever reaches the client.
import { maxHeaderSize, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import fp from 'fastify-plugin';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DatabaseUnavailableError, QueryTimeoutError } from '../db/index.js';
import {
  ApiError,
  ERROR_STATUS,
  ERROR_V2_CODE,
  errorCodeOf,
  jsonSyntaxProblem,
  printable,
  type ErrorCode,
} from '../../catalog/index.js';
import { validationMessage, validationParam } from './validation-hook.js';

/** What an error is, beyond its status and message: its catalogue entry and the parameter at fault. */
export interface ErrorDetail {
  code: ErrorCode;
  param?: string;
}

/** How one family answers with an error. */
export interface ErrorShape {
  /**
   * Sends the error (the status is set); message is safe to show, and only a client error's tells its cause.
   * Without detail, the catalogue entry of the status is meant.
   */
  send(
    request: FastifyRequest,
    reply: FastifyReply,
    status: number,
    message: string,
    detail?: ErrorDetail,
  ): FastifyReply | Promise<FastifyReply>;
  /** Texts used when the failure is ours, not the client's (never the real cause). */
  internalMessage: string;
  unavailableMessage: string;
  notFoundMessage: string;
  /** A framework client error the family words its own way, if any. */
  clientMessage?(error: FastifyError): string | undefined;
}

/** An error shape whose body is JSON. */
export interface JsonErrorShape extends ErrorShape {
  body(status: number, message: string, detail?: ErrorDetail): object;
}

/**
 * An error shape whose body is the JSON that body() makes. Whatever a message quotes of the request,
 * it is sent printable (see printable()): no error body ever carries binary.
 */
export function jsonErrorShape(body: JsonErrorShape['body'], texts: Omit<ErrorShape, 'send'>): JsonErrorShape {
  const safeBody: JsonErrorShape['body'] = (status, message, detail) => body(status, printable(message), detail);
  return {
    ...texts,
    body: safeBody,
    send: (_request, reply, status, message, detail) => reply.code(status).send(safeBody(status, message, detail)),
  };
}

export const v1ErrorShape = jsonErrorShape((status, message) => ({ code: status, message }), {
  internalMessage: 'Internal server error',
  unavailableMessage: 'Service temporarily unavailable, please retry shortly',
  notFoundMessage: 'Not found',
});

/** The spec's {success: false, error}, plus the catalogue's v2 `code` and, when one is at fault, the `param`. */
export const v2ErrorShape = jsonErrorShape(
  (status, message, detail) => ({
    success: false,
    error: message,
    code: ERROR_V2_CODE[detail?.code ?? errorCodeOf(status)],
    ...(detail?.param !== undefined && { param: detail.param }),
  }),
  {
    internalMessage: 'An unknown error occurred',
    unavailableMessage: 'Service temporarily unavailable. Please try again later.',
    notFoundMessage: 'Not found',
  },
);

/** The body of a published API's coded error: {success: false, error, code}, retryAfter on a 429, param when one is at fault. */
export function codedErrorBody<C extends string>(
  codeOf: (status: number) => C,
  status: number,
  message: string,
  param?: string,
  retryAfter?: string,
) {
  const seconds = retryAfter === undefined ? NaN : Number.parseInt(retryAfter, 10);
  return {
    success: false as const,
    error: message,
    code: codeOf(status),
    ...(status === 429 && Number.isFinite(seconds) && { retryAfter: seconds }),
    ...(param !== undefined && { param }),
  };
}

/**
 * The error shape of an API part with published codes (CSV enrichment, monitors): the v2 {success:
 * false, error} with the code of each status and, on a 429, `retryAfter` in seconds, read from the
 * Retry-After header the rate limiter set.
 */
export function codedErrorShape(
  codeOf: (status: number) => string,
  texts: { unavailableMessage: string; notFoundMessage: string },
): JsonErrorShape {
  const shape = jsonErrorShape((status, message, detail) => codedErrorBody(codeOf, status, message, detail?.param), {
    internalMessage: v2ErrorShape.internalMessage,
    ...texts,
  });
  return {
    ...shape,
    send(_request, reply, status, message, detail) {
      const retryAfter = reply.getHeader('retry-after');
      const body = shape.body(status, message, detail) as ReturnType<typeof codedErrorBody>;
      return reply
        .code(status)
        .send(retryAfter === undefined ? body : codedErrorBody(codeOf, status, body.error, detail?.param, String(retryAfter)));
    },
  };
}

/**
 * The error shapes of API parts under a path of their own (the enrichment API's published codes), as
 * their routes register them: what answers before any route does (the load shedder, an unknown
 * path, the HTTP parser) then speaks their shape too.
 */
const SHAPES_BY_PREFIX = new Map<string, JsonErrorShape>();

/** Answers every error under `prefix` in `shape` (see errorShapeFor). */
export function useErrorShapeUnder(prefix: string, shape: JsonErrorShape): void {
  SHAPES_BY_PREFIX.set(prefix, shape);
}

/** The error shape of the API family (or part) a path belongs to; anything else outside a family answers as v1 does. */
export function errorShapeFor(url: string): JsonErrorShape {
  return registeredShapeFor(url) ?? (url.startsWith('/api/v2') ? v2ErrorShape : v1ErrorShape);
}

/** The shape registered for a part of the API the path is under, if any (useErrorShapeUnder). */
function registeredShapeFor(url: string): JsonErrorShape | undefined {
  for (const [prefix, shape] of SHAPES_BY_PREFIX) if (url.startsWith(prefix)) return shape;
  return undefined;
}

/**
 * Fastify's `frameworkErrors`: what the router refuses before any route or hook sees the request (a
 * malformed %-escape in the path, an over-long path parameter), in the shape of the family the path
 * is under rather than the framework's own body.
 */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const family = errorShapeFor(request.url);
  const status = error.statusCode ?? 400;
  if (status >= 500) return family.send(request, reply, 500, family.internalMessage, { code: 'INTERNAL' });
  return family.send(request, reply, status, error.message, { code: errorCodeOf(status) });
}

/** The longest URL served: longer ones are a 414 (src/platform/http/operations.ts, and below when the parser refuses them). */
export const MAX_URL_LENGTH = 4096;
export const uriTooLongMessage = `URI too long: at most ${MAX_URL_LENGTH} characters`;

/** What Node's HTTP parser refused, as the catalogue entry and message to answer with. */
function parserRefusal(error: NodeJS.ErrnoException, requestLineEnded: boolean): [ErrorCode, string] {
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') return ['REQUEST_TIMEOUT', 'The request did not arrive in time'];
  if (error.code !== 'HPE_HEADER_OVERFLOW') return ['INVALID_PARAMETER', 'Malformed HTTP request'];
  // The parser's limit covers the request line too: one that never ended is a URL too long.
  if (!requestLineEnded) return ['URI_TOO_LONG', uriTooLongMessage];
  return ['HEADERS_TOO_LARGE', `Request headers too large: at most ${maxHeaderSize / 1024} KiB in all`];
}

/**
 * Fastify's clientErrorHandler: what Node's HTTP parser refuses before Fastify sees a request
 * (headers over its limit, a malformed request, one too slow to arrive) answered in the shape of
 * the family its path is under, instead of the framework's own body. The path is read from the
 * bytes the parser refused, which hold the request line unless the client sent it apart from the
 * rest; without one, the answer is v1's, as for any path outside a family.
 */
export function clientErrorHandler(this: FastifyInstance, error: NodeJS.ErrnoException, socket: Duplex): void {
  // A reset connection has nobody to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const raw = (error as { rawPacket?: Buffer }).rawPacket;
  const head = raw ? raw.subarray(0, MAX_URL_LENGTH + 32).toString('latin1') : '';
  const requestLine = /^[A-Z]{1,16} (\/\S*)( HTTP\/1\.[01]\r?\n)?/.exec(head);
  const [code, message] = parserRefusal(error, requestLine?.[2] !== undefined || !requestLine);
  const status = ERROR_STATUS[code];
  const body = JSON.stringify(errorShapeFor(requestLine?.[1] ?? '').body(status, message, { code }));
  this.log.debug({ err: error }, 'request refused by the HTTP parser');
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
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
      { code: 'NOT_FOUND' },
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
  const answer = (request: FastifyRequest, reply: FastifyReply, message: string, detail: ErrorDetail) => {
    const status = ERROR_STATUS[detail.code];
    return shape.send(request, reply.code(status), status, message, detail);
  };

  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof ApiError) {
      return answer(request, reply.headers(error.headers), error.message, { code: error.code, param: error.param });
    }
    if (error.validation) {
      const detail = { code: 'INVALID_PARAMETER', param: validationParam(error.validation) } as const;
      return answer(request, reply, validationMessage(error.validation), detail);
    }
    if (error instanceof DatabaseUnavailableError || error instanceof QueryTimeoutError) {
      request.log.warn({ err: error }, error instanceof QueryTimeoutError ? 'statement timeout' : 'database unavailable');
      return answer(request, reply.header('retry-after', '2'), shape.unavailableMessage, { code: 'UNAVAILABLE' });
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      // Framework-level client errors (bad content type, body too large, ...): their text is safe,
      // but for the JSON parser's, which quotes the body.
      const message =
        shape.clientMessage?.(error) ??
        (error instanceof SyntaxError ? `The body is not valid JSON (${jsonSyntaxProblem(error)})` : error.message);
      return shape.send(request, reply.code(status), status, message, { code: errorCodeOf(status) });
    }
    request.log.error({ err: error }, 'unhandled error');
    return answer(request, reply, shape.internalMessage, { code: 'INTERNAL' });
  });

  // A part of the scope with a shape of its own (useErrorShapeUnder) answers its unknown paths in it.
  if (options.notFound ?? true) app.setNotFoundHandler(notFoundHandler((request) => registeredShapeFor(request.url) ?? shape));
});
