import type { Queryable } from '../platform/db/index.js';
import { adjustCredits, creditBalance, debitCredits, refillIfDue, type Allowances } from './credit-queries.js';
import { ApiError } from '../catalog/index.js';
import type { Principal } from './key-verifier.js';

export type { Allowances };

/** The 402 of a request (or a manual webhook retry) the balance cannot pay for. */
export const creditsExhausted = () =>
  new ApiError('CREDITS_EXHAUSTED', 'API credits exhausted for this billing period; they refill at the start of next month');

/** Charges v2 calls against the account's balance; every change leaves a ledger row. */
export class CreditMeter {
  constructor(
    private readonly db: Queryable,
    private readonly allowances: Allowances,
  ) {}

  /** Debits cost credits and returns the balance left; 402 when the balance is short. */
  async charge(principal: Principal, endpoint: string, cost = 1): Promise<number> {
    const charge = { accountId: principal.accountId, keyId: principal.keyId, cost, endpoint };
    let balance = await debitCredits(this.db, charge);
    if (balance === undefined) {
      // Short, or the month's refill is due. Whether this request or a concurrent one
      // refills, the debit is worth one more try.
      await refillIfDue(this.db, principal.accountId, this.allowances);
      balance = await debitCredits(this.db, charge);
    }
    if (balance === undefined) throw creditsExhausted();
    return balance;
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
