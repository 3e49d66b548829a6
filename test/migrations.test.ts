import assert from 'node:assert/strict';
import { afterEach, beforeEach, it } from 'node:test';
import { migrate, type Migration } from '../src/platform/db/migrate.js';
import { openPostgres } from '../src/platform/db/postgres.js';
import type { Database } from '../src/platform/db/port.js';
import { describeEach, describeNeeding, freshSchema, needsPostgres } from './helpers.js';

// SQL a line-by-line reading gets wrong: "--" and ";" inside literals, a block comment holding a
// semicolon, a dollar-quoted body with its own semicolons, two statements on one line.
const TRICKY: Migration = {
  name: '001_tricky.sql',
  sql: `CREATE TABLE notes (id int PRIMARY KEY, body text NOT NULL);
/* a block comment; with a semicolon */
INSERT INTO notes VALUES (1, 'two dashes -- are not a comment');
INSERT INTO notes VALUES (2, 'a semicolon at the end of a line;
and the literal goes on'); INSERT INTO notes VALUES (3, E'an escaped \\' quote;');
CREATE FUNCTION note_count() RETURNS int LANGUAGE plpgsql AS $body$
BEGIN
  RETURN (SELECT count(*) FROM notes); -- counted;
END;
$body$;
`,
};

const LATER: Migration = {
  name: '002_later.sql',
  sql: `CREATE TABLE later (id int);
INSERT INTO later VALUES (1);`,
};

const SECOND: Migration = { name: '004_second.sql', sql: 'INSERT INTO later VALUES (2);' };

// The second statement fails: the first must not survive it.
const BROKEN: Migration = {
  name: '003_broken.sql',
  sql: `CREATE TABLE half_done (id int);
INSERT INTO no_such_table VALUES (1);`,
};

const appliedNames = async (db: Database) =>
  (await db.query<{ name: string }>('SELECT name FROM schema_migrations ORDER BY name')).map((r) => r.name);

describeEach('migrations', (backend) => {
  let db: Database;
  beforeEach(async () => {
    db = await backend.open();
  });
  afterEach(async () => {
    await db.close();
  });

  it('a file runs as one script: literals, comments and dollar-quoted bodies reach the database as written', async () => {
    assert.deepEqual(await migrate(db, [TRICKY, LATER]), ['001_tricky.sql', '002_later.sql']);
    const notes = await db.query<{ id: number; body: string }>('SELECT id, body FROM notes ORDER BY id');
    assert.deepEqual(notes, [
      { id: 1, body: 'two dashes -- are not a comment' },
      { id: 2, body: 'a semicolon at the end of a line;\nand the literal goes on' },
      { id: 3, body: "an escaped ' quote;" },
    ]);
    assert.deepEqual(await db.query('SELECT note_count() AS n'), [{ n: 3 }]);
    assert.deepEqual(await migrate(db, [TRICKY, LATER]), [], 'a second run applies nothing');
  });

  it('a file that fails changes nothing and is not recorded; the files before it stay applied', async () => {
    await assert.rejects(migrate(db, [LATER, BROKEN]), /no_such_table/);
    assert.deepEqual(await appliedNames(db), ['002_later.sql']);
    assert.deepEqual(await db.query('SELECT id FROM later'), [{ id: 1 }]);
    const tables = await db.query(`SELECT 1 FROM information_schema.tables WHERE table_name = 'half_done'`);
    assert.equal(tables.length, 0);
  });
});

describeNeeding('migrations from several instances at once [postgres]', 'postgres', needsPostgres, () => {
  it('every file is applied once, by one of them, and the others find it done', async () => {
    const { schema, drop } = await freshSchema();
    const instances = await Promise.all(
      Array.from({ length: 4 }, () => openPostgres({ connectionString: process.env.DATABASE_URL!, poolSize: 2, schema })),
    );
    try {
      const results = await Promise.all(instances.map((db) => migrate(db, [LATER, SECOND])));
      assert.deepEqual(results.flat().sort(), ['002_later.sql', '004_second.sql']);
      assert.deepEqual(await appliedNames(instances[0]!), ['002_later.sql', '004_second.sql']);
      assert.deepEqual(await instances[0]!.query('SELECT id FROM later ORDER BY id'), [{ id: 1 }, { id: 2 }]);
    } finally {
      await Promise.all(instances.map((db) => db.close()));
      await drop();
    }
  });
});
