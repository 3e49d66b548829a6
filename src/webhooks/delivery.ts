// Sends queued webhook deliveries: claims webhooks whose oldest pending delivery is due (a lease,
// so each is sent to by one process at a time and a crashed process's share is taken over when
// its lease runs out), sends their deliveries in change order, and records the outcomes.
//
// Order per webhook: deliveries go oldest change first, and a failed one holds the ones after it
// until it succeeds or fails for good (about 24 hours of retries), so a receiver never sees a
// change before one that came earlier. A delivery that fails for good pauses its webhook; its
// later deliveries stay queued (at most the paused backlog) and go out in order once the owner
// turns it on again.
//
// Billing: one credit per (webhook, event), reserved before the first attempt is sent (none left:
// the delivery waits), kept once the body has been written to the receiver's connection whatever
// it answers, given back when it never left; later attempts of a paid event are free.
import { randomUUID } from 'node:crypto';
import type { Database } from '../platform/db/index.js';
import { recordAttempts, type AttemptResult, type WebhookOutcome } from './attempt-queries.js';
import { reserveDeliveries, type DeliveryCharge, type Reservation, type Settlement } from './charge-queries.js';
import { claimDueWebhooks, type ClaimedWebhook } from './delivery-queue-queries.js';
import type { DeliveryResult, WebhookTransport } from './transport.js';
import type { CreditMeter } from '../accounts/index.js';
import { WebhookDispatcher, type DispatchLog } from './dispatcher.js';
import { signDelivery } from './signing.js';
import { ACCOUNT_EVENT_TYPES } from './schemas.js';
import { SecretUnreadable, type WebhookSecrets } from './secrets.js';

export interface DeliveryOptions {
  concurrency: number;
  leaseMs: number;
  pollMs: number;
  /** Waits before each automatic retry; one more failure than there are waits fails the delivery. */
  retryDelaysMs: readonly number[];
  /** Deliveries of one webhook sent per claim, at most. */
  perWebhook?: number;
  /** How long deliveries of an account with no credits left wait before its balance is read again. */
  creditsRecheckMs: number;
  /** Pending deliveries a paused webhook keeps, at most (the oldest). */
  pausedBacklog: number;
  /** Deliveries one dispatch transaction queues, at most. */
  dispatchBatch: number;
}

/** Events that carry no records (test events, an account's own job finishing) are never billed. */
export const isBilled = (eventType: string) =>
  eventType !== 'system.test' && !(ACCOUNT_EVENT_TYPES as readonly string[]).includes(eventType);

/** Deliveries whose credits one transaction reserves, at most: few, so credits are not held long ahead of their sends. */
const RESERVE_CHUNK = 10;

/**
 * Reserves the credits of attempts of these events (see reserveDeliveries), applying this month's
 * refill first when nothing could be taken because it is due.
 */
export async function reserveCredits(
  db: Database,
  credits: CreditMeter,
  charge: DeliveryCharge,
  eventIds: readonly string[],
  holdMs: number,
): Promise<Reservation[]> {
  const first = await reserveDeliveries(db, charge, eventIds, holdMs);
  if (first[0] !== 'short' || !(await credits.refill(charge.accountId))) return first;
  return reserveDeliveries(db, charge, eventIds, holdMs);
}

export interface DeliveryLog extends DispatchLog {
  error(message: string): void;
}

/** Told of every attempt (metrics). */
export type AttemptListener = (outcome: 'delivered' | 'retrying' | 'failed', latencyMs: number) => void;

/** 2xx: delivered. Anything else (a redirect included: never followed) is a failure. */
export const isDelivered = (result: DeliveryResult) => result.status >= 200 && result.status < 300;

/** What an attempt's failure was, for the delivery log and a paused webhook's reason. */
export function describeFailure(result: DeliveryResult): string {
  return result.status === 0 ? (result.error ?? 'no response') : `HTTP ${result.status}`;
}

/** The wait before the retry after attempt `attempt` (1-based): the schedule's, ±20 %, or the receiver's Retry-After. */
export function retryDelay(schedule: readonly number[], attempt: number, result: DeliveryResult, random = Math.random): number {
  const planned = schedule[attempt - 1] ?? schedule.at(-1) ?? 0;
  const longest = schedule.reduce((a, b) => Math.max(a, b), 0);
  if (result.retryAfterMs !== undefined) return Math.min(Math.max(result.retryAfterMs, 1000), Math.max(longest, 1000));
  return Math.round(planned * (0.8 + 0.4 * random()));
}

/** A reader of the change log run in turns with the dispatcher: `changes` 0 when it is caught up. */
export interface ChangePass {
  runOnce(): Promise<{ changes: number }>;
}

/**
 * The dispatcher and the sender of one process. Every instance may run one: the dispatch lock
 * and the leases share the work out.
 */
export class WebhookDelivery {
  readonly owner = `${process.pid}-${randomUUID().slice(0, 8)}`;
  private readonly dispatcher: WebhookDispatcher;
  private readonly inFlight = new Map<string, Promise<void>>();
  private timer: NodeJS.Timeout | undefined;
  private ticking: Promise<void> | null = null;
  private again = false;
  private stopped = false;
  private readonly recorder: AttemptRecorder;
  /** Other readers of the change log that queue deliveries (the monitor pass), run after the dispatcher. */
  private readonly passes: ChangePass[] = [];

  constructor(
    private readonly db: Database,
    private readonly transport: WebhookTransport,
    private readonly credits: CreditMeter,
    private readonly secrets: WebhookSecrets,
    private readonly options: DeliveryOptions,
    private readonly log: DeliveryLog,
    private readonly onAttempt: AttemptListener = () => undefined,
    /** True once the server is shutting down. */
    private readonly draining: () => boolean = () => false,
  ) {
    this.dispatcher = new WebhookDispatcher(db, log, options.pausedBacklog, options.dispatchBatch);
    this.recorder = new AttemptRecorder(db, this.owner, log, options.pausedBacklog);
  }

  /** Runs `pass` with the dispatcher, on every tick, until it is caught up. */
  addPass(pass: ChangePass): void {
    this.passes.push(pass);
  }

  start(): void {
    this.timer = setInterval(() => this.wake(), this.options.pollMs);
    this.timer.unref();
    this.wake();
  }

  /** Looks for new changes and due deliveries now (after a write, say) instead of at the next poll. */
  wake(): void {
    // A draining server starts no new work: the connections it still answers get the event loop and
    // the store (on the embedded store, one connection), and claimed deliveries finish as they are.
    if (this.stopped || this.draining()) return;
    if (this.ticking) {
      this.again = true;
      return;
    }
    this.ticking = this.tick()
      .catch((error: unknown) => this.log.error(`webhooks: ${(error as Error).message}`))
      .finally(() => {
        this.ticking = null;
        if (this.again) {
          this.again = false;
          this.wake();
        }
      });
  }

  /** Stops claiming; waits for the deliveries being sent (each bounded by the transport's timeout). */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.ticking;
    await Promise.allSettled([...this.inFlight.values()]);
    await this.recorder.drain();
  }

  private async tick(): Promise<void> {
    // Dispatch until caught up, so a burst of changes becomes deliveries in one go; between two
    // transactions the event loop turns, so requests get in. The embedded store answers without I/O:
    // back-to-back transactions would never let the loop reach a timer or a socket, and readers
    // would wait for the whole burst however short each transaction is.
    for (let i = 0; i < 100; i++) {
      const { changes } = await this.dispatcher.runOnce();
      if (changes === 0) break;
      await new Promise((resolve) => setImmediate(resolve));
    }
    // Another pass failing (its own bug, a query it times out on) stops neither the webhooks'
    // dispatch nor sending: it is logged and tried again next tick.
    for (const pass of this.passes) {
      try {
        for (let i = 0; i < 100; i++) {
          const { changes } = await pass.runOnce();
          if (changes === 0) break;
          // What a batch queued starts going out while the next batches are read: a large import's
          // first deliveries do not wait for its last.
          await this.sendDue();
          await new Promise((resolve) => setImmediate(resolve));
        }
      } catch (error) {
        this.log.error(`webhooks: a change pass failed: ${(error as Error).message}`);
      }
    }
    await this.sendDue();
  }

  /** Claims the webhooks with deliveries due (as many as there are free slots) and starts sending to them. */
  private async sendDue(): Promise<void> {
    const free = this.options.concurrency - this.inFlight.size;
    if (free <= 0 || this.stopped) return;
    const claimed = await claimDueWebhooks(this.db, this.owner, this.options.leaseMs, free, this.options.perWebhook ?? 50);
    for (const webhook of claimed) {
      const run = this.deliver(webhook)
        .catch((error: unknown) => this.log.error(`webhooks: delivering to ${webhook.id} failed: ${(error as Error).message}`))
        .finally(() => {
          this.inFlight.delete(webhook.id);
          // It may have more pending, or a slot is free for another.
          this.wake();
        });
      this.inFlight.set(webhook.id, run);
    }
  }

  /** Sends one claimed webhook's deliveries in order, stopping at the first failure. */
  private async deliver(webhook: ClaimedWebhook): Promise<void> {
    const outcome: WebhookOutcome = {
      webhookId: webhook.id,
      accountId: webhook.account_id,
      succeeded: 0,
      failed: 0,
      lastSuccessAt: null,
      lastFailureAt: null,
      consecutiveFailures: webhook.consecutive_failures,
      pauseReason: null,
      heldUntil: null,
    };
    const attempts: AttemptResult[] = [];
    const settlements: Settlement[] = [];
    const started = Date.now();
    const { deliveries } = webhook;
    const secret = await this.openSecret(webhook, outcome, attempts);
    if (secret === undefined) {
      await this.recorder.record(attempts, outcome, settlements);
      return;
    }
    // Queued deliveries are billed but for an account's own events (a test event is sent at once, never queued).
    const charge = { accountId: webhook.account_id, webhookId: webhook.id, endpoint: 'webhooks.delivery' };
    // The answers of the last reservation, for deliveries[from ...]; next: the first delivery not sent.
    let reserved: Reservation[] = [];
    let from = 0;
    let next = 0;
    for (const [i, delivery] of deliveries.entries()) {
      // Leave the lease enough time to record what was sent.
      if (this.stopped || Date.now() - started > this.options.leaseMs / 2) break;
      const free = !isBilled(delivery.event_type);
      if (free) {
        // Nothing to reserve; the next billed delivery reserves afresh (a chunk never spans a free one).
        from = i + 1;
        reserved = [];
      } else if (i - from >= reserved.length) {
        // A few at a time in one transaction; only the head while it is being retried (its receiver
        // is failing, so the deliveries behind it would only hold credits). Settled when the outcomes
        // are recorded, within the lease (past it, another process sends anyway).
        const size = delivery.attempt_count > 0 ? 1 : RESERVE_CHUNK;
        let end = i + 1;
        while (end < deliveries.length && end - i < size && isBilled(deliveries[end]!.event_type)) end++;
        from = i;
        const events = deliveries.slice(i, end).map((d) => d.event_id);
        reserved = await reserveCredits(this.db, this.credits, charge, events, this.options.leaseMs);
      }
      const reservation: Reservation = free ? 'paid' : reserved[i - from]!;
      if (reservation === 'short' || reservation === 'busy') {
        // No credit left: the delivery waits (in order) until there is. Busy: a manual retry of the
        // same event is being sent; it is looked at again shortly.
        const wait = reservation === 'short' ? this.options.creditsRecheckMs : this.options.pollMs;
        outcome.heldUntil = new Date(Date.now() + wait);
        break;
      }
      const now = new Date();
      const headers = signDelivery(secret, {
        eventId: delivery.event_id,
        eventType: delivery.event_type,
        timestamp: now,
        body: delivery.body,
      });
      const result = await this.transport.send({ url: webhook.endpoint_url, headers, body: delivery.body });
      next = i + 1;
      if (reservation === 'reserved') settlements.push({ ...charge, eventId: delivery.event_id, bodySent: result.bodySent });
      const at = new Date();
      const attempt = delivery.attempt_count + 1;
      const base = {
        deliveryId: delivery.id,
        attemptCount: attempt,
        responseStatus: result.status,
        responseBody: result.body,
        latencyMs: Math.round(result.latencyMs),
        error: result.error ?? null,
        at,
      };
      if (isDelivered(result)) {
        this.onAttempt('delivered', result.latencyMs);
        attempts.push({ ...base, status: 'done', nextAttemptAt: null });
        outcome.succeeded++;
        outcome.lastSuccessAt = at;
        outcome.consecutiveFailures = 0;
        continue;
      }
      outcome.failed++;
      outcome.lastFailureAt = at;
      outcome.consecutiveFailures++;
      if (attempt > this.options.retryDelaysMs.length) {
        this.onAttempt('failed', result.latencyMs);
        attempts.push({ ...base, status: 'failed', nextAttemptAt: null });
        const since = Date.parse(delivery.created_at);
        outcome.pauseReason =
          `Paused after ${outcome.consecutiveFailures} failed attempts in a row: a ${delivery.event_type} event ` +
          `(delivery ${delivery.id}) was refused for ${formatDuration(at.getTime() - since)}; ` +
          `the last attempt got ${describeFailure(result)}. Fix the endpoint, then turn the webhook on again: ` +
          'its queued events will be sent in order.';
      } else {
        this.onAttempt('retrying', result.latencyMs);
        const wait = retryDelay(this.options.retryDelaysMs, attempt, result);
        attempts.push({ ...base, status: 'pending', nextAttemptAt: new Date(at.getTime() + wait) });
      }
      break;
    }
    // Credits reserved for deliveries left unsent (a failure holds them, the lease half ran out) go back.
    for (let j = next; j < from + reserved.length; j++) {
      if (reserved[j - from] === 'reserved') {
        settlements.push({ ...charge, eventId: deliveries[j]!.event_id, bodySent: false });
      }
    }
    await this.recorder.record(attempts, outcome, settlements);
  }

  /**
   * The webhook's signing secret, opened. When this server cannot read it (a key not configured, a
   * stored value changed or moved from another webhook), nothing is signed or sent and nothing is
   * charged: the webhook's deliveries wait as they would without credits, its oldest one says why
   * in the delivery log, and the operator is told. It is not a failure of the receiver, so it does
   * not count toward pausing the webhook.
   */
  private async openSecret(
    webhook: ClaimedWebhook,
    outcome: WebhookOutcome,
    attempts: AttemptResult[],
  ): Promise<string | undefined> {
    try {
      return await this.secrets.open(webhook);
    } catch (error) {
      if (!(error instanceof SecretUnreadable)) throw error;
      this.log.error(`webhooks: not delivering: ${error.message}`);
      const at = new Date();
      outcome.heldUntil = new Date(at.getTime() + this.options.creditsRecheckMs);
      const head = webhook.deliveries[0];
      if (head) {
        attempts.push({
          deliveryId: head.id,
          status: 'pending',
          attemptCount: head.attempt_count,
          nextAttemptAt: outcome.heldUntil,
          responseStatus: 0,
          responseBody: '',
          latencyMs: 0,
          error:
            "not sent: the server cannot read this webhook's signing secret (rotate the secret, or ask the operator to check SECRETS_KEY)",
          at,
        });
      }
      return undefined;
    }
  }
}

function formatDuration(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  if (minutes < 1) return `${Math.max(1, Math.round(ms / 1000))} s`;
  if (minutes < 120) return `${minutes} min`;
  return `${Math.round(minutes / 60)} h`;
}

/**
 * Writes the outcomes of many webhooks' attempts in one transaction: with a hundred webhooks
 * each sending a few deliveries a second, writing each batch on its own would cost more
 * statements than the sending itself.
 */
class AttemptRecorder {
  private queue: {
    attempts: AttemptResult[];
    outcome: WebhookOutcome;
    settlements: Settlement[];
    done: (error?: unknown) => void;
  }[] = [];
  private flushing: Promise<void> | null = null;

  constructor(
    private readonly db: Database,
    private readonly owner: string,
    private readonly log: DeliveryLog,
    private readonly pausedBacklog: number,
  ) {}

  record(attempts: AttemptResult[], outcome: WebhookOutcome, settlements: Settlement[]): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queue.push({ attempts, outcome, settlements, done: (error) => (error === undefined ? resolve() : reject(error)) });
      this.flushing ??= this.flush();
    });
  }

  async drain(): Promise<void> {
    while (this.flushing) await this.flushing;
  }

  private async flush(): Promise<void> {
    // Let the batches finishing in this turn of the event loop join.
    await new Promise((resolve) => setImmediate(resolve));
    const batch = this.queue;
    this.queue = [];
    try {
      await recordAttempts(
        this.db,
        this.owner,
        batch.flatMap((entry) => entry.attempts),
        batch.map((entry) => entry.outcome),
        batch.flatMap((entry) => entry.settlements),
        this.pausedBacklog,
      );
      for (const entry of batch) entry.done();
    } catch (error) {
      // The lease runs out and another claim sends them again: at least once, never lost. Their
      // reservations stay unsettled and count as paid once stale: those events are not charged again.
      this.log.error(`webhooks: recording ${batch.length} outcomes failed: ${(error as Error).message}`);
      for (const entry of batch) entry.done(error);
    } finally {
      this.flushing = this.queue.length > 0 ? this.flush() : null;
    }
  }
}
