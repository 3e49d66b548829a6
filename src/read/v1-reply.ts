import type { FastifyReply, FastifyRequest } from 'fastify';
import type { V1Page } from './listing.js';
import { LIST_CACHE_CONTROL, type EntityTags } from '../platform/http/index.js';

export const SUCCESS_MESSAGE = 'Data retrieved successfully';

function pageUrl(request: FastifyRequest, baseUrl: string, page: number): string {
  const url = new URL(request.url, baseUrl);
  url.searchParams.set('page', String(page));
  return url.toString();
}

/** A v1 page as it is sent: the paging headers and the body. */
export interface V1PageText {
  headers: Record<string, string>;
  body: string;
}

/**
 * A v1 page's headers and body. The body is assembled from the records' prepared JSON text (no
 * parse, no re-serialisation); paging travels in headers because the v1 body has no place for it.
 */
export function v1PageText(request: FastifyRequest, page: V1Page, baseUrl: string): V1PageText {
  const lastPage = Math.max(1, Math.ceil(page.total / page.perPage));
  const links: string[] = [];
  if (page.page < lastPage) links.push(`<${pageUrl(request, baseUrl, page.page + 1)}>; rel="next"`);
  if (page.page > 1) links.push(`<${pageUrl(request, baseUrl, Math.min(page.page - 1, lastPage))}>; rel="prev"`);
  const headers: Record<string, string> = {
    'x-total-count': String(page.total),
    'x-page': String(page.page),
    'x-per-page': String(page.perPage),
  };
  if (links.length > 0) headers.link = links.join(', ');
  const body = `{"message":${JSON.stringify(SUCCESS_MESSAGE)},"params":${JSON.stringify(page.params)},"response":{"data":${page.dataJson}}}`;
  return { headers, body };
}

/** A v1 page's ETag: over its body and its paging headers, all that a v1 client is sent about it. */
export function v1PageTag(tags: EntityTags, request: FastifyRequest, text: V1PageText): string {
  return tags.of(request, text.body, ...Object.entries(text.headers).flat());
}

export function sendV1Page(reply: FastifyReply, text: V1PageText) {
  reply.headers(text.headers).header('cache-control', LIST_CACHE_CONTROL);
  return reply.type('application/json; charset=utf-8').send(text.body);
}
