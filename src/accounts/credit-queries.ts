import type { Queryable } from '../platform/db/index.js';

/** Monthly allowance per tier, passed to the statements that may refill. */
export interface Allowances {
  free: number;
  pro: number;
  enterprise: number;
}

// The current period is the database's month, so every instance agrees on it.
const CURRENT_PERIOD = `date_trunc('month', now() AT TIME ZONE 'UTC')::date`;
const ALLOWANCE = `(CASE tier WHEN 'free' THEN $2::bigint WHEN 'pro' THEN $3::bigint ELSE $4::bigint END)`;

/**
 * Guarded debit plus its ledger row, in one statement (hence one transaction): concurrent
 * requests can never overdraw or double-charge. Returns the balance after the debit, or
 * undefined when the balance is short or the month's refill is due (see refillIfDue). Every
 * debit takes this path: API and feed pages ('request') and webhook deliveries ('webhook').
 */
export async function debitCredits(
  db: Queryable,
  charge: { accountId: number; keyId: string | null; cost: number; endpoint: string; reason?: 'request' | 'webhook' },
): Promise<number | undefined> {
  const rows = await db.query<{ balance: number }>(
    `WITH debit AS (
       UPDATE accounts SET credits_remaining = credits_remaining - $2
        WHERE id = $1 AND credits_period = ${CURRENT_PERIOD} AND credits_remaining >= $2
        RETURNING id, credits_remaining
     ), entry AS (
       INSERT INTO credit_ledger (account_id, key_id, delta, balance_after, reason, endpoint)
       SELECT id, $3, -$2::bigint, credits_remaining, $5, $4 FROM debit
     )
     SELECT credits_remaining::int AS balance FROM debit`,
    [charge.accountId, charge.cost, charge.keyId, charge.endpoint, charge.reason ?? 'request'],
  );
  return rows[0]?.balance;
}

/** One API request's charge, as debitRequests takes it. */
export interface RequestCharge {
  keyId: string | null;
  cost: number;
  endpoint: string;
}

/**
 * The charges of several requests of one account in one statement, in order, each with its ledger row:
 * the longest prefix the balance pays for is debited (never more), each with the balance after it.
 * Returns each charge's balance after, or undefined for those past the prefix (short, or the month's
 * refill is due: see refillIfDue). Concurrent statements on the account wait for its row, as with
 * debitCredits; one statement for many requests holds the row once, not once per request.
 */
export async function debitRequests(
  db: Queryable,
  accountId: number,
  charges: readonly RequestCharge[],
): Promise<(number | undefined)[]> {
  const rows = await db.query<{ n: number; balance: number }>(
    `WITH charges AS (
       SELECT c.n, c.cost, c.key_id, c.endpoint, sum(c.cost) OVER (ORDER BY c.n) AS upto
         FROM json_to_recordset($2::json) AS c(n int, cost bigint, key_id text, endpoint text)
     ), account AS (
       SELECT credits_remaining FROM accounts WHERE id = $1 AND credits_period = ${CURRENT_PERIOD} FOR UPDATE
     ), granted AS (
       SELECT c.n, c.cost, c.key_id, c.endpoint, a.credits_remaining - c.upto AS balance_after
         FROM charges c CROSS JOIN account a
        WHERE c.upto <= a.credits_remaining
     ), debit AS (
       UPDATE accounts SET credits_remaining = credits_remaining - (SELECT sum(cost) FROM granted)
        WHERE id = $1 AND EXISTS (SELECT 1 FROM granted)
     ), entry AS (
       INSERT INTO credit_ledger (account_id, key_id, delta, balance_after, reason, endpoint)
       SELECT $1, key_id, -cost, balance_after, 'request', endpoint FROM granted ORDER BY n
     )
     SELECT n, balance_after::int AS balance FROM granted`,
    [
      accountId,
      JSON.stringify(charges.map((charge, n) => ({ n, cost: charge.cost, key_id: charge.keyId, endpoint: charge.endpoint }))),
    ],
  );
  const balances: (number | undefined)[] = charges.map(() => undefined);
  for (const row of rows) balances[row.n] = row.balance;
  return balances;
}

/**
 * Locks the account's row for the rest of the transaction and returns what a debit may take now:
 * the balance, or 0 when the month's refill is due (debitCredits refuses until it is applied).
 */
export async function lockSpendable(tx: Queryable, accountId: number): Promise<number> {
  const rows = await tx.query<{ spendable: number }>(
    `SELECT (CASE WHEN credits_period = ${CURRENT_PERIOD} THEN greatest(credits_remaining, 0) ELSE 0 END)::int AS spendable
       FROM accounts WHERE id = $1 FOR UPDATE`,
    [accountId],
  );
  return rows[0]?.spendable ?? 0;
}

/**
 * Resets the balance to the tier's allowance when the account has not been used this month.
 * The period guard makes concurrent refills apply once. Returns true when it refilled.
 */
export async function refillIfDue(db: Queryable, accountId: number, allowances: Allowances): Promise<boolean> {
  const rows = await db.query(
    `WITH before AS (
       SELECT id, credits_remaining FROM accounts WHERE id = $1 AND credits_period < ${CURRENT_PERIOD} FOR UPDATE
     ), refill AS (
       UPDATE accounts a SET credits_remaining = ${ALLOWANCE.replace('tier', 'a.tier')}, credits_period = ${CURRENT_PERIOD}
         FROM before b WHERE a.id = b.id AND a.credits_period < ${CURRENT_PERIOD}
         RETURNING a.id, a.credits_remaining, b.credits_remaining AS previous
     )
     INSERT INTO credit_ledger (account_id, delta, balance_after, reason)
     SELECT id, credits_remaining - previous, credits_remaining, 'refill' FROM refill
     RETURNING id`,
    [accountId, allowances.free, allowances.pro, allowances.enterprise],
  );
  return rows.length > 0;
}

/** The balance as the next request would see it (the allowance when a refill is due). */
export async function creditBalance(db: Queryable, accountId: number, allowances: Allowances): Promise<number | undefined> {
  const rows = await db.query<{ balance: number }>(
    `SELECT (CASE WHEN credits_period < ${CURRENT_PERIOD} THEN ${ALLOWANCE} ELSE credits_remaining END)::int AS balance
       FROM accounts WHERE id = $1`,
    [accountId, allowances.free, allowances.pro, allowances.enterprise],
  );
  return rows[0]?.balance;
}

/** Operator adjustments: add to (or set) the balance, with a ledger row. Returns the new balance. */
export async function adjustCredits(
  db: Queryable,
  accountId: number,
  change: { add: number } | { set: number },
): Promise<number | undefined> {
  const isSet = 'set' in change;
  const rows = await db.query<{ balance: number }>(
    `WITH before AS (
       SELECT id, credits_remaining FROM accounts WHERE id = $1 FOR UPDATE
     ), changed AS (
       UPDATE accounts a SET credits_remaining = ${isSet ? '$2::bigint' : 'a.credits_remaining + $2::bigint'},
                             credits_period = ${CURRENT_PERIOD}
         FROM before b WHERE a.id = b.id
         RETURNING a.id, a.credits_remaining, b.credits_remaining AS previous
     ), entry AS (
       INSERT INTO credit_ledger (account_id, delta, balance_after, reason)
       SELECT id, credits_remaining - previous, credits_remaining, $3 FROM changed
     )
     SELECT credits_remaining::int AS balance FROM changed`,
    [accountId, isSet ? change.set : change.add, isSet ? 'set' : 'grant'],
  );
  return rows[0]?.balance;
}
