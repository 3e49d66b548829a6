// Past one machine, on engines that exist, made on this one: two instances behind HAProxy, both
// writing to the primary and reading their pages' documents from a streaming replica, sharing
// limits and credits in Redis. It shows that a record ingested through one instance is in the very
// next answer of the other (the replica never serves an older document than the index picked),
// and what two instances behind HAProxy serve against one on the realistic v1 and v2 explore mixes.
// Measures whatever data BENCH_DATABASE_URL holds (the large set: `dealsignal seed --scale large`).
//   npm run bench -- --only replicas [--duration N] [--warmup N] [--connections N] [--checks N]
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { generateFundingRecords } from '../src/demo/v1-generator.js';
import { foundData, postgresVersion, type FoundData } from './database.js';
import { liveSourceId, removeLiveRecords } from './live-ingest.js';
import { runHttpLoad } from './load.js';
import { OTHER_PARTS_OPTIONS, WORK_DIR, wholeNumber } from './options.js';
import { memoryOf, stopService, type Service } from './processes.js';
import { drawWorkloads, pathLine, type WorkloadPath } from './realistic-paths.js';
import { replicationLag, startHaproxy, startReplica, type Replica } from './replica-cluster.js';
import { replaceSection } from './results-file.js';
import {
  fundedBenchKey,
  HIGH_V2_LIMIT,
  int,
  loud,
  machineLines,
  ms,
  onExitStopServers,
  rowCountList,
  waitForQuiet,
} from './signals.js';
import { startDealsignal } from './server.js';
import { LatencyRecorder, percentile, type LoadResult } from './stats.js';
import { preparePart } from './setup.js';

const HEADING = '## Past one machine: two instances behind HAProxy, a streaming replica';
const USAGE = 'npm run bench -- --only replicas [--duration N] [--warmup N] [--connections N] [--checks N]';
const SCRIPT = fileURLToPath(new URL('./random-paths.lua', import.meta.url));
const LIST_DIR = join(WORK_DIR, 'replicas');
const ADMIN_TOKEN = randomBytes(24).toString('hex');

interface Check {
  /** Writes checked: each ingested through one instance, then read through the other. */
  writes: number;
  /** Reads that did not have the record: must be none. */
  stale: number;
  firstStale?: string;
  /** From the ingest's acknowledgement to the other instance's answer. */
  readP50Ms: number;
  readP99Ms: number;
  ackP50Ms: number;
  /** Each instance's replica reads by outcome, from its /metrics. */
  outcomes: Record<string, number>;
  lagBytesMax: number;
}

/** `dealsignal_replica_page_reads_total` of an instance, by outcome. */
async function replicaOutcomes(base: string): Promise<Record<string, number>> {
  const text = await (await fetch(`${base}/metrics`)).text();
  const outcomes: Record<string, number> = {};
  for (const [, outcome, count] of text.matchAll(/^dealsignal_replica_page_reads_total\{outcome="([a-z]+)"\} (\d+)/gm)) {
    outcomes[outcome!] = Number(count);
  }
  return outcomes;
}

/** Replica reads by outcome as the section lists them: `current 200, waited 0, primary 0`. */
const outcomeList = (outcomes: Record<string, number>) =>
  Object.entries(outcomes)
    .map(([outcome, n]) => `${outcome} ${int(n)}`)
    .join(', ');

/** A check's result on the console, and loudly when a read was stale. */
function printCheck(check: Check, when: string): void {
  console.log(
    `   ${check.stale} stale of ${check.writes}; read after the ack p50 ${ms(check.readP50Ms)} ms, p99 ${ms(check.readP99Ms)} ms; ` +
      `replica reads ${JSON.stringify(check.outcomes)}`,
  );
  if (check.stale > 0)
    loud(`${when}, ${check.stale} reads missed a record ingested through the other instance: ${check.firstStale}`);
}

const sum = (a: Record<string, number>, b: Record<string, number>) =>
  Object.fromEntries([...new Set([...Object.keys(a), ...Object.keys(b)])].map((k) => [k, (a[k] ?? 0) + (b[k] ?? 0)]));
/** Every instance's replica reads by outcome, summed. */
const replicaOutcomesOf = async (instances: Service[]) =>
  (await Promise.all(instances.map((i) => replicaOutcomes(i.baseUrl)))).reduce(sum, {});
const minus = (a: Record<string, number>, b: Record<string, number>) =>
  Object.fromEntries(Object.keys(a).map((k) => [k, (a[k] ?? 0) - (b[k] ?? 0)]));

/**
 * Ingests one funding round at a time through one instance and, once acknowledged, asks the other
 * for page 1 of the newest rounds: the round must be on it (it is dated now, so it is the newest).
 */
async function readYourWrites(instances: Service[], key: string, writes: number, replica: () => Promise<number>): Promise<Check> {
  const rounds = generateFundingRecords(Math.floor(Math.random() * 2 ** 31), writes, new Date())[Symbol.iterator]();
  const run = randomBytes(4).toString('hex');
  const reads = new LatencyRecorder();
  const acks = new LatencyRecorder();
  const before = await replicaOutcomesOf(instances);
  let stale = 0;
  let firstStale: string | undefined;
  let lagBytesMax = 0;
  for (let i = 0; i < writes; i++) {
    const writer = instances[i % 2]!;
    const reader = instances[(i + 1) % 2]!;
    const name = `Replica Check ${run} ${i}`;
    const record = { ...(rounds.next().value as object), company_name: name, date_seen: new Date().toISOString() };
    const body = `${JSON.stringify({ ...record, source_id: liveSourceId(`replicas-${run}-${i}`) })}\n`;
    const sent = performance.now();
    const ingest = await fetch(`${writer.baseUrl}/admin/ingest/funding`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/x-ndjson' },
      body,
    });
    const ingestText = await ingest.text();
    if (ingest.status !== 200)
      throw new Error(`ingest through ${writer.name}: HTTP ${ingest.status} ${ingestText.slice(0, 300)}`);
    const acked = performance.now();
    acks.add(acked - sent);
    const page = await fetch(`${reader.baseUrl}/api/v1/funding`, { headers: { 'x-lot-api-key': key } });
    const text = await page.text();
    reads.add(performance.now() - acked);
    if (page.status !== 200 || !text.includes(JSON.stringify(name))) {
      stale++;
      firstStale ??= `${reader.name} answered HTTP ${page.status} without "${name}": ${text.slice(0, 200)}`;
    }
    lagBytesMax = Math.max(lagBytesMax, await replica());
  }
  const after = await replicaOutcomesOf(instances);
  const readsSorted = reads.sorted();
  return {
    writes,
    stale,
    firstStale,
    readP50Ms: percentile(readsSorted, 50),
    readP99Ms: percentile(readsSorted, 99),
    ackP50Ms: percentile(acks.sorted(), 50),
    outcomes: minus(after, before),
    lagBytesMax,
  };
}

interface Mix {
  label: string;
  paths: WorkloadPath[];
}

interface Measured {
  layout: string;
  mix: string;
  load: LoadResult;
}

/** wrk on the mix's paths, picked at random (bench/random-paths.lua), for `seconds`. */
function loadMix(connections: number, baseUrl: string, keyFile: string, mix: Mix, seconds: number): Promise<LoadResult> {
  const listFile = join(LIST_DIR, `${mix.label.replace(/\W+/g, '-')}.txt`);
  writeFileSync(listFile, mix.paths.map(pathLine).join('\n') + '\n');
  return runHttpLoad('wrk', {
    url: `${baseUrl}/`,
    headers: {},
    connections,
    seconds,
    script: { file: SCRIPT, args: [listFile, keyFile] },
  });
}

async function measureMix(
  options: { connections: number; warmupSeconds: number; durationSeconds: number },
  baseUrl: string,
  keyFile: string,
  mix: Mix,
) {
  await waitForQuiet();
  await loadMix(options.connections, baseUrl, keyFile, mix, options.warmupSeconds);
  return loadMix(options.connections, baseUrl, keyFile, mix, options.durationSeconds);
}

const describeLoad = (load: LoadResult) =>
  `${int(load.reqPerSec)} req/s, p50 ${ms(load.p50Ms)} ms, p99 ${ms(load.p99Ms)} ms, ${load.failures + load.socketErrors} non-2xx or errors of ${int(load.requests)}`;

function dataLine(data: FoundData): string {
  const total = Object.values(data.rowCounts).reduce((a, b) => a + b, 0);
  return `- Data: ${int(total)} rows (${rowCountList(data.rowCounts)})`;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    options: { ...OTHER_PARTS_OPTIONS, checks: { type: 'string', default: '200' } },
  });
  const checks = wholeNumber('checks', values.checks, USAGE);
  const { options, startedAt, machine, db, dataset } = await preparePart(
    process.argv.slice(2).filter((a, i, all) => a !== '--checks' && all[i - 1] !== '--checks'),
    {
      workers: 1,
      data: foundData,
    },
  );
  let replica: Replica | undefined;
  const services: Service[] = [];
  try {
    mkdirSync(LIST_DIR, { recursive: true });
    await removeLiveRecords(db);
    if (!process.env.REDIS_URL)
      loud('REDIS_URL is not set: each instance keeps its own rate limits (a real deployment shares them in Redis)');
    console.log('drawing the request lists from the data...');
    const lists = await drawWorkloads(db);
    const key = await fundedBenchKey(db);
    const keyFile = join(LIST_DIR, 'key');
    writeFileSync(keyFile, key + '\n', { mode: 0o600 });

    replica = await startReplica(options.databaseUrl, db);
    console.log(
      `replica on port ${replica.port}: ${(replica.copiedBytes / 2 ** 30).toFixed(1)} GiB copied in ${replica.copySeconds.toFixed(0)} s`,
    );
    // Every instance the same settings: the primary for writes and the change log, the replica for pages' documents.
    Object.assign(process.env, { RATE_LIMIT_ENTERPRISE: HIGH_V2_LIMIT, ADMIN_TOKEN, DATABASE_REPLICA_URL: replica.url });
    const started = performance.now();
    const instances = await Promise.all(
      ['instance-1', 'instance-2'].map((name) => startDealsignal(options.databaseUrl, options.poolSize, 1, name)),
    );
    services.push(...instances);
    const readySeconds = (performance.now() - started) / 1000;
    const haproxy = await startHaproxy(instances.map((i) => i.baseUrl));
    services.push(haproxy);
    // HAProxy's first health checks.
    await new Promise((resolve) => setTimeout(resolve, 3000));

    console.log(
      `\n--- read your writes across instances: ${checks} rounds, each ingested through one instance and read through the other`,
    );
    const lag = async () => (await replicationLag(db))?.bytes ?? 0;
    const checkStarted = performance.now();
    const check = await readYourWrites(instances, key, checks, lag);
    const checkSeconds = (performance.now() - checkStarted) / 1000;
    printCheck(check, 'idle');
    // Again while the v1 explore mix loads both instances through HAProxy: replay then competes for the cores and lags.
    console.log(`\n--- the same under load (v1 explore through HAProxy meanwhile)`);
    // Long enough for the check to run slower under load (it is measured against the load's whole length).
    const loadSeconds = Math.ceil(10 * checkSeconds) + 10;
    const background = loadMix(
      options.connections,
      haproxy.baseUrl,
      keyFile,
      { label: 'v1 explore', paths: lists.v1Explore },
      loadSeconds,
    );
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const underLoadStarted = performance.now();
    const underLoad = await readYourWrites(instances, key, checks, lag);
    const underLoadSeconds = (performance.now() - underLoadStarted) / 1000;
    const backgroundLoad = await background;
    if (underLoadSeconds + 1 > loadSeconds)
      loud(`the check under load took ${underLoadSeconds.toFixed(0)} s, longer than the load (${loadSeconds} s)`);
    printCheck(underLoad, 'under load');

    const mixes: Mix[] = [
      { label: 'v1 explore', paths: lists.v1Explore },
      { label: 'v2 explore', paths: lists.v2Explore },
    ];
    const measured: Measured[] = [];
    const layouts: [string, string][] = [
      ['one instance (direct)', instances[0]!.baseUrl],
      ['two instances behind HAProxy', haproxy.baseUrl],
    ];
    for (const mix of mixes) {
      for (const [layout, base] of layouts) {
        console.log(`\n--- ${mix.label}, ${layout}`);
        const load = await measureMix(options, base, keyFile, mix);
        console.log(`   ${describeLoad(load)}`);
        if (load.failures + load.socketErrors > 0)
          loud(`${mix.label}, ${layout}: ${load.failures + load.socketErrors} non-2xx or errors`);
        measured.push({ layout, mix: mix.label, load });
      }
    }
    const outcomesAfter = await replicaOutcomesOf(instances);
    const memory = instances.map((i) => memoryOf(i.child.pid)?.rssMb ?? Number.NaN);

    const rows = measured.map(
      (m) =>
        `| ${m.mix} | ${m.layout} | ${int(m.load.reqPerSec)} | ${ms(m.load.p50Ms)} | ${ms(m.load.p99Ms)} | ${m.load.failures + m.load.socketErrors} |`,
    );
    const ratioOf = (mix: string) => {
      const [one, two] = layouts.map(([layout]) => measured.find((m) => m.mix === mix && m.layout === layout)!.load.reqPerSec);
      return `${(two! / one!).toFixed(2)}×`;
    };
    const section = [
      HEADING,
      '',
      ...machineLines(startedAt, machine, await postgresVersion(db)),
      dataLine(dataset),
      `- Layout: the primary (PostgreSQL on 5432), a streaming replica made by \`pg_basebackup -X stream -R -C\` on port ${replica.port} ` +
        `(${(replica.copiedBytes / 2 ** 30).toFixed(1)} GiB copied in ${replica.copySeconds.toFixed(0)} s), two \`dealsignal serve --workers 1\` ` +
        `instances (DATABASE_URL the primary, DATABASE_REPLICA_URL the replica, REDIS_URL ${process.env.REDIS_URL ? 'shared' : '**unset**'}), ` +
        `HAProxy round robin with a /readyz check; everything on this one machine`,
      `- Both instances ready (listening) ${readySeconds.toFixed(0)} s after start, built at once; RSS after the run ${memory.map((m) => `${int(m)} MiB`).join(' and ')}`,
      '',
      `**Read your writes across instances**: ${check.writes} funding rounds, each ingested through one instance (admin API) and, once acknowledged, ` +
        `page 1 of \`/api/v1/funding\` asked of the other: **${check.stale} stale** answers. Acknowledgement p50 ${ms(check.ackP50Ms)} ms; the other ` +
        `instance's answer p50 ${ms(check.readP50Ms)} ms, p99 ${ms(check.readP99Ms)} ms. Replica reads of those pages: ` +
        `${outcomeList(check.outcomes)} (current: the replica had replayed up to the index's position; waited: it caught up within REPLICA_WAIT_MS; ` +
        `primary: read from the primary after the wait). Largest replay lag seen after a read: ${int(check.lagBytesMax)} bytes of WAL.`,
      '',
      `**The same while the v1 explore mix loads both instances through HAProxy** (${describeLoad(backgroundLoad)} over ${loadSeconds} s): ` +
        `**${underLoad.stale} stale** of ${underLoad.writes}; acknowledgement p50 ${ms(underLoad.ackP50Ms)} ms; the other instance's answer p50 ` +
        `${ms(underLoad.readP50Ms)} ms, p99 ${ms(underLoad.readP99Ms)} ms; replica reads meanwhile (the load's pages included) ${outcomeList(underLoad.outcomes)}; largest replay lag seen ${int(underLoad.lagBytesMax)} bytes.`,
      '',
      `**Throughput**: ${int(lists.v1Explore.length)} v1 explore and ${int(lists.v2Explore.length)} v2 explore paths drawn from the data (bench/realistic.ts's lists), ` +
        `wrk ${options.connections} connections, ${options.warmupSeconds} s warm-up then ${options.durationSeconds} s measured per row, idle (no ingest):`,
      '',
      '| mix | layout | req/s | p50 ms | p99 ms | non-2xx + errors |',
      '|---|---|---:|---:|---:|---:|',
      ...rows,
      '',
      `Two instances against one: v1 explore ${ratioOf('v1 explore')}, v2 explore ${ratioOf('v2 explore')}. ` +
        'On one 2-core machine the two instances, HAProxy, wrk and both PostgreSQL clusters share the same two cores, so this shows the layout works ' +
        'and what it costs, not what a second machine adds. Replica reads over the whole run: ' +
        `${outcomeList(outcomesAfter)}.`,
      '',
    ].join('\n');
    console.log(`\n${section}`);
    replaceSection(HEADING, section);
  } finally {
    for (const service of services.reverse()) await stopService(service);
    await replica?.stop();
    const removed = await removeLiveRecords(db);
    console.log(`removed the ${removed.funding} funding rounds ingested by the run`);
    await db.close();
  }
}

onExitStopServers(main);
