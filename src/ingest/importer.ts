// Ingestion: records in the API's own shape (NDJSON or a JSON array) are streamed from a file,
// standard input or an upload, validated with the schemas the API serves, prepared exactly as
// the API serves them and upserted on their natural keys, all or nothing per import.
//
// On PostgreSQL an import is one transaction: its batches are written inside it as they are read,
// and readers, who never wait on a writer there, see the import once it commits. On the embedded
// store (PGlite: one connection, so an open transaction makes every reader wait) the batches are
// staged instead, each one short statement with readers' statements between them, and published
// at the end in one short transaction (see migrations/017_import_staging.sql).
import { randomUUID } from 'node:crypto';
import { setImmediate } from 'node:timers/promises';
import type { TObject, TSchema } from '@sinclair/typebox';
import type { TypeCheck } from '@sinclair/typebox/compiler';
import type { Database, Queryable } from '../platform/db/index.js';
import { discardStagedSlice, emptyStages, importSettings, keysWrittenInThisTransaction, stagedRows } from './table-queries.js';
import { runStage, runUpsert, stageTable, type PreparedUpsert, type Upserter, type UpsertResult } from './upsert-queries.js';
import { upserterOf } from './upserters.js';
import type { Dataset, RecordExtras, StoredRow } from '../catalog/index.js';
import { byDatasetName, DATASET_NAMES, DATASETS, datasetNamed, isDatasetName, type DatasetName } from '../catalog/index.js';
import { takeExtras, UnknownKindError } from './record-extras.js';
import { TransactionSession } from './import-transaction.js';
import { RecordReader, type InputFormat, type RawRecord, type SplitItem } from './json-stream.js';
import {
  companies,
  compileRecordChecker,
  describeRecordProblems,
  type CompanyMention,
  type CompanyRow,
} from '../catalog/index.js';
import { adoptionOf, applyLinks, CompanyLinker, fetchLinks, linkRows, mentionsOf, type RowMentions } from '../companies/index.js';

export { UnknownKindError };
/** What can be ingested: every dataset, by its name. */
export type IngestKind = DatasetName;
export const INGEST_KINDS = DATASET_NAMES;
export const isIngestKind = isDatasetName;

export interface IngestOptions {
  /** Import the valid records and report the others; by default one bad record rejects the whole input. */
  skipInvalid: boolean;
  /** 'auto' (default): a first non-white-space "[" means a JSON array, anything else NDJSON. */
  format?: InputFormat | 'auto';
  /** Largest record accepted, in bytes of JSON text (default 16 MiB); larger ones are rejected unread. */
  maxRecordBytes?: number;
  /** Most rows written per statement (default: by kind). */
  batchRows?: number;
  /** How many rejects and duplicates the report lists (counts are always exact). */
  maxListed?: number;
  /** The clock (tests). */
  now?: () => Date;
  /**
   * Stage the records and publish them in one short transaction at the end, instead of writing
   * them in one transaction as they are read. Default: on the embedded store only (see the top of
   * this file); PostgreSQL readers do not wait on a writer, and staging there only costs time.
   */
  staging?: boolean;
}

/** A record the import did not take as is: where it was and why. */
export interface RecordNote {
  /** 1-based line where the record starts. */
  line?: number;
  /** 0-based element index (JSON arrays). */
  index?: number;
  /** Where the record is, and everything wrong with it ("line 4: a: …; b: …"). */
  reason: string;
  /** Each problem on its own, when the record has more than one (at most MAX_PROBLEMS_PER_RECORD, then a note). */
  problems?: string[];
}

export interface IngestReport {
  /** The dataset's name. */
  kind: string;
  /** The input's format; 'empty' when it held no record at all. */
  format: InputFormat | 'empty';
  /** Records read (valid or not, duplicates included). */
  received: number;
  /** Records new to the store. */
  inserted: number;
  /** Records that replaced a different stored version. */
  updated: number;
  /** Records identical to what was stored. */
  unchanged: number;
  /** Invalid records (listed in rejects). */
  rejected: number;
  /** Records replaced by a later record with the same natural key in the same input (last one wins). */
  duplicates: number;
  rejects: RecordNote[];
  /** Rejects counted but not listed (the list is capped). */
  rejectsTruncated: number;
  /** The records that replaced an earlier one: "replaces line 3 (same key …)". */
  replaced: RecordNote[];
  replacedTruncated: number;
  /**
   * True when the import's records are in the store (and visible). False when nothing was
   * changed: rejects in all-or-nothing mode, a broken input structure, an interrupted input.
   */
  committed: boolean;
  /**
   * Why nothing was committed: invalid records (all-or-nothing mode), an input whose structure
   * is broken (an unclosed or malformed JSON array), or an input that could not be read to its
   * end (an interrupted upload, a read error).
   */
  failure?: 'invalid-records' | 'malformed-input' | 'input-interrupted';
  /** Why the input as a whole was refused, when it is not (only) about single records. */
  error?: string;
  durationMs: number;
}

/** A file or upload stream (a Readable), or any iterable of chunks. */
export type IngestSource = AsyncIterable<Buffer | string | Uint8Array> | Iterable<Buffer | string | Uint8Array>;

export const DEFAULT_MAX_RECORD_BYTES = 16 * 1024 * 1024;
const DEFAULT_MAX_LISTED = 1000;
/**
 * Problems reported per invalid record, at most: every one a fix needs, so one run finds them
 * all, yet a record broken throughout (a file of another kind) cannot flood the report.
 */
export const MAX_PROBLEMS_PER_RECORD = 20;
/** Text of the records buffered for one statement, at most. */
const MAX_BATCH_TEXT = 4 * 1024 * 1024;
/** Batches queued for the database at most (each holds its records' encoded text). */
const MAX_QUEUED_WRITES = 2;
/** Keys remembered to find duplicates across the whole input; beyond it, only within a batch. */
const MAX_TRACKED_KEYS = 2_000_000;
/**
 * Text of the records staged per statement, at most: on the embedded store each statement holds
 * the one connection (and this thread) while it runs; 512 KiB of funding rounds stage in about
 * 25 ms there, where a full batch (500 rounds, 1.5 MB) took 80.
 */
const MAX_STAGE_TEXT = 512 * 1024;
/** Write batches published per statement when no key repeats (about 1 MiB of records at most). */
const PUBLISH_SLICE_BATCHES = 2;
/** Staged rows deleted per statement when a stage is dropped: short enough for readers to pass between. */
const DISCARD_SLICE_ROWS = 2000;

/** Rows per statement, by dataset (see ingestBatchRows). */
export const BATCH_ROWS = byDatasetName((dataset) => dataset.ingestBatchRows);

/** Where a record is, as reports say it: "line 7" or "index 3 (line 5)". */
export function position(item: { line?: number; index?: number }): string {
  return item.index === undefined ? `line ${item.line}` : `index ${item.index} (line ${item.line})`;
}

function note(item: { line: number; index?: number }, reason: string, problems?: string[]): RecordNote {
  const where: RecordNote =
    item.index === undefined ? { line: item.line, reason } : { line: item.line, index: item.index, reason };
  if (problems && problems.length > 1) where.problems = problems;
  return where;
}

interface Entry<Row> {
  key: string;
  row: Row;
  /** What the record says of each company it names (the dataset's links), resolved when the batch is written. */
  mentions: (CompanyMention | null)[];
  /** The row again with the linked companies' fields (a dataset whose links adopt them). */
  adopt?: RowMentions<Row>['adopt'];
  /** The key was already written by an earlier batch of this import. */
  repeat: boolean;
  /** Length of the record's text (batch sizing). */
  size: number;
}

/** Any string anywhere in the value holding U+0000, which PostgreSQL text cannot store. */
function hasNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (Array.isArray(value)) return value.some(hasNul);
  if (value !== null && typeof value === 'object') {
    for (const key in value) if (key.includes('\u0000') || hasNul((value as Record<string, unknown>)[key])) return true;
  }
  return false;
}

/**
 * Imports one input of one kind. Resolves with the report once the transaction is committed
 * (the records are served from then on) or rolled back; throws only when the database fails
 * (nothing is changed then either) or kind is unknown (UnknownKindError).
 */
export async function ingest(
  db: Database,
  kind: IngestKind | string,
  source: IngestSource,
  options: IngestOptions,
): Promise<IngestReport> {
  const dataset = datasetNamed(kind);
  if (!dataset) throw new UnknownKindError(kind);
  return dataset.withTypes((typed) => new Import(db, typed, options).run(source));
}

class Import<Q extends TObject, F, R extends TSchema, Row extends StoredRow> {
  private readonly report: IngestReport;
  private readonly maxListed: number;
  private readonly batchRows: number;
  private readonly reader: RecordReader;
  private readonly session: TransactionSession;
  private readonly dayStart: string;
  private readonly extras: RecordExtras = { sourceId: null, status: 'completed' };
  /** Natural key → where it was last seen: its line (NDJSON) or element index (JSON array). */
  private readonly seen = new Map<string, number>();
  private batch = new Map<string, Entry<Row>>();
  private readonly checker: TypeCheck<R>;
  private batchText = 0;
  /** False once a record is rejected in all-or-nothing mode: the rest is only checked. */
  private writing = true;
  private fatal: string | undefined;
  /** Batches sent to the transaction and not finished yet, oldest first. */
  private readonly writes: Promise<void>[] = [];
  private writeError: { error: unknown } | undefined;
  private readonly started = Date.now();
  /** Staged imports: the stage, this import's id in it, and the write batches staged so far. */
  private readonly staging: { stage: string; importId: string; batches: number; repeats: boolean } | undefined;
  private readonly upsert: Upserter<Row>;
  /** Resolves the companies the records name (datasets with links); the companies it makes are written first. */
  private readonly linker: CompanyLinker | undefined;
  private readonly companyUpsert = upserterOf(companies);
  /** Settles once the latest batch sent is linked: batches are linked in the order they were read. */
  private linking: Promise<void> = Promise.resolve();
  /** Staged imports: the companies stage, under an id of its own, and its write batches so far. */
  private readonly companyStaging: { stage: string; importId: string; batches: number } | undefined;

  constructor(
    private readonly db: Database,
    private readonly dataset: Dataset<Q, F, R, Row>,
    private readonly options: IngestOptions,
  ) {
    this.report = {
      kind: dataset.name,
      format: 'empty',
      received: 0,
      inserted: 0,
      updated: 0,
      unchanged: 0,
      rejected: 0,
      duplicates: 0,
      rejects: [],
      rejectsTruncated: 0,
      replaced: [],
      replacedTruncated: 0,
      committed: false,
      durationMs: 0,
    };
    this.maxListed = options.maxListed ?? DEFAULT_MAX_LISTED;
    this.batchRows = options.batchRows ?? dataset.ingestBatchRows;
    // Compiled per import (about a millisecond), typed by the dataset's record schema.
    this.checker = compileRecordChecker(dataset.record, dataset.references);
    this.upsert = upserterOf(dataset);
    this.reader = new RecordReader(options.format ?? 'auto', options.maxRecordBytes ?? DEFAULT_MAX_RECORD_BYTES);
    const now = (options.now ?? (() => new Date()))();
    this.dayStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate())).toISOString();
    this.session = new TransactionSession(db, async (tx) => {
      for (const statement of await importSettings(db, tx)) await tx.query(statement);
    });
    const staged = options.staging ?? db.kind === 'pglite';
    if (staged) {
      this.staging = { stage: stageTable(dataset.table), importId: randomUUID(), batches: 0, repeats: false };
    }
    if (dataset.links !== undefined && dataset.links.length > 0) {
      this.linker = new CompanyLinker(db, options.now);
      if (staged) this.companyStaging = { stage: stageTable(companies.table), importId: randomUUID(), batches: 0 };
    }
  }

  async run(source: IngestSource): Promise<IngestReport> {
    let readError: unknown;
    try {
      try {
        for await (const chunk of source) {
          this.reader.push(
            typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk),
          );
          await this.drain();
        }
      } catch (err) {
        readError = err;
      }
      if (readError === undefined) {
        this.reader.end();
        await this.drain();
        await this.flush();
      }
      await Promise.all(this.writes);
      if (this.writeError) throw this.writeError.error;
    } catch (err) {
      await this.session.finish(false).catch(() => undefined);
      await this.discardStage().catch(() => undefined);
      throw err;
    }
    return this.conclude(readError);
  }

  /** Handles every record available from what was pushed so far. */
  private async drain(): Promise<void> {
    for (let item = this.reader.next(); item !== undefined; item = this.reader.next()) {
      this.handle(item);
      if (this.batch.size >= this.batchRows || this.batchText >= (this.staging ? MAX_STAGE_TEXT : MAX_BATCH_TEXT)) {
        await this.flush();
      }
    }
  }

  private async conclude(readError: unknown): Promise<IngestReport> {
    const report = this.report;
    report.format = this.reader.inputFormat ?? 'empty';
    if (readError !== undefined) {
      const detail = readError instanceof Error ? readError.message : String(readError);
      report.failure = 'input-interrupted';
      report.error = `the input could not be read to the end (${detail}); nothing was imported`;
    } else if (this.fatal !== undefined) {
      report.failure = 'malformed-input';
      report.error = `${this.fatal}; nothing was imported`;
    } else if (report.rejected > 0 && !this.options.skipInvalid) {
      report.failure = 'invalid-records';
    }
    const accepted = report.failure === undefined;
    if (this.staging) {
      try {
        if (accepted) await this.publish();
      } finally {
        await this.discardStage();
      }
    } else {
      // An import that changed nothing is rolled back: the data versions (and the caches keyed
      // by them) stay as they were.
      const changed = report.inserted + report.updated > 0;
      await this.session.finish(accepted && changed);
    }
    report.committed = accepted;
    if (accepted) {
      report.unchanged = report.received - report.rejected - report.duplicates - report.inserted - report.updated;
    } else {
      report.inserted = 0;
      report.updated = 0;
      report.unchanged = 0;
    }
    report.durationMs = Date.now() - this.started;
    return report;
  }

  /**
   * Publishes a staged import: its records upserted from the stage in one transaction, so they
   * become visible together. One that changes nothing is rolled back, as a direct import is.
   * Without repeated keys the rows go a few write batches per statement, with a turn of the event
   * loop between them: readers' statements wait for the commit all the same, but the process stays
   * responsive meanwhile (10,000 funding rounds in one statement held the thread 2–3 s, long
   * enough for load shedding to refuse the requests waiting behind it).
   */
  private async publish(): Promise<void> {
    const staging = this.staging!;
    if (staging.batches === 0) return;
    // Past MAX_TRACKED_KEYS a repeated key may have gone unnoticed.
    const repeats = staging.repeats || this.seen.size >= MAX_TRACKED_KEYS;
    const step = repeats ? staging.batches : PUBLISH_SLICE_BATCHES;
    const result = await this.db
      .transaction(async (tx) => {
        for (const statement of await importSettings(this.db, tx)) await tx.query(statement);
        const written = { inserted: 0, updated: 0 };
        // The companies the records were linked to first; a company may have been staged by several batches.
        const companyStaging = this.companyStaging;
        if (companyStaging && companyStaging.batches > 0) {
          await this.companyUpsert.publishStaged(tx, companyStaging.importId, { from: 0, to: companyStaging.batches }, true);
        }
        for (let from = 0; from < staging.batches; from += step) {
          if (from > 0) await setImmediate();
          const to = Math.min(staging.batches, from + step);
          const slice = await this.upsert.publishStaged(tx, staging.importId, { from, to }, repeats);
          written.inserted += slice.inserted;
          written.updated += slice.updated;
        }
        if (written.inserted + written.updated === 0) throw new NothingChanged();
        return written;
      })
      .catch((err: unknown) => {
        if (err instanceof NothingChanged) return { inserted: 0, updated: 0 };
        throw err;
      });
    this.report.inserted = result.inserted;
    this.report.updated = result.updated;
  }

  /**
   * Deletes this import's staged rows, published or not, a slice at a time; the writes still
   * queued finish first, so none stages rows after the stage is emptied.
   */
  private async discardStage(): Promise<void> {
    const staging = this.staging;
    if (!staging || staging.batches === 0) return;
    await Promise.allSettled(this.writes);
    while ((await discardStagedSlice(this.db, staging.stage, staging.importId, DISCARD_SLICE_ROWS)) === DISCARD_SLICE_ROWS);
    const companyStaging = this.companyStaging;
    if (companyStaging && companyStaging.batches > 0) {
      while (
        (await discardStagedSlice(this.db, companyStaging.stage, companyStaging.importId, DISCARD_SLICE_ROWS)) ===
        DISCARD_SLICE_ROWS
      );
    }
  }

  private reject(item: { line: number; index?: number }, reason: string, isRecord = true, problems?: string[]): void {
    const report = this.report;
    if (isRecord) {
      report.received++;
      report.rejected++;
    }
    if (report.rejects.length < this.maxListed) report.rejects.push(note(item, reason, problems));
    else report.rejectsTruncated++;
    if (!this.options.skipInvalid) this.stopWriting();
  }

  private stopWriting(): void {
    this.writing = false;
    this.batch = new Map();
    this.batchText = 0;
  }

  private handle(item: SplitItem): void {
    if (item.kind === 'problem') {
      this.reject(item, item.reason, item.isRecord);
      if (item.fatal) {
        this.fatal ??= item.reason;
        this.stopWriting();
      }
      return;
    }
    const prepared = this.prepare(item);
    if (typeof prepared === 'string') {
      this.reject(item, `${position(item)}: ${prepared}`);
      return;
    }
    if (Array.isArray(prepared)) {
      this.reject(item, `${position(item)}: ${prepared.join('; ')}`, true, prepared);
      return;
    }
    this.report.received++;
    this.remember(item, prepared);
  }

  /**
   * Parses, validates and prepares one record; a string is the reason it is rejected, a list
   * every rule it breaks.
   */
  private prepare(item: RawRecord): Prepared<Row> | string | string[] {
    let value: unknown;
    try {
      value = JSON.parse(item.text);
    } catch (err) {
      const detail = err instanceof Error ? err.message : 'invalid JSON';
      return item.atEnd ? `the file ends in the middle of a record (${detail})` : `not valid JSON (${detail})`;
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      return `expected a JSON object, got ${value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value}`;
    }
    const dataset = this.dataset;
    const problems: string[] = [];
    const record = takeExtras(dataset.extras, value as Record<string, unknown>, this.extras, problems);
    // The link fields a served record carries (a file made from the API's answers) are resolution's to set.
    for (const link of dataset.links ?? []) {
      delete record[link.idField];
      delete record[link.matchField];
    }
    for (const field of dataset.servedFields ?? []) delete record[field];
    const valid = this.checker.Check(record);
    if (!valid) {
      problems.push(...describeRecordProblems(this.checker, record, dataset.name, MAX_PROBLEMS_PER_RECORD - problems.length));
    }
    const ruleProblem = dataset.check?.(record);
    if (ruleProblem !== undefined && problems.length < MAX_PROBLEMS_PER_RECORD) problems.push(ruleProblem);
    if (item.text.includes('\\u0000') && hasNul(record) && problems.length < MAX_PROBLEMS_PER_RECORD) {
      problems.push('contains a NUL character (\\u0000), which cannot be stored');
    }
    if (!valid || problems.length > 0) return problems;
    const context = { dayStart: this.dayStart };
    const row = dataset.prepare(record, this.extras, context);
    if (typeof row === 'string') return row;
    const adopt = adoptionOf(dataset, record, { ...this.extras }, context);
    return { key: dataset.naturalKey(row), row, mentions: mentionsOf(dataset.links, record), ...(adopt && { adopt }) };
  }

  /** Puts a valid record in the batch; a record with a key seen before replaces the earlier one. */
  private remember(item: RawRecord, prepared: Prepared<Row>): void {
    const inBatch = this.writing ? this.batch.get(prepared.key) : undefined;
    const earlierAt = this.seen.get(prepared.key);
    // Untracked keys (past MAX_TRACKED_KEYS) are still found within the batch.
    const duplicate = earlierAt !== undefined || inBatch !== undefined;
    let repeat = false;
    if (duplicate) {
      this.report.duplicates++;
      if (this.report.replaced.length < this.maxListed) {
        const key = prepared.key.length > 80 ? `${prepared.key.slice(0, 77)}...` : prepared.key;
        const earlier =
          earlierAt === undefined ? 'an earlier record' : item.index === undefined ? `line ${earlierAt}` : `index ${earlierAt}`;
        this.report.replaced.push(note(item, `${position(item)} replaces ${earlier} (same key ${JSON.stringify(key)})`));
      } else {
        this.report.replacedTruncated++;
      }
      // Already written by an earlier batch, unless it is still waiting in this one.
      repeat = inBatch ? inBatch.repeat : true;
      if (inBatch) this.batchText -= inBatch.size;
    }
    if (duplicate || this.seen.size < MAX_TRACKED_KEYS) this.seen.set(prepared.key, item.index ?? item.line);
    if (!this.writing) return;
    // While it waits for its batch, the document is kept as UTF-8 bytes: outside the JavaScript
    // heap, where the collector never copies it (and already in the form it is sent in).
    const row = prepared.row;
    if (typeof row.doc === 'string') row.doc = Buffer.from(row.doc, 'utf8');
    this.batch.set(prepared.key, {
      key: prepared.key,
      row: prepared.row,
      mentions: prepared.mentions,
      ...(prepared.adopt && { adopt: prepared.adopt }),
      repeat,
      size: item.text.length,
    });
    this.batchText += item.text.length;
  }

  /**
   * Sends the batch. Its statement is encoded here, and up to MAX_QUEUED_WRITES batches wait
   * in the transaction's queue, so the database always has the next statement while this
   * process reads and prepares the one after: the CPU work of a batch overlaps the database
   * work of the ones before.
   */
  private async flush(): Promise<void> {
    if (this.batch.size === 0 || !this.writing) return;
    if (this.staging) return this.stage();
    const entries = [...this.batch.values()];
    this.batch = new Map();
    this.batchText = 0;
    // Without links the batch is encoded here, while the database works on the one before.
    const plan = this.linker === undefined ? this.plan(entries, []) : undefined;
    while (this.writes.length >= MAX_QUEUED_WRITES) await this.writes.shift();
    if (this.writeError || !this.writing) return;
    const write = plan === undefined ? this.linkedWrite(entries) : this.session.run((tx) => this.write(tx, plan));
    this.writes.push(
      write.then(
        (result) => {
          this.report.inserted += result.inserted;
          this.report.updated += result.updated;
        },
        (err: unknown) => {
          this.writeError = { error: err };
          this.writing = false;
        },
      ),
    );
  }

  /**
   * A batch with links, in three steps: its companies are read as a step of the transaction of
   * their own, queued now; linked and encoded in this process once read and once the batch before
   * is linked; then written, queued behind whatever was queued meanwhile. So the database reads
   * the next batch's companies while this process links this one (the only connection the import
   * may have is its transaction's, and a step holds it until it ends).
   */
  private linkedWrite(entries: Entry<Row>[]): Promise<UpsertResult> {
    const linker = this.linker!;
    const links = this.dataset.links ?? [];
    const fetched = this.session.run((tx) => fetchLinks(linker, links, entries, tx));
    const planned = Promise.all([fetched, this.linking]).then(([found]) =>
      this.plan(entries, applyLinks(linker, links, entries, found)),
    );
    // The next batch is linked after this one, whatever becomes of it (a failure fails the import).
    this.linking = planned.then(
      () => undefined,
      () => undefined,
    );
    return planned.then((ready) => this.session.run((tx) => this.write(tx, ready)));
  }

  /**
   * Stages the batch: one statement of its own, outside any transaction, queued like a direct
   * write. Keys repeated across batches are staged again; publishing takes the latest.
   */
  private async stage(): Promise<void> {
    const staging = this.staging!;
    const entries = [...this.batch.values()];
    if (entries.some((entry) => entry.repeat)) staging.repeats = true;
    this.batch = new Map();
    this.batchText = 0;
    while (this.writes.length >= MAX_QUEUED_WRITES) await this.writes.shift();
    // PGlite answers on this thread and an input already buffered is read without waiting: without
    // a turn of the event loop here, requests that arrived meanwhile would not even be read, let
    // alone get their statements in between the import's.
    await setImmediate();
    if (this.writeError || !this.writing) return;
    const linked = await this.link(entries);
    // After linking: a dataset that adopts its companies' fields has its rows prepared again.
    const rows = entries.map((entry) => entry.row);
    const companyStaging = this.companyStaging;
    const stagedCompanies =
      companyStaging && linked.length > 0
        ? this.companyUpsert.prepareStage(linked, companyStaging.importId, companyStaging.batches++)
        : undefined;
    const prepared = this.upsert.prepareStage(rows, staging.importId, staging.batches++);
    const write = runStage(this.db, stagedCompanies)
      .then(() => runStage(this.db, prepared))
      .then(
        () => undefined,
        (err: unknown) => {
          this.writeError = { error: err };
          this.writing = false;
        },
      );
    this.writes.push(write);
  }

  /** A staged batch's links, read through the store (their rows gain them); the companies made or filled, to write first. */
  private async link(entries: Entry<Row>[]): Promise<CompanyRow[]> {
    if (this.linker === undefined || this.dataset.links === undefined) return [];
    return linkRows(this.linker, this.dataset.links, entries);
  }

  private plan(entries: Entry<Row>[], companyRows: readonly CompanyRow[]): WritePlan<Row> {
    // Rows in key order: concurrent imports of overlapping inputs lock keys in the same order.
    entries.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    const fresh: Row[] = [];
    const repeats: Entry<Row>[] = [];
    for (const entry of entries) {
      if (entry.repeat) repeats.push(entry);
      else fresh.push(entry.row);
    }
    return { companies: this.companyUpsert.prepare(companyRows), fresh: this.upsert.prepare(fresh), repeats };
  }

  private async write(tx: Queryable, plan: WritePlan<Row>): Promise<UpsertResult> {
    const { dataset } = this;
    await runUpsert(tx, plan.companies);
    const result = await runUpsert(tx, plan.fresh);
    const repeats = plan.repeats;
    if (repeats.length === 0) return result;
    // A key written again: if this import already changed its row, the row is counted (as
    // inserted or updated) and the rewrite is not; if the first write found it unchanged, a
    // change now makes it updated.
    const changedBefore = await keysWrittenInThisTransaction(
      tx,
      { table: dataset.table, ...dataset.key },
      repeats.map((e) => e.key),
    );
    await runUpsert(tx, this.upsert.prepare(repeats.filter((e) => changedBefore.has(e.key)).map((e) => e.row)));
    const later = await runUpsert(tx, this.upsert.prepare(repeats.filter((e) => !changedBefore.has(e.key)).map((e) => e.row)));
    return { inserted: result.inserted + later.inserted, updated: result.updated + later.updated };
  }
}

/** Thrown inside a publishing transaction that changed nothing, to roll it back. */
class NothingChanged extends Error {}

/**
 * Empties the stages of the embedded store when it is opened: the process that staged them is
 * gone (a process owns that store alone), so the imports they belong to were never published.
 * Returns the rows removed. PostgreSQL imports do not stage (see IngestOptions.staging).
 */
export async function discardAbandonedStages(db: Database): Promise<number> {
  if (db.kind !== 'pglite') return 0;
  const stages = DATASETS.map((dataset) => stageTable(dataset.table));
  const rows = (await stagedRows(db, stages)).reduce((sum, n) => sum + n, 0);
  if (rows > 0) await emptyStages(db, stages);
  return rows;
}

interface WritePlan<Row> {
  /** The companies the batch's records were linked to and made or filled, written before them. */
  companies: PreparedUpsert | undefined;
  fresh: PreparedUpsert | undefined;
  repeats: Entry<Row>[];
}

/** A valid record as the row to write, under its natural key. */
interface Prepared<Row> {
  key: string;
  row: Row;
  mentions: (CompanyMention | null)[];
  adopt?: RowMentions<Row>['adopt'];
}

/** A one-line summary: "funding: 3 received, 2 inserted, …". */
export function summarize(report: IngestReport): string {
  // An input without a single record changed nothing: saying "committed" would read as an import.
  if (report.committed && report.received === 0) return `${report.kind}: no records in the input; nothing to import`;
  const counts = `${report.received} received, ${report.inserted} inserted, ${report.updated} updated, ${report.unchanged} unchanged, ${report.rejected} rejected, ${report.duplicates} duplicates`;
  const outcome = report.committed
    ? 'committed'
    : report.failure === 'invalid-records'
      ? 'not committed (all-or-nothing: fix the rejected records, or skip them with --skip-invalid / ?skipInvalid=true)'
      : 'not committed';
  return `${report.kind}: ${counts}; ${outcome}`;
}
