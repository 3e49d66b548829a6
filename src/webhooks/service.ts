// Webhook subscriptions as their owner manages them, through the API (/api/v2/webhooks, the
// published contract's shapes) or the profile page: create, read, change, delete, send a test
// event, read the delivery log, retry a delivery. Framework-free: the routes and the pages call it.
import { randomUUID } from 'node:crypto';
import type { Database } from '../platform/db/index.js';
import { recordSentDelivery } from './attempt-queries.js';
import { markPrepaid } from './charge-queries.js';
import { findDelivery, listDeliveries, type DeliveryRow } from './delivery-log-queries.js';
import {
  deleteWebhook,
  deleteWebhookRow,
  findWebhook,
  insertWebhook,
  insertWebhookRow,
  replaceWebhookEndpoint,
  listWebhooks,
  updateWebhook,
  webhooksSubscribedTo,
  type WebhookRow,
} from './subscription-queries.js';
import { enqueueDeliveries, insertEvents, type NewDelivery, type NewEvent } from './delivery-queue-queries.js';
import type { Queryable } from '../platform/db/index.js';
import { changeLogHead } from '../changes/index.js';
import { checkTarget, type TargetPolicy, type WebhookTransport } from './transport.js';
import { creditsExhausted, type CreditMeter } from '../accounts/index.js';
import { ACCOUNT_EVENT_TYPES, MAX_ENDPOINT_URL_LENGTH, MAX_FILTERS_LENGTH, WebhookBody } from './schemas.js';
import { ApiError, invalidParameter } from '../catalog/index.js';
import { compileRequestValidator } from '../catalog/index.js';
import { isBilled, isDelivered, reserveCredits } from './delivery.js';
import { compileWebhookFilters, EVENT_TYPES } from './event-filters.js';
import { eventBody, newWebhookSecret, secretPreview, signDelivery } from './signing.js';
import { secretUnreadableError, SecretUnreadable, type WebhookSecrets } from './secrets.js';

/** Who is changing a webhook, and from where (the published last_modified_by / last_modified_via). */
export interface WebhookActor {
  accountId: number;
  /** An API key's id, or the account's for the profile page. */
  actor: string;
  via: 'api' | 'dashboard';
}

export interface WebhookStats {
  total_deliveries: number;
  successful_deliveries: number;
  failed_deliveries: number;
  last_success_at: string | null;
  last_failure_at: string | null;
  consecutive_failures: number;
}

/** A webhook as the API shows it: the published fields, then ours (paused_reason, pending_deliveries). */
export interface WebhookView {
  id: string;
  endpoint_url: string;
  event_types: string[];
  filters: Record<string, string>;
  active: boolean;
  created_at: string;
  updated_at: string;
  last_modified_by: string | null;
  last_modified_via: 'api' | 'dashboard' | null;
  secret?: string;
  secret_preview?: string;
  stats: WebhookStats;
  paused_reason: string | null;
  pending_deliveries: number;
}

export interface DeliveryView {
  id: string;
  event_type: string;
  event_id: string;
  status: 'pending' | 'done' | 'failed';
  response_status: number | null;
  response_body: string | null;
  attempt_count: number;
  delivered_at: string | null;
  failed_at: string | null;
  created_at: string;
  latency_ms: number | null;
  next_attempt_at: string | null;
  last_error: string | null;
  previous_delivery_id: string | null;
}

const iso = (date: Date | null) => (date === null ? null : new Date(date).toISOString());

/**
 * paused_reason, with what a paused webhook with a full backlog did not queue: the owner learns
 * that events were dropped, how many, since when, and where to find them.
 */
function pausedReason(row: WebhookRow, pausedBacklog: number): string | null {
  if (row.active || row.dropped_events === 0) return row.paused_reason;
  const since = row.dropped_since === null ? '' : ` since ${new Date(row.dropped_since).toISOString()}`;
  return (
    `${row.paused_reason ?? 'Paused.'} Its queue is full: a paused webhook keeps at most ${pausedBacklog} pending ` +
    `deliveries (the oldest), so ${row.dropped_events} later events${since} were dropped; the changes feed has them.`
  );
}

export function webhookView(row: WebhookRow, secret?: string, pausedBacklog = Number.POSITIVE_INFINITY): WebhookView {
  return {
    id: row.id,
    endpoint_url: row.endpoint_url,
    event_types: row.event_types,
    filters: row.filters,
    active: row.active,
    created_at: iso(row.created_at)!,
    updated_at: iso(row.updated_at)!,
    last_modified_by: row.last_modified_by,
    last_modified_via: row.last_modified_via,
    ...(secret === undefined ? { secret_preview: secretPreview(row.secret_last4) } : { secret }),
    stats: {
      total_deliveries: row.total_deliveries,
      successful_deliveries: row.successful_deliveries,
      failed_deliveries: row.failed_deliveries,
      last_success_at: iso(row.last_success_at),
      last_failure_at: iso(row.last_failure_at),
      consecutive_failures: row.consecutive_failures,
    },
    paused_reason: pausedReason(row, pausedBacklog),
    pending_deliveries: row.pending ?? 0,
  };
}

export function deliveryView(row: DeliveryRow): DeliveryView {
  return {
    id: row.id,
    event_type: row.event_type,
    event_id: row.event_id,
    status: row.status,
    response_status: row.response_status,
    response_body: row.response_body,
    attempt_count: row.attempt_count,
    delivered_at: iso(row.delivered_at),
    failed_at: iso(row.failed_at),
    created_at: iso(row.created_at)!,
    latency_ms: row.latency_ms,
    next_attempt_at: iso(row.next_attempt_at),
    last_error: row.last_error,
    previous_delivery_id: row.previous_delivery_id,
  };
}

/** A create or update body, its names in snake_case (canonical) or camelCase, checked. */
interface WebhookInput {
  endpointUrl?: string;
  eventTypes?: string[];
  filters?: Record<string, string>;
  active?: boolean;
  rotateSecret?: boolean;
}

const ALIASES: Record<keyof WebhookInput, [string, string]> = {
  endpointUrl: ['endpoint_url', 'endpointUrl'],
  eventTypes: ['event_types', 'eventTypes'],
  filters: ['filters', 'filters'],
  active: ['active', 'active'],
  rotateSecret: ['rotate_secret', 'rotateSecret'],
};

// The body's schema, checked here too: the profile page's forms come through this service without it.
const validateBody = compileRequestValidator(WebhookBody, 'body');

function readInput(body: unknown): WebhookInput {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw invalidParameter('the body must be a JSON object');
  const fields = body as Record<string, unknown>;
  const pick = (key: keyof WebhookInput) => {
    const [snake, camel] = ALIASES[key];
    return fields[snake] !== undefined ? fields[snake] : fields[camel];
  };
  // Each field under its canonical name, whichever name it came under, against the schema's bounds.
  const canonical = Object.fromEntries(
    (Object.keys(ALIASES) as (keyof WebhookInput)[])
      .map((key) => [ALIASES[key][0], pick(key)] as const)
      .filter(([, v]) => v !== undefined),
  );
  const checked = validateBody(canonical);
  if (!('value' in checked)) throw invalidParameter(checked.message, checked.param);
  const input: WebhookInput = {};
  const url = pick('endpointUrl');
  if (url !== undefined) input.endpointUrl = normalizeUrl(url as string);
  const types = pick('eventTypes') as string[] | undefined;
  if (types !== undefined) {
    const unknown = types.find((type) => !(EVENT_TYPES as readonly string[]).includes(type));
    if (unknown !== undefined) {
      throw invalidParameter(
        `event_types: unknown event type ${JSON.stringify(unknown)}; one of ${EVENT_TYPES.join(', ')}`,
        'event_types',
      );
    }
    if (types.length === 0) throw invalidParameter('event_types must name at least one event type', 'event_types');
    input.eventTypes = [...new Set(types)];
  }
  const filters = pick('filters') as Record<string, string> | null | undefined;
  if (filters !== undefined) {
    input.filters = { ...filters };
    const total = Object.values(input.filters).reduce((sum, value) => sum + value.length, 0);
    if (total > MAX_FILTERS_LENGTH) {
      throw invalidParameter(
        `filters must hold at most ${MAX_FILTERS_LENGTH} characters of values in all (got ${total})`,
        'filters',
      );
    }
  }
  for (const key of ['active', 'rotateSecret'] as const) {
    const value = pick(key);
    if (value !== undefined) input[key] = value as boolean;
  }
  return input;
}

/**
 * An endpoint URL in its WHATWG serialisation (what new URL(url).href gives: the URL every client
 * library and our transport would call), so the URL stored is the one checked and the one called:
 * "HTTP://Example.COM:80/x" is "http://example.com/x"; "http:/host", "http:host" and backslashes
 * are read as "http://host/", as browsers and fetch read them.
 */
function normalizeUrl(text: string): string {
  let parsed: URL;
  try {
    parsed = new URL(text.trim());
  } catch {
    throw invalidParameter('endpoint_url must be a valid http or https URL', 'endpoint_url');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw invalidParameter('endpoint_url must be a valid http or https URL', 'endpoint_url');
  }
  if (parsed.href.length > MAX_ENDPOINT_URL_LENGTH) {
    throw invalidParameter(
      `endpoint_url must be at most ${MAX_ENDPOINT_URL_LENGTH} characters once normalised (${parsed.href.length})`,
      'endpoint_url',
    );
  }
  return parsed.href;
}

const notFound = () => new ApiError('NOT_FOUND', 'Webhook not found');
const ownedByMonitor = (monitorId: string) =>
  invalidParameter(
    `this webhook belongs to monitor ${monitorId}: change its URL with PUT /api/v2/monitors/${monitorId} (webhook_url), or ` +
      'delete the monitor; rotate_secret and active work here',
  );

/** A monitor's webhook endpoint, checked, with its id and new secret (the secret is shown once). */
export interface PreparedEndpoint {
  id: string;
  url: string;
  secret: string;
  sealed: ReturnType<WebhookSecrets['seal']>;
}

/** The event type of what a monitor sends (src/monitors): sent only to a monitor's webhook. */
export const MONITOR_EVENT_TYPE = 'monitor.signal';
const tooMany = (max: number) =>
  invalidParameter(`an account may have at most ${max} webhooks, paused ones included; delete one first`);

export interface WebhookServiceOptions {
  policy: TargetPolicy;
  /** Webhooks per account, paused ones included. */
  maxPerAccount: number;
  /** Pending deliveries a paused webhook keeps, at most. */
  pausedBacklog: number;
  /** How long a manual retry's credit reservation may stay unsettled before it counts as paid: longer than an attempt. */
  retryHoldMs: number;
  /** Seals the signing secrets stored, and opens them to sign. */
  secrets: WebhookSecrets;
}

export class WebhookService {
  constructor(
    private readonly db: Database,
    private readonly transport: WebhookTransport,
    private readonly credits: CreditMeter,
    private readonly options: WebhookServiceOptions,
  ) {}

  private changed: () => void = () => undefined;

  /** Calls `listener` after a change that may give the delivery worker work, so it looks at once. */
  onChange(listener: () => void): void {
    this.changed = listener;
  }

  /**
   * Queues an event about the account's own work (ACCOUNT_EVENT_TYPES) to each of its webhooks
   * subscribed to it, behind the changes already in the log (delivered in order with them, signed,
   * retried and logged as every delivery; free). Returns how many webhooks it was queued for.
   */
  async queueAccountEvent(accountId: number, eventType: (typeof ACCOUNT_EVENT_TYPES)[number], data: object): Promise<number> {
    const queued = await this.db.transaction(async (tx) => {
      const webhooks = await webhooksSubscribedTo(tx, accountId, eventType);
      if (webhooks.length === 0) return 0;
      const eventId = randomUUID();
      await insertEvents(tx, [{ id: eventId, eventType, body: eventBody({ eventId, eventType, timestamp: new Date(), data }) }]);
      const position = await changeLogHead(tx);
      await enqueueDeliveries(
        tx,
        webhooks.map((webhookId) => ({ id: randomUUID(), webhookId, position, eventId, eventType })),
        this.options.pausedBacklog,
      );
      return webhooks.length;
    });
    if (queued > 0) this.changed();
    return queued;
  }

  /**
   * A monitor's endpoint checked as a webhook's is (a refused address is a 400 naming `param`), with
   * the id and secret its webhook will have; `id` keeps an existing webhook's (a new URL, new secret).
   */
  async prepareEndpoint(url: string, param: string, id: string = randomUUID()): Promise<PreparedEndpoint> {
    let normalized: string;
    try {
      normalized = normalizeUrl(url);
      await this.checkUrl(normalized);
    } catch (error) {
      if (error instanceof ApiError) throw invalidParameter(error.message.replace(/^endpoint_url/, param), param);
      throw error;
    }
    const secret = newWebhookSecret();
    return { id, url: normalized, secret, sealed: this.options.secrets.seal(id, secret) };
  }

  /** Stores a monitor's webhook (inside the monitor's transaction); not counted against the account's webhooks. */
  async insertMonitorWebhook(tx: Queryable, accountId: number, monitorId: string, endpoint: PreparedEndpoint): Promise<void> {
    await insertWebhookRow(
      tx,
      {
        id: endpoint.id,
        accountId,
        endpointUrl: endpoint.url,
        eventTypes: [MONITOR_EVENT_TYPE],
        filters: {},
        secret: endpoint.sealed.sealed,
        secretLast4: endpoint.sealed.last4,
        modifiedBy: 'monitor',
        via: 'api',
      },
      monitorId,
    );
  }

  /** A monitor's webhook with a new endpoint and secret. */
  async replaceMonitorEndpoint(tx: Queryable, endpoint: PreparedEndpoint): Promise<void> {
    await replaceWebhookEndpoint(tx, endpoint.id, endpoint.url, endpoint.sealed);
  }

  /** A monitor's webhook gone (detached or its monitor deleted): its pending deliveries go with it. */
  async removeMonitorWebhook(tx: Queryable, accountId: number, id: string): Promise<void> {
    await deleteWebhookRow(tx, accountId, id, 'monitor', 'api');
  }

  /**
   * Queues events and their deliveries in the caller's transaction (a monitor's signals); the sender
   * is told after. `prepaidBy`: the account already paid for them (a replay's debit), so sending
   * them costs nothing more.
   */
  async queueEvents(
    tx: Queryable,
    events: readonly NewEvent[],
    deliveries: readonly NewDelivery[],
    options: { prepaidBy?: number } = {},
  ): Promise<void> {
    await insertEvents(tx, events);
    await enqueueDeliveries(tx, deliveries, this.options.pausedBacklog);
    if (options.prepaidBy !== undefined) await markPrepaid(tx, options.prepaidBy, deliveries);
  }

  /** Tells the sender there is work (after a transaction that queued some committed). */
  wakeSender(): void {
    this.changed();
  }

  async create(actor: WebhookActor, body: unknown): Promise<WebhookView> {
    const input = readInput(body);
    if (input.endpointUrl === undefined) throw invalidParameter('endpoint_url is required', 'endpoint_url');
    if (input.eventTypes === undefined) throw invalidParameter('event_types is required', 'event_types');
    const filters = input.filters ?? {};
    // The checks that need no network first: a refused filter is answered without a DNS lookup.
    compileWebhookFilters(filters, input.eventTypes);
    await this.checkUrl(input.endpointUrl);
    const id = randomUUID();
    const secret = newWebhookSecret();
    const sealed = this.options.secrets.seal(id, secret);
    const row = await insertWebhook(
      this.db,
      {
        id,
        accountId: actor.accountId,
        endpointUrl: input.endpointUrl,
        eventTypes: input.eventTypes,
        filters,
        secret: sealed.sealed,
        secretLast4: sealed.last4,
        modifiedBy: actor.actor,
        via: actor.via,
      },
      this.options.maxPerAccount,
    );
    if (!row) throw tooMany(this.options.maxPerAccount);
    return this.view(row, secret);
  }

  async list(accountId: number, limit: number, offset: number): Promise<WebhookView[]> {
    return (await listWebhooks(this.db, accountId, limit, offset)).map((row) => this.view(row));
  }

  async get(accountId: number, id: string): Promise<WebhookView> {
    return this.view(await this.row(accountId, id));
  }

  async update(actor: WebhookActor, id: string, body: unknown): Promise<WebhookView> {
    const input = readInput(body);
    const current = UUID.test(id) ? await findWebhook(this.db, actor.accountId, id, true) : undefined;
    if (!current) throw notFound();
    // A deleted webhook is out of sight until it is turned on again.
    if (current.deleted_at !== null && input.active !== true) throw notFound();
    if (current.monitor_id !== null && (input.endpointUrl ?? input.eventTypes ?? input.filters) !== undefined) {
      throw ownedByMonitor(current.monitor_id);
    }
    if (input.eventTypes !== undefined || input.filters !== undefined) {
      compileWebhookFilters(input.filters ?? current.filters, input.eventTypes ?? current.event_types);
    }
    if (input.endpointUrl !== undefined) await this.checkUrl(input.endpointUrl);
    const secret = input.rotateSecret ? newWebhookSecret() : undefined;
    const row = await updateWebhook(
      this.db,
      actor.accountId,
      id,
      {
        endpointUrl: input.endpointUrl,
        eventTypes: input.eventTypes,
        filters: input.filters,
        secret: secret === undefined ? undefined : this.options.secrets.seal(id, secret),
        active: input.active,
        modifiedBy: actor.actor,
        via: actor.via,
      },
      { max: this.options.maxPerAccount, backlog: this.options.pausedBacklog },
    );
    if (row === undefined) throw notFound();
    if (row === 'limit') throw tooMany(this.options.maxPerAccount);
    if (input.active === true) this.changed();
    const pending = input.active === false ? Math.min(current.pending ?? 0, this.options.pausedBacklog) : current.pending;
    return this.view({ ...row, pending }, secret);
  }

  async remove(actor: WebhookActor, id: string): Promise<{ success: true; id: string; active: false }> {
    const current = UUID.test(id) ? await findWebhook(this.db, actor.accountId, id) : undefined;
    if (current?.monitor_id) throw ownedByMonitor(current.monitor_id);
    if (!UUID.test(id) || !(await deleteWebhook(this.db, actor.accountId, id, actor.actor, actor.via))) throw notFound();
    return { success: true, id, active: false };
  }

  /** Sends a signed system.test event now and records it as a delivery (free). */
  async test(accountId: number, id: string) {
    const webhook = await this.row(accountId, id);
    const secret = await this.secret(webhook);
    const eventId = randomUUID();
    const timestamp = new Date();
    const body = eventBody({
      eventId,
      eventType: 'system.test',
      timestamp,
      data: { message: 'A test event: your endpoint received and can verify webhooks from dealsignal.', webhook_id: id },
    });
    const delivery = await this.sendNow(
      webhook,
      secret,
      { eventId, eventType: 'system.test', body, attemptCount: 1, previous: null },
      null,
    );
    return {
      success: delivery.status === 'done',
      delivery_id: delivery.id,
      event_id: eventId,
      event_type: 'system.test' as const,
      response_status: delivery.responseStatus,
      response_body: delivery.responseBody,
    };
  }

  async deliveries(accountId: number, id: string, options: { limit: number; status?: string; cursor?: string }) {
    await this.row(accountId, id);
    const after = options.cursor === undefined ? undefined : parseDeliveryCursor(options.cursor);
    const rows = await listDeliveries(this.db, id, { limit: options.limit + 1, status: options.status, after });
    const page = rows.slice(0, options.limit);
    const last = page.at(-1);
    return {
      data: page.map(deliveryView),
      nextCursor: rows.length > options.limit && last ? deliveryCursor(last) : null,
    };
  }

  /**
   * Sends a delivery again now, with the same event id and body, signed with the current secret,
   * as a new delivery that points to the one retried. Billed as every delivery: 1 credit for the
   * (webhook, event) when its body is written to the endpoint's connection, whatever it answers,
   * unless an earlier attempt of it was paid already (402 when it is not and no credit is left; a
   * test event is free). A queued delivery of the event is taken out of the queue when this retry
   * succeeds, and otherwise stays queued as it was. `creditsUsed` is what this call cost.
   */
  async retry(accountId: number, id: string, deliveryId: string) {
    const webhook = await this.row(accountId, id);
    const previous = UUID.test(deliveryId) ? await findDelivery(this.db, id, deliveryId) : undefined;
    if (!previous) throw new ApiError('NOT_FOUND', 'Delivery not found');
    if (previous.status === 'done') throw new ApiError('CONFLICT', 'This delivery already succeeded; there is nothing to retry');
    // Before any credit is reserved: a secret that cannot be read sends nothing and costs nothing.
    const secret = await this.secret(webhook);
    const charge = { accountId, webhookId: id, endpoint: 'webhooks.deliveries.retry' };
    const [reservation] = isBilled(previous.event_type)
      ? await reserveCredits(this.db, this.credits, charge, [previous.event_id], this.options.retryHoldMs)
      : ['paid' as const];
    if (reservation === 'short') throw creditsExhausted();
    if (reservation === 'busy') {
      throw new ApiError('CONFLICT', 'This event is being sent to this webhook right now; retry it in a few seconds');
    }
    const delivery = await this.sendNow(
      webhook,
      secret,
      {
        eventId: previous.event_id,
        eventType: previous.event_type,
        body: previous.body!,
        attemptCount: Math.max(previous.attempt_count, 1) + 1,
        previous: previous.id,
      },
      reservation === 'reserved' ? { ...charge, eventId: previous.event_id } : null,
    );
    return {
      data: {
        delivery_id: delivery.id,
        previous_delivery_id: previous.id,
        status: delivery.status,
        response_status: delivery.responseStatus,
        attempt_count: Math.max(previous.attempt_count, 1) + 1,
        success: delivery.status === 'done',
      },
      creditsUsed: reservation === 'reserved' && delivery.bodySent ? 1 : 0,
    };
  }

  private view(row: WebhookRow, secret?: string): WebhookView {
    return webhookView(row, secret, this.options.pausedBacklog);
  }

  /** The webhook's signing secret, opened; a 503 saying nothing was sent when this server cannot read it. */
  private async secret(webhook: WebhookRow): Promise<string> {
    try {
      return await this.options.secrets.open(webhook);
    } catch (error) {
      if (error instanceof SecretUnreadable) throw secretUnreadableError();
      throw error;
    }
  }

  /** Sends an event now and records it; `charge` is the reservation this attempt holds, if any, settled with it. */
  private async sendNow(
    webhook: WebhookRow,
    secret: string,
    event: { eventId: string; eventType: string; body: string; attemptCount: number; previous: string | null },
    charge: { accountId: number; webhookId: string; eventId: string; endpoint: string } | null,
  ) {
    const headers = signDelivery(secret, {
      eventId: event.eventId,
      eventType: event.eventType,
      timestamp: new Date(),
      body: event.body,
    });
    const result = await this.transport.send({ url: webhook.endpoint_url, headers, body: event.body });
    const status: 'done' | 'failed' = isDelivered(result) ? 'done' : 'failed';
    const id = randomUUID();
    await recordSentDelivery(
      this.db,
      {
        id,
        webhookId: webhook.id,
        position: { seq: 0, changeId: 0 },
        eventId: event.eventId,
        eventType: event.eventType,
        // A retry's event is stored already; a test event is new.
        body: event.previous === null ? event.body : null,
        attemptCount: event.attemptCount,
        previousDeliveryId: event.previous,
        result: {
          status,
          responseStatus: result.status,
          responseBody: result.body,
          latencyMs: Math.round(result.latencyMs),
          error: result.error ?? null,
          at: new Date(),
        },
      },
      charge === null ? null : { ...charge, bodySent: result.bodySent },
    );
    if (event.previous !== null) this.changed();
    return { id, status, responseStatus: result.status, responseBody: result.body, bodySent: result.bodySent };
  }

  private async row(accountId: number, id: string): Promise<WebhookRow> {
    const row = UUID.test(id) ? await findWebhook(this.db, accountId, id) : undefined;
    if (!row) throw notFound();
    return row;
  }

  /** Checks a normalised endpoint URL's target (see normalizeUrl). */
  private async checkUrl(url: string): Promise<void> {
    const check = await checkTarget(url, this.options.policy);
    // A name that does not resolve yet is accepted (deliveries retry); an internal target never is.
    if (!check.ok && !check.reason.startsWith('could not resolve'))
      throw invalidParameter(`endpoint_url: ${check.reason}`, 'endpoint_url');
  }
}

function deliveryCursor(row: DeliveryRow): string {
  return Buffer.from(JSON.stringify({ c: new Date(row.created_at).toISOString(), i: row.id })).toString('base64url');
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function parseDeliveryCursor(text: string): { createdAt: string; id: string } {
  try {
    const value = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as { c?: unknown; i?: unknown };
    if (typeof value.c === 'string' && !Number.isNaN(Date.parse(value.c)) && typeof value.i === 'string' && UUID.test(value.i)) {
      return { createdAt: value.c, id: value.i };
    }
  } catch {
    // falls through to the error
  }
  throw invalidParameter('cursor is not a cursor this API returned (pass pagination.next_cursor as it is)', 'cursor');
}
