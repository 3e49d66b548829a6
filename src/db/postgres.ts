import pg from 'pg';
import { DatabaseUnavailableError, QueryTimeoutError, type Database, type Queryable, type Row } from './port.js';

// int8 (counts, amounts) as JS numbers: every value we store fits in 2^53.
pg.types.setTypeParser(20, (value) => Number(value));

// Network errors, SQLSTATE class 08 (connection exception) and 57P0x (server shutting down or starting).
const CONNECTION_ERRORS = new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'ETIMEDOUT', 'EAI_AGAIN', 'EPIPE', '57P01', '57P02', '57P03']);

function translate(err: unknown): unknown {
  const code = (err as { code?: string } | null)?.code;
  if (code === '57014') return new QueryTimeoutError('statement cancelled after the statement timeout');
  if (code && (CONNECTION_ERRORS.has(code) || code.startsWith('08'))) return new DatabaseUnavailableError(`database unavailable (${code})`);
  if (err instanceof Error && /Connection terminated|timeout exceeded when trying to connect/i.test(err.message)) {
    return new DatabaseUnavailableError(err.message);
  }
  return err;
}

export interface PostgresOptions {
  connectionString: string;
  poolSize: number;
  /** Schema put first on the search_path of every connection (isolates test runs). */
  schema?: string;
  /** Cancels any statement running longer (0: no limit). */
  statementTimeoutMs?: number;
  /** How long to wait for a new connection before the request fails (and gets a 503). */
  connectTimeoutMs?: number;
  onError?: (err: Error) => void;
}

export async function openPostgres(options: PostgresOptions): Promise<Database> {
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.poolSize,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 3000,
    idleTimeoutMillis: 30_000,
    options:
      [
        options.schema ? `-c search_path=${options.schema},public` : '',
        options.statementTimeoutMs ? `-c statement_timeout=${options.statementTimeoutMs}` : '',
      ]
        .filter(Boolean)
        .join(' ') || undefined,
  });
  // An idle client dropped by the server emits 'error' on the pool; unhandled, it would crash the process.
  pool.on('error', (err) => options.onError?.(err));

  const run = async <T extends object>(client: pg.Pool | pg.PoolClient, sql: string, params?: readonly unknown[]) => {
    try {
      const result = await client.query<T & Row>(sql, params as unknown[] | undefined);
      return result.rows;
    } catch (err) {
      throw translate(err);
    }
  };

  const db: Database = {
    kind: 'postgres',
    query: (sql, params) => run(pool, sql, params),
    async exec(sql) {
      await run(pool, sql);
    },
    async transaction(fn) {
      let client: pg.PoolClient;
      try {
        client = await pool.connect();
      } catch (err) {
        throw translate(err);
      }
      const tx: Queryable = { query: (sql, params) => run(client, sql, params) };
      try {
        await client.query('BEGIN');
        const result = await fn(tx);
        await client.query('COMMIT');
        return result;
      } catch (err) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw translate(err);
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
  };
  // Fail at start, naming the variable, rather than on the first request.
  try {
    await db.query('SELECT 1');
  } catch (err) {
    await pool.end().catch(() => undefined);
    const detail = err instanceof Error ? err.message : String(err);
    throw new Error(`DATABASE_URL: cannot connect to PostgreSQL (${detail})`);
  }
  return db;
}
