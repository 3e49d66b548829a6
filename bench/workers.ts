// What `serve --workers N` gains on this machine: the same requests against one worker and against
// one worker per core (the default with PostgreSQL).
// `node --import tsx bench/workers.ts [--duration N] [--warmup N] [--connections N]`.
import { availableParallelism } from 'node:os';
import { postgresVersion } from './database.js';
import type { LoadTool } from './load.js';
import type { BenchOptions } from './options.js';
import { stopService } from './processes.js';
import {
  checkLoad,
  describe,
  fundedBenchKey,
  HIGH_V2_LIMIT,
  int,
  loud,
  measureLoad,
  ms,
  onExitStopServers,
  probe,
  setupLines,
  startWith,
  waitForQuiet,
  writeSection,
} from './signals.js';
import type { LoadResult } from './stats.js';
import { prepareBench } from './setup.js';

const HEADING = '## Workers';

interface Target {
  name: string;
  path: string;
  headers: (key: string) => Record<string, string>;
}

const v1 = (key: string) => ({ 'x-lot-api-key': key });
const v2 = (key: string) => ({ authorization: `Bearer ${key}` });

const TARGETS: Target[] = [
  { name: 'v1 funding, page 1', path: '/api/v1/funding', headers: v1 },
  { name: 'v1 funding, category=fintech page 3', path: '/api/v1/funding?category=fintech&page=3', headers: v1 },
  { name: 'v2 investors, countries=US', path: '/api/v2/signals/investors?countries=US&limit=20', headers: v2 },
];

interface Row {
  target: Target;
  workers: number;
  load: LoadResult;
}

async function measure(tool: LoadTool, options: BenchOptions, key: string, target: Target, workers: number): Promise<Row> {
  console.log(`\n--- ${target.name}, ${workers} worker${workers === 1 ? '' : 's'}`);
  // Rate limits stay on (in memory, as a single instance runs), set high enough never to refuse.
  const server = await startWith({ RATE_LIMIT_ENTERPRISE: HIGH_V2_LIMIT, REDIS_URL: '' }, options, workers);
  try {
    const headers = target.headers(key);
    const check = await probe(server.baseUrl + target.path, headers);
    if (check.status !== 200) loud(`${target.name}: HTTP ${check.status}: ${check.body.slice(0, 300)}`);
    await waitForQuiet();
    const load = await measureLoad(tool, options, server.baseUrl + target.path, headers);
    checkLoad(target.name, load);
    console.log(`   ${describe(load)}`);
    return { target, workers, load };
  } finally {
    await stopService(server);
  }
}

function table(rows: Row[], counts: number[]): string[] {
  const lines = [
    `| request | workers | req/s | p50 ms | p99 ms | non-2xx + errors | req/s vs 1 worker |`,
    '|---|---:|---:|---:|---:|---:|---:|',
  ];
  const many = counts.at(-1)!;
  const ratios: { rps: number; p99: number }[] = [];
  for (const target of TARGETS) {
    const at = (workers: number) => rows.find((r) => r.target === target && r.workers === workers)!.load;
    const one = at(1);
    for (const workers of counts) {
      const l = at(workers);
      const gain = one.reqPerSec > 0 ? `${(l.reqPerSec / one.reqPerSec).toFixed(2)}×` : 'n/a';
      lines.push(
        `| ${target.name} | ${workers} | ${int(l.reqPerSec)} | ${ms(l.p50Ms)} | ${ms(l.p99Ms)} | ${l.failures + l.socketErrors} | ${gain} |`,
      );
    }
    ratios.push({ rps: at(many).reqPerSec / one.reqPerSec, p99: at(many).p99Ms / one.p99Ms });
  }
  if (many === 1) return lines;
  const range = (values: number[]) => `${Math.min(...values).toFixed(2)}–${Math.max(...values).toFixed(2)}×`;
  lines.push(
    '',
    `${many} workers against 1 on this machine: throughput ${range(ratios.map((r) => r.rps))}, ` +
      `p99 ${range(ratios.map((r) => r.p99))} (same requests, same connections).`,
  );
  return lines;
}

async function main(): Promise<void> {
  const { options, startedAt, machine, tool, db, dataset } = await prepareBench();
  try {
    const key = await fundedBenchKey(db);
    const counts = [...new Set([1, availableParallelism()])];
    const rows: Row[] = [];
    for (const target of TARGETS) for (const workers of counts) rows.push(await measure(tool, options, key, target, workers));
    const body = table(rows, counts);
    console.log('\n' + body.join('\n'));
    const section = [
      HEADING,
      '',
      ...setupLines(startedAt, machine, await postgresVersion(db), dataset),
      `- \`dealsignal serve --workers N\`, N = 1 and N = ${availableParallelism()} (one per core, the default with PostgreSQL); ` +
        `each worker its own pool of ${options.poolSize}; rate limits on (in memory, never reached), credits debited on v2`,
      `- Load: ${tool}, ${options.connections} connections, ${options.warmupSeconds} s warm-up then ` +
        `${options.durationSeconds} s measured per row`,
      '',
      ...body,
      '',
    ].join('\n');
    writeSection(HEADING, section);
  } finally {
    await db.close();
  }
}

onExitStopServers(main);
