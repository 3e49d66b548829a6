import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Config } from '../config.js';
import { openPglite } from './pglite.js';
import { openPostgres } from './postgres.js';
import type { Database } from './port.js';

export class StoreLockedError extends Error {}

const LOCK_FILE = 'dealsignal.lock';

/**
 * The embedded store allows one process at a time. A lock file holding the owner's pid
 * stops a second process before it opens the data directory; a lock left by a dead process
 * is taken over. Store commands hand themselves to a running server instead (its operator
 * channel, src/cli/channel.ts), so they meet this lock only while that server is still
 * starting, or next to another command.
 */
function lockDataDir(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true });
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

/** Opens PostgreSQL when DATABASE_URL is set, else the embedded store in DATA_DIR. */
export async function openDatabase(config: Config, onError?: (err: Error) => void): Promise<Database> {
  if (config.databaseUrl) {
    return openPostgres({
      connectionString: config.databaseUrl,
      poolSize: config.databasePoolSize,
      statementTimeoutMs: config.statementTimeoutMs,
      onError,
    });
  }
  const unlock = lockDataDir(config.dataDir);
  try {
    const db = await openPglite(join(config.dataDir, 'pglite'));
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
