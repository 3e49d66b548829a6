import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { Database, Queryable, Transaction } from './port.js';

/**
 * The embedded store: PostgreSQL compiled to WASM, in this process.
 * dataDir undefined keeps it in memory (tests). PGlite has a single connection,
 * so a transaction holds it exclusively; PGlite queues other queries meanwhile.
 */
export async function openPglite(dataDir: string | undefined, options: { from?: Blob } = {}): Promise<Database> {
  return asDatabase(await createPglite(dataDir, options.from));
}

/**
 * A copy of a new in-memory store after `prepare` ran on it (a dump of its data directory): a store
 * opened `from` it starts where this one ended, without creating a cluster (seconds of WASM work).
 */
export async function pgliteSnapshot(prepare: (db: Database) => Promise<void>): Promise<Blob> {
  const pg = await createPglite(undefined, undefined);
  try {
    await prepare(asDatabase(pg));
    return await pg.dumpDataDir('none');
  } finally {
    await pg.close();
  }
}

async function createPglite(dataDir: string | undefined, from: Blob | undefined): Promise<PGlite> {
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  // int8 as JS numbers, as the pg adapter does: every value we store fits in 2^53.
  return PGlite.create({
    dataDir,
    loadDataDir: from,
    extensions: { pg_trgm },
    parsers: { 20: (value: string) => Number(value) },
  });
}

function asDatabase(pg: PGlite): Database {
  const wrap = (q: Pick<PGlite, 'query'>): Queryable => ({
    async query<T extends object>(sql: string, params?: readonly unknown[]) {
      const result = await q.query<T>(sql, params as unknown[] | undefined);
      return result.rows;
    },
  });
  return {
    kind: 'pglite',
    ...wrap(pg),
    async exec(sql) {
      await pg.exec(sql);
    },
    transaction: (fn) =>
      pg.transaction((tx) => {
        const transaction: Transaction = {
          ...wrap(tx),
          async exec(sql) {
            await tx.exec(sql);
          },
        };
        return fn(transaction);
      }),
    close: () => pg.close(),
  };
}
