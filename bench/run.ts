import { loadavg } from 'node:os';
import type { Database } from '../src/platform/db/port.js';
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
import { ensurePlatformatic, platformaticFilteredPath, startPlatformatic } from './platformatic.js';
import { killServicesSync, stopAllServices, stopService, type Service } from './processes.js';
import {
  consoleSummary,
  failureWarnings,
  renderSection,
  writeResults,
  type PlatformaticOutcome,
  type RunReport,
  type ScenarioResult,
} from './report.js';
import { buildScenarios, filteredFundingQuery, type Scenario } from './scenarios.js';
import type { LoadResult } from './stats.js';
import { startDealsignal } from './server.js';
import { prepareBench } from './setup.js';

interface Context {
  options: BenchOptions;
  tool: LoadTool;
  db: Database;
  /** Records each scenario's steady-state statements, built once for the run. */
  reader: RecordingReadModel;
}

const describe = (load: LoadResult) =>
  `${Math.round(load.reqPerSec).toLocaleString('en')} req/s, p50 ${load.p50Ms.toFixed(2)} ms, p99 ${load.p99Ms.toFixed(2)} ms`;

function loud(message: string): void {
  console.error(`\n!!!!!!!!!!\n!! ${message}\n!!!!!!!!!!\n`);
}

/** One request before the load: the status and the total say whether the scenario measures what it claims. */
async function preflight(url: string, headers: Record<string, string>): Promise<{ status: number; total: number; body: string }> {
  const response = await fetch(url, { headers });
  const body = await response.text();
  return { status: response.status, total: Number(response.headers.get('x-total-count') ?? Number.NaN), body };
}

/** A warm-up run whose figures are dropped, then the measured run. */
async function loadWithWarmup(ctx: Context, url: string, headers: Record<string, string>): Promise<LoadResult> {
  const load = { url, headers, connections: ctx.options.connections };
  await runHttpLoad(ctx.tool, { ...load, seconds: ctx.options.warmupSeconds });
  return runHttpLoad(ctx.tool, { ...load, seconds: ctx.options.durationSeconds });
}

/** The scenario's first page as the load will see it; a refusal is shouted, not hidden. */
async function firstPage(
  url: string,
  headers: Record<string, string>,
  scenario: Scenario,
): Promise<{ total: number; records: unknown[] }> {
  const check = await preflight(url, headers);
  if (check.status !== 200) {
    loud(`scenario ${scenario.id} answers HTTP ${check.status}: ${check.body.slice(0, 300)}`);
    return { total: Number.NaN, records: [] };
  }
  console.log(`   ${check.total.toLocaleString('en')} matching records`);
  return { total: check.total, records: (JSON.parse(check.body) as { response: { data: unknown[] } }).response.data };
}

async function driverFloor(ctx: Context, statements: RecordedQuery[]): Promise<LoadResult> {
  return runDriverFloor(statements, {
    connectionString: ctx.options.databaseUrl,
    poolSize: serverConnections(ctx.options),
    callers: ctx.options.connections,
    warmupSeconds: ctx.options.warmupSeconds,
    seconds: ctx.options.durationSeconds,
  });
}

async function measureScenario(ctx: Context, server: Service, apiKey: string, scenario: Scenario): Promise<ScenarioResult> {
  const url = server.baseUrl + scenario.path;
  const headers = { 'x-lot-api-key': apiKey };
  console.log(`\n${scenario.id}. ${scenario.label}: GET ${scenario.path}`);
  const page = await firstPage(url, headers, scenario);

  const api = await loadWithWarmup(ctx, url, headers);
  console.log(`   API:    ${describe(api)}`);
  if (api.failures > 0 || api.socketErrors > 0) {
    loud(`scenario ${scenario.id}: ${api.failures} non-2xx responses and ${api.socketErrors} socket errors`);
  }

  const statements = await steadyStateQueries(ctx.reader.recordingDb, ctx.reader.readModel, scenario);
  const driver = await driverFloor(ctx, statements);
  console.log(`   driver: ${describe(driver)}`);
  return { scenario, matching: page.total, firstPage: page.records, api, driver, statements };
}

async function measureApi(ctx: Context, scenarios: Scenario[]): Promise<ScenarioResult[]> {
  const apiKey = await createBenchKey(ctx.db);
  const server = await startDealsignal(ctx.options.databaseUrl, ctx.options.poolSize, ctx.options.workers);
  try {
    const results: ScenarioResult[] = [];
    for (const scenario of scenarios) results.push(await measureScenario(ctx, server, apiKey, scenario));
    return results;
  } finally {
    await stopService(server);
  }
}

async function measurePlatformatic(ctx: Context, dataset: Dataset, comparedWith: ScenarioResult): Promise<PlatformaticOutcome> {
  console.log('\nPlatformatic DB comparison');
  let version: string;
  let service: Service;
  try {
    version = ensurePlatformatic();
    service = await startPlatformatic(version, ctx.options.databaseUrl, serverConnections(ctx.options));
  } catch (err) {
    const reason = `could not be installed or started: ${err instanceof Error ? err.message : String(err)}`;
    loud(`Platformatic DB ${reason}`);
    return { ok: false, reason };
  }
  try {
    const path = platformaticFilteredPath(filteredFundingQuery(dataset.asOf));
    console.log(`   GET ${decodeURIComponent(path)}`);
    const check = await preflight(service.baseUrl + path, {});
    if (check.status !== 200) {
      const reason = `the query was refused (HTTP ${check.status}): ${check.body.slice(0, 300)}`;
      loud(`Platformatic DB: ${reason}`);
      return { ok: false, reason };
    }
    const docs = (JSON.parse(check.body) as { doc: string }[]).map((row) => JSON.parse(row.doc) as unknown);
    const sameRecords = JSON.stringify(docs) === JSON.stringify(comparedWith.firstPage);
    if (!sameRecords) {
      loud('Platformatic DB returns other records than the API for this query: the comparison is not like for like');
    }
    const load = await loadWithWarmup(ctx, service.baseUrl + path, {});
    console.log(`   Platformatic DB ${version}: ${describe(load)}`);
    return { ok: true, version, path, rows: docs.length, sameRecords, load, comparedWith };
  } finally {
    await stopService(service);
  }
}

async function platformaticOutcome(ctx: Context, dataset: Dataset, results: ScenarioResult[]): Promise<PlatformaticOutcome> {
  if (ctx.options.skipPlatformatic) return { ok: false, reason: 'skipped (--skip-platformatic)' };
  const filtered = results.find((r) => r.scenario.id === 'b');
  if (!filtered) return { ok: false, reason: 'scenario b was not measured' };
  return measurePlatformatic(ctx, dataset, filtered);
}

function publish(report: RunReport): void {
  console.log('\n' + consoleSummary(report));
  writeResults(RESULTS_FILE, renderSection(report));
  console.log(`\nwritten to ${RESULTS_FILE}`);
  const warnings = failureWarnings(report);
  if (warnings.length > 0) loud(`NON-2xx RESPONSES OR ERRORS, figures invalid:\n!! ${warnings.join('\n!! ')}`);
}

async function main(): Promise<void> {
  const { options, startedAt, machine, tool, db, dataset } = await prepareBench();
  try {
    const ctx: Context = { options, tool, db, reader: await openRecordingReadModel(db) };
    const scenarios = await measureApi(ctx, buildScenarios(dataset.asOf));
    const platformatic = await platformaticOutcome(ctx, dataset, scenarios);
    publish({
      startedAt,
      machine,
      loadAverageEnd: loadavg()[0] ?? 0,
      postgresVersion: await postgresVersion(db),
      dataset,
      tool,
      connections: options.connections,
      poolSize: options.poolSize,
      workers: options.workers,
      // The server inherits this environment.
      rateLimitStore: process.env.REDIS_URL ? 'Redis store, REDIS_URL' : 'in-memory store: REDIS_URL unset',
      warmupSeconds: options.warmupSeconds,
      durationSeconds: options.durationSeconds,
      scenarios,
      platformatic,
    });
  } finally {
    await db.close();
  }
}

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
