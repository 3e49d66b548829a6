// What ingestion knows about each kind of record: the API's own schema (made strict), the
// fields a file may add (source_id, an M&A status), how a record becomes a stored row, and the
// natural key that makes a second import of the same record an update instead of a new row.
import { Kind, type TSchema } from '@sinclair/typebox';
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler';
import { ValueErrorType, type ValueError } from '@sinclair/typebox/errors';
import { upsertFundingRows } from '../db/queries/funding.js';
import { upsertMaRows } from '../db/queries/ma.js';
import { upsertAcquisitionRows, upsertInvestorRows, upsertJobChangeRows } from '../db/queries/signals.js';
import type { PreparedUpsert } from '../db/queries/upsert.js';
import { DATE_RANGE } from '../schemas/common.js';
import { DEAL_STATUSES, FundingRecord, MaRecord, V1_SHARED_SCHEMAS, type DealStatus } from '../schemas/v1.js';
import { AcquisitionSignalRecord, InvestorRecord, JobChangeRecord } from '../schemas/v2.js';
import { prepareFundingRow } from './funding.js';
import { isOutOfDateRange, registerFormats } from './ingest-formats.js';
import { prepareMaRow } from './mergers.js';
import { prepareAcquisitionRow, prepareInvestorRow, prepareJobChangeRow } from './signals.js';

export const INGEST_KINDS = ['funding', 'm-a', 'investors', 'job-changes', 'acquisitions'] as const;
export type IngestKind = (typeof INGEST_KINDS)[number];

export function isIngestKind(value: string): value is IngestKind {
  return (INGEST_KINDS as readonly string[]).includes(value);
}

export class UnknownKindError extends Error {
  override name = 'UnknownKindError';
  constructor(readonly kind: string) {
    super(`unknown kind "${kind}"; kinds: ${INGEST_KINDS.join(', ')}`);
  }
}

/** Longest source_id kept; it becomes part of a unique key. */
export const MAX_SOURCE_ID_LENGTH = 512;
const MAX_SAFE = Number.MAX_SAFE_INTEGER;

/** Fields a file may carry besides the API's: stripped before validation, never served. */
export interface RecordExtras {
  sourceId: string | null;
  status: DealStatus;
}

export interface PreparedRecord {
  /** The natural key, as the database compares it (uuids in lower case). */
  key: string;
  /** The stored row; its served document as text, or as UTF-8 bytes. */
  row: { doc: string | Buffer };
}

export interface PrepareContext {
  /** Sort time of a funding round sent without date_seen: the start of the import's UTC day. */
  dayStart: string;
}

export interface KindSpec {
  kind: IngestKind;
  /** Name in data_versions (bumped by the table's trigger on every write). */
  dataset: string;
  table: string;
  keyColumn: string;
  /** How the key column's type is written in SQL (for = ANY($1::type[])). */
  keyType: 'text' | 'uuid';
  /** Extra top-level fields allowed in a file for this kind. */
  extras: readonly ('source_id' | 'status')[];
  checker: TypeCheck<TSchema>;
  /**
   * Rules the schema cannot state; returns a reason, or undefined when the record keeps them.
   * Runs on records the schema may have refused too, so it looks only at well-typed fields.
   */
  check(record: Record<string, unknown>): string | undefined;
  /** A valid record as a stored row; a string is a reason to reject it. */
  prepare(record: never, extras: RecordExtras, context: PrepareContext): PreparedRecord | string;
  /** Encodes a batch of prepared rows as one upsert statement. */
  encode(rows: object[]): PreparedUpsert | undefined;
}

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
function compile(schema: TSchema, references: TSchema[] = []): TypeCheck<TSchema> {
  if (!formatsRegistered) {
    registerFormats();
    formatsRegistered = true;
  }
  return TypeCompiler.Compile(strict(schema), references.map(strict));
}

function amount(record: Record<string, unknown>, field: string): string | undefined {
  const value = record[field];
  if (typeof value !== 'number') return undefined; // the schema's to report
  return value < 0 || value > MAX_SAFE ? `${field}: must be between 0 and ${MAX_SAFE}` : undefined;
}

const lower = (value: string) => value.toLowerCase();

function build(): Record<IngestKind, KindSpec> {
  const v1References = V1_SHARED_SCHEMAS.filter((s) => s !== FundingRecord && s !== MaRecord);
  return {
    funding: {
      kind: 'funding',
      dataset: 'funding',
      table: 'funding_rounds',
      keyColumn: 'natural_key',
      keyType: 'text',
      extras: ['source_id'],
      checker: compile(FundingRecord, v1References),
      check: (record) => amount(record, 'funding_amount'),
      prepare(record: FundingRecord, extras, context) {
        const row = prepareFundingRow(record, extras.sourceId);
        if (row.name_path === '' && extras.sourceId === null) {
          return 'name_path: cannot be derived from company_name; send name_path or source_id';
        }
        // Without date_seen the round sorts at the start of the import's day, so importing the
        // same file again that day finds it unchanged instead of moving it.
        if (record.date_seen === undefined) row.sort_at = context.dayStart;
        return { key: row.natural_key, row };
      },
      encode: (rows) => upsertFundingRows.prepare(rows as never),
    },
    'm-a': {
      kind: 'm-a',
      dataset: 'm-a',
      table: 'ma_deals',
      keyColumn: 'investment_id',
      keyType: 'uuid',
      extras: ['source_id', 'status'],
      checker: compile(MaRecord, v1References),
      check: (record) => amount(record, 'acquisition_amount'),
      prepare(record: MaRecord, extras) {
        const row = prepareMaRow(record, extras.status);
        return { key: lower(row.investment_id), row };
      },
      encode: (rows) => upsertMaRows.prepare(rows as never),
    },
    investors: {
      kind: 'investors',
      dataset: 'investors',
      table: 'investors',
      keyColumn: 'record_id',
      keyType: 'uuid',
      extras: ['source_id'],
      checker: compile(InvestorRecord),
      check: () => undefined,
      prepare(record: InvestorRecord) {
        const row = prepareInvestorRow(record);
        return { key: lower(row.record_id), row };
      },
      encode: (rows) => upsertInvestorRows.prepare(rows as never),
    },
    'job-changes': {
      kind: 'job-changes',
      dataset: 'job-changes',
      table: 'job_changes',
      keyColumn: 'record_id',
      keyType: 'uuid',
      extras: ['source_id'],
      checker: compile(JobChangeRecord),
      check: () => undefined,
      prepare(record: JobChangeRecord) {
        const row = prepareJobChangeRow(record);
        return { key: lower(row.record_id), row };
      },
      encode: (rows) => upsertJobChangeRows.prepare(rows as never),
    },
    acquisitions: {
      kind: 'acquisitions',
      dataset: 'acquisitions',
      table: 'acquisition_signals',
      keyColumn: 'record_id',
      keyType: 'uuid',
      extras: ['source_id'],
      checker: compile(AcquisitionSignalRecord),
      check: () => undefined,
      prepare(record: AcquisitionSignalRecord) {
        const row = prepareAcquisitionRow(record);
        return { key: lower(row.record_id), row };
      },
      encode: (rows) => upsertAcquisitionRows.prepare(rows as never),
    },
  };
}

let specs: Record<IngestKind, KindSpec> | undefined;

/** The kind's rules; schemas are compiled once, on first use. */
export function kindSpec(kind: string): KindSpec {
  if (!isIngestKind(kind)) throw new UnknownKindError(kind);
  specs ??= build();
  return specs[kind];
}

/**
 * Takes the extra fields off a parsed record. Returns the record without them (a copy only
 * when there was something to take); a malformed one is added to problems.
 */
export function takeExtras(
  spec: KindSpec,
  record: Record<string, unknown>,
  extras: RecordExtras,
  problems: string[],
): Record<string, unknown> {
  extras.sourceId = null;
  extras.status = 'completed';
  const hasSource = 'source_id' in record;
  const hasStatus = spec.extras.includes('status') && 'status' in record;
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
export function describeViolations(checker: TypeCheck<TSchema>, record: unknown, kind: IngestKind, max: number): string[] {
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

function describeError(error: ValueError, record: unknown, kind: IngestKind): string {
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
