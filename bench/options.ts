import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config.js';

export interface BenchOptions {
  databaseUrl: string;
  /** Pool size of each server worker (DATABASE_POOL_SIZE). */
  poolSize: number;
  /** Server worker processes; each has its own pool. */
  workers: number;
  connections: number;
  warmupSeconds: number;
  durationSeconds: number;
  /** Skip the Platformatic DB comparison (it takes a minute to install the first time). */
  skipPlatformatic: boolean;
}

export const PROJECT_DIR = fileURLToPath(new URL('../', import.meta.url));
/** Scratch space (logs, the Platformatic install); ignored by the linter. */
export const WORK_DIR = fileURLToPath(new URL('./.work/', import.meta.url));
export const RESULTS_FILE = fileURLToPath(new URL('./RESULTS.md', import.meta.url));

const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/dealsignal_bench';

const USAGE = `Usage: npm run bench -- [--only PART] [--duration SECONDS] [--warmup SECONDS] [--connections N] [--workers N] [--skip-platformatic]

--only PART runs one part (bench/PART.ts), e.g. --only realistic.
Environment: BENCH_DATABASE_URL (default ${DEFAULT_DATABASE_URL}); DATABASE_POOL_SIZE is passed to the server.
The realistic part measures whatever data BENCH_DATABASE_URL holds (the large set: \`dealsignal seed --scale large\`).`;

/**
 * The options of the parts that share parseOptions, for a part with its own parser: accepted (and
 * unused) so that one command line can run every part.
 */
export const OTHER_PARTS_OPTIONS = {
  duration: { type: 'string' },
  warmup: { type: 'string' },
  connections: { type: 'string' },
  workers: { type: 'string' },
  'skip-platformatic': { type: 'boolean' },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

/** A whole number of at least min from an option's text, or an error naming the option, with the part's usage. */
export function wholeNumber(name: string, raw: string, usage: string, min = 1): number {
  if (!/^\d+$/.test(raw) || Number(raw) < min)
    throw new Error(`--${name} must be a whole number >= ${min} (got ${raw})\n\n${usage}`);
  return Number(raw);
}

function positiveInt(name: string, raw: string): number {
  if (!/^\d+$/.test(raw) || Number(raw) < 1)
    throw new Error(`--${name} must be a positive whole number (got ${raw})\n\n${USAGE}`);
  return Number(raw);
}

function serverSettings(env: NodeJS.ProcessEnv): Pick<BenchOptions, 'poolSize'> {
  const config = loadConfig({ DATABASE_POOL_SIZE: env.DATABASE_POOL_SIZE });
  return { poolSize: config.databasePoolSize };
}

/** What a part may set differently from the others (the realistic workloads default to one worker). */
export interface PartDefaults {
  workers?: number;
}

export function parseOptions(argv: string[], env: NodeJS.ProcessEnv, defaults: PartDefaults = {}): BenchOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      duration: { type: 'string', default: '10' },
      warmup: { type: 'string', default: '3' },
      connections: { type: 'string', default: '32' },
      // The server's own default on PostgreSQL: one worker per core.
      workers: { type: 'string', default: String(defaults.workers ?? availableParallelism()) },
      'skip-platformatic': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  return {
    databaseUrl: env.BENCH_DATABASE_URL?.trim() || DEFAULT_DATABASE_URL,
    // The server inherits these variables and reads them through the same parser, so both sides agree.
    ...serverSettings(env),
    workers: positiveInt('workers', values.workers),
    connections: positiveInt('connections', values.connections),
    warmupSeconds: positiveInt('warmup', values.warmup),
    durationSeconds: positiveInt('duration', values.duration),
    skipPlatformatic: values['skip-platformatic'],
  };
}

/** Every database connection the server may hold: the budget the driver floor and the peer get too. */
export const serverConnections = (options: BenchOptions): number => options.workers * options.poolSize;
