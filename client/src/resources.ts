import type { operations, paths } from './generated/openapi.js';
import type { CallOptions, HttpRequest, QueryValue, Transport } from './http.js';

type Operation = keyof operations;
type JsonOf<R> = R extends { content: { 'application/json': infer B } } ? B : never;

/** An operation's query parameters, as the server's schema declares them. */
export type QueryOf<K extends Operation> = NonNullable<operations[K]['parameters']['query']>;
/** An operation's JSON request body. */
export type BodyOf<K extends Operation> = operations[K] extends { requestBody?: { content: { 'application/json': infer B } } }
  ? B
  : never;
/** An operation's successful (200 or 201) JSON answer. */
export type ResultOf<K extends Operation> = JsonOf<
  operations[K]['responses'][Extract<keyof operations[K]['responses'], 200 | 201>]
>;

/** A v2 signal list's path, as the server's document lists it (`/api/v2/signals/investors`). */
export type SignalPath = Extract<keyof paths, `/api/v2/signals/${string}`>;
type GetOf<P extends keyof paths> = paths[P] extends { get: infer O } ? O : never;
/** The query parameters of a path's GET. */
export type QueryOfPath<P extends keyof paths> = NonNullable<GetOf<P> extends { parameters: { query?: infer Q } } ? Q : never>;
/** The 200 JSON answer of a path's GET. */
export type ResultOfPath<P extends keyof paths> = JsonOf<GetOf<P> extends { responses: { 200: infer R } } ? R : never>;

/** The list at a v2 signal path, typed by the server's document. */
export type SignalEndpointAt<P extends SignalPath> = SignalEndpoint<QueryOfPath<P>, Extract<ResultOfPath<P>, V2Body>>;

/** Where a page walk stops early. Without caps it walks to the last page. */
export interface PageCaps extends CallOptions {
  /** Pages fetched at most. */
  maxPages?: number;
  /** v2: credits spent at most (each data page costs 1; a walk stops before a page that would exceed this). */
  maxCredits?: number;
}

const asQuery = (params: object | undefined) => params as Record<string, QueryValue> | undefined;

async function call<T>(transport: Transport, request: HttpRequest): Promise<T> {
  return (await transport.send<T>(request)).body;
}

// ---------------------------------------------------------------- v1

/** The shape every v1 list body shares. */
interface V1Body {
  response: { data: unknown[] };
}

/** One v1 page: the body as sent, its records as `data`, and the paging the headers carry. */
export type V1Page<B extends V1Body> = B & {
  /** The page's records (`response.data`). */
  data: B['response']['data'];
  /** Records matching the filters (X-Total-Count). */
  total: number;
  /** This page's number (X-Page). */
  page: number;
  /** Records per page (X-Per-Page). */
  perPage: number;
  hasNextPage: boolean;
  /** The next page's path and query, from the Link header (rel="next"). */
  nextPath: string | undefined;
};

/** The target of `rel="next"` in a Link header, as a path and query (resolved against the client's base URL). */
export function nextLink(header: string | null): string | undefined {
  for (const part of header?.split(',') ?? []) {
    const match = /<([^>]+)>\s*;\s*rel="?next"?/i.exec(part);
    if (match) {
      const target = new URL(match[1]!, 'http://base.invalid');
      return `${target.pathname}${target.search}`;
    }
  }
  return undefined;
}

/** A v1 data set: one page, every page (through the Link header), every record, and the batch lookup. */
export class V1Dataset<Q extends object, B extends V1Body, LookupBody, LookupResult> {
  constructor(
    private readonly transport: Transport,
    private readonly path: string,
  ) {}

  private async fetchPage(path: string, params: Q | undefined, options?: CallOptions): Promise<V1Page<B>> {
    const { body, headers } = await this.transport.send<B>({
      family: 'v1',
      method: 'GET',
      path,
      query: asQuery(params),
      options,
    });
    const nextPath = nextLink(headers.get('link'));
    return {
      ...body,
      data: body.response.data,
      total: Number(headers.get('x-total-count') ?? body.response.data.length),
      page: Number(headers.get('x-page') ?? 1),
      perPage: Number(headers.get('x-per-page') ?? body.response.data.length),
      hasNextPage: nextPath !== undefined,
      nextPath,
    };
  }

  /** One page (20 records, newest first). */
  list(params?: Q, options?: CallOptions): Promise<V1Page<B>> {
    return this.fetchPage(this.path, params, options);
  }

  /** Every page from `params.page` (default 1) on, following the Link header's rel="next". */
  async *pages(params?: Q, caps: PageCaps = {}): AsyncGenerator<V1Page<B>, void, undefined> {
    let page = await this.fetchPage(this.path, params, caps);
    for (let fetched = 1; ; fetched++) {
      yield page;
      if (!page.nextPath || (caps.maxPages !== undefined && fetched >= caps.maxPages)) return;
      page = await this.fetchPage(page.nextPath, undefined, caps);
    }
  }

  /** Every record of every page, in the list's order. */
  async *all(params?: Q, caps: PageCaps = {}): AsyncGenerator<B['response']['data'][number], void, undefined> {
    for await (const page of this.pages(params, caps)) yield* page.data as B['response']['data'][number][];
  }

  /** Many companies at once (up to 100 websites and LinkedIn URLs): one result per input, in input order. */
  lookup(body: LookupBody, options?: CallOptions): Promise<LookupResult> {
    return call(this.transport, { family: 'v1', method: 'POST', path: `${this.path}/lookup`, body, options });
  }
}

// ---------------------------------------------------------------- v2 signals

/** The shape every v2 list body shares. */
interface V2Body {
  data: unknown[];
  pagination: { hasNextPage: boolean };
  meta: { creditsUsed: number };
}

/** How many credits the next page will cost (a count-mode page is free). */
const creditsOfNextPage = (params: { count?: boolean } | undefined) => (params?.count ? 0 : 1);

/** A v2 signal endpoint: one page, every page (through `pagination.hasNextPage`), every record. */
export class SignalEndpoint<Q extends { page?: number; count?: boolean }, B extends V2Body> {
  constructor(
    private readonly transport: Transport,
    private readonly path: string,
  ) {}

  /** One page: `{success, data, pagination, meta}` as sent. */
  list(params?: Q, options?: CallOptions): Promise<B> {
    return call(this.transport, { family: 'v2', method: 'GET', path: this.path, query: asQuery(params), options });
  }

  /** Every page from `params.page` (default 1) while `hasNextPage`, within the caps. */
  async *pages(params?: Q, caps: PageCaps = {}): AsyncGenerator<B, void, undefined> {
    let page = params?.page ?? 1;
    let credits = 0;
    for (let fetched = 0; ; fetched++) {
      if (caps.maxPages !== undefined && fetched >= caps.maxPages) return;
      if (caps.maxCredits !== undefined && credits + creditsOfNextPage(params) > caps.maxCredits) return;
      const result = await this.list({ ...params, page } as Q, caps);
      credits += result.meta.creditsUsed;
      yield result;
      if (!result.pagination.hasNextPage) return;
      page += 1;
    }
  }

  /** Every record of every page, in the list's order. */
  async *all(params?: Q, caps: PageCaps = {}): AsyncGenerator<B['data'][number], void, undefined> {
    for await (const page of this.pages(params, caps)) yield* page.data as B['data'][number][];
  }
}

// ---------------------------------------------------------------- v2 changes feed

export type ChangesPage = ResultOf<'listChanges'>;
export type Change = ChangesPage['data'][number];

/** The changes feed: every change to the data, oldest first, resumable from any cursor. */
export class ChangesFeed {
  constructor(private readonly transport: Transport) {}

  /**
   * One page of changes after `since` (from the oldest retained without it). `since: 'now'` answers an
   * empty page whose `nextCursor` is the head, for free: the cursor to follow the feed from this moment.
   */
  list(params?: QueryOf<'listChanges'>, options?: CallOptions): Promise<ChangesPage> {
    return call(this.transport, { family: 'v2', method: 'GET', path: '/api/v2/changes', query: asQuery(params), options });
  }

  /**
   * Pages until caught up (`hasNextPage: false`), each starting at the previous page's `nextCursor`.
   * Store `page.pagination.nextCursor` once a page is applied and pass it as `since` next time.
   * With `since: 'now'` there is one page, empty and free, carrying the head's cursor.
   */
  async *pages(params: QueryOf<'listChanges'> = {}, caps: PageCaps = {}): AsyncGenerator<ChangesPage, void, undefined> {
    let since = params.since;
    let credits = 0;
    for (let fetched = 0; ; fetched++) {
      if (caps.maxPages !== undefined && fetched >= caps.maxPages) return;
      const free = params.count === true || since === 'now';
      if (caps.maxCredits !== undefined && credits + (free ? 0 : 1) > caps.maxCredits) return;
      const page = await this.list({ ...params, since }, caps);
      credits += page.meta.creditsUsed;
      yield page;
      if (!page.pagination.hasNextPage || params.count) return;
      since = page.pagination.nextCursor;
    }
  }

  /**
   * Every change until caught up; each carries its own `cursor` to resume right after it. With
   * `since: 'now'` none (nothing follows the head yet): take the cursor with `list({ since: 'now' })`.
   */
  async *all(params: QueryOf<'listChanges'> = {}, caps: PageCaps = {}): AsyncGenerator<Change, void, undefined> {
    for await (const page of this.pages(params, caps)) yield* page.data;
  }
}

// ---------------------------------------------------------------- v2 webhooks

export type Webhook = ResultOf<'getWebhook'>['data'];

/** Companies: the list (`list`, `pages`, `all`, as every v2 list), and one company with its signals. */
export class Companies extends SignalEndpoint<QueryOf<'getCompanies'>, ResultOf<'getCompanies'>> {
  constructor(private readonly companies: Transport) {
    super(companies, '/api/v2/companies');
  }

  /** One company by its id, with a summary of its signals (one credit; a 404 for an unknown id). */
  get(id: string, options?: CallOptions): Promise<ResultOf<'getCompany'>> {
    return call(this.companies, { family: 'v2', method: 'GET', path: `/api/v2/companies/${encodeURIComponent(id)}`, options });
  }

  /** One company by its website domain or its LinkedIn page (exactly one of them). */
  lookup(params: QueryOf<'lookupCompany'>, options?: CallOptions): Promise<ResultOf<'lookupCompany'>> {
    return call(this.companies, {
      family: 'v2',
      method: 'GET',
      path: '/api/v2/companies/lookup',
      query: asQuery(params),
      options,
    });
  }
}

/** The webhooks API: subscriptions, their delivery log, tests and retries (management is free). */
export class Webhooks {
  constructor(private readonly transport: Transport) {}

  private send<T>(method: HttpRequest['method'], path: string, extra: Partial<HttpRequest> = {}): Promise<T> {
    return call(this.transport, { family: 'v2', method, path: `/api/v2/webhooks${path}`, ...extra });
  }

  create(body: BodyOf<'createWebhook'>, options?: CallOptions): Promise<ResultOf<'createWebhook'>> {
    return this.send('POST', '', { body, options });
  }
  list(params?: QueryOf<'listWebhooks'>, options?: CallOptions): Promise<ResultOf<'listWebhooks'>> {
    return this.send('GET', '', { query: asQuery(params), options });
  }
  get(id: string, options?: CallOptions): Promise<ResultOf<'getWebhook'>> {
    return this.send('GET', `/${encodeURIComponent(id)}`, { options });
  }
  update(id: string, body: BodyOf<'updateWebhook'>, options?: CallOptions): Promise<ResultOf<'updateWebhook'>> {
    return this.send('PUT', `/${encodeURIComponent(id)}`, { body, options });
  }
  delete(id: string, options?: CallOptions): Promise<ResultOf<'deleteWebhook'>> {
    return this.send('DELETE', `/${encodeURIComponent(id)}`, { options });
  }
  /** Sends a `system.test` event to the webhook now. */
  test(id: string, options?: CallOptions): Promise<ResultOf<'testWebhook'>> {
    return this.send('POST', `/${encodeURIComponent(id)}/test`, { options });
  }
  deliveries(
    id: string,
    params?: QueryOf<'listWebhookDeliveries'>,
    options?: CallOptions,
  ): Promise<ResultOf<'listWebhookDeliveries'>> {
    return this.send('GET', `/${encodeURIComponent(id)}/deliveries`, { query: asQuery(params), options });
  }
  /** Sends a delivery again (same event id); 1 credit when it succeeds. */
  retry(id: string, deliveryId: string, options?: CallOptions): Promise<ResultOf<'retryWebhookDelivery'>> {
    return this.send('POST', `/${encodeURIComponent(id)}/deliveries/${encodeURIComponent(deliveryId)}/retry`, { options });
  }
}

// ---------------------------------------------------------------- v2 monitors

export type Monitor = ResultOf<'getMonitor'>['data'];
export type MonitorTarget = ResultOf<'listMonitorTargets'>['data'][number];

/**
 * Monitors (`/api/v2/monitors`): watch lists of companies, sent every new signal about them by
 * webhook or email digest. Management is free; deliveries cost as webhook deliveries do. Adding and
 * removing targets is safe to retry (targets already there, or gone, are reported, not doubled).
 */
export class Monitors {
  constructor(private readonly transport: Transport) {}

  private send<T>(method: HttpRequest['method'], path: string, extra: Partial<HttpRequest> = {}): Promise<T> {
    return call(this.transport, { family: 'v2', method, path: `/api/v2/monitors${path}`, ...extra });
  }

  /** A new monitor; with `webhook_url`, `data.webhook.secret` (shown only here). */
  create(body: BodyOf<'createMonitor'>, options?: CallOptions): Promise<ResultOf<'createMonitor'>> {
    return this.send('POST', '', { body, options });
  }
  list(options?: CallOptions): Promise<ResultOf<'listMonitors'>> {
    return this.send('GET', '', { options });
  }
  get(id: string, options?: CallOptions): Promise<ResultOf<'getMonitor'>> {
    return this.send('GET', `/${encodeURIComponent(id)}`, { options });
  }
  update(id: string, body: BodyOf<'updateMonitor'>, options?: CallOptions): Promise<ResultOf<'updateMonitor'>> {
    return this.send('PUT', `/${encodeURIComponent(id)}`, { body, options });
  }
  delete(id: string, options?: CallOptions): Promise<ResultOf<'deleteMonitor'>> {
    return this.send('DELETE', `/${encodeURIComponent(id)}`, { options });
  }
  /** A page of the monitor's targets (newest first; `status`, `limit` ≤ 200, `offset`). */
  targets(id: string, params?: QueryOf<'listMonitorTargets'>, options?: CallOptions): Promise<ResultOf<'listMonitorTargets'>> {
    return this.send('GET', `/${encodeURIComponent(id)}/targets`, { query: asQuery(params), options });
  }
  /** Up to 500 domains, LinkedIn company or profile URLs; idempotent. */
  addTargets(id: string, body: BodyOf<'addMonitorTargets'>, options?: CallOptions): Promise<ResultOf<'addMonitorTargets'>> {
    return this.send('POST', `/${encodeURIComponent(id)}/targets`, { body, options });
  }
  removeTarget(id: string, targetId: string, options?: CallOptions): Promise<ResultOf<'removeMonitorTarget'>> {
    return this.send('DELETE', `/${encodeURIComponent(id)}/targets/${encodeURIComponent(targetId)}`, { options });
  }
  /** By ids and/or identifiers, up to 500 each. */
  removeTargets(
    id: string,
    body: BodyOf<'removeMonitorTargets'>,
    options?: CallOptions,
  ): Promise<ResultOf<'removeMonitorTargets'>> {
    return this.send('POST', `/${encodeURIComponent(id)}/targets/remove`, { body, options });
  }
  /** Sends again what the monitor's webhook was sent since a time (original event ids; 1 credit an event). */
  replay(id: string, body: BodyOf<'replayMonitor'>, options?: CallOptions): Promise<ResultOf<'replayMonitor'>> {
    return this.send('POST', `/${encodeURIComponent(id)}/replay`, { body, options });
  }
}

// ---------------------------------------------------------------- v2 enrichment

export type EnrichmentJob = ResultOf<'getCSVEnrichmentJob'>['data'];
export type EnrichmentResult = EnrichmentJob['results'][number];

/** How `wait` polls a job. */
export interface WaitOptions extends CallOptions {
  /** Between two reads of the job (default 1,000 ms; polling is free). */
  intervalMs?: number;
  /** Gives up (rejects) after this long (default 10 minutes). */
  timeoutMs?: number;
}

/**
 * CSV enrichment jobs: a list of companies matched to dealsignal's, each with its signals. `create`
 * costs 1 credit (with `wait: true` a small list comes back finished); reading a job is free.
 */
export class Enrichment {
  constructor(private readonly transport: Transport) {}

  /** Submits up to 1,000 companies; the job's id (and, with `wait` and in time, the finished job). */
  create(body: BodyOf<'createCSVEnrichmentJob'>, options?: CallOptions): Promise<ResultOf<'createCSVEnrichmentJob'>> {
    return call(this.transport, { family: 'v2', method: 'POST', path: '/api/v2/csv-enrichment', body, options });
  }

  /** The job: status, progress, summary and one page of results (`cursor`, `limit` ≤ 100). */
  get(jobId: string, params?: QueryOf<'getCSVEnrichmentJob'>, options?: CallOptions): Promise<ResultOf<'getCSVEnrichmentJob'>> {
    return call(this.transport, {
      family: 'v2',
      method: 'GET',
      path: `/api/v2/csv-enrichment/${encodeURIComponent(jobId)}`,
      query: asQuery(params),
      options,
    });
  }

  /** Polls the job until it has finished (completed or failed) and returns it as it then stands. */
  async wait(jobId: string, options: WaitOptions = {}): Promise<EnrichmentJob> {
    const { intervalMs = 1000, timeoutMs = 600_000, ...callOptions } = options;
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const job = (await this.get(jobId, { limit: 1 }, callOptions)).data;
      if (job.status === 'completed' || job.status === 'failed') return job;
      if (Date.now() + intervalMs > deadline) throw new Error(`enrichment job ${jobId} did not finish within ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  }

  /** Every result of a finished job, in input order, read a page of `limit` (default 100) at a time. */
  async *results(jobId: string, options: CallOptions & { limit?: number } = {}): AsyncGenerator<EnrichmentResult> {
    const { limit = 100, ...callOptions } = options;
    let cursor: string | undefined;
    for (;;) {
      const job = (await this.get(jobId, { limit, ...(cursor !== undefined && { cursor }) }, callOptions)).data;
      yield* job.results;
      if (job.nextCursor === null || job.results.length === 0) return;
      cursor = job.nextCursor;
    }
  }
}
