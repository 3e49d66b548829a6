// Imports and readers side by side: an import is all or nothing whatever fails and wherever, and on
// the embedded store (one connection) a reader is answered while an import runs, not after it.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { openStore } from '../../src/cli/io.js';
import { loadConfig } from '../../src/config.js';
import type { Database, Transaction } from '../../src/platform/db/port.js';
import { DATASETS } from '../../src/catalog/registry.js';
import { ingest } from '../../src/ingest/importer.js';
import { fundingRecord } from '../fixtures.js';
import { clearData, describeEach, makeKey } from '../helpers.js';
import { ADMIN_TOKEN, chunked, ndjson, snapshot, startAdminApp, WriteProbe, type AdminContext } from './support.js';

const STAGES = DATASETS.map((dataset) => `${dataset.table}_stage`);

/** Rows in every stage together. */
async function staged(db: Database): Promise<number> {
  const rows = await db.query<{ n: number }>(
    `SELECT (${STAGES.map((stage) => `(SELECT count(*) FROM ${stage})`).join(' + ')})::int AS n`,
  );
  return rows[0]!.n;
}

/** Fails the write statement (inside a transaction) that brings the rows written to `total`, after it ran. */
function failingAtTheEnd(db: Database, total: number): Database {
  let written = 0;
  const wrap = (tx: Transaction): Transaction => ({
    exec: (sql) => tx.exec(sql),
    query: async <T extends object>(sql: string, params?: readonly unknown[]): Promise<T[]> => {
      const rows = await tx.query<T>(sql, params);
      const first = rows[0] as { inserted?: unknown; updated?: unknown } | undefined;
      if (first && typeof first.inserted === 'number' && typeof first.updated === 'number') {
        written += first.inserted + first.updated;
        if (written >= total) throw new Error('could not extend file "base/16384/16400": No space left on device');
      }
      return rows;
    },
  });
  return { ...db, transaction: (fn) => db.transaction((tx) => fn(wrap(tx))) };
}

/** Fails the `n`th staging statement (outside any transaction), after it ran. */
function failingStage(db: Database, n: number): Database {
  let seen = 0;
  return {
    ...db,
    async query<T extends object>(sql: string, params?: readonly unknown[]): Promise<T[]> {
      const rows = await db.query<T>(sql, params);
      const first = rows[0] as { staged?: unknown } | undefined;
      if (first && typeof first.staged === 'number' && ++seen === n) throw new Error('terminating connection');
      return rows;
    },
  };
}

describeEach('imports and readers', (backend) => {
  let db: Database;
  let ctx: AdminContext;
  let key: string;
  const probe = new WriteProbe();

  before(async () => {
    ctx = await startAdminApp(probe.backend(backend));
    db = ctx.db;
    key = (await makeKey(db, 'enterprise')).key;
  });
  after(() => ctx.close());
  beforeEach(() => clearData(db));

  // Each case: the store's own way (staged on the embedded store, one transaction on PostgreSQL),
  // and staged on both, so the staged path is held to the same rule on either store.
  for (const staging of [undefined, true]) {
    const how = staging ? 'staged' : "the store's own way";

    it(`an import that fails near its end leaves the store exactly as it was (${how})`, async () => {
      const stored = [fundingRecord(), fundingRecord()];
      await ingest(db, 'funding', chunked(ndjson(stored)), { skipInvalid: false });
      const before = await snapshot(db);
      const records = [
        ...stored.map((r) => ({ ...r, funding_amount: 7_777_777 })),
        ...Array.from({ length: 1200 }, () => fundingRecord()),
      ];

      // A bad record near the end: read after many write batches.
      probe.rowsWritten = 0;
      const bad = await ingest(
        probe.wrap(db),
        'funding',
        chunked(ndjson([...records, { ...fundingRecord(), currency: 1 }, fundingRecord()]), 8192),
        {
          skipInvalid: false,
          staging,
        },
      );
      assert.deepEqual([bad.committed, bad.failure, bad.inserted, bad.updated], [false, 'invalid-records', 0, 0]);
      assert.ok(probe.rowsWritten >= 1000, `${probe.rowsWritten} rows written before the bad record`);
      assert.deepEqual(await snapshot(db), before, 'counts, checksums and change log as before');
      assert.equal(await staged(db), 0, 'nothing left staged');

      // A database error on the statement that writes the last records (the publishing one, staged).
      await assert.rejects(
        ingest(failingAtTheEnd(db, records.length), 'funding', chunked(ndjson(records), 8192), { skipInvalid: false, staging }),
        /No space left on device/,
      );
      assert.deepEqual(await snapshot(db), before, 'a database error at the end changes nothing either');
      assert.equal(await staged(db), 0);

      // Readers were never refused meanwhile, and a later import of the same records goes through.
      const done = await ingest(db, 'funding', chunked(ndjson(records), 8192), { skipInvalid: false, staging });
      assert.deepEqual([done.committed, done.inserted, done.updated], [true, 1200, 2]);
      assert.equal(await staged(db), 0, 'a published stage is removed too');
    });

    it(
      `a database error while staging leaves nothing (${how})`,
      { skip: staging || backend.name === 'pglite' ? false : 'PostgreSQL does not stage on its own' },
      async () => {
        await ingest(db, 'funding', chunked(ndjson([fundingRecord()])), { skipInvalid: false });
        const before = await snapshot(db);
        const records = Array.from({ length: 1200 }, () => fundingRecord());
        await assert.rejects(
          ingest(failingStage(db, 3), 'funding', chunked(ndjson(records), 8192), { skipInvalid: false, staging }),
          /terminating connection/,
        );
        assert.deepEqual(await snapshot(db), before);
        assert.equal(await staged(db), 0);
      },
    );
  }

  it('a reader asking while an import runs is answered before the import ends, without any of it', async () => {
    const v1 = async () => {
      const response = await fetch(`${base}/api/v1/funding?page=1`, { headers: { 'x-lot-api-key': key } });
      return { status: response.status, total: Number(response.headers.get('x-total-count')) };
    };
    const address = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const base = address;
    await ingest(db, 'funding', chunked(ndjson([fundingRecord(), fundingRecord(), fundingRecord()])), { skipInvalid: false });
    const before = await v1();
    assert.deepEqual(before, { status: 200, total: 3 });

    const records = Array.from({ length: 1500 }, () => fundingRecord());
    const body = Buffer.from(ndjson(records));
    const firstPart = Buffer.from(ndjson(records.slice(0, 1000)));
    const events: string[] = [];
    probe.rowsWritten = 0;
    const { socket, answered } = upload(new URL(base), body.length);
    const imported = answered.then((response) => {
      events.push('import answered');
      return response;
    });
    socket.write(firstPart);
    // The import is under way: rows of it have been written (staged, or inside its transaction).
    await until(() => probe.rowsWritten >= 500, 'rows of the import written');

    const reader = v1().then((answer) => {
      events.push('reader answered');
      return answer;
    });
    // The rest of the upload goes once the reader has its answer. A store where the reader waits
    // for the import would never answer it: after a while the rest is sent anyway, so the import
    // ends and the order of the answers shows what happened.
    let fallback: NodeJS.Timeout | undefined;
    await Promise.race([reader, new Promise((resolve) => (fallback = setTimeout(resolve, 15_000)))]);
    clearTimeout(fallback);
    events.push('rest of the upload sent');
    socket.write(body.subarray(firstPart.length));
    const [during, response] = await Promise.all([reader, imported]);
    assert.deepEqual(
      events,
      ['reader answered', 'rest of the upload sent', 'import answered'],
      'the reader was answered while the import was still reading its input',
    );
    assert.deepEqual(during, { status: 200, total: 3 }, 'nothing of an unfinished import is visible');
    assert.match(response, /^HTTP\/1\.1 200 /);
    assert.match(response, /"committed":true/);
    assert.deepEqual(await v1(), { status: 200, total: 1503 });
    assert.equal(await staged(db), 0);
  });
});

/** A raw upload of length bytes to the admin import; the caller writes the body. */
function upload(base: URL, length: number): { socket: Socket; answered: Promise<string> } {
  const socket = connect(Number(base.port), base.hostname);
  socket.write(
    `POST /admin/ingest/funding HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${ADMIN_TOKEN}\r\n` +
      `Content-Type: application/x-ndjson\r\nContent-Length: ${length}\r\nConnection: close\r\n\r\n`,
  );
  const answered = new Promise<string>((resolve, reject) => {
    let text = '';
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    socket.on('end', () => resolve(text));
    socket.on('error', reject);
  });
  return { socket, answered };
}

async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('an import interrupted by a crash, on the embedded store', () => {
  let dir: string;
  const dirs: string[] = [];
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'dealsignal-stage-'));
    dirs.push(dir);
  });
  after(() => {
    for (const made of dirs) rmSync(made, { recursive: true, force: true });
  });

  /**
   * A process that opens the store in dir, imports one record, stages part of an import whose
   * input never ends, and then is killed (SIGKILL: the store is recovered at the next start) or
   * closes the store under the import (a stop that leaves the store clean but the stage full).
   */
  async function interruptedImport(how: 'killed' | 'closed'): Promise<void> {
    const src = (path: string) => fileURLToPath(new URL(`../../src/${path}`, import.meta.url));
    const fixtures = fileURLToPath(new URL('../fixtures.ts', import.meta.url));
    const script = `
      import { loadConfig } from ${JSON.stringify(src('config.js'))};
      import { openDatabase } from ${JSON.stringify(src('platform/db/open.js'))};
      import { migrate } from ${JSON.stringify(src('platform/db/migrate.js'))};
      import { ingest } from ${JSON.stringify(src('ingest/importer.js'))};
      import { fundingRecord } from ${JSON.stringify(fixtures)};
      const db = await openDatabase(loadConfig({ DATA_DIR: ${JSON.stringify(dir)} }));
      await migrate(db);
      const kept = JSON.stringify(fundingRecord({ company_name: 'Kept Co' }));
      await ingest(db, 'funding', [Buffer.from(kept + '\\n')], { skipInvalid: false });
      async function* endless() {
        yield Buffer.from(Array.from({ length: 800 }, () => JSON.stringify(fundingRecord())).join('\\n') + '\\n');
        for (;;) {
          const rows = await db.query('SELECT count(*)::int AS n FROM funding_rounds_stage');
          if (rows[0].n > 0) {
            if (${JSON.stringify(how)} === 'closed') {
              await db.close();
              process.exit(0);
            }
            console.log('staged ' + rows[0].n);
          }
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      }
      await ingest(db, 'funding', endless(), { skipInvalid: false });
    `;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    if (how === 'killed') {
      await new Promise<void>((resolve, reject) => {
        child.stdout.on('data', (chunk: Buffer) => {
          if (/staged \d+/.test(chunk.toString('utf8'))) resolve();
        });
        void exited.then((code) => reject(new Error(`the importing process exited (${code}) before staging: ${stderr}`)));
      });
      child.kill('SIGKILL');
    }
    const code = await exited;
    if (how === 'closed') assert.equal(code, 0, stderr);
  }

  /** Opens the store as a command does; what it said. */
  async function restart(check: (db: Database) => Promise<void>): Promise<string> {
    const said: string[] = [];
    const config = loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'silent' });
    const db = await openStore(config, { stdin: process.stdin, out: () => undefined, err: (line) => said.push(line) });
    try {
      assert.equal(await staged(db), 0, 'the stage is empty after the start');
      const names = await db.query<{ doc: string }>('SELECT doc FROM funding_rounds');
      assert.deepEqual(
        names.map((row) => (JSON.parse(row.doc) as { company_name: string }).company_name),
        ['Kept Co'],
        'only the import that finished is there',
      );
      await check(db);
    } finally {
      await db.close();
    }
    return said.join('\n');
  }

  it('killed mid-import: nothing of it is visible, and its stage is gone at the next start', async () => {
    await interruptedImport('killed');
    await restart(async () => undefined);
  });

  it('stopped mid-import with the store closed cleanly: the stage left behind is emptied at the next start', async () => {
    await interruptedImport('closed');
    const said = await restart(async () => undefined);
    assert.match(said, /removed \d+ staged records of imports interrupted by the last stop/);
  });
});
