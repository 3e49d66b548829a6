// The monitor pass: turns the change log into what monitors are sent. One process at a time runs
// it (its position's row is locked; others skip), one transaction per batch of entries, so each
// entry is handled exactly once whatever crashes:
// 1. a company written (or a person's job change) resolves the pending targets that name it;
// 2. each new signal about a watched company becomes one event per active monitor watching it,
//    queued to the monitor's webhook or kept for its email digest;
// 3. targets resolved with a backfill owed are sent that window's signals, oldest first.
// Event ids are derived from the monitor and the record, so a record reaches a monitor once, live
// or by backfill.
import { randomUUID } from 'node:crypto';
import { changeLogHead, comparePositions, readChangeRange, type Change, type ChangePosition } from '../changes/index.js';
import type { DatasetName as ChangeDataset } from '../catalog/index.js';
import { uuidV5 } from '../catalog/index.js';
import type { Database, Queryable } from '../platform/db/index.js';
import { eventBody, MONITOR_EVENT_TYPE, type NewDelivery, type NewEvent, type WebhookService } from '../webhooks/index.js';
import {
  anyTargets,
  clearBackfill,
  insertMonitorEvents,
  lockMonitorPosition,
  pruneMonitorEvents,
  resolveTargets,
  setMonitorPosition,
  signalsSince,
  targetsToBackfill,
  watchersOf,
  type MonitorEvent,
  type WatchRow,
} from './event-queries.js';
import type { SignalType } from './schemas.js';
import { SIGNAL_SOURCES, SOURCE_DATASETS, sourceOf, type SignalSource } from './sources.js';

/** The namespace of monitor event ids: version 5 UUIDs of monitor, data set and record key. */
const EVENT_NAMESPACE = '7d1c2e4a-93b5-4f0e-8a61-2b9f5c3d7e10';
const DAY_MS = 86_400_000;
/** Targets whose backfill one transaction sends, at most. */
const BACKFILL_TARGETS_PER_RUN = 20;
/** What the pass reads the rows of: the signals' data sets, and companies (which resolve targets). */
const PASS_DATASETS: readonly ChangeDataset[] = [...SOURCE_DATASETS, 'companies'];

export interface MonitorPassLog {
  warn(message: string): void;
}

export interface MonitorPassOptions {
  /** Change log entries read per transaction. */
  batchSize: number;
  /** Signals one target's backfill sends, at most (the oldest of the window first). */
  backfillMax: number;
  /** How long what monitors were sent is kept for replay: the change log's retention. */
  retentionMs: number;
}

/** How often what monitors were sent is pruned. */
const PRUNE_EVERY_MS = 3_600_000;

/** What an event tells its receiver (data of a monitor.signal event). */
export interface MonitorSignal {
  monitor_id: string;
  monitor_name: string;
  signal_type: SignalType;
  target_ids: string[];
  company_ids: string[];
  /** The list endpoint that serves the record, in the form it serves it. */
  source: string;
  backfill: boolean;
  signal: unknown;
}

export class MonitorPass {
  private prunedAt = 0;

  constructor(
    private readonly db: Database,
    private readonly webhooks: WebhookService,
    private readonly log: MonitorPassLog,
    private readonly options: MonitorPassOptions,
  ) {}

  /** One batch; how many entries it read and events it made (0 and 0: caught up, or another process runs it). */
  async runOnce(): Promise<{ changes: number; events: number }> {
    const result = await this.db.transaction(async (tx) => {
      const lock = await lockMonitorPosition(tx);
      if (!lock) return { changes: 0, events: 0, delivered: false };
      if (lock.position === null || !(await anyTargets(tx))) {
        // Nothing to watch (or the first run): monitors hear of what comes after their targets. The
        // position is written only when the log has moved: an idle pass runs every poll, on every instance.
        const head = await changeLogHead(tx);
        if (lock.position === null || comparePositions(lock.position, head) !== 0) await setMonitorPosition(tx, head);
        return { changes: 0, events: 0, delivered: false };
      }
      const read = await readChangeRange(tx, lock.position, {
        scanRows: this.options.batchSize,
        records: { datasets: PASS_DATASETS, documents: true, values: true },
      });
      if (comparePositions(lock.position, read.bounds.pruned) < 0) {
        this.log.warn('monitors: the change log was pruned past the monitor position; changes in between reach no monitor');
        await setMonitorPosition(tx, read.bounds.pruned);
        return { changes: 0, events: 0, delivered: false };
      }
      const made: Made = { events: [], deliveries: [], monitorEvents: [] };
      if (read.changes.length > 0) {
        await resolveTargets(tx, resolutionsOf(read.changes));
        await this.signalEvents(tx, read.changes, made);
        await setMonitorPosition(tx, read.changes.at(-1)!.position);
      }
      await this.backfill(tx, made);
      const fresh = await insertMonitorEvents(tx, made.monitorEvents);
      const isNew = (monitorId: string, eventId: string) => fresh.has(`${monitorId}/${eventId}`);
      const deliveries = made.deliveries.filter((d) => isNew(d.monitorId, d.eventId));
      const eventIds = new Set(deliveries.map((d) => d.eventId));
      await this.webhooks.queueEvents(
        tx,
        made.events.filter((e) => eventIds.has(e.id)),
        deliveries.map(({ monitorId: _, ...delivery }) => delivery),
      );
      return { changes: read.changes.length, events: fresh.size, delivered: deliveries.length > 0 };
    });
    if (result.delivered) this.webhooks.wakeSender();
    if (Date.now() - this.prunedAt > PRUNE_EVERY_MS) {
      this.prunedAt = Date.now();
      await pruneMonitorEvents(this.db, new Date(Date.now() - this.options.retentionMs));
    }
    return { changes: result.changes, events: result.events };
  }

  /** Events for the new signals of the changes about watched companies. */
  private async signalEvents(tx: Queryable, changes: readonly Change[], made: Made): Promise<void> {
    const signals: { change: Change; source: SignalSource; companies: string[] }[] = [];
    for (const change of changes) {
      const source = sourceOf(change.dataset);
      const values = change.record?.values as Record<string, unknown> | undefined;
      if (!source || change.op !== 'created' || !values || change.record?.doc === undefined) continue;
      const companies = [
        ...new Set(source.columns.map((column) => values[column]).filter((v): v is string => typeof v === 'string')),
      ];
      if (companies.length > 0) signals.push({ change, source, companies });
    }
    const watchers = await watchersOf(tx, [...new Set(signals.flatMap((s) => s.companies))]);
    const byCompany = new Map<string, WatchRow[]>();
    for (const row of watchers) byCompany.set(row.company_id, [...(byCompany.get(row.company_id) ?? []), row]);
    for (const { change, source, companies } of signals) {
      const changedAt = change.changedAt.getTime();
      const reached = companies
        .flatMap((company) => byCompany.get(company) ?? [])
        // A target hears of signals committed after it was added (backfill is the way to the past).
        .filter((row) => row.signal_types.includes(source.type) && row.target_created_ms <= changedAt);
      for (const rows of groupByMonitor(reached)) {
        const record = source.serve(change.record!.doc!, change.record!.key, change.record!.values!.sort_ms);
        this.addEvent(made, rows, source, change.record!.key, record, change.changedAt, change.position, false);
      }
    }
  }

  /** Sends the owed backfill of a few resolved targets, and marks it sent. */
  private async backfill(tx: Queryable, made: Made): Promise<void> {
    const due = await targetsToBackfill(tx, BACKFILL_TARGETS_PER_RUN);
    for (const target of due) {
      const since = new Date(Date.now() - target.backfill_days * DAY_MS);
      const found: { source: SignalSource; key: string; doc: string; ms: number }[] = [];
      for (const source of SIGNAL_SOURCES.filter((s) => target.signal_types.includes(s.type))) {
        for (const row of await signalsSince(tx, source, target.company_id, since, this.options.backfillMax)) {
          found.push({ source, key: row.key, doc: row.doc, ms: row.sort_ms });
        }
      }
      found.sort((a, b) => a.ms - b.ms || (a.key < b.key ? -1 : 1));
      for (const signal of found.slice(0, this.options.backfillMax)) {
        const record = signal.source.serve(signal.doc, signal.key, signal.ms);
        // Position (0, the signal's time): queued in date order, before the live events of the log.
        this.addEvent(
          made,
          [target],
          signal.source,
          signal.key,
          record,
          new Date(signal.ms),
          { seq: 0, changeId: signal.ms },
          true,
        );
      }
    }
    await clearBackfill(
      tx,
      due.map((t) => t.target_id),
    );
  }

  private addEvent(
    made: Made,
    rows: readonly WatchRow[],
    source: SignalSource,
    key: string,
    record: string,
    at: Date,
    position: ChangePosition,
    backfill: boolean,
  ): void {
    const monitor = rows[0]!;
    const eventId = uuidV5(EVENT_NAMESPACE, `${monitor.monitor_id}/${source.dataset}/${key}`);
    const data: MonitorSignal = {
      monitor_id: monitor.monitor_id,
      monitor_name: monitor.name,
      signal_type: source.type,
      target_ids: [...new Set(rows.map((r) => r.target_id))].sort(),
      company_ids: [...new Set(rows.map((r) => r.company_id))].sort(),
      source: source.path,
      backfill,
      signal: JSON.parse(record) as unknown,
    };
    const body = eventBody({ eventId, eventType: MONITOR_EVENT_TYPE, timestamp: at, data });
    // The same record twice in one batch (a backfill overlapping a live signal) is one event.
    if (made.monitorEvents.some((e) => e.monitorId === monitor.monitor_id && e.eventId === eventId)) return;
    made.monitorEvents.push({ monitorId: monitor.monitor_id, eventId, body, position, backfill, mail: monitor.email });
    if (monitor.webhook_id !== null) {
      made.events.push({ id: eventId, eventType: MONITOR_EVENT_TYPE, body });
      made.deliveries.push({
        id: randomUUID(),
        monitorId: monitor.monitor_id,
        webhookId: monitor.webhook_id,
        position,
        eventId,
        eventType: MONITOR_EVENT_TYPE,
      });
    }
  }
}

interface Made {
  events: NewEvent[];
  deliveries: (NewDelivery & { monitorId: string })[];
  monitorEvents: MonitorEvent[];
}

/** The rows of each monitor together, in the order monitors first appear. */
function groupByMonitor(rows: readonly WatchRow[]): WatchRow[][] {
  const groups = new Map<string, WatchRow[]>();
  for (const row of rows) groups.set(row.monitor_id, [...(groups.get(row.monitor_id) ?? []), row]);
  return [...groups.values()];
}

/** The target values the changes resolve: companies' domains and pages, people's new companies. */
function resolutionsOf(changes: readonly Change[]): { value: string; companyId: string }[] {
  const matches: { value: string; companyId: string }[] = [];
  for (const change of changes) {
    const values = change.record?.values as Record<string, unknown> | undefined;
    if (!values || change.op === 'deleted') continue;
    if (change.dataset === 'companies') {
      const id = change.record!.key;
      for (const key of [values.website_key, values.linkedin_key]) {
        if (typeof key === 'string') matches.push({ value: key, companyId: id });
      }
    } else if (
      change.dataset === 'job-changes' &&
      typeof values.person_key === 'string' &&
      typeof values.company_id === 'string'
    ) {
      matches.push({ value: values.person_key, companyId: values.company_id });
    }
  }
  return matches;
}
