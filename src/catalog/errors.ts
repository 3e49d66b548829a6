// One error catalog for every family. Services and hooks throw ApiError with a code; the error
// handler (src/platform/http/error-handling.ts) turns it into the family's own body shape.
import type { V2ErrorCode } from './schemas/v2-schemas.js';

export const ERROR_STATUS = {
  INVALID_PARAMETER: 400,
  UNAUTHORIZED: 401,
  CREDITS_EXHAUSTED: 402,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  /** What the request points at is no longer kept (a changes feed cursor older than the retention). */
  GONE: 410,
  CONFLICT: 409,
  /** A body larger than the endpoint reads (its bodyLimit). */
  PAYLOAD_TOO_LARGE: 413,
  /** The request did not arrive in full within Node's request timeout (src/platform/http/error-handling.ts). */
  REQUEST_TIMEOUT: 408,
  /** The request line is longer than the server reads (src/platform/http/operations.ts). */
  URI_TOO_LONG: 414,
  /** A body sent compressed (Content-Encoding) to an endpoint that reads it as it is. */
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  /** The request's headers are larger than Node's HTTP parser reads (src/platform/http/error-handling.ts). */
  HEADERS_TOO_LARGE: 431,
  INTERNAL: 500,
  UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/**
 * The public `code` of each catalogue entry in v2 error bodies, one per entry (the `V2ErrorCode`
 * schema in src/catalog/schemas/v2-schemas.ts documents them). v1 bodies carry the HTTP status as their code; the
 * webhooks API keeps the published webhooks codes.
 */
export const ERROR_V2_CODE = {
  INVALID_PARAMETER: 'invalid_parameter',
  UNAUTHORIZED: 'invalid_api_key',
  CREDITS_EXHAUSTED: 'insufficient_credits',
  FORBIDDEN: 'forbidden',
  NOT_FOUND: 'not_found',
  METHOD_NOT_ALLOWED: 'method_not_allowed',
  GONE: 'gone',
  CONFLICT: 'conflict',
  PAYLOAD_TOO_LARGE: 'payload_too_large',
  REQUEST_TIMEOUT: 'request_timeout',
  URI_TOO_LONG: 'uri_too_long',
  UNSUPPORTED_MEDIA_TYPE: 'unsupported_media_type',
  RATE_LIMITED: 'rate_limited',
  HEADERS_TOO_LARGE: 'headers_too_large',
  INTERNAL: 'internal_error',
  UNAVAILABLE: 'unavailable',
} as const satisfies Record<ErrorCode, V2ErrorCode>;

/**
 * The catalogue entry of an HTTP status, for an error that comes with a status only (a framework
 * client error): the entry with that status, else the generic client or server error.
 */
export function errorCodeOf(status: number): ErrorCode {
  const entry = Object.entries(ERROR_STATUS).find(([, s]) => s === status);
  if (entry) return entry[0] as ErrorCode;
  return status >= 500 ? 'INTERNAL' : 'INVALID_PARAMETER';
}

export class ApiError extends Error {
  override name = 'ApiError';
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly headers: Record<string, string> = {},
    /** The request parameter (or body field) at fault, when one is: v2 bodies name it in `param`. */
    readonly param?: string,
  ) {
    super(message);
    this.status = ERROR_STATUS[code];
  }
}

/** A 400; `param` names the parameter at fault (the first one the message names when two conflict). */
export const invalidParameter = (message: string, param?: string) => new ApiError('INVALID_PARAMETER', message, {}, param);

/** Control and format characters, lone surrogates and U+FFFD (what undecodable bytes become). */
const NOT_PRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\uFFFD]/gu;

/**
 * An error message as it may be shown: every character that does not print written as its \uXXXX
 * escape, so a message quoting what a client sent (a parameter name, a JSON token) never carries
 * binary, invisible or direction-changing characters.
 */
export function printable(message: string): string {
  return message.replace(NOT_PRINTABLE, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * What JSON.parse found wrong with a body, without the excerpt of the body V8 quotes
 * ('Unexpected token 'x', "…" is not valid JSON'): the client has its body; echoing it would only
 * send its bytes back, binary included.
 */
export function jsonSyntaxProblem(error: unknown): string {
  const message = error instanceof Error ? error.message : 'invalid JSON';
  return printable(message.replace(/, "[\s\S]*"(?:\.\.\.)? is not valid JSON$/, ''));
}

/** The published webhooks API's error codes, by status. */
export const WEBHOOK_ERROR_CODES: Readonly<Record<number, string>> = {
  400: 'bad_request',
  401: 'invalid_api_key',
  402: 'insufficient_credits',
  404: 'not_found',
  409: 'conflict',
  413: 'payload_too_large',
  429: 'rate_limited',
  503: 'unavailable',
};

/** The published webhooks code of a status: its own, else the generic client or server error. */
export const webhookErrorCode = (status: number): string =>
  WEBHOOK_ERROR_CODES[status] ?? (status >= 500 ? 'internal_error' : 'bad_request');

/** The published CSV enrichment API's error codes (Csv_ErrorResponse), by status. */
export const ENRICHMENT_ERROR_CODES: Readonly<Record<number, string>> = {
  400: 'invalid_company_payload',
  401: 'invalid_api_key',
  402: 'insufficient_credits',
  403: 'subscription_expired',
  404: 'job_not_found',
  410: 'job_expired',
  429: 'rate_limited',
};

/**
 * The published enrichment code of a status: its own; any other client error is a bad payload (the
 * published list has no other word for it), any server error the match engine's.
 */
export const enrichmentErrorCode = (status: number): string =>
  ENRICHMENT_ERROR_CODES[status] ?? (status >= 500 ? 'match_engine_unavailable' : 'invalid_company_payload');

/** The published Monitoring API's error codes, by status (ours: 402 and 503, which it does not list). */
export const MONITOR_ERROR_CODES: Readonly<Record<number, string>> = {
  400: 'bad_request',
  401: 'invalid_api_key',
  402: 'insufficient_credits',
  403: 'subscription_expired',
  404: 'not_found',
  429: 'rate_limited',
  503: 'unavailable',
};

/** The published monitoring code of a status: its own, else a bad request or an internal error. */
export const monitorErrorCode = (status: number): string =>
  MONITOR_ERROR_CODES[status] ?? (status >= 500 ? 'internal_error' : 'bad_request');
