// One error catalog for every family. Services and hooks throw ApiError with a code; the error
// handler (src/http/error-handling.ts) turns it into the family's own body shape.

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
  RATE_LIMITED: 429,
  INTERNAL: 500,
  UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export class ApiError extends Error {
  override name = 'ApiError';
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.status = ERROR_STATUS[code];
  }
}

export const invalidParameter = (message: string) => new ApiError('INVALID_PARAMETER', message);
