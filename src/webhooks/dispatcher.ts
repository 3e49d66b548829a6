// Turns the change log into webhook deliveries. One process at a time does it (the dispatch
// position's row is locked for the run; others skip), in one transaction per batch: the
// deliveries of a batch of entries and the position after it commit together, so every entry
// becomes its deliveries exactly once, whatever crashes or restarts.
import { randomUUID } from 'node:crypto';
import type { Database, Transaction } from '../platform/db/index.js';
import { changeLogHead, comparePositions, readChanges, type Change } from '../changes/index.js';
import { indexRowsWithDocuments } from '../read/index.js';
import { subscribedWebhooks, lockDispatchPosition, setDispatchPosition, type DispatchWebhook } from './dispatch-queries.js';
import { enqueueDeliveries, insertEvents, type NewDelivery, type NewEvent } from './delivery-queue-queries.js';
import { indexedDataset, indexRecord, type IndexedDataset } from '../read/index.js';
import { DATASETS } from '../catalog/index.js';
import type { IndexRecord } from '../read/filter-index/index.js';
import { compileWebhookFilters, EVENT_PREFIX, matchesRecord, type WebhookMatcher } from './event-filters.js';
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
  private readonly datasets = new Map<string, IndexedDataset>();
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
  ) {
    for (const dataset of DATASETS) this.datasets.set(dataset.name, dataset.open(indexedDataset));
  }

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
      const { changes, pruned } = await readChanges(tx, lock.position, this.batchSize);
      if (comparePositions(lock.position, pruned) < 0) {
        this.log.warn(
          `webhooks: the change log was pruned past the dispatch position (${lock.position.seq}.${lock.position.changeId}); ` +
            'changes in between produce no events',
        );
        await setDispatchPosition(tx, pruned);
        return { changes: 0, deliveries: 0 };
      }
      if (changes.length === 0) return { changes: 0, deliveries: 0 };
      const { events, deliveries, through } = await this.deliveriesFor(tx, changes);
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
  private async deliveriesFor(
    tx: Transaction,
    changes: readonly Change[],
  ): Promise<{ events: NewEvent[]; deliveries: NewDelivery[]; through: Change }> {
    const subscribers = this.refresh(await subscribedWebhooks(tx));
    if (subscribers.length === 0) return { events: [], deliveries: [], through: changes.at(-1)! };
    // The records of changes some webhook listens to, as they are now (a deleted one has no event),
    // up to the change whose possible deliveries (every webhook of its event type, before filters)
    // reach maxDeliveries: when many webhooks listen, a transaction reads only the records it may
    // queue, not the whole batch's.
    const wanted = new Map<string, Set<number>>();
    let possible = 0;
    let end = changes.length;
    for (const [i, change] of changes.entries()) {
      if (change.op === 'deleted') continue;
      const type = `${EVENT_PREFIX[change.dataset]}.${change.op}`;
      const listeners = subscribers.filter((s) => s.eventTypes.has(type)).length;
      if (listeners === 0) continue;
      let ids = wanted.get(change.dataset);
      if (!ids) wanted.set(change.dataset, (ids = new Set()));
      ids.add(change.id);
      possible += listeners;
      if (possible >= this.maxDeliveries) {
        end = i + 1;
        break;
      }
    }
    const considered = changes.slice(0, end);
    const records = new Map<string, { record: IndexRecord; doc: string }>();
    for (const [name, ids] of wanted) {
      const dataset = this.datasets.get(name)!;
      for (const { doc, ...row } of await indexRowsWithDocuments(tx, dataset.source, [...ids])) {
        records.set(`${name}:${row.id}`, { record: indexRecord(row), doc });
      }
    }
    const events: NewEvent[] = [];
    const deliveries: NewDelivery[] = [];
    for (const change of considered) {
      const found = change.op === 'deleted' ? undefined : records.get(`${change.dataset}:${change.id}`);
      if (found) {
        const eventType = `${EVENT_PREFIX[change.dataset]}.${change.op}`;
        const changedAt = change.changedAt.getTime();
        // One event per change, its body built and stored once, whichever webhooks it goes to.
        let event: NewEvent | undefined;
        for (const subscriber of subscribers) {
          // A webhook hears of changes committed after it was created.
          if (!subscriber.eventTypes.has(eventType) || changedAt < subscriber.createdAt) continue;
          if (!matchesRecord(subscriber.matcher, change.dataset, found.record)) continue;
          if (!event) {
            const id = randomUUID();
            const body = eventBody({ eventId: id, eventType, timestamp: change.changedAt, data: JSON.parse(found.doc) });
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
    return { events, deliveries, through: considered.at(-1)! };
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
