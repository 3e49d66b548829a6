// One error catalog for every family. Services and hooks throw ApiError with a code; the error
// handler (src/http/error-handling.ts) turns it into the family's own body shape.
import type { V2ErrorCode } from '../schemas/v2.js';

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
  /** The request line is longer than the server reads (src/http/operations.ts). */
  URI_TOO_LONG: 414,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/**
 * The public `code` of each catalogue entry in v2 error bodies, one per entry (the `V2ErrorCode`
 * schema in src/schemas/v2.ts documents them). v1 bodies carry the HTTP status as their code; the
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
  URI_TOO_LONG: 'uri_too_long',
  RATE_LIMITED: 'rate_limited',
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
