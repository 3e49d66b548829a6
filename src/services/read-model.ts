// The read path: every list request is answered from an in-memory filter index per dataset (exact
// total and the page's ids, src/filter-index) and the page's documents fetched by primary key.
//
// The index is built from one snapshot of the tables and kept current from the change log: each
// request makes sure the index holds every change committed before it arrived, from any
// instance, then answers. In steady state that costs one statement: the page's documents are read
// together with the log's head, and when the head is where the index stands the page is exact as
// of that snapshot. When the head moved, the new changes are applied and the page asked again.
import type { TObject, TSchema } from '@sinclair/typebox';
import type { Database, Queryable } from '../db/port.js';
import { comparePositions, readChanges, type ChangePosition } from '../db/queries/change-log.js';
import type { Condition } from '../db/queries/conditions.js';
import { loadSnapshot } from '../db/change-follower.js';
import { documentsWithHead, indexRowsAfter, indexRowsById } from '../db/queries/read-model.js';
import type { Dataset, StoredRow } from '../datasets/dataset.js';
import { indexedDataset, indexRecord, type IndexedDataset } from '../datasets/index-filter.js';
import { DATASETS } from '../datasets/index.js';
import { FilterIndex, type FilterIndexOptions } from '../filter-index/index.js';

export interface ReadPage {
  /** The page's records as one JSON array text. */
  dataJson: string;
  /** Every record matching the filter. */
  total: number;
}

export interface ReadModelOptions {
  /** Rows per statement while building (default 20,000). */
  buildBatchRows?: number;
  /** Change log entries applied per statement while catching up (default 5,000). */
  changeBatch?: number;
  /** Called with an error of a background index rebuild (the index keeps serving its current parts). */
  onError?: (error: unknown) => void;
  /** Passed to each dataset's FilterIndex (tests rebuild after a few changes to exercise it). */
  index?: Omit<FilterIndexOptions, 'onRebuildError'>;
}

interface Part {
  dataset: IndexedDataset;
  index: FilterIndex;
}

/** Attempts at a page whose documents' snapshot is newer than the index; the last one is served as read. */
const PAGE_ATTEMPTS = 3;

export class ReadModel {
  private parts = new Map<string, Part>();
  /** The change log position the indexes are current at. */
  private position: ChangePosition = { seq: 0, changeId: 0 };
  private readonly buildBatchRows: number;
  private readonly changeBatch: number;
  private readonly onError: (error: unknown) => void;
  private readonly indexOptions: FilterIndexOptions;
  /** The catch-up running now, and the one queued to start after it (see catchUp). */
  private running: Promise<void> | null = null;
  private queued: Promise<void> | null = null;

  private constructor(
    private readonly db: Database,
    options: ReadModelOptions,
  ) {
    this.buildBatchRows = options.buildBatchRows ?? 20_000;
    this.changeBatch = options.changeBatch ?? 5_000;
    this.onError = options.onError ?? (() => undefined);
    this.indexOptions = { ...options.index, onRebuildError: this.onError };
  }

  /** Builds the indexes of every dataset from the tables; resolves once they can serve. */
  static async open(db: Database, options: ReadModelOptions = {}): Promise<ReadModel> {
    const model = new ReadModel(db, options);
    await model.load();
    return model;
  }

  /** Records and estimated bytes per dataset, and the log position: for metrics and the README's figures. */
  stats(): { position: ChangePosition; datasets: Record<string, { records: number; bytes: number }> } {
    const datasets: Record<string, { records: number; bytes: number }> = {};
    for (const [name, { index }] of this.parts) datasets[name] = { records: index.size, bytes: index.bytesUsed() };
    return { position: { ...this.position }, datasets };
  }

  /**
   * The exact total of records meeting the conditions and `limit` of them from `offset`, newest
   * first (sort_at DESC, id DESC), including every write committed before the call.
   */
  async page<Q extends TObject, F, R extends TSchema, Row extends StoredRow>(
    dataset: Dataset<Q, F, R, Row>,
    conditions: readonly Condition<Row>[],
    offset: number,
    limit: number,
  ): Promise<ReadPage> {
    const part = this.part(dataset.name);
    const filter = part.dataset.indexFilter(conditions);
    for (let attempt = 1; ; attempt++) {
      const { index } = this.part(dataset.name);
      const position = this.position;
      const { total, ids } = index.query(filter, offset, limit);
      if (ids.length === 0) {
        // Nothing to fetch: make sure the total includes everything committed until now.
        if (attempt > 1) return { dataJson: '[]', total };
        await this.catchUp();
        continue;
      }
      const documents = await documentsWithHead(this.db, part.dataset.table, ids);
      if (comparePositions(documents.head, position) === 0 || attempt === PAGE_ATTEMPTS) {
        return { dataJson: documents.dataJson, total };
      }
      // Writes committed since the index's position: apply them, then ask again.
      await this.catchUp();
    }
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
    for (;;) {
      const { changes, pruned } = await readChanges(this.db, this.position, this.changeBatch);
      if (comparePositions(this.position, pruned) < 0) {
        // Retention removed entries this instance had not applied: start again from the tables.
        // The snapshot is taken after the call, so it holds every write before it.
        await this.load();
        return;
      }
      if (changes.length === 0) return;
      const ids = new Map<string, Set<number>>();
      for (const change of changes) {
        let set = ids.get(change.dataset);
        if (!set) ids.set(change.dataset, (set = new Set()));
        set.add(change.id);
      }
      for (const [name, changed] of ids) await this.apply(this.db, this.part(name), [...changed]);
      this.position = changes.at(-1)!.position;
    }
  }

  /** Reads the changed records as they are now: those found are upserted, the others removed. */
  private async apply(db: Queryable, part: Part, ids: number[]): Promise<void> {
    const rows = await indexRowsById(db, part.dataset.source, ids);
    const found = new Set<number>();
    for (const row of rows) {
      part.index.upsert(indexRecord(row));
      found.add(row.id);
    }
    for (const id of ids) if (!found.has(id)) part.index.remove(id);
  }

  /** Builds every dataset's index from one snapshot and follows the log from that snapshot's head. */
  private async load(): Promise<void> {
    const parts = new Map<string, Part>();
    const snapshot = await loadSnapshot(this.db, async (tx) => {
      for (const dataset of DATASETS) {
        const indexed = dataset.open(indexedDataset);
        const index = new FilterIndex(indexed.columns, this.indexOptions);
        await index.build(this.rows(tx, indexed));
        parts.set(indexed.name, { dataset: indexed, index });
      }
    });
    this.parts = parts;
    this.position = snapshot.head;
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
