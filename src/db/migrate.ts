import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Database } from './port.js';

// Same depth from src/db and dist/db: the SQL files live at the package root.
const MIGRATIONS_DIR = fileURLToPath(new URL('../../migrations/', import.meta.url));

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

/** Applies pending migrations in order, each in its own transaction. Returns the names applied. */
export async function migrate(db: Database, migrations = loadMigrations()): Promise<string[]> {
  await ensureExtensions(db);
  await db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    name text PRIMARY KEY,
    applied_at timestamptz NOT NULL DEFAULT now()
  )`);
  const applied: string[] = [];
  for (const migration of migrations) {
    const done = await db.transaction(async (tx) => {
      // Serialises concurrent migrators (several instances starting at once) per schema.
      await tx.query(`SELECT pg_advisory_xact_lock(hashtext('dealsignal:' || current_schema()))`);
      const rows = await tx.query('SELECT 1 FROM schema_migrations WHERE name = $1', [migration.name]);
      if (rows.length > 0) return false;
      for (const statement of splitStatements(migration.sql)) await tx.query(statement);
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

/**
 * Splits a migration into statements at top-level semicolons, keeping dollar-quoted
 * bodies whole (extended-protocol queries take one statement each).
 */
export function splitStatements(sql: string): string[] {
  const statements: string[] = [];
  let current = '';
  let dollarTag: string | null = null;
  const lines = sql.split('\n');
  for (const line of lines) {
    const stripped: string = dollarTag === null ? line.replace(/--.*$/, '') : line;
    for (const match of stripped.matchAll(/\$[a-zA-Z_]*\$/g) as IterableIterator<RegExpMatchArray>) {
      if (dollarTag === null) dollarTag = match[0];
      else if (match[0] === dollarTag) dollarTag = null;
    }
    current += stripped + '\n';
    if (dollarTag === null && stripped.trimEnd().endsWith(';')) {
      if (current.trim() !== '') statements.push(current.trim());
      current = '';
    }
  }
  if (current.trim() !== '') statements.push(current.trim());
  return statements;
}
