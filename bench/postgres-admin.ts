// Making and dropping the databases the benchmarks and the behaviour comparison run on, through the
// server's maintenance database (`postgres`) with the URL's credentials.
import pg from 'pg';

/** The database a URL names; an error naming `what` when it names none. */
function databaseName(databaseUrl: string, what: string): string {
  const name = decodeURIComponent(new URL(databaseUrl).pathname.replace(/^\//, ''));
  if (name === '') throw new Error(`${what} must name a database`);
  return name;
}

/** fn with a client connected to the maintenance database of the URL's server, closed afterwards. */
async function withMaintenanceClient<T>(databaseUrl: string, fn: (admin: pg.Client) => Promise<T>): Promise<T> {
  const url = new URL(databaseUrl);
  url.pathname = '/postgres';
  const admin = new pg.Client({ connectionString: url.toString() });
  await admin.connect();
  try {
    return await fn(admin);
  } finally {
    await admin.end();
  }
}

/** Creates the database when missing. */
export async function ensureDatabase(databaseUrl: string, what = 'BENCH_DATABASE_URL'): Promise<void> {
  const name = databaseName(databaseUrl, what);
  await withMaintenanceClient(databaseUrl, async (admin) => {
    const found = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount === 0) {
      console.log(`creating database ${name}`);
      await admin.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}`);
    }
  });
}

/** Drops the database (closing its connections) and creates it empty. */
export async function freshDatabase(databaseUrl: string, what = 'the database URL'): Promise<void> {
  const name = databaseName(databaseUrl, what);
  await withMaintenanceClient(databaseUrl, async (admin) => {
    await admin.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}`);
  });
}

/** Drops the database, closing its connections. */
export async function dropDatabase(databaseUrl: string, what = 'the database URL'): Promise<void> {
  const name = databaseName(databaseUrl, what);
  await withMaintenanceClient(databaseUrl, async (admin) => {
    await admin.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`);
  });
}
