// The changes feed across instances (PostgreSQL): two instances ingest, update and delete at the
// same time while readers on a third follow the feed in small pages. At the end each reader's
// replay of what it read is exactly the store, and no reader saw a change twice.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { migrate } from '../../src/platform/db/migrate.js';
import { openPostgres } from '../../src/platform/db/postgres.js';
import type { Database } from '../../src/platform/db/port.js';
import { comparePositions, type ChangePosition } from '../../src/changes/change-log-queries.js';
import { DATASETS } from '../../src/catalog/registry.js';
import { parseCursor } from '../../src/changes/cursor.js';
import { acquisitionRecord, fundingRecord, investorRecord, jobChangeRecord, maRecord } from '../fixtures.js';
import { describeNeeding, freshSchema, makeKey, needsPostgres, testConfig } from '../helpers.js';
import { ADMIN_TOKEN, ndjson } from '../ingest/support.js';

interface Item {
  cursor: string;
  dataset: string;
  op: 'created' | 'updated' | 'deleted';
  id: string;
  record: unknown;
}

/** A copy of the data kept from the feed alone, as a client would keep it. */
class Replica {
  /** dataset → natural key → record. */
  readonly records = new Map<string, Map<string, unknown>>();
  /** dataset → keys that exist, by the feed's operations alone (a record may be null). */
  private readonly existing = new Map<string, Set<string>>();
  private readonly cursors = new Set<string>();
  private last: ChangePosition | undefined;
  items = 0;

  apply(item: Item): void {
    assert.ok(!this.cursors.has(item.cursor), `${item.cursor} seen twice`);
    this.cursors.add(item.cursor);
    const position = parseCursor(item.cursor);
    assert.ok(position);
    assert.ok(!this.last || comparePositions(position, this.last) > 0, 'items come in log order');
    this.last = position;
    this.items++;

    const records = this.map(this.records, item.dataset, () => new Map<string, unknown>());
    const existing = this.map(this.existing, item.dataset, () => new Set<string>());
    const label = `${item.dataset} ${item.op} ${item.id}`;
    // Each key's operations alternate: created, updated…, deleted, created… A missed or repeated
    // change breaks the alternation.
    if (item.op === 'created') assert.ok(!existing.has(item.id), `${label}: already there`);
    else assert.ok(existing.has(item.id), `${label}: not there`);
    if (item.op === 'deleted') {
      assert.equal(item.record, null);
      existing.delete(item.id);
      records.delete(item.id);
    } else {
      existing.add(item.id);
      // Null: the record was deleted since; its deletion comes later.
      if (item.record !== null) records.set(item.id, item.record);
    }
  }

  private map<T>(maps: Map<string, T>, dataset: string, make: () => T): T {
    let value = maps.get(dataset);
    if (!value) maps.set(dataset, (value = make()));
    return value;
  }
}

describeNeeding('changes feed across instances [postgres]', 'postgres', needsPostgres, () => {
  let drop: () => Promise<void>;
  const pools: Database[] = [];
  const apps: FastifyInstance[] = [];
  let key: string;

  before(async () => {
    const fresh = await freshSchema();
    drop = fresh.drop;
    for (let i = 0; i < 3; i++) {
      pools.push(await openPostgres({ connectionString: process.env.DATABASE_URL!, poolSize: 4, schema: fresh.schema }));
    }
    await migrate(pools[0]!);
    const config = testConfig({ ADMIN_TOKEN });
    for (const db of pools) apps.push(await buildApp({ config, db }));
    await Promise.all(apps.map((app) => app.ready()));
    key = (await makeKey(pools[0]!, 'enterprise')).key;
  });
  after(async () => {
    for (const app of apps) await app.close();
    for (const db of pools) await db.close();
    await drop?.();
  });

  const importThrough = async (app: FastifyInstance, kind: string, records: object[]) => {
    const res = await app.inject({
      method: 'POST',
      url: `/admin/ingest/${kind}`,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/x-ndjson' },
      payload: ndjson(records),
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().committed, true, res.body);
  };

  /**
   * Follows the feed through one app in small pages until told to stop and caught up with every
   * write made before that: the last page asked for after the writers finished says no more.
   */
  function follow(app: FastifyInstance, query: Record<string, string>) {
    const replica = new Replica();
    let writersDone = false;
    let pages = 0;
    const done = (async () => {
      let since: string | undefined;
      for (;;) {
        const finalRound = writersDone;
        const res = await app.inject({
          url: '/api/v2/changes',
          query: { ...query, ...(since === undefined ? {} : { since }) },
          headers: { authorization: `Bearer ${key}` },
        });
        assert.equal(res.statusCode, 200, res.body);
        const body = res.json() as { data: Item[]; pagination: { nextCursor: string; hasNextPage: boolean } };
        pages++;
        for (const item of body.data) replica.apply(item);
        since = body.pagination.nextCursor;
        if (!body.pagination.hasNextPage) {
          if (finalRound) return;
          await delay(2);
        }
      }
    })();
    // A failure is reported by stop(); until then it must not count as unhandled.
    done.catch(() => undefined);
    return {
      replica,
      pages: () => pages,
      /** Stops once caught up; returns how many items had been read before. */
      async stop() {
        const readBefore = replica.items;
        writersDone = true;
        await done;
        return readBefore;
      },
    };
  }

  /** The store now: dataset → natural key → document, as its list serves it (the feed's records). */
  async function store(db: Database, names?: readonly string[]): Promise<Map<string, Map<string, unknown>>> {
    const result = new Map<string, Map<string, unknown>>();
    for (const dataset of DATASETS) {
      if (names && !names.includes(dataset.name)) continue;
      const rows = await db.query<{ key: string; doc: string; sort_ms: number }>(
        `SELECT ${dataset.key.column}::text AS key, doc, (extract(epoch FROM sort_at) * 1000)::float8 AS sort_ms FROM ${dataset.table}`,
      );
      const served = (row: (typeof rows)[number]) =>
        dataset.document ? dataset.document.serve(row.doc, row.key, row.sort_ms) : row.doc;
      if (rows.length > 0) result.set(dataset.name, new Map(rows.map((row) => [row.key, JSON.parse(served(row))])));
    }
    return result;
  }

  const nonEmpty = (replica: Replica) => new Map([...replica.records].filter(([, records]) => records.size > 0));

  it(
    'two instances write at once, readers on a third follow in small pages: each replay equals the store, nothing seen twice',
    { timeout: 180_000 },
    async () => {
      const [first, second, reader] = apps as [FastifyInstance, FastifyInstance, FastifyInstance];
      const everything = follow(reader, { limit: '5' });
      const someDatasets = follow(reader, { limit: '3', datasets: 'funding,investors' });

      // Both instances import the same funding rounds (updating each other's rows) and their own records,
      // delete some, re-import deleted ones, and rename a key with plain SQL.
      const shared = Array.from({ length: 10 }, () => fundingRecord());
      const writer = async (app: FastifyInstance, db: Database, w: number) => {
        const own: object[] = [];
        const ownKind = w === 0 ? 'job-changes' : 'investors';
        const ownTable = w === 0 ? 'job_changes' : 'investors';
        for (let round = 0; round < 12; round++) {
          const batch = shared.map((r, i) =>
            i % 4 === (round + w) % 4 ? { ...r, funding_amount: 1_000_000 + 10 * round + w } : r,
          );
          await importThrough(app, 'funding', batch);
          const fresh = Array.from({ length: 3 }, () => (w === 0 ? jobChangeRecord() : investorRecord()));
          own.push(...fresh);
          await importThrough(app, ownKind, fresh);
          await importThrough(app, w === 0 ? 'acquisitions' : 'm-a', [w === 0 ? acquisitionRecord() : maRecord()]);
          await db.query(`DELETE FROM ${ownTable} WHERE id IN (SELECT id FROM ${ownTable} ORDER BY id LIMIT 1)`);
          if (round % 3 === 2) await importThrough(app, ownKind, own.slice(0, 2)); // re-creates the deleted ones
          if (round === 4 && w === 0) {
            await db.query(
              `UPDATE funding_rounds SET natural_key = natural_key || '~renamed' WHERE id = (SELECT min(id) FROM funding_rounds)`,
            );
          }
          if (round % 5 === 4 && w === 1)
            await db.query(`UPDATE investors SET id = id + 1000000 WHERE id = (SELECT max(id) FROM investors)`);
        }
      };
      await Promise.all([writer(first, pools[0]!, 0), writer(second, pools[1]!, 1)]);

      const readWhileWriting = await Promise.all([everything.stop(), someDatasets.stop()]);
      assert.ok(
        readWhileWriting.every((n) => n > 0),
        `the readers followed while the writers wrote (${readWhileWriting.join(', ')} items)`,
      );
      const readerDb = pools[2]!;
      assert.deepEqual(nonEmpty(everything.replica), await store(readerDb));
      assert.deepEqual(nonEmpty(someDatasets.replica), await store(readerDb, ['funding', 'investors']));

      const logged = await readerDb.query<{ dataset: string; n: number }>(
        'SELECT dataset, count(*)::int AS n FROM change_log GROUP BY dataset',
      );
      const total = logged.reduce((sum, row) => sum + row.n, 0);
      assert.equal(everything.replica.items, total, 'every change was read');
      assert.equal(
        someDatasets.replica.items,
        logged.filter((row) => row.dataset === 'funding' || row.dataset === 'investors').reduce((sum, row) => sum + row.n, 0),
      );
      assert.ok(everything.pages() > total / 5, `${everything.pages()} pages of at most 5`);
    },
  );
});
