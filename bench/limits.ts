// The full keyed v2 path (key, Redis rate limit, credits, query) next to the same path without a limiter,
// then two instances sharing one Redis: `node --import tsx bench/limits.ts [--duration N] [--warmup N]`.
import { Redis } from 'ioredis';
import { postgresVersion } from './database.js';
import { runHttpLoad, type LoadTool } from './load.js';
import type { BenchOptions } from './options.js';
import { stopService, type Service } from './processes.js';
import type { LoadResult } from './stats.js';
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
  verdict,
  waitForQuiet,
  writeSection,
} from './signals.js';
import { prepareBench } from './setup.js';

const REDIS_URL = process.env.REDIS_URL?.trim() || 'redis://127.0.0.1:6379';
const PATH = '/api/v2/signals/investors?countries=US&limit=20';
const P50_BUDGET_MS = 1;

interface Context {
  options: BenchOptions;
  tool: LoadTool;
  headers: Record<string, string>;
}

interface Single {
  name: string;
  limitHeader: string | null;
  totalCount: number;
  load: LoadResult;
}

async function redisReachable(): Promise<void> {
  const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    await redis.ping();
  } finally {
    redis.disconnect();
  }
}

/** One server, one check request, then the load. */
async function single(ctx: Context, name: string, env: Record<string, string | undefined>): Promise<Single> {
  console.log(`\n--- ${name}`);
  const server = await startWith({ RATE_LIMIT_ENTERPRISE: HIGH_V2_LIMIT, ...env }, ctx.options);
  try {
    const check = await probe(server.baseUrl + PATH, ctx.headers);
    if (check.status !== 200) loud(`${name}: HTTP ${check.status}: ${check.body.slice(0, 300)}`);
    const limitHeader = check.headers.get('x-ratelimit-limit');
    console.log(`   HTTP ${check.status}, totalCount ${int(check.totalCount)}, X-RateLimit-Limit ${limitHeader ?? '(absent)'}`);
    await waitForQuiet();
    const load = await measureLoad(ctx.tool, ctx.options, server.baseUrl + PATH, ctx.headers);
    checkLoad(name, load);
    console.log(`   ${describe(load)}`);
    return { name, limitHeader, totalCount: check.totalCount, load };
  } finally {
    await stopService(server);
  }
}

interface Pair {
  loads: [LoadResult, LoadResult];
  /** Requests each instance sees counted in the window right after the run: equal when the window is shared. */
  counted: [number, number];
}

async function counted(server: Service, headers: Record<string, string>): Promise<number> {
  const check = await probe(server.baseUrl + PATH, headers);
  return Number(check.headers.get('x-ratelimit-limit')) - Number(check.headers.get('x-ratelimit-remaining'));
}

/** Two single-worker servers, one Redis, half the connections each, both loads started together. */
async function twoInstances(ctx: Context): Promise<Pair> {
  console.log('\n--- two instances, one Redis');
  const env = { RATE_LIMIT_ENTERPRISE: HIGH_V2_LIMIT, REDIS_URL, RATE_LIMITS: 'true' };
  const servers = [await startWith(env, ctx.options, 1), await startWith(env, ctx.options, 1)] as const;
  try {
    for (const server of servers) {
      const check = await probe(server.baseUrl + PATH, ctx.headers);
      if (check.status !== 200) loud(`instance ${server.baseUrl}: HTTP ${check.status}: ${check.body.slice(0, 300)}`);
    }
    const half = Math.max(1, Math.floor(ctx.options.connections / 2));
    const both = (seconds: number) =>
      Promise.all(
        servers.map((server) =>
          runHttpLoad(ctx.tool, { url: server.baseUrl + PATH, headers: ctx.headers, connections: half, seconds }),
        ),
      );
    await waitForQuiet();
    await both(ctx.options.warmupSeconds);
    const [a, b] = await both(ctx.options.durationSeconds);
    checkLoad('instance 1', a!);
    checkLoad('instance 2', b!);
    console.log(`   instance 1: ${describe(a!)}\n   instance 2: ${describe(b!)}`);
    const seen: [number, number] = [await counted(servers[0], ctx.headers), await counted(servers[1], ctx.headers)];
    console.log(`   counted in the window, as each instance sees it: ${int(seen[0])} / ${int(seen[1])}`);
    return { loads: [a!, b!], counted: seen };
  } finally {
    await Promise.all(servers.map((server) => stopService(server)));
  }
}

function tables(ctx: Context, limited: Single, open: Single, pair: Pair, unrecorded: Single): string[] {
  const usageDiff = limited.load.p50Ms - unrecorded.load.p50Ms;
  const diff = limited.load.p50Ms - open.load.p50Ms;
  const row = (name: string, connections: number, l: LoadResult) =>
    `| ${name} | ${connections} | ${int(l.reqPerSec)} | ${ms(l.p50Ms)} | ${ms(l.p99Ms)} | ${l.failures + l.socketErrors} |`;
  const half = Math.max(1, Math.floor(ctx.options.connections / 2));
  const [a, b] = pair.loads;
  const combined = a.reqPerSec + b.reqPerSec;
  const shared = Math.abs(pair.counted[0] - pair.counted[1]) <= 2 && pair.counted[0] > 0;
  return [
    '| run | connections | req/s | p50 ms | p99 ms | non-2xx + errors |',
    '|---|---:|---:|---:|---:|---:|',
    row(`one instance (${ctx.options.workers} workers), rate limit on, Redis`, ctx.options.connections, limited.load),
    row(`one instance (${ctx.options.workers} workers), RATE_LIMITS=false`, ctx.options.connections, open.load),
    row(
      `one instance (${ctx.options.workers} workers), rate limit on, USAGE_RECORDING=false`,
      ctx.options.connections,
      unrecorded.load,
    ),
    row('two instances (1 worker each), Redis: instance 1', half, a),
    row('two instances (1 worker each), Redis: instance 2', half, b),
    `| two instances: combined | ${half * 2} | ${int(combined)} | | p99 ${ms(a.p99Ms)} / ${ms(b.p99Ms)} | |`,
    '',
    `p50 cost of the limiter: ${ms(diff)} ms (${ms(limited.load.p50Ms)} − ${ms(open.load.p50Ms)}); ` +
      `throughput ${int(limited.load.reqPerSec)} vs ${int(open.load.reqPerSec)} req/s.`,
    `Usage recording, before/after: p50 ${ms(unrecorded.load.p50Ms)} ms without, ${ms(limited.load.p50Ms)} ms with ` +
      `(${ms(usageDiff)} ms); ${int(unrecorded.load.reqPerSec)} vs ${int(limited.load.reqPerSec)} req/s.`,
    `Shared window: right after the two-instance run, instance 1 counts ${int(pair.counted[0])} and instance 2 ` +
      `${int(pair.counted[1])} requests in the account's window${shared ? ' (the same window)' : ' (**not the same: not shared?**)'}.`,
    '',
    '| target | measured | result |',
    '|---|---:|---|',
    `| limiter costs ≤ ${P50_BUDGET_MS} ms at p50 | ${ms(diff)} ms | ${verdict(diff <= P50_BUDGET_MS)} |`,
    `| two instances share one window (Redis) | ${int(pair.counted[0])} / ${int(pair.counted[1])} | ${verdict(shared)} |`,
  ];
}

async function main(): Promise<void> {
  await redisReachable();
  const { options, startedAt, machine, tool, db, dataset } = await prepareBench();
  try {
    const ctx: Context = { options, tool, headers: { authorization: `Bearer ${await fundedBenchKey(db)}` } };
    const limited = await single(ctx, 'rate limit on, Redis', { REDIS_URL, RATE_LIMITS: 'true' });
    if (limited.limitHeader === null) loud('no X-RateLimit-Limit header with limits on: the limiter is not in the path');
    const open = await single(ctx, 'RATE_LIMITS=false', { REDIS_URL, RATE_LIMITS: 'false' });
    if (open.limitHeader !== null) loud('X-RateLimit-Limit present with RATE_LIMITS=false');
    const unrecorded = await single(ctx, 'USAGE_RECORDING=false', { REDIS_URL, RATE_LIMITS: 'true', USAGE_RECORDING: 'false' });
    const pair = await twoInstances(ctx);
    const body = tables(ctx, limited, open, pair, unrecorded);
    console.log('\n' + body.join('\n'));
    const o = options;
    const section = [
      '## Rate limits: full path',
      '',
      ...setupLines(startedAt, machine, await postgresVersion(db), dataset),
      `- \`GET ${PATH}\` (${int(limited.totalCount)} matching records), Bearer key of an enterprise account funded with ` +
        '1,000,000,000 credits; `RATE_LIMIT_ENTERPRISE=1000000` (the highest the configuration accepts), never reached, ' +
        'so every request goes through key → Redis rate limit → validation → query (the read model) → credit debit → usage',
      `- Load: ${tool}, ${o.warmupSeconds} s warm-up then ${o.durationSeconds} s measured; one instance: ${o.workers} worker ` +
        `processes × pool ${o.poolSize}; two instances: 1 worker each (the same number of server processes on the two cores), ` +
        `one wrk each at ${Math.floor(o.connections / 2)} connections, started together; Redis ${REDIS_URL}`,
      '- Usage recording (buffered in memory, one multi-row INSERT per second or per 1,000 events, off the request path) ' +
        'is measured against the same path with USAGE_RECORDING=false.',
      '',
      ...body,
      '',
    ].join('\n');
    writeSection('## Rate limits: full path', section);
  } finally {
    await db.close();
  }
}

onExitStopServers(main);
