// Two instances over one database: each keeps its own read model, and each serves every write
// committed before a request, whichever instance (or plain SQL) made it.
import assert from 'node:assert/strict';
import { after, before, beforeEach, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { migrate } from '../../src/platform/db/migrate.js';
import { openPostgres } from '../../src/platform/db/postgres.js';
import type { Database } from '../../src/platform/db/port.js';
import { fundingRecord, investorRecord } from '../fixtures.js';
import { clearData, describeEach, freshSchema, makeKey, testConfig, type Backend } from '../helpers.js';
import { ADMIN_TOKEN, ndjson } from '../ingest/support.js';

/**
 * Two connections to one database: on PostgreSQL two pools on one fresh schema (as two servers
 * would have); the embedded store can only be shared, so both apps get the same Database.
 */
async function openShared(backend: Backend): Promise<{ a: Database; b: Database; close(): Promise<void> }> {
  if (backend.name === 'pglite') {
    const db = await backend.open();
    return { a: db, b: db, close: () => db.close() };
  }
  const { schema, drop } = await freshSchema();
  const connectionString = process.env.DATABASE_URL!;
  const a = await openPostgres({ connectionString, poolSize: 4, schema });
  const b = await openPostgres({ connectionString, poolSize: 4, schema });
  return {
    a,
    b,
    async close() {
      await a.close();
      await b.close();
      await drop();
    },
  };
}

describeEach('two instances over one database', (backend) => {
  let shared: Awaited<ReturnType<typeof openShared>>;
  let appA: FastifyInstance;
  let appB: FastifyInstance;
  let key: string;

  before(async () => {
    shared = await openShared(backend);
    await migrate(shared.a);
    const config = testConfig({ ADMIN_TOKEN });
    // Each opens its read model (default options) over the same data.
    appA = await buildApp({ config, db: shared.a });
    appB = await buildApp({ config, db: shared.b });
    await Promise.all([appA.ready(), appB.ready()]);
    key = (await makeKey(shared.a, 'enterprise')).key;
  });
  after(async () => {
    await appA?.close();
    await appB?.close();
    await shared?.close();
  });
  beforeEach(() => clearData(shared.a));

  const importThrough = async (app: FastifyInstance, kind: string, records: object[]) => {
    const res = await app.inject({
      method: 'POST',
      url: `/admin/ingest/${kind}`,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/x-ndjson' },
      payload: ndjson(records),
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().committed, true, res.body);
    return res.json() as { inserted: number; updated: number };
  };

  const funding = async (app: FastifyInstance, query = '') => {
    const res = await app.inject({ method: 'GET', url: `/api/v1/funding${query}`, headers: { 'x-lot-api-key': key } });
    assert.equal(res.statusCode, 200, res.body);
    const names = (res.json() as { response: { data: { company_name: string }[] } }).response.data.map((r) => r.company_name);
    return { total: Number(res.headers['x-total-count']), names };
  };

  const investors = async (app: FastifyInstance, query = '') => {
    const res = await app.inject({
      method: 'GET',
      url: `/api/v2/signals/investors${query}`,
      headers: { authorization: `Bearer ${key}` },
    });
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json() as { data: { name: string }[]; pagination: { totalCount: number } };
    return { total: body.pagination.totalCount, names: body.data.map((r) => r.name) };
  };

  it('a record imported through one app is served by the other on its very next request (v1 and v2)', async () => {
    // Both apps have answered (their indexes are built and current) before the import.
    assert.deepEqual(await funding(appB), { total: 0, names: [] });
    assert.deepEqual(await investors(appB), { total: 0, names: [] });

    const round = fundingRecord({ company_name: 'Shared Rounds Ltd', date_seen: '2025-03-01T09:00:00Z' });
    assert.equal((await importThrough(appA, 'funding', [round])).inserted, 1);
    assert.deepEqual(await funding(appB), { total: 1, names: ['Shared Rounds Ltd'] });
    assert.deepEqual(await funding(appB, '?country=US&category=saas'), { total: 1, names: ['Shared Rounds Ltd'] });

    const investor = investorRecord({ name: 'Shared Harbour Capital', investorType: 'angel', country: 'Germany' });
    assert.equal((await importThrough(appA, 'investors', [investor])).inserted, 1);
    assert.deepEqual(await investors(appB, '?search=harb'), { total: 1, names: ['Shared Harbour Capital'] });
    assert.deepEqual(await investors(appB, '?countries=de&categories=angel'), { total: 1, names: ['Shared Harbour Capital'] });

    // An update through A moves the records out of B's old filters and into the new ones at once.
    await importThrough(appA, 'funding', [{ ...round, company_info: { ...round.company_info, hq_country: 'France' } }]);
    await importThrough(appA, 'investors', [{ ...investor, country: 'France', investorType: 'vc' }]);
    assert.deepEqual(await funding(appB, '?country=US'), { total: 0, names: [] });
    assert.deepEqual(await funding(appB, '?country=FR'), { total: 1, names: ['Shared Rounds Ltd'] });
    assert.deepEqual(await investors(appB, '?countries=de'), { total: 0, names: [] });
    assert.deepEqual(await investors(appB, '?countries=fr&categories=vc'), { total: 1, names: ['Shared Harbour Capital'] });

    // And the other way round: B imports, A serves.
    await importThrough(appB, 'funding', [fundingRecord({ company_name: 'Second Round Co', date_seen: '2025-04-01T09:00:00Z' })]);
    assert.deepEqual(await funding(appA), { total: 2, names: ['Second Round Co', 'Shared Rounds Ltd'] });
  });

  it('a deletion through SQL disappears from both apps on their next request (v1 and v2)', async () => {
    await importThrough(appA, 'funding', [
      fundingRecord({ company_name: 'Kept Co', date_seen: '2025-01-01T00:00:00Z' }),
      fundingRecord({ company_name: 'Deleted Co', date_seen: '2025-02-01T00:00:00Z' }),
    ]);
    await importThrough(appA, 'investors', [
      investorRecord({ name: 'Kept Partners' }),
      investorRecord({ name: 'Deleted Partners' }),
    ]);
    for (const app of [appA, appB]) {
      assert.deepEqual(await funding(app), { total: 2, names: ['Deleted Co', 'Kept Co'] });
      assert.equal((await investors(app)).total, 2);
    }

    await shared.b.query(`DELETE FROM funding_rounds WHERE name_path = $1`, ['deleted-co']);
    await shared.b.query(`DELETE FROM investors WHERE doc::jsonb ->> 'name' = $1`, ['Deleted Partners']);
    for (const app of [appA, appB]) {
      assert.deepEqual(await funding(app), { total: 1, names: ['Kept Co'] });
      assert.deepEqual(await funding(app, '?page=1&country=US'), { total: 1, names: ['Kept Co'] });
      assert.deepEqual(await investors(app), { total: 1, names: ['Kept Partners'] });
      assert.deepEqual(await investors(app, '?search=deleted'), { total: 0, names: [] });
    }
  });
});
