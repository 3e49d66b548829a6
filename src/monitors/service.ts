// Monitors as their owner manages them (the published Monitoring API): create, list, read, change
// and delete monitors; list, add and remove their targets; replay what a monitor was sent. Every
// write that checks a limit locks the account's row first, so concurrent writes count one after
// another; a monitor and its webhook are written in one transaction. Framework-free.
import { randomUUID } from 'node:crypto';
import { ApiError, invalidParameter, urlKey, type CompanyRecord } from '../catalog/index.js';
import type { Tier } from '../config.js';
import type { Database, Queryable } from '../platform/db/index.js';
import type { PreparedEndpoint, WebhookService } from '../webhooks/index.js';
import { CreditsShort, debitCredits, withRefill, type CreditMeter } from '../accounts/index.js';
import {
  companiesForKeys,
  countAccountTargets,
  countMonitors,
  countTargets,
  deleteMonitor,
  deleteTargets,
  findMonitor,
  insertMonitor,
  insertTargets,
  lastSignals,
  listMonitors,
  listTargets,
  lockAccount,
  recentSignals,
  resolvedCompanies,
  targetsById,
  targetsByValue,
  updateMonitor,
  type MonitorRow,
  type TargetRow,
} from './queries.js';
import { readEntries } from './targets.js';
import { countReplay, replayEvents } from './event-queries.js';
import type {
  MonitorCreateRequest,
  MonitorUpdateRequest,
  ReplayRequest,
  Target,
  TargetListQuery,
  TargetsAddRequest,
  TargetsRemoveRequest,
} from './schemas.js';

export interface MonitorLimits {
  /** Monitors an account may have, by tier (published: 20). */
  monitors: Record<Tier, number>;
  /** Targets an account may have over all its monitors, by tier (published: 1,000). */
  targets: Record<Tier, number>;
  /** Events one replay may send again. */
  replayMax: number;
}

export interface Caller {
  accountId: number;
  keyId: string | null;
  tier: Tier;
}

export const ENDPOINT_REPLAY = 'monitors.replay';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DAY_MS = 86_400_000;

const monitorNotFound = () => new ApiError('NOT_FOUND', 'Monitor not found');
const targetNotFound = () => new ApiError('NOT_FOUND', 'Target not found');

export interface MonitorView {
  id: string;
  name: string;
  signal_types: string[];
  active: boolean;
  webhook: { id: string; endpoint_url: string | null; secret?: string } | null;
  stats: { targets: number; resolved_targets: number; signals_30d: number; last_delivery_at: string | null };
  created_at: string;
  updated_at: string;
  backfill_days: number;
  email_alerts: boolean;
}

function monitorView(row: MonitorRow, signals30d: number, secret?: string): MonitorView {
  return {
    id: row.id,
    name: row.name,
    signal_types: row.signal_types,
    active: row.active,
    webhook:
      row.webhook_id === null
        ? null
        : { id: row.webhook_id, endpoint_url: row.endpoint_url, ...(secret !== undefined && { secret }) },
    stats: {
      targets: row.targets,
      resolved_targets: row.resolved_targets,
      signals_30d: signals30d,
      last_delivery_at: row.last_delivery_at,
    },
    created_at: row.created_at,
    updated_at: row.updated_at,
    backfill_days: row.backfill_days,
    email_alerts: row.webhook_id === null && !row.email_unsubscribed,
  };
}

export class MonitorService {
  constructor(
    private readonly db: Database,
    private readonly webhooks: WebhookService,
    private readonly credits: CreditMeter,
    private readonly limits: MonitorLimits,
    /** Told after a write that may give the monitor pass work (targets to backfill). */
    private readonly onChange: () => void = () => undefined,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async create(caller: Caller, body: MonitorCreateRequest): Promise<MonitorView> {
    const endpoint =
      body.webhook_url === undefined ? undefined : await this.webhooks.prepareEndpoint(body.webhook_url, 'webhook_url');
    const id = randomUUID();
    const max = this.limits.monitors[caller.tier];
    await this.db.transaction(async (tx) => {
      await lockAccount(tx, caller.accountId);
      if ((await countMonitors(tx, caller.accountId)) >= max) {
        throw invalidParameter(`an account may have at most ${max} monitors, paused ones included; delete one first`);
      }
      if (endpoint) await this.webhooks.insertMonitorWebhook(tx, caller.accountId, id, endpoint);
      await insertMonitor(tx, {
        id,
        accountId: caller.accountId,
        name: body.name,
        signalTypes: [...new Set(body.signal_types)],
        webhookId: endpoint?.id ?? null,
        backfillDays: body.backfill_days ?? 0,
      });
    });
    return this.view(caller.accountId, id, endpoint?.secret);
  }

  async list(accountId: number): Promise<MonitorView[]> {
    const rows = await listMonitors(this.db, accountId);
    const signals = await recentSignals(
      this.db,
      rows.map((row) => row.id),
      new Date(this.now().getTime() - 30 * DAY_MS),
    );
    return rows.map((row) => monitorView(row, signals.get(row.id) ?? 0));
  }

  async get(accountId: number, id: string): Promise<MonitorView> {
    return this.view(accountId, id);
  }

  async update(caller: Caller, id: string, body: MonitorUpdateRequest): Promise<MonitorView> {
    const current = await this.monitor(caller.accountId, id);
    // The current URL changes nothing (no new secret); a new one is checked before anything is written.
    let endpoint: PreparedEndpoint | undefined;
    if (typeof body.webhook_url === 'string') {
      const prepared = await this.webhooks.prepareEndpoint(body.webhook_url, 'webhook_url', current.webhook_id ?? undefined);
      if (prepared.url !== current.endpoint_url) endpoint = prepared;
    }
    await this.db.transaction(async (tx) => {
      const locked = await findMonitor(tx, caller.accountId, current.id, true);
      if (!locked) throw monitorNotFound();
      let webhookId: string | null | undefined;
      if (body.webhook_url === null && locked.webhook_id !== null) {
        await this.webhooks.removeMonitorWebhook(tx, caller.accountId, locked.webhook_id);
        webhookId = null;
      } else if (endpoint && locked.webhook_id !== null) {
        await this.webhooks.replaceMonitorEndpoint(tx, endpoint);
      } else if (endpoint) {
        await this.webhooks.insertMonitorWebhook(tx, caller.accountId, locked.id, endpoint);
        webhookId = endpoint.id;
      }
      await updateMonitor(tx, locked.id, {
        name: body.name,
        signalTypes: body.signal_types && [...new Set(body.signal_types)],
        active: body.active,
        webhookId,
        backfillDays: body.backfill_days,
      });
    });
    return this.view(caller.accountId, current.id, endpoint?.secret);
  }

  async remove(accountId: number, id: string): Promise<{ id: string; deleted: true }> {
    await this.db.transaction(async (tx) => {
      const monitor = UUID.test(id) ? await findMonitor(tx, accountId, id.toLowerCase(), true) : undefined;
      if (!monitor) throw monitorNotFound();
      // Deliveries stop at once: its webhook's pending ones go with it.
      if (monitor.webhook_id !== null) await this.webhooks.removeMonitorWebhook(tx, accountId, monitor.webhook_id);
      await deleteMonitor(tx, monitor.id);
    });
    return { id: id.toLowerCase(), deleted: true };
  }

  async targets(
    accountId: number,
    id: string,
    query: TargetListQuery,
  ): Promise<{ data: Target[]; pagination: { limit: number; offset: number; count: number; total: number } }> {
    const monitor = await this.monitor(accountId, id);
    const limit = query.limit ?? 100;
    const offset = query.offset ?? 0;
    const [rows, total] = await Promise.all([
      listTargets(this.db, monitor.id, { status: query.status, limit, offset }),
      countTargets(this.db, monitor.id, query.status),
    ]);
    const data = await this.targetViews(rows);
    return { data, pagination: { limit, offset, count: data.length, total } };
  }

  async addTargets(caller: Caller, id: string, body: TargetsAddRequest) {
    const current = await this.monitor(caller.accountId, id);
    const { targets, invalid } = readEntries(body.targets);
    if (targets.length === 0) {
      throw invalidParameter(
        'targets: no entry is a company domain, a LinkedIn company URL or a LinkedIn profile URL',
        'targets',
      );
    }
    const max = this.limits.targets[caller.tier];
    const backfillDays = body.backfill_days ?? current.backfill_days;
    const result = await this.db.transaction(async (tx) => {
      await lockAccount(tx, caller.accountId);
      const monitor = await findMonitor(tx, caller.accountId, current.id);
      if (!monitor) throw monitorNotFound();
      const existing = new Set(
        (
          await targetsByValue(
            tx,
            monitor.id,
            targets.map((t) => t.value),
          )
        ).map((t) => t.value),
      );
      const fresh = targets.filter((t) => !existing.has(t.value));
      const count = await countAccountTargets(tx, caller.accountId);
      if (count + fresh.length > max) {
        throw invalidParameter(
          `an account may have at most ${max} targets over all its monitors: it has ${count}, and this request would add ` +
            `${fresh.length}; nothing was added`,
          'targets',
        );
      }
      const companies = await companiesForKeys(tx, fresh);
      const added = fresh.map((t) => ({ id: randomUUID(), ...t, companyId: companies.get(t.value) ?? null, backfillDays }));
      await insertTargets(tx, { id: monitor.id, accountId: caller.accountId }, added);
      const stored = new Map(
        (
          await targetsById(
            tx,
            monitor.id,
            added.map((t) => t.id),
          )
        ).map((row) => [row.id, row]),
      );
      // Newest first, as the list serves them: the last sent first.
      const rows = added.map((t) => stored.get(t.id)!).reverse();
      return { rows, skipped: targets.length - fresh.length, resolved: await resolvedCompanies(tx, monitor.id) };
    });
    if (backfillDays > 0) this.onChange();
    const added = await this.targetViews(result.rows);
    return {
      added,
      skipped_existing: result.skipped,
      invalid,
      pending: added.filter((t) => t.status === 'pending').map((t) => t.value),
      resolved_companies: result.resolved,
    };
  }

  async removeTarget(accountId: number, id: string, targetId: string): Promise<{ id: string; deleted: true }> {
    const monitor = await this.monitor(accountId, id);
    if (!UUID.test(targetId)) throw targetNotFound();
    const removed = await this.db.transaction(async (tx) => {
      const rows = await targetsById(tx, monitor.id, [targetId.toLowerCase()]);
      if (rows.length === 0) return false;
      await deleteTargets(tx, monitor.id, [rows[0]!.id]);
      return true;
    });
    if (!removed) throw targetNotFound();
    return { id: targetId.toLowerCase(), deleted: true };
  }

  async removeTargets(accountId: number, id: string, body: TargetsRemoveRequest) {
    const monitor = await this.monitor(accountId, id);
    const ids = [...new Set(body.ids ?? [])];
    const { targets, invalid } = readEntries(body.targets ?? []);
    const badIds = ids.filter((value) => !UUID.test(value));
    const goodIds = ids.filter((value) => UUID.test(value)).map((value) => value.toLowerCase());
    return this.db.transaction(async (tx) => {
      // A LinkedIn company URL names only the target added by that URL (its value), never a profile
      // target that resolves to the same company.
      const byId = await targetsById(tx, monitor.id, goodIds);
      const byValue = await targetsByValue(
        tx,
        monitor.id,
        targets.map((t) => t.value),
      );
      const removedRows = new Map([...byId, ...byValue].map((row) => [row.id, row]));
      await deleteTargets(tx, monitor.id, [...removedRows.keys()]);
      const foundIds = new Set(byId.map((row) => row.id));
      const foundValues = new Set(byValue.map((row) => row.value));
      return {
        removed: await this.targetViews([...removedRows.values()], tx),
        not_found: [
          ...goodIds.filter((value) => !foundIds.has(value)),
          ...targets.filter((t) => !foundValues.has(t.value)).map((t) => t.value),
        ],
        invalid: [...badIds, ...invalid],
        resolved_companies: await resolvedCompanies(tx, monitor.id),
      };
    });
  }

  /**
   * Queues again, with their original ids and bodies, the events the monitor's webhook was sent
   * from `since` to `until`, in their original order: 1 credit each, debited when accepted.
   */
  async replay(caller: Caller, id: string, body: ReplayRequest, oldest: Date) {
    const monitor = await this.monitor(caller.accountId, id);
    if (monitor.webhook_id === null) {
      throw invalidParameter('this monitor has no webhook: replay sends events to a webhook (set webhook_url first)');
    }
    const since = new Date(body.since);
    const until = body.until === undefined ? this.now() : new Date(body.until);
    if (since.getTime() < oldest.getTime()) {
      throw invalidParameter(`since must be within the change log's retention: at or after ${oldest.toISOString()}`, 'since');
    }
    if (until.getTime() < since.getTime()) throw invalidParameter('until must not be before since', 'until');
    const webhookId = monitor.webhook_id;
    const done = await withRefill(this.credits, caller.accountId, () =>
      this.db.transaction(async (tx) => {
        const count = await countReplay(tx, monitor.id, since, until);
        if (count > this.limits.replayMax) {
          throw invalidParameter(
            `the window holds ${count} events, more than one replay sends (${this.limits.replayMax}): replay it in parts with until`,
            'until',
          );
        }
        if (count === 0) return { events: 0, creditsRemaining: undefined };
        const balance = await debitCredits(tx, { ...caller, cost: count, endpoint: ENDPOINT_REPLAY });
        if (balance === undefined) throw new CreditsShort();
        await replayEvents(tx, this.webhooks, { monitorId: monitor.id, webhookId, accountId: caller.accountId, since, until });
        return { events: count, creditsRemaining: balance };
      }),
    );
    if (done.events > 0) this.webhooks.wakeSender();
    return {
      data: { webhook_id: webhookId, events: done.events, since: since.toISOString(), until: until.toISOString() },
      creditsUsed: done.events,
      creditsRemaining: done.creditsRemaining ?? (await this.credits.balance(caller.accountId)),
    };
  }

  /** The account's monitor; 404 for another account's or none. */
  private async monitor(accountId: number, id: string): Promise<MonitorRow> {
    const row = UUID.test(id) ? await findMonitor(this.db, accountId, id.toLowerCase()) : undefined;
    if (!row) throw monitorNotFound();
    return row;
  }

  private async view(accountId: number, id: string, secret?: string): Promise<MonitorView> {
    const row = await this.monitor(accountId, id);
    const signals = await recentSignals(this.db, [row.id], new Date(this.now().getTime() - 30 * DAY_MS));
    return monitorView(row, signals.get(row.id) ?? 0, secret);
  }

  private async targetViews(rows: readonly TargetRow[], db: Queryable = this.db): Promise<Target[]> {
    const last = await lastSignals(db, [...new Set(rows.flatMap((row) => (row.company_id === null ? [] : [row.company_id])))]);
    return rows.map((row) => {
      const company = row.company_doc === null ? null : (JSON.parse(row.company_doc) as CompanyRecord);
      const signal = row.company_id === null ? undefined : last.get(row.company_id);
      return {
        id: row.id,
        monitor_id: row.monitor_id,
        type: row.type,
        value: row.value,
        status: row.company_id === null ? 'pending' : 'resolved',
        company:
          row.company_id === null
            ? null
            : {
                id: row.company_id,
                name: company?.name ?? null,
                slug: company?.slug ?? null,
                domain: urlKey(company?.website ?? null),
                industry: company?.industry ?? null,
                country: company?.headquartersCountry ?? null,
              },
        resolved_at: row.resolved_at,
        last_signal_type: signal?.type ?? null,
        last_signal_at: signal?.at ?? null,
        created_at: row.created_at,
      };
    });
  }
}
