// Shared by the ingest tests: inputs as streams, store snapshots, an app with the admin routes.
import { Readable, Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../src/config.js';
import type { Database, Transaction } from '../../src/platform/db/port.js';
import { DATASETS } from '../../src/catalog/registry.js';
import { ingest, type IngestOptions, type IngestReport } from '../../src/ingest/importer.js';
import assert from 'node:assert/strict';
import { buildApp } from '../../src/app.js';
import { ReadModel } from '../../src/read/index.js';
import { makeKey, startApp, testConfig, testContext, type Backend, type TestContext } from '../helpers.js';

/**
 * Counts the rows import statements report as written inside transactions, committed or not, and
 * the rows staged (the embedded store stages an import, outside any transaction, before it
 * publishes it). An all-or-nothing test uses it to show that rows really were written before the
 * bad record (and then undone), instead of assuming a write batch was full.
 */
export class WriteProbe {
  rowsWritten = 0;

  /** The database with every transaction's statements and every staging statement counted. */
  wrap(db: Database): Database {
    const query = async <T extends object>(sql: string, params?: readonly unknown[]): Promise<T[]> => {
      const rows = await db.query<T>(sql, params);
      const first = rows[0] as { staged?: unknown } | undefined;
      if (first && typeof first.staged === 'number') this.rowsWritten += first.staged;
      return rows;
    };
    const count = (tx: Transaction): Transaction => ({
      exec: (sql) => tx.exec(sql),
      query: async <T extends object>(sql: string, params?: readonly unknown[]): Promise<T[]> => {
        const rows = await tx.query<T>(sql, params);
        const first = rows[0] as { inserted?: unknown; updated?: unknown } | undefined;
        if (first && typeof first.inserted === 'number' && typeof first.updated === 'number') {
          this.rowsWritten += first.inserted + first.updated;
        }
        return rows;
      },
    });
    return { ...db, query, transaction: (fn) => db.transaction((tx) => fn(count(tx))) };
  }

  /** A backend whose databases are wrapped. */
  backend(backend: Backend): Backend {
    return {
      ...backend,
      open: async () => this.wrap(await backend.open()),
      openMigrated: async () => this.wrap(await backend.openMigrated()),
    };
  }
}

export const ADMIN_TOKEN = 'admin-token-for-tests-0123456789';

/** NDJSON text of records (objects are serialised; strings are taken as lines as they are). */
export function ndjson(lines: (object | string)[]): string {
  return lines.map((line) => (typeof line === 'string' ? line : JSON.stringify(line))).join('\n') + '\n';
}

/** Imports records of a kind through the admin endpoint (ADMIN_TOKEN) and checks the import committed. */
export async function importRecords(app: FastifyInstance, kind: string, records: object[]): Promise<void> {
  const res = await app.inject({
    method: 'POST',
    url: `/admin/ingest/${kind}`,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/x-ndjson' },
    payload: ndjson(records),
  });
  assert.equal((res.json() as { committed: boolean }).committed, true, res.body);
}

/** The text as a stream of small chunks, so records straddle chunk boundaries. */
export function chunked(text: string | Buffer, size = 97): Readable {
  const bytes = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
  const parts: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += size) parts.push(bytes.subarray(i, i + size));
  return Readable.from(parts);
}

export function run(
  db: Database,
  kind: string,
  text: string | Buffer,
  options: Partial<IngestOptions> = {},
): Promise<IngestReport> {
  return ingest(db, kind, chunked(text, 4096), { skipInvalid: false, ...options });
}

/** Every data table's row count and a checksum of its rows, and the change log's length. */
export async function snapshot(db: Database): Promise<Record<string, unknown>> {
  const result: Record<string, unknown> = {};
  for (const { table } of DATASETS) {
    const rows = await db.query<{ n: number; sum: string }>(
      `SELECT count(*)::int AS n, coalesce(md5(string_agg(doc || '|' || sort_at::text, ',' ORDER BY id)), '') AS sum FROM ${table}`,
    );
    result[table] = rows[0];
  }
  result.changeLog = await db.query('SELECT count(*)::int AS n FROM change_log');
  return result;
}

export async function count(db: Database, table: string): Promise<number> {
  const rows = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`);
  return rows[0]!.n;
}

export interface AdminContext {
  db: Database;
  app: FastifyInstance;
  config: Config;
  close(): Promise<void>;
}

/** The app with the admin routes under /admin (on when ADMIN_TOKEN is configured), optionally capturing logs. */
export async function startAdminApp(backend: Backend, withAdmin = true, logs?: string[]): Promise<AdminContext> {
  // Imports keep the event loop busy in bursts; these tests are not about load shedding.
  const env = {
    LOAD_SHED_EVENT_LOOP_DELAY_MS: '0',
    ...(withAdmin ? { ADMIN_TOKEN } : {}),
    ...(logs ? { LOG_LEVEL: 'info' } : {}),
  };
  const logStream = logs
    ? new Writable({
        write(chunk: Buffer, _encoding, done) {
          logs.push(chunk.toString('utf8'));
          done();
        },
      })
    : undefined;
  return startApp(backend, env, logStream ? { logStream } : {});
}

/**
 * The app with the admin routes and an enterprise key, its indexes rebuilt every 5 changes (in the
 * background while requests run): how the agreement tests exercise main parts and changes waiting alike.
 */
export async function startRebuildingApp(backend: Backend): Promise<{ ctx: TestContext; key: string }> {
  const db = await backend.openMigrated();
  const readModel = await ReadModel.open(db, { index: { rebuildAfter: 5 } });
  const config = testConfig({ ADMIN_TOKEN, LOAD_SHED_EVENT_LOOP_DELAY_MS: '0' });
  const app = await buildApp({ config, db, services: { readModel } });
  await app.ready();
  const ctx = testContext(db, app, config);
  return { ctx, key: (await makeKey(ctx.db, 'enterprise')).key };
}

/** Imports the records through POST /admin/ingest/KIND; fails the test unless the import committed. */
export async function importThrough(app: FastifyInstance, kind: string, records: object[]): Promise<void> {
  const res = await app.inject({
    method: 'POST',
    url: `/admin/ingest/${kind}`,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/x-ndjson' },
    payload: ndjson(records),
  });
  assert.equal(res.json().committed, true, res.body);
}
