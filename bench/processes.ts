import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { WORK_DIR } from './options.js';

/** A long-running child (a server under test) whose output goes to a log file. */
export interface Service {
  name: string;
  child: ChildProcess;
  logFile: string;
  baseUrl: string;
  /** From spawning to the first HTTP answer, once known. */
  readyMs?: number;
}

/**
 * The resident memory of a process and every process under it (a server's workers, when it forks
 * them), now and at each one's peak, summed (Linux /proc), in MiB; undefined elsewhere.
 */
export function memoryOf(pid: number | undefined): { rssMb: number; peakMb: number; processes: number } | undefined {
  if (pid === undefined) return undefined;
  try {
    let rssMb = 0;
    let peakMb = 0;
    const pids = [pid, ...descendantsOf(pid)];
    for (const each of pids) {
      const status = readFileSync(`/proc/${each}/status`, 'utf8');
      const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN);
      rssMb += kb('VmRSS') / 1024;
      peakMb += kb('VmHWM') / 1024;
    }
    return { rssMb, peakMb, processes: pids.length };
  } catch {
    return undefined;
  }
}

/** Every process under `pid`, from each process's parent in /proc. */
function descendantsOf(pid: number): number[] {
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // The command name (field 2) may hold spaces: the parent comes after its closing parenthesis.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // It ended meanwhile.
    }
  }
  const found: number[] = [];
  const pending = [pid];
  while (pending.length > 0) {
    const parent = pending.pop()!;
    for (const [child, of] of parents) {
      if (of !== parent) continue;
      found.push(child);
      pending.push(child);
    }
  }
  return found;
}

const running = new Set<Service>();

/** Asks the OS for a free port; a tiny race with other processes is acceptable here. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export function commandExists(command: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
}

/** Runs a command to completion with inherited output; throws with its exit status on failure. */
export function runChecked(command: string, args: string[], options: { cwd?: string; quiet?: boolean } = {}): void {
  const result = spawnSync(command, args, { cwd: options.cwd, stdio: options.quiet ? 'pipe' : 'inherit', encoding: 'utf8' });
  if (result.status !== 0) {
    const output = options.quiet ? `\n${result.stdout ?? ''}${result.stderr ?? ''}` : '';
    throw new Error(`${command} ${args.join(' ')} failed (exit ${result.status ?? result.signal})${output}`);
  }
}

export function startService(
  name: string,
  command: string,
  args: string[],
  options: { cwd?: string; env: NodeJS.ProcessEnv; baseUrl: string },
): Service {
  mkdirSync(join(WORK_DIR, 'logs'), { recursive: true });
  const logFile = join(WORK_DIR, 'logs', `${name}.log`);
  const log = createWriteStream(logFile);
  const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  const service: Service = { name, child, logFile, baseUrl: options.baseUrl };
  running.add(service);
  child.once('exit', () => running.delete(service));
  return service;
}

function logTail(service: Service, lines = 30): string {
  try {
    return readFileSync(service.logFile, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

/** Polls until the service answers any HTTP status on path, or fails with the end of its log. */
export async function waitUntilAnswering(service: Service, path: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (service.child.exitCode !== null || service.child.signalCode !== null) {
      throw new Error(`${service.name} exited during start-up; log ${service.logFile}:\n${logTail(service)}`);
    }
    try {
      await fetch(service.baseUrl + path, { signal: AbortSignal.timeout(2000) });
      return;
    } catch {
      await sleep(200);
    }
  }
  throw new Error(`${service.name} did not answer within ${timeoutMs / 1000} s; log ${service.logFile}:\n${logTail(service)}`);
}

/** SIGTERM, then SIGKILL if the process has not exited after a grace period. */
export async function stopService(service: Service, graceMs = 5000): Promise<void> {
  const { child } = service;
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

export async function stopAllServices(): Promise<void> {
  await Promise.all([...running].map((service) => stopService(service)));
}

/** Last resort when the bench process itself dies: never leave a server holding a port. */
export function killServicesSync(): void {
  for (const service of running) service.child.kill('SIGKILL');
}
