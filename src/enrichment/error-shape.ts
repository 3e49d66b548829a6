// The published CSV enrichment API's error body (Csv_ErrorResponse): the v2 {success: false,
// error} with the published `code` of each failure and, on a 429, `retryAfter` in seconds.
import { enrichmentErrorCode } from '../catalog/index.js';
import { jsonErrorShape, v2ErrorShape, type JsonErrorShape } from '../platform/http/index.js';
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

const shape = jsonErrorShape((status, message, detail) => enrichmentErrorBody(status, message, detail?.param), {
  internalMessage: v2ErrorShape.internalMessage,
  unavailableMessage: 'The matching engine is temporarily unavailable. Please try again shortly.',
  notFoundMessage: 'Enrichment job not found',
});

/** The shape, its 429 carrying retryAfter from the Retry-After header the rate limiter set. */
export const enrichmentErrorShape: JsonErrorShape = {
  ...shape,
  send(_request, reply, status, message, detail) {
    const retryAfter = reply.getHeader('retry-after');
    const body = shape.body(status, message, detail) as ReturnType<typeof enrichmentErrorBody>;
    return reply
      .code(status)
      .send(retryAfter === undefined ? body : enrichmentErrorBody(status, body.error, detail?.param, String(retryAfter)));
  },
};
