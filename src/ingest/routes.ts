// POST /admin/ingest/:kind: the upload is streamed straight into the import (never buffered), so
// its size is bounded only by the import's own limits. Authorised by the operator's token only;
// admin errors have their own small shape: { "error": "…" }.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppServices } from '../app-services.js';
import { errorHandling, jsonErrorShape } from '../platform/http/index.js';
import { StringEnum } from '../catalog/index.js';
import { INGEST_KINDS, ingest, isIngestKind, summarize } from './importer.js';

export interface AdminOptions {
  /** ADMIN_TOKEN: the one credential the admin routes accept (as "Authorization: Bearer <token>"). */
  adminToken: string;
}

/** Body types taken as a raw stream; the content itself decides between NDJSON and a JSON array. */
export const INGEST_CONTENT_TYPES = [
  'application/x-ndjson',
  'application/ndjson',
  'application/jsonl',
  'application/json',
  'text/plain',
  'application/octet-stream',
];

const IngestParams = Type.Object({ kind: Type.String({ description: `One of ${INGEST_KINDS.join(', ')}` }) });
const IngestQuery = Type.Object(
  {
    skipInvalid: Type.Optional(
      Type.Boolean({ description: 'Import the valid records and report the others (default false: all-or-nothing)' }),
    ),
    format: Type.Optional(StringEnum(['auto', 'ndjson', 'json'] as const, 'Input format (default auto)')),
  },
  { additionalProperties: false },
);

/** Admin errors: { "error": "…" }. */
const ADMIN_ERROR_SHAPE = jsonErrorShape((_status, message) => ({ error: message }), {
  internalMessage: 'Internal server error',
  unavailableMessage: 'Service temporarily unavailable, please retry shortly',
  notFoundMessage: 'Not found',
  clientMessage: (error) =>
    error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE'
      ? `Unsupported Content-Type; send the records as ${INGEST_CONTENT_TYPES.join(', ')}`
      : undefined,
});

const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();

/** Compares digests (fixed length) in constant time, so timing reveals nothing about the token. */
function isAdminToken(header: string | undefined, expected: Buffer): boolean {
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header ?? '');
  return match !== null && timingSafeEqual(digest(match[1]!), expected);
}

/** The body, ending in an error when the client stopped sending before the end it announced. */
async function* completeUpload(raw: IncomingMessage, body: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  yield* body;
  // An aborted request can end its stream quietly; only a complete one reached its announced end.
  // (Injected test requests have no such flag.)
  if (raw.complete === false) throw new Error('the upload was interrupted before its end');
}

function decoded(request: FastifyRequest, body: Readable): Readable | string {
  const encoding = (request.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
  if (encoding === 'identity') return body;
  if (encoding !== 'gzip') return `Content-Encoding ${encoding} is not supported (use gzip or none)`;
  const gunzip = createGunzip();
  body.on('error', (err) => gunzip.destroy(err));
  return body.pipe(gunzip);
}

export async function adminRoutes(
  app: FastifyInstance,
  services: Pick<AppServices, 'db'> & Partial<Pick<AppServices, 'metrics'>>,
  options: AdminOptions,
): Promise<void> {
  if (options.adminToken === '') throw new Error('adminRoutes needs a non-empty admin token');
  const expected = digest(options.adminToken);
  const send = (reply: FastifyReply, status: number, error: string) =>
    reply.code(status).send(ADMIN_ERROR_SHAPE.body(status, error));

  await app.register(errorHandling, { shape: ADMIN_ERROR_SHAPE });

  // Before anything else (and before the body is read): only the operator's token gets in.
  // A customer API key, or anything else, is refused the same way, whatever the path.
  app.addHook('onRequest', async (request, reply) => {
    if (!isAdminToken(request.headers.authorization, expected)) {
      return send(reply, 403, 'Forbidden: admin routes need Authorization: Bearer <ADMIN_TOKEN>');
    }
  });

  // Uploads are passed on as the request stream itself: nothing is buffered here.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(INGEST_CONTENT_TYPES, (_request, payload, done) => done(null, payload));

  app
    .withTypeProvider<TypeBoxTypeProvider>()
    .post('/ingest/:kind', { schema: { hide: true, params: IngestParams, querystring: IngestQuery } }, async (request, reply) => {
      const { kind } = request.params;
      if (!isIngestKind(kind)) return send(reply, 404, `Unknown kind "${kind}"; kinds: ${INGEST_KINDS.join(', ')}`);
      const body = request.body as Readable | undefined;
      let source: AsyncIterable<Buffer> = (async function* () {})();
      if (body) {
        const stream = decoded(request, body);
        if (typeof stream === 'string') return send(reply, 415, stream);
        source = completeUpload(request.raw, stream);
      }
      const report = await ingest(services.db, kind, source, {
        skipInvalid: request.query.skipInvalid === true,
        format: request.query.format ?? 'auto',
      });
      request.log.info(
        { ingest: { ...report, rejects: report.rejects.length, replaced: report.replaced.length } },
        summarize(report),
      );
      // 422: the records were refused (nothing changed); 400: the upload itself was incomplete.
      if (report.committed && services.metrics) {
        for (const outcome of ['inserted', 'updated', 'unchanged', 'rejected'] as const) {
          if (report[outcome] > 0) services.metrics.ingestRecords.inc({ kind, outcome }, report[outcome]);
        }
      }
      const status = report.committed ? 200 : report.failure === 'input-interrupted' ? 400 : 422;
      return reply.code(status).header('cache-control', 'no-store').send(report);
    });
}
