// What every command and subcommand accepts, checked before anything runs: `--help` anywhere
// prints the usage and exits 0, an unknown option or a missing or extra argument exits 2, and
// neither opens the store nor reads the configuration.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { DATASET_NAMES as INGEST_KINDS } from '../catalog/index.js';

type Options = NonNullable<ParseArgsConfig['options']>;

export interface CommandSpec {
  /** The synopsis and what it does, as printed by --help. */
  usage: string;
  options: Options;
  /** Positional arguments taken: [at least, at most]. */
  positionals: readonly [number, number];
}

/** A command with subcommands: `keys create`, `accounts list`… */
export interface CommandGroup {
  usage: string;
  subcommands: Record<string, CommandSpec>;
}

/** Thrown for arguments a command does not take: reported with the command's usage, exit 2. */
export class UsageError extends Error {}

/** Accepted by every command that opens the store (see `requireStore` in main.ts). */
export const CREATE_STORE = '--create-store';
const STORE_OPTIONS: Options = { 'create-store': { type: 'boolean' } };
const STORE_NOTE = `  --create-store  create a new embedded store in DATA_DIR if there is none (refused otherwise)`;

const json: Options = { json: { type: 'boolean' } };

const KEYS: CommandGroup = {
  usage: `dealsignal keys create|list|revoke|credits …   (dealsignal keys ACTION --help for each)`,
  subcommands: {
    create: {
      usage: `dealsignal keys create --email EMAIL [--tier free|pro|enterprise] [--name NAME] [--json]
  Creates a key (and the account if needed); the key is printed once.\n${STORE_NOTE}`,
      options: { ...STORE_OPTIONS, ...json, email: { type: 'string' }, tier: { type: 'string' }, name: { type: 'string' } },
      positionals: [0, 0],
    },
    list: {
      usage: `dealsignal keys list [--email EMAIL] [--json]
  Lists keys (prefix and last 4 only).\n${STORE_NOTE}`,
      options: { ...STORE_OPTIONS, ...json, email: { type: 'string' } },
      positionals: [0, 0],
    },
    revoke: {
      usage: `dealsignal keys revoke ID
  Revokes a key at once (ID as keys list shows it).\n${STORE_NOTE}`,
      options: { ...STORE_OPTIONS },
      positionals: [1, 1],
    },
    credits: {
      usage: `dealsignal keys credits ACCOUNT_OR_KEY [--add N | --set N]
  Shows or changes an account's v2 credit balance (ACCOUNT_OR_KEY: email, account id or key id).\n${STORE_NOTE}`,
      options: { ...STORE_OPTIONS, add: { type: 'string' }, set: { type: 'string' } },
      positionals: [1, 1],
    },
  },
};

const ACCOUNTS: CommandGroup = {
  usage: `dealsignal accounts list|set-tier|set-limit …   (dealsignal accounts ACTION --help for each)`,
  subcommands: {
    list: {
      usage: `dealsignal accounts list [--json]
  Lists accounts with tier, limits and credit balance.\n${STORE_NOTE}`,
      options: { ...STORE_OPTIONS, ...json },
      positionals: [0, 0],
    },
    'set-tier': {
      usage: `dealsignal accounts set-tier EMAIL free|pro|enterprise
  Changes an account's tier (its v2 rate limit and monthly credits).\n${STORE_NOTE}`,
      options: { ...STORE_OPTIONS },
      positionals: [2, 2],
    },
    'set-limit': {
      usage: `dealsignal accounts set-limit EMAIL --v1 N|default
  Gives an account its own v1 limit per window (enterprise arrangement).\n${STORE_NOTE}`,
      options: { ...STORE_OPTIONS, v1: { type: 'string' } },
      positionals: [1, 1],
    },
  },
};

export const COMMANDS: Record<string, CommandSpec | CommandGroup> = {
  serve: {
    usage: `dealsignal serve [--workers N]
  Starts the HTTP server (migrates; seeds demo data into an empty embedded store, which it creates if needed).
  --workers N  serving threads sharing one index (default: one per core on PostgreSQL, 1 embedded)`,
    options: { workers: { type: 'string' } },
    positionals: [0, 0],
  },
  migrate: {
    usage: `dealsignal migrate
  Applies pending database migrations.\n${STORE_NOTE}`,
    options: { ...STORE_OPTIONS },
    positionals: [0, 0],
  },
  seed: {
    usage: `dealsignal seed --scale demo|large|xlarge [--seed N] [--as-of YYYY-MM-DD]
  Loads the deterministic synthetic data set, printing the time each dataset took.\n${STORE_NOTE}`,
    options: { ...STORE_OPTIONS, scale: { type: 'string' }, seed: { type: 'string' }, 'as-of': { type: 'string' } },
    positionals: [0, 0],
  },
  companies: {
    usage: `dealsignal companies resolve [--batch N]
  Links every stored record to its companies again, by today's rules and companies (website domain, then
  LinkedIn page, then name and country), a batch at a time, and prints how many links changed. Run it after
  a companies import that should take over records first linked to companies made from them, or to link
  records written without resolution (plain SQL). A second run changes nothing.\n${STORE_NOTE}`,
    options: { ...STORE_OPTIONS, batch: { type: 'string' } },
    positionals: [1, 1],
  },
  keys: KEYS,
  accounts: ACCOUNTS,
  import: {
    usage: `dealsignal import KIND FILE|- [--skip-invalid] [--json] [--format auto|ndjson|json]
  KIND: ${INGEST_KINDS.join(', ')}
  FILE: NDJSON or a JSON array of records in the API's shape (.gz is decompressed); - reads standard input
  --skip-invalid  import the valid records and report the others (default: one invalid record rejects the file)
  --json          print the report as JSON
${STORE_NOTE}
  Exit status: 0 imported (or no records in the input), 1 nothing imported (the report says why), 2 usage error.`,
    options: { ...STORE_OPTIONS, ...json, 'skip-invalid': { type: 'boolean' }, format: { type: 'string' } },
    positionals: [2, 2],
  },
  watch: {
    usage: `dealsignal watch DIR [--skip-invalid] [--interval MS]
  Imports every file dropped in DIR whose name starts with its kind (e.g. m-a-2025-06-01.ndjson), once
  it has stopped growing (or write NAME.tmp and rename it), then moves it to DIR/processed/ or DIR/failed/
  with NAME.report.json beside it. Runs until SIGINT or SIGTERM.
${STORE_NOTE}`,
    options: { ...STORE_OPTIONS, 'skip-invalid': { type: 'boolean' }, interval: { type: 'string' } },
    positionals: [1, 1],
  },
  mcp: {
    usage: `dealsignal mcp
  Serves the API as Model Context Protocol tools and prompts over stdio (for AI assistants). Takes no
  arguments: the key comes from DEALSIGNAL_API_KEY, the server from DEALSIGNAL_URL (default
  http://127.0.0.1:3000).`,
    options: {},
    positionals: [0, 0],
  },
};

export function isGroup(entry: CommandSpec | CommandGroup): entry is CommandGroup {
  return 'subcommands' in entry;
}

/** True when the arguments ask for help (before a `--`, which ends the options). */
export function wantsHelp(args: readonly string[]): boolean {
  for (const arg of args) {
    if (arg === '--') return false;
    if (arg === '--help' || arg === '-h') return true;
  }
  return false;
}

/** The usage to print for `command args…`: the subcommand's when one is named, else the command's. */
export function usageOf(command: string, args: readonly string[]): string | undefined {
  const entry = Object.hasOwn(COMMANDS, command) ? COMMANDS[command]! : undefined;
  if (!entry) return undefined;
  if (!isGroup(entry)) return entry.usage;
  const sub = args[0];
  if (sub !== undefined && Object.hasOwn(entry.subcommands, sub)) return entry.subcommands[sub]!.usage;
  return [entry.usage, '', ...Object.values(entry.subcommands).map((spec) => spec.usage)].join('\n');
}

/**
 * Checks `command args…` against its spec: the spec checked, or a UsageError saying what is wrong.
 * Whether values make sense (a tier, a number) is left to the command.
 */
export function checkArguments(command: string, args: readonly string[]): CommandSpec {
  const entry = COMMANDS[command]!;
  let spec: CommandSpec;
  let rest: readonly string[];
  let name = command;
  if (isGroup(entry)) {
    const [sub, ...tail] = args;
    const actions = Object.keys(entry.subcommands);
    if (sub === undefined || !Object.hasOwn(entry.subcommands, sub)) {
      throw new UsageError(
        `${sub === undefined ? `${command} needs an action` : `unknown ${command} action "${sub}"`}; use ${actions.slice(0, -1).join(', ')} or ${actions.at(-1)}`,
      );
    }
    spec = entry.subcommands[sub]!;
    rest = tail;
    name = `${command} ${sub}`;
  } else {
    spec = entry;
    rest = args;
  }
  let positionals: string[];
  try {
    ({ positionals } = parseArgs({ args: [...rest], options: spec.options, allowPositionals: true, strict: true }));
  } catch (err) {
    // Node's messages name the option and say what is wrong; its advice (use "--" …) is dropped.
    throw new UsageError(`${name}: ${(err instanceof Error ? err.message : String(err)).split('. To ')[0]}`);
  }
  const [min, max] = spec.positionals;
  if (positionals.length > max) {
    throw new UsageError(
      `${name} takes ${max === 0 ? 'no arguments' : `at most ${max} argument${max > 1 ? 's' : ''}`} (got ${positionals.map((p) => JSON.stringify(p)).join(' ')})`,
    );
  }
  if (positionals.length < min) {
    throw new UsageError(`${name} needs ${min} argument${min > 1 ? 's' : ''}`);
  }
  return spec;
}
