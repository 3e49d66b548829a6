import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Pagination, SignalEndpoint } from '../catalog/index.js';
import type { SignalPage } from './listing.js';
import { LIST_CACHE_CONTROL, type EntityTags } from '../platform/http/index.js';

export function pagination(page: SignalPage): Pagination {
  const totalPages = Math.ceil(page.total / page.limit);
  return {
    currentPage: page.page,
    totalPages,
    totalCount: page.total,
    hasNextPage: page.page < totalPages,
    hasPreviousPage: page.page > 1,
  };
}

/** A v2 page's ETag: over its `data` and `pagination`, not `meta` (whose balance moves with every paid call). */
export function signalPageTag(tags: EntityTags, request: FastifyRequest, page: SignalPage): string {
  return tags.of(request, page.dataJson, JSON.stringify(pagination(page)));
}

/** Sends the v2 envelope around the page's prepared JSON text (no re-serialisation of records). */
export function sendSignalPage(
  reply: FastifyReply,
  endpoint: SignalEndpoint,
  page: SignalPage,
  credits: { used: number; remaining: number },
) {
  const meta = { endpoint, creditsUsed: credits.used, creditsRemaining: credits.remaining };
  reply.header('cache-control', LIST_CACHE_CONTROL).header('x-credits-remaining', String(credits.remaining));
  const body = `{"success":true,"data":${page.dataJson},"pagination":${JSON.stringify(pagination(page))},"meta":${JSON.stringify(meta)}}`;
  return reply.type('application/json; charset=utf-8').send(body);
}
