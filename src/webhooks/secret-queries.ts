// Signing secrets at rest: the stored secrets not yet sealed with the current key, and their re-sealing.
import type { Queryable } from '../platform/db/index.js';
import type { SealedSecret } from './subscription-queries.js';

/** Every webhook whose stored secret is not sealed under the key named by `sealedPrefix` (plaintext, or another key's). */
export function secretsNotSealedWith(db: Queryable, sealedPrefix: string): Promise<{ id: string; secret: string }[]> {
  return db.query<{ id: string; secret: string }>(
    // starts_with: the prefix is data, never a LIKE pattern.
    'SELECT id, secret FROM webhooks WHERE NOT starts_with(secret, $1) ORDER BY id',
    [sealedPrefix],
  );
}

/**
 * Replaces a webhook's stored secret with the same secret sealed again, unless it changed since it
 * was read (a rotation, another instance's re-sealing); returns whether it did.
 */
export async function replaceStoredSecret(
  db: Queryable,
  id: string,
  expected: string,
  sealed: SealedSecret,
  last4: string,
): Promise<boolean> {
  const rows = await db.query('UPDATE webhooks SET secret = $3, secret_last4 = $4 WHERE id = $1 AND secret = $2 RETURNING id', [
    id,
    expected,
    sealed,
    last4,
  ]);
  return rows.length > 0;
}
