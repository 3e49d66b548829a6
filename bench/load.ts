import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { commandExists } from './processes.js';
import { PROJECT_DIR } from './options.js';
import type { LoadResult } from './stats.js';

export type LoadTool = 'wrk' | 'autocannon';

export interface HttpLoad {
  url: string;
  headers: Record<string, string>;
  connections: number;
  seconds: number;
  /** A wrk Lua script that shapes each request (wrk only), with the arguments its init() receives. */
  script?: { file: string; args: string[] };
  /** Seconds before wrk gives up on a response and counts a timeout (wrk's default: 2). */
  timeoutSeconds?: number;
}

/** wrk takes the least of the shared cores; autocannon is the fallback when it cannot be installed. */
export async function chooseLoadTool(): Promise<LoadTool> {
  if (commandExists('wrk')) return 'wrk';
  console.log('wrk not found: installing it with apt-get...');
  const installed = await runCommand('sh', ['-c', 'apt-get update -qq && apt-get install -y -qq wrk']);
  if (installed.code === 0 && commandExists('wrk')) return 'wrk';
  console.warn('!! wrk could not be installed; falling back to autocannon (it uses more CPU, figures are lower)');
  return 'autocannon';
}

export function runHttpLoad(tool: LoadTool, load: HttpLoad): Promise<LoadResult> {
  if (load.script && tool !== 'wrk') return Promise.reject(new Error(`a scripted load needs wrk (${load.script.file})`));
  return tool === 'wrk' ? runWrk(load) : runAutocannon(load);
}

interface CommandOutput {
  code: number | null;
  stdout: string;
  stderr: string;
}

function runCommand(command: string, args: string[]): Promise<CommandOutput> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

async function runWrk(load: HttpLoad): Promise<LoadResult> {
  const headerArgs = Object.entries(load.headers).flatMap(([name, value]) => ['-H', `${name}: ${value}`]);
  // One thread per core: more threads only compete with the server for the same two cores.
  const threads = String(Math.min(2, load.connections));
  const args = ['-t', threads, '-c', String(load.connections), '-d', `${load.seconds}s`, '--latency', ...headerArgs];
  if (load.timeoutSeconds !== undefined) args.push('--timeout', `${load.timeoutSeconds}s`);
  if (load.script) args.push('-s', load.script.file, load.url, '--', ...load.script.args);
  else args.push(load.url);
  const out = await runCommand('wrk', args);
  if (out.code !== 0) throw new Error(`wrk failed (exit ${out.code}): ${out.stderr || out.stdout}`);
  return parseWrkOutput(out.stdout);
}

const TIME_UNITS_MS: Record<string, number> = { us: 0.001, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

function wrkTimeMs(text: string): number {
  const match = /^([\d.]+)(us|ms|s|m|h)$/.exec(text.trim());
  if (!match) throw new Error(`unexpected wrk time value "${text}"`);
  return Number(match[1]) * TIME_UNITS_MS[match[2]!]!;
}

function matchOrThrow(output: string, pattern: RegExp, what: string): RegExpExecArray {
  const match = pattern.exec(output);
  if (!match) throw new Error(`could not find ${what} in wrk output:\n${output}`);
  return match;
}

export function parseWrkOutput(output: string): LoadResult {
  const p50 = matchOrThrow(output, /^\s*50%\s+(\S+)/m, 'the 50% latency')[1]!;
  const p99 = matchOrThrow(output, /^\s*99%\s+(\S+)/m, 'the 99% latency')[1]!;
  // Thread Stats: "Latency  avg  stdev  max  +/- stdev".
  const max = matchOrThrow(output, /^[ \t]*Latency[ \t]+\S+[ \t]+\S+[ \t]+(\S+)/m, 'the maximum latency')[1]!;
  const rps = matchOrThrow(output, /^Requests\/sec:\s+([\d.]+)/m, 'Requests/sec')[1]!;
  const total = matchOrThrow(output, /^\s*(\d+) requests in /m, 'the request count')[1]!;
  // wrk counts every status ≥ 400 here; the line is absent when there were none.
  const failures = /Non-2xx or 3xx responses:\s+(\d+)/.exec(output)?.[1] ?? '0';
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(output);
  const socketErrors = socket ? socket.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0;
  return {
    reqPerSec: Number(rps),
    p50Ms: wrkTimeMs(p50),
    p99Ms: wrkTimeMs(p99),
    maxMs: wrkTimeMs(max),
    requests: Number(total),
    failures: Number(failures),
    socketErrors,
    ...parseStatuses(output),
  };
}

/**
 * The tally bench/random-paths.lua prints when it ends, "Non-2xx statuses: 503=23 500=1", and a
 * body of each, "Non-2xx sample 503: {…}" (absent without the script).
 */
function parseStatuses(output: string): Pick<LoadResult, 'statuses' | 'statusSamples'> {
  const line = /^Non-2xx statuses:(.*)$/m.exec(output);
  if (!line) return {};
  const statuses: Record<string, number> = {};
  for (const [, status, count] of line[1]!.matchAll(/(\d+)=(\d+)/g)) statuses[status!] = Number(count);
  const statusSamples: Record<string, string> = {};
  for (const [, status, body] of output.matchAll(/^Non-2xx sample (\d+): (.*)$/gm)) statusSamples[status!] = body!;
  return { statuses, statusSamples };
}

interface AutocannonJson {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number; max: number };
  non2xx: number;
  errors: number;
  timeouts: number;
}

async function runAutocannon(load: HttpLoad): Promise<LoadResult> {
  const bin = join(PROJECT_DIR, 'node_modules', '.bin', 'autocannon');
  const headerArgs = Object.entries(load.headers).flatMap(([name, value]) => ['-H', `${name}=${value}`]);
  const args = ['-c', String(load.connections), '-d', String(load.seconds), '-j', ...headerArgs, load.url];
  const out = await runCommand(bin, args);
  if (out.code !== 0) throw new Error(`autocannon failed (exit ${out.code}): ${out.stderr}`);
  const json = JSON.parse(out.stdout) as AutocannonJson;
  return {
    reqPerSec: json.requests.average,
    p50Ms: json.latency.p50,
    p99Ms: json.latency.p99,
    maxMs: json.latency.max,
    requests: json.requests.total,
    failures: json.non2xx,
    socketErrors: json.errors + json.timeouts,
  };
}
