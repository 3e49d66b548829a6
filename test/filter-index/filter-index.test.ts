import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setImmediate } from 'node:timers';
import fc from 'fast-check';
import {
  FilterIndex,
  keyHash,
  type ColumnSpec,
  type FilterIndexOptions,
  type IndexFilter,
  type IndexRecord,
  type MainSwap,
  type SortOrder,
  type Term,
} from '../../src/read/filter-index/index.js';
import { ReferenceIndex } from './reference.js';
// Bounded property runs and failing assertions that report at once (also when run alone).
import '../setup.js';

const COLUMNS: readonly ColumnSpec[] = [
  { name: 'country', kind: 'enum' },
  { name: 'stage', kind: 'enum' },
  { name: 'tags', kind: 'multi' },
  { name: 'amount', kind: 'number' },
  { name: 'score', kind: 'number', sorted: true },
  { name: 'site', kind: 'key' },
  { name: 'text', kind: 'words' },
  { name: 'title', kind: 'words' },
  { name: 'name', kind: 'text' },
];

const COUNTRIES = ['us', 'gb', 'de', 'fr', 'jp'];
const STAGES = ['seed', 'series a', 'series b'];
const TAGS = ['ai', 'fintech', 'health', 'saas', 'crypto', 'Fintech'];
const SITES = ['a.com', 'b.io', 'c.org', 'd.net', 'acme.io'];
const WORDS = [
  'Acme',
  'acquisition',
  'Zürich',
  'ZURICH',
  'e-commerce',
  'café',
  'Cafe',
  'data',
  'database',
  'Ådam',
  'ﬁnance',
  'fin',
  'rob',
  'robotics',
  '42',
  'R2-D2',
];
/** Names that collate equal ("Émile", "emile"), sort by punctuation ("O'Brien" < "Oak"), or are empty. */
const NAMES = [
  'Émile',
  'emile',
  ' EMILE ',
  'Zoë',
  'zoe',
  'Adam',
  'adam  smith',
  'Adam Smith',
  "O'Brien",
  'Oak',
  '',
  'Ålesund',
  'b',
  '北京',
];
const QUERY_WORDS = [
  'a',
  'ac',
  'acq',
  'zur',
  'ZÜ',
  'e-com',
  'caf',
  'CAFÉ',
  'data',
  'datab',
  'adam',
  'fin',
  'finance',
  'rob',
  'x',
  '4',
  'r2 d',
  '--',
  'robotics',
];

/** Small value ranges, so filters hit, sortAt values repeat and ids collide with earlier records. */
const sortAt = fc.integer({ min: 0, max: 40 }).map((t) => 1_700_000_000_000 + t * 86_400_000);
const id = fc.oneof({ weight: 8, arbitrary: fc.integer({ min: 1, max: 60 }) }, fc.constantFrom(2 ** 53 - 1, 2 ** 40 + 3));
const amount = fc.oneof(fc.integer({ min: -3, max: 50 }), fc.constantFrom(0, 0.5, 1e9, 1e9 + 1, -1e6));
const text = fc
  .array(fc.constantFrom(...WORDS), { maxLength: 4 })
  .chain((words) =>
    fc
      .array(fc.constantFrom(' ', '-', ', ', '/', '  '), { minLength: words.length, maxLength: words.length })
      .map((gaps) => words.map((word, i) => word + gaps[i]).join('')),
  );

const recordArb = (ids: fc.Arbitrary<number>): fc.Arbitrary<IndexRecord> =>
  fc.record({
    id: ids,
    sortAt,
    values: fc.record(
      {
        country: fc.option(fc.constantFrom(...COUNTRIES)),
        stage: fc.option(fc.constantFrom(...STAGES)),
        tags: fc.option(fc.array(fc.constantFrom(...TAGS), { maxLength: 3 })),
        amount: fc.option(amount),
        score: fc.option(fc.double({ noNaN: true, min: -10, max: 10 })),
        site: fc.option(fc.oneof(fc.constantFrom(...SITES), fc.array(fc.constantFrom(...SITES), { maxLength: 3 }))),
        text: fc.option(fc.oneof(text, fc.array(text, { maxLength: 2 }))),
        title: fc.option(text),
        // Short strings too, so changed records bring keys the main part lacks (ranked between two of its keys).
        name: fc.option(
          fc.oneof(fc.constantFrom(...NAMES), fc.string({ unit: fc.constantFrom('a', 'B', 'é', 'E', ' ', "'"), maxLength: 3 })),
        ),
      },
      { requiredKeys: [] },
    ),
  });

/** Mostly known values; now and then one the index has never seen. */
const list = <T>(values: readonly T[], unknown: T) =>
  fc.uniqueArray(fc.oneof({ weight: 12, arbitrary: fc.constantFrom(...values) }, fc.constant(unknown)), {
    minLength: 1,
    maxLength: 3,
  });
const termArb: fc.Arbitrary<Term> = fc.oneof(
  fc.record({ column: fc.constant('country'), anyOf: list(COUNTRIES, 'zz') }),
  fc.record({ column: fc.constant('country'), noneOf: list(COUNTRIES, 'zz') }),
  fc.record({ column: fc.constant('stage'), noneOf: list(STAGES, 'series z') }),
  fc.record({ column: fc.constant('tags'), noneOf: list(TAGS, 'none') }),
  fc.record({
    column: fc.constant('amount'),
    max: fc.oneof({ weight: 6, arbitrary: amount }, fc.constantFrom(-Infinity, Infinity, NaN, 25.5)),
  }),
  fc.record({ column: fc.constant('score'), max: fc.double({ noNaN: true, min: -11, max: 11 }) }),
  fc.record({ column: fc.constant('stage'), anyOf: list(STAGES, 'series z') }),
  fc.record({ column: fc.constant('tags'), anyOf: list(TAGS, 'none') }),
  fc.record({
    column: fc.constant('amount'),
    min: fc.oneof({ weight: 6, arbitrary: amount }, fc.constantFrom(-Infinity, Infinity, NaN, 25.5)),
  }),
  fc.record({ column: fc.constant('score'), min: fc.double({ noNaN: true, min: -11, max: 11 }) }),
  fc.record({
    column: fc.constant('site'),
    equals: fc.oneof({ weight: 8, arbitrary: fc.constantFrom(...SITES) }, fc.constant('unknown.example')),
  }),
  fc.record({ column: fc.constant('site'), anyOf: list(SITES, 'unknown.example') }),
  fc.record({ column: fc.constant('text'), words: list(QUERY_WORDS, 'zzz') }),
  fc.record({ column: fc.constant('title'), words: list(QUERY_WORDS, 'zzz') }),
  // A set of ids as found elsewhere (a full-text search): up to three words of bits, ids 0-95.
  fc.array(fc.integer({ min: 0, max: 2 ** 32 - 1 }), { maxLength: 3 }).map((words) => ({ ids: Uint32Array.from(words) }) as Term),
);
/** Date bounds: none, one, an ordered pair, or any pair (possibly empty or inverted). */
const boundsArb: fc.Arbitrary<Pick<IndexFilter, 'sortFrom' | 'sortBefore'>> = fc.oneof(
  fc.constant({}),
  fc.record({ sortFrom: sortAt }),
  fc.record({ sortBefore: sortAt }),
  {
    weight: 2,
    arbitrary: fc.tuple(sortAt, sortAt).map(([a, b]) => ({ sortFrom: Math.min(a, b), sortBefore: Math.max(a, b) + 86_400_000 })),
  },
  fc.record({ sortFrom: sortAt, sortBefore: sortAt }),
);
const filterArb: fc.Arbitrary<IndexFilter> = fc
  .tuple(boundsArb, fc.array(termArb, { maxLength: 3 }))
  .map(([bounds, terms]) => ({ ...bounds, terms }));
/** No order (the index's own) half the time; else sortAt either way, or a number or text column. */
const orderArb: fc.Arbitrary<SortOrder | undefined> = fc.oneof(
  { weight: 4, arbitrary: fc.constant(undefined) },
  {
    weight: 4,
    arbitrary: fc
      .tuple(fc.constantFrom(undefined, 'amount', 'score', 'name'), fc.constantFrom('asc' as const, 'desc' as const))
      .map(([column, direction]): SortOrder => (column === undefined ? { direction } : { column, direction })),
  },
);
const queryArb = fc.record({
  filter: filterArb,
  offset: fc.oneof(fc.integer({ min: 0, max: 12 }), fc.integer({ min: 0, max: 400 })),
  limit: fc.oneof(fc.integer({ min: 0, max: 12 }), fc.constant(1000)),
  order: orderArb,
});
type Query = { filter: IndexFilter; offset: number; limit: number; order?: SortOrder | undefined };

type Operation =
  | { op: 'upsert'; record: IndexRecord }
  | { op: 'remove'; id: number }
  | { op: 'query'; query: Query }
  | { op: 'rebuild' }
  | { op: 'startRebuild' }
  | { op: 'tick' }
  | { op: 'build'; records: IndexRecord[]; batch: number };

const operationArb = (records: fc.Arbitrary<IndexRecord>): fc.Arbitrary<Operation> =>
  fc.oneof(
    { weight: 6, arbitrary: fc.record({ op: fc.constant('upsert' as const), record: records }) },
    { weight: 2, arbitrary: fc.record({ op: fc.constant('remove' as const), id }) },
    { weight: 6, arbitrary: fc.record({ op: fc.constant('query' as const), query: queryArb }) },
    { weight: 2, arbitrary: fc.constant({ op: 'rebuild' as const }) },
    { weight: 2, arbitrary: fc.constant({ op: 'startRebuild' as const }) },
    { weight: 3, arbitrary: fc.constant({ op: 'tick' as const }) },
    {
      weight: 1,
      arbitrary: fc.record({
        op: fc.constant('build' as const),
        records: fc.array(records, { maxLength: 40 }),
        batch: fc.integer({ min: 1, max: 16 }),
      }),
    },
  );

const optionsArb: fc.Arbitrary<FilterIndexOptions> = fc.record({
  rebuildAfter: fc.oneof(fc.integer({ min: 1, max: 20 }), fc.constant(10_000)),
  autoRebuild: fc.boolean(),
  sliceMs: fc.constantFrom(0, 4),
  // Infinity: every key or words condition drives the evaluation, whatever it matches.
  selectiveShare: fc.oneof(fc.constantFrom(0, 1 / 32, 0.25, 1), { weight: 3, arbitrary: fc.constant(Infinity) }),
  // 0: every number column keeps its values; 2: only columns of at most two distinct values are coded.
  maxCodedValues: fc.constantFrom(0, 2, 65_535),
});

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));
const batches = <T>(items: readonly T[], size: number): T[][] =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));

/** Hashes of keys no record has: with them a hashes term is long enough to be read by a merge of sorted lists. */
const ABSENT_KEYS = Array.from({ length: 40 }, (_, i) => keyHash(`absent-${i}.example`));

function check(index: FilterIndex, reference: ReferenceIndex, { filter, offset, limit, order }: Query): void {
  const label = JSON.stringify({ filter, offset, limit, order });
  assert.deepEqual(index.query(filter, offset, limit, order), reference.query(filter, offset, limit, order), label);
  // The keys of the matches and their totals, and those keys narrowing a query again (short and long lists).
  const keys = reference.keysOf(filter, 'site');
  assert.deepEqual([...index.keysOf(filter, 'site')], keys, `keysOf ${label}`);
  const totals = index.keyTotals(filter, 'site', 'amount');
  assert.deepEqual(
    [...totals.hashes].map((hash, i) => [hash, totals.values[i]]),
    [...reference.keyTotals(filter, 'site', 'amount')].sort(([a], [b]) => a - b),
    label,
  );
  const latest = index.keyLatest(filter, 'site');
  assert.deepEqual(
    [...latest.hashes].map((hash, i) => [hash, latest.values[i]]),
    [...reference.keyLatest(filter, 'site')].sort(([a], [b]) => a - b),
    `keyLatest ${label}`,
  );
  for (const hashes of [keys.slice(0, 2), [...keys, ...ABSENT_KEYS]]) {
    const narrowed = { terms: [{ column: 'site', hashes: Float64Array.from(hashes) }] };
    assert.deepEqual(index.query(narrowed, 0, 50), reference.query(narrowed, 0, 50), `hashes ${label}`);
  }
  // The ids of the matches narrowing a query again, as an id set: one of them (read id by id, a sparse
  // set) and all of them (read in one pass over the positions, when dense enough).
  const matched = reference.query(filter, 0, 1_000_000).ids.filter((id) => id < 2 ** 32);
  const idSet = (wanted: readonly number[]) => {
    const ids = new Uint32Array(wanted.length === 0 ? 0 : Math.floor(Math.max(...wanted) / 32) + 1);
    for (const id of wanted) ids[id >>> 5]! |= 1 << (id & 31);
    return ids;
  };
  for (const wanted of [matched.slice(0, 1), matched]) {
    const narrowed = { terms: [{ ids: idSet(wanted) }] };
    assert.deepEqual(index.query(narrowed, 0, 50), reference.query(narrowed, 0, 50), `ids ${wanted.length} ${label}`);
  }
  // A set made of others (a question of several words): the index combines their positions. The
  // evens as all the matches without the odds, and all of them as the evens or the odds.
  const evens = idSet(matched.filter((_, i) => i % 2 === 0));
  const odds = idSet(matched.filter((_, i) => i % 2 === 1));
  const all = idSet(matched);
  const combined: [Uint32Array, (positionsOf: (ids: Uint32Array) => Uint32Array) => Uint32Array][] = [
    [evens, (positionsOf) => positionsOf(all).map((word, i) => word & ~positionsOf(odds)[i]!)],
    [all, (positionsOf) => positionsOf(evens).map((word, i) => word | positionsOf(odds)[i]!)],
  ];
  for (const [ids, combine] of combined) {
    const narrowed = { terms: [{ ids, combine }] };
    assert.deepEqual(index.query(narrowed, 0, 50), reference.query(narrowed, 0, 50), `combined ids ${label}`);
  }
  // Those totals and latest dates narrowing a query again, from their least value, a middle one and above all.
  // A table of one key reaches few records: read as positions rather than as a column.
  const one = { hashes: latest.hashes.slice(0, 1), values: latest.values.slice(0, 1) };
  for (const table of [totals, latest, one]) {
    const sorted = [...table.values].sort((a, b) => a - b);
    for (const least of [-Infinity, sorted[sorted.length >> 1] ?? 0, (sorted[sorted.length - 1] ?? 0) + 1]) {
      const narrowed = { terms: [{ column: 'site', keyValues: table, least }] };
      const expected = reference.query(narrowed, 0, 50);
      assert.deepEqual(index.query(narrowed, 0, 50), expected, `keyValues ${least} ${label}`);
      assert.deepEqual(index.query(narrowed, 0, 50), expected, `keyValues again ${least} ${label}`);
    }
  }
}

/**
 * What a copy in another thread is sent, in order (see ReadModel's IndexMessage), passed through
 * structuredClone as postMessage passes it: SharedArrayBuffers shared, the rest copied.
 */
type CopyMessage = { op: 'upsert'; record: IndexRecord } | { op: 'remove'; id: number } | { op: 'swap'; swap: MainSwap };

/**
 * Applies the operations to the index and the reference, comparing every query and the size. With
 * `copied`, the index shares its main parts and a copy made from its state after the first build
 * takes the same changes and swaps, delivered a few at a time; each query is asked of the copy too
 * once it has everything sent so far.
 */
async function replay(
  options: FilterIndexOptions,
  initial: IndexRecord[],
  batchSize: number,
  operations: Operation[],
): Promise<void> {
  return replayOn(options, initial, batchSize, operations, false);
}

async function replayOn(
  options: FilterIndexOptions,
  initial: IndexRecord[],
  batchSize: number,
  operations: Operation[],
  copied: boolean,
): Promise<void> {
  const sent: CopyMessage[] = [];
  const index = new FilterIndex(COLUMNS, copied ? { ...options, onSwap: (swap) => sent.push({ op: 'swap', swap }) } : options);
  const reference = new ReferenceIndex(COLUMNS);
  await index.build(batches(initial, batchSize));
  reference.build(initial);
  sent.length = 0;
  const copy = copied ? FilterIndex.fromState(COLUMNS, structuredClone(index.state()), options) : undefined;
  const deliver = (count = sent.length) => {
    for (const message of structuredClone(sent.splice(0, count))) {
      if (message.op === 'upsert') copy!.upsert(message.record);
      else if (message.op === 'remove') copy!.remove(message.id);
      else copy!.adopt(message.swap);
    }
  };
  const background: Promise<void>[] = [];
  for (const operation of operations) {
    switch (operation.op) {
      case 'upsert':
        index.upsert(operation.record);
        reference.upsert(operation.record);
        sent.push(operation);
        break;
      case 'remove':
        assert.equal(index.remove(operation.id), reference.remove(operation.id));
        sent.push(operation);
        break;
      case 'query':
        check(index, reference, operation.query);
        if (copy) {
          deliver();
          check(copy, reference, operation.query);
        }
        break;
      case 'rebuild':
        await index.rebuild();
        break;
      case 'startRebuild':
        background.push(index.rebuild());
        break;
      case 'tick':
        await tick();
        if (copy) deliver(Math.ceil(sent.length / 2));
        break;
      case 'build':
        await index.build(batches(operation.records, operation.batch));
        reference.build(operation.records);
        break;
    }
    assert.equal(index.size, reference.size);
  }
  await Promise.all(background);
  while (index.busy) await tick();
  check(index, reference, { filter: { terms: [] }, offset: 0, limit: 1000 });
  if (copy) {
    deliver();
    check(copy, reference, { filter: { terms: [] }, offset: 0, limit: 1000 });
  }
}

/** A history: options, the records of the first build in batches of a size, then the operations. */
const historyArb = fc.record({
  options: optionsArb,
  initial: fc.array(recordArb(id), { maxLength: 100, size: 'large' }),
  batchSize: fc.integer({ min: 1, max: 32 }),
  operations: fc.array(operationArb(recordArb(id)), { minLength: 10, maxLength: 60 }),
});

describe('filter index', () => {
  it('answers like the reference across builds, upserts, removals and rebuilds', async () => {
    await fc.assert(
      fc.asyncProperty(historyArb, ({ options, initial, batchSize, operations }) =>
        replay(options, initial, batchSize, operations),
      ),
      { numRuns: 300 },
    );
  });

  it('a copy made from its state and fed its changes and main parts answers like the reference', async () => {
    await fc.assert(
      fc.asyncProperty(historyArb, ({ options, initial, batchSize, operations }) =>
        replayOn(options, initial, batchSize, operations, true),
      ),
      { numRuns: 200 },
    );
  });

  it('answers like the reference on thousands of records (multi-word bitsets, number buckets, sorts in runs)', async () => {
    const wideId = fc.integer({ min: 1, max: 5000 });
    await fc.assert(
      fc.asyncProperty(
        optionsArb,
        fc.array(recordArb(wideId), { minLength: 1000, maxLength: 3000 }),
        fc.integer({ min: 50, max: 1000 }),
        fc.array(
          fc.oneof(
            { weight: 3, arbitrary: fc.record({ op: fc.constant('upsert' as const), record: recordArb(wideId) }) },
            { weight: 1, arbitrary: fc.record({ op: fc.constant('remove' as const), id: wideId }) },
            { weight: 4, arbitrary: fc.record({ op: fc.constant('query' as const), query: queryArb }) },
            { weight: 1, arbitrary: fc.constant({ op: 'startRebuild' as const }) },
            { weight: 2, arbitrary: fc.constant({ op: 'tick' as const }) },
          ),
          { maxLength: 40 },
        ),
        replay,
      ),
      { numRuns: 25 },
    );
  });

  it('answers word-prefix and key conditions like the reference, from postings or from bitsets', async () => {
    // Words sharing prefixes, so one query word covers several words of one record.
    const vocabulary = ['fin', 'final', 'finance', 'financial', 'data', 'database', 'dat', 'd', 'de'];
    const words = fc.array(fc.constantFrom(...vocabulary), { maxLength: 5 }).map((list) => list.join(' '));
    const records = fc.uniqueArray(
      fc.record({
        id: fc.integer({ min: 1, max: 400 }),
        sortAt,
        values: fc.record({
          text: words,
          title: words,
          site: fc.array(fc.constantFrom(...SITES), { maxLength: 3 }),
          tags: fc.array(fc.constantFrom(...TAGS), { maxLength: 2 }),
        }),
      }),
      { selector: (record) => record.id, minLength: 1, maxLength: 300 },
    );
    const prefixes = fc.uniqueArray(fc.constantFrom('f', 'fi', 'fin', 'fina', 'finan', 'da', 'dat', 'd', 'de', 'x'), {
      minLength: 1,
      maxLength: 2,
    });
    const term: fc.Arbitrary<Term> = fc.oneof(
      fc.record({ column: fc.constantFrom('text', 'title'), words: prefixes }),
      fc.record({ column: fc.constant('site'), equals: fc.constantFrom(...SITES) }),
      fc.record({ column: fc.constant('site'), anyOf: list(SITES, 'unknown.example') }),
      fc.record({ column: fc.constant('tags'), anyOf: list(TAGS, 'none') }),
    );
    const query = fc.record({
      filter: fc
        .tuple(boundsArb, fc.array(term, { minLength: 1, maxLength: 3 }))
        .map(([bounds, terms]) => ({ ...bounds, terms })),
      offset: fc.integer({ min: 0, max: 100 }),
      limit: fc.integer({ min: 0, max: 30 }),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(0, Infinity),
        records,
        fc.array(query, { minLength: 5, maxLength: 20 }),
        async (share, initial, queries) => {
          const index = new FilterIndex(COLUMNS, { selectiveShare: share });
          const reference = new ReferenceIndex(COLUMNS);
          await index.build([initial]);
          reference.build(initial);
          for (const q of queries) check(index, reference, q);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('orders by text and number columns like the reference, changed records among the main part', async () => {
    // Changed records whose names fall between the same two names of the main part, ties, nulls.
    const names = fc.constantFrom('Adam', 'zoe', 'b', 'B', 'bb', 'c', 'Ć', 'cz', 'd', '', null);
    const records = (ids: fc.Arbitrary<number>) =>
      fc.record({
        id: ids,
        sortAt,
        values: fc.record({ name: names, amount: fc.option(fc.constantFrom(-1, 0, 2.5, 7, Infinity)) }),
      });
    const order = fc
      .tuple(fc.constantFrom(undefined, 'amount', 'name'), fc.constantFrom('asc' as const, 'desc' as const))
      .map(([column, direction]): SortOrder => (column === undefined ? { direction } : { column, direction }));
    await fc.assert(
      fc.asyncProperty(
        fc.array(records(fc.integer({ min: 1, max: 30 })), { maxLength: 30 }),
        fc.array(records(fc.integer({ min: 1, max: 60 })), { maxLength: 30 }),
        fc.array(fc.record({ order, offset: fc.integer({ min: 0, max: 40 }), limit: fc.integer({ min: 1, max: 50 }) }), {
          minLength: 1,
          maxLength: 8,
        }),
        async (initial, changes, queries) => {
          const index = new FilterIndex(COLUMNS, { autoRebuild: false });
          const reference = new ReferenceIndex(COLUMNS);
          await index.build([initial]);
          reference.build(initial);
          for (const record of changes) {
            index.upsert(record);
            reference.upsert(record);
          }
          for (const { order, offset, limit } of queries)
            check(index, reference, { filter: { terms: [] }, offset, limit, order });
        },
      ),
      { numRuns: 300 },
    );
  });

  it('orders a date range of a correlated column: walking its order gives up, and the matches are read instead', async () => {
    // score grows with sortAt: oldest first, the walk meets 1,900 positions before the range of the
    // newest 100, more than it is worth (4 × 100 × log2(want + 2) steps), and selects among those 100.
    const day = 86_400_000;
    const records = Array.from({ length: 2000 }, (_, i) => ({
      id: i + 1,
      sortAt: 1_700_000_000_000 + i * day,
      values: { score: i },
    }));
    const index = new FilterIndex(COLUMNS);
    const reference = new ReferenceIndex(COLUMNS);
    await index.build([records]);
    reference.build(records);
    const filter = { sortFrom: 1_700_000_000_000 + 1900 * day, terms: [] };
    for (const limit of [1, 3, 50]) {
      for (const direction of ['asc', 'desc'] as const) {
        check(index, reference, { filter, offset: 0, limit, order: { column: 'score', direction } });
      }
    }
    check(index, reference, { filter: { terms: [] }, offset: 1990, limit: 20, order: { column: 'score', direction: 'asc' } });
  });

  it('loses no change made while a rebuild runs', async () => {
    const records = fc.sample(recordArb(fc.integer({ min: 1, max: 4000 })), { numRuns: 3000, seed: 7 });
    const changes = fc.sample(
      fc.oneof(
        { weight: 3, arbitrary: fc.record({ upsert: recordArb(fc.integer({ min: 1, max: 4500 })) }) },
        fc.record({ remove: fc.integer({ min: 1, max: 4000 }) }),
      ),
      { numRuns: 400, seed: 11 },
    );
    const queries = fc.sample(queryArb, { numRuns: 400, seed: 13 });
    const index = new FilterIndex(COLUMNS, { sliceMs: 0, autoRebuild: false });
    const reference = new ReferenceIndex(COLUMNS);
    await index.build(batches(records, 500));
    reference.build(records);
    for (const change of changes.slice(0, 200)) apply(change);
    let done = false;
    const rebuilt = index.rebuild().then(() => (done = true));
    let midway = 0;
    for (let i = 200; !done; i++) {
      const change = changes[i % changes.length]!;
      apply(change);
      check(index, reference, queries[i % queries.length]!);
      midway++;
      await tick();
    }
    await rebuilt;
    assert.ok(midway >= 10, `only ${midway} changes arrived during the rebuild`);
    assert.equal(index.deltaSize > 0, true, 'the changes made during the rebuild are still pending');
    check(index, reference, { filter: { terms: [] }, offset: 0, limit: 10_000 });
    for (const query of queries) check(index, reference, query);

    function apply(change: { upsert: IndexRecord } | { remove: number }): void {
      if ('upsert' in change) {
        index.upsert(change.upsert);
        reference.upsert(change.upsert);
      } else {
        index.remove(change.remove);
        reference.remove(change.remove);
      }
    }
  });

  it('loses no change made while a build loads and sorts', async () => {
    const records = fc.sample(recordArb(fc.integer({ min: 1, max: 3000 })), { numRuns: 2000, seed: 17 });
    const upserts = fc.sample(recordArb(fc.integer({ min: 1, max: 3500 })), { numRuns: 300, seed: 19 });
    const index = new FilterIndex(COLUMNS, { sliceMs: 0, autoRebuild: false });
    const reference = new ReferenceIndex(COLUMNS);
    async function* slowly(): AsyncGenerator<IndexRecord[]> {
      for (const batch of batches(records, 200)) {
        await tick();
        yield batch;
      }
    }
    reference.build(records);
    let done = false;
    const built = index.build(slowly()).then(() => (done = true));
    let midway = 0;
    for (let i = 0; !done; i++) {
      const change = upserts[i % upserts.length]!;
      if (i % 5 === 4) {
        index.remove(change.id);
        reference.remove(change.id);
      } else {
        index.upsert(change);
        reference.upsert(change);
      }
      midway++;
      await tick();
    }
    await built;
    assert.ok(midway >= 10, `only ${midway} changes arrived during the build`);
    check(index, reference, { filter: { terms: [] }, offset: 0, limit: 10_000 });
    for (const query of fc.sample(queryArb, { numRuns: 200, seed: 23 })) check(index, reference, query);
  });

  it('rebuilds by itself once the delta reaches its size', async () => {
    const index = new FilterIndex(COLUMNS, { rebuildAfter: 50 });
    await index.build([fc.sample(recordArb(fc.integer({ min: 1, max: 1000 })), { numRuns: 500, seed: 29 })]);
    for (const record of fc.sample(recordArb(fc.integer({ min: 1001, max: 2000 })), { numRuns: 60, seed: 31 }))
      index.upsert(record);
    assert.equal(index.busy, true);
    while (index.busy) await tick();
    assert.ok(index.deltaSize < 50, `delta of ${index.deltaSize} after the automatic rebuild`);
  });

  it('keeps within 60 bytes a record for a funding-like dataset', async () => {
    const columns: ColumnSpec[] = [
      { name: 'categories', kind: 'multi' },
      { name: 'country', kind: 'enum' },
      { name: 'round', kind: 'enum' },
      { name: 'amount', kind: 'number' },
      { name: 'website', kind: 'key' },
    ];
    const index = new FilterIndex(columns);
    const n = 64_000;
    const records = Array.from({ length: n }, (_, i) => ({
      id: i + 1,
      sortAt: 1_600_000_000_000 + ((i * 7919) % n) * 60_000,
      values: {
        categories: [`c${i % 30}`, `c${(i * 7) % 30}`],
        country: `k${(i * 13) % 45}`,
        round: `r${i % 13}`,
        amount: i % 10 === 0 ? null : (i * 104729) % 100_000_000,
        website: `site-${i}.example`,
      },
    }));
    await index.build([records]);
    const perRecord = index.bytesUsed() / n;
    assert.ok(perRecord <= 60, `${perRecord.toFixed(1)} bytes a record`);
  });

  it('refuses filters and records that do not fit the columns', () => {
    const index = new FilterIndex(COLUMNS);
    assert.throws(() => index.query({ terms: [{ column: 'country', anyOf: [] }] }, 0, 10), RangeError);
    assert.throws(() => index.query({ terms: [{ column: 'country', noneOf: [] }] }, 0, 10), RangeError);
    assert.throws(() => index.query({ terms: [{ column: 'amount', anyOf: ['1'] }] }, 0, 10), TypeError);
    assert.throws(() => index.query({ terms: [{ column: 'name', anyOf: ['x'] }] }, 0, 10), TypeError);
    assert.throws(() => index.query({ terms: [] }, 0, 10, { column: 'country', direction: 'asc' }), TypeError);
    assert.throws(() => index.query({ terms: [] }, 0, 10, { column: 'nope', direction: 'asc' }), TypeError);
    assert.throws(() => index.upsert({ id: 1, sortAt: 0, values: { name: ['a'] } }), TypeError);
    assert.throws(() => index.query({ terms: [{ column: 'text', words: [] }] }, 0, 10), RangeError);
    assert.throws(() => index.query({ terms: [{ column: 'country', min: 3 }] }, 0, 10), TypeError);
    assert.throws(() => index.query({ terms: [{ column: 'nope', anyOf: ['x'] }] }, 0, 10), TypeError);
    assert.throws(() => index.query({ terms: [] }, -1, 10), RangeError);
    assert.throws(() => index.query({ sortFrom: NaN, terms: [] }, 0, 10), RangeError);
    assert.throws(() => new FilterIndex(COLUMNS, { rebuildAfter: 0 }), RangeError);
    assert.throws(() => index.upsert({ id: 1.5, sortAt: 0, values: {} }), TypeError);
    assert.throws(() => index.upsert({ id: 1, sortAt: 0, values: { amount: 'ten' } }), TypeError);
    assert.throws(() => index.upsert({ id: 1, sortAt: 0, values: { tags: 'ai' } }), TypeError);
    assert.equal(index.size, 0);
  });
});
