import assert from 'node:assert/strict';
import { after, before, beforeEach, it } from 'node:test';
import { clearData, describeEach, makeKey, startApp, type TestContext } from './helpers.js';
import { fundingRecord, insertFunding, insertInvestors, investorRecord } from './fixtures.js';

describeEach('page cache', (backend) => {
  let ctx: TestContext;
  let key: string;
  /** Page statements (the ones that assemble a page's records) run since the last reset. */
  let pageStatements = 0;

  before(async () => {
    ctx = await startApp(backend);
    key = (await makeKey(ctx.db, 'enterprise')).key;
    const query = ctx.db.query.bind(ctx.db);
    ctx.db.query = (sql, params) => {
      if (sql.includes('string_agg(t.doc')) pageStatements++;
      return query(sql, params);
    };
  });
  after(() => ctx.close());
  beforeEach(async () => {
    await clearData(ctx.db);
    pageStatements = 0;
  });

  const v1 = (url: string) => ctx.app.inject({ method: 'GET', url, headers: { 'x-lot-api-key': key } });
  const v2 = (url: string) => ctx.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${key}` } });

  it('a page served again comes from memory: no second page statement', async () => {
    await insertFunding(ctx.db, [fundingRecord({ company_name: 'Acme' })]);
    const first = await v1('/api/v1/funding?page=1');
    const second = await v1('/api/v1/funding?page=1');
    assert.equal(first.statusCode, 200);
    assert.equal(second.body, first.body);
    assert.equal(pageStatements, 1);
  });

  it('identical concurrent requests for an uncached page share one page statement', async () => {
    await insertFunding(ctx.db, [fundingRecord({ company_name: 'Acme' }), fundingRecord({ company_name: 'Globex' })]);
    const answers = await Promise.all(Array.from({ length: 20 }, () => v1('/api/v1/funding?country=US')));
    assert.deepEqual(new Set(answers.map((a) => a.statusCode)), new Set([200]));
    assert.equal(new Set(answers.map((a) => a.body)).size, 1, 'every client gets the same page');
    assert.equal(pageStatements, 1);

    const signals = await Promise.all(Array.from({ length: 10 }, () => v2('/api/v2/signals/investors?page=1')));
    assert.deepEqual(new Set(signals.map((a) => a.statusCode)), new Set([200]));
    assert.equal(pageStatements, 2);
    // Each of them is still a charged call.
    assert.deepEqual(
      signals.map((a) => a.json().meta.creditsUsed),
      Array(10).fill(1),
    );
  });

  it('a write retires cached pages and counts at once; the next request reads the new data', async () => {
    await insertInvestors(ctx.db, [investorRecord({ name: 'First Capital', lastUpdated: '2026-01-01T00:00:00Z' })]);
    const before = await v2('/api/v2/signals/investors');
    assert.equal(before.json().pagination.totalCount, 1);
    await insertInvestors(ctx.db, [investorRecord({ name: 'Second Capital', lastUpdated: '2026-02-01T00:00:00Z' })]);
    const [afterA, afterB] = await Promise.all([v2('/api/v2/signals/investors'), v2('/api/v2/signals/investors')]);
    for (const answer of [afterA!, afterB!]) {
      const body = answer.json();
      assert.equal(body.pagination.totalCount, 2);
      assert.deepEqual(
        body.data.map((r: { name: string }) => r.name),
        ['Second Capital', 'First Capital'],
      );
    }
    assert.equal(pageStatements, 2, 'one statement before the write, one shared after it');
  });
});

describeEach('page cache under memory pressure', (backend) => {
  let ctx: TestContext;
  let key: string;
  let pageStatements = 0;

  before(async () => {
    ctx = await startApp(backend, { PAGE_CACHE_MB: '1' });
    key = (await makeKey(ctx.db, 'enterprise')).key;
    const query = ctx.db.query.bind(ctx.db);
    ctx.db.query = (sql, params) => {
      if (sql.includes('string_agg(t.doc')) pageStatements++;
      return query(sql, params);
    };
  });
  after(() => ctx.close());

  const v1 = (url: string) => ctx.app.inject({ method: 'GET', url, headers: { 'x-lot-api-key': key } });

  it('a page asked for again and again stays in memory while less used pages push past the bound', async () => {
    await clearData(ctx.db);
    await insertFunding(
      ctx.db,
      Array.from({ length: 20 }, (_, i) => fundingRecord({ company_name: `Company ${i}` })),
    );
    const popular = await v1('/api/v1/funding');
    assert.equal(popular.statusCode, 200);
    // Enough other pages (each the same size as the popular one) to fill the 1 MB twice over.
    const others = Math.ceil((2 * 1024 * 1024) / popular.body.length);
    pageStatements = 0;
    for (let i = 1; i <= others; i++) {
      assert.equal((await v1(`/api/v1/funding?amount=${i}`)).statusCode, 200);
      assert.equal((await v1('/api/v1/funding')).body, popular.body);
    }
    assert.equal(pageStatements, others, 'one statement per other page; the popular page never again');
  });
});
