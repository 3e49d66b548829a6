// One credit per (webhook, event) whose body left: reserved before an attempt is sent, settled after.
import type { Database, Queryable } from '../platform/db/index.js';
import { debitCredits, lockSpendable } from '../accounts/index.js';

/** Whose attempts of which webhook are about to be sent. */
export interface DeliveryCharge {
  accountId: number;
  webhookId: string;
  /** The ledger row's endpoint: webhooks.delivery (automatic) or webhooks.deliveries.retry. */
  endpoint: string;
}

/**
 * What an attempt costs: 'reserved' (this caller took the credit and settles it afterwards),
 * 'paid' (an earlier attempt's body left: free), 'busy' (another attempt of the same event holds
 * a reservation right now) or 'short' (no credit left: nothing taken).
 */
export type Reservation = 'reserved' | 'paid' | 'busy' | 'short';

/**
 * Reserves the credits of attempts of these events, in order, before they are sent: one
 * transaction locks the account's row, reads which (webhook, event) are paid or being paid, takes
 * the credits of the others with the guarded debit and its one ledger row, and inserts their
 * (webhook, event) rows, so no balance is overdrawn and no (webhook, event) is charged twice,
 * whoever sends at once (the account's row is locked first by every reservation, so they queue,
 * never deadlock). Returns one answer per event up to the first that cannot go now ('busy' or
 * 'short', last). Reservations are settled within `holdMs` (the sender's lease, a manual retry's
 * timeout); one still unsettled after that (its process crashed) counts as paid.
 */
export async function reserveDeliveries(
  db: Database,
  charge: DeliveryCharge,
  eventIds: readonly string[],
  holdMs: number,
): Promise<Reservation[]> {
  if (eventIds.length === 0) return [];
  return db.transaction(async (tx) => {
    let spendable = await lockSpendable(tx, charge.accountId);
    const known = new Map(
      (
        await tx.query<{ event_id: string; settled: boolean }>(
          `SELECT event_id, sent OR reserved_until < now() AS settled FROM webhook_charges
            WHERE webhook_id = $1 AND event_id = ANY($2::text[])`,
          [charge.webhookId, [...eventIds]],
        )
      ).map((row) => [row.event_id, row.settled]),
    );
    const answers: Reservation[] = [];
    const taken: string[] = [];
    for (const eventId of eventIds) {
      const settled = known.get(eventId);
      if (settled === false) {
        answers.push('busy');
        break;
      }
      if (settled === true || taken.includes(eventId)) {
        answers.push('paid');
        continue;
      }
      if (spendable === 0) {
        answers.push('short');
        break;
      }
      spendable--;
      taken.push(eventId);
      answers.push('reserved');
    }
    if (taken.length > 0) {
      const debited = await debitCredits(tx, {
        accountId: charge.accountId,
        keyId: null,
        cost: taken.length,
        endpoint: charge.endpoint,
        reason: 'webhook',
      });
      // The row is locked and was read above: the guarded debit cannot be refused here.
      if (debited === undefined) throw new Error('webhook credit reservation refused under the account lock');
      await tx.query(
        `INSERT INTO webhook_charges (webhook_id, event_id, account_id, reserved_until)
         SELECT $1, e, $3, now() + $4 * interval '1 millisecond' FROM unnest($2::text[]) AS e`,
        [charge.webhookId, taken, charge.accountId, holdMs],
      );
    }
    return answers;
  });
}

/** How a reserved attempt ended: whether its body was written to the receiver's connection. */
export interface Settlement {
  accountId: number;
  webhookId: string;
  eventId: string;
  bodySent: boolean;
  endpoint: string;
}

/**
 * Settles reservations: a body that left keeps its credit (the row is marked sent: later attempts
 * are free); one that never left gives it back, with a ledger row, unless another attempt of the
 * same event has been sent meanwhile (then the row is marked sent and the credit stays spent).
 */
export async function settleCharges(tx: Queryable, settlements: readonly Settlement[]): Promise<void> {
  const sent = settlements.filter((s) => s.bodySent);
  if (sent.length > 0) {
    await tx.query(
      `UPDATE webhook_charges c SET sent = true FROM unnest($1::uuid[], $2::text[]) AS s(webhook_id, event_id)
        WHERE c.webhook_id = s.webhook_id AND c.event_id = s.event_id`,
      [sent.map((s) => s.webhookId), sent.map((s) => s.eventId)],
    );
  }
  const unsent = settlements.filter((s) => !s.bodySent);
  if (unsent.length === 0) return;
  await tx.query(
    `WITH s AS (SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[]) AS s(webhook_id, event_id, endpoint)),
     gone AS (
       DELETE FROM webhook_charges c USING s
        WHERE c.webhook_id = s.webhook_id AND c.event_id = s.event_id AND NOT c.sent
       RETURNING c.account_id, s.endpoint
     ), per AS (
       SELECT account_id, endpoint, count(*) AS n FROM gone GROUP BY account_id, endpoint
     ), credited AS (
       -- One UPDATE per account even when its refunds span endpoints: sum first.
       UPDATE accounts a SET credits_remaining = a.credits_remaining + t.n
         FROM (SELECT account_id, sum(n) AS n FROM per GROUP BY account_id) t WHERE a.id = t.account_id
       RETURNING a.id, a.credits_remaining
     )
     INSERT INTO credit_ledger (account_id, delta, balance_after, reason, endpoint)
     SELECT per.account_id, per.n, c.credits_remaining, 'webhook_refund', per.endpoint
       FROM per JOIN credited c ON c.id = per.account_id`,
    [unsent.map((s) => s.webhookId), unsent.map((s) => s.eventId), unsent.map((s) => s.endpoint)],
  );
}

/** Deliveries paid for in advance (a monitor's replay): each (webhook, event) counts as sent, so no attempt debits it. */
export async function markPrepaid(
  tx: Queryable,
  accountId: number,
  deliveries: readonly { webhookId: string; eventId: string }[],
): Promise<void> {
  if (deliveries.length === 0) return;
  await tx.query(
    `INSERT INTO webhook_charges (webhook_id, event_id, account_id, sent, reserved_until)
     SELECT w, e, $1, true, now() FROM unnest($2::uuid[], $3::text[]) AS p(w, e)
     ON CONFLICT (webhook_id, event_id) DO UPDATE SET sent = true`,
    [accountId, deliveries.map((d) => d.webhookId), deliveries.map((d) => d.eventId)],
  );
}
