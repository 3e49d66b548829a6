// One server per build, started with the dealsignal command on a fresh store of its own, the SQL
// recorder preloaded; and the dealsignal commands that prepare its accounts.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Build } from './builds.js';

const run = promisify(execFile);

export type StoreKind = 'pglite' | 'postgres';

/** Fixed so that both servers key their ETags, cookies and sealed secrets alike. */
const SESSION_SECRET = 'compare-behaviour-session-secret-0123456789abcdef';
const SECRETS_KEY = '00'.repeat(32);
export const ADMIN_TOKEN = 'compare-behaviour-admin-token-0123456789';
/** Links and docs name this base URL on both servers, whatever port each listens on. */
export const PUBLIC_URL = 'http://dealsignal.test';
/** v2 credits of a free account: a few calls, then 402. */
export const FREE_CREDITS = 3;

export interface ServerSetup {
  name: 'base' | 'head';
  build: Build;
  store: StoreKind;
  port: number;
  /** DATA_DIR (the embedded store lives there; logs and the SQL record on both stores). */
  dataDir: string;
  databaseUrl?: string;
}

export interface RunningServer extends ServerSetup {
  process: ChildProcess;
  sqlLog: string;
  logFile: string;
  baseUrl: string;
}

/**
 * The environment is built from nothing but PATH and HOME, so a DATABASE_URL or REDIS_URL of the
 * caller's shell never reaches a server. What is set, and why:
 * - limits high enough that ~1,000 requests in a couple of minutes never meet a window whose
 *   edge would fall at a different request on each server (the plan meets them on purpose with
 *   an account of its own limit and a free account's credits);
 * - load shedding off: two servers sharing a small machine are slow at moments neither chooses;
 * - webhook targets on this machine allowed, for the plan's receiver.
 */
function serverEnv(setup: ServerSetup, sqlLog: string): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    PORT: String(setup.port),
    HOST: '127.0.0.1',
    PUBLIC_URL,
    DATA_DIR: join(setup.dataDir, 'store'),
    ...(setup.databaseUrl ? { DATABASE_URL: setup.databaseUrl, DATABASE_POOL_SIZE: '4' } : {}),
    SEED_DEMO: 'true',
    SESSION_SECRET,
    SECRETS_KEY,
    ADMIN_TOKEN,
    LOG_LEVEL: 'warn',
    RATE_LIMIT_V1: '100000',
    RATE_LIMIT_PRO: '100000',
    RATE_LIMIT_ENTERPRISE: '100000',
    AUTH_FAILURE_LIMIT: '100000',
    CREDITS_FREE: String(FREE_CREDITS),
    LOAD_SHED_EVENT_LOOP_DELAY_MS: '0',
    STATEMENT_TIMEOUT_MS: '30000',
    WEBHOOK_ALLOWED_NETWORKS: '127.0.0.1/32',
    WEBHOOK_TIMEOUT_MS: '2000',
    COMPARE_SQL_LOG: sqlLog,
  };
}

// Dropping and creating the database a server will use (PostgreSQL only): the benchmarks' own.
export { dropDatabase, freshDatabase } from '../../bench/postgres-admin.js';

const recorder = new URL('./sql-recorder.mjs', import.meta.url).href;

export function startServer(setup: ServerSetup): RunningServer {
  const sqlLog = join(setup.dataDir, 'sql.json');
  const logFile = join(setup.dataDir, 'server.log');
  const out = createWriteStream(logFile);
  const child = spawn(process.execPath, ['--import', recorder, 'bin/dealsignal.js', 'serve', '--workers', '1'], {
    cwd: setup.build.dir,
    env: serverEnv(setup, sqlLog),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.pipe(out);
  child.stderr!.pipe(out);
  return { ...setup, process: child, sqlLog, logFile, baseUrl: `http://127.0.0.1:${setup.port}` };
}

/** Waits for /readyz to answer 200 (migrations and the demo seed come first). */
export async function waitReady(server: RunningServer, timeoutMs = 180_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.process.exitCode !== null) {
      throw new Error(`the ${server.name} server exited (${server.process.exitCode}):\n${tail(server.logFile)}`);
    }
    const ready = await fetch(`${server.baseUrl}/readyz`).then(
      (res) => res.status === 200,
      () => false,
    );
    if (ready) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`the ${server.name} server was not ready within ${timeoutMs / 1000} s:\n${tail(server.logFile)}`);
}

function tail(file: string): string {
  return existsSync(file) ? readFileSync(file, 'utf8').split('\n').slice(-30).join('\n') : '';
}

/** SIGTERM, then waits for the exit (the SQL recorder writes its file then). */
export async function stopServer(server: RunningServer): Promise<void> {
  if (server.process.exitCode !== null || server.process.signalCode !== null) return;
  const exited = new Promise((resolve) => server.process.once('exit', resolve));
  server.process.kill('SIGTERM');
  const killed = setTimeout(() => server.process.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(killed);
}

/** Runs a dealsignal command against the server's store (through the server on the embedded store). */
export async function dealsignal(server: RunningServer, ...args: string[]): Promise<string> {
  const env = serverEnv(server, '');
  delete env.COMPARE_SQL_LOG;
  try {
    const { stdout } = await run(process.execPath, ['bin/dealsignal.js', ...args], { cwd: server.build.dir, env });
    return stdout;
  } catch (err) {
    const { stdout, stderr } = err as { stdout?: string; stderr?: string };
    throw new Error(`dealsignal ${args.join(' ')} failed on the ${server.name} server:\n${stdout ?? ''}${stderr ?? ''}`);
  }
}

/** A webhook receiver on this machine that answers 200 to everything; both servers send to it. */
export async function startReceiver(port: number): Promise<{ server: Server; url: string; received: () => number }> {
  let received = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received += 1;
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return { server, url: `http://127.0.0.1:${port}/hook`, received: () => received };
}
