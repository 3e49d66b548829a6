import { DealSignalError, errorBodyOf } from './errors.js';

/** How the client retries a call the server answered 429 or 503 (or, for reads, a network failure). */
export interface RetryOptions {
  /** Retries after the first attempt (default 3; 0 turns retrying off). */
  retries?: number;
  /** The longest the client waits before one retry, in ms (default 30,000). A Retry-After longer than this is not waited for: the error is thrown at once. */
  maxDelayMs?: number;
  /** The first wait when the answer names none (doubled each retry, with full jitter), in ms (default 500). */
  baseDelayMs?: number;
}

export interface ClientOptions {
  /** The API key; sent as `x-lot-api-key` to v1 and `Authorization: Bearer` to v2. */
  apiKey: string;
  /** The server's base URL (default http://127.0.0.1:3000). */
  baseUrl?: string;
  retry?: RetryOptions;
  /** A fetch to use instead of the global one (a proxy agent, a test double, an older runtime's polyfill). */
  fetch?: typeof fetch;
  /** Extra headers sent with every call (e.g. a User-Agent where the runtime lets one be set). */
  headers?: Record<string, string>;
}

export type Family = 'v1' | 'v2';
export type QueryValue = string | number | boolean | readonly (string | number)[] | null | undefined;

export interface CallOptions {
  /** Cancels the call, a wait between retries included. */
  signal?: AbortSignal;
  /** Sent as If-None-Match: a matching ETag gets `undefined` back (304: not counted, no credit). */
  ifNoneMatch?: string;
}

export interface HttpRequest {
  family: Family;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** A path under the base URL, with its query string if it has one already (v1's Link targets). */
  path: string;
  query?: Record<string, QueryValue>;
  body?: unknown;
  options?: CallOptions;
}

export interface HttpResponse<T> {
  status: number;
  headers: Headers;
  /** The parsed JSON body; undefined for a 304 or an empty body. */
  body: T;
  requestId: string | undefined;
}

const RETRIED_STATUSES = new Set([429, 503]);

/** Seconds from a Retry-After header (delta-seconds or an HTTP date), or undefined. */
export function retryAfterSeconds(header: string | null, now = Date.now()): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  if (/^\d+$/.test(header.trim())) return Number(header.trim());
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}

/** `a=1&b=x,y`: undefined and null left out, lists comma-separated as the API takes them. */
export function queryString(query: Record<string, QueryValue> = {}): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    search.set(name, Array.isArray(value) ? value.join(',') : String(value));
  }
  const text = search.toString();
  return text === '' ? '' : `?${text}`;
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** A fresh request id (kept across the retries of one call, so the server's logs tie them together). */
function newRequestId(): string {
  const bytes = new Uint8Array(12);
  crypto.getRandomValues(bytes);
  return `dsc-${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

/** Sends calls to one server with one key: auth per family, JSON both ways, retries, typed errors. */
export class Transport {
  readonly baseUrl: string;
  private readonly apiKey: string;
  private readonly fetchImpl: typeof fetch;
  private readonly headers: Record<string, string>;
  private readonly retries: number;
  private readonly maxDelayMs: number;
  private readonly baseDelayMs: number;

  constructor(options: ClientOptions) {
    if (typeof options.apiKey !== 'string' || options.apiKey === '') throw new TypeError('DealSignal: apiKey is required');
    this.apiKey = options.apiKey;
    this.baseUrl = (options.baseUrl ?? 'http://127.0.0.1:3000').replace(/\/+$/, '');
    this.fetchImpl = options.fetch ?? ((input, init) => fetch(input, init));
    this.headers = options.headers ?? {};
    this.retries = Math.max(0, options.retry?.retries ?? 3);
    this.maxDelayMs = options.retry?.maxDelayMs ?? 30_000;
    this.baseDelayMs = options.retry?.baseDelayMs ?? 500;
  }

  private authHeader(family: Family): Record<string, string> {
    return family === 'v1' ? { 'x-lot-api-key': this.apiKey } : { authorization: `Bearer ${this.apiKey}` };
  }

  /** How long to wait before retry number `attempt` (0-based), or undefined when the client gives up. */
  private delayBefore(attempt: number, retryAfter: number | undefined): number | undefined {
    if (attempt >= this.retries) return undefined;
    if (retryAfter !== undefined) {
      const ms = retryAfter * 1000;
      if (ms > this.maxDelayMs) return undefined;
      // Jitter after the server's time, so clients told the same second do not return together.
      return Math.min(this.maxDelayMs, ms + Math.random() * Math.min(1000, ms / 4 + 100));
    }
    return Math.random() * Math.min(this.maxDelayMs, this.baseDelayMs * 2 ** attempt);
  }

  async send<T>(request: HttpRequest): Promise<HttpResponse<T>> {
    const url = `${this.baseUrl}${request.path}${queryString(request.query)}`;
    const requestId = newRequestId();
    const headers: Record<string, string> = {
      accept: 'application/json',
      ...this.headers,
      ...this.authHeader(request.family),
      'x-request-id': requestId,
    };
    if (request.body !== undefined) headers['content-type'] = 'application/json';
    if (request.options?.ifNoneMatch !== undefined) headers['if-none-match'] = request.options.ifNoneMatch;
    const init: RequestInit = {
      method: request.method,
      headers,
      body: request.body === undefined ? undefined : JSON.stringify(request.body),
      signal: request.options?.signal,
    };
    for (let attempt = 0; ; attempt++) {
      let response: Response;
      try {
        response = await this.fetchImpl(url, init);
      } catch (cause) {
        // No answer: a read is safe to send again; a write may have been applied, so it is not retried.
        const delay =
          request.method === 'GET' && !request.options?.signal?.aborted ? this.delayBefore(attempt, undefined) : undefined;
        if (delay === undefined) {
          throw new DealSignalError({
            status: 0,
            message: `${request.method} ${url}: no answer (${String(cause)})`,
            method: request.method,
            url,
            requestId,
            cause,
          });
        }
        await sleep(delay, request.options?.signal);
        continue;
      }
      const answeredId = response.headers.get('x-request-id') ?? requestId;
      if (response.ok || response.status === 304) {
        const text = response.status === 304 ? '' : await response.text();
        return {
          status: response.status,
          headers: response.headers,
          body: (text === '' ? undefined : JSON.parse(text)) as T,
          requestId: answeredId,
        };
      }
      const retryAfter = retryAfterSeconds(response.headers.get('retry-after'));
      const delay = RETRIED_STATUSES.has(response.status) ? this.delayBefore(attempt, retryAfter) : undefined;
      if (delay !== undefined) {
        await response.body?.cancel();
        await sleep(delay, request.options?.signal);
        continue;
      }
      const text = await response.text();
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = undefined;
      }
      const error = errorBodyOf(parsed);
      throw new DealSignalError({
        status: response.status,
        message: error?.message ?? `${request.method} ${url} answered ${response.status}`,
        body: error?.body,
        requestId: answeredId,
        retryAfterSeconds: retryAfter,
        method: request.method,
        url,
      });
    }
  }
}
