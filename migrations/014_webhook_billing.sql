-- Webhook deliveries are paid for when their body leaves, once per (webhook, event), and a paused
-- webhook's queue is bounded.
--
-- webhook_charges: one row per (webhook, event) that has been paid for. A sender reserves the
-- credit before it sends (a guarded debit with its ledger row, in the transaction that inserts
-- this row, so a balance can never be overdrawn) and, once the attempt is over, either marks the
-- row sent (the body was written to the receiver's connection: delivered, whatever the answer) or
-- deletes it and gives the credit back with its own ledger row (the body never left). Any later
-- attempt of the same event to the same webhook finds the row and costs nothing. While a
-- reservation is unsettled, other attempts of the event wait; one left unsettled past
-- reserved_until (its process crashed: the sender's lease, or a manual retry's timeout) counts as
-- paid.
CREATE TABLE webhook_charges (
  webhook_id   uuid NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
  event_id     text NOT NULL,
  account_id   bigint NOT NULL REFERENCES accounts (id),
  sent         boolean NOT NULL DEFAULT false,
  reserved_until timestamptz NOT NULL,
  PRIMARY KEY (webhook_id, event_id)
);

-- Events a paused webhook did not queue because its backlog was full (WEBHOOK_PAUSED_BACKLOG),
-- and since when; reset when it is turned on or paused again by its owner.
ALTER TABLE webhooks ADD COLUMN dropped_events bigint NOT NULL DEFAULT 0;
ALTER TABLE webhooks ADD COLUMN dropped_since timestamptz;

-- A reserved credit given back (the delivery's body never left) is a ledger row like any other.
ALTER TABLE credit_ledger DROP CONSTRAINT credit_ledger_reason_check;
ALTER TABLE credit_ledger ADD CONSTRAINT credit_ledger_reason_check
  CHECK (reason IN ('request', 'refill', 'grant', 'set', 'webhook', 'webhook_refund'));
