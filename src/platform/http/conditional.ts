// Conditional requests on the list endpoints. Every list response carries a weak ETag computed from
// exactly what it serves; a GET or HEAD whose If-None-Match matches it is answered 304 with no body
// and, as GitHub does for conditional requests, is neither counted against the rate limit nor charged.
// Whether a request is a 304 is known only once its page is, so for a request carrying If-None-Match
// keyedAccess hands its rate-limit check over (deferAdmission) instead of running it: notModified()
// runs it when the answer is not a 304, and the route's error handler before any error, so every
// request but a 304 is counted, and refused with the same 429, exactly as when the check runs first.
// Such a request has a window of its own first (keyedAccess: the conditional ceiling), so tags that
// never match cannot make the server build pages without bound; and tags are keyed with a server
// secret, so a client can only send back tags it was given, never compute one from what a page shows.
import { createHmac } from 'node:crypto';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route answers If-None-Match through notModified() (its options spread conditionalList). */
    conditional?: boolean;
  }
}

/** A list response may be kept by the client (never by a shared cache) and must be revalidated before each use. */
export const LIST_CACHE_CONTROL = 'private, no-cache';
/** An error answers for this moment (a limit, a balance, an outage, a refused parameter): never kept. */
export const ERROR_CACHE_CONTROL = 'no-store';

/** Rate-limit checks handed over by keyedAccess, waiting for their request's page. */
const pendingAdmissions = new WeakMap<FastifyRequest, () => Promise<void>>();

/** Whether the request may end in a 304: a GET or HEAD with If-None-Match on a conditional list route. */
export function mayBeNotModified(request: FastifyRequest): boolean {
  if (request.routeOptions.config.conditional !== true) return false;
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  return request.headers['if-none-match'] !== undefined;
}

/** Called by keyedAccess for a request that may be a 304 (mayBeNotModified): keeps its rate-limit check for later. */
export function deferAdmission(request: FastifyRequest, admit: () => Promise<void>): void {
  pendingAdmissions.set(request, admit);
}

/** Runs the request's deferred rate-limit check, if it has one (a refusal throws the 429). */
async function admitDeferred(request: FastifyRequest): Promise<void> {
  const admit = pendingAdmissions.get(request);
  if (!admit) return;
  pendingAdmissions.delete(request);
  await admit();
}

/**
 * The list pages' weak entity tags: the first 128 bits of an HMAC-SHA256, in base64url, over the
 * account that asked, the URL it asked for and the parts of what it is served. Keyed with a secret
 * of the server's (the same on every instance), so a tag cannot be computed from what a page shows:
 * without the key, a count-mode page's tag followed from its total alone, and a client past its limit
 * and out of credits could learn any filter's total by sending the candidates as If-None-Match. With
 * the account and the URL, a tag also says nothing about another URL or account serving the same.
 * Weak, because the tag covers what the client keeps (the data and its paging), not every byte: a v2
 * body's `meta` reports the balance of the moment and is left out.
 */
export class EntityTags {
  private readonly key: Buffer;

  /** `secret`: the server's (SESSION_SECRET); the tags' key is derived from it, never the secret itself. */
  constructor(secret: string) {
    this.key = createHmac('sha256', secret).update('dealsignal list entity tags').digest();
  }

  /** The tag of what `request` is served. Each part is length-prefixed, so no two lists of parts hash the same text. */
  of(request: FastifyRequest, ...parts: string[]): string {
    const hmac = createHmac('sha256', this.key);
    for (const part of [String(request.principal?.accountId ?? ''), request.url, ...parts]) {
      hmac.update(`${Buffer.byteLength(part)}:`).update(part);
    }
    return `W/"${hmac.digest().subarray(0, 16).toString('base64url')}"`;
  }
}

const ENTITY_TAG = /(?:W\/)?("[^"]*")/gi;

/**
 * Whether If-None-Match holds the tag: `*`, or any tag of its comma-separated list compared weakly
 * (RFC 9110 §8.8.3.2: the opaque parts are equal, `W/` or not). Anything that is no entity tag matches nothing.
 */
export function ifNoneMatchHolds(header: string | string[] | undefined, tag: string): boolean {
  if (header === undefined) return false;
  const value = Array.isArray(header) ? header.join(',') : header;
  if (value.trim() === '*') return true;
  const opaque = tag.slice(tag.indexOf('"'));
  for (const match of value.matchAll(ENTITY_TAG)) if (match[1] === opaque) return true;
  return false;
}

/**
 * The one step every list route takes between building its page and charging for it. Sets the
 * page's ETag and Cache-Control; when If-None-Match holds the tag, sends 304 (no body, not counted,
 * not charged) and returns true: the handler returns the reply. Otherwise runs the rate-limit check
 * a conditional request deferred (a 429 as ever, with its headers) and returns false: the handler
 * charges and sends the page as usual.
 */
export async function notModified(request: FastifyRequest, reply: FastifyReply, tag: string): Promise<boolean> {
  reply.header('etag', tag).header('cache-control', LIST_CACHE_CONTROL);
  if (ifNoneMatchHolds(request.headers['if-none-match'], tag)) {
    pendingAdmissions.delete(request);
    await reply.code(304).send();
    return true;
  }
  await admitDeferred(request);
  return false;
}

/**
 * The error handler of a conditional list route, in front of its family's: an error is never kept
 * and carries no tag, and a request whose rate-limit check was deferred is counted now, or refused
 * with the 429 it would have had, had the check run first. Then the family's handler answers.
 */
async function conditionalErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply): Promise<never> {
  reply.removeHeader('etag');
  reply.header('cache-control', ERROR_CACHE_CONTROL);
  await admitDeferred(request);
  throw error;
}

const IF_NONE_MATCH_DOC =
  'An ETag this endpoint returned for the same URL (or a comma-separated list of them, or `*`). When it matches the ' +
  'current page, the answer is 304 with no body: not counted against the rate limit and free of credits. Tags are ' +
  "keyed with the server's secret, the account and the URL: only a tag the server gave this account for this URL " +
  "can match. Requests carrying If-None-Match have a window of their own, 10 times the plan's limit by default " +
  '(RATE_LIMIT_CONDITIONAL_MULTIPLIER): past it they are 429, matching or not.';

const RESPONSE_HEADERS_DOC = {
  ETag: {
    type: 'string',
    description: 'Weak validator of the data served (v2: `data` and `pagination`; v1: body and paging headers)',
  },
  'Cache-Control': { type: 'string', description: '`private, no-cache`: keep it if you like, revalidate with If-None-Match' },
};

type DocumentedSchema = Record<string, unknown> & { headers?: object; response?: Record<string, object> };

/** The OpenAPI document's view of a conditional route: the If-None-Match header, the 304 and the headers of both. */
function documentConditional({ schema, url }: { schema: unknown; url: string }) {
  const route = (schema ?? {}) as DocumentedSchema;
  const headers = (route.headers ?? { type: 'object', properties: {} }) as { properties?: object };
  const response = route.response ?? {};
  const ok = (response[200] ?? {}) as { headers?: object };
  return {
    url,
    schema: {
      ...route,
      headers: {
        ...headers,
        type: 'object',
        properties: { ...headers.properties, 'If-None-Match': { type: 'string', description: IF_NONE_MATCH_DOC } },
      },
      response: {
        ...response,
        200: { ...ok, headers: { ...ok.headers, ...RESPONSE_HEADERS_DOC } },
        304: {
          type: 'null',
          description: 'Not Modified: If-None-Match holds the current ETag; no body, not counted, no credit',
          headers: RESPONSE_HEADERS_DOC,
        },
      },
    },
  };
}

/**
 * Route options every list route spreads into its own: marks it conditional (keyedAccess may defer
 * its rate-limit check), puts conditionalErrors in front of the family's error handler, and documents it.
 */
export const conditionalList = {
  config: { conditional: true, swaggerTransform: documentConditional },
  errorHandler: conditionalErrors,
};
