// Query parameters and ingested records go through one validator: a date is accepted or refused
// by the same calendar and range rules on both paths, and refused for the same reason.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { investorRecord } from './fixtures.js';
import { clearData, describeEach, makeKey, startApp, type TestContext } from './helpers.js';
import { ADMIN_TOKEN } from './ingest/support.js';

const DATES = [
  '2024-02-29',
  '2023-02-29',
  '2024-02-30',
  '1900-01-01',
  '2199-12-31',
  '1899-12-31',
  '2200-01-01',
  '0000-01-01',
  '0000-02-29',
];

type Verdict = 'accepted' | 'out of range' | 'not a calendar date';

describeEach('one validator', (backend) => {
  let ctx: TestContext;
  let key: string;

  before(async () => {
    ctx = await startApp(backend, { ADMIN_TOKEN });
    key = (await makeKey(ctx.db, 'enterprise')).key;
  });
  after(() => ctx.close());

  async function asQueryParameter(date: string): Promise<Verdict> {
    const res = await ctx.app.inject({
      url: `/api/v2/signals/acquisitions?dateFrom=${date}`,
      headers: { authorization: `Bearer ${key}` },
    });
    if (res.statusCode === 200) return 'accepted';
    assert.equal(res.statusCode, 400, res.body);
    const error: string = res.json().error;
    if (error === 'dateFrom must be a date between 1900-01-01 and 2199-12-31') return 'out of range';
    assert.equal(error, 'dateFrom must be a valid calendar date in YYYY-MM-DD form');
    return 'not a calendar date';
  }

  async function asRecordField(date: string): Promise<Verdict> {
    await clearData(ctx.db);
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/admin/ingest/investors',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/x-ndjson' },
      payload: `${JSON.stringify(investorRecord({ lastInvestmentDate: date }))}\n`,
    });
    if (res.statusCode === 200) return 'accepted';
    assert.equal(res.statusCode, 422, res.body);
    const reason: string = res.json().rejects[0].reason;
    if (reason.startsWith('line 1: lastInvestmentDate: must be between 1900-01-01 and 2199-12-31 (UTC)')) return 'out of range';
    assert.match(reason, /^line 1: lastInvestmentDate: must be a calendar date that exists/);
    return 'not a calendar date';
  }

  for (const date of DATES) {
    it(`${date}: the same verdict as a query parameter and as a record field`, async () => {
      assert.equal(await asRecordField(date), await asQueryParameter(date));
    });
  }
});
