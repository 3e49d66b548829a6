// Pages reading their documents from a streaming replica (PostgreSQL). The replica here is a
// connection holding one REPEATABLE READ snapshot: what a replica that has not replayed the
// latest commits shows (a consistent past state of the primary), and "replaying" is ending that
// transaction. A page must never serve a document older than the one its index picked: it waits
// for the replica, and past the wait reads the primary.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import pg from 'pg';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { migrate } from '../../src/platform/db/migrate.js';
import { openPostgres } from '../../src/platform/db/postgres.js';
import type { Database, Queryable, Row } from '../../src/platform/db/port.js';
import { ReadModel } from '../../src/read/read-model.js';
import { ingest as ingestRecords } from '../../src/ingest/importer.js';
import { fundingRecord } from '../fixtures.js';
import { describeNeeding, freshSchema, makeKey, needsPostgres, testConfig } from '../helpers.js';
import { ADMIN_TOKEN, ndjson } from '../ingest/support.js';

/** A read-only view of the primary that stays at the snapshot `freeze` took until `replay`. */
class LaggingReplica implements Queryable {
  private frozen = false;
  /** Statements it answered: the documents really are read here. */
  reads = 0;
  private constructor(private readonly client: pg.Client) {}

  static async connect(schema: string): Promise<LaggingReplica> {
    const client = new pg.Client({ connectionString: process.env.DATABASE_URL, options: `-c search_path=${schema},public` });
    await client.connect();
    return new LaggingReplica(client);
  }

  async query<T extends object = Row>(sql: string, params?: readonly unknown[]): Promise<T[]> {
    this.reads++;
    return (await this.client.query<T & Row>(sql, params as unknown[])).rows;
  }

  /** From now on it shows the primary as of this moment. */
  async freeze(): Promise<void> {
    await this.client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    // The snapshot is taken by the transaction's first statement.
    await this.client.query('SELECT 1');
    this.frozen = true;
  }

  /** Catches up with the primary. */
  async replay(): Promise<void> {
    if (!this.frozen) return;
    this.frozen = false;
    await this.client.query('COMMIT');
  }

  close(): Promise<void> {
    return this.client.end();
  }
}

describeNeeding('list pages read documents from a replica [postgres]', 'postgres', needsPostgres, () => {
  let drop: () => Promise<void>;
  let db: Database;
  let replica: LaggingReplica;
  let app: FastifyInstance;
  let model: ReadModel;
  let key: string;
  // How long a page waits for the replica: changed by each test.
  const wait = { ms: 0 };

  before(async () => {
    const fresh = await freshSchema();
    drop = fresh.drop;
    db = await openPostgres({ connectionString: process.env.DATABASE_URL!, poolSize: 4, schema: fresh.schema });
    await migrate(db);
    replica = await LaggingReplica.connect(fresh.schema);
    const replicaOptions = {
      db: replica,
      get waitMs() {
        return wait.ms;
      },
    };
    // No kept documents: every page reads its documents, as a page of records not asked for lately does.
    model = await ReadModel.open(db, { replica: replicaOptions, documentCacheBytes: 0 });
    app = await buildApp({ config: testConfig({ ADMIN_TOKEN }), db, services: { readModel: model } });
    await app.ready();
    key = (await makeKey(db, 'enterprise')).key;
  });
  after(async () => {
    await replica?.replay();
    await app?.close();
    await replica?.close();
    await db?.close();
    await drop?.();
  });

  const ingest = async (record: object) => {
    const res = await app.inject({
      method: 'POST',
      url: '/admin/ingest/funding',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/x-ndjson' },
      payload: ndjson([record]),
    });
    assert.equal(res.statusCode, 200, res.body);
  };
  const ingestRound = async (name: string, country: string) => {
    const record = fundingRecord({ company_name: name });
    record.company_info = { ...record.company_info!, hq_country: country };
    await ingest(record);
    return record;
  };
  const page = async (country: string) => {
    const res = await app.inject({ url: `/api/v1/funding?country=${country}`, headers: { 'x-lot-api-key': key } });
    assert.equal(res.statusCode, 200, res.body);
    return (res.json() as { response: { data: { company_name: string; ceo: string }[] } }).response.data;
  };
  const names = async (country: string) => (await page(country)).map((round) => round.company_name);
  const ceos = async (country: string) => (await page(country)).map((round) => round.ceo);
  const replicaReads = () => ({ ...model.stats().replicaReads! });

  it('reads the documents from a replica that has replayed up to the index', async () => {
    wait.ms = 5_000;
    await ingestRound('Current One', 'NZ');
    const reads = replica.reads;
    assert.deepEqual(await names('NZ'), ['Current One']);
    assert.ok(replica.reads > reads, 'the documents were read from the replica');
    assert.deepEqual(replicaReads(), { current: 1, waited: 0, primary: 0 });
  });

  it('waits for a replica that is behind the index, then serves the record the index found', async () => {
    wait.ms = 10_000;
    const before = replicaReads();
    await replica.freeze();
    await ingestRound('Waited For', 'IS');
    let answered = false;
    const page = names('IS').finally(() => (answered = true));
    await delay(150);
    // The index has the record and the replica does not: the page may not be served yet.
    assert.equal(answered, false, 'a page was served while the replica was behind');
    await replica.replay();
    assert.deepEqual(await page, ['Waited For']);
    assert.deepEqual(replicaReads(), { ...before, waited: before.waited + 1 });
  });

  it('reads the primary when the replica is still behind after the wait', async () => {
    wait.ms = 50;
    const before = replicaReads();
    await replica.freeze();
    try {
      await ingestRound('From The Primary', 'FJ');
      assert.deepEqual(await names('FJ'), ['From The Primary']);
      assert.deepEqual(replicaReads(), { ...before, primary: before.primary + 1 });
    } finally {
      await replica.replay();
    }
  });

  it('an update the replica has not replayed is never served in its old form', async () => {
    wait.ms = 50;
    const record = await ingestRound('Before Update', 'MT');
    assert.deepEqual(await ceos('MT'), ['Ada Lovelace']);
    await replica.freeze();
    try {
      // The same round again with another CEO: an update of the record the replica holds.
      await ingest({ ...record, ceo: 'Grace Hopper' });
      assert.deepEqual(await ceos('MT'), ['Grace Hopper']);
    } finally {
      await replica.replay();
    }
  });

  it('a write committed elsewhere before the request is in its answer, though neither the index nor the replica has it yet', async () => {
    wait.ms = 10_000;
    await ingestRound('Seen Before', 'GL');
    assert.deepEqual(await names('GL'), ['Seen Before']);
    await replica.freeze();
    // Through another instance: nothing tells this one's index, and the replica has not replayed it.
    const record = fundingRecord({ company_name: 'Committed Elsewhere' });
    record.company_info = { ...record.company_info!, hq_country: 'GL' };
    const report = await ingestRecords(db, 'funding', [JSON.stringify(record)], { skipInvalid: false });
    assert.equal(report.inserted, 1);
    const page = names('GL');
    await delay(100);
    await replica.replay();
    assert.deepEqual((await page).sort(), ['Committed Elsewhere', 'Seen Before']);
  });

  it('reports the replica reads on /metrics', async () => {
    const res = await app.inject({ url: '/metrics' });
    assert.equal(res.statusCode, 200);
    const count = (outcome: string) =>
      Number(new RegExp(`^dealsignal_replica_page_reads_total\\{outcome="${outcome}"\\} (\\d+)`, 'm').exec(res.body)?.[1]);
    const reads = replicaReads();
    assert.equal(count('current'), reads.current);
    assert.equal(count('waited'), reads.waited);
    assert.equal(count('primary'), reads.primary);
    assert.ok(reads.current > 0 && reads.waited > 0 && reads.primary > 0);
  });
});
