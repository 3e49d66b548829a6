// /api/v2/monitors: the published Monitoring API (free: creditsUsed 0), and ours, the replay (1
// credit per event sent again). Errors carry the published codes (Monitor_ErrorResponse).
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { monitorErrorCode } from '../catalog/index.js';
import {
  codedErrorShape,
  errorHandling,
  keyedRoute,
  useErrorShapeUnder,
  type ApiFamily,
  type FamilyErrors,
} from '../platform/http/index.js';
import type { AppServices } from '../app-services.js';
import {
  DeleteResponse,
  MAX_TARGETS_PER_CALL,
  MonitorCreateRequest,
  MonitorError,
  MonitorListResponse,
  MonitorParams,
  MonitorResponse,
  MonitorUpdateRequest,
  ReplayRequest,
  ReplayResponse,
  TargetListQuery,
  TargetListResponse,
  TargetParams,
  TargetsAddRequest,
  TargetsAddResponse,
  TargetsRemoveRequest,
  TargetsRemoveResponse,
  type MonitorErrorCode,
} from './schemas.js';
import { ENDPOINT_REPLAY, type Caller } from './service.js';

export const monitorErrorShape = codedErrorShape((status) => monitorErrorCode(status) as MonitorErrorCode, {
  unavailableMessage: 'Service temporarily unavailable. Please try again later.',
  notFoundMessage: 'Not found',
});

const error = (description: string) => ({ ...Type.Ref(MonitorError), description });

const ERRORS: FamilyErrors = {
  400: error('A field or parameter breaks its rule, or a limit would be passed; the message names it (bad_request)'),
  401: error('Invalid or missing API key (invalid_api_key)'),
  404: error('No such monitor (or target) on this account (not_found)'),
  429: error('Rate limit exceeded; retryAfter says when to try again (rate_limited)'),
  500: error('An unknown error occurred (internal_error)'),
  503: error('Temporarily unavailable (unavailable)'),
};

const meta = (endpoint: string) => ({ endpoint, creditsUsed: 0 });
const TAGS = ['v2 monitors'];

const DESCRIPTION =
  'A monitor watches targets (company domains, LinkedIn company pages, LinkedIn member profiles: the company the person ' +
  'works at) and sends each new signal of its `signal_types` about a resolved target to its webhook, or, without one, ' +
  'in an email digest to the account. Limits: 20 monitors and 1,000 targets an account (MONITORS_MAX_*, ' +
  'MONITOR_TARGETS_MAX_* per tier), 500 targets a call. Every call is free; deliveries are billed as every webhook ' +
  'delivery is. Pending targets resolve as soon as an import brings a company (or job change) that matches them.';

export async function monitorRoutes(app: FastifyInstance, services: AppServices, v2: ApiFamily): Promise<void> {
  await app.register(errorHandling, { shape: monitorErrorShape, notFound: false });
  useErrorShapeUnder('/api/v2/monitors', monitorErrorShape);
  const family = { ...v2, errors: ERRORS };
  const monitors = services.monitors;
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const caller = (request: FastifyRequest): Caller => {
    const principal = request.principal!;
    return { accountId: principal.accountId, keyId: principal.keyId, tier: principal.tier };
  };
  const noStore = { 'cache-control': 'no-store' };

  api.post(
    '/monitors',
    keyedRoute(family, {
      tags: TAGS,
      operationId: 'createMonitor',
      summary: 'Create monitor',
      description: `${DESCRIPTION} The webhook's secret is returned only in this response.`,
      body: MonitorCreateRequest,
      response: { 201: { ...MonitorResponse('monitors.create'), description: 'The monitor' } },
    }),
    async (request, reply) => {
      const data = await monitors.create(caller(request), request.body);
      return reply
        .code(201)
        .headers(noStore)
        .send({ success: true, data, meta: meta('monitors.create') });
    },
  );

  api.get(
    '/monitors',
    keyedRoute(family, {
      tags: TAGS,
      operationId: 'listMonitors',
      summary: 'List monitors',
      description: 'Every monitor of the account, newest first, paused ones included (not paginated).',
      response: { 200: { ...MonitorListResponse, description: 'The monitors' } },
    }),
    async (request, reply) => {
      const data = await monitors.list(request.principal!.accountId);
      return reply.headers(noStore).send({ success: true, data, meta: meta('monitors.list') });
    },
  );

  api.get(
    '/monitors/:id',
    keyedRoute(family, {
      tags: TAGS,
      operationId: 'getMonitor',
      summary: 'Get monitor',
      description: 'The monitor; its webhook secret is never returned.',
      params: MonitorParams,
      response: { 200: { ...MonitorResponse('monitors.get'), description: 'The monitor' } },
    }),
    async (request, reply) => {
      const data = await monitors.get(request.principal!.accountId, request.params.id);
      return reply.headers(noStore).send({ success: true, data, meta: meta('monitors.get') });
    },
  );

  api.put(
    '/monitors/:id',
    keyedRoute(family, {
      tags: TAGS,
      operationId: 'updateMonitor',
      summary: 'Update monitor',
      description:
        'A partial update. A new webhook_url replaces the endpoint and mints a new secret (returned once); null detaches ' +
        'the webhook (the monitor is then mailed); the current URL changes nothing. active: false pauses it (targets ' +
        'kept, nothing new delivered).',
      params: MonitorParams,
      body: MonitorUpdateRequest,
      response: { 200: { ...MonitorResponse('monitors.update'), description: 'The monitor' } },
    }),
    async (request, reply) => {
      const data = await monitors.update(caller(request), request.params.id, request.body);
      return reply.headers(noStore).send({ success: true, data, meta: meta('monitors.update') });
    },
  );

  api.delete(
    '/monitors/:id',
    keyedRoute(family, {
      tags: TAGS,
      operationId: 'deleteMonitor',
      summary: 'Delete monitor',
      description: 'Deletes the monitor with its targets; its webhook is deleted and its pending deliveries with it.',
      params: MonitorParams,
      response: { 200: { ...DeleteResponse('monitors.delete'), description: 'Deleted' } },
    }),
    async (request, reply) => {
      const data = await monitors.remove(request.principal!.accountId, request.params.id);
      return reply.headers(noStore).send({ success: true, data, meta: meta('monitors.delete') });
    },
  );

  api.get(
    '/monitors/:id/targets',
    keyedRoute(family, {
      tags: TAGS,
      operationId: 'listMonitorTargets',
      summary: 'List monitor targets',
      description: 'The targets, newest first; `status` keeps resolved or pending ones.',
      params: MonitorParams,
      querystring: TargetListQuery,
      response: { 200: { ...TargetListResponse, description: 'A page of targets' } },
    }),
    async (request, reply) => {
      const page = await monitors.targets(request.principal!.accountId, request.params.id, request.query);
      return reply.headers(noStore).send({ success: true, ...page, meta: meta('monitors.targets.list') });
    },
  );

  api.post(
    '/monitors/:id/targets',
    keyedRoute(family, {
      tags: TAGS,
      operationId: 'addMonitorTargets',
      summary: 'Add monitor targets',
      description:
        `Up to ${MAX_TARGETS_PER_CALL} entries: domains or website URLs, LinkedIn company URLs, LinkedIn profile URLs; ` +
        'normalised and de-duplicated. Idempotent: targets already in the monitor count in skipped_existing. Entries of ' +
        'none of the kinds are listed in `invalid`; 400 only when no entry is valid or the account would pass its target ' +
        "limit (then nothing is added). Ours: backfill_days sends each newly resolved target the window's past signals once.",
      params: MonitorParams,
      body: TargetsAddRequest,
      response: { 200: { ...TargetsAddResponse, description: 'What was added' } },
    }),
    async (request, reply) => {
      const data = await monitors.addTargets(caller(request), request.params.id, request.body);
      return reply.headers(noStore).send({ success: true, data, meta: meta('monitors.targets.add') });
    },
  );

  api.delete(
    '/monitors/:id/targets/:targetId',
    keyedRoute(family, {
      tags: TAGS,
      operationId: 'removeMonitorTarget',
      summary: 'Remove monitor target',
      description: 'Removes one target; 404 when it is not in that monitor.',
      params: TargetParams,
      response: { 200: { ...DeleteResponse('monitors.targets.remove'), description: 'Removed' } },
    }),
    async (request, reply) => {
      const data = await monitors.removeTarget(request.principal!.accountId, request.params.id, request.params.targetId);
      return reply.headers(noStore).send({ success: true, data, meta: meta('monitors.targets.remove') });
    },
  );

  api.post(
    '/monitors/:id/targets/remove',
    keyedRoute(family, {
      tags: TAGS,
      operationId: 'removeMonitorTargets',
      summary: 'Remove monitor targets (bulk)',
      description:
        'By target id (`ids`), by identifier (`targets`, normalised as when added), or both, up to 500 each. A LinkedIn ' +
        'company URL removes only the target added by that URL, never a profile target resolving to the same company.',
      params: MonitorParams,
      body: TargetsRemoveRequest,
      response: { 200: { ...TargetsRemoveResponse, description: 'What was removed' } },
    }),
    async (request, reply) => {
      const data = await monitors.removeTargets(request.principal!.accountId, request.params.id, request.body);
      return reply.headers(noStore).send({ success: true, data, meta: meta('monitors.targets.remove') });
    },
  );

  api.post(
    '/monitors/:id/replay',
    keyedRoute(family, {
      tags: TAGS,
      operationId: 'replayMonitor',
      summary: 'Replay monitor events (ours)',
      description:
        "Queues again to the monitor's webhook every event it was sent from `since` (within the change log's retention, " +
        'CHANGE_LOG_RETENTION_DAYS) to `until`, with the original event ids and bodies, in their original order, so a ' +
        'receiver that lost its data can rebuild it (a receiver that de-duplicates by event_id sees nothing new). 1 credit ' +
        'per event, debited when accepted; at most MONITOR_REPLAY_MAX events a call (more: a 400, replay in parts).',
      params: MonitorParams,
      body: ReplayRequest,
      response: {
        200: { ...ReplayResponse, description: 'Queued' },
        402: error('Not enough credits for the events of the window (insufficient_credits); nothing was queued'),
      },
    }),
    async (request, reply) => {
      const oldest = new Date(Date.now() - services.config.changeLogRetentionDays * 86_400_000);
      const done = await monitors.replay(caller(request), request.params.id, request.body, oldest);
      request.creditsCharged = done.creditsUsed;
      reply.header('x-credits-remaining', String(done.creditsRemaining));
      return reply.headers(noStore).send({
        success: true,
        data: done.data,
        meta: { endpoint: ENDPOINT_REPLAY, creditsUsed: done.creditsUsed, creditsRemaining: done.creditsRemaining },
      });
    },
  );
}
