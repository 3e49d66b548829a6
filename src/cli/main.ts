import { parseArgs } from 'node:util';
import { ConfigError, loadConfig, type Config } from '../config.js';
import { StoreLockedError } from '../db/open.js';
import { serve } from '../server.js';
import { runInServer } from './channel.js';
import { isStoreCommand, STORE_COMMANDS } from './commands.js';
import { processIo } from './io.js';

const USAGE = `Usage: dealsignal <command> [options]

Commands:
  serve [--workers N]                     start the HTTP server (migrates; seeds demo data into an empty embedded store);
                                          N worker processes (default: one per core on PostgreSQL, 1 embedded)
  migrate                                 apply pending database migrations
  seed --scale demo|large [--seed N] [--as-of YYYY-MM-DD]
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

On the embedded store, the commands after serve (but mcp) run inside the server while it runs (the store opens in one process only).

Configuration comes from the environment (PORT, HOST, DATA_DIR, DATABASE_URL, ...); see the README.`;

function wholeNumber(flag: string, value: string): number {
  if (!/^\d+$/.test(value)) throw new Error(`${flag} must be a whole number >= 0`);
  return Number(value);
}

export async function main(argv: string[]): Promise<number> {
  const [command, ...args] = argv;
  if (!command || command === '--help' || command === '-h' || command === 'help') {
    console.log(USAGE);
    return command ? 0 : 1;
  }
  if (command === 'mcp') {
    // A client of a running server: it needs none of the server's configuration (loaded only when used).
    const { runMcp } = await import('./mcp.js');
    return runMcp(args, process.env);
  }
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
  if (command === 'serve') {
    const { values } = parseArgs({ args, options: { workers: { type: 'string' } } });
    try {
      await serve(config, { workers: values.workers === undefined ? undefined : wholeNumber('--workers', values.workers) || 1 });
    } catch (err) {
      if (err instanceof StoreLockedError) throw new Error(`${err.message}; stop it first, or give this server its own DATA_DIR`);
      throw err;
    }
    return 0;
  }
  if (!isStoreCommand(command)) {
    console.error(`dealsignal: unknown command "${command}"\n\n${USAGE}`);
    return 1;
  }
  // The embedded store opens in one process only: while the server holds it, it runs the command.
  if (!config.databaseUrl) {
    const status = await runInServer(config, argv, processIo);
    if (status !== undefined) return status;
  }
  try {
    return await STORE_COMMANDS[command]!(config, args, processIo);
  } catch (err) {
    if (!(err instanceof StoreLockedError)) throw err;
    throw new Error(
      `${err.message}, which takes no commands (a server still starting, or another command); ` +
        'try again once the server is serving or the command has finished',
    );
  }
}
