import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { after, afterEach, before, beforeEach, describe, it } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { importCommand } from '../src/cli/ingest-command.js';
import { ChangeFollower, ChangeLogExpiredError, loadSnapshot } from '../src/changes/follower.js';
import { migrate } from '../src/platform/db/migrate.js';
import type { Database, Queryable } from '../src/platform/db/port.js';
import { openPglite } from '../src/platform/db/pglite.js';
import { openPostgres } from '../src/platform/db/postgres.js';
import {
  CHANGE_DATASETS,
  changeLogBounds,
  changeLogHead,
  comparePositions,
  LOG_START,
  pruneChangeLog,
  type Change,
  type ChangeDataset,
  type ChangePosition,
} from '../src/changes/change-log-queries.js';
import { encodeCursor, parseCursor } from '../src/changes/cursor.js';
import { pruneExpiredChanges } from '../src/changes/retention.js';
import { processInboxFile } from '../src/ingest/inbox.js';
import { seedDatabase } from '../src/demo/seed.js';
import { fundingRecord, investorRecord, jobChangeRecord, maRecord } from './fixtures.js';
import { clearData, describeEach, freshSchema, testConfig } from './helpers.js';
import { ADMIN_TOKEN, ndjson, run, startAdminApp, type AdminContext } from './ingest/support.js';

const TABLES: Record<ChangeDataset, string> = {
  funding: 'funding_rounds',
  'm-a': 'ma_deals',
  investors: 'investors',
  'job-changes': 'job_changes',
  acquisitions: 'acquisition_signals',
  companies: 'companies',
  hiring: 'hiring_postings',
};

/** Everything after a position, read in small batches so that batches end inside transactions. */
async function follow(db: Queryable, from: ChangePosition, batchSize = 7): Promise<Change[]> {
  const follower = new ChangeFollower(db, from, { batchSize });
  const changes: Change[] = [];
  for (;;) {
    const batch = await follower.poll();
    if (batch.length === 0) return changes;
    changes.push(...batch);
  }
}

/** Entries as sortable text, for comparing sets of entries whatever their order inside a statement. */
const described = (changes: Change[]) => changes.map((c) => `${c.dataset} ${c.op} ${c.id}`).sort();

async function ids(db: Queryable, dataset: ChangeDataset): Promise<number[]> {
  const rows = await db.query<{ id: number }>(`SELECT id FROM ${TABLES[dataset]} ORDER BY id`);
  return rows.map((row) => row.id);
}

const entries = (dataset: ChangeDataset, op: string, list: number[]) => list.map((id) => `${dataset} ${op} ${id}`).sort();

/**
 * Applies changes to a copy of the tables' ids, refusing any that does not fit the copy (a
 * creation of an id it holds, an update or deletion of one it does not): a change applied twice,
 * or one missed, shows up here.
 */
function replay(changes: Change[], state = new Map<ChangeDataset, Set<number>>()): Map<ChangeDataset, Set<number>> {
  for (const dataset of CHANGE_DATASETS) if (!state.has(dataset)) state.set(dataset, new Set());
  for (const change of changes) {
    const held = state.get(change.dataset)!;
    const label = `${change.dataset} ${change.op} ${change.id} at ${change.position.seq}.${change.position.changeId}`;
    if (change.op === 'created') assert.ok(!held.has(change.id), `${label}: already there`);
    else assert.ok(held.has(change.id), `${label}: not there`);
    if (change.op === 'deleted') held.delete(change.id);
    else held.add(change.id);
  }
  return state;
}

async function assertReplayMatches(db: Queryable, state: Map<ChangeDataset, Set<number>>): Promise<void> {
  for (const dataset of CHANGE_DATASETS) {
    assert.deepEqual(
      [...state.get(dataset)!].sort((a, b) => a - b),
      await ids(db, dataset),
      `${dataset}: the replay differs from the table`,
    );
  }
}

function assertInLogOrder(changes: Change[], after: ChangePosition = LOG_START): void {
  let previous = after;
  for (const change of changes) {
    assert.ok(
      comparePositions(change.position, previous) > 0,
      `${JSON.stringify(change.position)} after ${JSON.stringify(previous)}`,
    );
    previous = change.position;
  }
}

async function waitFor(condition: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await delay(5);
  }
}

describeEach('change log', (backend) => {
  let ctx: AdminContext;
  let dir: string;

  const post = (kind: string, body: string) =>
    ctx.app.inject({
      method: 'POST',
      url: `/admin/ingest/${kind}`,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/x-ndjson' },
      payload: body,
    });

  before(async () => {
    ctx = await startAdminApp(backend);
    dir = mkdtempSync(join(tmpdir(), 'dealsignal-change-log-'));
  });
  after(async () => {
    await ctx.close();
    rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(() => clearData(ctx.db));

  it('every write path logs each created, updated and deleted record; identical re-imports and no-op updates log nothing', async () => {
    const { db } = ctx;
    const start = await changeLogHead(db);
    let mark = start;
    /** Every entry since the previous call. */
    const sinceAll = async () => {
      const changes = await follow(db, mark);
      assertInLogOrder(changes, mark);
      mark = changes.at(-1)?.position ?? mark;
      return changes;
    };
    /**
     * The entries since the previous call but the companies': records name companies, and the
     * companies resolution makes from them are logged with them (the first import shows it).
     */
    const since = async () => (await sinceAll()).filter((change) => change.dataset !== 'companies');

    // Admin API: one import, one transaction, the companies its records named and made with it.
    const rounds = [fundingRecord(), fundingRecord()];
    assert.equal((await post('funding', ndjson(rounds))).statusCode, 200);
    const created = await sinceAll();
    assert.deepEqual(
      described(created),
      [
        ...entries('funding', 'created', await ids(db, 'funding')),
        ...entries('companies', 'created', await ids(db, 'companies')),
      ].sort(),
    );
    assert.equal(new Set(created.map((c) => c.position.seq)).size, 1, 'one import is one transaction');
    assert.ok(created.every((c) => c.changedAt instanceof Date && Math.abs(c.changedAt.getTime() - Date.now()) < 60_000));

    // The same file again changes nothing and logs nothing; the head stays where it was.
    const again = await post('funding', ndjson(rounds));
    assert.equal(again.json().unchanged, 2);
    assert.deepEqual(await since(), []);
    assert.deepEqual(await changeLogHead(db), mark);

    // A changed record is an update of its row.
    const [firstId] = await ids(db, 'funding');
    await post('funding', ndjson([{ ...rounds[0], funding_amount: 7_500_000 }]));
    assert.deepEqual(described(await since()), [`funding updated ${firstId}`]);

    // The command line.
    const file = join(dir, 'changes.ndjson');
    writeFileSync(file, ndjson([jobChangeRecord(), jobChangeRecord(), jobChangeRecord()]));
    const io = {
      stdin: Readable.from([]),
      out: () => undefined,
      err: () => undefined,
      open: async () => ({ ...db, close: async () => undefined }),
    };
    assert.equal(await importCommand(testConfig(), ['job-changes', file], io), 0);
    assert.deepEqual(described(await since()), entries('job-changes', 'created', await ids(db, 'job-changes')));

    // The inbox (its folders exist once a watcher has started).
    mkdirSync(join(dir, 'processed'), { recursive: true });
    writeFileSync(join(dir, 'm-a-daily.ndjson'), ndjson([maRecord(), maRecord()]));
    const log = { info: () => undefined, warn: () => undefined, error: () => undefined };
    assert.equal((await processInboxFile(db, dir, 'm-a-daily.ndjson', log))?.movedTo, 'processed');
    assert.deepEqual(described(await since()), entries('m-a', 'created', await ids(db, 'm-a')));

    // The seed (only into empty tables: acquisitions and hiring; the companies the imports above made are there).
    assert.equal((await post('investors', ndjson([investorRecord(), investorRecord()]))).statusCode, 200);
    assert.deepEqual(described(await since()), entries('investors', 'created', await ids(db, 'investors')));
    await seedDatabase(db, { scale: 'demo', seed: 7, asOf: new Date('2026-01-01T00:00:00Z'), onlyEmpty: true });
    const seeded = await ids(db, 'acquisitions');
    const postings = await ids(db, 'hiring');
    assert.ok(seeded.length > 0 && postings.length > 0);
    assert.deepEqual(
      described(await since()),
      [...entries('acquisitions', 'created', seeded), ...entries('hiring', 'created', postings)].sort(),
    );

    // Plain SQL: an update that changes nothing, a real one, a changed primary key, a delete.
    const [jobId] = await ids(db, 'job-changes');
    const [dealId] = await ids(db, 'm-a');
    const [investorId] = await ids(db, 'investors');
    await db.query('UPDATE job_changes SET doc = doc, sort_at = sort_at');
    assert.deepEqual(await since(), []);
    await db.query(`UPDATE job_changes SET sort_at = sort_at + interval '1 day' WHERE id = $1`, [jobId]);
    assert.deepEqual(described(await since()), [`job-changes updated ${jobId}`]);
    await db.query('UPDATE ma_deals SET id = id + 100000 WHERE id = $1', [dealId]);
    assert.deepEqual(described(await since()), [`m-a created ${dealId! + 100000}`, `m-a deleted ${dealId}`].sort());
    await db.query('DELETE FROM investors WHERE id = $1', [investorId]);
    assert.deepEqual(described(await since()), [`investors deleted ${investorId}`]);

    // A write rolled back leaves no entry: the log is written in the writer's transaction.
    await assert.rejects(
      db.transaction(async (tx) => {
        await tx.query('DELETE FROM funding_rounds');
        throw new Error('changed my mind');
      }),
    );
    assert.deepEqual(await since(), []);

    // TRUNCATE logs a deletion of every row it removes.
    await db.exec('TRUNCATE acquisition_signals');
    assert.deepEqual(described(await since()), entries('acquisitions', 'deleted', seeded));

    // Replaying everything since the start rebuilds every table from empty.
    const all = await follow(db, start, 50);
    assertInLogOrder(all, start);
    await assertReplayMatches(db, replay(all));
  });

  it('a follower resumes from any position, also inside a transaction, without skipping or repeating', async () => {
    const { db } = ctx;
    const start = await changeLogHead(db);
    await post('funding', ndjson(Array.from({ length: 12 }, () => fundingRecord())));
    await post('job-changes', ndjson(Array.from({ length: 5 }, () => jobChangeRecord())));
    await post('funding', ndjson([fundingRecord()]));
    const all = await follow(db, start, 1000);
    // With the companies the records named, made in the same transactions.
    assert.equal(all.filter((change) => change.dataset !== 'companies').length, 18);
    assert.ok(all.some((change) => change.dataset === 'companies'));
    for (const size of [1, 4, 12, 13]) {
      assert.deepEqual(await follow(db, start, size), all, `batches of ${size}`);
    }
    for (let i = 0; i < all.length; i++) {
      assert.deepEqual(await follow(db, all[i]!.position, 5), all.slice(i + 1), `from entry ${i}`);
    }
    assert.deepEqual((await changeLogBounds(db)).head, all.at(-1)!.position);
  });

  it('a snapshot and the head read together: following from that head adds exactly what the snapshot lacks', async () => {
    const { db } = ctx;
    await post('funding', ndjson([fundingRecord(), fundingRecord()]));
    // The rounds and the companies they named.
    const snapshot = await loadSnapshot(db, async (tx) => ({
      funding: await ids(tx, 'funding'),
      companies: await ids(tx, 'companies'),
    }));
    assert.deepEqual(snapshot.head, await changeLogHead(db));
    await post('funding', ndjson([fundingRecord()]));
    const state = replay(
      await follow(db, snapshot.head),
      new Map<ChangeDataset, Set<number>>([
        ['funding', new Set(snapshot.value.funding)],
        ['companies', new Set(snapshot.value.companies)],
      ]),
    );
    await assertReplayMatches(db, state);
  });

  it('pruning removes entries past the retention; a position behind the horizon is expired, the head stays', async () => {
    const { db } = ctx;
    const retentionDays = testConfig({ CHANGE_LOG_RETENTION_DAYS: '7' }).changeLogRetentionDays;
    const start = await changeLogHead(db);
    await post('funding', ndjson([fundingRecord(), fundingRecord()]));
    await post('job-changes', ndjson([jobChangeRecord()]));
    const old = await follow(db, start);
    await post('investors', ndjson([investorRecord(), investorRecord()]));
    const recent = await follow(db, old.at(-1)!.position);
    const head = await changeLogHead(db);

    // The first two imports committed eight days ago.
    await db.query(`UPDATE change_transactions SET committed_at = committed_at - interval '8 days' WHERE seq <= $1`, [
      old.at(-1)!.position.seq,
    ]);
    const result = await pruneExpiredChanges(db, retentionDays);
    assert.deepEqual(result.pruned, old.at(-1)!.position);
    assert.ok(result.removedChanges >= old.length);
    assert.deepEqual(await changeLogBounds(db), { head, pruned: old.at(-1)!.position });

    // Behind the horizon: told, not silently skipped. At it: the rest, exactly.
    for (const position of [start, old[0]!.position, old.at(-2)!.position]) {
      await assert.rejects(new ChangeFollower(db, position).poll(), ChangeLogExpiredError);
    }
    assert.deepEqual(await follow(db, old.at(-1)!.position), recent);

    // A follower at the head reads on.
    const follower = new ChangeFollower(db, head);
    await post('funding', ndjson([fundingRecord()]));
    const fresh = await follower.poll();
    assert.equal(fresh.filter((change) => change.dataset === 'funding').length, 1, 'the round (and the company it named)');

    // When everything is past the retention the log empties, but its head does not go back.
    await db.query(`UPDATE change_transactions SET committed_at = committed_at - interval '30 days'`);
    await pruneExpiredChanges(db, retentionDays);
    assert.deepEqual(await changeLogBounds(db), { head: fresh.at(-1)!.position, pruned: fresh.at(-1)!.position });
    assert.deepEqual(await db.query('SELECT count(*)::int AS n FROM change_log'), [{ n: 0 }]);
    assert.deepEqual(await follower.poll(), []);
    await post('funding', ndjson([fundingRecord()]));
    const next = await follower.poll();
    assert.equal(next.filter((change) => change.dataset === 'funding').length, 1);
    assert.ok(comparePositions(next[0]!.position, fresh.at(-1)!.position) > 0);
  });

  it('pruning a transaction of many entries in small chunks leaves no entry behind', async () => {
    const { db } = ctx;
    const start = await changeLogHead(db);
    await post('job-changes', ndjson(Array.from({ length: 25 }, () => jobChangeRecord())));
    await post('funding', ndjson([fundingRecord()]));
    const logged = await follow(db, start);
    await db.query(`UPDATE change_transactions SET committed_at = committed_at - interval '8 days'`);
    const result = await pruneChangeLog(db, new Date(Date.now() - 86_400_000), { chunkRows: 4 });
    assert.deepEqual(result.pruned, logged.at(-1)!.position);
    assert.deepEqual(await db.query('SELECT count(*)::int AS n FROM change_log'), [{ n: 0 }]);
    assert.deepEqual(await db.query('SELECT count(*)::int AS n FROM change_transactions'), [{ n: 0 }]);
  });
});

describe('change log cursors', () => {
  it('encode and parse round trip', () => {
    for (const position of [LOG_START, { seq: 1, changeId: 1 }, { seq: 42, changeId: 0 }, { seq: 907, changeId: 123_456_789 }]) {
      const cursor = encodeCursor(position);
      assert.match(cursor, /^[A-Za-z0-9_-]+$/);
      assert.deepEqual(parseCursor(cursor), position);
    }
    const largest = { seq: Number.MAX_SAFE_INTEGER, changeId: Number.MAX_SAFE_INTEGER };
    assert.deepEqual(parseCursor(encodeCursor(largest)), largest);
  });

  it('cursors are opaque: the position is not readable as plain digits', () => {
    assert.doesNotMatch(encodeCursor({ seq: 907, changeId: 123 }), /907|123/);
  });

  it('rejects anything that is not a cursor this service wrote', () => {
    const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64url');
    const valid = encodeCursor({ seq: 5, changeId: 9 });
    const malformed = [
      '',
      'abc',
      '5.9',
      'v1.5.9',
      b64('v2.5.9'),
      b64('v1.5'),
      b64('v1.5.9.1'),
      b64('v1.05.9'),
      b64('v1.5.-9'),
      b64('v1.5.9 '),
      b64('v1.1e3.9'),
      b64(`v1.${Number.MAX_SAFE_INTEGER + 1}.1`),
      b64('v1.99999999999999999.1'),
      `${valid}=`,
      Buffer.from('v1.5.19').toString('base64'),
      `${valid.slice(0, -1)}+`,
      `${valid} `,
      `${valid}%00`,
      'A'.repeat(65),
      b64(`v1.5.9${'\u0000'}`),
    ];
    for (const text of malformed) assert.equal(parseCursor(text), undefined, JSON.stringify(text));
  });

  it('one position has one cursor: other spellings of the same bytes are refused', () => {
    const cursor = encodeCursor({ seq: 5, changeId: 9 });
    const last = cursor.at(-1)!;
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const respellings = [...alphabet]
      .filter((c) => c !== last)
      .map((c) => cursor.slice(0, -1) + c)
      .filter((text) => Buffer.from(text, 'base64url').equals(Buffer.from(cursor, 'base64url')));
    for (const text of respellings) assert.equal(parseCursor(text), undefined, text);
  });
});

const DATABASE_URL = process.env.DATABASE_URL;

/** Rows inserted with plain SQL, n at a time, each carrying a label in its text. */
const INSERTS: Record<ChangeDataset, string> = {
  funding: `INSERT INTO funding_rounds (natural_key, name_path, funding_amount, sort_at, doc)
            SELECT $1 || '-' || i, $1, 1000 * i, now(), '{}' FROM generate_series(1, $2::int) i`,
  'm-a': `INSERT INTO ma_deals (investment_id, status, acquisition_amount, acquirer_key, sort_at, doc)
          SELECT gen_random_uuid(), 'completed', 1000 * i, $1, now(), '{}' FROM generate_series(1, $2::int) i`,
  investors: `INSERT INTO investors (record_id, investor_type, search_text, sort_at, doc)
              SELECT gen_random_uuid(), 'vc', $1, now(), '{}' FROM generate_series(1, $2::int) i`,
  'job-changes': `INSERT INTO job_changes (record_id, search_text, sort_at, doc)
                  SELECT gen_random_uuid(), $1, now(), '{}' FROM generate_series(1, $2::int) i`,
  acquisitions: `INSERT INTO acquisition_signals (record_id, search_text, sort_at, doc)
                 SELECT gen_random_uuid(), $1, now(), '{}' FROM generate_series(1, $2::int) i`,
  companies: `INSERT INTO companies (record_id, name, search_text, sort_at, doc)
              SELECT gen_random_uuid(), $1, $1, now(), '{}' FROM generate_series(1, $2::int) i`,
  hiring: `INSERT INTO hiring_postings (record_id, place_text, company_name_text, search_text, title, company_name, expires_at, sort_at, doc)
           SELECT gen_random_uuid(), '', $1, $1, 'Engineer', $1, '9999-12-31', now(), '{}' FROM generate_series(1, $2::int) i`,
};

/**
 * Several connections and instances need a server. Without one the suite registers one skipped
 * test (as describeEach does), so the run counts it as skipped, never as passed.
 */
function describeOnPostgres(title: string, fn: () => void): void {
  if (DATABASE_URL) describe(title, fn);
  else describe(title, () => it('needs postgres', { skip: 'DATABASE_URL is not set' }, () => undefined));
}

describeOnPostgres('change log on PostgreSQL, several connections and instances', () => {
  let schema: string;
  let drop: () => Promise<void>;
  const handles: Database[] = [];
  const open = async (poolSize: number) => {
    const db = await openPostgres({ connectionString: DATABASE_URL!, poolSize, schema });
    handles.push(db);
    return db;
  };

  beforeEach(async () => {
    ({ schema, drop } = await freshSchema());
    await migrate(await open(1));
  });
  afterEach(async () => {
    for (const db of handles.splice(0)) await db.close();
    await drop();
  });

  /** Polls until stopped and caught up, checking that every batch continues the last one. */
  function followContinuously(follower: ChangeFollower) {
    const seen: Change[] = [];
    let stopAt: ChangePosition | undefined;
    const done = (async () => {
      for (;;) {
        const batch = await follower.poll();
        assertInLogOrder(batch, seen.at(-1)?.position ?? LOG_START);
        seen.push(...batch);
        if (stopAt && comparePositions(follower.position, stopAt) >= 0) return;
        if (batch.length === 0) await delay(3);
      }
    })();
    // A failure is reported by stop(); until then it must not count as unhandled.
    done.catch(() => undefined);
    return {
      seen,
      async stop(head: ChangePosition) {
        stopAt = head;
        await done;
      },
    };
  }

  it(
    'a transaction that commits after later ones is not skipped by a follower that has moved past them',
    { timeout: 120_000 },
    async () => {
      const writers = await open(6);
      const reader = await open(1);
      const following = followContinuously(new ChangeFollower(reader, await changeLogHead(reader), { batchSize: 3 }));

      // The long transaction writes first, then holds its commit while others write and commit.
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let wrote!: () => void;
      const written = new Promise<void>((resolve) => (wrote = resolve));
      const long = writers.transaction(async (tx) => {
        await tx.query(INSERTS.investors, ['long', 4]);
        wrote();
        await held;
      });
      await written;

      const others: ChangeDataset[] = ['funding', 'm-a', 'job-changes', 'acquisitions'];
      const shortWriters = others.map(async (dataset, w) => {
        const table = TABLES[dataset];
        for (let i = 0; i < 12; i++) {
          await writers.transaction(async (tx) => {
            await tx.query(INSERTS[dataset], [`w${w}-${i}`, 1 + (i % 3)]);
            // Transactions of different lengths, so commits interleave.
            await tx.query('SELECT pg_sleep($1::float8 / 1000)', [(w * 7 + i * 3) % 20]);
            if (i % 4 === 3) {
              await tx.query(
                `UPDATE ${table} SET sort_at = sort_at + interval '1 second' WHERE id = (SELECT max(id) FROM ${table})`,
              );
              await tx.query(`DELETE FROM ${table} WHERE id = (SELECT min(id) FROM ${table})`);
            }
          });
        }
      });

      // Only once the follower has read changes committed after the long transaction wrote.
      await waitFor(() => following.seen.length >= 10, 'the follower to read the short transactions');
      const passed = following.seen.at(-1)!.position;
      release();
      await long;
      await Promise.all(shortWriters);
      const head = await changeLogHead(reader);
      await following.stop(head);

      const logged = await reader.query<{ seq: number; id: number }>(
        'SELECT t.seq, c.id FROM change_log c JOIN change_transactions t ON t.txid = c.txid ORDER BY t.seq, c.id',
      );
      assert.deepEqual(
        following.seen.map((c) => `${c.position.seq}.${c.position.changeId}`),
        logged.map((row) => `${row.seq}.${row.id}`),
        'the follower saw every entry once, in log order',
      );
      const longEntries = following.seen.filter((c) => c.dataset === 'investors');
      assert.equal(longEntries.length, 4);
      assert.ok(
        longEntries.every((c) => comparePositions(c.position, passed) > 0),
        'the late commit comes after what was read',
      );
      await assertReplayMatches(reader, replay(following.seen));
    },
  );

  it(
    'two instances import and delete concurrently; a third follows: its replay equals the tables',
    { timeout: 120_000 },
    async () => {
      const first = await open(3);
      const second = await open(3);
      const third = await open(1);
      const following = followContinuously(new ChangeFollower(third, LOG_START, { batchSize: 20 }));

      // Both instances import the same funding rounds (updates of each other's rows), and their own data.
      const shared = Array.from({ length: 10 }, () => fundingRecord());
      const instance = async (db: Database, own: () => object, kind: string) => {
        for (let round = 0; round < 6; round++) {
          const batch = shared.map((r, i) => (i % 3 === round % 3 ? { ...r, funding_amount: 1_000_000 + round } : r));
          const report = await run(db, 'funding', ndjson(batch));
          assert.ok(report.committed);
          assert.ok((await run(db, kind, ndjson(Array.from({ length: 4 }, own)))).committed);
          await db.query(
            `DELETE FROM ${TABLES[kind as ChangeDataset]} WHERE id IN (SELECT id FROM ${TABLES[kind as ChangeDataset]} ORDER BY id LIMIT 1)`,
          );
        }
      };
      await Promise.all([instance(first, jobChangeRecord, 'job-changes'), instance(second, investorRecord, 'investors')]);
      await following.stop(await changeLogHead(third));

      assert.ok(following.seen.some((c) => c.op === 'updated'));
      assert.ok(following.seen.some((c) => c.op === 'deleted'));
      await assertReplayMatches(third, replay(following.seen));
    },
  );

  it('an import that links companies runs on a pool of one connection: resolution reads in its transaction', async () => {
    const db = await open(1);
    const report = await run(db, 'funding', ndjson(Array.from({ length: 5 }, () => fundingRecord())), { batchRows: 2 });
    assert.deepEqual([report.committed, report.inserted], [true, 5], JSON.stringify(report));
    const [linked] = await db.query<{ n: number }>('SELECT count(company_id)::int AS n FROM funding_rounds');
    assert.equal(linked!.n, 5);
  });

  it(
    'a snapshot taken while another instance writes: following from its head applies each write exactly once',
    { timeout: 120_000 },
    async () => {
      const db = await open(4);
      const other = await open(2);
      await run(other, 'funding', ndjson([fundingRecord(), fundingRecord()]));
      const snapshot = await loadSnapshot(db, async (tx) => {
        await tx.query('SELECT count(*) FROM funding_rounds');
        // Committed by another instance while the snapshot is being loaded.
        await run(other, 'funding', ndjson([fundingRecord()]));
        // The rounds, and the companies they named (made in the same transactions).
        return { funding: await ids(tx, 'funding'), companies: await ids(tx, 'companies') };
      });
      assert.equal(snapshot.value.funding.length, 2);
      const state = replay(
        await follow(db, snapshot.head),
        new Map<ChangeDataset, Set<number>>([
          ['funding', new Set(snapshot.value.funding)],
          ['companies', new Set(snapshot.value.companies)],
        ]),
      );
      await assertReplayMatches(db, state);
    },
  );
});

const BIN = new URL('../bin/dealsignal.js', import.meta.url).pathname;

it('the server prunes the change log past CHANGE_LOG_RETENTION_DAYS as soon as it listens', { timeout: 120_000 }, async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'dealsignal-change-log-server-'));
  try {
    // A store with two writes: one ten days old, one recent.
    let store = await openPglite(join(dataDir, 'pglite'));
    await migrate(store);
    await store.query(INSERTS.funding, ['old', 2]);
    const [old] = await store.query<{ seq: number }>('SELECT max(seq) AS seq FROM change_transactions');
    await store.query(`UPDATE change_transactions SET committed_at = committed_at - interval '10 days'`);
    await store.query(INSERTS.funding, ['recent', 1]);
    const logged = await follow(store, LOG_START);
    await store.close();

    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: '0',
      SEED_DEMO: 'false',
      LOG_LEVEL: 'info',
      SHUTDOWN_DELAY_MS: '0',
      CHANGE_LOG_RETENTION_DAYS: '7',
    };
    delete env.DATABASE_URL;
    const server = spawn(process.execPath, [BIN, 'serve'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new Promise<number | null>((resolve) => server.once('exit', resolve));
    let out = '';
    try {
      await new Promise<void>((resolve, reject) => {
        server.stdout.on('data', (chunk) => {
          out += chunk;
          if (/Server listening at/.test(out)) resolve();
        });
        void exited.then((code) => reject(new Error(`server exited early (${code}): ${out}`)));
      });
    } finally {
      // The first run starts as the server listens; a shutdown waits for it.
      server.kill('SIGTERM');
    }
    assert.equal(await exited, 0, out);
    assert.match(out, /change log: removed 2 entries older than 7 days/);

    store = await openPglite(join(dataDir, 'pglite'));
    try {
      const oldEntries = logged.filter((c) => c.position.seq === old!.seq);
      assert.equal(oldEntries.length, 2);
      assert.deepEqual(await changeLogBounds(store), { pruned: oldEntries.at(-1)!.position, head: logged.at(-1)!.position });
      assert.deepEqual(await follow(store, oldEntries.at(-1)!.position), logged.slice(2));
    } finally {
      await store.close();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});
