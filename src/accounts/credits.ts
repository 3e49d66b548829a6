import type { Queryable } from '../platform/db/index.js';
import {
  adjustCredits,
  creditBalance,
  debitCredits,
  debitRequests,
  refillIfDue,
  type Allowances,
  type RequestCharge,
} from './credit-queries.js';
import { ApiError } from '../catalog/index.js';
import type { Principal } from './key-verifier.js';

export type { Allowances };

/** The 402 of a request (or a manual webhook retry) the balance cannot pay for. */
export const creditsExhausted = () =>
  new ApiError('CREDITS_EXHAUSTED', 'API credits exhausted for this billing period; they refill at the start of next month');

/** What a paid write's transaction throws when its debit found the balance short (see withRefill). */
export class CreditsShort extends Error {}

/**
 * Runs a paid write: `attempt` is a transaction that debits (debitCredits) and throws CreditsShort
 * when the balance is short, so nothing it wrote is kept. Short, the month's refill is applied when
 * due and the write tried once more; still short, a 402.
 */
export async function withRefill<T>(credits: CreditMeter, accountId: number, attempt: () => Promise<T>): Promise<T> {
  try {
    return await attempt();
  } catch (err) {
    if (!(err instanceof CreditsShort)) throw err;
    if (!(await credits.refill(accountId))) throw creditsExhausted();
    return attempt().catch((again: unknown) => {
      throw again instanceof CreditsShort ? creditsExhausted() : again;
    });
  }
}

/** Charges of one account waiting for the statement in flight to end, with their callers. */
interface Waiting {
  charges: RequestCharge[];
  settle: { resolve: (balance: number | undefined) => void; reject: (error: unknown) => void }[];
}

/** Charges debited by one statement at most: a statement of a few milliseconds even when thousands wait. */
const MAX_CHARGES_A_STATEMENT = 200;

/**
 * Charges v2 calls against the account's balance; every change leaves a ledger row.
 *
 * An account's debits are written one statement at a time per process: a request's charge goes at
 * once when none of its account is in flight, else it waits for the one in flight and goes with the
 * others that arrived meanwhile, in one statement (debitRequests). Every debit of an account locks its
 * row until it commits, so one statement per request made the account's requests take turns on that
 * lock (about 2,000 a second, a commit each); one per batch holds it once for all of them, and
 * adds no wait when requests come one at a time.
 */
export class CreditMeter {
  private readonly waiting = new Map<number, Waiting>();
  private readonly inFlight = new Set<number>();

  constructor(
    private readonly db: Queryable,
    private readonly allowances: Allowances,
  ) {}

  /** Debits cost credits and returns the balance left; 402 when the balance is short. */
  async charge(principal: Principal, endpoint: string, cost = 1): Promise<number> {
    const charge = { accountId: principal.accountId, keyId: principal.keyId, cost, endpoint };
    let balance = await this.debit(principal.accountId, charge);
    if (balance === undefined) {
      // Short, or the month's refill is due. Whether this request or a concurrent one
      // refills, the debit is worth one more try.
      await refillIfDue(this.db, principal.accountId, this.allowances);
      balance = await debitCredits(this.db, charge);
    }
    if (balance === undefined) throw creditsExhausted();
    return balance;
  }

  /** Queues the charge with the account's others; the balance after it, or undefined when it was not debited. */
  private debit(accountId: number, charge: RequestCharge): Promise<number | undefined> {
    return new Promise((resolve, reject) => {
      const waiting = this.waiting.get(accountId) ?? { charges: [], settle: [] };
      waiting.charges.push(charge);
      waiting.settle.push({ resolve, reject });
      this.waiting.set(accountId, waiting);
      if (!this.inFlight.has(accountId)) void this.flush(accountId);
    });
  }

  /** Writes the account's waiting charges (up to the bound) in one statement, then the next ones that came meanwhile. */
  private async flush(accountId: number): Promise<void> {
    const waiting = this.waiting.get(accountId);
    if (waiting === undefined) return;
    const charges = waiting.charges.splice(0, MAX_CHARGES_A_STATEMENT);
    const settle = waiting.settle.splice(0, MAX_CHARGES_A_STATEMENT);
    if (waiting.charges.length === 0) this.waiting.delete(accountId);
    this.inFlight.add(accountId);
    try {
      const balances = await debitRequests(this.db, accountId, charges);
      settle.forEach(({ resolve }, i) => resolve(balances[i]));
    } catch (error) {
      for (const { reject } of settle) reject(error);
    } finally {
      this.inFlight.delete(accountId);
      if (this.waiting.has(accountId)) void this.flush(accountId);
    }
  }

  async balance(accountId: number): Promise<number> {
    return (await creditBalance(this.db, accountId, this.allowances)) ?? 0;
  }

  /** Applies this month's refill when it is due (before a webhook delivery's debit); true when it refilled. */
  refill(accountId: number): Promise<boolean> {
    return refillIfDue(this.db, accountId, this.allowances);
  }

  /** The balance, without a debit; 402 when charge() would refuse cost (HEAD answers as GET would, for free). */
  async affordable(accountId: number, cost = 1): Promise<number> {
    const balance = await this.balance(accountId);
    if (balance < cost) throw creditsExhausted();
    return balance;
  }

  /** Operator grant (--add) or reset (--set); a due monthly refill is applied first. */
  async adjust(accountId: number, change: { add: number } | { set: number }): Promise<number | undefined> {
    await refillIfDue(this.db, accountId, this.allowances);
    return adjustCredits(this.db, accountId, change);
  }
}
