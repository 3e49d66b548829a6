// The webhooks API (/api/v2/webhooks): the published Signalbase 2.2 shapes, field for field, plus
// our additive fields (marked "Ours"). One schema per shape: validates, serialises, documents.
import { Type, type TOptional, type TProperties, type TSchema, type TString } from '@sinclair/typebox';
import { DATASETS, Nullable, StringEnum } from '../catalog/index.js';

const DateTime = Type.String({ format: 'date-time' });

/** The published event types, in the published order (system.test is sent only by the test endpoint). */
const PUBLISHED_EVENT_TYPES = [
  'funding.created',
  'acquisition.created',
  'job_change.created',
  'hiring.created',
  'new_company.created',
  'investor.created',
  'system.test',
] as const;

/**
 * Every event type a webhook may subscribe to: the published ones, then ours, from the datasets'
 * declarations (src/catalog/datasets): the updates of the published kinds in the published order,
 * then both types of every other dataset (deal.created, deal.updated: v1 M&A deals).
 */
/** Events about an account's own work rather than a record (ours): free, sent only to that account's webhooks. */
export const ACCOUNT_EVENT_TYPES = ['enrichment.completed'] as const;

export const EVENT_TYPES: readonly string[] = [
  ...PUBLISHED_EVENT_TYPES,
  ...PUBLISHED_EVENT_TYPES.flatMap((type) =>
    DATASETS.filter(({ events }) => events.created === type).map(({ events }) => events.updated),
  ),
  ...DATASETS.filter(({ events }) => !(PUBLISHED_EVENT_TYPES as readonly string[]).includes(events.created)).flatMap(
    ({ events }) => [events.created, events.updated],
  ),
  ...ACCOUNT_EVENT_TYPES,
];
export type EventType = string;

export const WebhookEventType = StringEnum(
  EVENT_TYPES,
  'Event type. Published: funding.created, acquisition.created, job_change.created, hiring.created (a new job posting), ' +
    'investor.created, system.test (only ever sent by the test endpoint), new_company.created (a company seen for the ' +
    'first time). Ours: funding/acquisition/job_change/hiring/investor .updated (a record that changed after it was ' +
    'first seen), company.updated, deal.created and deal.updated (v1 M&A deals), enrichment.completed (one of your enrichment ' +
    'jobs finished: its jobId, status and summary; free).',
);

const Stats = Type.Object({
  total_deliveries: Type.Integer({ minimum: 0, description: 'Attempts made (automatic, retried and test)' }),
  successful_deliveries: Type.Integer({ minimum: 0, description: 'Attempts answered with a 2xx' }),
  failed_deliveries: Type.Integer({ minimum: 0, description: 'Attempts that failed (non-2xx, timeout, connection error)' }),
  last_success_at: Nullable(DateTime),
  last_failure_at: Nullable(DateTime),
  consecutive_failures: Type.Integer({ minimum: 0, description: 'Failed attempts since the last success' }),
});

/** The longest endpoint_url stored (as published), after normalisation. */
export const MAX_ENDPOINT_URL_LENGTH = 500;
/** The longest value of a published filter key, and of `query` (a list endpoint and its query string). */
export const MAX_FILTER_VALUE_LENGTH = 1000;
export const MAX_FILTER_QUERY_LENGTH = 4096;
/** The most characters a webhook's filter values may hold in all: what one webhook stores and shows. */
export const MAX_FILTERS_LENGTH = 4096;
/** The most event types a body may list (duplicates are removed; there are 16 types). */
export const MAX_EVENT_TYPES_IN_BODY = 100;
/** The largest body the webhooks API reads: ample for every field at its bound. */
export const WEBHOOK_BODY_LIMIT = 64 * 1024;

/**
 * The filter keys a webhook takes: the published ones (teamSize, roundFlavor and healthScore are
 * accepted, stored and returned, and never narrow anything here) and ours, `query`. Any other key
 * is refused (400 naming it) rather than stored: the published contract ignores unknown keys, but
 * storing them let one account keep megabytes per webhook.
 */
export const ACCEPTED_FILTER_KEYS = [
  'countries',
  'categories',
  'search',
  'teamSize',
  'dateFrom',
  'dateTo',
  'funding',
  'roundFlavor',
  'fundingAmount',
  'acquisitionAmount',
  'healthScore',
  'query',
] as const;
export type AcceptedFilterKey = (typeof ACCEPTED_FILTER_KEYS)[number];

const FILTERS_DESCRIPTION =
  'String filters. Published keys, each applied to the event types whose records have the field, with the list ' +
  "endpoint's semantics: countries (ISO 3166 alpha-2 or alpha-3 codes or English names, any case, comma-separated, for every event type), categories, search (word prefixes), dateFrom, dateTo " +
  "(YYYY-MM-DD, on the record's date), funding (round labels, funding events), fundingAmount (minimum amount, funding " +
  'events), acquisitionAmount (minimum amount, deal events). The other published keys (teamSize, roundFlavor, ' +
  'healthScore) are accepted and narrow nothing here. Ours: `query`, a list endpoint with its query string (e.g. ' +
  '"/api/v2/signals/job-changes?positions=cto&seniorities=c_level"), checked as that endpoint checks it: the webhook ' +
  'receives exactly the records that request would list (not combinable with the other keys). Bounded: any other key ' +
  `is refused with a 400 naming it (the published contract ignores unknown keys; here they are refused, not stored); ` +
  `each value at most ${MAX_FILTER_VALUE_LENGTH} characters (query: ${MAX_FILTER_QUERY_LENGTH}), and the values at ` +
  `most ${MAX_FILTERS_LENGTH} characters in all.`;

/** A webhook's filters: the known keys only, each a bounded string. */
export const WebhookFilters = Type.Object(
  Object.fromEntries(
    ACCEPTED_FILTER_KEYS.map((key) => [
      key,
      Type.Optional(Type.String({ maxLength: key === 'query' ? MAX_FILTER_QUERY_LENGTH : MAX_FILTER_VALUE_LENGTH })),
    ]),
  ) as Record<AcceptedFilterKey, TOptional<TString>>,
  { additionalProperties: false, maxProperties: ACCEPTED_FILTER_KEYS.length, description: FILTERS_DESCRIPTION },
);

const ENDPOINT_URL_DESCRIPTION =
  `http or https URL, at most ${MAX_ENDPOINT_URL_LENGTH} characters. Stored, shown, checked and called in its WHATWG ` +
  'serialisation (what `new URL(url).href` gives): scheme and host in lower case, default port dropped, `http:/host`, ' +
  '`http:host` and backslashes normalised to `http://host/`, spaces and other characters a URL cannot hold percent-encoded ' +
  '(normalised, not refused; the normalised URL must also fit the bound). Refused (400) when its host is, or resolves to, ' +
  'an address that is not globally reachable (per the IANA special-purpose address registries, plus multicast and the ' +
  'IPv6 forms embedding such an IPv4 address) unless the operator allows its network.';

export const Webhook = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    endpoint_url: Type.String({
      maxLength: MAX_ENDPOINT_URL_LENGTH,
      description: `Receives a POST per event. ${ENDPOINT_URL_DESCRIPTION}`,
    }),
    event_types: Type.Array(WebhookEventType, { maxItems: EVENT_TYPES.length, description: 'Without duplicates' }),
    filters: WebhookFilters,
    active: Type.Boolean({ description: 'false: paused (by its owner, or by the service after a run of failures)' }),
    created_at: DateTime,
    updated_at: DateTime,
    last_modified_by: Nullable(Type.String()),
    last_modified_via: Nullable(Type.String({ enum: ['api', 'dashboard'] })),
    secret: Type.Optional(
      Type.String({
        description:
          "The signing secret (whsec_…): returned only on create and on rotate_secret; stored encrypted with the server's key",
      }),
    ),
    secret_preview: Type.Optional(Type.String({ description: "An ellipsis and the secret's last 4 characters" })),
    stats: Stats,
    paused_reason: Nullable(
      Type.String({
        description:
          'Ours: why the service paused the webhook (null otherwise, or when paused by hand); on a paused webhook whose ' +
          'queue is full (WEBHOOK_PAUSED_BACKLOG, 1,000 by default), also how many later events were dropped and since when',
      }),
    ),
    pending_deliveries: Type.Integer({
      minimum: 0,
      description: 'Ours: deliveries queued and not yet delivered (a paused webhook keeps at most WEBHOOK_PAUSED_BACKLOG)',
    }),
  },
  { $id: 'Webhook', title: 'Webhook' },
);

export const WebhookDelivery = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    event_type: Type.String(),
    event_id: Type.String({ description: 'The same across the original delivery and its retries: dedupe on it' }),
    status: Type.String({ enum: ['done', 'failed', 'pending'] }),
    response_status: Nullable(Type.Integer({ description: 'HTTP status, 0 on a network error, null before any attempt' })),
    response_body: Nullable(Type.String({ description: 'First 1,000 characters of the response body' })),
    attempt_count: Type.Integer({ minimum: 0 }),
    delivered_at: Nullable(DateTime),
    failed_at: Nullable(DateTime),
    created_at: DateTime,
    latency_ms: Nullable(Type.Integer({ description: 'Ours: duration of the last attempt' })),
    next_attempt_at: Nullable(DateTime),
    last_error: Nullable(Type.String({ description: 'Ours: why the last attempt got no response (timeout, refused, …)' })),
    previous_delivery_id: Nullable(Type.String({ description: 'Ours: the delivery this one retried' })),
  },
  { $id: 'WebhookDelivery', title: 'WebhookDelivery' },
);

export const WebhookMeta = Type.Object(
  {
    endpoint: Type.String({ description: 'e.g. webhooks.create' }),
    creditsUsed: Type.Integer({ minimum: 0 }),
  },
  { $id: 'WebhookMeta', title: 'WebhookMeta' },
);

export const WebhookError = Type.Object(
  {
    success: Type.Literal(false),
    error: Type.String(),
    code: Type.String({
      enum: [
        'bad_request',
        'invalid_api_key',
        'insufficient_credits',
        'not_found',
        'conflict',
        'payload_too_large',
        'rate_limited',
        'internal_error',
        'unavailable',
      ],
    }),
    param: Type.Optional(
      Type.String({
        description:
          'Ours: the body field (by its path, e.g. `filters.countries`), query parameter or path parameter at fault, on ' +
          'a 400 that one of them causes; absent otherwise',
        examples: ['url'],
      }),
    ),
  },
  { $id: 'WebhookError', title: 'WebhookError' },
);

export const WEBHOOK_SHARED_SCHEMAS = [Webhook, WebhookDelivery, WebhookMeta, WebhookError];

const envelope = <T extends TSchema>(data: T, extra: TProperties = {}) =>
  Type.Object({ success: Type.Literal(true), data, ...extra, meta: Type.Ref(WebhookMeta) });

export const WebhookResponse = envelope(Type.Ref(Webhook));
export const WebhookListResponse = envelope(Type.Array(Type.Ref(Webhook)), {
  pagination: Type.Object({ limit: Type.Integer(), offset: Type.Integer(), count: Type.Integer() }),
});
export const WebhookDeleteResponse = envelope(
  Type.Object({ success: Type.Literal(true), id: Type.String(), active: Type.Literal(false) }),
);
export const WebhookTestResponse = envelope(
  Type.Object({
    success: Type.Boolean({ description: 'Whether the endpoint answered 2xx' }),
    delivery_id: Type.String(),
    event_id: Type.String(),
    event_type: Type.Literal('system.test'),
    response_status: Type.Integer(),
    response_body: Type.String(),
  }),
);
export const DeliveriesResponse = envelope(Type.Array(Type.Ref(WebhookDelivery)), {
  pagination: Type.Object({ next_cursor: Nullable(Type.String()), limit: Type.Integer() }),
});
export const RetryResponse = envelope(
  Type.Object({
    delivery_id: Type.String(),
    previous_delivery_id: Type.String(),
    status: Type.String({ enum: ['done', 'failed', 'pending'] }),
    response_status: Type.Integer(),
    attempt_count: Type.Integer({ minimum: 2 }),
    success: Type.Boolean(),
  }),
);

/** Create and update bodies: snake_case (canonical) or camelCase names; checked by the service. */
export const WebhookBody = Type.Object(
  {
    endpoint_url: Type.Optional(
      Type.String({ maxLength: MAX_ENDPOINT_URL_LENGTH, description: `Required on create. ${ENDPOINT_URL_DESCRIPTION}` }),
    ),
    event_types: Type.Optional(
      Type.Array(Type.String({ maxLength: 50 }), {
        maxItems: MAX_EVENT_TYPES_IN_BODY,
        description: 'Event types (required on create); duplicates are removed',
      }),
    ),
    filters: Type.Optional(Nullable(WebhookFilters)),
    active: Type.Optional(Type.Boolean({ description: 'Update only: false pauses, true turns on (also a deleted one)' })),
    rotate_secret: Type.Optional(Type.Boolean({ description: 'Update only: mint a new secret, returned once' })),
  },
  { additionalProperties: true, description: 'Names in snake_case or camelCase (endpointUrl, eventTypes, rotateSecret)' },
);

export const WebhookListQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 100 })),
    offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000, default: 0 })),
  },
  { additionalProperties: false },
);

export const DeliveriesQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50 })),
    status: Type.Optional(StringEnum(['done', 'failed', 'pending'] as const, 'Only deliveries in this status')),
    cursor: Type.Optional(Type.String({ maxLength: 200, description: 'pagination.next_cursor of the previous page' })),
  },
  { additionalProperties: false },
);
