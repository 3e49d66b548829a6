// The read path: every list request is answered from an in-memory filter index per dataset (exact
// total and the page's ids, src/filter-index) and the page's documents fetched by primary key.
//
// The index is built from one snapshot of the tables and kept current from the change log: each
// request makes sure the index holds every change committed before it arrived, from any
// instance, then answers. Documents not kept in memory are read together with the log's head in
// one statement, and when the head is where the index stands the page is exact as of that
// snapshot; when it moved, the new changes are applied and the page asked again. A page whose
// documents are all kept waits for a catch-up read of the log, shared by concurrent requests.
//
// With a streaming replica, the index first catches up with the primary's log (shared, as for
// kept documents), then the documents are read on the replica, whose head tells whether it has
// replayed up to the index's position: while it is behind, the page waits for it (never serving an
// older document than the index picked), and reads the primary past a limit.
import type { TObject, TSchema } from '@sinclair/typebox';
import type { Database, Queryable } from '../platform/db/index.js';
import { comparePositions, type Change, type ChangePosition } from '../changes/index.js';
import { invalidParameter, type Condition } from '../catalog/index.js';
import { ChangeFollower, ChangeLogExpiredError, loadSnapshot } from '../changes/index.js';
import { setTimeout as delay } from 'node:timers/promises';
import {
  documentsWithHead,
  fullTextIdsWithHead,
  indexRowsAfter,
  websearchTsQuery,
  type Documents,
  type DocumentsOfTable,
} from './queries.js';
import {
  bitsOf,
  evaluate,
  keptBytes,
  keptIdsOfList,
  parseTsQuery,
  piecesOf,
  type IdSet,
  type KeptIds,
  type QueryTree,
} from './full-text.js';
import type { AnyDataset, Dataset, DocumentView, RowOrder, StoredRow } from '../catalog/index.js';
import {
  indexedDataset,
  indexRecord,
  type FullTextCondition,
  type IndexedDataset,
  type LinkedCondition,
  type LinkedTerm,
} from './dataset-index-filter.js';
import { DATASETS } from '../catalog/index.js';
import {
  FilterIndex,
  SPARSE_KEY_VALUES,
  unionAscending,
  type FilterIndexOptions,
  type IndexFilter,
  type IndexState,
  type KeyValues,
  type MainSwap,
  type QueryResult,
  type SortOrder,
} from './filter-index/index.js';
import { LRUCache } from 'lru-cache';
import { completeAcquisitionKeys } from '../ingest/index.js';

export interface ReadPage {
  /** The page's records as one JSON array text. */
  dataJson: string;
  /** Every record matching the filter. */
  total: number;
}

/** One page of a `ReadModel.read`: the records of a dataset meeting the conditions, newest first. */
export interface PageAsk {
  dataset: AnyDataset;
  conditions: readonly Condition<Record<string, unknown>>[];
  /** Records skipped (default 0). */
  offset?: number;
  /** At most this many records (0: the total only). */
  limit: number;
  /** Each record as its list serves it (a view's or the dataset's own served form), not as stored. */
  served?: boolean;
}

/** An ask's answer: the exact total and the page's records, each with its stored document and sort value. */
export interface PageRecords {
  total: number;
  records: { id: number; doc: string; /** sort_at, ms since the epoch. */ sortAt: number }[];
}

/** One page as the read model answers it (`page` and `read`). */
interface Ask {
  dataset: string;
  table: string;
  /** The name its documents are kept under (the view's, when one serves them). */
  cached: string;
  conditions: readonly Condition<Record<string, unknown>>[];
  offset: number;
  limit: number;
  sort?: SortOrder | undefined;
  view?: DocumentView;
  /** The column of the rows' natural keys, which the view serves from. */
  keyColumn?: string;
}

interface Answer {
  total: number;
  ids: number[];
  /** The documents found, by id (an id whose record is gone meanwhile is absent). */
  docs: Map<number, string>;
}

/** What metrics report of a read model. */
export interface ReadModelStats {
  position: ChangePosition;
  datasets: Record<string, { records: number; bytes: number }>;
  /** Present with a replica. */
  replicaReads?: ReplicaReads;
  fullTextPieces: FullTextPieceUses;
}

export interface ReadModelOptions {
  /** Rows per statement while building (default 20,000). */
  buildBatchRows?: number;
  /** Change log entries applied per statement while catching up (default 5,000). */
  changeBatch?: number;
  /** Called with an error of a background index rebuild (the index keeps serving its current parts). */
  onError?: (error: unknown) => void;
  /** Memory for documents kept by id (default 32 MiB; 0 keeps none). */
  documentCacheBytes?: number;
  /** Matches kept over every kept answer (default KEPT_ANSWER_IDS). */
  keptAnswerIds?: number;
  /** Passed to each dataset's FilterIndex (tests rebuild after a few changes to exercise it). */
  index?: Omit<FilterIndexOptions, 'onRebuildError' | 'onSwap'>;
  /**
   * Other threads read copies of these indexes (ReadModel.copy): called, in order, with everything
   * they must apply to stay the same. The indexes' arrays are then held in SharedArrayBuffers, so
   * the copies share them rather than hold their own.
   */
  publish?: (message: IndexMessage) => void;
  /** Where pages read their documents instead of the primary (see ReplicaReads). */
  replica?: ReplicaOptions;
}

/** A streaming replica of the primary, and how long a page waits for it to replay up to the index's position. */
export interface ReplicaOptions {
  db: Queryable;
  waitMs: number;
}

/** Document reads of pages from the replica, since start: how often it was current, had to be waited for, or was given up on. */
export type ReplicaReads = {
  /** At or past the index's position on the first read. */
  current: number;
  /** Behind at first, caught up within the wait. */
  waited: number;
  /** Still behind after the wait: read from the primary. */
  primary: number;
};

/** Pieces of full-text questions since start: found kept at the index's version, awaited from another request's read, or read. */
export type FullTextPieceUses = { kept: number; shared: number; read: number };

/**
 * What a read model publishes to its copies in other threads, in order: its whole state (first, and
 * again whenever it reloads from the tables), each batch of changes it applies, and each new main
 * part an index swaps in.
 */
export type IndexMessage =
  | { readonly type: 'state'; readonly position: ChangePosition; readonly datasets: Readonly<Record<string, IndexState>> }
  | { readonly type: 'changes'; readonly changes: readonly Change[] }
  | { readonly type: 'swap'; readonly dataset: string; readonly swap: MainSwap };

/** Options of a copy: where it asks the model it copies to catch up (resolves once the changes it published are received). */
export interface ReadModelCopyOptions extends Pick<ReadModelOptions, 'documentCacheBytes' | 'keptAnswerIds' | 'replica'> {
  catchUp: () => Promise<void>;
}

interface Part {
  dataset: IndexedDataset;
  index: FilterIndex;
  /** Changes whenever the index's records change (never repeats): what its answers are kept under. */
  version: number;
}

/** A filter's total and its first matches at one version of its dataset's index. */
interface KeptAnswer {
  version: number;
  total: number;
  ids: number[];
}

/**
 * Matches kept per filter: enough for the first pages of any paging (5 v1 pages, one v2 page of
 * 100), which is what clients exploring a filter ask for next; deeper pages are computed each time.
 */
const KEPT_MATCHES = 100;

/** Matches kept over every kept answer of a process (about 16 MiB of heap); serving threads share it out. */
export const KEPT_ANSWER_IDS = 2_000_000;

/**
 * The keys of the rows a linked condition holds for (a company's signals), kept per condition while
 * the linked dataset's index is unchanged: the explore pages of one question share them. Memory in
 * bytes of hashes (8 a company), per thread.
 */
const LINKED_KEYS_BYTES = 32 * 1024 * 1024;

/**
 * What a linked condition's window or threshold is read against, kept per condition without it while
 * the linked dataset's index is unchanged: each company's latest matching signal (for a window from
 * a date) or its total (for a threshold). Asking "raised since" with another date, or "raised at
 * least" another sum, is then a number term on the companies instead of a new read of every signal.
 * 16 bytes a company with such signals, and what the companies' index reads the table into; per
 * thread. Sized for the tables of a whole mix of questions (every round type, department and
 * seniority: about a hundred tables on the large set), so that a question is rarely read afresh.
 */
const LINKED_VALUES_BYTES = 128 * 1024 * 1024;

interface LinkedValuesKept {
  version: number;
  /** Company keys (hashes) ascending, and each one's value at the same index. */
  table: KeyValues;
  /** What the filter key says of this table: the condition without its window or threshold, and the version. */
  tag: string;
  /** Records of the index it narrows: that index reads the table into a column of 9 bytes a record. */
  outerSize: number;
}

/**
 * Memory for the ids of full-text pieces (a word, a phrase: see full-text.ts), per serving thread: a bit a
 * record id for a common word (250 KB for a table of 2,000,000 rows), 4 bytes an id for a rarer one.
 */
const FULL_TEXT_PIECE_BYTES = 128 * 1024 * 1024;
/** Memory for the ids of whole full-text questions, kept so that the index reads each one into its positions once. */
const FULL_TEXT_QUESTION_BYTES = 32 * 1024 * 1024;
/** Questions whose normalised form (the tree of pieces) is kept: it depends on the words only. */
const FULL_TEXT_TREES = 10_000;

interface IdSetKept {
  version: number;
  ids: IdSet;
  /** The same set from its pieces' (see the index's `ids` term): what the index reads. */
  combine: (positionsOf: (ids: IdSet) => IdSet) => IdSet;
}

interface PieceKept {
  version: number;
  ids: KeptIds;
}

const fullTextKey = (dataset: string, condition: FullTextCondition) =>
  `${dataset}\u0000${condition.column}\u0000${condition.field}\u0000${condition.query}`;
const fullTextPieceKey = (dataset: string, condition: FullTextCondition, piece: string) =>
  `${dataset}\u0000${condition.column}\u0000${condition.field}\u0000${piece}`;

interface LinkedKeysKept {
  version: number;
  hashes: Float64Array;
  /** What the filter key says of this set: the condition and the version it was read at. */
  tag: string;
}

/** Versions of the dataset indexes, shared so that a rebuilt index never reuses one. */
let versions = 0;

/** Attempts at a page whose documents' snapshot is newer than the index; the last one is served as read. */
const PAGE_ATTEMPTS = 3;

/** Longest pause between two reads of a replica that is behind: replay usually takes a millisecond or two. */
const REPLICA_MAX_PAUSE_MS = 16;

export class ReadModel {
  private parts = new Map<string, Part>();
  /** Where the indexes stand in the change log: moved in the same turn as a batch is applied. */
  private follower!: ChangeFollower;
  private readonly buildBatchRows: number;
  private readonly changeBatch: number;
  private readonly onError: (error: unknown) => void;
  private readonly indexOptions: FilterIndexOptions;
  /**
   * Served documents by dataset and id, as of `position`: an entry is dropped in the same turn of
   * the event loop as the position moves past a change of its record, so it is never stale.
   */
  private readonly documents: LRUCache<string, string> | undefined;
  /**
   * Recent answers of the index by filter, valid only at the version they were computed at: a
   * change to a dataset gives its index a new version, so an answer is never served stale.
   */
  private readonly answers: LRUCache<string, KeptAnswer>;
  /** The ids each full-text question holds for, kept while its dataset's index is unchanged. */
  private readonly fullTexts = new LRUCache<string, IdSetKept>({
    maxSize: FULL_TEXT_QUESTION_BYTES,
    sizeCalculation: (kept) => Math.max(1, kept.ids.byteLength),
  });
  /** The ids of each piece of full-text questions, kept while its dataset's index is unchanged. */
  private readonly fullTextPieces = new LRUCache<string, PieceKept>({
    maxSize: FULL_TEXT_PIECE_BYTES,
    sizeCalculation: (kept) => Math.max(1, keptBytes(kept.ids)),
  });
  /** Piece reads under way, by piece and index version (see readPieces). */
  private readonly fullTextReads = new Map<string, Promise<KeptIds | undefined>>();
  /** Each question's tree of pieces, null for one without a word to search for. */
  private readonly fullTextTrees = new LRUCache<string, { tree: QueryTree | null }>({ max: FULL_TEXT_TREES });
  private readonly linkedKeys = new LRUCache<string, LinkedKeysKept>({
    maxSize: LINKED_KEYS_BYTES,
    sizeCalculation: (kept) => kept.hashes.byteLength + 64,
  });
  private readonly linkedValues = new LRUCache<string, LinkedValuesKept>({
    maxSize: LINKED_VALUES_BYTES,
    // The table, and what the index it narrows reads it into (see MainPart.keyValuesRead): a column
    // of 9 bytes a record when it reaches many, its entries' positions (8 bytes an entry) when few.
    sizeCalculation: ({ table, outerSize }) =>
      16 * table.hashes.length +
      (table.hashes.length > outerSize / SPARSE_KEY_VALUES ? 9 * outerSize : 8 * table.hashes.length) +
      64,
  });
  /** The names a dataset's documents are kept under in `documents`: the dataset's, and one per view served. */
  private readonly cacheNames = new Map<string, Set<string>>();
  /** The catch-up running now, and the one queued to start after it (see catchUp). */
  private running: Promise<void> | null = null;
  private queued: Promise<void> | null = null;
  private readonly publish: ((message: IndexMessage) => void) | undefined;
  /** In a copy, how it catches up: by asking the model it copies. */
  private readonly remoteCatchUp: (() => Promise<void>) | undefined;
  private readonly replica: ReplicaOptions | undefined;
  private readonly replicaReads: ReplicaReads = { current: 0, waited: 0, primary: 0 };
  private readonly pieceUses: FullTextPieceUses = { kept: 0, shared: 0, read: 0 };

  private constructor(
    private readonly db: Database,
    options: ReadModelOptions,
    remoteCatchUp?: () => Promise<void>,
  ) {
    this.publish = options.publish;
    this.remoteCatchUp = remoteCatchUp;
    this.replica = options.replica;
    this.buildBatchRows = options.buildBatchRows ?? 20_000;
    this.changeBatch = options.changeBatch ?? 5_000;
    this.onError = options.onError ?? (() => undefined);
    this.indexOptions = { ...options.index, onRebuildError: this.onError };
    const cacheBytes = options.documentCacheBytes ?? 32 * 1024 * 1024;
    this.documents =
      cacheBytes > 0 ? new LRUCache({ maxSize: cacheBytes, sizeCalculation: (doc: string) => doc.length + 64 }) : undefined;
    this.answers = new LRUCache({
      maxSize: Math.max(1, options.keptAnswerIds ?? KEPT_ANSWER_IDS),
      sizeCalculation: (answer) => answer.ids.length + 16,
    });
  }

  /** Builds the indexes of every dataset from the tables; resolves once they can serve. */
  static async open(db: Database, options: ReadModelOptions = {}): Promise<ReadModel> {
    // Keys a migration left to the application are filled before anything is indexed.
    await completeAcquisitionKeys(db);
    const model = new ReadModel(db, options);
    await model.load();
    return model;
  }

  /**
   * A copy of a read model held by another thread, from its `state` message: it answers pages the
   * same way, reading the shared arrays, and stays current by `receive`-ing what that model
   * publishes and asking it to catch up (it never reads the change log itself).
   */
  static copy(db: Database, state: Extract<IndexMessage, { type: 'state' }>, options: ReadModelCopyOptions): ReadModel {
    const model = new ReadModel(
      db,
      { documentCacheBytes: options.documentCacheBytes, keptAnswerIds: options.keptAnswerIds, replica: options.replica },
      options.catchUp,
    );
    model.adoptState(state);
    return model;
  }

  /** This model's whole state, for a copy (ReadModel.copy). */
  state(): Extract<IndexMessage, { type: 'state' }> {
    const datasets: Record<string, IndexState> = {};
    for (const [name, { index }] of this.parts) datasets[name] = index.state();
    return { type: 'state', position: this.follower.position, datasets };
  }

  /** In a copy: applies what the model it copies published, in order. */
  receive(message: IndexMessage): void {
    switch (message.type) {
      case 'state':
        this.adoptState(message);
        break;
      case 'changes':
        if (message.changes.length > 0) this.apply(message.changes);
        break;
      case 'swap':
        this.part(message.dataset).index.adopt(message.swap);
        break;
    }
  }

  private adoptState(state: Extract<IndexMessage, { type: 'state' }>): void {
    const parts = new Map<string, Part>();
    for (const dataset of DATASETS) {
      const indexed = dataset.withTypes(indexedDataset);
      const index = FilterIndex.fromState(indexed.columns, state.datasets[indexed.name]!, this.indexOptions);
      parts.set(indexed.name, { dataset: indexed, index, version: ++versions });
    }
    this.parts = parts;
    this.documents?.clear();
    this.follower = new ChangeFollower(this.db, state.position, { batchSize: this.changeBatch, records: { values: true } });
  }

  /** Records and estimated bytes per dataset, and the log position: for metrics and the README's figures. */
  stats(): ReadModelStats {
    const datasets: Record<string, { records: number; bytes: number }> = {};
    for (const [name, { index }] of this.parts) datasets[name] = { records: index.size, bytes: index.bytesUsed() };
    return {
      position: this.follower.position,
      datasets,
      ...(this.replica && { replicaReads: { ...this.replicaReads } }),
      fullTextPieces: { ...this.pieceUses },
    };
  }

  /**
   * The exact total of records meeting the conditions and `limit` of them from `offset`, newest
   * first (sort_at DESC, id DESC) or in `order`, including every write committed before the call.
   */
  async page<Q extends TObject, F, R extends TSchema, Row extends StoredRow>(
    dataset: Dataset<Q, F, R, Row>,
    conditions: readonly Condition<Row>[],
    offset: number,
    limit: number,
    order?: RowOrder<Row>,
  ): Promise<ReadPage> {
    const indexed = this.part(dataset.name).dataset;
    // A view (funding's v2 signals) serves its own form of each document, kept apart from the stored one.
    const view = dataset.document;
    const [answer] = await this.answer([
      {
        dataset: dataset.name,
        table: dataset.table,
        cached: this.cacheName(dataset.name, view?.name),
        conditions: conditions as readonly Condition<Record<string, unknown>>[],
        offset,
        limit,
        sort: indexed.indexOrder(order),
        ...(view && { view, keyColumn: dataset.key.column }),
      },
    ]);
    return { total: answer!.total, dataJson: assemble(answer!.ids, answer!.docs) };
  }

  /**
   * Several pages, of one dataset or several, at one snapshot: each ask's exact total and its records
   * (stored documents, newest first) with their sort values, including every write committed before
   * the call. The documents not kept are read in one statement. How one company's signals are
   * summed up (src/companies): a page per kind of signal, read together.
   */
  async read(asks: readonly PageAsk[]): Promise<PageRecords[]> {
    const answers = await this.answer(
      asks.map((ask) => {
        const view = ask.served ? ask.dataset.document : undefined;
        return {
          dataset: ask.dataset.name,
          table: ask.dataset.table,
          cached: this.cacheName(ask.dataset.name, view?.name),
          conditions: ask.conditions,
          offset: ask.offset ?? 0,
          limit: ask.limit,
          ...(view && { view, keyColumn: ask.dataset.key.column }),
        };
      }),
    );
    return answers.map(({ total, ids, docs }, i) => {
      const { index } = this.part(asks[i]!.dataset.name);
      const records: PageRecords['records'] = [];
      for (const id of ids) {
        const doc = docs.get(id);
        const sortAt = index.sortAtOf(id);
        if (doc !== undefined && sortAt !== undefined) records.push({ id, doc, sortAt });
      }
      return { total, records };
    });
  }

  /**
   * The asks' totals, ids and documents at one position of the change log: the index is asked, the
   * documents not kept are read with the log's head in one statement, and when the head had moved
   * past the position the new changes are applied and the index asked again.
   */
  private async answer(asks: readonly Ask[]): Promise<Answer[]> {
    // Whether a catch-up started after this call has completed: the index then holds every write
    // committed before the call, and so do the cached documents (see `documents`).
    let current = false;
    for (let attempt = 1; ; attempt++) {
      // A replica's head tells where the replica stands, not whether the primary has taken writes
      // the index has not: with one, the index first takes in every write committed before the call
      // (a catch-up read of the primary's log, shared by concurrent requests).
      if (this.replica !== undefined && !current) {
        await this.catchUp();
        current = true;
      }
      const position = this.follower.position;
      // Full-text conditions are the database's to answer, at this position: when its head has moved
      // past it, the new changes are applied first and the asks answered at the next one.
      if (!(await this.fullTextAt(asks, position))) {
        await this.catchUp();
        current = true;
        continue;
      }
      const answers = asks.map((ask) => {
        const part = this.part(ask.dataset);
        // Read at this position: conditions on linked datasets (a company's signals) read their indexes as they stand now.
        const { filter, key } = this.indexFilter(part.dataset, ask.conditions);
        const filterKey = `${ask.dataset}\u0000${key}${ask.sort === undefined ? '' : `\u0000${JSON.stringify(ask.sort)}`}`;
        const { total, ids } = this.matches(part, filterKey, filter, ask.offset, ask.limit, ask.sort);
        const docs = new Map<number, string>();
        const missing: number[] = [];
        for (const id of ids) {
          const doc = this.documents?.get(documentKey(ask.cached, id));
          if (doc === undefined) missing.push(id);
          else docs.set(id, doc);
        }
        return { total, ids, docs, missing };
      });
      const toRead = asks.flatMap((ask, i) => (answers[i]!.missing.length === 0 ? [] : [{ ask, answer: answers[i]! }]));
      if (toRead.length === 0) {
        if (current) return answers;
        await this.catchUp();
        current = true;
        continue;
      }
      const read = await this.documentsAt(
        position,
        toRead.map(({ ask, answer }) => ({ table: ask.table, ids: answer.missing, keyColumn: ask.keyColumn })),
      );
      // The head read with the documents is where the index stood: nothing committed since, so
      // the answers are exact as of a snapshot taken after this call. Documents are kept only if
      // no change was applied meanwhile either (one may concern them).
      const exact = comparePositions(read.head, position) === 0;
      const keep = exact && comparePositions(this.follower.position, position) === 0;
      toRead.forEach(({ ask, answer }, i) => {
        const { docs, keys, sorts } = read.tables[i]!;
        for (const [id, stored] of docs) {
          const doc = ask.view ? ask.view.serve(stored, keys.get(id)!, sorts.get(id)!) : stored;
          answer.docs.set(id, doc);
          if (keep) this.documents?.set(documentKey(ask.cached, id), doc);
        }
      });
      if (exact || attempt === PAGE_ATTEMPTS) return answers;
      // Writes committed since the index's position: apply them, then ask again.
      await this.catchUp();
      current = true;
    }
  }

  /**
   * Reads the ids of the rows each full-text condition of the asks holds for, as of `position`, unless
   * kept for the index's current version: the pieces of its question not kept at this version are
   * read in one statement, the others reused, and the question's tree evaluated over them. False when
   * the database's head is past the position (the caller applies the new changes and asks again). A
   * question with no word to search for is a 400.
   */
  private async fullTextAt(asks: readonly Ask[], position: ChangePosition): Promise<boolean> {
    for (const ask of asks) {
      for (const condition of ask.conditions) {
        if (condition.op !== 'fullText') continue;
        const part = this.part(ask.dataset);
        const key = fullTextKey(ask.dataset, condition);
        if (this.fullTexts.get(key)?.version === part.version) continue;
        const tree = await this.fullTextTree(condition.query);
        if (tree === null) {
          throw invalidParameter(
            `${condition.param}: has no word to search for (only stop words or punctuation)`,
            condition.param,
          );
        }
        const { version } = part;
        const pieces = new Map<string, KeptIds>();
        const missing: string[] = [];
        const pending: [string, Promise<KeptIds | undefined>][] = [];
        for (const piece of piecesOf(tree)) {
          const pieceKey = fullTextPieceKey(ask.dataset, condition, piece);
          const kept = this.fullTextPieces.get(pieceKey);
          const reading = this.fullTextReads.get(`${pieceKey}\u0000${version}`);
          if (kept?.version === version && comparePositions(this.follower.position, position) === 0) {
            pieces.set(piece, kept.ids);
          } else if (reading !== undefined) pending.push([piece, reading]);
          else missing.push(piece);
        }
        this.pieceUses.kept += pieces.size;
        this.pieceUses.shared += pending.length;
        this.pieceUses.read += missing.length;
        if (missing.length > 0) pending.push(...this.readPieces(ask, condition, missing, version, position));
        for (const [piece, reading] of pending) {
          const ids = await reading;
          // Read at another position than the index's (or while it moved): the caller catches up first.
          if (ids === undefined || comparePositions(this.follower.position, position) !== 0) return false;
          pieces.set(piece, ids);
        }
        const bitsOfPieces = (read: (ids: IdSet) => IdSet) =>
          new Map([...pieces].map(([piece, ids]) => [piece, read(bitsOf(ids))]));
        this.fullTexts.set(key, {
          version,
          ids: evaluate(
            tree,
            bitsOfPieces((ids) => ids),
          ),
          // A common word's bitset is the kept one itself, so the index reads it into positions once.
          combine: (positionsOf) => evaluate(tree, bitsOfPieces(positionsOf)),
        });
      }
    }
    return true;
  }

  /**
   * Reads these pieces' ids in one statement, kept for the index's version when the database's head
   * was the index's position; undefined when it was not. Each read is shared, while it runs, with the
   * requests that need the same piece at the same version: a common word read by one request, not by
   * every request that asks for it before the first answer comes back.
   */
  private readPieces(
    ask: Ask,
    condition: FullTextCondition,
    pieces: readonly string[],
    version: number,
    position: ChangePosition,
  ): [string, Promise<KeptIds | undefined>][] {
    const read = fullTextIdsWithHead(this.db, { table: ask.table, words: condition.words }, pieces).then((found) =>
      comparePositions(found.head, position) === 0 ? found.ids.map(keptIdsOfList) : undefined,
    );
    return pieces.map((piece, i) => {
      const pieceKey = fullTextPieceKey(ask.dataset, condition, piece);
      const readKey = `${pieceKey}\u0000${version}`;
      const ids = read.then((all) => {
        const kept = all?.[i];
        if (kept !== undefined) this.fullTextPieces.set(pieceKey, { version, ids: kept });
        return kept;
      });
      this.fullTextReads.set(readKey, ids);
      // Dropped once settled, failed or not (a failure is the asking requests' own, and the next ask reads again).
      ids.then(
        () => this.fullTextReads.delete(readKey),
        () => this.fullTextReads.delete(readKey),
      );
      return [piece, ids];
    });
  }

  /**
   * A question's tree of pieces, from the tsquery the database makes of it; one piece, the whole
   * tsquery, if its printed form is one this reader does not know (the database then answers it whole).
   */
  private async fullTextTree(query: string): Promise<QueryTree | null> {
    const kept = this.fullTextTrees.get(query);
    if (kept !== undefined) return kept.tree;
    const tsquery = await websearchTsQuery(this.db, query);
    let tree: QueryTree | null;
    try {
      tree = parseTsQuery(tsquery);
    } catch {
      tree = { op: 'piece', text: tsquery };
    }
    this.fullTextTrees.set(query, { tree });
    return tree;
  }

  /**
   * The documents and the head of one snapshot at or past `position`: from the replica once it has
   * replayed that far (a head behind it means older documents than the index picked), else from
   * the primary. A head past it is the caller's to handle, as with the primary.
   */
  private async documentsAt(position: ChangePosition, reads: readonly DocumentsOfTable[]): Promise<Documents> {
    const { replica } = this;
    if (replica === undefined) return documentsWithHead(this.db, reads);
    const deadline = performance.now() + replica.waitMs;
    let pause = 1;
    for (let attempt = 1; ; attempt++) {
      const read = await documentsWithHead(replica.db, reads);
      if (comparePositions(read.head, position) >= 0) {
        this.replicaReads[attempt === 1 ? 'current' : 'waited']++;
        return read;
      }
      const left = deadline - performance.now();
      if (left <= 0) break;
      await delay(Math.min(pause, left));
      pause = Math.min(2 * pause, REPLICA_MAX_PAUSE_MS);
    }
    this.replicaReads.primary++;
    return documentsWithHead(this.db, reads);
  }

  /** Where a dataset's documents are kept, as stored or as a view serves them; every name is dropped on a change. */
  private cacheName(dataset: string, view: string | undefined): string {
    const name = view === undefined ? dataset : `${dataset}/${view}`;
    const names = this.cacheNames.get(dataset) ?? new Set([dataset]);
    this.cacheNames.set(dataset, names.add(name));
    return name;
  }

  /**
   * The index filter of the conditions, and the key its answers are kept under: the filter as JSON,
   * each linked condition's keys standing there as that condition and its dataset's version.
   */
  private indexFilter(indexed: IndexedDataset, conditions: readonly Condition<Record<string, unknown>>[]) {
    const tags = new Map<object, string>();
    const part = this.part(indexed.name);
    const filter = indexed.indexFilter(
      conditions,
      (linked) => {
        const { term, tag } = this.termOfLinked(linked, part.index.size);
        tags.set('hashes' in term ? term.hashes : term.keyValues, tag);
        return term;
      },
      (condition) => {
        const kept = this.fullTexts.get(fullTextKey(indexed.name, condition));
        // fullTextAt read it at this version just before.
        if (kept === undefined || kept.version !== part.version) throw new Error(`full-text ids of ${indexed.name} not read`);
        tags.set(kept.ids, `fullText ${JSON.stringify([condition.field, condition.query])}`);
        return { ids: kept.ids, combine: kept.combine };
      },
    );
    const key = JSON.stringify(filter, (_, value: unknown) =>
      typeof value === 'object' && value !== null && tags.has(value) ? tags.get(value) : value,
    );
    return { filter, key };
  }

  /**
   * A linked condition as a term on the company key, and what the filter key says of it. A window
   * from a date and a threshold compare each company's latest signal or total, kept per condition
   * without them (see LinkedValuesKept); a window ending before some signal reads the signals in it.
   */
  private termOfLinked(condition: LinkedCondition, outerSize: number): { term: LinkedTerm; tag: string } {
    const part = this.part(condition.dataset);
    if (condition.op === 'linkedTotal') {
      const { link, sum } = condition;
      const totals = this.valuesOfLinked(part, ['total', link, sum, condition.conditions], outerSize, () =>
        part.index.keyTotals(part.dataset.indexFilter(condition.conditions), link, sum),
      );
      return { term: { keyValues: totals.table, least: condition.atLeast }, tag: totals.tag };
    }
    const window = splitWindow(condition.conditions, part.index.latestSortAt);
    if (window === undefined) {
      const kept = this.keysOfLinked(part, condition);
      return { term: { hashes: kept.hashes }, tag: kept.tag };
    }
    const latest = this.valuesOfLinked(part, ['latest', condition.links, window.rest], outerSize, () => {
      const filter = part.dataset.indexFilter(window.rest);
      return condition.links.map((link) => part.index.keyLatest(filter, link)).reduce(latestOfBoth);
    });
    return { term: { keyValues: latest.table, least: window.from }, tag: latest.tag };
  }

  /** The keys (hashes of the company ids) a linked condition holds for, from its dataset's index. */
  private keysOfLinked(part: Part, condition: Extract<LinkedCondition, { op: 'linkedFrom' }>): LinkedKeysKept {
    const cacheKey = JSON.stringify(condition);
    const kept = this.linkedKeys.get(cacheKey);
    if (kept !== undefined && kept.version === part.version) return kept;
    const filter = part.dataset.indexFilter(condition.conditions);
    const lists = condition.links.map((link) => part.index.keysOf(filter, link));
    // Kept sorted and distinct, as a hashes term reads them: merged once here, not on every request.
    const hashes = lists.reduce(unionAscending);
    const fresh = { version: part.version, hashes, tag: `${cacheKey}@${part.version}` };
    this.linkedKeys.set(cacheKey, fresh);
    return fresh;
  }

  /** A value per company of a linked dataset (see LinkedValuesKept), read again once that dataset changes. */
  private valuesOfLinked(part: Part, what: unknown[], outerSize: number, read: () => KeyValues): LinkedValuesKept {
    const key = `${part.dataset.name}\u0000${JSON.stringify(what)}`;
    const kept = this.linkedValues.get(key);
    if (kept !== undefined && kept.version === part.version) return kept;
    const fresh = { version: part.version, table: read(), tag: `${key}@${part.version}`, outerSize };
    this.linkedValues.set(key, fresh);
    return fresh;
  }

  /** The filter's total and the ids of one page, from the kept answer when it is current and covers the page. */
  private matches(part: Part, key: string, filter: IndexFilter, offset: number, limit: number, order?: SortOrder): QueryResult {
    const kept = this.answers.get(key);
    const end = offset + limit;
    if (kept !== undefined && kept.version === part.version && (end <= kept.ids.length || kept.ids.length === kept.total)) {
      return { total: kept.total, ids: kept.ids.slice(offset, end) };
    }
    if (end > KEPT_MATCHES) return part.index.query(filter, offset, limit, order);
    const answer = part.index.query(filter, 0, KEPT_MATCHES, order);
    this.answers.set(key, { version: part.version, total: answer.total, ids: answer.ids });
    return { total: answer.total, ids: answer.ids.slice(offset, end) };
  }

  private part(name: string): Part {
    const part = this.parts.get(name);
    if (!part) throw new Error(`no read model for dataset ${name}`);
    return part;
  }

  /**
   * Applies every change committed before the call. Callers arriving while a catch-up runs wait
   * for the next one (which starts after they arrived, so it sees their writes); all of them share it.
   */
  catchUp(): Promise<void> {
    if (this.running === null) {
      this.running = this.drain().finally(() => {
        this.running = null;
      });
      return this.running;
    }
    // A catch-up that fails (the database unreachable) fails those waiting for the next one too: one
    // started after it would most likely fail the same way, and they answer at once instead of after two.
    this.queued ??= this.running.then(
      () => {
        this.queued = null;
        return this.catchUp();
      },
      (error: unknown) => {
        this.queued = null;
        throw error;
      },
    );
    return this.queued;
  }

  private async drain(): Promise<void> {
    if (this.remoteCatchUp !== undefined) return this.remoteCatchUp();
    for (;;) {
      let changes: Change[];
      try {
        changes = await this.follower.peek();
      } catch (error) {
        if (!(error instanceof ChangeLogExpiredError)) throw error;
        // Retention removed entries this instance had not applied: start again from the tables.
        // The snapshot is taken after the call, so it holds every write before it.
        await this.load();
        return;
      }
      if (changes.length === 0) return;
      this.apply(changes);
    }
  }

  /**
   * Changes the indexes, the kept documents and the position in one turn of the event loop, from
   * the changed rows read with the entries: a request never sees some of a batch applied, or a
   * position ahead of it. Each record changed in the batch takes its row as read, or leaves the
   * index when it has none (deleted).
   */
  private apply(changes: readonly Change[]): void {
    const latest = new Map<string, Map<number, Change>>();
    for (const change of changes) {
      let byId = latest.get(change.dataset);
      if (!byId) latest.set(change.dataset, (byId = new Map()));
      byId.set(change.id, change);
    }
    for (const [name, byId] of latest) {
      const part = this.part(name);
      part.version = ++versions;
      for (const [id, change] of byId) {
        const values = change.record?.values;
        if (values) part.index.upsert(indexRecord(values));
        else part.index.remove(id);
        for (const cached of this.cacheNames.get(name) ?? [name]) this.documents?.delete(documentKey(cached, id));
      }
    }
    this.follower.advance(changes.at(-1)!.position);
    this.publish?.({ type: 'changes', changes });
  }

  /** Builds every dataset's index from one snapshot and follows the log from that snapshot's head. */
  private async load(): Promise<void> {
    const parts = new Map<string, Part>();
    const { publish } = this;
    // The copies hear of an index's swaps once it is in use (its first build reaches them in the state).
    let published = false;
    const snapshot = await loadSnapshot(this.db, async (tx) => {
      for (const dataset of DATASETS) {
        const indexed = dataset.withTypes(indexedDataset);
        const index = new FilterIndex(indexed.columns, {
          ...this.indexOptions,
          ...(publish && {
            onSwap: (swap: MainSwap) => {
              if (published) publish({ type: 'swap', dataset: indexed.name, swap });
            },
          }),
        });
        await index.build(this.rows(tx, indexed));
        parts.set(indexed.name, { dataset: indexed, index, version: ++versions });
      }
    });
    this.parts = parts;
    this.documents?.clear();
    this.follower = new ChangeFollower(this.db, snapshot.head, { batchSize: this.changeBatch, records: { values: true } });
    published = true;
    publish?.(this.state());
  }

  private async *rows(tx: Queryable, dataset: IndexedDataset): AsyncGenerator<ReturnType<typeof indexRecord>[]> {
    let after = 0;
    for (;;) {
      const rows = await indexRowsAfter(tx, dataset.source, after, this.buildBatchRows);
      if (rows.length === 0) return;
      after = rows.at(-1)!.id;
      yield rows.map(indexRecord);
    }
  }
}

const documentKey = (dataset: string, id: number) => `${dataset}:${id}`;

/** The page's documents in the index's order, as one JSON array text (an id not found is left out). */
function assemble(ids: readonly number[], docs: ReadonlyMap<number, string>): string {
  const parts: string[] = [];
  for (const id of ids) {
    const doc = docs.get(id);
    if (doc !== undefined) parts.push(doc);
  }
  return `[${parts.join(',')}]`;
}

/**
 * A linked condition's window from a date, apart from its other conditions. An end of the window
 * after every record of the dataset (`latest`, as a preset's "tomorrow" is) says nothing and is
 * dropped; undefined when the window ends before some record, which is then read with the records.
 */
function splitWindow(
  conditions: readonly Condition<Record<string, unknown>>[],
  latest: number,
): { from: number; rest: Condition<Record<string, unknown>>[] } | undefined {
  let from = -Infinity;
  const rest: Condition<Record<string, unknown>>[] = [];
  for (const condition of conditions) {
    if (condition.column !== 'sort_at') rest.push(condition);
    else if (condition.op === 'atLeast') from = Math.max(from, Date.parse(String(condition.value)));
    else if (!(condition.op === 'below' && Date.parse(String(condition.value)) > latest)) return undefined;
  }
  return { from, rest };
}

/** Two ascending key lists with a latest each, as one: a key in both takes the later. */
function latestOfBoth(a: KeyValues, b: KeyValues): KeyValues {
  const hashes = new Float64Array(a.hashes.length + b.hashes.length);
  const values = new Float64Array(hashes.length);
  let i = 0;
  let j = 0;
  let n = 0;
  while (i < a.hashes.length || j < b.hashes.length) {
    if (j >= b.hashes.length || (i < a.hashes.length && a.hashes[i]! < b.hashes[j]!)) {
      hashes[n] = a.hashes[i]!;
      values[n++] = a.values[i++]!;
    } else if (i >= a.hashes.length || b.hashes[j]! < a.hashes[i]!) {
      hashes[n] = b.hashes[j]!;
      values[n++] = b.values[j++]!;
    } else {
      hashes[n] = a.hashes[i]!;
      values[n++] = Math.max(a.values[i++]!, b.values[j++]!);
    }
  }
  return { hashes: hashes.slice(0, n), values: values.slice(0, n) };
}
