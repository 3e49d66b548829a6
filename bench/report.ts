import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import type { Dataset } from './database.js';
import type { RecordedQuery } from './driver.js';
import type { LoadTool } from './load.js';
import type { Scenario } from './scenarios.js';
import { ratio, type LoadResult } from './stats.js';

export const TARGETS = { apiOverDriver: 0.6, apiOverPlatformatic: 2.5 } as const;

export interface ScenarioResult {
  scenario: Scenario;
  /** X-Total-Count of the scenario's query. */
  matching: number;
  /** The records of the first response, to check that a peer answers with the same ones. */
  firstPage: unknown[];
  api: LoadResult;
  driver: LoadResult;
  statements: RecordedQuery[];
}

export type PlatformaticOutcome =
  | {
      ok: true;
      version: string;
      path: string;
      rows: number;
      sameRecords: boolean;
      load: LoadResult;
      comparedWith: ScenarioResult;
    }
  | { ok: false; reason: string };

export interface RunReport {
  startedAt: Date;
  machine: MachineInfo;
  /** 1-minute load average when the measurements ended. */
  loadAverageEnd: number;
  postgresVersion: string;
  dataset: Dataset;
  tool: LoadTool;
  connections: number;
  poolSize: number;
  workers: number;
  /** Where the server keeps rate-limit windows. */
  rateLimitStore: string;
  warmupSeconds: number;
  durationSeconds: number;
  scenarios: ScenarioResult[];
  platformatic: PlatformaticOutcome;
}

export interface MachineInfo {
  cpuModel: string;
  cores: number;
  ramGiB: number;
  nodeVersion: string;
  /** 1-minute load average when the run started: a hint that other work shared the cores. */
  loadAverage: number;
}

export function machineInfo(): MachineInfo {
  let cpuModel = cpus()[0]?.model ?? 'unknown';
  try {
    cpuModel = /^model name\s*:\s*(.+)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1]?.trim() ?? cpuModel;
  } catch {
    // not Linux: keep what os.cpus() says
  }
  return {
    cpuModel,
    cores: cpus().length,
    ramGiB: totalmem() / 1024 ** 3,
    nodeVersion: process.version,
    loadAverage: loadavg()[0] ?? 0,
  };
}

const int = (n: number) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en') : 'n/a');
const ms = (n: number) => (Number.isFinite(n) ? n.toFixed(2) : 'n/a');
const times = (n: number) => (Number.isFinite(n) ? `${n.toFixed(2)}×` : 'n/a');
const verdict = (pass: boolean) => (pass ? 'PASS' : '**FAIL**');

function resultsTable(report: RunReport): string {
  const lines = [
    '| scenario | API req/s | API p50 ms | API p99 ms | driver req/s | driver p50 ms | driver p99 ms | API/driver |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const r of report.scenarios) {
    lines.push(
      `| ${r.scenario.id}. ${r.scenario.label} | ${int(r.api.reqPerSec)} | ${ms(r.api.p50Ms)} | ${ms(r.api.p99Ms)} | ` +
        `${int(r.driver.reqPerSec)} | ${ms(r.driver.p50Ms)} | ${ms(r.driver.p99Ms)} | ${times(ratio(r.api.reqPerSec, r.driver.reqPerSec))} |`,
    );
  }
  return lines.join('\n');
}

function platformaticTable(outcome: PlatformaticOutcome): string {
  if (!outcome.ok) return `Platformatic DB: **not measured**: ${outcome.reason}`;
  const api = outcome.comparedWith.api;
  return [
    '| service | req/s | p50 ms | p99 ms | dealsignal / Platformatic |',
    '|---|---:|---:|---:|---:|',
    `| dealsignal, scenario ${outcome.comparedWith.scenario.id} | ${int(api.reqPerSec)} | ${ms(api.p50Ms)} | ${ms(api.p99Ms)} | |`,
    `| Platformatic DB ${outcome.version} | ${int(outcome.load.reqPerSec)} | ${ms(outcome.load.p50Ms)} | ${ms(outcome.load.p99Ms)} | ` +
      `${times(ratio(api.reqPerSec, outcome.load.reqPerSec))} |`,
  ].join('\n');
}

export interface TargetCheck {
  name: string;
  measured: string;
  pass: boolean;
}

export function checkTargets(report: RunReport): TargetCheck[] {
  const checks: TargetCheck[] = [];
  for (const r of report.scenarios) {
    checks.push({
      name: `${r.scenario.id}. ${r.scenario.label}: p99 ≤ ${r.scenario.p99TargetMs} ms`,
      measured: `${ms(r.api.p99Ms)} ms`,
      pass: r.api.p99Ms <= r.scenario.p99TargetMs,
    });
  }
  for (const r of report.scenarios) {
    const measured = ratio(r.api.reqPerSec, r.driver.reqPerSec);
    checks.push({
      name: `${r.scenario.id}. ${r.scenario.label}: API ≥ ${TARGETS.apiOverDriver}× driver`,
      measured: times(measured),
      pass: measured >= TARGETS.apiOverDriver,
    });
  }
  const p = report.platformatic;
  if (p.ok) {
    const measured = ratio(p.comparedWith.api.reqPerSec, p.load.reqPerSec);
    checks.push({
      name: `${p.comparedWith.scenario.id}. dealsignal ≥ ${TARGETS.apiOverPlatformatic}× Platformatic DB`,
      measured: times(measured),
      pass: measured >= TARGETS.apiOverPlatformatic,
    });
  } else {
    checks.push({ name: `dealsignal ≥ ${TARGETS.apiOverPlatformatic}× Platformatic DB`, measured: 'not measured', pass: false });
  }
  return checks;
}

function targetsTable(checks: TargetCheck[]): string {
  return [
    '| target | measured | result |',
    '|---|---:|---|',
    ...checks.map((c) => `| ${c.name} | ${c.measured} | ${verdict(c.pass)} |`),
  ].join('\n');
}

/** Non-2xx answers or socket errors make the figures meaningless: say so where nobody can miss it. */
export function failureWarnings(report: RunReport): string[] {
  const warnings: string[] = [];
  const check = (name: string, load: LoadResult) => {
    if (load.failures > 0 || load.socketErrors > 0) {
      warnings.push(`${name}: ${load.failures} failed responses, ${load.socketErrors} socket errors out of ${load.requests}`);
    }
  };
  for (const r of report.scenarios) {
    check(`scenario ${r.scenario.id} API`, r.api);
    check(`scenario ${r.scenario.id} driver`, r.driver);
  }
  if (report.platformatic.ok) check('Platformatic DB', report.platformatic.load);
  return warnings;
}

const dbConnections = (report: RunReport) => report.workers * report.poolSize;

const rowCountList = (counts: Record<string, number>) =>
  Object.entries(counts)
    .map(([table, n]) => `${table} ${int(n)}`)
    .join(', ');

function setupLines(report: RunReport): string[] {
  const { machine, dataset } = report;
  return [
    `- Date: ${report.startedAt.toISOString()}`,
    `- Machine: ${machine.cpuModel}, ${machine.cores} cores, ${machine.ramGiB.toFixed(1)} GiB RAM ` +
      `(1-min load average ${machine.loadAverage.toFixed(2)} at start, ${report.loadAverageEnd.toFixed(2)} at end); ` +
      'server, PostgreSQL and load generator share the cores',
    `- Node ${machine.nodeVersion}, PostgreSQL ${report.postgresVersion}`,
    `- Data set: ${int(dataset.funding)} funding rounds, ${int(dataset.ma)} M&A deals (\`seedDatabase\` large, seed 42, as of ` +
      `${dataset.asOf.toISOString().slice(0, 10)}); all rows: ${rowCountList(dataset.rowCounts)}`,
    `- Load time of the large data set (every table above, through \`seedDatabase\`): ${dataset.loadSeconds.toFixed(1)} s, ` +
      `${dataset.loadedNow ? 'in this run' : `measured when it was loaded (${dataset.loadedAt.toISOString()})`}`,
    `- Load: ${report.tool}, ${report.connections} connections, ${report.warmupSeconds} s warm-up then ${report.durationSeconds} s measured; ` +
      `server: ${report.workers} worker processes × pool ${report.poolSize} (DATABASE_POOL_SIZE) = ${dbConnections(report)} database connections; ` +
      'each worker answers lists from its in-memory read model (the filter index of every dataset, built at start)',
    `- Rate limiting on, in the request path (${report.rateLimitStore}); ` +
      'the bench account has its own v1 limit above any rate reached, so no request is refused',
    "- Driver floor: the statements the API runs per request in steady state, the read model's single statement (the page's " +
      'documents by primary key plus the change log head), recorded from a read model the bench builds over the same data and ' +
      `sent straight through \`pg\` by ${report.connections} concurrent callers in one process over a pg.Pool of ${dbConnections(report)} (the server's total)`,
  ];
}

function scenarioLines(report: RunReport): string[] {
  return report.scenarios.map((r) => `- ${r.scenario.id}. \`GET ${r.scenario.path}\` (${int(r.matching)} matching records)`);
}

function sqlBlock(title: string, statements: RecordedQuery[]): string[] {
  return [
    title,
    '',
    '```sql',
    ...statements.flatMap((s) => [s.sql.trim().replace(/^\s+/gm, '  '), `-- params: ${JSON.stringify(s.params)}`]),
    '```',
    '',
  ];
}

function statementLines(report: RunReport): string[] {
  return report.scenarios.flatMap((r) => sqlBlock(`Scenario ${r.scenario.id}, steady state:`, r.statements));
}

function platformaticLines(report: RunReport): string[] {
  const p = report.platformatic;
  if (!p.ok) return [platformaticTable(p)];
  return [
    `Closest equivalent of scenario ${p.comparedWith.scenario.id} through Platformatic DB ${p.version}'s generated REST API ` +
      `(same database, table \`funding_rounds\` only, read-only routes, one process with a pool of ${dbConnections(report)}, logger warn), returning the same ` +
      `20 documents (\`fields=doc\`) without a total count:`,
    '',
    `\`GET ${decodeURIComponent(p.path)}\``,
    '',
    `It returns ${p.rows} records, ${p.sameRecords ? 'the same records in the same order as' : '**not the same records as**'} ` +
      `the API's first page of scenario ${p.comparedWith.scenario.id}.`,
    '',
    'Category: the API matches `category_keys && ARRAY[…]`; the generated API has no overlap operator for array ' +
      "columns, so `where.categoryKeys.any` (`'fintech' = ANY(category_keys)`, the same rows for one category) is used.",
    '',
    "Both are asked for the same page again and again: dealsignal finds the total and the page's ids in its in-memory " +
      'read model and runs one statement (the documents by primary key plus the change log head); Platformatic DB runs ' +
      'its query for each request (its `db.cache` option, which only merges identical concurrent queries, is left off as by default).',
    '',
    platformaticTable(p),
  ];
}

export function renderSection(report: RunReport): string {
  const warnings = failureWarnings(report);
  return [
    '## v1 list endpoints',
    '',
    ...setupLines(report),
    '',
    'Scenarios:',
    '',
    ...scenarioLines(report),
    '',
    ...(warnings.length > 0
      ? ['**WARNING: non-2xx responses or errors (figures invalid):**', '', ...warnings.map((w) => `- ${w}`), '']
      : []),
    resultsTable(report),
    '',
    '### Platformatic DB',
    '',
    ...platformaticLines(report),
    '',
    '### Targets',
    '',
    targetsTable(checkTargets(report)),
    '',
    '### Statements measured by the driver floor',
    '',
    ...statementLines(report),
  ].join('\n');
}

const SECTION_HEADING = /^## v1\b/;

/** Replaces the v1 section (from its heading to the next level-2 heading) and keeps the rest. */
export function writeResults(file: string, section: string): void {
  const existing = existsSync(file) ? readFileSync(file, 'utf8') : '# Benchmark results\n';
  const lines = existing.replace(/\s+$/, '').split('\n');
  const start = lines.findIndex((line) => SECTION_HEADING.test(line));
  let next: string[];
  if (start === -1) {
    next = [...lines, '', section.trimEnd()];
  } else {
    const endOffset = lines.slice(start + 1).findIndex((line) => /^## /.test(line));
    const end = endOffset === -1 ? lines.length : start + 1 + endOffset;
    next = [...lines.slice(0, start), section.trimEnd(), ...(end < lines.length ? ['', ...lines.slice(end)] : [])];
  }
  writeFileSync(file, next.join('\n') + '\n');
}

export function consoleSummary(report: RunReport): string {
  const checks = checkTargets(report);
  return [resultsTable(report), '', platformaticTable(report.platformatic), '', targetsTable(checks)].join('\n');
}
