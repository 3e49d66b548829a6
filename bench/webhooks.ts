// Webhook delivery: 100 webhooks (10 accounts × 10, the per-account limit) created through the API,
// all pointed at one local receiver, on a fresh database with the small demo data set (webhooks are
// about new records, not the size of the tables). Three workloads on one server:
//   1. latency: 10 funding rounds a second through POST /admin/ingest/funding, half of them matching
//      every webhook's filter: from each upload's acknowledgement to each delivery's arrival;
//   2. saturation: one upload of --burst matching records (100 × burst deliveries queued at once),
//      deliveries a second until the queue is drained, with the server's CPU and memory;
//   3. outage: the receiver's port refusing connections for --outage-seconds while a matching
//      record arrives every second, then back on the same port: how long until every event is in,
//      events lost, events sent again after the receiver had answered 2xx.
//
//   npm run bench -- --only webhooks [--outage-seconds 300] [--latency-seconds 60] [--burst 200] [--workers N]
//
// The receiver runs in this process (its own load is reported). Environment: BENCH_WEBHOOKS_DATABASE_URL
// (default: BENCH_DATABASE_URL's server, database <name>_webhooks), dropped and created afresh at every
// run and left in place afterwards for inspection; WEBHOOK_* variables are passed on to the server.
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config.js';
import { adjustCredits } from '../src/accounts/credit-queries.js';
import { migrate } from '../src/platform/db/migrate.js';
import { openPostgres } from '../src/platform/db/postgres.js';
import type { Database } from '../src/platform/db/port.js';
import { generateFundingRecords } from '../src/demo/v1-generator.js';
import { createApiKey } from '../src/accounts/api-keys.js';
import { seedDatabase, startOfTodayUtc } from '../src/demo/seed.js';
import { countDatasetRows } from '../src/ingest/index.js';
import { postgresVersion } from './database.js';
import { freshDatabase } from './postgres-admin.js';
import { memoryOf, freePort, stopService, type Service } from './processes.js';
import { machineInfo, type MachineInfo } from './report.js';
import { replaceSection } from './results-file.js';
import { OTHER_PARTS_OPTIONS, wholeNumber } from './options.js';
import { buildProject, startDealsignal } from './server.js';
import { HIGH_V2_LIMIT, int, loud, machineLines, onExitStopServers, verdict, waitForQuiet } from './signals.js';
import { percentile } from './stats.js';
import { cpuSnapshot, cpuSpent, processTree, WebhookReceiver } from './webhook-receiver.js';

const HEADING = '## Webhooks';
const ACCOUNTS = 10;
const HOOKS_PER_ACCOUNT = 10;
const HOOKS = ACCOUNTS * HOOKS_PER_ACCOUNT;
/** Records a second in the latency workload, one upload each; every other one matches. */
const LIVE_RATE = 10;
/** Records a second while the receiver is down; every one matches. */
const OUTAGE_RATE = 1;
const WARMUP_SECONDS = 3;
const TARGETS = { latencyP99Ms: 2000, deliveriesPerSecond: 500 } as const;
/** Every webhook's filter; a record matches when its company is based there. */
const FILTERS = { countries: 'US' };
const MATCHING_COUNTRY = 'United States';
const OTHER_COUNTRY = 'Germany';
const CREDITS = 1_000_000_000;
const ADMIN_TOKEN = randomBytes(24).toString('hex');
const DEFAULT_BENCH_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/dealsignal_bench';

const USAGE = `Usage: npm run bench -- --only webhooks [--outage-seconds N] [--latency-seconds N] [--burst N] [--workers N]

--outage-seconds  how long the receiver refuses connections in the outage workload (default 300)
--latency-seconds how long records arrive in the latency workload (default 60)
--burst           records in the one upload of the saturation workload (default 200: 20,000 deliveries)
--workers         server worker processes (default: one per core, the server's own default on PostgreSQL)
Environment: BENCH_WEBHOOKS_DATABASE_URL (dropped and created afresh), WEBHOOK_* passed on to the server.`;

interface Options {
  databaseUrl: string;
  outageSeconds: number;
  latencySeconds: number;
  burst: number;
  workers: number;
  poolSize: number;
}

function parseOptions(argv: string[]): Options {
  const { values } = parseArgs({
    args: argv,
    options: {
      ...OTHER_PARTS_OPTIONS,
      'outage-seconds': { type: 'string', default: '300' },
      'latency-seconds': { type: 'string', default: '60' },
      burst: { type: 'string', default: '200' },
      workers: { type: 'string', default: String(availableParallelism()) },
    },
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const count = (name: string, raw: string, min = 1) => wholeNumber(name, raw, USAGE, min);
  return {
    databaseUrl: process.env.BENCH_WEBHOOKS_DATABASE_URL?.trim() || webhooksDatabaseUrl(),
    outageSeconds: count('outage-seconds', values['outage-seconds']),
    latencySeconds: count('latency-seconds', values['latency-seconds']),
    burst: count('burst', values.burst),
    workers: count('workers', values.workers),
    poolSize: loadConfig({ DATABASE_POOL_SIZE: process.env.DATABASE_POOL_SIZE }).databasePoolSize,
  };
}

/** The bench database's server, a database of this part's own. */
function webhooksDatabaseUrl(): string {
  const url = new URL(process.env.BENCH_DATABASE_URL?.trim() || DEFAULT_BENCH_DATABASE_URL);
  url.pathname = `/${decodeURIComponent(url.pathname.replace(/^\//, '')) || 'dealsignal_bench'}_webhooks`;
  return url.toString();
}

/** The server's webhook settings as it reads them from the same environment. */
function webhookSettings() {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => name.startsWith('WEBHOOK_')));
  return loadConfig(env).webhooks;
}

// ---------- setup ----------

interface Setup {
  db: Database;
  rowCounts: Record<string, number>;
  keys: string[];
}

async function prepareDatabase(databaseUrl: string): Promise<Setup> {
  console.log(`creating a fresh database (${new URL(databaseUrl).pathname.slice(1)}) with the demo data set...`);
  await freshDatabase(databaseUrl, 'BENCH_WEBHOOKS_DATABASE_URL');
  const db = await openPostgres({ connectionString: databaseUrl, poolSize: 2 });
  try {
    await migrate(db);
    await seedDatabase(db, { scale: 'demo', seed: 42, asOf: startOfTodayUtc() });
    const rowCounts: Record<string, number> = { ...(await countDatasetRows(db)) };
    const keys: string[] = [];
    for (let a = 0; a < ACCOUNTS; a++) {
      const created = await createApiKey(db, {
        email: `bench-webhooks-${a}@dealsignal.local`,
        tier: 'enterprise',
        name: 'bench',
      });
      // Every delivery costs a credit: far more than the run spends, so none waits for a refill.
      if ((await adjustCredits(db, created.accountId, { set: CREDITS })) === undefined)
        throw new Error(`no account ${created.email}`);
      keys.push(created.key);
    }
    return { db, rowCounts, keys };
  } catch (err) {
    await db.close();
    throw err;
  }
}

async function startServer(options: Options): Promise<Service> {
  const env: Record<string, string> = {
    ADMIN_TOKEN,
    // The receiver is on loopback, which a webhook may target only when the operator allows it.
    WEBHOOK_ALLOWED_NETWORKS: process.env.WEBHOOK_ALLOWED_NETWORKS || '127.0.0.0/8',
    // Webhook management counts against the v2 limit; 100 creations in a minute are far below it anyway.
    RATE_LIMIT_ENTERPRISE: HIGH_V2_LIMIT,
  };
  const saved = Object.fromEntries(Object.keys(env).map((name) => [name, process.env[name]]));
  Object.assign(process.env, env);
  try {
    return await startDealsignal(options.databaseUrl, options.poolSize, options.workers);
  } finally {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}

async function createWebhooks(baseUrl: string, keys: readonly string[], receiverPort: number): Promise<void> {
  for (const [a, key] of keys.entries()) {
    for (let j = 0; j < HOOKS_PER_ACCOUNT; j++) {
      const index = a * HOOKS_PER_ACCOUNT + j;
      const response = await fetch(`${baseUrl}/api/v2/webhooks`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          endpoint_url: `http://127.0.0.1:${receiverPort}/hooks/${index}`,
          event_types: ['funding.created'],
          filters: FILTERS,
        }),
      });
      const text = await response.text();
      if (response.status !== 201) throw new Error(`creating webhook ${index}: HTTP ${response.status} ${text.slice(0, 300)}`);
    }
  }
}

// ---------- records and uploads ----------

/** Funding rounds from the seed generator, each with a company name no other record has: the join key. */
class RecordMaker {
  private readonly source: Iterator<object>;
  private sequence = 0;
  readonly run = randomUUID().slice(0, 8);

  constructor() {
    this.source = generateFundingRecords(Math.floor(Math.random() * 2 ** 31), Number.MAX_SAFE_INTEGER, new Date())[
      Symbol.iterator
    ]();
  }

  next(label: string, matching: boolean): { key: string; line: string } {
    const record = this.source.next().value as { company_info?: object };
    const n = this.sequence++;
    const key = `Hookbench ${this.run} ${label}${n}`;
    const line = JSON.stringify({
      ...record,
      company_name: key,
      name_path: `hookbench-${this.run}-${label.toLowerCase()}${n}`,
      source_id: `bench-webhooks-${this.run}-${label}${n}`,
      date_seen: new Date().toISOString(),
      company_info: { ...record.company_info, name: key, hq_country: matching ? MATCHING_COUNTRY : OTHER_COUNTRY },
    });
    return { key, line };
  }
}

interface Upload {
  status: number;
  sentAt: number;
  ackAt: number;
  error?: string;
}

async function upload(baseUrl: string, lines: readonly string[]): Promise<Upload> {
  const sentAt = performance.now();
  try {
    const response = await fetch(`${baseUrl}/admin/ingest/funding`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/x-ndjson' },
      body: lines.join('\n') + '\n',
    });
    const text = await response.text();
    const ackAt = performance.now();
    return response.status === 200
      ? { status: 200, sentAt, ackAt }
      : { status: response.status, sentAt, ackAt, error: `HTTP ${response.status} ${text.slice(0, 300)}` };
  } catch (err) {
    return { status: 0, sentAt, ackAt: performance.now(), error: err instanceof Error ? err.message : String(err) };
  }
}

/** One record per upload on a fixed clock (an open loop: a slow acknowledgement does not lower the rate). */
class Feed {
  /** Acknowledged (200) records: when the upload was sent and acknowledged. */
  readonly acks = new Map<string, { sentAt: number; ackAt: number }>();
  /** Acknowledged records that match the filters: each is one event per webhook. */
  readonly expected: string[] = [];
  readonly ackMs: number[] = [];
  uploads = 0;
  failures = 0;
  firstFailure: string | undefined;
  private readonly pending = new Set<Promise<void>>();

  constructor(
    private readonly baseUrl: string,
    private readonly maker: RecordMaker,
    private readonly label: string,
    private readonly matching: (n: number) => boolean,
  ) {}

  async run(perSecond: number, seconds: number, progress?: (elapsedS: number) => void): Promise<void> {
    const interval = 1000 / perSecond;
    const start = performance.now();
    let lastProgress = start;
    for (let i = 0; i < perSecond * seconds; i++) {
      const wait = start + i * interval - performance.now();
      if (wait > 0) await sleep(wait);
      this.send(i);
      if (progress && performance.now() - lastProgress >= 60_000) {
        lastProgress = performance.now();
        progress((lastProgress - start) / 1000);
      }
    }
    await Promise.all(this.pending);
  }

  private send(n: number): void {
    const matching = this.matching(n);
    const { key, line } = this.maker.next(this.label, matching);
    this.uploads++;
    const sent = upload(this.baseUrl, [line])
      .then((result) => {
        if (result.status !== 200) {
          this.failures++;
          this.firstFailure ??= result.error;
          return;
        }
        this.acks.set(key, { sentAt: result.sentAt, ackAt: result.ackAt });
        this.ackMs.push(result.ackAt - result.sentAt);
        if (matching) this.expected.push(key);
      })
      .finally(() => this.pending.delete(sent));
    this.pending.add(sent);
  }
}

// ---------- counting what arrived ----------

interface Tally {
  /** Events: matching acknowledged records × webhooks. */
  expected: number;
  delivered: number;
  missing: number;
  /** Arrivals of records no webhook should have had (a non-matching one) or from no upload of this workload. */
  unexpected: number;
  /** (webhook, record) pairs that arrived more than once, whatever the event id. */
  pairsTwice: number;
  /** Event ids answered 2xx more than once, and the extra sends. */
  resent: { events: number; extraSends: number };
  /** Answers other than 2xx the receiver gave. */
  refused: number;
  /** Pending deliveries nothing was going to send when the wait ended (see pendingState). */
  stranded?: number;
  /** Of the missing, those a later event for their webhook brought (see unstick). */
  cameLater?: number;
}

function tally(receiver: WebhookReceiver, keys: readonly string[]): Tally {
  const expectedKeys = new Set(keys);
  let delivered = 0;
  let pairsTwice = 0;
  for (const key of keys) {
    for (const pair of receiver.byKey.get(key)?.values() ?? []) {
      delivered++;
      if (pair.count > 1) pairsTwice++;
    }
  }
  let unexpected = 0;
  for (const [key, hooks] of receiver.byKey) if (!expectedKeys.has(key)) unexpected += hooks.size;
  const expected = keys.length * HOOKS;
  return {
    expected,
    delivered,
    missing: expected - delivered,
    unexpected,
    pairsTwice,
    resent: receiver.resentAfterSuccess(),
    refused: receiver.refused,
  };
}

/**
 * Pending deliveries, and those of them nothing will send: their webhook has no due time
 * (next_attempt_at null) and no lease, so no claim finds it until a later event for it is queued.
 */
async function pendingState(db: Database): Promise<{ pending: number; stranded: number }> {
  const rows = await db.query<{ pending: number; stranded: number }>(
    `SELECT count(*)::int AS pending,
            (count(*) FILTER (WHERE w.next_attempt_at IS NULL AND (w.lease_until IS NULL OR w.lease_until < now())))::int AS stranded
       FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id
      WHERE d.status = 'pending' AND w.active AND w.deleted_at IS NULL`,
  );
  return rows[0]!;
}

/** How long without a new arrival before the queue is looked at for stranded deliveries. */
const STALL_MS = 5000;

/**
 * Waits until every expected event has arrived, or limitMs, or nothing arrives any more while every
 * delivery still pending is stranded (none due, none leased); says how far it got now and then.
 */
async function waitForDeliveries(ctx: Context, keys: readonly string[], limitMs: number, what: string): Promise<Tally> {
  const started = Date.now();
  let lastReport = started;
  let lastDelivered = -1;
  let lastProgress = started;
  let lastCheck = started;
  for (;;) {
    const counted = tally(ctx.receiver, keys);
    if (counted.missing <= 0) return counted;
    const now = Date.now();
    if (counted.delivered !== lastDelivered) {
      lastDelivered = counted.delivered;
      lastProgress = now;
    }
    const timedOut = now - started > limitMs;
    if (timedOut || (now - lastProgress > STALL_MS && now - lastCheck > STALL_MS)) {
      lastCheck = now;
      const queue = await pendingState(ctx.db);
      if (timedOut || (queue.pending > 0 && queue.stranded === queue.pending)) {
        loud(
          `${what}: ${int(counted.missing)} of ${int(counted.expected)} deliveries missing after ${Math.round((now - started) / 1000)} s; ` +
            `${int(queue.pending)} pending, ${int(queue.stranded)} of them stranded (webhook not due, not leased)`,
        );
        return { ...counted, stranded: queue.stranded };
      }
    }
    if (now - lastReport >= 30_000) {
      lastReport = now;
      console.log(`   ${what}: ${int(counted.delivered)} / ${int(counted.expected)} delivered`);
    }
    await sleep(100);
  }
}

/**
 * After a workload that left deliveries stranded: one more matching record, whose deliveries make
 * every webhook due again, so the next workload starts with an empty queue. Returns how many of
 * the workload's missing events came in then.
 */
async function unstick(ctx: Context, keys: readonly string[], before: Tally): Promise<number> {
  if (before.missing <= 0) return 0;
  for (let round = 0; round < 3; round++) {
    const { key, line } = ctx.maker.next('N', true);
    const sent = await upload(ctx.server.baseUrl, [line]);
    if (sent.status !== 200) throw new Error(`the nudge upload was refused: ${sent.error}`);
    const after = await waitForDeliveries(ctx, [...keys, key], 60_000, 'nudge');
    if (after.missing <= 0) break;
  }
  const came = tally(ctx.receiver, keys).delivered - before.delivered;
  console.log(`   a later event for every webhook brought ${int(came)} of the ${int(before.missing)} missing deliveries`);
  return came;
}

/** The queue as the database sees it: deliveries by status (test and retry rows included). */
async function queueStatus(db: Database): Promise<Record<string, number>> {
  const rows = await db.query<{ status: string; n: number }>(
    'SELECT status, count(*)::int AS n FROM webhook_deliveries GROUP BY status ORDER BY status',
  );
  return Object.fromEntries(rows.map((row) => [row.status, row.n]));
}

interface Spread {
  n: number;
  p50: number;
  p99: number;
  max: number;
}

function spread(values: readonly number[]): Spread {
  const sorted = Float64Array.from(values).sort();
  return { n: sorted.length, p50: percentile(sorted, 50), p99: percentile(sorted, 99), max: percentile(sorted, 100) };
}

// ---------- 1. latency ----------

interface LatencyResult {
  seconds: number;
  uploads: number;
  ingestFailures: number;
  firstFailure?: string;
  ack: Spread;
  matchingRecords: number;
  tally: Tally;
  /** From each upload's acknowledgement (and from its sending) to each of its deliveries' arrival. */
  latency: Spread;
  fromSend: Spread;
  queue: Record<string, number>;
}

function latencies(receiver: WebhookReceiver, feed: Feed): { fromAck: number[]; fromSend: number[] } {
  const fromAck: number[] = [];
  const fromSend: number[] = [];
  for (const key of feed.expected) {
    const ack = feed.acks.get(key)!;
    for (const pair of receiver.byKey.get(key)?.values() ?? []) {
      fromAck.push(pair.firstAt - ack.ackAt);
      fromSend.push(pair.firstAt - ack.sentAt);
    }
  }
  return { fromAck, fromSend };
}

async function warmUp(ctx: Context): Promise<void> {
  ctx.receiver.reset();
  const feed = new Feed(ctx.server.baseUrl, ctx.maker, 'W', () => true);
  await feed.run(LIVE_RATE, WARMUP_SECONDS);
  const counted = await waitForDeliveries(ctx, feed.expected, 60_000, 'warm-up');
  if (feed.failures > 0) loud(`warm-up: ${feed.failures} uploads refused: ${feed.firstFailure}`);
  console.log(`   warm-up: ${int(counted.delivered)} / ${int(counted.expected)} delivered`);
  await unstick(ctx, feed.expected, counted);
}

async function measureLatency(ctx: Context, seconds: number): Promise<LatencyResult> {
  ctx.receiver.reset();
  const feed = new Feed(ctx.server.baseUrl, ctx.maker, 'L', (n) => n % 2 === 0);
  await feed.run(LIVE_RATE, seconds);
  const counted = await waitForDeliveries(ctx, feed.expected, 120_000, 'latency');
  // Measured before anything is done about stranded deliveries: those count as missing.
  const { fromAck, fromSend } = latencies(ctx.receiver, feed);
  const queue = await queueStatus(ctx.db);
  counted.cameLater = await unstick(ctx, feed.expected, counted);
  return {
    seconds,
    uploads: feed.uploads,
    ingestFailures: feed.failures,
    firstFailure: feed.firstFailure,
    ack: spread(feed.ackMs),
    matchingRecords: feed.expected.length,
    tally: counted,
    latency: spread(fromAck),
    fromSend: spread(fromSend),
    queue,
  };
}

// ---------- 2. saturation ----------

/** Probes in parallel (several connections, so both workers get some): what the API's clients see meanwhile. */
const PROBES = 4;

/**
 * Keyed API requests one after another on each of PROBES loops while the burst is dispatched and
 * sent: a worker busy turning the burst into deliveries answers nothing else meanwhile.
 */
class ApiProbe {
  private readonly times: number[] = [];
  private readonly statuses = new Map<number, number>();
  private running = true;
  private readonly loops: Promise<void>[] = [];

  constructor(
    private readonly url: string,
    private readonly key: string,
  ) {
    for (let i = 0; i < PROBES; i++) this.loops.push(this.loop());
  }

  private async loop(): Promise<void> {
    while (this.running) {
      const started = performance.now();
      let status = 0;
      try {
        const response = await fetch(this.url, { headers: { authorization: `Bearer ${this.key}` } });
        await response.arrayBuffer();
        status = response.status;
      } catch {
        // status 0: no answer
      }
      this.times.push(performance.now() - started);
      this.statuses.set(status, (this.statuses.get(status) ?? 0) + 1);
      await sleep(20);
    }
  }

  async stop(): Promise<{ latency: Spread; statuses: Record<string, number> }> {
    this.running = false;
    await Promise.all(this.loops);
    return { latency: spread(this.times), statuses: Object.fromEntries(this.statuses) };
  }
}

interface DatabaseActivity {
  xactCommit: number;
  tupInserted: number;
  tupUpdated: number;
  tupFetched: number;
  at: number;
}

async function databaseActivity(db: Database): Promise<DatabaseActivity> {
  const rows = await db.query<{ xact_commit: string; tup_inserted: string; tup_updated: string; tup_fetched: string }>(
    `SELECT xact_commit, tup_inserted, tup_updated, tup_fetched FROM pg_stat_database WHERE datname = current_database()`,
  );
  const row = rows[0]!;
  return {
    xactCommit: Number(row.xact_commit),
    tupInserted: Number(row.tup_inserted),
    tupUpdated: Number(row.tup_updated),
    tupFetched: Number(row.tup_fetched),
    at: performance.now(),
  };
}

async function backendPids(db: Database): Promise<number[]> {
  const rows = await db.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = current_database()');
  return rows.map((row) => row.pid);
}

/** Backends publish their counters at most every second, and idle ones within 10 s: wait that long. */
const STATS_SETTLE_MS = 11_000;

interface SaturationResult {
  records: number;
  ackMs: number;
  tally: Tally;
  /** From the acknowledgement to the first and to the last delivery. */
  firstMs: number;
  drainMs: number;
  /** Deliveries over the time from the acknowledgement to the last one. */
  rate: number;
  /** Deliveries over the time from the first to the last: the sending alone, the queueing aside. */
  sendRate: number;
  /** Deliveries in each whole second from the first arrival. */
  perSecond: Spread & { min: number };
  serverCpuPct: number;
  serverCpuUsPerDelivery: number;
  postgresCpuPct: number;
  postgresCpuUsPerDelivery: number;
  benchCpuPct: number;
  /** Summed over the server's processes (peak: of the sum, sampled every 250 ms); after, each process's. */
  serverRssMb: { before: number; peak: number; after: number; byProcess: number[] };
  serverProcesses: number;
  /** GET /api/v2/webhooks?limit=1 asked again and again meanwhile. */
  api: { latency: Spread; statuses: Record<string, number> };
  /** Per delivery, from pg_stat_database, the idle server's own polling taken out. */
  perDelivery: { transactions: number; rowsInserted: number; rowsUpdated: number; rowsFetched: number };
  queue: Record<string, number>;
}

function serverRss(pids: readonly number[]): number {
  return pids.reduce((sum, pid) => sum + (memoryOf(pid)?.rssMb ?? 0), 0);
}

async function measureSaturation(ctx: Context, burst: number): Promise<SaturationResult> {
  ctx.receiver.reset();
  const keys: string[] = [];
  const lines: string[] = [];
  for (let i = 0; i < burst; i++) {
    const { key, line } = ctx.maker.next('S', true);
    keys.push(key);
    lines.push(line);
  }
  const serverPids = processTree(ctx.server.child.pid!);
  // The idle server's own traffic (its poll every WEBHOOK_POLL_MS), to take out of the burst's,
  // measured once the previous workload's counters are all published.
  await sleep(STATS_SETTLE_MS);
  const idleStart = await databaseActivity(ctx.db);
  await sleep(STATS_SETTLE_MS);
  const before = await databaseActivity(ctx.db);
  const backendsBefore = cpuSnapshot(await backendPids(ctx.db));
  const serverBefore = cpuSnapshot(serverPids);
  const rssBefore = serverRss(serverPids);
  let rssPeak = rssBefore;
  const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, serverRss(serverPids))), 250);
  const benchBefore = process.cpuUsage();
  const probe = new ApiProbe(`${ctx.server.baseUrl}/api/v2/webhooks?limit=1`, ctx.apiKey);
  const started = performance.now();
  const sent = await upload(ctx.server.baseUrl, lines);
  if (sent.status !== 200) {
    clearInterval(sampler);
    await probe.stop();
    throw new Error(`the burst upload was refused: ${sent.error}`);
  }
  // At least 100 deliveries a second, 3 minutes at the least: far below the target, so a stuck queue ends the wait.
  const counted = await waitForDeliveries(ctx, keys, Math.max(180_000, burst * HOOKS * 10), 'saturation');
  clearInterval(sampler);
  const api = await probe.stop();
  const ended = performance.now();
  const serverCpu = cpuSpent(serverBefore, cpuSnapshot(serverPids));
  const postgresCpu = cpuSpent(backendsBefore, cpuSnapshot(await backendPids(ctx.db)));
  const benchCpu = process.cpuUsage(benchBefore);
  const rssAfter = serverRss(serverPids);
  const rssByProcess = serverPids.map((pid) => memoryOf(pid)?.rssMb ?? Number.NaN);
  await sleep(STATS_SETTLE_MS);
  const after = await databaseActivity(ctx.db);
  const queue = await queueStatus(ctx.db);
  counted.cameLater = await unstick(ctx, keys, counted);

  const arrivals = ctx.receiver.arrivals.filter((at) => at >= started).sort((a, b) => a - b);
  const first = arrivals[0] ?? Number.NaN;
  const last = arrivals.at(-1) ?? Number.NaN;
  const buckets: number[] = [];
  for (const at of arrivals) {
    const second = Math.floor((at - first) / 1000);
    buckets[second] = (buckets[second] ?? 0) + 1;
  }
  // The last second is partial.
  const whole = Array.from(buckets.slice(0, -1), (n) => n ?? 0);
  const wall = ended - started;
  const delivered = counted.delivered;
  const idleRate = (field: keyof Omit<DatabaseActivity, 'at'>) => (before[field] - idleStart[field]) / (before.at - idleStart.at);
  const busy = (field: keyof Omit<DatabaseActivity, 'at'>) =>
    (after[field] - before[field] - idleRate(field) * (after.at - before.at)) / delivered;
  return {
    records: burst,
    ackMs: sent.ackAt - sent.sentAt,
    tally: counted,
    firstMs: first - sent.ackAt,
    drainMs: last - sent.ackAt,
    rate: delivered / ((last - sent.ackAt) / 1000),
    sendRate: (arrivals.length - 1) / ((last - first) / 1000),
    perSecond: { ...spread(whole), min: Math.min(...whole) },
    serverCpuPct: (serverCpu / wall) * 100,
    serverCpuUsPerDelivery: (serverCpu * 1000) / delivered,
    postgresCpuPct: (postgresCpu / wall) * 100,
    postgresCpuUsPerDelivery: (postgresCpu * 1000) / delivered,
    benchCpuPct: ((benchCpu.user + benchCpu.system) / 1000 / wall) * 100,
    serverRssMb: { before: rssBefore, peak: rssPeak, after: rssAfter, byProcess: rssByProcess },
    serverProcesses: serverPids.length,
    api,
    perDelivery: {
      transactions: busy('xactCommit'),
      rowsInserted: busy('tupInserted'),
      rowsUpdated: busy('tupUpdated'),
      rowsFetched: busy('tupFetched'),
    },
    queue,
  };
}

// ---------- 3. outage ----------

/** When the retries of a delivery that first failed at 0 fall due, for a receiver back at outageMs. */
interface RetryPlan {
  /** Cumulative waits of the schedule, nominal (the ±20 % jitter aside). */
  nominalS: number[];
  /** The first retry at or after the receiver's return, nominally, and its attempt number. */
  attempt: number;
  nominalAfterBackS: number;
  /** The earliest and latest the first retry after the return can come, with the jitter. */
  earliestAfterBackS: number;
  latestAfterBackS: number;
}

function retryPlan(scheduleMs: readonly number[], outageMs: number): RetryPlan {
  const nominal: number[] = [];
  const low: number[] = [];
  const high: number[] = [];
  let n = 0;
  let lo = 0;
  let hi = 0;
  for (const wait of scheduleMs) {
    n += wait;
    lo += wait * 0.8;
    hi += wait * 1.2;
    nominal.push(n);
    low.push(lo);
    high.push(hi);
  }
  const k = Math.max(
    0,
    nominal.findIndex((at) => at >= outageMs),
  );
  const firstPossible = Math.max(
    0,
    high.findIndex((at) => at >= outageMs),
  );
  const lastPossible = low.findIndex((at) => at >= outageMs);
  return {
    nominalS: nominal.map((ms) => ms / 1000),
    attempt: k + 2,
    nominalAfterBackS: (nominal[k]! - outageMs) / 1000,
    earliestAfterBackS: Math.max(0, low[firstPossible]! - outageMs) / 1000,
    latestAfterBackS: ((lastPossible === -1 ? hi : high[lastPossible]!) - outageMs) / 1000,
  };
}

interface OutageResult {
  outageSeconds: number;
  uploads: number;
  ingestFailures: number;
  firstFailure?: string;
  records: number;
  tally: Tally;
  /** From the receiver's return: the first delivery, each webhook's first, and the last (recovery). */
  firstAfterBackS: number;
  hookRetryAfterBackS: Spread & { min: number };
  recoveryS: number;
  /** Deliveries of the events made during the outage, by attempts taken. */
  attempts: { attempts: number; deliveries: number }[];
  plan: RetryPlan;
  queue: Record<string, number>;
}

async function measureOutage(ctx: Context, outageSeconds: number): Promise<OutageResult> {
  ctx.receiver.reset();
  await ctx.receiver.stop();
  const downAt = new Date();
  const down = performance.now();
  console.log(
    `   receiver closed at ${downAt.toISOString()}: port ${ctx.receiver.port} refuses connections for ${outageSeconds} s`,
  );
  const feed = new Feed(ctx.server.baseUrl, ctx.maker, 'O', () => true);
  await feed.run(OUTAGE_RATE, outageSeconds, (s) => console.log(`   ${Math.round(s)} s down, ${feed.uploads} records sent`));
  await sleep(Math.max(0, down + outageSeconds * 1000 - performance.now()));
  await ctx.receiver.start();
  const backAt = performance.now();
  const plan = retryPlan(ctx.settings.retryDelaysMs, outageSeconds * 1000);
  console.log(
    `   receiver back; the held deliveries' next attempt (attempt ${plan.attempt}) is due ` +
      `${Math.round(plan.earliestAfterBackS)}–${Math.round(plan.latestAfterBackS)} s from now (nominally ${Math.round(plan.nominalAfterBackS)} s)`,
  );
  const limitMs = (plan.latestAfterBackS + 600) * 1000;
  const counted = await waitForDeliveries(ctx, feed.expected, limitMs, 'outage recovery');
  const firstByHook = new Map<number, number>();
  let lastAt = Number.NaN;
  for (const key of feed.expected) {
    for (const [hook, pair] of ctx.receiver.byKey.get(key) ?? []) {
      firstByHook.set(hook, Math.min(firstByHook.get(hook) ?? Infinity, pair.firstAt));
      if (!(pair.firstAt <= lastAt)) lastAt = pair.firstAt;
    }
  }
  const hookRetries = [...firstByHook.values()].map((at) => (at - backAt) / 1000);
  const attempts = await ctx.db.query<{ attempts: number; deliveries: number }>(
    `SELECT attempt_count AS attempts, count(*)::int AS deliveries FROM webhook_deliveries
      WHERE created_at >= $1 GROUP BY attempt_count ORDER BY attempt_count`,
    [downAt],
  );
  const queue = await queueStatus(ctx.db);
  counted.cameLater = await unstick(ctx, feed.expected, counted);
  return {
    outageSeconds,
    uploads: feed.uploads,
    ingestFailures: feed.failures,
    firstFailure: feed.firstFailure,
    records: feed.expected.length,
    tally: counted,
    firstAfterBackS: Math.min(...hookRetries),
    hookRetryAfterBackS: { ...spread(hookRetries), min: Math.min(...hookRetries) },
    recoveryS: (lastAt - backAt) / 1000,
    attempts,
    plan,
    queue,
  };
}

// ---------- report ----------

interface Context {
  db: Database;
  server: Service;
  receiver: WebhookReceiver;
  maker: RecordMaker;
  settings: ReturnType<typeof webhookSettings>;
  /** A key of one of the bench accounts, for the API probe. */
  apiKey: string;
}

interface Report {
  startedAt: Date;
  machine: MachineInfo;
  postgres: string;
  options: Options;
  settings: ReturnType<typeof webhookSettings>;
  rowCounts: Record<string, number>;
  serverReadyS: number;
  latency: LatencyResult;
  saturation: SaturationResult;
  outage: OutageResult;
  tookS: number;
}

const ms0 = (n: number) => (Number.isFinite(n) ? `${Math.round(n).toLocaleString('en')} ms` : 'n/a');
const s1 = (n: number) => (Number.isFinite(n) ? `${n.toFixed(1)} s` : 'n/a');
const duration = (s: number) => {
  if (s < 120) return `${Math.round(s)} s`;
  const rest = Math.round(s % 60);
  return `${Math.floor(s / 60)} min${rest > 0 ? ` ${rest} s` : ''}`;
};
const waits = (scheduleMs: readonly number[]) =>
  scheduleMs
    .slice(0, 5)
    .map((ms) => duration(ms / 1000))
    .join(', ') + (scheduleMs.length > 5 ? ', …' : '');
const missingCell = (t: Tally, strong = false) => {
  const n = strong ? `**${int(t.missing)}**` : int(t.missing);
  return t.missing > 0 && t.stranded ? `${n} (${int(t.stranded)} stranded; ${int(t.cameLater ?? 0)} came with a later event)` : n;
};
const resentCell = (t: Tally) =>
  `${int(t.resent.events)}${t.pairsTwice !== t.resent.events ? ` (${int(t.pairsTwice)} pairs twice)` : ''}`;

function summaryTable(r: Report): string[] {
  const { latency: l, saturation: s, outage: o } = r;
  const row = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [
    '| workload | records | events (× 100 webhooks) | delivered | missing | unexpected | sent again after a 2xx | receiver non-2xx | p50 | p99 | max | deliveries/s |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    row([
      `1. latency: ${LIVE_RATE} records/s for ${l.seconds} s, half matching; ack → arrival`,
      `${int(l.uploads)} (${int(l.matchingRecords)} matching)`,
      int(l.tally.expected),
      int(l.tally.delivered),
      missingCell(l.tally),
      int(l.tally.unexpected),
      resentCell(l.tally),
      int(l.tally.refused),
      ms0(l.latency.p50),
      ms0(l.latency.p99),
      ms0(l.latency.max),
      int((l.tally.delivered / l.seconds) | 0),
    ]),
    row([
      `2. saturation: ${int(s.records)} records in one upload; ack → arrival`,
      int(s.records),
      int(s.tally.expected),
      int(s.tally.delivered),
      missingCell(s.tally),
      int(s.tally.unexpected),
      resentCell(s.tally),
      int(s.tally.refused),
      '',
      '',
      `${ms0(s.drainMs)} (all)`,
      `**${int(s.rate)}**`,
    ]),
    row([
      `3. outage: receiver down ${duration(o.outageSeconds)}, ${OUTAGE_RATE} record/s; receiver back → arrival`,
      int(o.records),
      int(o.tally.expected),
      int(o.tally.delivered),
      missingCell(o.tally, true),
      int(o.tally.unexpected),
      `**${resentCell(o.tally)}**`,
      int(o.tally.refused),
      `${s1(o.hookRetryAfterBackS.p50)} (webhook's first)`,
      '',
      `${s1(o.recoveryS)} (all: recovery)`,
      '',
    ]),
  ];
}

interface Check {
  name: string;
  measured: string;
  pass: boolean;
}

function checks(r: Report): Check[] {
  const { latency: l, saturation: s, outage: o } = r;
  return [
    {
      name: `1. p99 ack → delivery ≤ ${TARGETS.latencyP99Ms} ms`,
      measured: ms0(l.latency.p99),
      pass: l.latency.p99 <= TARGETS.latencyP99Ms,
    },
    {
      name: '1. every event delivered, no ingest refused',
      measured: `${int(l.tally.missing)} missing, ${int(l.ingestFailures)} non-2xx ingest answers`,
      pass: l.tally.missing === 0 && l.ingestFailures === 0,
    },
    {
      name: `2. ≥ ${TARGETS.deliveriesPerSecond} deliveries/s until drained`,
      measured: `${int(s.rate)}/s`,
      pass: s.rate >= TARGETS.deliveriesPerSecond && s.tally.missing === 0,
    },
    { name: '3. events lost = 0', measured: int(o.tally.missing), pass: o.tally.missing === 0 && o.ingestFailures === 0 },
    {
      name: '3. sent again to a receiver that had answered 2xx = 0',
      measured: int(o.tally.resent.events),
      pass: o.tally.resent.events === 0 && o.tally.pairsTwice === 0,
    },
    {
      name: 'receiver non-2xx answers = 0 (all workloads)',
      measured: int(l.tally.refused + s.tally.refused + o.tally.refused),
      pass: l.tally.refused + s.tally.refused + o.tally.refused === 0,
    },
  ];
}

function render(r: Report): string {
  const { latency: l, saturation: s, outage: o, settings } = r;
  const plan = o.plan;
  const rows = Object.entries(r.rowCounts)
    .map(([name, n]) => `${name} ${int(n)}`)
    .join(', ');
  const queue = (q: Record<string, number>) =>
    Object.entries(q)
      .map(([status, n]) => `${status} ${int(n)}`)
      .join(', ');
  const cumulative = plan.nominalS
    .slice(0, 5)
    .map((at) => duration(at))
    .join(', ');
  return [
    HEADING,
    '',
    ...machineLines(r.startedAt, r.machine, r.postgres),
    `- Data: a fresh database (dropped and created at every run) with the demo data set (${rows}); webhooks are about new records, not the size of the tables`,
    `- Server: \`dealsignal serve --workers ${r.options.workers}\` (pool ${r.options.poolSize} each), delivery on in every worker ` +
      `(they share the queue), started in ${s1(r.serverReadyS)}; WEBHOOK_ALLOWED_NETWORKS=127.0.0.0/8, poll ${settings.pollMs} ms, ` +
      `concurrency ${settings.concurrency} webhooks per process, lease ${settings.leaseMs / 1000} s, ` +
      `retries after ${waits(settings.retryDelaysMs)} (±20 %)`,
    `- Webhooks: ${HOOKS}, created through \`POST /api/v2/webhooks\` by ${ACCOUNTS} enterprise accounts (${HOOKS_PER_ACCOUNT} each, ` +
      `the per-account limit), each \`funding.created\` with \`filters: {"countries": "US"}\`. Records: funding rounds from the seed ` +
      'generator posted to `POST /admin/ingest/funding` one per upload, each with a company name no other has (the join key, read ' +
      `from the delivered body's \`data.company_name\`) and \`hq_country\` ${MATCHING_COUNTRY} (matches every webhook) or ${OTHER_COUNTRY} (matches none)`,
    '- Receiver: `node:http` in the bench process on one loopback port (keep-alive; 200 with an empty body once the body is in; ' +
      'signatures not checked, the tests do); per webhook and record it keeps the first arrival answered 2xx and the count, per event id the 2xx answers. ' +
      "The server's transport keeps at most 8 connections per receiver (host and port), so the 100 webhooks share 8 connections per worker",
    `- The part took ${duration(r.tookS)} (${WARMUP_SECONDS} s warm-up excluded from the figures)`,
    '',
    ...summaryTable(r),
    '',
    '### Targets',
    '',
    '| target | measured | result |',
    '|---|---:|---|',
    ...checks(r).map((c) => `| ${c.name} | ${c.measured} | ${verdict(c.pass)} |`),
    '',
    '### 1. Latency',
    '',
    `${int(l.uploads)} uploads of one record each, every ${1000 / LIVE_RATE} ms (an open loop), ${int(l.matchingRecords)} of them matching: ` +
      `${int(l.tally.expected)} events, ${int(l.tally.expected / l.seconds)} deliveries a second. Acknowledgement of an upload: p50 ${ms0(l.ack.p50)}, ` +
      `p99 ${ms0(l.ack.p99)}, max ${ms0(l.ack.max)}; ${int(l.ingestFailures)} non-2xx${l.firstFailure ? ` (first: ${l.firstFailure})` : ''}. ` +
      `From the upload's start instead of its acknowledgement: p50 ${ms0(l.fromSend.p50)}, p99 ${ms0(l.fromSend.p99)}. ` +
      `Delivery rows in the database at the end (warm-up included): ${queue(l.queue)}.`,
    '',
    '### 2. Saturation',
    '',
    `One upload of ${int(s.records)} matching records (acknowledged in ${ms0(s.ackMs)}) queues ${int(s.tally.expected)} deliveries; ` +
      `the first arrived ${ms0(s.firstMs)} after the acknowledgement (the dispatcher's one transaction turning the ${int(s.records)} changes into ` +
      `${int(s.tally.expected)} delivery rows), the last ${ms0(s.drainMs)} after it: **${int(s.rate)} deliveries/s** from the acknowledgement, ` +
      `${int(s.sendRate)}/s from the first delivery to the last. ` +
      `Deliveries in each whole second from the first: min ${int(s.perSecond.min)}, median ${int(s.perSecond.p50)}, max ${int(s.perSecond.max)} ` +
      `(${s.perSecond.n} s).`,
    '',
    `- Server (${s.serverProcesses} processes: primary and workers): ${Math.round(s.serverCpuPct)} % of a core on average while draining ` +
      `(${int(s.serverCpuUsPerDelivery)} µs CPU per delivery); RSS ${int(s.serverRssMb.before)} MiB before, peak ${int(s.serverRssMb.peak)} MiB, ` +
      `${int(s.serverRssMb.after)} MiB after (${s.serverRssMb.byProcess.map((mb) => `${int(mb)}`).join(' + ')} MiB)`,
    `- PostgreSQL backends of the bench database: ${Math.round(s.postgresCpuPct)} % of a core (${int(s.postgresCpuUsPerDelivery)} µs per delivery); ` +
      `per delivery (pg_stat_database, the idle server's polling taken out): ${s.perDelivery.transactions.toFixed(2)} transactions, ` +
      `${s.perDelivery.rowsInserted.toFixed(2)} rows inserted, ${s.perDelivery.rowsUpdated.toFixed(2)} updated, ${s.perDelivery.rowsFetched.toFixed(1)} fetched`,
    `- API requests meanwhile (\`GET /api/v2/webhooks?limit=1\`, ${PROBES} loops one request after another): ${int(s.api.latency.n)} requests, ` +
      `p50 ${ms0(s.api.latency.p50)}, p99 ${ms0(s.api.latency.p99)}, max ${ms0(s.api.latency.max)}; statuses ` +
      `${Object.entries(s.api.statuses)
        .map(([status, n]) => `${status} × ${int(n)}`)
        .join(', ')}`,
    `- The bench process (receiver and uploads): ${Math.round(s.benchCpuPct)} % of a core; the machine has ${r.machine.cores} cores for all three`,
    `- Delivery rows in the database at the end (every workload so far): ${queue(s.queue)}`,
    '',
    '### 3. Outage and recovery',
    '',
    `The receiver stopped listening (its port refusing connections) for ${duration(o.outageSeconds)} while a matching record arrived every second ` +
      `(${int(o.uploads)} uploads, ${int(o.ingestFailures)} non-2xx): ${int(o.tally.expected)} events. Each webhook's oldest delivery failed ` +
      'at once and holds the ones after it (per-webhook order), so each webhook waits for the retries of that one delivery: with the ' +
      `schedule (${waits(settings.retryDelaysMs)}, each ±20 %) they fall ${cumulative} after its first attempt. ` +
      `The first retry after a ${duration(o.outageSeconds)} outage is attempt ${plan.attempt}, due nominally ${duration(plan.nominalAfterBackS)} ` +
      `after the receiver is back (between ${duration(plan.earliestAfterBackS)} and ${duration(plan.latestAfterBackS)} with the jitter, ` +
      `plus up to a poll, ${settings.pollMs} ms, per attempt and the fraction of a second the first attempt took to come).`,
    '',
    `Measured from the receiver's return: the first delivery after ${s1(o.firstAfterBackS)}; each webhook's first (its held delivery's retry) ` +
      `p50 ${s1(o.hookRetryAfterBackS.p50)}, min ${s1(o.hookRetryAfterBackS.min)}, max ${s1(o.hookRetryAfterBackS.max)}; every event in ` +
      `after **${s1(o.recoveryS)}** (recovery). Once a webhook's retry succeeds its backlog goes out at once, so recovery is the ` +
      "last webhook's retry plus its backlog's few hundred ms. " +
      `Deliveries of the outage's events by attempts: ${o.attempts.map((a) => `${int(a.deliveries)} × ${a.attempts}`).join(', ')}. ` +
      `Lost: ${int(o.tally.missing)}; sent again after a 2xx: ${int(o.tally.resent.events)} events (${int(o.tally.pairsTwice)} webhook/record pairs ` +
      `more than once); unexpected: ${int(o.tally.unexpected)}. Delivery rows in the database at the end (every workload): ${queue(o.queue)}.`,
  ].join('\n');
}

// ---------- main ----------

async function main(): Promise<void> {
  const began = performance.now();
  const options = parseOptions(process.argv.slice(2));
  const startedAt = new Date();
  const machine = machineInfo();
  const settings = webhookSettings();
  buildProject();
  await waitForQuiet();
  const { db, rowCounts, keys } = await prepareDatabase(options.databaseUrl);
  const receiver = new WebhookReceiver(await freePort());
  let server: Service | undefined;
  try {
    await receiver.start();
    console.log(`starting the server (${options.workers} workers), receiver on 127.0.0.1:${receiver.port}...`);
    server = await startServer(options);
    console.log(`creating ${HOOKS} webhooks (${ACCOUNTS} accounts × ${HOOKS_PER_ACCOUNT})...`);
    await createWebhooks(server.baseUrl, keys, receiver.port);
    const ctx: Context = { db, server, receiver, maker: new RecordMaker(), settings, apiKey: keys[0]! };

    console.log(`warm-up: ${WARMUP_SECONDS} s of ${LIVE_RATE} matching records a second`);
    await warmUp(ctx);

    await waitForQuiet();
    console.log(`\n1. latency: ${LIVE_RATE} records a second for ${options.latencySeconds} s, every other one matching`);
    const latency = await measureLatency(ctx, options.latencySeconds);
    console.log(
      `   ack → delivery p50 ${ms0(latency.latency.p50)}, p99 ${ms0(latency.latency.p99)}, max ${ms0(latency.latency.max)}; ` +
        `${int(latency.tally.delivered)} / ${int(latency.tally.expected)} delivered, ${latency.ingestFailures} ingest failures`,
    );

    await waitForQuiet();
    console.log(`\n2. saturation: ${options.burst} matching records in one upload (${int(options.burst * HOOKS)} deliveries)`);
    const saturation = await measureSaturation(ctx, options.burst);
    console.log(
      `   ${int(saturation.tally.delivered)} delivered in ${ms0(saturation.drainMs)}: ${int(saturation.rate)}/s; ` +
        `server ${Math.round(saturation.serverCpuPct)} % CPU, PostgreSQL ${Math.round(saturation.postgresCpuPct)} %, ` +
        `bench ${Math.round(saturation.benchCpuPct)} %`,
    );

    await waitForQuiet();
    console.log(`\n3. outage: receiver down for ${options.outageSeconds} s, ${OUTAGE_RATE} matching record a second`);
    const outage = await measureOutage(ctx, options.outageSeconds);
    console.log(
      `   recovery ${s1(outage.recoveryS)} after the receiver came back; lost ${outage.tally.missing}, ` +
        `sent again after a 2xx ${outage.tally.resent.events}`,
    );

    const report: Report = {
      startedAt,
      machine,
      postgres: await postgresVersion(db),
      options,
      settings,
      rowCounts,
      serverReadyS: (server.readyMs ?? Number.NaN) / 1000,
      latency,
      saturation,
      outage,
      tookS: (performance.now() - began) / 1000,
    };
    const section = render(report);
    console.log(`\n${section}`);
    replaceSection(HEADING, section);
    console.log(`\nwritten to bench/RESULTS.md (${HEADING}); 1-min load average now ${(loadavg()[0] ?? 0).toFixed(2)}`);
    if (checks(report).some((c) => !c.pass)) loud('a webhook target was missed: see the Targets table');
  } finally {
    if (server) {
      // A worker busy in a long synchronous stretch may outlive its primary: end every process it started.
      const started = server.child.pid === undefined ? [] : processTree(server.child.pid);
      await stopService(server);
      for (const pid of started) {
        try {
          // Only if the pid is still one of the server's (not reused since).
          if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('dealsignal.js')) process.kill(pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }
    }
    await receiver.stop();
    await db.close();
  }
}

onExitStopServers(main);
