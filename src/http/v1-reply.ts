import type { FastifyReply, FastifyRequest } from 'fastify';
import type { V1Page } from '../services/listing.js';

const SUCCESS_MESSAGE = 'Data retrieved successfully';

function pageUrl(request: FastifyRequest, baseUrl: string, page: number): string {
  const url = new URL(request.url, baseUrl);
  url.searchParams.set('page', String(page));
  return url.toString();
}

/**
 * Sends a v1 page. The body is assembled from the records' prepared JSON text (no parse,
 * no re-serialisation); paging travels in headers because the v1 body has no place for it.
 */
export function sendV1Page(request: FastifyRequest, reply: FastifyReply, page: V1Page, baseUrl: string) {
  const lastPage = Math.max(1, Math.ceil(page.total / page.perPage));
  const links: string[] = [];
  if (page.page < lastPage) links.push(`<${pageUrl(request, baseUrl, page.page + 1)}>; rel="next"`);
  if (page.page > 1) links.push(`<${pageUrl(request, baseUrl, Math.min(page.page - 1, lastPage))}>; rel="prev"`);
  reply
    .header('cache-control', 'no-store')
    .header('x-total-count', String(page.total))
    .header('x-page', String(page.page))
    .header('x-per-page', String(page.perPage));
  if (links.length > 0) reply.header('link', links.join(', '));
  const body = `{"message":${JSON.stringify(SUCCESS_MESSAGE)},"params":${JSON.stringify(page.params)},"response":{"data":${page.dataJson}}}`;
  return reply.type('application/json; charset=utf-8').send(body);
}
