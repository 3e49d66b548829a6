// The published CSV enrichment API's error body (Csv_ErrorResponse): the v2 {success: false,
// error} with the published `code` of each failure and, on a 429, `retryAfter` in seconds.
import { enrichmentErrorCode } from '../catalog/index.js';
import { v2ErrorShape, type ErrorShape } from '../platform/http/index.js';
import type { EnrichmentErrorCode } from './schemas.js';

/** The body of an error: its retryAfter read from the Retry-After the rate limiter set. */
export function enrichmentErrorBody(status: number, message: string, param?: string, retryAfter?: string) {
  const seconds = retryAfter === undefined ? NaN : Number.parseInt(retryAfter, 10);
  return {
    success: false as const,
    error: message,
    code: enrichmentErrorCode(status) as EnrichmentErrorCode,
    ...(status === 429 && Number.isFinite(seconds) && { retryAfter: seconds }),
    ...(param !== undefined && { param }),
  };
}

export const enrichmentErrorShape: ErrorShape = {
  internalMessage: v2ErrorShape.internalMessage,
  unavailableMessage: 'The matching engine is temporarily unavailable. Please try again shortly.',
  notFoundMessage: 'Enrichment job not found',
  send(_request, reply, status, message, detail) {
    const retryAfter = reply.getHeader('retry-after');
    const body = v2ErrorShape.body(status, message, detail) as { error: string };
    return reply
      .code(status)
      .send(enrichmentErrorBody(status, body.error, detail?.param, retryAfter === undefined ? undefined : String(retryAfter)));
  },
};
