import { randomUUID } from 'node:crypto';
import { isMainThread } from 'node:worker_threads';
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppServices, Lifecycle } from '../../app-services.js';
import { ping } from '../db/index.js';
import { EventLoopMonitor } from '../infra/index.js';
import { scrape } from '../infra/index.js';
import { loadAssets } from '../web/index.js';
import { overloadedPage } from '../web/index.js';
import { ERROR_STATUS, type ErrorCode } from '../../catalog/index.js';
import { errorShapeFor, MAX_URL_LENGTH, uriTooLongMessage } from './error-handling.js';

/** Request ids: a sane incoming X-Request-Id is kept (tracing across proxies), else a fresh UUID. */
export function requestId(request: { headers: Record<string, string | string[] | undefined> }): string {
  const incoming = request.headers['x-request-id'];
  return typeof incoming === 'string' && /^[A-Za-z0-9._-]{1,64}$/.test(incoming) ? incoming : randomUUID();
}

/** Answers before routing, in the error shape of the API family the path is under (operator paths: v1's). */
function sendError(request: FastifyRequest, reply: FastifyReply, code: ErrorCode, message: string) {
  return errorShapeFor(request.url).send(request, reply, ERROR_STATUS[code], message, { code });
}

// What an operator or a load balancer asks to decide about the process: never shed.
const NEVER_SHED = new Set(['/healthz', '/readyz', '/metrics']);
/**
 * What may survive a full collection in a serving thread with a heap limit, as a share of the limit,
 * before it sheds: the rest is room for the requests in flight to finish.
 */
const HEAP_SHED_SHARE = 0.8;
// Paths outside /api and /admin that answer JSON or YAML rather than a page.
const NOT_PAGES = new Set(['/openapi.json', '/docs/json', '/docs/yaml']);

const isPage = (path: string) => !path.startsWith('/api/') && !path.startsWith('/admin/') && !NOT_PAGES.has(path);

// The overload page is sent before the account pages' own security headers are set: the same
// strictness, written out (only our own origin, never framed).
const PAGE_HEADERS = {
  'content-security-policy':
    "default-src 'self'; script-src 'self'; script-src-attr 'none'; style-src 'self'; img-src 'self' data:; " +
    "form-action 'self'; frame-ancestors 'none'; base-uri 'none'; object-src 'none'",
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
  'cache-control': 'no-store',
};

function bearer(request: FastifyRequest): string | undefined {
  const match = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '');
  return match?.[1];
}

/**
 * Health, readiness, metrics, request ids, URL bounds and load shedding: what an operator runs on.
 * Registered without encapsulation, so its hooks cover every route of the app.
 */
export const operations = fp(
  async (app: FastifyInstance, options: { services: AppServices; lifecycle: Lifecycle }) => {
    const { services, lifecycle } = options;
    const { metrics, config, db } = services;

    app.addHook('onRequest', async (request, reply) => {
      reply.header('x-request-id', request.id);
      if (request.url.length > MAX_URL_LENGTH) {
        return sendError(request, reply, 'URI_TOO_LONG', uriTooLongMessage);
      }
    });

    // While draining, tell keep-alive clients to reconnect (to another instance) rather than reuse
    // a socket this process is about to close, so no request is ever sent into a closing socket.
    app.addHook('onSend', async (_request, reply) => {
      if (lifecycle.draining) reply.header('connection', 'close');
    });

    app.addHook('onResponse', async (request, reply) => {
      const labels = { method: request.method, route: request.routeOptions.url ?? 'unmatched', status: String(reply.statusCode) };
      metrics.requests.inc(labels);
      metrics.duration.observe(labels, reply.elapsedTime / 1000);
    });

    // Under overload, answer 503 at once instead of letting latency grow without bound. This is
    // the first hook after the request id, so a shed request never reaches authentication, rate
    // limits or credits: it costs the client nothing and the server almost nothing.
    // A serving thread with a heap limit sheds before it would reach it (and end, stopping the server).
    const heapLimited = !isMainThread && config.threadHeapMb > 0;
    const monitor = new EventLoopMonitor({ ...config.loadShedding, maxHeapShare: heapLimited ? HEAP_SHED_SHARE : 0 });
    if (monitor.enabled) {
      monitor.start();
      app.addHook('onClose', async () => monitor.stop());
      const assets = loadAssets();
      app.addHook('onRequest', async (request, reply) => {
        const path = request.url.split('?')[0]!;
        if (NEVER_SHED.has(path) || !monitor.overloaded()) return;
        reply.header('retry-after', '1');
        if (isPage(path)) {
          const page = overloadedPage({ assets, viewer: null, path });
          return reply.code(503).headers(PAGE_HEADERS).type('text/html; charset=utf-8').send(page);
        }
        return sendError(request, reply, 'UNAVAILABLE', 'Service overloaded, please retry shortly');
      });
    }

    app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));

    // Readiness depends on the database only: a Redis blip must not pull every instance out at once.
    app.get('/readyz', { schema: { hide: true } }, async (_request, reply) => {
      if (lifecycle.draining) return reply.code(503).send({ status: 'draining' });
      try {
        await Promise.race([ping(db), new Promise((_, reject) => setTimeout(() => reject(new Error('timeout')), 1000).unref())]);
        return { status: 'ready' };
      } catch {
        return reply.code(503).header('retry-after', '2').send({ status: 'database unavailable' });
      }
    });

    app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
      if (config.metricsToken && bearer(request) !== config.metricsToken) {
        return reply.code(401).send({ code: 401, message: 'metrics need Authorization: Bearer <METRICS_TOKEN>' });
      }
      try {
        const { contentType, text } = await scrape(metrics);
        return reply.type(contentType).send(text);
      } catch (err) {
        // With workers, a scrape the primary could not complete: no partial figures, which would read as drops.
        request.log.warn({ err }, 'metrics: the workers could not be scraped');
        return reply.code(503).header('retry-after', '5').send({ code: 503, message: 'metrics are not available; try again' });
      }
    });
  },
  { name: 'dealsignal-operations' },
);
