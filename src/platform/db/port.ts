// The query port: the rest of the code talks to this and never learns whether
// PostgreSQL (pg) or the embedded PGlite store sits behind it.

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Row = Record<string, any>;

export interface Queryable {
  query<T extends object = Row>(sql: string, params?: readonly unknown[], options?: QueryOptions): Promise<T[]>;
}

export interface QueryOptions {
  /**
   * Prepare the statement under this name, once per connection (PostgreSQL; PGlite ignores it):
   * after a few runs the server reuses one plan instead of planning each run. For a statement of
   * fixed text asked on every request whose planning costs more than its run (many subqueries).
   */
  readonly prepared?: string;
}

/** A connection inside an open transaction. */
export interface Transaction extends Queryable {
  /** Runs a script of several statements without parameters (a migration file), inside the transaction. */
  exec(sql: string): Promise<void>;
}

export interface Database extends Queryable {
  readonly kind: 'postgres' | 'pglite';
  /** Runs fn inside one transaction; rolls back when fn throws. */
  transaction<T>(fn: (tx: Transaction) => Promise<T>): Promise<T>;
  /** Runs a script of several statements without parameters, as one implicit transaction. */
  exec(sql: string): Promise<void>;
  close(): Promise<void>;
  /**
   * Runs one maintenance statement (VACUUM, ANALYZE) outside any transaction and free of the
   * statement timeout: it takes as long as the table's size needs, and only an operator's command
   * waits on it, never a request. Without it, exec runs the statement.
   */
  maintenance?(sql: string): Promise<void>;
  /** Connection pool figures for metrics (PostgreSQL only). */
  poolStats?(): { total: number; idle: number; waiting: number };
}

/** Thrown when the database cannot be reached; the HTTP layer answers 503. */
export class DatabaseUnavailableError extends Error {
  override name = 'DatabaseUnavailableError';
}

/** Thrown when a statement ran past the statement timeout and was cancelled; answered with 503. */
export class QueryTimeoutError extends Error {
  override name = 'QueryTimeoutError';
}
