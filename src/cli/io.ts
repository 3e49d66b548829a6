// What a store command reads, prints and opens. In a terminal that is this process; through the
// operator channel it is the client's standard input and output and the running server's store.
import { resolve } from 'node:path';
import type { Readable } from 'node:stream';
import type { Config } from '../config.js';
import { migrate } from '../platform/db/index.js';
import { openDatabase } from '../platform/db/index.js';
import type { Database } from '../platform/db/index.js';
import { discardAbandonedStages } from '../ingest/index.js';
import { describeStore } from './describe-store.js';

export interface CommandIo {
  stdin: Readable;
  out(text: string): void;
  err(text: string): void;
  /** Where the paths the user typed are relative to (default: this process's working directory). */
  cwd?: string;
  /** Opens the migrated store (default: from the configuration). */
  open?(config: Config): Promise<Database>;
  /** Resolves when a long-running command should stop (default: SIGINT or SIGTERM). */
  untilStopped?(): Promise<void>;
}

export const processIo: CommandIo = {
  // Only touched by "import KIND -": opening standard input is left to the command that reads it.
  get stdin() {
    return process.stdin;
  },
  out: (text) => process.stdout.write(text + '\n'),
  err: (text) => process.stderr.write(text + '\n'),
};

/** A path the user typed, as the command's user meant it. */
export function userPath(io: CommandIo, path: string): string {
  return io.cwd ? resolve(io.cwd, path) : path;
}

/**
 * Opens the store without migrating it, or takes the one io provides; says which on stderr first,
 * so a command run against the wrong store is noticed at once.
 */
export async function openUnmigrated(config: Config, io: CommandIo): Promise<Database> {
  io.err(`dealsignal: ${describeStore(config)}${io.open ? ' (through the server that holds it)' : ''}`);
  if (io.open) return io.open(config);
  return openDatabase(config, { log: (line) => io.err(`dealsignal: ${line}`) });
}

/** Opens and migrates the store, or takes the one io provides. */
export async function openStore(config: Config, io: CommandIo): Promise<Database> {
  if (io.open) return openUnmigrated(config, io);
  const db = await openUnmigrated(config, io);
  try {
    await migrate(db);
    const abandoned = await discardAbandonedStages(db);
    if (abandoned > 0)
      io.err(`dealsignal: removed ${abandoned} staged records of imports interrupted by the last stop (never published)`);
  } catch (err) {
    await db.close();
    throw err;
  }
  return db;
}

export async function withStore<T>(config: Config, io: CommandIo, fn: (db: Database) => Promise<T>): Promise<T> {
  const db = await openStore(config, io);
  try {
    return await fn(db);
  } finally {
    await db.close();
  }
}
