// Turns the change log into webhook deliveries. One process at a time does it (the dispatch
// position's row is locked for the run; others skip), in one transaction per batch: the
// deliveries of a batch of entries and the position after it commit together, so every entry
// becomes its deliveries exactly once, whatever crashes or restarts.
import { randomUUID } from 'node:crypto';
import type { Database } from '../platform/db/index.js';
import { changeLogHead, comparePositions, readChangeRange, type Change, type ChangeRange } from '../changes/index.js';
import { subscribedWebhooks, lockDispatchPosition, setDispatchPosition, type DispatchWebhook } from './dispatch-queries.js';
import { enqueueDeliveries, insertEvents, type NewDelivery, type NewEvent } from './delivery-queue-queries.js';
import { indexRecord } from '../read/index.js';
import { DATASET_NAMES, datasetNamed, type DatasetName } from '../catalog/index.js';
import { compileWebhookFilters, eventTypeOf, matchesRecord, type WebhookMatcher } from './event-filters.js';
import { eventBody } from './signing.js';

interface Subscriber {
  id: string;
  eventTypes: ReadonlySet<string>;
  matcher: WebhookMatcher;
  createdAt: number;
  /** What the compiled matcher was made from. */
  updatedAt: number;
}

export interface DispatchLog {
  warn(message: string): void;
}

export class WebhookDispatcher {
  private subscribers = new Map<string, Subscriber>();

  constructor(
    private readonly db: Database,
    private readonly log: DispatchLog,
    /** Pending deliveries a paused webhook keeps, at most. */
    private readonly pausedBacklog: number,
    /**
     * Deliveries queued per transaction, at most (plus those of the change that reaches it): short
     * transactions, so the embedded store's one connection goes to readers in between.
     */
    private readonly maxDeliveries = 1000,
    private readonly batchSize = 1000,
  ) {}

  /**
   * Dispatches the next batch of change log entries; returns how many entries it read (0 when
   * caught up or when another process is dispatching) and how many deliveries it queued.
   */
  runOnce(): Promise<{ changes: number; deliveries: number }> {
    return this.db.transaction(async (tx) => {
      const lock = await lockDispatchPosition(tx);
      if (!lock) return { changes: 0, deliveries: 0 };
      if (lock.position === null) {
        // The first run: events start now, not with the history already in the tables.
        await setDispatchPosition(tx, await changeLogHead(tx));
        return { changes: 0, deliveries: 0 };
      }
      let webhooks = await subscribedWebhooks(tx);
      let subscribers: Subscriber[];
      let read: ChangeRange;
      for (;;) {
        subscribers = this.refresh(webhooks);
        // The entries and, for the data sets some webhook listens to, their records as they are now
        // (a deleted one has no event), read together. When many webhooks listen, fewer entries are
        // read: as many as can reach maxDeliveries, so a transaction reads only the records it may queue.
        const listeners = listenersPerDataset(subscribers);
        const mostListeners = Math.max(0, ...listeners.values());
        const scanRows =
          mostListeners === 0 ? this.batchSize : Math.min(this.batchSize, Math.ceil(this.maxDeliveries / mostListeners));
        read = await readChangeRange(tx, lock.position, {
          scanRows,
          records: { datasets: [...listeners.keys()], documents: true, values: true },
        });
        // A webhook created or changed while the entries were read may be owed some of them (its
        // creation committed before theirs): read them again with it.
        const now = await subscribedWebhooks(tx);
        if (versionsOf(now) === versionsOf(webhooks)) break;
        webhooks = now;
      }
      const { changes, bounds } = read;
      if (comparePositions(lock.position, bounds.pruned) < 0) {
        this.log.warn(
          `webhooks: the change log was pruned past the dispatch position (${lock.position.seq}.${lock.position.changeId}); ` +
            'changes in between produce no events',
        );
        await setDispatchPosition(tx, bounds.pruned);
        return { changes: 0, deliveries: 0 };
      }
      if (changes.length === 0) return { changes: 0, deliveries: 0 };
      const { events, deliveries, through } = this.deliveriesFor(subscribers, changes);
      await insertEvents(tx, events);
      await enqueueDeliveries(tx, deliveries, this.pausedBacklog);
      await setDispatchPosition(tx, through.position);
      return { changes: changes.indexOf(through) + 1, deliveries: deliveries.length };
    });
  }

  /**
   * The events and deliveries of the changes, in order, through the change where the deliveries
   * reach maxDeliveries (a large import matching many webhooks is dispatched over several
   * transactions, each short); `through` is the last change handled.
   */
  private deliveriesFor(
    subscribers: readonly Subscriber[],
    changes: readonly Change[],
  ): { events: NewEvent[]; deliveries: NewDelivery[]; through: Change } {
    const events: NewEvent[] = [];
    const deliveries: NewDelivery[] = [];
    for (const change of changes) {
      const found = change.record;
      if (found?.values && found.doc !== undefined) {
        const record = indexRecord(found.values);
        const eventType = eventTypeOf(change.dataset, change.op);
        const changedAt = change.changedAt.getTime();
        // One event per change, its body built and stored once, whichever webhooks it goes to.
        let event: NewEvent | undefined;
        for (const subscriber of subscribers) {
          // A webhook hears of changes committed after it was created.
          if (eventType === undefined || !subscriber.eventTypes.has(eventType) || changedAt < subscriber.createdAt) continue;
          if (!matchesRecord(subscriber.matcher, change.dataset, record)) continue;
          if (!event) {
            const id = randomUUID();
            // The record as its list endpoint serves it (hiring signals add their published fields then).
            const view = datasetNamed(change.dataset)?.document;
            const doc = view ? view.serve(found.doc, change.key ?? '', found.values.sort_ms) : found.doc;
            const body = eventBody({ eventId: id, eventType, timestamp: change.changedAt, data: JSON.parse(doc) });
            event = { id, eventType, body };
            events.push(event);
          }
          deliveries.push({
            id: randomUUID(),
            webhookId: subscriber.id,
            position: change.position,
            eventId: event.id,
            eventType,
          });
        }
      }
      if (deliveries.length >= this.maxDeliveries) return { events, deliveries, through: change };
    }
    return { events, deliveries, through: changes.at(-1)! };
  }

  /** Compiles the filters of webhooks new or changed since the last run; drops those gone. */
  private refresh(rows: readonly DispatchWebhook[]): Subscriber[] {
    const next = new Map<string, Subscriber>();
    for (const row of rows) {
      const known = this.subscribers.get(row.id);
      if (known && known.updatedAt === row.updated_at.getTime()) {
        next.set(row.id, known);
        continue;
      }
      try {
        next.set(row.id, {
          id: row.id,
          eventTypes: new Set(row.event_types),
          matcher: compileWebhookFilters(row.filters, row.event_types),
          createdAt: row.created_at.getTime(),
          updatedAt: row.updated_at.getTime(),
        });
      } catch (error) {
        // Checked when saved; a filter a newer version refuses is skipped, not a stop to every delivery.
        this.log.warn(`webhooks: ${row.id} has filters that no longer compile (${(error as Error).message}); skipped`);
      }
    }
    this.subscribers = next;
    return [...next.values()];
  }
}

/** The data sets some webhook listens to, with the most webhooks one change of each can reach. */
function listenersPerDataset(subscribers: readonly Subscriber[]): Map<DatasetName, number> {
  const listeners = new Map<DatasetName, number>();
  for (const name of DATASET_NAMES) {
    const most = Math.max(
      ...(['created', 'updated'] as const).map(
        (op) => subscribers.filter((s) => s.eventTypes.has(eventTypeOf(name, op)!)).length,
      ),
    );
    if (most > 0) listeners.set(name, most);
  }
  return listeners;
}

/** Which webhooks there are and which version of each: what the compiled subscribers depend on. */
function versionsOf(webhooks: readonly DispatchWebhook[]): string {
  return webhooks
    .map((webhook) => `${webhook.id}@${webhook.updated_at.getTime()}`)
    .sort()
    .join(',');
}
