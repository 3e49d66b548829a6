// Soak: `npm run bench -- --soak 10m`. Measures capacity on a request mix, then holds about 70 %
// of it for the given time, minute by minute, and reports p99 drift and server heap/RSS growth.
import autocannon from 'autocannon';
import { postgresVersion } from './database.js';
import { replaceSection } from './results-file.js';
import { stopAllServices } from './processes.js';
import { prepareBench } from './setup.js';
import { fundedBenchKey, HIGH_V2_LIMIT, setupLines, startWith } from './signals.js';

const CONNECTIONS = 32;

export function parseDuration(text: string): number {
  const match = /^(\d+)(s|m)?$/.exec(text.trim());
  if (!match) throw new Error(`--soak takes a duration like 10m or 90s (got ${text})`);
  return Number(match[1]) * (match[2] === 'm' ? 60 : 1);
}

/** A mix of both families: filters, first and deep pages. */
function requestMix(key: string): autocannon.Request[] {
  const v1 = { 'x-lot-api-key': key };
  const v2 = { authorization: `Bearer ${key}` };
  const paths: [string, Record<string, string>][] = [];
  for (let page = 1; page <= 40; page++) {
    paths.push([`/api/v1/funding?country=US&page=${page}`, v1]);
    paths.push([`/api/v1/m-a?status=completed&page=${page}`, v1]);
    paths.push([`/api/v2/signals/job-changes?seniorities=vp,head&page=${page}`, v2]);
    paths.push([`/api/v2/signals/investors?countries=US,GB&page=${page}`, v2]);
  }
  return paths.map(([path, headers]) => ({ method: 'GET', path, headers }));
}

interface Window {
  minute: number;
  reqPerSec: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  rssMiB: number;
  heapMiB: number;
}

async function serverMemory(baseUrl: string): Promise<{ rssMiB: number; heapMiB: number }> {
  const text = await (await fetch(`${baseUrl}/metrics`)).text();
  const value = (name: string) => Number(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, 'm').exec(text)?.[1] ?? Number.NaN);
  return {
    rssMiB: value('dealsignal_process_resident_memory_bytes') / 2 ** 20,
    heapMiB: value('dealsignal_nodejs_heap_size_used_bytes') / 2 ** 20,
  };
}

function run(options: autocannon.Options): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    autocannon(options, (err, result) => (err ? reject(err) : resolve(result)));
  });
}

/** The tables the request path updates (credit debits, keys' last use): the ones autovacuum keeps small. */
const UPDATED_TABLES = 'accounts, api_keys';

/**
 * A production PostgreSQL runs autovacuum; a server with it off (a CI configuration) lets the account
 * row, updated by every charged request, bloat without bound. Unless told not to (--no-vacuum), the
 * soak then vacuums the updated tables once a minute, as autovacuum would with its default naptime.
 */
type VacuumMode = 'autovacuum' | 'emulated' | 'none';

const VACUUM_NOTE: Record<VacuumMode, string> = {
  autovacuum: '- PostgreSQL autovacuum: on',
  emulated:
    `- PostgreSQL autovacuum is off on this server (its CI configuration); the soak runs \`VACUUM ${UPDATED_TABLES}\` ` +
    '(the tables the request path updates) before it starts and after every minute, as autovacuum would with its default one-minute naptime',
  none: '- PostgreSQL autovacuum is off on this server and not emulated (`--no-vacuum`): dead row versions of the account row accumulate',
};

export async function runSoak(seconds: number, emulateAutovacuum = true): Promise<string> {
  // The soak's own flags are not the load benchmarks' options: the defaults serve.
  const { options, startedAt, machine, db, dataset } = await prepareBench([]);
  // Neither limits nor credits may refuse the soak's traffic (the bench account's v1 limit is 2e9).
  const key = await fundedBenchKey(db);
  const pgVersion = await postgresVersion(db);
  const autovacuumOn = (await db.query<{ autovacuum: string }>('SHOW autovacuum'))[0]?.autovacuum === 'on';
  const vacuum: VacuumMode = autovacuumOn ? 'autovacuum' : emulateAutovacuum ? 'emulated' : 'none';
  const vacuumIfEmulated = async () => {
    if (vacuum === 'emulated') await db.query(`VACUUM ${UPDATED_TABLES}`);
  };
  await vacuumIfEmulated();
  const server = await startWith({ RATE_LIMIT_ENTERPRISE: HIGH_V2_LIMIT }, options, 1);
  try {
    const requests = requestMix(key);
    // One pass first, so the capacity is that of the steady state (every path asked once).
    await run({ url: server.baseUrl, connections: CONNECTIONS, duration: 10, requests });
    const capacity = await run({ url: server.baseUrl, connections: CONNECTIONS, duration: 15, requests });
    const rate = Math.round(capacity.requests.average * 0.7);
    console.log(`capacity on the mix: ${Math.round(capacity.requests.average)} req/s; soaking at ${rate} req/s for ${seconds} s`);
    const windows: Window[] = [];
    const start = await serverMemory(server.baseUrl);
    for (let minute = 1, left = seconds; left > 0; minute++, left -= 60) {
      const result = await run({
        url: server.baseUrl,
        connections: CONNECTIONS,
        duration: Math.min(60, left),
        overallRate: rate,
        requests,
      });
      await vacuumIfEmulated();
      const memory = await serverMemory(server.baseUrl);
      const window = {
        minute,
        reqPerSec: result.requests.average,
        p50: result.latency.p50,
        p99: result.latency.p99,
        non2xx: result.non2xx,
        errors: result.errors + result.timeouts,
        ...memory,
      };
      windows.push(window);
      console.log(
        `minute ${minute}: ${Math.round(window.reqPerSec)} req/s, p50 ${window.p50} ms, p99 ${window.p99} ms, ` +
          `RSS ${window.rssMiB.toFixed(0)} MiB, heap ${window.heapMiB.toFixed(0)} MiB, non-2xx ${window.non2xx}, errors ${window.errors}`,
      );
    }
    const setup = setupLines(startedAt, machine, pgVersion, dataset);
    return renderSoak({
      poolSize: options.poolSize,
      seconds,
      capacity: capacity.requests.average,
      rate,
      start,
      windows,
      setup: [...setup, VACUUM_NOTE[vacuum]],
    });
  } finally {
    await stopAllServices();
    await db.close();
  }
}

const signed = (n: number) => `${n >= 0 ? '+' : '−'}${Math.abs(n).toFixed(1)}`;

function renderSoak(run: {
  poolSize: number;
  seconds: number;
  capacity: number;
  rate: number;
  start: { rssMiB: number; heapMiB: number };
  windows: Window[];
  setup: string[];
}): string {
  const first = run.windows[0]!;
  const last = run.windows.at(-1)!;
  // Minute-to-minute p99 is noisy; drift compares the median p99 of the first and second halves.
  const median = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    const mid = Math.floor(sorted.length / 2);
    return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  };
  const p99s = run.windows.map((w) => w.p99);
  const half = Math.floor(p99s.length / 2);
  const earlyP99 = median(p99s.slice(0, Math.max(1, half)));
  const lateP99 = median(p99s.slice(half));
  const maxOf = (pick: (w: Window) => number) => Math.max(...run.windows.map(pick));
  const failed = run.windows.reduce((sum, w) => sum + w.non2xx + w.errors, 0);
  const lines = [
    '## Soak',
    '',
    ...run.setup,
    `- Server: \`dealsignal serve --workers 1\`, pool ${run.poolSize}, lists from its in-memory read model, rate limits on in memory and credits ` +
      'debited on v2, both set never to refuse; memory read from its own `/metrics` after each minute',
    `- Mix: 160 paths over both families (v1 funding and m-a pages 1-40, v2 job changes and investors pages 1-40), ${CONNECTIONS} connections (autocannon)`,
    `- Capacity on the mix: ${Math.round(run.capacity)} req/s; soak at ${run.rate} req/s (70 %) for ${run.seconds} s`,
    `- Server memory before the soak: RSS ${run.start.rssMiB.toFixed(0)} MiB, heap ${run.start.heapMiB.toFixed(0)} MiB`,
    '',
    '| minute | req/s | p50 ms | p99 ms | RSS MiB | heap MiB | non-2xx | errors |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...run.windows.map(
      (w) =>
        `| ${w.minute} | ${Math.round(w.reqPerSec)} | ${w.p50} | ${w.p99} | ${w.rssMiB.toFixed(0)} | ${w.heapMiB.toFixed(0)} | ${w.non2xx} | ${w.errors} |`,
    ),
    '',
    `Memory: RSS ${first.rssMiB.toFixed(0)} MiB after minute 1, ${last.rssMiB.toFixed(0)} MiB at the end ` +
      `(${signed(last.rssMiB - first.rssMiB)} MiB; highest ${maxOf((w) => w.rssMiB).toFixed(0)}); heap ${first.heapMiB.toFixed(0)} → ` +
      `${last.heapMiB.toFixed(0)} MiB (highest ${maxOf((w) => w.heapMiB).toFixed(0)}).`,
    `p99: median ${earlyP99} ms over the first half, ${lateP99} ms over the second (drift ${signed(lateP99 - earlyP99)} ms); ` +
      `range ${Math.min(...p99s)}–${Math.max(...p99s)} ms. Non-2xx and errors over the whole soak: ${failed}.`,
    '',
  ];
  return lines.join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const index = process.argv.indexOf('--soak');
  const seconds = parseDuration(index >= 0 ? (process.argv[index + 1] ?? '10m') : '10m');
  const section = await runSoak(seconds, !process.argv.includes('--no-vacuum'));
  console.log(`\n${section}`);
  replaceSection('## Soak', section);
}
