import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Config } from '../config.js';
import { openPglite } from './pglite.js';
import { openPostgres } from './postgres.js';
import type { Database } from './port.js';

export class StoreLockedError extends Error {}

/**
 * The embedded store allows one process at a time. A lock file holding the owner's pid
 * stops a second process (e.g. a CLI command while the server runs) before it opens the
 * data directory; a lock left by a dead process is taken over.
 */
function lockDataDir(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const lockPath = join(dataDir, 'dealsignal.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lockPath, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(lockPath, { force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const owner = Number(readFileSync(lockPath, 'utf8').trim());
      if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && isAlive(owner)) {
        throw new StoreLockedError(
          `the embedded store in ${resolve(dataDir)} is in use by another dealsignal process (pid ${owner}). ` +
            'Stop it first, or run this command with DATABASE_URL pointing at PostgreSQL.',
        );
      }
      rmSync(lockPath, { force: true });
    }
  }
  throw new StoreLockedError(`could not lock ${resolve(dataDir)}`);
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
