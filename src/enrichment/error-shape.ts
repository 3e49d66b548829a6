// The published CSV enrichment API's error body (Csv_ErrorResponse): the v2 {success: false,
// error} with the published `code` of each failure and, on a 429, `retryAfter` in seconds.
import { enrichmentErrorCode } from '../catalog/index.js';
import { codedErrorBody, codedErrorShape, type JsonErrorShape } from '../platform/http/index.js';
import type { EnrichmentErrorCode } from './schemas.js';

const codeOf = (status: number) => enrichmentErrorCode(status) as EnrichmentErrorCode;

/** The body of an error (the profile page's enrichment actions answer with it too). */
export function enrichmentErrorBody(status: number, message: string, param?: string) {
  return codedErrorBody(codeOf, status, message, param);
}

export const enrichmentErrorShape: JsonErrorShape = codedErrorShape(codeOf, {
  unavailableMessage: 'The matching engine is temporarily unavailable. Please try again shortly.',
  notFoundMessage: 'Enrichment job not found',
});
