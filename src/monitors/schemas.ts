// The published Monitoring API's shapes (September 2026, "Monitoring API" 2.0.0), with our additions
// marked "Ours": one schema each validates the request, types the code, serialises and documents.
import { Type, type Static } from '@sinclair/typebox';
import { Nullable } from '../catalog/index.js';

export const SIGNAL_TYPES = ['funding_round', 'acquisition', 'job_change', 'hiring'] as const;
export type SignalType = (typeof SIGNAL_TYPES)[number];
export const TARGET_TYPES = ['domain', 'linkedin_company', 'linkedin_profile'] as const;
export type TargetType = (typeof TARGET_TYPES)[number];
export const TARGET_STATUSES = ['resolved', 'pending'] as const;

/** Entries per add or remove call, as published. */
export const MAX_TARGETS_PER_CALL = 500;
export const MAX_BACKFILL_DAYS = 90;

const DateTime = Type.String({ format: 'date-time' });

export const SignalTypeSchema = Type.Union(
  SIGNAL_TYPES.map((value) => Type.Literal(value)),
  {
    description:
      'funding_round: funding rounds of the company; acquisition: acquisition signals about it and M&A deals where it is ' +
      'the target or the acquirer; job_change: people who joined or left it; hiring: its new job postings',
  },
);

const BackfillDays = Type.Integer({
  minimum: 0,
  maximum: MAX_BACKFILL_DAYS,
  description:
    "Ours: days of past signals (of the monitor's signal_types) each newly resolved target is sent once, oldest first, " +
    'marked `backfill: true` (0, the default, sends none, as the published service does)',
});

export const MonitorWebhook = Type.Object({
  id: Type.String({ description: 'A webhook id usable with the Webhooks API: test, deliveries, retry, rotate' }),
  endpoint_url: Nullable(Type.String()),
  secret: Type.Optional(Type.String({ description: 'Only in the response that created the endpoint' })),
});

export const MonitorStats = Type.Object({
  targets: Type.Integer({ minimum: 0 }),
  resolved_targets: Type.Integer({ minimum: 0 }),
  signals_30d: Type.Integer({
    minimum: 0,
    description: "Signals of any type in the last 30 days for the monitor's resolved companies",
  }),
  last_delivery_at: Nullable(DateTime),
});

export const Monitor = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    name: Type.String(),
    signal_types: Type.Array(SignalTypeSchema),
    active: Type.Boolean({ description: 'false = paused: targets kept, nothing delivered' }),
    webhook: Nullable(MonitorWebhook),
    stats: MonitorStats,
    created_at: DateTime,
    updated_at: DateTime,
    backfill_days: Type.Integer({ minimum: 0, maximum: MAX_BACKFILL_DAYS, description: 'Ours: see MonitorCreateRequest' }),
    email_alerts: Type.Boolean({
      description:
        'Ours: whether digests of its signals are mailed to the account (a monitor without a webhook, not unsubscribed)',
    }),
  },
  { $id: 'Monitor', title: 'Monitor' },
);

export const TargetCompany = Type.Object({
  id: Type.String(),
  name: Nullable(Type.String()),
  slug: Nullable(Type.String()),
  domain: Nullable(Type.String()),
  industry: Nullable(Type.String()),
  country: Nullable(Type.String({ description: 'HQ country code' })),
});

export const Target = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    monitor_id: Type.String({ format: 'uuid' }),
    type: Type.Union(TARGET_TYPES.map((value) => Type.Literal(value))),
    value: Type.String({
      description: 'Normalised: acme.com, linkedin.com/company/<slug>, linkedin.com/in/<slug>',
    }),
    status: Type.Union(TARGET_STATUSES.map((value) => Type.Literal(value))),
    company: Nullable(TargetCompany),
    resolved_at: Nullable(DateTime),
    last_signal_type: Nullable(Type.String({ description: "The company's most recent signal of any type" })),
    last_signal_at: Nullable(DateTime),
    created_at: DateTime,
  },
  { $id: 'Target', title: 'Target' },
);
export type Target = Static<typeof Target>;

export const MonitorCreateRequest = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 255 }),
    signal_types: Type.Array(SignalTypeSchema, { minItems: 1, maxItems: 20 }),
    webhook_url: Type.Optional(
      Type.String({
        format: 'uri',
        maxLength: 500,
        description: 'Private, loopback and link-local addresses refused; omit for an email-only monitor',
      }),
    ),
    backfill_days: Type.Optional(BackfillDays),
  },
  { additionalProperties: false, title: 'MonitorCreateRequest' },
);
export type MonitorCreateRequest = Static<typeof MonitorCreateRequest>;

export const MonitorUpdateRequest = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
    signal_types: Type.Optional(Type.Array(SignalTypeSchema, { minItems: 1, maxItems: 20, description: 'Replaces the list' })),
    webhook_url: Type.Optional(
      Nullable(
        Type.String({
          format: 'uri',
          maxLength: 500,
          description:
            'A new URL replaces the endpoint and mints a new secret (returned once); null detaches the webhook; the current URL changes nothing',
        }),
      ),
    ),
    active: Type.Optional(Type.Boolean()),
    backfill_days: Type.Optional(BackfillDays),
  },
  { additionalProperties: false, minProperties: 1, title: 'MonitorUpdateRequest' },
);
export type MonitorUpdateRequest = Static<typeof MonitorUpdateRequest>;

const targetEntry = Type.String({ minLength: 1, maxLength: 500 });

export const TargetsAddRequest = Type.Object(
  {
    targets: Type.Array(targetEntry, { minItems: 1, maxItems: MAX_TARGETS_PER_CALL }),
    backfill_days: Type.Optional({
      ...BackfillDays,
      description: "Ours: as the monitor's backfill_days, for the targets this request adds (default: the monitor's)",
    }),
  },
  { additionalProperties: false, title: 'TargetsAddRequest' },
);
export type TargetsAddRequest = Static<typeof TargetsAddRequest>;

export const TargetsRemoveRequest = Type.Object(
  {
    ids: Type.Optional(Type.Array(Type.String({ maxLength: 100 }), { minItems: 1, maxItems: MAX_TARGETS_PER_CALL })),
    targets: Type.Optional(Type.Array(targetEntry, { minItems: 1, maxItems: MAX_TARGETS_PER_CALL })),
  },
  { additionalProperties: false, minProperties: 1, title: 'TargetsRemoveRequest' },
);
export type TargetsRemoveRequest = Static<typeof TargetsRemoveRequest>;

export const ReplayRequest = Type.Object(
  {
    since: Type.String({
      format: 'date-time',
      description: "Events the monitor was sent from this time on (within the change log's retention) are sent again",
    }),
    until: Type.Optional(Type.String({ format: 'date-time', description: 'Up to this time (default: now)' })),
  },
  { additionalProperties: false, title: 'MonitorReplayRequest' },
);
export type ReplayRequest = Static<typeof ReplayRequest>;

export const MonitorParams = Type.Object({ id: Type.String({ maxLength: 100 }) });
export const TargetParams = Type.Object({ id: Type.String({ maxLength: 100 }), targetId: Type.String({ maxLength: 100 }) });

export const TargetListQuery = Type.Object(
  {
    status: Type.Optional(Type.Union(TARGET_STATUSES.map((value) => Type.Literal(value)))),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 100 })),
    offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000, default: 0 })),
  },
  { additionalProperties: false },
);
export type TargetListQuery = Static<typeof TargetListQuery>;

const meta = (endpoint: string) =>
  Type.Object({ endpoint: Type.Literal(endpoint), creditsUsed: Type.Integer({ description: 'Always 0' }) });

export const MonitorResponse = (endpoint: string) =>
  Type.Object({ success: Type.Literal(true), data: Type.Ref(Monitor), meta: meta(endpoint) }, { title: 'MonitorResponse' });

export const MonitorListResponse = Type.Object(
  { success: Type.Literal(true), data: Type.Array(Type.Ref(Monitor)), meta: meta('monitors.list') },
  { title: 'MonitorListResponse' },
);

export const DeleteResponse = (endpoint: string) =>
  Type.Object(
    {
      success: Type.Literal(true),
      data: Type.Object({ id: Type.String(), deleted: Type.Literal(true) }),
      meta: meta(endpoint),
    },
    { title: 'DeleteResponse' },
  );

export const TargetListResponse = Type.Object(
  {
    success: Type.Literal(true),
    data: Type.Array(Type.Ref(Target)),
    pagination: Type.Object({
      limit: Type.Integer(),
      offset: Type.Integer(),
      count: Type.Integer({ description: 'Targets in this page' }),
      total: Type.Integer({ description: 'Targets matching the status filter' }),
    }),
    meta: meta('monitors.targets.list'),
  },
  { title: 'TargetListResponse' },
);

export const TargetsAddResponse = Type.Object(
  {
    success: Type.Literal(true),
    data: Type.Object({
      added: Type.Array(Type.Ref(Target), { description: 'Created by this request' }),
      skipped_existing: Type.Integer({ minimum: 0 }),
      invalid: Type.Array(Type.String(), { description: 'As sent' }),
      pending: Type.Array(Type.String(), { description: 'Normalised values of added targets not matched yet' }),
      resolved_companies: Type.Integer({
        minimum: 0,
        description: 'Distinct resolved companies in the monitor after the request',
      }),
    }),
    meta: meta('monitors.targets.add'),
  },
  { title: 'TargetsAddResponse' },
);

export const TargetsRemoveResponse = Type.Object(
  {
    success: Type.Literal(true),
    data: Type.Object({
      removed: Type.Array(Type.Ref(Target)),
      not_found: Type.Array(Type.String(), { description: 'Ids and normalised identifiers that matched nothing' }),
      invalid: Type.Array(Type.String()),
      resolved_companies: Type.Integer({ minimum: 0, description: 'Distinct resolved companies left' }),
    }),
    meta: meta('monitors.targets.remove'),
  },
  { title: 'TargetsRemoveResponse' },
);

export const ReplayResponse = Type.Object(
  {
    success: Type.Literal(true),
    data: Type.Object({
      webhook_id: Type.String(),
      events: Type.Integer({ minimum: 0, description: 'Events queued again, in their original order, with their original ids' }),
      since: DateTime,
      until: DateTime,
    }),
    meta: Type.Object({
      endpoint: Type.Literal('monitors.replay'),
      creditsUsed: Type.Integer({ description: '1 per event queued again (as a delivery costs)' }),
      creditsRemaining: Type.Integer(),
    }),
  },
  { title: 'MonitorReplayResponse' },
);

export const MONITOR_ERROR_CODES = [
  'bad_request',
  'invalid_api_key',
  'subscription_expired',
  'not_found',
  'rate_limited',
  'internal_server_error',
  'internal_error',
  'insufficient_credits',
  'unavailable',
] as const;
export type MonitorErrorCode = (typeof MONITOR_ERROR_CODES)[number];

export const MonitorError = Type.Object(
  {
    success: Type.Literal(false),
    error: Type.String(),
    code: Type.Unsafe<MonitorErrorCode>({
      type: 'string',
      enum: [...MONITOR_ERROR_CODES],
      description: 'Published codes; ours: insufficient_credits (a replay), unavailable (503)',
    }),
    retryAfter: Type.Optional(Type.Integer({ description: 'Seconds until retry is recommended, on a 429' })),
    param: Type.Optional(Type.String({ description: 'Ours: the field or parameter at fault, when one is' })),
  },
  { $id: 'Monitor_ErrorResponse', title: 'Monitor_ErrorResponse' },
);

export const MONITOR_SHARED_SCHEMAS = [Monitor, Target, MonitorError];
