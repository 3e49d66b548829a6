// What ingestion takes off a record before its schema sees it: the extra fields a file may
// carry (source_id, an M&A status).
import type { ExtraField, RecordExtras } from '../catalog/index.js';
import { DATASET_NAMES } from '../catalog/index.js';
import { DEAL_STATUSES, type DealStatus } from '../catalog/index.js';

export class UnknownKindError extends Error {
  override name = 'UnknownKindError';
  constructor(readonly kind: string) {
    super(`unknown kind "${kind}"; kinds: ${DATASET_NAMES.join(', ')}`);
  }
}

/** Longest source_id kept; it becomes part of a unique key. */
export const MAX_SOURCE_ID_LENGTH = 512;

/**
 * Takes the extra fields off a parsed record. Returns the record without them (a copy only
 * when there was something to take); a malformed one is added to problems.
 */
export function takeExtras(
  allowed: readonly ExtraField[],
  record: Record<string, unknown>,
  extras: RecordExtras,
  problems: string[],
): Record<string, unknown> {
  extras.sourceId = null;
  extras.status = 'completed';
  const hasSource = 'source_id' in record;
  const hasStatus = allowed.includes('status') && 'status' in record;
  if (!hasSource && !hasStatus) return record;
  const { source_id: sourceId, status, ...rest } = record;
  if (hasSource && sourceId !== null) {
    if (typeof sourceId !== 'string' || sourceId === '' || sourceId.length > MAX_SOURCE_ID_LENGTH) {
      problems.push(`source_id: must be a non-empty string of at most ${MAX_SOURCE_ID_LENGTH} characters, or null`);
    } else {
      extras.sourceId = sourceId;
    }
  }
  if (hasStatus && status !== null) {
    if (typeof status !== 'string' || !(DEAL_STATUSES as readonly string[]).includes(status)) {
      problems.push(`status: must be one of ${DEAL_STATUSES.join(', ')}`);
    } else {
      extras.status = status as DealStatus;
    }
  }
  // Kinds without a status field keep "status" in the record, where the schema rejects it.
  if (!hasStatus && 'status' in record) rest.status = status;
  return rest;
}
