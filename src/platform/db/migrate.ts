// Applies migrations/NNN_name.sql in order, each file in one transaction with its record in
// schema_migrations, one migrator at a time per schema. Hand-written rather than postgrator (8.0):
// that one runs a file and records it as two separate steps and takes no lock, so instances
// starting together fail on each other (three of four, tried on our migrations), and it would need
// its own file names and version table.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Database } from './port.js';

// Same depth from src/db and dist/db: the SQL files live at the package root.
const MIGRATIONS_DIR = fileURLToPath(new URL('../../../migrations/', import.meta.url));

export interface Migration {
  name: string;
  sql: string;
}

export function loadMigrations(dir = MIGRATIONS_DIR): Migration[] {
  return readdirSync(dir)
    .filter((file) => /^\d+_.+\.sql$/.test(file))
    .sort()
    .map((name) => ({ name, sql: readFileSync(dir + name, 'utf8') }));
}

// Serialises concurrent migrators (several instances starting at once) per schema; held until
// the transaction that takes it ends.
const MIGRATION_LOCK = `SELECT pg_advisory_xact_lock(hashtext('dealsignal:' || current_schema()))`;

/**
 * Applies pending migrations in order, each file in its own transaction. Returns the names applied.
 * A file is sent as one script, as psql would run it: the database parses it, so literals,
 * comments and dollar-quoted bodies need no parsing here.
 */
export async function migrate(db: Database, migrations = loadMigrations()): Promise<string[]> {
  await ensureExtensions(db);
  // Under the lock too: two migrators creating the table at once collide in the catalog.
  await db.transaction(async (tx) => {
    await tx.query(MIGRATION_LOCK);
    await tx.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
      name text PRIMARY KEY,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
  });
  const applied: string[] = [];
  for (const migration of migrations) {
    const done = await db.transaction(async (tx) => {
      await tx.query(MIGRATION_LOCK);
      const rows = await tx.query('SELECT 1 FROM schema_migrations WHERE name = $1', [migration.name]);
      if (rows.length > 0) return false;
      await tx.exec(migration.sql);
      await tx.query('INSERT INTO schema_migrations (name) VALUES ($1)', [migration.name]);
      return true;
    });
    if (done) applied.push(migration.name);
  }
  return applied;
}

/** Extensions are database-wide; several test schemas may race to create them. */
async function ensureExtensions(db: Database): Promise<void> {
  try {
    await db.exec('CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public');
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code !== '23505' && code !== '42710') throw err;
  }
}
