// The acquisition rows migration 012 left to the application: their website and LinkedIn keys
// are computed with urlKey in JavaScript (src/ingest/acquisition-key-backfill.ts), since SQL could not
// reproduce it on their values. Written without a change log entry, as the migration wrote the others.
import type { Database, Queryable } from '../platform/db/index.js';

export interface AcquisitionKeys {
  id: number;
  website_key: string | null;
  linkedin_key: string | null;
}

/** Whether any row is still waiting for its keys (one index probe: the usual answer is no). */
export async function acquisitionKeysPending(db: Queryable): Promise<boolean> {
  const rows = await db.query<{ pending: boolean }>('SELECT EXISTS (SELECT 1 FROM acquisition_key_backfill) AS pending');
  return rows[0]!.pending;
}

/**
 * Takes up to `limit` waiting rows, hands their stored documents to `keysOf` and writes the keys
 * it returns, in one transaction: the table is locked first (its update trigger is switched off
 * for the transaction's writes), so no import changes a document in between, and instances
 * starting together take turns. Returns how many rows were done (0: none was waiting).
 */
export function fillAcquisitionKeys(
  db: Database,
  limit: number,
  keysOf: (doc: string) => Omit<AcquisitionKeys, 'id'>,
): Promise<number> {
  return db.transaction(async (tx) => {
    await tx.query('ALTER TABLE acquisition_signals DISABLE TRIGGER acquisition_signals_log_update');
    const taken = await tx.query<{ id: number }>(
      `DELETE FROM acquisition_key_backfill
        WHERE id IN (SELECT id FROM acquisition_key_backfill ORDER BY id LIMIT $1)
        RETURNING id`,
      [limit],
    );
    if (taken.length > 0) {
      const rows = await tx.query<{ id: number; doc: string }>(
        'SELECT id, doc FROM acquisition_signals WHERE id = ANY($1::bigint[])',
        [taken.map((row) => row.id)],
      );
      const keys = rows.map((row) => ({ id: row.id, ...keysOf(row.doc) }));
      await tx.query(
        `UPDATE acquisition_signals a
            SET website_key = k.website_key, linkedin_key = k.linkedin_key
           FROM unnest($1::bigint[], $2::text[], $3::text[]) AS k (id, website_key, linkedin_key)
          WHERE a.id = k.id`,
        [keys.map((k) => k.id), keys.map((k) => k.website_key), keys.map((k) => k.linkedin_key)],
      );
    }
    await tx.query('ALTER TABLE acquisition_signals ENABLE TRIGGER acquisition_signals_log_update');
    return taken.length;
  });
}
