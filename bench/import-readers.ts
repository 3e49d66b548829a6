// Readers during an import: the server on a store with the demo data set, concurrent v1 and v2
// readers asking many distinct filters and pages drawn from the data (bench/realistic-paths.ts),
// and, while they read, one upload of N new funding rounds through POST /admin/ingest/funding.
// Reports the readers' p50/p99/max and non-2xx answers for the requests sent while the import ran,
// and the import's duration and records a second.
//
// With --webhooks: 10 accounts × 10 webhooks (the per-account cap) subscribed to funding.created,
// pointed at a local receiver, and a 2,000-record import (every record matches): the readers are
// measured during the import and again after it, while its 200,000 deliveries are queued and sent
// (until they are all in, or --settle-seconds).
//
//   npm run bench -- --only import-readers [--store pglite|postgres] [--records N] [--webhooks]
//                                          [--readers N] [--settle-seconds N]
//
// The embedded store is made afresh in a temporary DATA_DIR; PostgreSQL uses a fresh database on
// DATABASE_URL's server (BENCH_IMPORT_DATABASE_URL to name it; default <database>_import_readers),
// dropped and created at every run. REDIS_URL, when set, is passed on to the server.
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config.js';
import { setV1RateLimit } from '../src/accounts/account-queries.js';
import { adjustCredits } from '../src/accounts/credit-queries.js';
import { migrate } from '../src/platform/db/migrate.js';
import { openDatabase } from '../src/platform/db/open.js';
import type { Database } from '../src/platform/db/port.js';
import { generateFundingRecords } from '../src/demo/v1-generator.js';
import { createApiKey } from '../src/accounts/api-keys.js';
import { seedDatabase, startOfTodayUtc } from '../src/demo/seed.js';
import { countDatasetRows } from '../src/ingest/index.js';
import { OTHER_PARTS_OPTIONS, PROJECT_DIR, wholeNumber } from './options.js';
import { freePort, startService, stopService, waitUntilAnswering, type Service } from './processes.js';
import { freshDatabase } from './postgres-admin.js';
import { drawWorkloads, DEFAULT_SIZES, type WorkloadPath } from './realistic-paths.js';
import { machineInfo } from './report.js';
import { replaceSection } from './results-file.js';
import { buildProject } from './server.js';
import { HIGH_V2_LIMIT, int, machineLines, ms, onExitStopServers, rowCountList, verdict } from './signals.js';
import { percentile } from './stats.js';
import { WebhookReceiver } from './webhook-receiver.js';

const HEADING = '## Import and readers';
const TARGET_V1_P99_MS = 250;
const ACCOUNTS = 10;
const HOOKS_PER_ACCOUNT = 10;
const CREDITS = 1_000_000_000;
const V1_LIMIT = 2_000_000_000;
/** Readers run this long before the import starts (caches and the filter index warm). */
const WARMUP_MS = 3000;
const ADMIN_TOKEN = randomBytes(24).toString('hex');

const USAGE = `Usage: npm run bench -- --only import-readers [--store pglite|postgres] [--records N] [--webhooks] [--readers N] [--settle-seconds N]

--store           pglite (default: the embedded store, in a temporary DATA_DIR) or postgres (DATABASE_URL's server)
--records         funding rounds in the import (default 10,000; 2,000 with --webhooks)
--webhooks        10 accounts × 10 webhooks on funding.created, pointed at a local receiver
--readers         concurrent readers, half v1 and half v2 (default 16)
--settle-seconds  with --webhooks, how long readers go on after the import while deliveries are sent (default 60)
Environment: DATABASE_URL (--store postgres), BENCH_IMPORT_DATABASE_URL (dropped and created afresh), REDIS_URL.`;

interface Options {
  store: 'pglite' | 'postgres';
  records: number;
  webhooks: boolean;
  readers: number;
  settleSeconds: number;
}

function parseOptions(argv: string[]): Options {
  const { values } = parseArgs({
    args: argv,
    options: {
      ...OTHER_PARTS_OPTIONS,
      store: { type: 'string', default: 'pglite' },
      records: { type: 'string' },
      webhooks: { type: 'boolean', default: false },
      readers: { type: 'string', default: '16' },
      'settle-seconds': { type: 'string', default: '60' },
    },
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const count = (name: string, raw: string, min = 1) => wholeNumber(name, raw, USAGE, min);
  if (values.store !== 'pglite' && values.store !== 'postgres') throw new Error(`--store takes pglite or postgres\n\n${USAGE}`);
  return {
    store: values.store,
    records: count('records', values.records ?? (values.webhooks ? '2000' : '10000')),
    webhooks: values.webhooks,
    readers: count('readers', values.readers, 2),
    settleSeconds: count('settle-seconds', values['settle-seconds'], 0),
  };
}

// ---------- the store ----------

interface Store {
  /** The server's environment for this store. */
  env: Record<string, string>;
  label: string;
  cleanup(): Promise<void>;
}

async function freshPostgres(): Promise<Store> {
  const base = process.env.DATABASE_URL?.trim();
  const named = process.env.BENCH_IMPORT_DATABASE_URL?.trim();
  if (!base && !named) throw new Error('--store postgres needs DATABASE_URL (or BENCH_IMPORT_DATABASE_URL)');
  const url = new URL(named || base!);
  if (!named) url.pathname = `/${decodeURIComponent(url.pathname.replace(/^\//, '')) || 'dealsignal'}_import_readers`;
  const name = decodeURIComponent(url.pathname.replace(/^\//, ''));
  await freshDatabase(url.toString(), 'BENCH_IMPORT_DATABASE_URL');
  return { env: { DATABASE_URL: url.toString() }, label: `PostgreSQL (database ${name})`, cleanup: async () => undefined };
}

function freshPglite(): Store {
  const dir = mkdtempSync(join(tmpdir(), 'dealsignal-import-readers-'));
  return {
    env: { DATA_DIR: dir },
    label: `the embedded store (${dir})`,
    cleanup: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

interface Prepared {
  keys: string[];
  v1: WorkloadPath[];
  v2: WorkloadPath[];
  rowCounts: Record<string, number>;
}

/** Migrates, loads the demo data, makes funded enterprise keys and draws the readers' paths; closes the store. */
async function prepare(store: Store, accounts: number): Promise<Prepared> {
  // A throwaway session secret: PostgreSQL's configuration requires one, and preparing uses no sessions.
  const config = loadConfig({ ...store.env, LOG_LEVEL: 'silent', SESSION_SECRET: randomBytes(32).toString('hex') });
  const db: Database = await openDatabase(config);
  try {
    await migrate(db);
    console.log('loading the demo data set...');
    await seedDatabase(db, { scale: 'demo', seed: 42, asOf: startOfTodayUtc() });
    const keys: string[] = [];
    for (let a = 0; a < accounts; a++) {
      const created = await createApiKey(db, { email: `bench-import-${a}@dealsignal.local`, tier: 'enterprise', name: 'bench' });
      if ((await adjustCredits(db, created.accountId, { set: CREDITS })) === undefined)
        throw new Error(`no account ${created.email}`);
      // Far above what a run asks: a 429 would measure the limit, not the store.
      if (!(await setV1RateLimit(db, created.email, V1_LIMIT))) throw new Error(`no account ${created.email}`);
      keys.push(created.key);
    }
    const lists = await drawWorkloads(db, { ...DEFAULT_SIZES, v1Funding: 600, v1Ma: 150, v2: 600 });
    return { keys, v1: lists.v1Explore, v2: lists.v2Explore, rowCounts: { ...(await countDatasetRows(db)) } };
  } finally {
    await db.close();
  }
}

async function startServer(store: Store): Promise<Service> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...store.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    SEED_DEMO: 'false',
    ADMIN_TOKEN,
    RATE_LIMIT_ENTERPRISE: HIGH_V2_LIMIT,
    // The receiver is on loopback, which a webhook may target only when the operator allows it.
    WEBHOOK_ALLOWED_NETWORKS: process.env.WEBHOOK_ALLOWED_NETWORKS || '127.0.0.0/8',
    SESSION_SECRET: process.env.SESSION_SECRET || randomBytes(32).toString('hex'),
  };
  if (!store.env.DATABASE_URL) delete env.DATABASE_URL;
  const service = startService('dealsignal-import-readers', process.execPath, ['bin/dealsignal.js', 'serve', '--workers', '1'], {
    cwd: PROJECT_DIR,
    env,
    baseUrl: `http://127.0.0.1:${port}`,
  });
  await waitUntilAnswering(service, '/api/v1/funding', 300_000);
  return service;
}

async function createWebhooks(baseUrl: string, keys: readonly string[], receiverPort: number): Promise<void> {
  for (const [a, key] of keys.entries()) {
    for (let j = 0; j < HOOKS_PER_ACCOUNT; j++) {
      const response = await fetch(`${baseUrl}/api/v2/webhooks`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          endpoint_url: `http://127.0.0.1:${receiverPort}/hooks/${a * HOOKS_PER_ACCOUNT + j}`,
          event_types: ['funding.created'],
        }),
      });
      const text = await response.text();
      if (response.status !== 201) throw new Error(`creating a webhook: HTTP ${response.status} ${text.slice(0, 300)}`);
    }
  }
}

// ---------- readers and the import ----------

interface Sample {
  family: 'v1' | 'v2';
  startedAt: number;
  ms: number;
  status: number;
}

/** Closed-loop readers: each sends its next path as soon as it has the previous answer. */
class Readers {
  readonly samples: Sample[] = [];
  private running = true;
  private readonly loops: Promise<void>[] = [];

  constructor(baseUrl: string, key: string, v1: readonly WorkloadPath[], v2: readonly WorkloadPath[], count: number) {
    for (let i = 0; i < count; i++) {
      const family = i % 2 === 0 ? 'v1' : 'v2';
      const paths = family === 'v1' ? v1 : v2;
      const headers: Record<string, string> = family === 'v1' ? { 'x-lot-api-key': key } : { authorization: `Bearer ${key}` };
      this.loops.push(this.loop(baseUrl, family, paths, headers, Math.floor((i * paths.length) / count)));
    }
  }

  private async loop(
    baseUrl: string,
    family: 'v1' | 'v2',
    paths: readonly WorkloadPath[],
    headers: Record<string, string>,
    at: number,
  ) {
    for (let n = at; this.running; n++) {
      const path = paths[n % paths.length]!;
      const startedAt = performance.now();
      let status = 0;
      try {
        const response = await fetch(baseUrl + path.path, { headers });
        await response.arrayBuffer();
        status = response.status;
      } catch {
        status = 0;
      }
      this.samples.push({ family, startedAt, ms: performance.now() - startedAt, status });
    }
  }

  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.loops);
  }
}

interface Figures {
  requests: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  non2xx: number;
  /** The non-2xx answers by status (0: no answer). */
  statuses: string;
}

function figures(samples: readonly Sample[], family: 'v1' | 'v2', from: number, to: number): Figures {
  const chosen = samples.filter((s) => s.family === family && s.startedAt >= from && s.startedAt < to);
  const sorted = Float64Array.from(chosen.map((s) => s.ms)).sort();
  return {
    requests: chosen.length,
    p50Ms: percentile(sorted, 50),
    p99Ms: percentile(sorted, 99),
    maxMs: percentile(sorted, 100),
    non2xx: chosen.filter((s) => s.status < 200 || s.status > 299).length,
    statuses: [...tally(chosen.filter((s) => s.status < 200 || s.status > 299).map((s) => s.status))]
      .map(([status, n]) => `${status} × ${n}`)
      .join(', '),
  };
}

function tally(values: number[]): Map<number, number> {
  const counts = new Map<number, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return counts;
}

/** N new funding rounds dated now, as NDJSON. */
function importBody(records: number): string {
  const run = randomUUID().slice(0, 8);
  const now = new Date().toISOString();
  const lines: string[] = [];
  let n = 0;
  for (const record of generateFundingRecords(Math.floor(Math.random() * 2 ** 31), records, new Date())) {
    lines.push(JSON.stringify({ ...record, date_seen: now, source_id: `bench-import-${run}-${n++}` }));
  }
  return lines.join('\n') + '\n';
}

interface ImportRun {
  status: number;
  ms: number;
  bytes: number;
  outcome: string;
}

async function runImport(baseUrl: string, body: string): Promise<ImportRun> {
  const started = performance.now();
  const response = await fetch(`${baseUrl}/admin/ingest/funding`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/x-ndjson' },
    body,
  });
  const text = await response.text();
  return {
    status: response.status,
    ms: performance.now() - started,
    bytes: Buffer.byteLength(body),
    outcome: text.slice(0, 300),
  };
}

// ---------- the run ----------

function row(window: string, family: string, f: Figures, target?: number): string {
  const check = target === undefined ? '' : ` ${verdict(f.requests > 0 && f.non2xx === 0 && f.p99Ms <= target)}`;
  return `| ${window} | ${family} | ${int(f.requests)} | ${ms(f.p50Ms)} | ${ms(f.p99Ms)}${check} | ${ms(f.maxMs)} | ${int(f.non2xx)}${f.statuses ? ` (${f.statuses})` : ''} |`;
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const startedAt = new Date();
  const machine = machineInfo();
  buildProject();
  const store = options.store === 'postgres' ? await freshPostgres() : freshPglite();
  let server: Service | undefined;
  let receiver: WebhookReceiver | undefined;
  try {
    console.log(`preparing ${store.label}...`);
    const prepared = await prepare(store, options.webhooks ? ACCOUNTS : 1);
    console.log('starting the server...');
    server = await startServer(store);
    if (options.webhooks) {
      receiver = new WebhookReceiver(await freePort());
      await receiver.start();
      await createWebhooks(server.baseUrl, prepared.keys, receiver.port);
      console.log(`${ACCOUNTS * HOOKS_PER_ACCOUNT} webhooks created`);
    }
    const body = importBody(options.records);
    console.log(
      `${options.readers} readers (${int(prepared.v1.length)} v1 and ${int(prepared.v2.length)} v2 paths); ` +
        `importing ${int(options.records)} funding rounds (${(Buffer.byteLength(body) / 1024 / 1024).toFixed(1)} MB)...`,
    );
    const readers = new Readers(server.baseUrl, prepared.keys[0]!, prepared.v1, prepared.v2, options.readers);
    const readersStart = performance.now();
    await sleep(WARMUP_MS);
    const importStart = performance.now();
    const result = await runImport(server.baseUrl, body);
    const importEnd = performance.now();
    let settleEnd = importEnd;
    let delivered = 0;
    let refused = 0;
    const expected = options.webhooks ? options.records * ACCOUNTS * HOOKS_PER_ACCOUNT : 0;
    if (options.webhooks && result.status === 200) {
      const deadline = importEnd + options.settleSeconds * 1000;
      while (receiver!.arrivals.length < expected && performance.now() < deadline) await sleep(200);
      settleEnd = performance.now();
      delivered = receiver!.arrivals.length;
      refused = receiver!.refused;
    }
    await readers.stop();
    if (result.status !== 200) console.error(`the import failed: HTTP ${result.status} ${result.outcome}`);

    const during = {
      v1: figures(readers.samples, 'v1', importStart, importEnd),
      v2: figures(readers.samples, 'v2', importStart, importEnd),
    };
    const lines = [
      HEADING,
      '',
      ...machineLines(startedAt, machine, options.store === 'postgres' ? 'server of DATABASE_URL' : 'none (PGlite)'),
      `- Store: ${options.store === 'postgres' ? 'PostgreSQL' : 'embedded (PGlite)'}, demo data set: ${rowCountList(prepared.rowCounts)}`,
      `- Command: \`npm run bench -- --only import-readers ${process.argv.slice(2).join(' ')}\`; one server process; ` +
        `${options.readers} closed-loop readers (half v1, half v2) over ${int(prepared.v1.length)} v1 and ${int(prepared.v2.length)} v2 paths drawn from the data`,
      `- Import: ${int(options.records)} funding rounds (${(result.bytes / 1024 / 1024).toFixed(1)} MB NDJSON), one upload: ` +
        `HTTP ${result.status} in ${(result.ms / 1000).toFixed(2)} s, ${int(options.records / (result.ms / 1000))} records/s`,
      ...(options.webhooks
        ? [
            `- Webhooks: ${ACCOUNTS} accounts × ${HOOKS_PER_ACCOUNT} on funding.created; ${int(delivered)} of ${int(expected)} deliveries ` +
              `in ${((settleEnd - importEnd) / 1000).toFixed(1)} s after the import (${int(refused)} bodies the receiver could not read)`,
          ]
        : []),
      '',
      '| Window | Readers | Requests | p50 ms | p99 ms | max ms | non-2xx |',
      '|---|---|---:|---:|---:|---:|---:|',
      // The last two seconds before the import: the same readers with nothing else going on.
      row('before the import', 'v1', figures(readers.samples, 'v1', Math.max(readersStart, importStart - 2000), importStart)),
      row('before the import', 'v2', figures(readers.samples, 'v2', Math.max(readersStart, importStart - 2000), importStart)),
      row('during the import', 'v1', during.v1, TARGET_V1_P99_MS),
      row('during the import', 'v2', during.v2),
      ...(options.webhooks
        ? [
            row('after it, deliveries under way', 'v1', figures(readers.samples, 'v1', importEnd, settleEnd), TARGET_V1_P99_MS),
            row('after it, deliveries under way', 'v2', figures(readers.samples, 'v2', importEnd, settleEnd)),
          ]
        : []),
      '',
      `Target: v1 p99 ≤ ${TARGET_V1_P99_MS} ms and no non-2xx answer while the import runs.`,
    ];
    const section = lines.join('\n');
    console.log(`\n${section}`);
    replaceSection(
      `${HEADING} (${options.store}${options.webhooks ? ', webhooks' : ''})`,
      section.replace(HEADING, `${HEADING} (${options.store}${options.webhooks ? ', webhooks' : ''})`),
    );
  } finally {
    await receiver?.stop();
    if (server) await stopService(server);
    await store.cleanup();
  }
}

onExitStopServers(main);
