// The in-memory filter index on its own (no HTTP, no database): 1M synthetic funding-like
// records (30 categories, 45 countries, 13 rounds, amount, website, date). Prints the build time,
// the bytes per record, query latency over random filters and pages 1–5 (with no pending changes,
// 2,000 and 10,000), the longest event-loop stall while building and rebuilding, and query latency
// while a rebuild runs.
//
//   node --expose-gc --import tsx bench/filter-index.ts [--records N] [--queries N] [--changes N] [--seed N]
import { performance } from 'node:perf_hooks';
import { setImmediate } from 'node:timers';
import { parseArgs } from 'node:util';
import { FilterIndex, type ColumnSpec, type IndexFilter, type IndexRecord, type Term } from '../src/read/filter-index/index.js';

const { values: args } = parseArgs({
  options: {
    records: { type: 'string', default: '1000000' },
    queries: { type: 'string', default: '10000' },
    changes: { type: 'string', default: '10000' },
    seed: { type: 'string', default: '1' },
  },
});
const RECORDS = Number(args.records);
const QUERIES = Number(args.queries);
const CHANGES = Number(args.changes);
const PAGE = 20;
const DAY = 86_400_000;
const END = Date.UTC(2026, 0, 1);
const SPAN = 5 * 365 * DAY;

/** mulberry32: a small seeded generator, so every run measures the same data and filters. */
let state = Number(args.seed) >>> 0;
function random(): number {
  state = (state + 0x6d2b79f5) >>> 0;
  let t = state;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const below = (n: number) => Math.floor(random() * n);
/** Skewed pick: low indexes far more often, as real countries and categories are. */
const skewed = (n: number) => Math.floor(n * random() ** 2.5);
const names = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${i}`);

const CATEGORIES = names('category-', 30);
const COUNTRIES = names('country-', 45);
const ROUNDS = names('round-', 13);
const COLUMNS: ColumnSpec[] = [
  { name: 'categories', kind: 'multi' },
  { name: 'country', kind: 'enum' },
  { name: 'round', kind: 'enum' },
  { name: 'amount', kind: 'number' },
  { name: 'website', kind: 'key' },
];

function record(id: number): IndexRecord {
  const categories = new Set<string>();
  for (let i = 1 + below(3); i > 0; i--) categories.add(CATEGORIES[skewed(30)]!);
  return {
    id,
    sortAt: END - below(SPAN),
    values: {
      categories: [...categories],
      country: COUNTRIES[skewed(45)]!,
      round: random() < 0.05 ? null : ROUNDS[below(13)]!,
      amount: random() < 0.08 ? null : Math.round(10 ** (4 + random() * 5)),
      website: `company-${id}.example`,
    },
  };
}

async function* batches(): AsyncGenerator<IndexRecord[]> {
  // Ids ascending and dates random, as rows read by primary key. Small batches with a turn of the
  // event loop between them, so making the records does not count as a stall of the index.
  for (let from = 0; from < RECORDS; from += 1000) {
    const batch: IndexRecord[] = [];
    for (let id = from + 1; id <= Math.min(RECORDS, from + 1000); id++) batch.push(record(id));
    await new Promise<void>((resolve) => setImmediate(resolve));
    yield batch;
  }
}

function randomFilter(): IndexFilter {
  const terms: Term[] = [];
  const pick = (values: readonly string[], most: number) => {
    const chosen = new Set<string>();
    for (let i = 1 + below(most); i > 0; i--) chosen.add(values[skewed(values.length)]!);
    return [...chosen];
  };
  if (random() < 0.5) terms.push({ column: 'categories', anyOf: pick(CATEGORIES, 3) });
  if (random() < 0.5) terms.push({ column: 'country', anyOf: pick(COUNTRIES, 2) });
  if (random() < 0.3) terms.push({ column: 'round', anyOf: pick(ROUNDS, 2) });
  if (random() < 0.3) terms.push({ column: 'amount', min: [1e5, 1e6, 5e6, 2.5e7, 1e8][below(5)]! });
  if (random() < 0.05) terms.push({ column: 'website', equals: `company-${below(RECORDS * 1.1)}.example` });
  const filter: { sortFrom?: number; sortBefore?: number; terms: Term[] } = { terms };
  if (random() < 0.4) filter.sortFrom = END - below(SPAN);
  if (random() < 0.1) filter.sortBefore = END - below(SPAN / 2);
  return filter;
}

const ms = (value: number) => `${value.toFixed(3)} ms`;
const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;

interface Stall {
  /** Longest wall-clock gap between two turns of the event loop. */
  wallMs: number;
  /** Longest CPU time the process used between two turns: the work itself, without the time the
   * operating system gave to other processes (this machine's cores are shared). */
  cpuMs: number;
}

/** Runs `job` while measuring the longest gap between two turns of the event loop. */
async function withStallMeter<T>(job: () => Promise<T>): Promise<{ result: T; stall: Stall }> {
  const stall = { wallMs: 0, cpuMs: 0 };
  let last = performance.now();
  let lastCpu = process.cpuUsage();
  let running = true;
  const tick = () => {
    const now = performance.now();
    const cpu = process.cpuUsage(lastCpu);
    stall.wallMs = Math.max(stall.wallMs, now - last);
    stall.cpuMs = Math.max(stall.cpuMs, (cpu.user + cpu.system) / 1000);
    last = now;
    lastCpu = process.cpuUsage();
    if (running) setImmediate(tick);
  };
  setImmediate(tick);
  const result = await job();
  running = false;
  return { result, stall };
}

const stalled = (stall: Stall) => `longest stall ${ms(stall.wallMs)} wall, ${ms(stall.cpuMs)} CPU`;

function measureQueries(
  index: FilterIndex,
  count: number,
): { p50: number; p90: number; p99: number; max: number; meanTotal: number } {
  const times: number[] = [];
  let totals = 0;
  for (let i = 0; i < count; i++) {
    const filter = randomFilter();
    const offset = below(5) * PAGE;
    const started = performance.now();
    const { total } = index.query(filter, offset, PAGE);
    times.push(performance.now() - started);
    totals += total;
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!;
  return { p50: at(0.5), p90: at(0.9), p99: at(0.99), max: times[times.length - 1]!, meanTotal: totals / count };
}

const index = new FilterIndex(COLUMNS, { autoRebuild: false });
const buildStarted = performance.now();
const { stall: buildStall } = await withStallMeter(() => index.build(batches()));
const buildSeconds = (performance.now() - buildStarted) / 1000;
// With --expose-gc the memory figures exclude the build's garbage (array buffers then equal bytesUsed()).
globalThis.gc?.();
console.log(`records:              ${index.size.toLocaleString('en-US')}`);
console.log(`build:                ${buildSeconds.toFixed(2)} s (records generated on the fly), ${stalled(buildStall)}`);
console.log(`bytes per record:     ${(index.bytesUsed() / index.size).toFixed(1)} (${mib(index.bytesUsed())} in all)`);
for (const [column, bytes] of Object.entries(index.bytesByColumn()))
  console.log(`  ${column.padEnd(18)} ${(bytes / index.size).toFixed(1)}`);
const memory = process.memoryUsage();
console.log(
  `process:              rss ${mib(memory.rss)}, heap used ${mib(memory.heapUsed)}, array buffers ${mib(memory.arrayBuffers)}`,
);

measureQueries(index, 500); // warm-up: let the JIT compile the query paths
const idle = measureQueries(index, QUERIES);
const report = (label: string, q: ReturnType<typeof measureQueries>) =>
  console.log(
    `${label} p50 ${ms(q.p50)}, p90 ${ms(q.p90)}, p99 ${ms(q.p99)}, max ${ms(q.max)} (mean total ${Math.round(q.meanTotal)})`,
  );
report(`queries (${QUERIES}, no delta):`.padEnd(22), idle);

// Pending changes: updates of existing records and new ones, all in the delta until a rebuild.
let changed = 0;
const change = () => index.upsert(record(changed++ % 2 === 0 ? 1 + below(RECORDS) : RECORDS + changed));
for (const pending of [2_000, CHANGES]) {
  while (index.deltaSize < pending) change();
  report(`queries (delta ${index.deltaSize}):`.padEnd(22), measureQueries(index, QUERIES));
}

// The rebuild alone, so the stall is the rebuild's and not the queries'.
const rebuildStarted = performance.now();
const { stall: rebuildStall } = await withStallMeter(() => index.rebuild());
console.log(
  `rebuild:              ${((performance.now() - rebuildStarted) / 1000).toFixed(2)} s, ${stalled(rebuildStall)}, delta now ${index.deltaSize}`,
);
report(`queries (rebuilt):`.padEnd(22), measureQueries(index, QUERIES));

// Queries keep being answered while a rebuild runs: one per turn of the event loop.
while (index.deltaSize < 2_000) change();
const during: number[] = [];
let finished = false;
const rebuilding = index.rebuild().then(() => (finished = true));
while (!finished) {
  await new Promise<void>((resolve) => setImmediate(resolve));
  const started = performance.now();
  index.query(randomFilter(), below(5) * PAGE, PAGE);
  during.push(performance.now() - started);
  if (during.length % 10 === 0) change();
}
await rebuilding;
during.sort((a, b) => a - b);
console.log(
  `during a rebuild:     ${during.length} queries, p50 ${ms(during[Math.floor(during.length / 2)]!)}, ` +
    `p99 ${ms(during[Math.floor(during.length * 0.99)]!)}, ${Math.floor(during.length / 10)} changes, delta after it ${index.deltaSize}`,
);
