// Monitors under load, one worker, on whatever data the bench database holds (a companies table is
// needed; with none, the demo set is loaded):
// - adding 1,000 targets to a monitor in two calls of 500 (real company websites, LinkedIn pages and
//   unknown domains), five monitors of five accounts (target ≤ 1 s a call);
// - an import of 10,000 funding rounds of which 500 name companies ten webhook monitors watch: from
//   the import's acknowledgement, when every matching delivery is queued (≤ 2 s) and when each
//   arrives at a local receiver (p99 ≤ 2 s);
// - a list mix drawn from the data (company searches, signal lists by domain, pages 1–3) before and
//   after 2,000,000 targets are stored (100 accounts × 20 monitors × 1,000, written by SQL): p99 and
//   throughput within 10 %.
//
//   BENCH_DATABASE_URL=postgres://…/dealsignal_bench_monitors node --import tsx bench/monitors.ts [--duration N]
//   (npm run bench -- --only monitors)
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Database } from '../src/platform/db/port.js';
import { createApiKey } from '../src/accounts/api-keys.js';
import { adjustCredits } from '../src/accounts/credit-queries.js';
import { seedDatabase, startOfTodayUtc } from '../src/demo/seed.js';
import { countDatasetRows } from '../src/ingest/index.js';
import { postgresVersion } from './database.js';
import { WORK_DIR } from './options.js';
import { stopService } from './processes.js';
import { preparePart } from './setup.js';
import {
  describe,
  fundedBenchKey,
  HIGH_V2_LIMIT,
  int,
  machineLines,
  ms,
  onExitStopServers,
  rowCountList,
  startWith,
  verdict,
  waitForQuiet,
  writeSection,
} from './signals.js';
import { Random } from './realistic-paths.js';
import { companyListMix, loadPaths } from './mixes.js';
import { percentile, type LoadResult } from './stats.js';

const HEADING = '## Monitors';
const LIST_DIR = join(WORK_DIR, 'monitors');
const ADMIN_TOKEN = randomBytes(24).toString('hex');
const SIGNAL_TYPES = ['funding_round', 'acquisition', 'job_change', 'hiring'];

const pct = (values: readonly number[], p: number) => percentile(Float64Array.from(values).sort(), p);

interface Known {
  record_id: string;
  name: string;
  website_key: string | null;
  linkedin_key: string | null;
}

/** The data the bench needs: the companies it finds, or the demo set loaded into an empty database. */
async function companiesData(db: Database): Promise<{ rowCounts: Record<string, number> }> {
  let rowCounts: Record<string, number> = { ...(await countDatasetRows(db)) };
  if (!rowCounts.companies) {
    console.log('no companies: loading the demo data set...');
    await seedDatabase(db, { scale: 'demo', seed: 42, asOf: startOfTodayUtc() });
    rowCounts = { ...(await countDatasetRows(db)) };
  }
  return { rowCounts };
}

async function api(base: string, key: string, method: string, path: string, body?: unknown) {
  const started = performance.now();
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${path}: HTTP ${res.status} ${text.slice(0, 300)}`);
  return { ms: performance.now() - started, body: JSON.parse(text) as { data: Record<string, unknown> } };
}

/** A receiver that answers 200 at once and notes when each monitor event arrived, by the record's company. */
async function startReceiver(): Promise<{ server: Server; port: number; arrivals: Map<string, number> }> {
  const arrivals = new Map<string, number>();
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const at = performance.now();
      try {
        const event = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { event_id: string };
        arrivals.set(event.event_id, at);
      } catch {
        // Not a monitor event: not counted.
      }
      response.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port, arrivals };
}

/** Funding rounds of the demo generator's shape naming `name` and `website` (a source id of their own each). */
function round(name: string, website: string, tag: string): string {
  return JSON.stringify({
    company_name: name,
    source_id: `bench-monitors-${tag}`,
    round_type: 'seed',
    funding_amount: 2_000_000,
    currency: 'USD',
    ceo: null,
    investors: [],
    company_info: { name, website: `https://${website}`, industry: 'Software', hq_country: 'United States', categories: [] },
    contact_info: [],
    date_seen: new Date().toISOString(),
  });
}

async function main(): Promise<void> {
  const { options, startedAt, machine, tool, db, dataset } = await preparePart(process.argv.slice(2), {
    workers: 1,
    data: companiesData,
  });
  try {
    const companies = await db.query<Known>(
      `SELECT record_id::text AS record_id, name, website_key, linkedin_key FROM companies
        WHERE origin = 'import' AND website_key ~ '^[a-z0-9.-]+\\.[a-z]{2,}$' ORDER BY id LIMIT 20000`,
    );
    if (companies.length < 2000) throw new Error(`the bench needs 2,000 imported companies with a website (${companies.length})`);
    mkdirSync(LIST_DIR, { recursive: true });
    const key = await fundedBenchKey(db);
    const keyFile = join(LIST_DIR, 'key');
    writeFileSync(keyFile, `${key}\n`, { mode: 0o600 });
    const run = randomBytes(4).toString('hex');
    const accounts: { key: string; accountId: number }[] = [];
    for (let i = 0; i < 10; i++) {
      const made = await createApiKey(db, {
        email: `bench-monitors-${run}-${i}@dealsignal.local`,
        tier: 'enterprise',
        name: 'bench',
      });
      await adjustCredits(db, made.accountId, { set: 10_000_000 });
      accounts.push(made);
    }
    const receiver = await startReceiver();
    const server = await startWith(
      {
        ADMIN_TOKEN,
        RATE_LIMIT_ENTERPRISE: HIGH_V2_LIMIT,
        WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8',
        MONITOR_TARGETS_MAX_ENTERPRISE: '20000',
      },
      options,
    );
    const lines: string[] = [];
    const random = new Random(30);
    let manyAccounts: number[] = [];
    try {
      const base = server.baseUrl;
      await waitForQuiet();

      // 1. 1,000 targets a monitor, in two calls of 500: 60 % websites of companies we have, 20 % their
      //    LinkedIn pages (or websites), 20 % domains nobody has.
      const addTimes: number[] = [];
      let resolved = 0;
      for (let m = 0; m < 5; m++) {
        const account = accounts[m]!;
        const monitor = (
          await api(base, account.key, 'POST', '/api/v2/monitors', { name: `Bench ${m}`, signal_types: SIGNAL_TYPES })
        ).body.data as { id: string };
        for (let call = 0; call < 2; call++) {
          const targets = Array.from({ length: 500 }, (_, i) => {
            const company = random.pick(companies);
            const roll = random.int(0, 9);
            if (roll < 6) return `https://www.${company.website_key}/`;
            if (roll < 8) return company.linkedin_key ?? company.website_key!;
            return `unknown-${run}-${m}-${call}-${i}.example`;
          });
          const added = await api(base, account.key, 'POST', `/api/v2/monitors/${monitor.id}/targets`, { targets });
          addTimes.push(added.ms);
          resolved = Number((added.body.data as { resolved_companies: number }).resolved_companies);
        }
      }
      console.log(`add 500 targets: ${addTimes.map((t) => int(t)).join(', ')} ms; last monitor ${resolved} companies`);
      lines.push(
        `| 1,000 targets added to a monitor in two calls of 500 (5 monitors; 60 % websites we have, 20 % LinkedIn pages, 20 % unknown) | ` +
          `median ${int(pct(addTimes, 50))} ms, slowest ${int(Math.max(...addTimes))} ms | ≤ 1,000 ms a call | ${verdict(Math.max(...addTimes) <= 1000)} |`,
      );

      // 2. An import of 10,000 rounds, 500 of them naming companies ten webhook monitors watch (50 each).
      const watched = companies.slice(0, 500);
      for (let m = 0; m < 10; m++) {
        const account = accounts[m]!;
        const monitor = (
          await api(base, account.key, 'POST', '/api/v2/monitors', {
            name: `Webhook ${m}`,
            signal_types: ['funding_round'],
            webhook_url: `http://127.0.0.1:${receiver.port}/m/${m}`,
          })
        ).body.data as { id: string };
        await api(base, account.key, 'POST', `/api/v2/monitors/${monitor.id}/targets`, {
          targets: watched.slice(m * 50, m * 50 + 50).map((c) => c.website_key!),
        });
      }
      const lines10k = Array.from({ length: 10_000 }, (_, i) => {
        if (i % 20 === 0) {
          const company = watched[i / 20]!;
          return round(company.name, company.website_key!, `${run}-w${i}`);
        }
        return round(`Unwatched ${run} ${i}`, `unwatched-${run}-${i}.example`, `${run}-u${i}`);
      });
      const before = await db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id WHERE w.monitor_id IS NOT NULL`,
      );
      const sent = performance.now();
      const res = await fetch(`${base}/admin/ingest/funding`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/x-ndjson' },
        body: lines10k.join('\n') + '\n',
      });
      const ackText = await res.text();
      const ack = performance.now();
      if (res.status !== 200) throw new Error(`import: HTTP ${res.status} ${ackText.slice(0, 300)}`);
      let queuedAt = Number.NaN;
      const expected = before[0]!.n + 500;
      for (;;) {
        const now = await db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id WHERE w.monitor_id IS NOT NULL`,
        );
        if (now[0]!.n >= expected) {
          queuedAt = performance.now();
          break;
        }
        if (performance.now() - ack > 60_000) break;
        await sleep(20);
      }
      const deadline = performance.now() + 60_000;
      while (receiver.arrivals.size < 500 && performance.now() < deadline) await sleep(20);
      const fromAck = [...receiver.arrivals.values()].map((at) => at - ack);
      console.log(
        `import of 10,000 (500 watched): ack ${int(ack - sent)} ms, queued ${int(queuedAt - ack)} ms after, ` +
          `${receiver.arrivals.size} arrived, p50 ${int(pct(fromAck, 50))} p99 ${int(pct(fromAck, 99))} ms`,
      );
      lines.push(
        `| import of 10,000 funding rounds, 500 naming companies 10 webhook monitors watch: every delivery queued, from the acknowledgement (${int(ack - sent)} ms) | ` +
          `${int(queuedAt - ack)} ms | ≤ 2,000 ms | ${verdict(queuedAt - ack <= 2000)} |`,
        `| … each delivery's arrival at a local receiver, from the acknowledgement | ${receiver.arrivals.size} of 500 arrived; p50 ${int(pct(fromAck, 50))} ms, ` +
          `p99 ${int(pct(fromAck, 99))} ms | p99 ≤ 2,000 ms | ${verdict(receiver.arrivals.size === 500 && pct(fromAck, 99) <= 2000)} |`,
      );

      // 3. The list mix without and with 2,000,000 targets stored.
      const listFile = join(LIST_DIR, 'lists.txt');
      writeFileSync(listFile, companyListMix(companies, 29).join('\n') + '\n');
      const seconds = options.durationSeconds;
      await loadPaths(tool, base, options, listFile, keyFile, options.warmupSeconds);
      const without: LoadResult[] = [];
      for (let i = 0; i < 2; i++) without.push(await loadPaths(tool, base, options, listFile, keyFile, seconds));
      console.log(`lists without: ${without.map(describe).join(' | ')}`);
      const storedAt = performance.now();
      manyAccounts = await storeTargets(db, companies, run);
      const storeSeconds = (performance.now() - storedAt) / 1000;
      await loadPaths(tool, base, options, listFile, keyFile, options.warmupSeconds);
      const withTargets: LoadResult[] = [];
      for (let i = 0; i < 2; i++) withTargets.push(await loadPaths(tool, base, options, listFile, keyFile, seconds));
      console.log(`lists with 2,000,000 targets: ${withTargets.map(describe).join(' | ')}`);
      const p99 = (loads: LoadResult[]) => loads.map((l) => ms(l.p99Ms)).join(' / ');
      const rps = (loads: LoadResult[]) => loads.map((l) => int(l.reqPerSec)).join(' / ');
      const best = (loads: LoadResult[]) => Math.min(...loads.map((l) => l.p99Ms));
      const most = (loads: LoadResult[]) => Math.max(...loads.map((l) => l.reqPerSec));
      const failures = [...without, ...withTargets].reduce((sum, l) => sum + l.failures + l.socketErrors, 0);
      const slower = best(withTargets) / best(without);
      const fewer = most(without) / most(withTargets);
      lines.push(
        `| list mix (3,000 distinct requests) without → with 2,000,000 targets (100 accounts × 20 monitors × 1,000, stored in ${int(storeSeconds)} s) | ` +
          `p99 ${p99(without)} → ${p99(withTargets)} ms; ${rps(without)} → ${rps(withTargets)} req/s; ${failures} non-2xx | ` +
          `≤ 10 % slower | ${verdict(failures === 0 && slower <= 1.1 && fewer <= 1.1)} |`,
      );
    } finally {
      await stopService(server);
      receiver.server.close();
    }
    const counts = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM monitor_targets');
    // The 2,000,000 go again (the bench database is left as it was, for the other parts).
    await db.query('DELETE FROM monitors WHERE account_id = ANY($1::bigint[])', [manyAccounts]);
    await settle(db);
    const section = [
      HEADING,
      '',
      '`npm run bench -- --only monitors` (bench/monitors.ts).',
      '',
      ...machineLines(startedAt, machine, await postgresVersion(db)),
      `- Data: ${rowCountList(dataset.rowCounts)}; ${int(counts[0]!.n)} monitor targets at the end`,
      `- Server: \`dealsignal serve --workers ${options.workers}\` with webhook delivery and the monitor pass, limits and ` +
        `credits on; wrk, ${options.connections} connections; the receiver runs in the bench process.`,
      '',
      '| Measure | Figures | Target | |',
      '|---|---|---|---|',
      ...lines,
      '',
    ].join('\n');
    console.log(`\n${section}`);
    writeSection(HEADING, section);
  } finally {
    await db.close();
  }
}

/**
 * What follows writing or deleting millions of rows done at once (vacuum, statistics, a checkpoint),
 * so the lists are measured in the steady state of a store that holds the targets, not while
 * PostgreSQL's background work on them shares the two cores.
 */
async function settle(db: Database): Promise<void> {
  const run = (sql: string) => (db.maintenance ? db.maintenance(sql) : db.exec(sql));
  await run('VACUUM (ANALYZE) monitor_targets');
  await run('VACUUM (ANALYZE) monitors');
  await run('CHECKPOINT');
}

/**
 * 100 accounts × 20 monitors × 1,000 targets, written by SQL (through the API it would take an hour
 * of the bench): targets of real companies, resolved, as the API stores them.
 */
async function storeTargets(db: Database, companies: readonly Known[], run: string): Promise<number[]> {
  const accountIds: number[] = [];
  for (let i = 0; i < 100; i++) {
    const made = await createApiKey(db, {
      email: `bench-monitors-${run}-many-${i}@dealsignal.local`,
      tier: 'enterprise',
      name: 'bench',
    });
    accountIds.push(made.accountId);
  }
  await db.query(
    `INSERT INTO monitors (id, account_id, name, signal_types)
     SELECT gen_random_uuid(), a, 'Bench ' || m, ARRAY['funding_round','acquisition','job_change','hiring']
       FROM unnest($1::bigint[]) a CROSS JOIN generate_series(1, 20) m`,
    [accountIds],
  );
  const ids = companies.map((c) => c.record_id);
  const keys = companies.map((c) => c.website_key);
  await db.query(
    `INSERT INTO monitor_targets (id, monitor_id, account_id, type, value, company_id, resolved_at)
     SELECT gen_random_uuid(), m.id, m.account_id, 'domain', ($2::text[])[1 + (t + n) % $4] || '-' || t, ($3::uuid[])[1 + (t + n) % $4], now()
       FROM (SELECT id, account_id, row_number() OVER () AS n FROM monitors WHERE account_id = ANY($1::bigint[])) m
      CROSS JOIN generate_series(1, 1000) t`,
    [accountIds, keys, ids, ids.length],
  );
  await settle(db);
  return accountIds;
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) onExitStopServers(main);
