// What ingestion checks of a record beyond its dataset's own rules: the API's schema made
// strict, the extra fields a file may carry (source_id, an M&A status), and the messages that
// say what is wrong with a record.
import { Kind, type TSchema } from '@sinclair/typebox';
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler';
import { ValueErrorType, type ValueError } from '@sinclair/typebox/errors';
import type { ExtraField, RecordExtras } from '../datasets/dataset.js';
import { DATASET_NAMES } from '../datasets/index.js';
import { DATE_RANGE } from '../schemas/common.js';
import { DEAL_STATUSES, type DealStatus } from '../schemas/v1.js';
import { isOutOfDateRange, registerFormats } from './ingest-formats.js';

export class UnknownKindError extends Error {
  override name = 'UnknownKindError';
  constructor(readonly kind: string) {
    super(`unknown kind "${kind}"; kinds: ${DATASET_NAMES.join(', ')}`);
  }
}

/** Longest source_id kept; it becomes part of a unique key. */
export const MAX_SOURCE_ID_LENGTH = 512;

/**
 * A copy of a schema (and, for references, of each referenced one) in which every object
 * rejects properties it does not declare: the served document must be exactly the API's fields.
 */
function strict<T extends TSchema>(schema: T): T {
  const visit = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(visit);
    if (node === null || typeof node !== 'object') return node;
    const source = node as Record<PropertyKey, unknown>;
    const copy: Record<PropertyKey, unknown> = {};
    for (const key of Reflect.ownKeys(source)) copy[key] = visit(source[key]);
    if (copy[Kind] === 'Object' && copy.additionalProperties === undefined) copy.additionalProperties = false;
    return copy;
  };
  return visit(schema) as T;
}

let formatsRegistered = false;

/** The strict checker of a record schema (compiled once per dataset by the caller). */
export function compileRecordChecker<T extends TSchema>(schema: T, references: readonly TSchema[] = []): TypeCheck<T> {
  if (!formatsRegistered) {
    registerFormats();
    formatsRegistered = true;
  }
  return TypeCompiler.Compile(strict(schema), references.map(strict));
}

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

// ---------- validation messages ----------

/** "/contact_info/0/employees/1/name" → "contact_info[0].employees[1].name" */
export function fieldPath(pointer: string): string {
  let out = '';
  for (const raw of pointer.split('/').slice(1)) {
    const part = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    out += /^\d+$/.test(part) ? `[${part}]` : out === '' ? part : `.${part}`;
  }
  return out;
}

function shortValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

const FORMAT_WORDS: Record<string, string> = {
  date: 'a calendar date that exists, in YYYY-MM-DD form',
  'date-time': 'a date-time that exists, with a time zone (e.g. 2025-06-01T12:00:00Z)',
  uuid: 'a UUID',
  email: 'an email address',
  uri: 'an absolute URL',
};

/** The most specific error: inside a nullable or other union, the non-null alternative's. */
function innermost(error: ValueError): ValueError {
  let current = error;
  while (current.type === ValueErrorType.Union) {
    const anyOf = (current.schema as { anyOf?: { const?: unknown; type?: unknown }[] }).anyOf ?? [];
    if (anyOf.length > 0 && anyOf.every((s) => s.const !== undefined)) return current; // an enumeration
    const alternatives = current.errors.map((it) => it.First()).filter((e): e is ValueError => e !== undefined);
    const best = alternatives.find((e) => e.type !== ValueErrorType.Null) ?? alternatives[0];
    if (!best) break;
    current = best;
  }
  return current;
}

/**
 * The schema violations of a record, one per field, as "field: what is wrong (got …)": at
 * most `max` of them, and then a last line saying more were left out (a record may hold
 * thousands of unknown fields; listing them all would only bury the report).
 */
export function describeViolations(checker: TypeCheck<TSchema>, record: unknown, kind: string, max: number): string[] {
  const described: string[] = [];
  // A field can break several rules of its schema at once (a missing field is also not a
  // string): its first is the one that says what to fix.
  const fields = new Set<string>();
  for (const error of checker.Errors(record)) {
    if (fields.has(error.path)) continue;
    if (described.length === max) {
      described.push(`more problems not listed (at most ${max} a record)`);
      break;
    }
    fields.add(error.path);
    described.push(describeError(innermost(error), record, kind));
  }
  return described.length > 0 ? described : ['does not match the record schema'];
}

function describeError(error: ValueError, record: unknown, kind: string): string {
  const path = fieldPath(error.path);
  const where = path === '' ? 'record' : path;
  const schema = error.schema as { format?: string; anyOf?: { const?: unknown }[] };
  switch (error.type) {
    case ValueErrorType.ObjectRequiredProperty:
      return `${where}: is required`;
    case ValueErrorType.ObjectAdditionalProperties:
      return `${where}: unknown field (not part of the ${kind} record)`;
    case ValueErrorType.Object:
      return path === ''
        ? `expected a JSON object, got ${shortValue(record)}`
        : `${where}: must be an object (got ${shortValue(error.value)})`;
    case ValueErrorType.StringFormat:
      if (typeof error.value === 'string' && isOutOfDateRange(schema.format ?? '', error.value)) {
        return `${where}: must be between ${DATE_RANGE.from} and ${DATE_RANGE.to} (UTC) (got ${shortValue(error.value)})`;
      }
      return `${where}: must be ${FORMAT_WORDS[schema.format ?? ''] ?? `a valid ${schema.format}`} (got ${shortValue(error.value)})`;
    case ValueErrorType.Union:
      if (schema.anyOf?.every((s) => s.const !== undefined)) {
        return `${where}: must be one of ${schema.anyOf.map((s) => String(s.const)).join(', ')} (got ${shortValue(error.value)})`;
      }
      return `${where}: ${error.message} (got ${shortValue(error.value)})`;
    default:
      return `${where}: ${error.message} (got ${shortValue(error.value)})`;
  }
}
