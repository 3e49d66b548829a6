// POST /api/v1/funding/lookup and /api/v1/m-a/lookup: a v1 dataset's records for up to 100
// companies at once, by website or LinkedIn page (src/read/lookup.ts). Same key, same rate
// limit (one request, whatever the number of inputs) and same error shape as the list endpoints.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type, type TObject, type TSchema } from '@sinclair/typebox';
import type { FastifyBodyParser, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Dataset, StoredRow, V1Api, ValidQuery } from '../catalog/index.js';
import { eachV1Endpoint } from '../catalog/index.js';
import type { AppServices } from '../app-services.js';
import { errorHandling, keyedRoute, v1ErrorShape, type ApiFamily } from '../platform/http/index.js';
import { SUCCESS_MESSAGE } from './v1-reply.js';
import {
  LOOKUP_MAX_RECORD_BYTES,
  LOOKUP_MAX_RESPONSE_BYTES,
  LOOKUP_RECORDS_PER_INPUT,
  LookupBody,
  LookupResponse,
  MAX_LOOKUP_INPUTS,
} from '../catalog/index.js';
import { ApiError, invalidParameter, jsonSyntaxProblem } from '../catalog/index.js';
import { companyLookup, LOOKUP_BODY_SHAPE, lookupBodyProblem, type LookupAnswer } from './lookup.js';

/** 100 inputs as long as the list filter takes them (2,048 characters) fit, with room to spare. */
const LOOKUP_BODY_LIMIT = 256 * 1024;

const NO_QUERY = Type.Object({}, { additionalProperties: false });

const lookupErrorShape = {
  ...v1ErrorShape,
  clientMessage: (error: { code?: string; message: string }) =>
    error.code === 'FST_ERR_CTP_BODY_TOO_LARGE'
      ? `The body is larger than ${LOOKUP_BODY_LIMIT / 1024} KiB (at most ${MAX_LOOKUP_INPUTS} inputs a request)`
      : undefined,
};

/**
 * The body is read as JSON whatever its Content-Type says (so `curl -d '{…}'`, which labels it a
 * form, works): the endpoint takes nothing else, and anything that is not JSON is a 400 saying so.
 */
const parseJsonBody: FastifyBodyParser<string> = (_request, text, done) => {
  if (text.trim() === '') return done(invalidParameter(`The body is empty: send a JSON object ${LOOKUP_BODY_SHAPE}`), undefined);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    return done(invalidParameter(`The body is not valid JSON (${jsonSyntaxProblem(error)})`), undefined);
  }
  // Fastify gives a request without a body a null one: a null sent is told apart here.
  if (body === null) return done(invalidParameter(`The body must be a JSON object ${LOOKUP_BODY_SHAPE}, not null`), undefined);
  done(null, body);
};

/**
 * A body is read as it is sent: a compressed one (Content-Encoding: gzip, deflate, br, …) is refused
 * before it is read, rather than parsed as JSON and refused for its bytes. 100 inputs are at most a
 * few kilobytes, so compression would save a client little and cost the server a decompressor.
 */
async function refuseEncodedBody(request: FastifyRequest): Promise<void> {
  const encoding = request.headers['content-encoding']?.trim().toLowerCase();
  if (encoding === undefined || encoding === '' || encoding === 'identity') return;
  const named = /^[a-z0-9._-]{1,32}$/.test(encoding) ? `Content-Encoding ${encoding}` : 'This Content-Encoding';
  throw new ApiError('UNSUPPORTED_MEDIA_TYPE', `${named} is not supported: send the JSON body uncompressed`);
}

const refusal = (message: string) => ({ error: [{ keyword: 'schema', instancePath: '', schemaPath: '', params: {}, message }] });

/** The body is checked by the lookup service, whose messages name the field and the rule. */
const validateLookupBody = (body: unknown) => {
  const problem = lookupBodyProblem(body);
  return problem === undefined ? { value: body } : refusal(problem);
};

/** Like every v1 endpoint, the lookup refuses a parameter it does not take: here, any (a `page` would do nothing). */
const validateNoQuery = (query: unknown) => {
  const [name] = Object.keys(query ?? {});
  if (name === undefined) return { value: query };
  return refusal(`Unknown parameter "${name}": the lookup takes no query parameters; send its inputs in the JSON body`);
};

/** The lookup's answers beyond the family's: its body's bounds, and a rate limit counted per request. */
function lookupErrors(family: ApiFamily) {
  const { 400: refused, 429: rateLimited } = family.errors;
  return {
    400: {
      ...refused,
      description: `The body is not JSON, not an object, has an unknown field, a field of the wrong type, no input or more than ${MAX_LOOKUP_INPUTS}, or a query parameter; the message names it`,
    },
    413: { ...refused, description: `The body is larger than ${LOOKUP_BODY_LIMIT / 1024} KiB` },
    415: { ...refused, description: 'The body is compressed (a `Content-Encoding` other than `identity`): send it as it is' },
    429: { ...rateLimited, description: `${rateLimited.description}; a lookup is one request` },
  };
}

/** Sends a lookup's answer in the v1 envelope, assembled from the records' stored JSON text. */
function sendLookup(reply: FastifyReply, answer: LookupAnswer) {
  const body = `{"message":${JSON.stringify(SUCCESS_MESSAGE)},"params":${JSON.stringify(answer.params)},"response":{"data":${answer.dataJson}}}`;
  return reply.header('cache-control', 'no-store').type('application/json; charset=utf-8').send(body);
}

function lookupRoute<Q extends TObject, F, R extends TSchema, Row extends StoredRow>(
  app: FastifyInstance,
  services: AppServices,
  family: ApiFamily,
  dataset: Dataset<Q, F, R, Row>,
  api: V1Api<ValidQuery<Q>>,
): void {
  const lookup = companyLookup(services.readModel, dataset, { listUrl: `${services.config.publicUrl}/api/v1${api.path}` });
  app.withTypeProvider<TypeBoxTypeProvider>().post(
    `${api.path}/lookup`,
    {
      ...keyedRoute(family, {
        tags: ['v1 lookup'],
        operationId: api.operationId.replace(/^list/, 'lookup'),
        summary: `${dataset.label[0]!.toUpperCase()}${dataset.label.slice(1)} of up to ${MAX_LOOKUP_INPUTS} companies, by website or LinkedIn page`,
        description:
          `One result per input, in input order (websites, then LinkedIn pages): each input is compared exactly as ` +
          `\`GET /api/v1${api.path}?website=…\` (or \`linkedin_url=…\`) compares it, and its records are the ones that ` +
          `request serves, newest first: its first page, at most ${LOOKUP_RECORDS_PER_INPUT} (\`total\` counts them all, ` +
          '`next` is the list URL of the rest). An input that filter refuses is `invalid`, with the reason. A company ' +
          'asked for again (in any spelling) is answered once: its repeats carry `duplicate_of`, the index of the first ' +
          `result, and no records. An answer holds at most ${LOOKUP_MAX_RECORD_BYTES / 1024 / 1024} MiB of records ` +
          '(filled in input order; an input past that gets `next` instead) and is at most ' +
          `${LOOKUP_MAX_RESPONSE_BYTES / 1024 / 1024} MiB in all. One request against the rate limit, whatever the number of inputs.`,
        querystring: NO_QUERY,
        body: api.lookupExample ? { ...LookupBody, examples: [api.lookupExample] } : LookupBody,
        response: {
          200: { ...LookupResponse(Type.Ref(dataset.record)), description: `Each input's ${dataset.label}` },
          ...lookupErrors(family),
        },
      }),
      preParsing: refuseEncodedBody,
      bodyLimit: LOOKUP_BODY_LIMIT,
      validatorCompiler: ({ httpPart }) => (httpPart === 'body' ? validateLookupBody : validateNoQuery),
    },
    async (request, reply) => sendLookup(reply, await lookup(request.body)),
  );
}

/** The lookup routes of every v1 dataset, in a scope of their own (their body parser and limit). */
export async function lookupRoutes(app: FastifyInstance, services: AppServices, family: ApiFamily): Promise<void> {
  await app.register(errorHandling, { shape: lookupErrorShape, notFound: false });
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, parseJsonBody);
  eachV1Endpoint((dataset, api) => lookupRoute(app, services, family, dataset, api));
}
