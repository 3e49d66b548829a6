import {
  chmodSync,
  closeSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeSync,
  type Stats,
} from 'node:fs';
import { join, resolve } from 'node:path';
import type { Config } from '../../config.js';
import { openPglite } from './pglite.js';
import { openPostgres } from './postgres.js';
import type { Database } from './port.js';

export class StoreLockedError extends Error {}

const LOCK_FILE = 'dealsignal.lock';

/**
 * The embedded store allows one process at a time. A lock file holding the owner's pid
 * stops a second process before it opens the data directory; a lock left by a dead process
 * is taken over. Store commands hand themselves to a running server instead (its operator
 * channel, src/cli/operator-channel.ts), so they meet this lock only while that server is still
 * starting, or next to another command.
 */
function lockDataDir(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true, mode: OWNER_DIR_MODE });
  const lockPath = join(dataDir, LOCK_FILE);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lockPath, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(lockPath, { force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const owner = storeOwner(dataDir);
      if (owner !== undefined) {
        throw new StoreLockedError(
          `the embedded store in ${resolve(dataDir)} is in use by another dealsignal process (pid ${owner})`,
        );
      }
      rmSync(lockPath, { force: true });
    }
  }
  throw new StoreLockedError(`could not lock ${resolve(dataDir)}`);
}

/** The pid of another live process holding the embedded store in dataDir, if any. */
export function storeOwner(dataDir: string): number | undefined {
  let owner: number;
  try {
    owner = Number(readFileSync(join(dataDir, LOCK_FILE), 'utf8').trim());
  } catch {
    return undefined;
  }
  return Number.isInteger(owner) && owner > 0 && owner !== process.pid && isAlive(owner) ? owner : undefined;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Modes of the embedded store: key hashes, sessions and secrets are its owner's alone, to read and to write. */
const OWNER_DIR_MODE = 0o700;
const OWNER_FILE_MODE = 0o600;
/** What the store keeps in DATA_DIR beside its lock (server.ts, cli/channel.ts); anything else there is left alone. */
const STORE_ENTRIES = ['pglite', 'demo-key', 'session-secret', 'operator-channel.json'];

/**
 * Makes DATA_DIR and what the store keeps in it owner-only (folders 700, files 600); the paths
 * whose modes were wider. DATA_DIR may be a symbolic link (the operator's choice of place); inside
 * it, links are not followed (chmod would change whatever they point to).
 */
function restrictToOwner(dataDir: string): string[] {
  const widened: string[] = [];
  const restrict = (path: string, mode: number, stats: Stats) => {
    if ((stats.mode & 0o777) === mode) return;
    chmodSync(path, mode);
    if (stats.mode & 0o077) widened.push(path);
  };
  const restrictTree = (path: string) => {
    let stats;
    try {
      stats = lstatSync(path);
    } catch {
      return; // not there (yet)
    }
    if (stats.isFile()) restrict(path, OWNER_FILE_MODE, stats);
    if (!stats.isDirectory()) return;
    restrict(path, OWNER_DIR_MODE, stats);
    for (const name of readdirSync(path)) restrictTree(join(path, name));
  };
  const root = statSync(dataDir);
  if (root.mode & 0o1000) {
    // A shared folder such as /tmp: made owner-only, it would lock every other user out of it.
    throw new Error(`DATA_DIR ${resolve(dataDir)} is a shared folder (sticky bit): give the store a folder of its own`);
  }
  restrict(dataDir, OWNER_DIR_MODE, root);
  for (const name of [LOCK_FILE, ...STORE_ENTRIES]) restrictTree(join(dataDir, name));
  return widened;
}

export interface OpenOptions {
  /** A connection error of an idle PostgreSQL client. */
  onError?: (err: Error) => void;
  /** Says what opening changed that the operator should know (modes tightened). */
  log?: (line: string) => void;
}

/**
 * The streaming replica of DATABASE_URL when DATABASE_REPLICA_URL is set: read only, by the read
 * model's document reads (a replica refuses writes, so nothing else may use it).
 */
export async function openReplica(config: Config, { onError }: Pick<OpenOptions, 'onError'> = {}): Promise<Database | undefined> {
  if (!config.databaseReplicaUrl) return undefined;
  return openPostgres({
    connectionString: config.databaseReplicaUrl,
    poolSize: config.databasePoolSize,
    statementTimeoutMs: config.statementTimeoutMs,
    onError,
  });
}

/** Opens PostgreSQL when DATABASE_URL is set, else the embedded store in DATA_DIR. */
export async function openDatabase(config: Config, { onError, log }: OpenOptions = {}): Promise<Database> {
  if (config.databaseUrl) {
    return openPostgres({
      connectionString: config.databaseUrl,
      poolSize: config.databasePoolSize,
      statementTimeoutMs: config.statementTimeoutMs,
      onError,
    });
  }
  // PGlite creates files for as long as it is open (new tables, WAL), with the modes the umask
  // leaves: this process keeps the store owner-only whatever umask it was started with.
  process.umask(0o077);
  const unlock = lockDataDir(config.dataDir);
  try {
    const widened = restrictToOwner(config.dataDir);
    if (widened.length > 0) {
      log?.(
        `DATA_DIR ${config.dataDir}: ${widened.length} files and folders other users could read or write are now ` +
          'owner-only (folders 700, files 600)',
      );
    }
    const db = await openPglite(join(config.dataDir, 'pglite'));
    // A new store is unpacked with modes of its own (666); its first start tightens them too.
    restrictToOwner(config.dataDir);
    return {
      ...db,
      async close() {
        try {
          await db.close();
        } finally {
          unlock();
        }
      },
    };
  } catch (err) {
    unlock();
    throw err;
  }
}
