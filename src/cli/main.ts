import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig, type Config } from '../config.js';
import { describeStore } from './describe-store.js';
import { checkArguments, COMMANDS, CREATE_STORE, UsageError, usageOf, wantsHelp } from './help-text.js';

const USAGE = `Usage: dealsignal <command> [options]

Commands:
  serve [--workers N]                     start the HTTP server (migrates; seeds demo data into an empty embedded store);
                                          N serving threads (default: one per core on PostgreSQL, 1 embedded)
  migrate                                 apply pending database migrations
  seed --scale demo|large|xlarge [--seed N] [--as-of YYYY-MM-DD]
                                          load the deterministic synthetic data set
  keys create --email EMAIL [--tier free|pro|enterprise] [--name NAME] [--json]
                                          create a key (and the account if needed); the key is printed once
  keys list [--email EMAIL] [--json]      list keys (prefix and last 4 only)
  keys revoke ID                          revoke a key at once
  keys credits ACCOUNT_OR_KEY [--add N | --set N]
                                          show or change an account's v2 credit balance
                                          (ACCOUNT_OR_KEY: email, account id or key id)
  import KIND FILE|- [--skip-invalid] [--json]
                                          ingest records (KIND: funding, m-a, investors, job-changes, acquisitions)
  watch DIR [--skip-invalid]              ingest files dropped into DIR (moved to processed/ or failed/ with a report)
  accounts list [--json]                  list accounts with tier, limits and credit balance
  accounts set-tier EMAIL free|pro|enterprise
                                          change an account's tier (its v2 rate limit and monthly credits)
  accounts set-limit EMAIL --v1 N|default give an account its own v1 limit per window (enterprise arrangement)
  mcp                                     serve the API as Model Context Protocol tools over stdio (for AI assistants);
                                          needs DEALSIGNAL_API_KEY, and DEALSIGNAL_URL (default http://127.0.0.1:3000)

dealsignal COMMAND --help shows a command's options; dealsignal --version prints the version.
Commands that open the store say which on stderr; on the embedded store they refuse to create a new one
unless given --create-store.

On the embedded store, the commands after serve (but mcp) run inside the server while it runs (the store opens in one process only).

Configuration comes from the environment (PORT, HOST, DATA_DIR, DATABASE_URL, ...); see docs/operations.md.`;

function wholeNumber(flag: string, value: string): number {
  if (!/^\d+$/.test(value)) throw new Error(`${flag} must be a whole number >= 0`);
  return Number(value);
}

/** True when DATA_DIR holds an embedded store (PGlite writes PG_VERSION when it creates one). */
function embeddedStoreExists(config: Config): boolean {
  return existsSync(join(config.dataDir, 'pglite', 'PG_VERSION'));
}

function packageVersion(): string {
  // dist/cli/ and src/cli/ both sit two levels below the package root.
  const manifest: { version?: unknown } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
  return String(manifest.version ?? '0.0.0');
}

export async function main(argv: string[]): Promise<number> {
  const [command, ...args] = argv;
  if (!command || command === '--help' || command === '-h' || command === 'help') {
    console.log(USAGE);
    return command ? 0 : 1;
  }
  if (command === '--version' || command === '-V' || command === 'version') {
    console.log(`dealsignal ${packageVersion()}`);
    return 0;
  }
  if (!Object.hasOwn(COMMANDS, command)) {
    console.error(`dealsignal: unknown command "${command}"\n\n${USAGE}`);
    return 2;
  }
  // Help is answered before the configuration is read or anything is opened: it never runs the command.
  // mcp takes it alone: any other argument may be a key, which its own refusal never echoes.
  if (command === 'mcp' ? args.length === 1 && wantsHelp(args) : wantsHelp(args)) {
    console.log(`Usage: ${usageOf(command, args)}`);
    return 0;
  }
  if (command === 'mcp') {
    // A client of a running server: it needs none of the server's configuration (loaded only when used).
    // Its arguments are checked there: one is most likely a key, never to be echoed.
    const { runMcp } = await import('./mcp.js');
    return runMcp(args, process.env);
  }
  let createStore = false;
  try {
    const spec = checkArguments(command, args);
    createStore = Object.hasOwn(spec.options, 'create-store') && args.includes(CREATE_STORE);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    console.error(`dealsignal: ${err.message}\n\nUsage: ${usageOf(command, args)}`);
    return 2;
  }
  // The commands themselves never see the flag: it is about the store, decided here.
  const commandArgs = args.filter((arg) => arg !== CREATE_STORE);
  let config: Config;
  try {
    config = loadConfig(process.env);
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`dealsignal: ${err.message}`);
      return 1;
    }
    throw err;
  }
  // Loaded only now: help and refused arguments answer without loading the server (a second saved per call).
  const { StoreLockedError } = await import('../platform/db/open.js');
  if (command === 'serve') {
    const { serve } = await import('../server.js');
    const { values } = parseArgs({ args, options: { workers: { type: 'string' } } });
    try {
      await serve(config, { workers: values.workers === undefined ? undefined : wholeNumber('--workers', values.workers) || 1 });
    } catch (err) {
      if (err instanceof StoreLockedError) throw new Error(`${err.message}; stop it first, or give this server its own DATA_DIR`);
      throw err;
    }
    return 0;
  }
  const { isStoreCommand, STORE_COMMANDS } = await import('./commands.js');
  const { runInServer } = await import('./operator-channel.js');
  const { processIo } = await import('./io.js');
  if (!isStoreCommand(command)) throw new Error(`"${command}" has no implementation`);
  if (!config.databaseUrl && !createStore && !embeddedStoreExists(config)) {
    // A mistyped or missing DATA_DIR would otherwise leave the data in a new store nobody serves.
    console.error(
      `dealsignal: ${describeStore(config)}: there is no embedded store in DATA_DIR=${config.dataDir} (${resolve(config.dataDir)}); ` +
        `set DATA_DIR to the server's data directory, or pass ${CREATE_STORE} to create a new store there`,
    );
    return 1;
  }
  // The embedded store opens in one process only: while the server holds it, it runs the command.
  if (!config.databaseUrl) {
    const status = await runInServer(config, [command, ...commandArgs], processIo);
    if (status !== undefined) return status;
  }
  try {
    return await STORE_COMMANDS[command]!(config, commandArgs, processIo);
  } catch (err) {
    if (!(err instanceof StoreLockedError)) throw err;
    throw new Error(
      `${err.message}, which takes no commands (a server still starting, or another command); ` +
        'try again once the server is serving or the command has finished',
    );
  }
}
