// Completes migration 012 (acquisition signals' website and LinkedIn keys): the rows whose values
// SQL could not normalise exactly get their keys from urlKey itself, from the stored document, as
// the dataset's prepare computes them for new rows. Runs before an index is built (ReadModel.open);
// once done, it costs one probe of an empty table.
import { acquisitionKeysPending, fillAcquisitionKeys } from './key-backfill-queries.js';
import type { Database } from '../platform/db/index.js';
import { urlKey } from '../catalog/index.js';

const BATCH = 1000;

/**
 * A stored document's keys: urlKey of its website and LinkedIn URL. None for a value that is not a
 * string, a document that is not JSON, or a key holding NUL (PostgreSQL text cannot; no query can send one).
 */
export function acquisitionKeysOf(doc: string): { website_key: string | null; linkedin_key: string | null } {
  let record: unknown;
  try {
    record = JSON.parse(doc);
  } catch {
    return { website_key: null, linkedin_key: null };
  }
  const field = (name: string) => {
    const value = record !== null && typeof record === 'object' ? (record as Record<string, unknown>)[name] : undefined;
    const key = typeof value === 'string' ? urlKey(value) : null;
    return key?.includes('\u0000') ? null : key;
  };
  return { website_key: field('website'), linkedin_key: field('linkedinUrl') };
}

/** Fills every waiting row's keys; returns how many rows it did. */
export async function completeAcquisitionKeys(db: Database): Promise<number> {
  if (!(await acquisitionKeysPending(db))) return 0;
  let done = 0;
  for (;;) {
    const filled = await fillAcquisitionKeys(db, BATCH, acquisitionKeysOf);
    if (filled === 0) return done;
    done += filled;
  }
}
