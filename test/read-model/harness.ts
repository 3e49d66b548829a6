// The agreement tests' machinery: two apps over one database (one answering from a copy of a shared
// read model folding its delta after a few changes, one with the default options), a random history of writes straight to the
// database, and every list request checked against the same filter in plain SQL.
import assert from 'node:assert/strict';
import { setImmediate } from 'node:timers/promises';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import type { Database } from '../../src/platform/db/port.js';
import type { WhereClause } from './sql-conditions.js';
import { ApiError } from '../../src/catalog/errors.js';
import { ingest, type IngestReport } from '../../src/ingest/importer.js';
import { MessageChannel } from 'node:worker_threads';
import { ReadModel, type ReadModelOptions } from '../../src/read/read-model.js';
import { readModelCopy, SharedReadModel } from '../../src/read/index-threads.js';
import { makeKey, testConfig, type Backend } from '../helpers.js';
import { collationKey } from '../../src/read/filter-index/index.js';
import { AGREEMENT_NOW, type Draw, type Spec, type SpecOrder } from './specs.js';
// Bounded property runs and failing assertions that report at once (also when run alone).
import '../setup.js';

/**
 * The first app's read model: its indexes fold their delta into a new main part after 5 changes
 * (rebuilds yield to the event loop as often as they can), it catches up 7 log entries a statement
 * and builds from 16 rows a statement, so every batching loop runs many times.
 */
const SMALL: ReadModelOptions = { index: { rebuildAfter: 5, sliceMs: 0 }, changeBatch: 7, buildBatchRows: 16 };

export interface ServingApp {
  label: string;
  app: FastifyInstance;
}

/** A served read model and what closes it (the port of a copy; nothing for a model of its own). */
interface OpenModel {
  model: ReadModel;
  close(): void;
}

/**
 * The read model an app is built with: it answers from whichever model was set last. The app's
 * routes read `services.readModel` at every request, so an app built once serves a new model as
 * soon as it is set. Each method is bound to the model it comes from (its private fields).
 */
class SwitchedReadModel {
  readonly model: ReadModel;
  constructor(private current: OpenModel) {
    this.model = new Proxy(current.model, {
      get: (_target, name) => {
        const value: unknown = Reflect.get(this.current.model, name);
        return typeof value === 'function' ? value.bind(this.current.model) : value;
      },
    });
  }

  /** Serves `next` from now on; closes the model served until now. */
  set(next: OpenModel): void {
    const old = this.current;
    this.current = next;
    old.close();
  }

  close(): void {
    this.current.close();
  }
}

/**
 * One database and two apps answering from it: one with small batches and rebuilds after 5 changes
 * (main part, delta and background rebuilds all in play), served from a copy of the model that
 * reads its shared arrays and gets its changes and main parts over a MessagePort, as a worker
 * thread of `serve --workers N` does; one with the default options. A "reopen" step gives both
 * apps new read models, whose indexes are built from the tables as they are then.
 *
 * Each app is built once and keeps serving through reopens: building one compiles the serializers
 * of every route (about 0.6 s of CPU), which a reopen has no need to repeat, since nothing the list
 * routes answer from is held by the app but the read model (see SwitchedReadModel).
 */
export class Harness {
  readonly apps: ServingApp[] = [];
  /** Errors of background index rebuilds: none may happen. */
  readonly rebuildErrors: unknown[] = [];
  key = '';
  private readonly variants: { label: string; options: ReadModelOptions; copy?: true }[] = [
    { label: 'copy of a shared model, rebuildAfter=5 changeBatch=7 buildBatchRows=16', options: SMALL, copy: true },
    { label: 'default options', options: {} },
  ];
  /** Each app's read model, in the order of `variants`. */
  private readonly models: SwitchedReadModel[] = [];

  private constructor(readonly db: Database) {}

  static async start(backend: Backend): Promise<Harness> {
    const db = await backend.openMigrated();
    const harness = new Harness(db);
    harness.key = (await makeKey(db, 'enterprise')).key;
    for (const { label, options, copy } of harness.variants) {
      const model = new SwitchedReadModel(await harness.openModel(options, copy));
      harness.models.push(model);
      const app = await buildApp({
        config: testConfig(),
        db,
        services: { readModel: model.model },
        now: () => AGREEMENT_NOW,
      });
      await app.ready();
      harness.apps.push({ label, app });
    }
    return harness;
  }

  private async openModel(options: ReadModelOptions, copy?: true): Promise<OpenModel> {
    const modelOptions = { ...options, onError: (error: unknown) => this.rebuildErrors.push(error) };
    if (!copy) return { model: await ReadModel.open(this.db, modelOptions), close: () => undefined };
    const shared = await SharedReadModel.open(this.db, modelOptions);
    const channel = new MessageChannel();
    shared.connect(channel.port1);
    return { model: await readModelCopy(this.db, channel.port2), close: () => channel.port1.close() };
  }

  /** Gives both apps new read models, whose indexes are built from the tables as they are now. */
  async reopen(): Promise<void> {
    const opened: OpenModel[] = [];
    for (const { options, copy } of this.variants) opened.push(await this.openModel(options, copy));
    opened.forEach((model, i) => {
      this.models[i]!.set(model);
      this.apps[i]!.label = `${this.variants[i]!.label} (reopened)`;
    });
  }

  async close(): Promise<void> {
    for (const { app } of this.apps) await app.close();
    for (const model of this.models) model.close();
    await this.db.close();
  }
}

// ---------- the history ----------

/** A step's random choices; resolved against the current data when it runs. */
export type Step =
  | { kind: 'ingest'; seed: number; size: number }
  | { kind: 'update'; picks: UpdatePick[] }
  | { kind: 'delete'; picks: number[] }
  | { kind: 'reimport'; batch: number }
  | { kind: 'reopen' };

export interface UpdatePick {
  /** Which known record (deleted ones included: re-importing one brings it back). */
  target: number;
  mutation: number;
  choice: number;
  /** Another known record, whose values some mutations copy (ties, shared keys). */
  donor: number;
  shift: number;
}

/** Seeds the generator is called with (its output is memoised per seed). */
export const SEEDS = 6;

const ingestStep = (minSize: number) =>
  fc.record({
    kind: fc.constant('ingest' as const),
    seed: fc.integer({ min: 1, max: SEEDS }),
    // Unbiased: fast-check would otherwise favour the smallest sizes, and pages past the second would be rare.
    size: fc.noBias(fc.integer({ min: minSize, max: 80 })),
  });

const stepArbitrary: fc.Arbitrary<Step> = fc.oneof(
  { weight: 3, arbitrary: ingestStep(20) },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('update' as const),
      picks: fc.array(
        fc.record({
          target: fc.nat(),
          mutation: fc.nat(),
          choice: fc.nat(),
          donor: fc.nat(),
          shift: fc.integer({ min: -400, max: 400 }),
        }),
        { minLength: 1, maxLength: 12 },
      ),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({ kind: fc.constant('delete' as const), picks: fc.array(fc.nat(), { minLength: 1, maxLength: 12 }) }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('reimport' as const), batch: fc.nat() }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'reopen' as const }) },
);

/** A history: a first import, then a few random steps. */
export const historyArbitrary = (maxSteps: number): fc.Arbitrary<Step[]> =>
  fc.tuple(ingestStep(40), fc.array(stepArbitrary, { maxLength: maxSteps - 1 })).map(([first, rest]) => [first, ...rest]);

/** What the test knows it wrote: the current version of every record, and which are in the table. */
class Model {
  readonly lines = new Map<string, object>();
  readonly live = new Set<string>();
  readonly batches: string[][] = [];

  constructor(private readonly spec: Spec) {}

  note(lines: readonly object[]): void {
    for (const line of lines) {
      const key = this.spec.key(line);
      this.lines.set(key, line);
      this.live.add(key);
    }
  }

  known(): string[] {
    return [...this.lines.keys()];
  }
}

async function run(db: Database, spec: Spec, lines: readonly object[]): Promise<IngestReport> {
  const text = lines.map((line) => JSON.stringify(line)).join('\n') + '\n';
  const report = await ingest(db, spec.name, [text], { skipInvalid: false });
  assert.ok(
    report.committed && report.rejected === 0,
    `the import of ${spec.name} was refused: ${JSON.stringify(report.rejects)}`,
  );
  return report;
}

/** Applies one step to the database (and the model); returns a line describing it. */
async function apply(harness: Harness, spec: Spec, model: Model, step: Step): Promise<string> {
  const { db } = harness;
  switch (step.kind) {
    case 'ingest': {
      const lines = spec.lines(step.seed, step.size);
      const report = await run(db, spec, lines);
      model.note(lines);
      model.batches.push(lines.map((line) => spec.key(line)));
      return `ingest seed ${step.seed} × ${step.size}: ${report.inserted} inserted, ${report.updated} updated, ${report.unchanged} unchanged`;
    }
    case 'update': {
      const known = model.known();
      const changed = new Map<string, object>();
      for (const pick of step.picks) {
        const key = known[pick.target % known.length]!;
        const donor = model.lines.get(known[pick.donor % known.length]!)!;
        const current = changed.get(key) ?? model.lines.get(key)!;
        changed.set(key, spec.mutate(current, pick.mutation, { choice: pick.choice, shift: pick.shift, donor }));
      }
      const lines = [...changed.values()];
      const report = await run(db, spec, lines);
      model.note(lines);
      return `update ${lines.length}: ${report.inserted} inserted, ${report.updated} updated, ${report.unchanged} unchanged`;
    }
    case 'delete': {
      const ids = (await db.query<{ id: number }>(`SELECT id FROM ${spec.table} ORDER BY id`)).map((row) => row.id);
      if (ids.length === 0) return 'delete: nothing to delete';
      const chosen = [...new Set(step.picks.map((pick) => ids[pick % ids.length]!))];
      const deleted = await db.query<{ key: string }>(
        `DELETE FROM ${spec.table} WHERE id = ANY($1) RETURNING ${spec.keyColumn}::text AS key`,
        [chosen],
      );
      for (const { key } of deleted) model.live.delete(spec.keyType === 'uuid' ? key.toLowerCase() : key);
      return `delete ${deleted.length} rows`;
    }
    case 'reimport': {
      if (model.batches.length === 0) return 'reimport: no batch';
      const keys = model.batches[step.batch % model.batches.length]!.filter((key) => model.live.has(key));
      if (keys.length === 0) return 'reimport: batch all deleted';
      const lines = keys.map((key) => model.lines.get(key)!);
      const report = await run(db, spec, lines);
      assert.deepEqual(
        { inserted: report.inserted, updated: report.updated, unchanged: report.unchanged },
        { inserted: 0, updated: 0, unchanged: new Set(keys).size },
        'importing the stored records again changes nothing',
      );
      return `reimport ${keys.length} unchanged`;
    }
    case 'reopen':
      await harness.reopen();
      return 'reopen both apps';
  }
}

// ---------- one request, checked ----------

type Query = Record<string, string | number | boolean>;

/** The query string of a typed query: its values as text, in the order built. */
export function queryString(query: Query): string {
  const pairs = Object.entries(query).map(([name, value]) => `${name}=${encodeURIComponent(String(value))}`);
  return pairs.length === 0 ? '' : `?${pairs.join('&')}`;
}

/** What plain SQL says: the filter's WHERE clause and total, or the 400 dataset.filter throws. */
async function sqlFilter(
  db: Database,
  spec: Spec,
  filters: Query,
): Promise<{ clause: string; params: unknown[]; total: number } | ApiError> {
  let where: WhereClause;
  try {
    where = spec.where(filters);
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  const clause = where.conditions.length === 0 ? '' : `WHERE ${where.conditions.join(' AND ')}`;
  const rows = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${spec.table} ${clause}`, where.params);
  return { clause, params: where.params, total: rows[0]!.n };
}

/** A row's sort_at in epoch milliseconds, as the read model reads it with a document. */
const SORT_MS = '(extract(epoch FROM sort_at) * 1000)::float8 AS sort_ms';

/** The documents of a page, as plain SQL orders and cuts it. */
async function sqlPage(
  db: Database,
  spec: Spec,
  filter: { clause: string; params: unknown[] },
  offset: number,
  limit: number,
  query: Query,
) {
  if (limit === 0) return [];
  const p = filter.params.length;
  const order = spec.order(query);
  if (order?.text)
    return (await textOrderedRows(db, spec, filter, order, offset, limit)).map((row) =>
      spec.served(row.doc, row.key, row.sort_ms, query),
    );
  const dir = order?.direction === 'asc' ? 'ASC' : 'DESC';
  const orderBy = order === undefined ? 'sort_at DESC, id DESC' : `${order.column} ${dir} NULLS LAST, id ${dir}`;
  const rows = await db.query<{ doc: string; key: string; sort_ms: number }>(
    `SELECT doc, ${spec.keyColumn}::text AS key, ${SORT_MS} FROM ${spec.table} ${filter.clause} ORDER BY ${orderBy} LIMIT $${p + 1} OFFSET $${p + 2}`,
    [...filter.params, limit, offset],
  );
  return rows.map((row) => spec.served(row.doc, row.key, row.sort_ms, query));
}

/**
 * A page ordered by a text column: PostgreSQL has no accent-insensitive order on both stores (no
 * ICU in the embedded one, no unaccent), so SQL filters and the rows are ordered here by the
 * collation key the API documents, nulls last, ties by id, then cut.
 */
async function textOrderedRows(
  db: Database,
  spec: Spec,
  filter: { clause: string; params: unknown[] },
  order: SpecOrder,
  offset: number,
  limit: number,
) {
  const rows = await db.query<{ doc: string; key: string; sort_ms: number; id: number; text: string | null }>(
    `SELECT doc, ${spec.keyColumn}::text AS key, ${SORT_MS}, id, ${order.column} AS text FROM ${spec.table} ${filter.clause}`,
    filter.params,
  );
  const sign = order.direction === 'asc' ? 1 : -1;
  const keyed = rows.map((row) => ({ row, key: row.text === null ? null : collationKey(row.text), id: Number(row.id) }));
  keyed.sort((a, b) => {
    if (a.key === null || b.key === null) return a.key === b.key ? sign * (a.id - b.id) : a.key === null ? 1 : -1;
    return sign * (a.key < b.key ? -1 : a.key > b.key ? 1 : a.id - b.id);
  });
  return keyed.slice(offset, offset + limit).map(({ row }) => row);
}

/** The rows a request asks for: v1 20 a page; v2 `limit` a page, none in count mode. */
function paging(spec: Spec, query: Query): { page: number; offset: number; limit: number; count: boolean } {
  const page = typeof query.page === 'number' ? query.page : 1;
  if (spec.family === 'v1') return { page, offset: (page - 1) * 20, limit: 20, count: false };
  const limit = typeof query.limit === 'number' ? query.limit : 20;
  const count = query.count === true;
  return { page, offset: (page - 1) * limit, limit: count ? 0 : limit, count };
}

/** What the requests of a property covered, so a vacuous run (nothing matched, nothing refused) is noticed. */
export interface Coverage {
  requests: number;
  refused: number;
  /** Answers with a total above 0, and with records on the page. */
  matched: number;
  pages: number;
  /** Pages with records after the first. */
  laterPages: number;
  /** Answers past the last page of a non-empty result. */
  pastEnd: number;
  counts: number;
  /** Filters used, by name, over all requests. */
  filters: Record<string, number>;
}

/**
 * Builds a random query (filters, then paging suited to the filtered total), asks every app, and
 * compares each answer with plain SQL's.
 */
async function check(harness: Harness, spec: Spec, draw: Draw, where: string, coverage: Coverage): Promise<void> {
  const filters = spec.filters(draw);
  const filter = await sqlFilter(harness.db, spec, filters);
  const rows = filter instanceof ApiError ? 0 : filter.total;
  const query = { ...filters, ...spec.paging(draw, rows) };
  const qs = queryString(query);
  const { offset, limit } = paging(spec, query);
  const want =
    filter instanceof ApiError
      ? filter
      : { total: filter.total, docs: await sqlPage(harness.db, spec, filter, offset, limit, query) };
  coverage.requests++;
  for (const name of Object.keys(query)) coverage.filters[name] = (coverage.filters[name] ?? 0) + 1;
  if (want instanceof ApiError) coverage.refused++;
  else {
    if (want.total > 0) coverage.matched++;
    if (want.docs.length > 0) coverage.pages++;
    if (offset > 0 && want.docs.length > 0) coverage.laterPages++;
    if (want.total > 0 && want.docs.length === 0) coverage[query.count === true ? 'counts' : 'pastEnd']++;
  }
  const headers: Record<string, string> =
    spec.family === 'v1' ? { 'x-lot-api-key': harness.key } : { authorization: `Bearer ${harness.key}` };
  for (const { label, app } of harness.apps) {
    const res = await app.inject({ method: 'GET', url: `${spec.url}${qs}`, headers });
    const context = `${where}\nGET ${spec.url}${qs} on the ${label} app`;
    if (want instanceof ApiError) {
      assert.equal(res.statusCode, 400, `${context}: dataset.filter refused it (${want.message}); the API answered ${res.body}`);
      const body = res.json() as { message?: string; error?: string };
      assert.equal(body.message ?? body.error, want.message, `${context}: the 400 names the same problem`);
      continue;
    }
    assert.equal(res.statusCode, 200, `${context}: dataset.filter accepted it; the API answered ${res.body}`);
    const { total, data } = answer(spec, res);
    const actualLabels = data.map(spec.label);
    const wantLabels = want.docs.map(spec.label);
    assert.equal(
      total,
      want.total,
      `${context}: total ${total}, SQL counts ${want.total}\n  page: ${actualLabels.join(', ')}\n  SQL:  ${wantLabels.join(', ')}`,
    );
    assert.deepEqual(actualLabels, wantLabels, `${context}: the page differs from SQL's (total ${total})`);
    assert.deepEqual(data, want.docs, `${context}: the records differ from their stored documents`);
    if (spec.family === 'v2') {
      const { page, limit } = paging(spec, { ...query, count: false });
      const totalPages = Math.ceil(want.total / limit);
      assert.deepEqual(
        (res.json() as { pagination: unknown }).pagination,
        { currentPage: page, totalPages, totalCount: want.total, hasNextPage: page < totalPages, hasPreviousPage: page > 1 },
        `${context}: pagination`,
      );
    }
  }
}

function answer(spec: Spec, res: { headers: Record<string, unknown>; json(): unknown }) {
  if (spec.family === 'v1') {
    const body = res.json() as { response: { data: Record<string, unknown>[] } };
    return { total: Number(res.headers['x-total-count']), data: body.response.data };
  }
  const body = res.json() as { data: Record<string, unknown>[]; pagination: { totalCount: number } };
  return { total: body.pagination.totalCount, data: body.data };
}

// ---------- the property ----------

export interface AgreementOptions {
  numRuns: number;
  maxSteps: number;
  /** Queries after each step. */
  queries: { min: number; max: number };
}

/**
 * For a random history of imports, updates, deletions and re-imports of one dataset, every list
 * request after every step (filters drawn from the stored data, random pages) is answered by each
 * app exactly as plain SQL answers it.
 */
export async function assertAgreement(harness: Harness, spec: Spec, options: AgreementOptions): Promise<Coverage> {
  const coverage: Coverage = { requests: 0, refused: 0, matched: 0, pages: 0, laterPages: 0, pastEnd: 0, counts: 0, filters: {} };
  await fc.assert(
    fc.asyncProperty(historyArbitrary(options.maxSteps), fc.gen(), async (steps, g) => {
      // Every run starts from an empty table, so a run replays exactly (the indexes follow the deletion).
      await harness.db.query(`DELETE FROM ${spec.table}`);
      const model = new Model(spec);
      const log: string[] = [];
      for (const step of steps) {
        log.push(await apply(harness, spec, model, step));
        const facts = await spec.facts(harness.db);
        const draw = new Drawer(g, facts);
        const n = g(fc.integer, options.queries);
        for (let i = 0; i < n; i++) {
          await turns(g(fc.integer, { min: 0, max: 3 }));
          await check(harness, spec, draw, `after: ${log.join('; ')}`, coverage);
        }
      }
      assert.deepEqual(harness.rebuildErrors, [], 'no background rebuild failed');
    }),
    // A failure is shrunk for at most the time limit, then reported as shrunk so far; a passing run
    // cut short by it passes with the runs it made (not the suite-wide setting of test/setup.ts).
    { numRuns: options.numRuns, includeErrorInReport: true, interruptAfterTimeLimit: 120_000, markInterruptAsFailure: false },
  );
  return coverage;
}

/**
 * Lets the event loop go round a few times. Background rebuilds run in slices between turns; on the
 * embedded store a request is answered without one (PGlite answers in microtasks), so without these
 * a rebuild would wait for the end of the test, and queries would meet only its first state.
 */
async function turns(count: number): Promise<void> {
  for (let i = 0; i < count; i++) await setImmediate();
}

/** Random choices inside a run (fast-check records and shrinks them), over the current data. */
class Drawer implements Draw {
  constructor(
    private readonly g: fc.GeneratorValue,
    readonly facts: Readonly<Record<string, readonly (string | number)[]>>,
  ) {}

  int(min: number, max: number): number {
    return this.g(fc.integer, { min, max });
  }

  bool(trueWeight = 1, falseWeight = 1): boolean {
    return this.int(1, trueWeight + falseWeight) <= trueWeight;
  }

  pick<T>(values: readonly T[]): T {
    if (values.length === 0) throw new Error('pick from no values');
    return values[this.int(0, values.length - 1)]!;
  }

  some<T>(values: readonly T[], min: number, max: number): T[] {
    return this.g(fc.subarray, [...values], { minLength: Math.min(min, values.length), maxLength: Math.min(max, values.length) });
  }

  fact(name: string): readonly (string | number)[] {
    const values = this.facts[name];
    if (!values) throw new Error(`no fact ${name}`);
    return values;
  }
}
