// v2 signal endpoints under load, next to their SQL through the driver:
// `node --import tsx bench/signals.ts [--duration N] [--warmup N] [--connections N] [--workers N]`.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Database } from '../src/platform/db/port.js';
import { findAccountByReference } from '../src/accounts/account-queries.js';
import { adjustCredits } from '../src/accounts/credit-queries.js';
import { acquisitions, investors, jobChanges } from '../src/catalog/registry.js';
import type { SignalPage } from '../src/read/listing.js';
import { createBenchKey, postgresVersion, type Dataset } from './database.js';
import {
  openRecordingReadModel,
  runDriverFloor,
  steadyStateQueries,
  type RecordedQuery,
  type RecordingReadModel,
} from './driver.js';
import { runHttpLoad, type LoadTool } from './load.js';
import { RESULTS_FILE, serverConnections, type BenchOptions } from './options.js';
import { killServicesSync, stopAllServices, stopService, type Service } from './processes.js';
import type { MachineInfo } from './report.js';
import { datasetScenario, type Scenario } from './scenarios.js';
import type { LoadResult } from './stats.js';
import { startDealsignal } from './server.js';
import { prepareBench } from './setup.js';

// ---------- helpers shared with bench/limits.ts ----------

/** The account createBenchKey issues its keys for. */
const BENCH_EMAIL = 'bench@dealsignal.local';
/** The highest v2 limit the configuration accepts (RATE_LIMIT_* allow at most 1,000,000 per window). */
export const HIGH_V2_LIMIT = '1000000';
const OTHER_BENCHMARKS = 'bench/run.ts|bench/ingest.ts|wrk ';
const DAY_MS = 86_400_000;

export function loud(message: string): void {
  console.error(`\n!!!!!!!!!!\n!! ${message}\n!!!!!!!!!!\n`);
}

/** Waits (up to 10 minutes) until no other benchmark shares the two cores; says so when it gives up. */
export async function waitForQuiet(): Promise<boolean> {
  const deadline = Date.now() + 10 * 60_000;
  let announced = false;
  for (;;) {
    const found = spawnSync('pgrep', ['-f', OTHER_BENCHMARKS], { encoding: 'utf8' });
    if (found.status !== 0) return true;
    if (Date.now() > deadline) {
      loud(
        `another benchmark is still running after 10 minutes (pids ${found.stdout.trim().split('\n').join(', ')}); measuring anyway`,
      );
      return false;
    }
    if (!announced) console.log('   waiting for another benchmark to finish...');
    announced = true;
    await sleep(5000);
  }
}

/** Credits for any run: the debit stays in the path and never refuses. */
const BENCH_CREDITS = 1_000_000_000;

/** An enterprise key whose account is funded with the operator's own command (`keys credits --set`). */
export async function fundedBenchKey(db: Database): Promise<string> {
  const key = await createBenchKey(db);
  const account = await findAccountByReference(db, BENCH_EMAIL);
  if (!account || (await adjustCredits(db, account.id, { set: BENCH_CREDITS })) === undefined) {
    throw new Error(`no account ${BENCH_EMAIL}`);
  }
  return key;
}

/** startDealsignal passes its own environment on: set the variables for this one start. */
export async function startWith(
  env: Record<string, string | undefined>,
  options: BenchOptions,
  workers = options.workers,
): Promise<Service> {
  const saved = Object.fromEntries(Object.keys(env).map((name) => [name, process.env[name]]));
  const assign = (values: Record<string, string | undefined>) => {
    for (const [name, value] of Object.entries(values)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  };
  assign(env);
  try {
    return await startDealsignal(options.databaseUrl, options.poolSize, workers);
  } finally {
    assign(saved);
  }
}

export interface Probe {
  status: number;
  ms: number;
  totalCount: number;
  headers: Headers;
  body: string;
}

/** One request, timed from the client. */
export async function probe(url: string, headers: Record<string, string>): Promise<Probe> {
  const started = performance.now();
  const response = await fetch(url, { headers });
  const body = await response.text();
  const ms = performance.now() - started;
  let totalCount = Number.NaN;
  try {
    totalCount = (JSON.parse(body) as { pagination?: { totalCount?: number } }).pagination?.totalCount ?? Number.NaN;
  } catch {
    // not JSON: the status tells
  }
  return { status: response.status, ms, totalCount, headers: response.headers, body };
}

export async function measureLoad(
  tool: LoadTool,
  options: BenchOptions,
  url: string,
  headers: Record<string, string>,
  connections = options.connections,
): Promise<LoadResult> {
  const load = { url, headers, connections };
  await runHttpLoad(tool, { ...load, seconds: options.warmupSeconds });
  return runHttpLoad(tool, { ...load, seconds: options.durationSeconds });
}

/** A run with failed or no completed requests has no valid latency: its p99 is not a pass. */
export const p99Within = (load: LoadResult, targetMs: number) =>
  load.requests > 0 && load.failures === 0 && load.socketErrors === 0 && load.p99Ms <= targetMs;

export function checkLoad(name: string, load: LoadResult): void {
  if (load.requests === 0) loud(`${name}: no request completed in the measured run`);
  if (load.failures > 0 || load.socketErrors > 0) {
    loud(
      `${name}: ${load.failures} non-2xx responses and ${load.socketErrors} socket errors out of ${load.requests}: figures invalid`,
    );
  }
}

export const int = (n: number) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en') : 'n/a');
export const ms = (n: number) => (Number.isFinite(n) ? n.toFixed(2) : 'n/a');
export const verdict = (pass: boolean) => (pass ? 'PASS' : '**FAIL**');
export const describe = (load: LoadResult) =>
  `${int(load.reqPerSec)} req/s (${int(load.requests)} requests), p50 ${ms(load.p50Ms)} ms, p99 ${ms(load.p99Ms)} ms` +
  (load.failures + load.socketErrors > 0 ? ` (${load.failures} non-2xx, ${load.socketErrors} socket errors)` : '');

/** Date, machine (with the load average at start and now) and versions: the first lines of every section. */
export function machineLines(startedAt: Date, machine: MachineInfo, pgVersion: string): string[] {
  return [
    `- Date: ${startedAt.toISOString()}`,
    `- Machine: ${machine.cpuModel}, ${machine.cores} cores, ${machine.ramGiB.toFixed(1)} GiB RAM ` +
      `(1-min load average ${machine.loadAverage.toFixed(2)} at start, ${(loadavg()[0] ?? 0).toFixed(2)} at end); ` +
      'server, PostgreSQL and load generator share the cores',
    `- Node ${machine.nodeVersion}, PostgreSQL ${pgVersion}`,
  ];
}

export const rowCountList = (counts: Record<string, number>) =>
  Object.entries(counts)
    .map(([table, n]) => `${table} ${int(n)}`)
    .join(', ');

export function setupLines(startedAt: Date, machine: MachineInfo, pgVersion: string, dataset: Dataset): string[] {
  return [
    ...machineLines(startedAt, machine, pgVersion),
    `- Data set (\`seedDatabase\` large, seed 42, as of ${dataset.asOf.toISOString().slice(0, 10)}): ${rowCountList(dataset.rowCounts)}`,
  ];
}

/** Replaces this heading's section when present (a rerun), else appends it; every other section is kept. */
export function writeSection(heading: string, section: string): void {
  const existing = existsSync(RESULTS_FILE) ? readFileSync(RESULTS_FILE, 'utf8') : '# Benchmark results\n';
  const lines = existing.replace(/\s+$/, '').split('\n');
  const start = lines.indexOf(heading);
  let next: string[];
  if (start === -1) {
    next = [...lines, '', section.trimEnd()];
  } else {
    const endOffset = lines.slice(start + 1).findIndex((line) => /^## /.test(line));
    const end = endOffset === -1 ? lines.length : start + 1 + endOffset;
    next = [...lines.slice(0, start), section.trimEnd(), ...(end < lines.length ? ['', ...lines.slice(end)] : [])];
  }
  writeFileSync(RESULTS_FILE, next.join('\n') + '\n');
  console.log(`\nwritten to ${RESULTS_FILE} (${heading})`);
}

export function onExitStopServers(main: () => Promise<void>): void {
  process.on('exit', killServicesSync);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      killServicesSync();
      process.exit(130);
    });
  }
  main().catch(async (err: unknown) => {
    console.error(`bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    await stopAllServices();
    process.exitCode = 1;
  });
}

// ---------- v2 scenarios ----------

const SEARCH_P99_MS = 20;
const FILTER_P99_MS = 50;
const isoDate = (date: Date) => date.toISOString().slice(0, 10);

export function signalScenarios(asOf: Date): Scenario[] {
  return [
    datasetScenario(
      jobChanges,
      'e',
      'job changes, positions + seniorities',
      { positions: 'cto,vp of engineering,head of engineering', seniorities: 'c_level,vp,head' },
      FILTER_P99_MS,
    ),
    datasetScenario(jobChanges, 'f', 'job changes, search=engineer', { search: 'engineer' }, SEARCH_P99_MS),
    datasetScenario(
      investors,
      'g',
      'investors, countries + categories',
      { countries: 'US,GB', categories: 'vc,angel' },
      FILTER_P99_MS,
    ),
    datasetScenario(
      acquisitions,
      'h',
      'acquisitions, 90-day range',
      { dateFrom: isoDate(new Date(asOf.getTime() - 90 * DAY_MS)), dateTo: isoDate(asOf) },
      FILTER_P99_MS,
    ),
    datasetScenario(jobChanges, 'i', 'job changes, page 500', { page: 500 }, FILTER_P99_MS),
  ];
}

// ---------- measurement ----------

interface ServedRun {
  cold: Probe;
  load: LoadResult;
}

interface SignalResult {
  scenario: Scenario;
  serviceTotal: number;
  served: ServedRun;
  driver: LoadResult;
  plan: string;
}

interface Context {
  options: BenchOptions;
  tool: LoadTool;
  db: Database;
  apiKey: string;
}

const SERVER_ENV = { RATE_LIMIT_ENTERPRISE: HIGH_V2_LIMIT };

/** Every scenario against one server: the first request for the filter, then the load. */
async function measureServer(ctx: Context, scenarios: Scenario[]): Promise<ServedRun[]> {
  console.log('\n--- server');
  const server = await startWith(SERVER_ENV, ctx.options);
  const headers = { authorization: `Bearer ${ctx.apiKey}` };
  try {
    const runs: ServedRun[] = [];
    for (const scenario of scenarios) {
      await waitForQuiet();
      const url = server.baseUrl + scenario.path;
      console.log(`${scenario.id}. ${scenario.label}: GET ${scenario.path}`);
      const cold = await probe(url, headers);
      if (cold.status !== 200) loud(`scenario ${scenario.id} answers HTTP ${cold.status}: ${cold.body.slice(0, 300)}`);
      console.log(`   first request: HTTP ${cold.status}, ${ms(cold.ms)} ms, totalCount ${int(cold.totalCount)}`);
      const load = await measureLoad(ctx.tool, ctx.options, url, headers);
      checkLoad(`scenario ${scenario.id}`, load);
      console.log(`   load: ${describe(load)}`);
      runs.push({ cold, load });
    }
    return runs;
  } finally {
    await stopService(server);
  }
}

const INDEX_USE = /(Index Only Scan|Index Scan|Bitmap Index Scan)(?: Backward)? (?:using|on) (\S+)/g;

/** EXPLAIN ANALYZE of a statement, summed up as the indexes it used and its execution time. */
async function planSummary(db: Database, statement: RecordedQuery): Promise<string> {
  const rows = await db.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS) ${statement.sql}`, statement.params);
  const plan = rows.map((row) => row['QUERY PLAN']).join('\n');
  const indexes = [...new Set([...plan.matchAll(INDEX_USE)].map((m) => `${m[1]} on ${m[2]}`))];
  const seq = [...new Set([...plan.matchAll(/Seq Scan on (\S+)/g)].map((m) => `Seq Scan on ${m[1]}`))];
  const time = /Execution Time: ([\d.]+) ms/.exec(plan)?.[1] ?? '?';
  return `${[...indexes, ...seq].join(', ') || 'no scan found'}; ${time} ms`;
}

/** The plans of a call's statements, in the order sent. */
async function plansOf(db: Database, statements: RecordedQuery[]): Promise<string> {
  if (statements.length === 0) return 'no statement';
  const plans: string[] = [];
  for (const statement of statements) plans.push(await planSummary(db, statement));
  return `${statements.length} statement${statements.length === 1 ? '' : 's'}: ${plans.join(' + ')}`;
}

async function driverAndPlans(ctx: Context, reader: RecordingReadModel, scenario: Scenario, served: ServedRun) {
  // The read model's first call for this filter, then its steady state (the statements every later request sends).
  let page: SignalPage | undefined;
  const coldStatements = await reader.recordingDb.record(async () => {
    page = (await scenario.callService(reader.readModel)) as SignalPage;
  });
  const statements = await steadyStateQueries(reader.recordingDb, reader.readModel, scenario);
  await waitForQuiet();
  const driver = await runDriverFloor(statements, {
    connectionString: ctx.options.databaseUrl,
    poolSize: serverConnections(ctx.options),
    callers: ctx.options.connections,
    warmupSeconds: ctx.options.warmupSeconds,
    seconds: ctx.options.durationSeconds,
  });
  checkLoad(`scenario ${scenario.id} driver`, driver);
  console.log(`${scenario.id}. driver, steady-state statements: ${describe(driver)}`);
  const sameAsCold = JSON.stringify(coldStatements) === JSON.stringify(statements);
  const plan = [
    `steady state: ${await plansOf(ctx.db, statements)}`,
    `first call: ${sameAsCold ? 'the same statements' : await plansOf(ctx.db, coldStatements)}`,
  ].join(' — ');
  console.log(`   plan: ${plan}`);
  const serviceTotal = page!.total;
  if (served.cold.totalCount !== serviceTotal) {
    loud(`scenario ${scenario.id}: totalCount ${served.cold.totalCount} over HTTP, ${serviceTotal} from the service`);
  }
  return { serviceTotal, driver, plan };
}

// ---------- report ----------

function resultTables(results: SignalResult[]): string[] {
  return [
    '| scenario | totalCount | first request ms |',
    '|---|---:|---:|',
    ...results.map((r) => `| ${r.scenario.id}. ${r.scenario.label} | ${int(r.serviceTotal)} | ${ms(r.served.cold.ms)} |`),
    '',
    '| scenario | API req/s | p50 ms | p99 ms | driver req/s | p50 ms | p99 ms |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...results.map((r) => {
      const [a, d] = [r.served.load, r.driver];
      return (
        `| ${r.scenario.id}. ${r.scenario.label} | ${int(a.reqPerSec)} | ${ms(a.p50Ms)} | ${ms(a.p99Ms)} | ` +
        `${int(d.reqPerSec)} | ${ms(d.p50Ms)} | ${ms(d.p99Ms)} |`
      );
    }),
  ];
}

function targetTable(results: SignalResult[]): string[] {
  const rows = results.flatMap((r) => {
    const target = r.scenario.p99TargetMs;
    const name = `${r.scenario.id}. ${r.scenario.label}`;
    return [
      `| ${name}: p99 ≤ ${target} ms | ${ms(r.served.load.p99Ms)} ms | ${verdict(p99Within(r.served.load, target))} |`,
      `| ${name}: first request ≤ ${target} ms | ${ms(r.served.cold.ms)} ms | ${verdict(r.served.cold.ms <= target)} |`,
    ];
  });
  return ['| target | measured | result |', '|---|---:|---|', ...rows];
}

function failures(results: SignalResult[]): string[] {
  const out: string[] = [];
  for (const r of results) {
    for (const [name, load] of [
      ['API', r.served.load],
      ['driver', r.driver],
    ] as const) {
      if (load.requests === 0) out.push(`scenario ${r.scenario.id} ${name}: no request completed`);
      if (load.failures + load.socketErrors > 0) {
        out.push(
          `scenario ${r.scenario.id} ${name}: ${load.failures} non-2xx, ${load.socketErrors} socket errors of ${load.requests}`,
        );
      }
    }
    if (r.served.cold.status !== 200) out.push(`scenario ${r.scenario.id}: first request HTTP ${r.served.cold.status}`);
  }
  return out;
}

function render(ctx: Context, header: string[], results: SignalResult[]): string {
  const o = ctx.options;
  const warnings = failures(results);
  return [
    '## v2 signals',
    '',
    ...header,
    `- Load: ${ctx.tool}, ${o.connections} connections, ${o.warmupSeconds} s warm-up then ${o.durationSeconds} s measured; every response ` +
      `checked for 200 (wrk non-2xx); server: ${o.workers} worker processes × pool ${o.poolSize} = ${serverConnections(o)} database connections`,
    '- Full request path: Bearer key, v2 rate limit (enterprise tier, `RATE_LIMIT_ENTERPRISE=1000000`, the highest the ' +
      `configuration accepts, never reached; ${process.env.REDIS_URL ? 'Redis store' : 'in-memory store, REDIS_URL unset'}), ` +
      'query, 1 credit debited per request (account funded with 1,000,000,000 credits), usage recorded',
    '- Read path: each worker answers lists from its in-memory read model (the filter index of every dataset, built at ' +
      "start): the exact total and the page's ids from memory, then one statement, the page's documents by primary key " +
      'plus the change log head.',
    '- First request: the first request to a freshly started server for that filter (timed from the client, once).',
    `- Driver: the statements the read model sends for the request in steady state, recorded from a read model the bench ` +
      `builds over the same data, straight through \`pg\` by ${o.connections} callers over a pool of ${serverConnections(o)}.`,
    '',
    'Scenarios:',
    '',
    ...results.map((r) => `- ${r.scenario.id}. \`GET ${decodeURIComponent(r.scenario.path.replace(/\+/g, ' '))}\``),
    '',
    ...(warnings.length > 0
      ? ['**WARNING: non-2xx responses or errors (figures invalid):**', '', ...warnings.map((w) => `- ${w}`), '']
      : []),
    ...resultTables(results),
    '',
    '### Targets',
    '',
    ...targetTable(results),
    '',
    '### Plans (EXPLAIN ANALYZE, bench database)',
    '',
    ...results.map((r) => `- ${r.scenario.id}. ${r.plan}`),
    '',
  ].join('\n');
}

async function main(): Promise<void> {
  const { options, startedAt, machine, tool, db, dataset } = await prepareBench();
  try {
    const ctx: Context = { options, tool, db, apiKey: await fundedBenchKey(db) };
    const scenarios = signalScenarios(dataset.asOf);
    const served = await measureServer(ctx, scenarios);
    console.log('\n--- driver');
    // Built once the server has stopped, so it does not share the machine with the measured load.
    const reader = await openRecordingReadModel(db);
    const results: SignalResult[] = [];
    for (const [i, scenario] of scenarios.entries()) {
      const run = served[i]!;
      results.push({ scenario, served: run, ...(await driverAndPlans(ctx, reader, scenario, run)) });
    }
    const header = setupLines(startedAt, machine, await postgresVersion(db), dataset);
    const section = render(ctx, header, results);
    console.log('\n' + [...resultTables(results), '', ...targetTable(results)].join('\n'));
    writeSection('## v2 signals', section);
    const warnings = failures(results);
    if (warnings.length > 0) loud(`NON-2xx RESPONSES OR ERRORS, figures invalid:\n!! ${warnings.join('\n!! ')}`);
  } finally {
    await db.close();
  }
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) onExitStopServers(main);
