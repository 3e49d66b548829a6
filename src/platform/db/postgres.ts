import pg from 'pg';
import {
  DatabaseUnavailableError,
  QueryTimeoutError,
  type Database,
  type QueryOptions,
  type Row,
  type Transaction,
} from './port.js';

// int8 (counts, amounts) as JS numbers: every value we store fits in 2^53.
pg.types.setTypeParser(20, (value) => Number(value));

// Network errors, SQLSTATE class 08 (connection exception) and 57P0x (server shutting down or starting).
const CONNECTION_ERRORS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'ETIMEDOUT',
  'EAI_AGAIN',
  'EPIPE',
  '57P01',
  '57P02',
  '57P03',
]);

function translate(err: unknown): unknown {
  const code = (err as { code?: string } | null)?.code;
  if (code === '57014') return new QueryTimeoutError('statement cancelled after the statement timeout');
  if (code && (CONNECTION_ERRORS.has(code) || code.startsWith('08')))
    return new DatabaseUnavailableError(`database unavailable (${code})`);
  // pg's own words for a connection that failed, never came up, or went silent past the client-side timeout.
  if (
    err instanceof Error &&
    /Connection terminated|timeout exceeded when trying to connect|Query read timeout|not queryable/i.test(err.message)
  ) {
    return new DatabaseUnavailableError(err.message);
  }
  return err;
}

export interface PostgresOptions {
  connectionString: string;
  poolSize: number;
  /** Schema put first on the search_path of every connection (isolates test runs). */
  schema?: string;
  /**
   * Cancels any statement running longer (0: no limit). The client also stops waiting a little
   * later, so a database it can no longer hear from (a network partition) cannot hold a request.
   */
  statementTimeoutMs?: number;
  /** How long to wait for a connection before the request fails (and gets a 503); at most the client-side timeout. */
  connectTimeoutMs?: number;
  onError?: (err: Error) => void;
}

// The server cancels a long statement itself (a clean 57014, the connection stays usable); this
// much later, silence means the network is gone and the client gives up on the connection.
const SILENCE_GRACE_MS = 500;
// TCP keepalive probes on idle connections, so a peer that vanished without a reset is noticed.
const KEEPALIVE_DELAY_MS = 10_000;

type TimedQuery = pg.QueryConfig & { query_timeout?: number };

export async function openPostgres(options: PostgresOptions): Promise<Database> {
  const answerTimeoutMs = options.statementTimeoutMs ? options.statementTimeoutMs + SILENCE_GRACE_MS : 0;
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.poolSize,
    connectionTimeoutMillis: Math.min(options.connectTimeoutMs ?? 3000, answerTimeoutMs || Infinity),
    idleTimeoutMillis: 30_000,
    keepAlive: true,
    keepAliveInitialDelayMillis: KEEPALIVE_DELAY_MS,
    // Every statement, transaction control included, gets an answer or an error in this time.
    ...(answerTimeoutMs ? { query_timeout: answerTimeoutMs } : {}),
    // JIT off: every statement here is an index lookup of well under a millisecond, and the planner's
    // estimates for the change log read (millions of entries behind a LIMIT) crossed jit_above_cost,
    // so each catch-up spent 8 ms compiling and 51 ms in all where it runs in 0.2 ms.
    options: [
      '-c jit=off',
      options.schema ? `-c search_path=${options.schema},public` : '',
      options.statementTimeoutMs ? `-c statement_timeout=${options.statementTimeoutMs}` : '',
    ]
      .filter(Boolean)
      .join(' '),
  });
  // An idle client dropped by the server emits 'error' on the pool; unhandled, it would crash the process.
  pool.on('error', (err) => options.onError?.(err));

  /**
   * Runs fn on a connection of its own. A connection that failed or went silent is destroyed on
   * release, never handed to the next request: the answer it still owes would never come.
   */
  const withClient = async <T>(fn: (client: pg.PoolClient, lost: () => void) => Promise<T>): Promise<T> => {
    let client: pg.PoolClient;
    try {
      client = await pool.connect();
    } catch (err) {
      throw translate(err);
    }
    let broken = false;
    const lost = () => (broken = true);
    // The pool listens for errors only while a client is idle; a socket error between two
    // statements of a checked-out client would otherwise crash the process.
    client.on('error', lost);
    try {
      return await fn(client, lost);
    } catch (err) {
      const translated = translate(err);
      if (translated instanceof DatabaseUnavailableError) broken = true;
      throw translated;
    } finally {
      client.off('error', lost);
      client.release(broken);
    }
  };

  const rows = async <T extends object>(client: pg.PoolClient, query: TimedQuery) => {
    try {
      return (await client.query<T & Row>(query)).rows;
    } catch (err) {
      throw translate(err);
    }
  };

  const db: Database = {
    kind: 'postgres',
    // One budget for waiting on the pool and running the statement, so a request never waits
    // for a connection first and then a whole timeout again on it.
    query: <T extends object>(sql: string, params?: readonly unknown[], options?: QueryOptions) => {
      const deadline = performance.now() + answerTimeoutMs;
      const name = options?.prepared === undefined ? {} : { name: options.prepared };
      return withClient((client) => {
        const remaining = answerTimeoutMs ? { query_timeout: Math.max(1, Math.round(deadline - performance.now())) } : {};
        return rows<T>(client, { text: sql, values: params as unknown[] | undefined, ...name, ...remaining });
      });
    },
    async exec(sql) {
      await withClient((client) => rows(client, { text: sql }));
    },
    maintenance: (sql) =>
      withClient(async (client, lost) => {
        // The session's timeout lifted for this one statement, and the client's own wait with it
        // (pg reads a query_timeout of 0 as "the pool's"); the longest a timer takes is about 24 days.
        // The SET is itself bound by the old limit; a very small one can cancel it on a busy machine.
        for (let attempt = 1; ; attempt += 1) {
          try {
            await rows(client, { text: 'SET statement_timeout = 0' });
            break;
          } catch (err) {
            if (!(err instanceof QueryTimeoutError) || attempt === 5) throw err;
          }
        }
        try {
          await rows(client, { text: sql, query_timeout: 2 ** 31 - 1 } as TimedQuery);
        } finally {
          // Back to the connection's default (STATEMENT_TIMEOUT_MS) before the pool hands it out again.
          await rows(client, { text: 'RESET statement_timeout' }).catch((err: unknown) => {
            lost();
            throw err;
          });
        }
      }),
    transaction: (fn) =>
      withClient(async (client, lost) => {
        const tx: Transaction = {
          query: (sql, params) => rows(client, { text: sql, values: params as unknown[] | undefined }),
          // Without values pg sends the simple query protocol, which takes several statements at once.
          exec: async (sql) => {
            await rows(client, { text: sql });
          },
        };
        await rows(client, { text: 'BEGIN' });
        try {
          const result = await fn(tx);
          await rows(client, { text: 'COMMIT' });
          return result;
        } catch (err) {
          // On a lost connection a ROLLBACK would only wait for another timeout; destroying the
          // connection rolls the transaction back on the server.
          if (translate(err) instanceof DatabaseUnavailableError) lost();
          else await client.query('ROLLBACK').catch(lost);
          throw err;
        }
      }),
    close: () => pool.end(),
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
  };
  // Fail at start, naming the variable, rather than on the first request.
  try {
    await db.query('SELECT 1');
  } catch (err) {
    // The server cancelling the probe (a very small STATEMENT_TIMEOUT_MS on a busy machine: the
    // first statement of a connection loads its catalog caches) is still an answer from it.
    if (err instanceof QueryTimeoutError) return db;
    await pool.end().catch(() => undefined);
    const detail = err instanceof Error ? err.message : String(err);
    throw new Error(`DATABASE_URL: cannot connect to PostgreSQL (${detail})`);
  }
  return db;
}
