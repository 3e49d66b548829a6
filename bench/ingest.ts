// Ingest throughput: synthetic funding rounds, job changes and job postings written to NDJSON files, then
// imported into PostgreSQL (a schema of its own, dropped afterwards) through the same service
// as `dealsignal import`, from an empty store and again with the companies the files name imported
// first. Reports records a second for a first import and for a re-import of
// the same file (every record unchanged), and the peak RSS while ingesting the ~100 MB file.
//
//   node --import tsx bench/ingest.ts [--funding N] [--job-changes N] [--hiring N] [--batch-rows N]
import { closeSync, createReadStream, mkdtempSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { replaceSection } from './results-file.js';
import { fileURLToPath } from 'node:url';
import { migrate } from '../src/platform/db/migrate.js';
import { openPostgres } from '../src/platform/db/postgres.js';
import type { Database } from '../src/platform/db/port.js';
import { generateFundingRecords } from '../src/demo/v1-generator.js';
import { generateJobChanges } from '../src/demo/v2-generator.js';
import { generateHiringPostings } from '../src/demo/hiring-generator.js';
import { generateCompanies } from '../src/demo/company-generator.js';
import { companyPopulation } from '../src/demo/company-population.js';
import { ingest, type IngestKind, type IngestReport } from '../src/ingest/importer.js';
import { ensureDatabase } from './database.js';

export interface IngestBenchOptions {
  /** PostgreSQL database to use (created when missing); the bench works in its own schema. */
  databaseUrl?: string;
  schema?: string;
  /** Funding rounds in the funding file (~3 KB each: 34,000 make ~100 MB). */
  fundingRecords?: number;
  /** Job changes in the job-change file (~430 bytes each). */
  jobChanges?: number;
  /** Job postings in the hiring file (~7 KB each, a description of 300 to 1,500 words). */
  hiringPostings?: number;
  seed?: number;
  /** Rows per statement (default: the service's per-kind default). */
  batchRows?: number;
  log?: (line: string) => void;
}

export interface IngestRun {
  kind: IngestKind;
  records: number;
  fileBytes: number;
  seconds: number;
  recordsPerSecond: number;
  megabytesPerSecond: number;
  /** RSS before the import (after generating the files) and the highest seen while importing. */
  baselineRssMb: number;
  peakRssMb: number;
  /**
   * CPU time per record, this process and the PostgreSQL backend serving the import (when the
   * server runs on this machine): what the throughput would be without other load is about
   * one over the larger of the two, since they run on different cores at the same time.
   */
  nodeCpuMicrosPerRecord: number;
  postgresCpuMicrosPerRecord: number | undefined;
  report: Pick<IngestReport, 'received' | 'inserted' | 'updated' | 'unchanged' | 'rejected' | 'committed'>;
}

export interface IngestBenchResult {
  machine: { cpus: number; cpuModel: string; node: string; postgres: string; loadAverage: string };
  funding: { first: IngestRun; again: IngestRun };
  jobChanges: { first: IngestRun; again: IngestRun };
  hiring: { first: IngestRun; again: IngestRun };
  /** The same files into a store that holds their companies (imported first, as a vendor's companies dataset). */
  known: { companies: IngestRun; funding: IngestRun; jobChanges: IngestRun; hiring: IngestRun };
  targets: { fundingPerSecond: number; jobChangesPerSecond: number; hiringPerSecond: number };
}

export const DEFAULT_BENCH_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/dealsignal_bench';
const TARGETS = { fundingPerSecond: 20_000, jobChangesPerSecond: 50_000, hiringPerSecond: 10_000 };
const AS_OF = new Date('2026-01-01T00:00:00Z');
/** Companies the funding rounds and job changes are about (previous employers come from a pool of their own). */
const POPULATION = 20_000;
const MB = 1024 * 1024;

/** Writes generated records as NDJSON without holding them: a few hundred lines at a time. */
function writeNdjson(path: string, records: Iterable<unknown>): { records: number; bytes: number } {
  const fd = openSync(path, 'w');
  let count = 0;
  let lines: string[] = [];
  try {
    for (const record of records) {
      lines.push(JSON.stringify(record));
      count++;
      if (lines.length === 500) {
        writeSync(fd, lines.join('\n') + '\n');
        lines = [];
      }
    }
    if (lines.length > 0) writeSync(fd, lines.join('\n') + '\n');
  } finally {
    closeSync(fd);
  }
  return { records: count, bytes: statSync(path).size };
}

const CLOCK_TICKS_PER_SECOND = 100;

/** CPU time (user + system) of a local process in ms, from /proc; undefined elsewhere. */
function processCpuMs(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

async function measure(
  db: Database,
  kind: IngestKind,
  path: string,
  records: number,
  batchRows: number | undefined,
): Promise<IngestRun> {
  (globalThis as { gc?: () => void }).gc?.();
  // The bench pool has one connection: the import's transaction runs on this backend.
  const backend = (await db.query<{ pid: number }>('SELECT pg_backend_pid() AS pid'))[0]?.pid;
  const postgresCpuBefore = processCpuMs(backend);
  const nodeCpuBefore = process.cpuUsage();
  const baseline = process.memoryUsage().rss;
  let peak = baseline;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 50);
  const started = performance.now();
  let report: IngestReport;
  try {
    report = await ingest(db, kind, createReadStream(path, { highWaterMark: MB }), { skipInvalid: false, batchRows });
  } finally {
    clearInterval(sampler);
  }
  const seconds = (performance.now() - started) / 1000;
  const nodeCpu = process.cpuUsage(nodeCpuBefore);
  const postgresCpuAfter = processCpuMs(backend);
  peak = Math.max(peak, process.memoryUsage().rss);
  const fileBytes = statSync(path).size;
  if (!report.committed || report.received !== records) {
    throw new Error(
      `${kind} import did not take the whole file: ${JSON.stringify({ ...report, rejects: report.rejects.slice(0, 5) })}`,
    );
  }
  return {
    kind,
    records,
    fileBytes,
    seconds,
    recordsPerSecond: records / seconds,
    megabytesPerSecond: fileBytes / MB / seconds,
    baselineRssMb: baseline / MB,
    peakRssMb: peak / MB,
    nodeCpuMicrosPerRecord: ((nodeCpu.user + nodeCpu.system) / records) * 1,
    postgresCpuMicrosPerRecord:
      postgresCpuBefore === undefined || postgresCpuAfter === undefined
        ? undefined
        : ((postgresCpuAfter - postgresCpuBefore) * 1000) / records,
    report: {
      received: report.received,
      inserted: report.inserted,
      updated: report.updated,
      unchanged: report.unchanged,
      rejected: report.rejected,
      committed: report.committed,
    },
  };
}

/** Runs the ingest benchmark and returns its figures (the main bench runner can call it). */
export async function runIngestBench(options: IngestBenchOptions = {}): Promise<IngestBenchResult> {
  const log = options.log ?? ((line: string) => console.log(line));
  const databaseUrl = options.databaseUrl ?? DEFAULT_BENCH_DATABASE_URL;
  const schema = options.schema ?? 'ingest_bench';
  if (!/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`schema name ${JSON.stringify(schema)} is not a plain identifier`);
  const fundingCount = options.fundingRecords ?? 34_000;
  const jobCount = options.jobChanges ?? 250_000;
  const hiringCount = options.hiringPostings ?? 20_000;
  const seed = options.seed ?? 42;

  const dir = mkdtempSync(join(tmpdir(), 'dealsignal-ingest-bench-'));
  let db: Database | undefined;
  try {
    log(
      `generating ${fundingCount.toLocaleString('en')} funding rounds, ${jobCount.toLocaleString('en')} job changes ` +
        `and ${hiringCount.toLocaleString('en')} job postings...`,
    );
    const fundingFile = join(dir, 'funding.ndjson');
    const jobsFile = join(dir, 'job-changes.ndjson');
    const hiringFile = join(dir, 'hiring.ndjson');
    const population = companyPopulation(seed, POPULATION, AS_OF);
    const companiesFile = join(dir, 'companies.ndjson');
    const companyFile = writeNdjson(companiesFile, generateCompanies(seed, POPULATION, AS_OF));
    const funding = writeNdjson(fundingFile, generateFundingRecords(seed, fundingCount, AS_OF, population));
    const jobs = writeNdjson(jobsFile, generateJobChanges(seed + 3, jobCount, AS_OF, population));
    const hiring = writeNdjson(hiringFile, generateHiringPostings(seed + 5, hiringCount, AS_OF, population));
    log(
      `  funding.ndjson ${(funding.bytes / MB).toFixed(1)} MB, job-changes.ndjson ${(jobs.bytes / MB).toFixed(1)} MB, ` +
        `hiring.ndjson ${(hiring.bytes / MB).toFixed(1)} MB`,
    );

    await ensureDatabase(databaseUrl);
    const admin = await openPostgres({ connectionString: databaseUrl, poolSize: 1 });
    try {
      await admin.exec(`DROP SCHEMA IF EXISTS ${schema} CASCADE; CREATE SCHEMA ${schema}`);
    } finally {
      await admin.close();
    }
    db = await openPostgres({ connectionString: databaseUrl, poolSize: 1, schema });
    await migrate(db);
    const loadAverage = loadavg()
      .map((n) => n.toFixed(2))
      .join(' ');
    const version = (await db.query<{ v: string }>("SELECT current_setting('server_version') AS v"))[0]?.v ?? 'unknown';

    log('importing funding (first import, then the same file again)...');
    const fundingFirst = await measure(db, 'funding', fundingFile, funding.records, options.batchRows);
    const fundingAgain = await measure(db, 'funding', fundingFile, funding.records, options.batchRows);
    log('importing job changes (first import, then the same file again)...');
    const jobsFirst = await measure(db, 'job-changes', jobsFile, jobs.records, options.batchRows);
    const jobsAgain = await measure(db, 'job-changes', jobsFile, jobs.records, options.batchRows);
    log('importing job postings (first import, then the same file again)...');
    const hiringFirst = await measure(db, 'hiring', hiringFile, hiring.records, options.batchRows);
    const hiringAgain = await measure(db, 'hiring', hiringFile, hiring.records, options.batchRows);

    log('again into an empty store, its companies imported first (the companies, then funding, then job changes)...');
    await db.exec(`DROP SCHEMA ${schema} CASCADE; CREATE SCHEMA ${schema}`);
    await migrate(db);
    const known = {
      companies: await measure(db, 'companies', companiesFile, companyFile.records, options.batchRows),
      funding: await measure(db, 'funding', fundingFile, funding.records, options.batchRows),
      jobChanges: await measure(db, 'job-changes', jobsFile, jobs.records, options.batchRows),
      hiring: await measure(db, 'hiring', hiringFile, hiring.records, options.batchRows),
    };

    return {
      machine: {
        cpus: cpus().length,
        cpuModel: cpus()[0]?.model ?? 'unknown',
        node: process.version,
        postgres: version,
        loadAverage,
      },
      funding: { first: fundingFirst, again: fundingAgain },
      jobChanges: { first: jobsFirst, again: jobsAgain },
      hiring: { first: hiringFirst, again: hiringAgain },
      known,
      targets: TARGETS,
    };
  } finally {
    if (db) {
      await db.exec(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).catch(() => undefined);
      await db.close();
    }
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The figures as a Markdown table. */
export function renderIngestBench(result: IngestBenchResult): string {
  const row = (label: string, run: IngestRun, target?: number) =>
    `| ${label} | ${run.records.toLocaleString('en')} | ${(run.fileBytes / MB).toFixed(1)} MB | ${run.seconds.toFixed(2)} s | ` +
    `${Math.round(run.recordsPerSecond).toLocaleString('en')}${target ? (run.recordsPerSecond >= target ? ' ✓' : ` ✗ (target ${target.toLocaleString('en')})`) : ''} | ` +
    `${run.megabytesPerSecond.toFixed(1)} | ${run.peakRssMb.toFixed(0)} MB (from ${run.baselineRssMb.toFixed(0)} MB) | ` +
    `${run.nodeCpuMicrosPerRecord.toFixed(0)} µs | ${run.postgresCpuMicrosPerRecord === undefined ? 'n/a' : `${run.postgresCpuMicrosPerRecord.toFixed(0)} µs`} |`;
  const m = result.machine;
  return [
    `Ingest into PostgreSQL ${m.postgres}, Node ${m.node}, ${m.cpus} × ${m.cpuModel} (load average ${m.loadAverage} at start); ` +
      'one transaction per import, NDJSON files streamed from disk. The funding rounds and job changes are about ' +
      `${POPULATION.toLocaleString('en')} companies (job changes' previous employers come from a pool of their own). ` +
      'The first six rows start from an empty store: resolution makes every company the records name; the last ' +
      'four import those companies first, as a vendor with a companies dataset does. A job posting is written with ' +
      'the words of its description (migration 023), which PostgreSQL parses as the row is written.',
    '',
    '| Import | Records | File | Time | Records/s | MB/s | Peak RSS | Node CPU/record | PostgreSQL CPU/record |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
    row('funding, first import', result.funding.first, result.targets.fundingPerSecond),
    row('funding, same file again (all unchanged)', result.funding.again),
    row('job changes, first import', result.jobChanges.first, result.targets.jobChangesPerSecond),
    row('job changes, same file again (all unchanged)', result.jobChanges.again),
    row('job postings, first import', result.hiring.first, result.targets.hiringPerSecond),
    row('job postings, same file again (all unchanged)', result.hiring.again),
    row('companies (the ones the files name), into an empty store', result.known.companies),
    row('funding, first import, its companies imported before', result.known.funding, result.targets.fundingPerSecond),
    row(
      'job changes, first import, their companies imported before',
      result.known.jobChanges,
      result.targets.jobChangesPerSecond,
    ),
    row('job postings, first import, their companies imported before', result.known.hiring, result.targets.hiringPerSecond),
  ].join('\n');
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      funding: { type: 'string' },
      'job-changes': { type: 'string' },
      hiring: { type: 'string' },
      'batch-rows': { type: 'string' },
      json: { type: 'boolean', default: false },
    },
  });
  const count = (name: string, raw: string | undefined) => {
    if (raw === undefined) return undefined;
    if (!/^\d+$/.test(raw) || Number(raw) < 1) throw new Error(`--${name} must be a whole number >= 1`);
    return Number(raw);
  };
  const result = await runIngestBench({
    databaseUrl: process.env.BENCH_DATABASE_URL?.trim() || DEFAULT_BENCH_DATABASE_URL,
    fundingRecords: count('funding', values.funding),
    jobChanges: count('job-changes', values['job-changes']),
    hiringPostings: count('hiring', values.hiring),
    batchRows: count('batch-rows', values['batch-rows']),
    log: values.json ? () => undefined : (line) => console.log(line),
  });
  const rendered = renderIngestBench(result);
  console.log(values.json ? JSON.stringify(result, null, 2) : `\n${rendered}`);
  replaceSection('## Ingest', `## Ingest\n\n- Date: ${new Date().toISOString()}\n\n${rendered}`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch((err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exitCode = 1;
  });
}
