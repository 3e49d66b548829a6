import assert from 'node:assert/strict';
import { after, before, beforeEach, it } from 'node:test';
import { clearData, describeEach, makeKey, startApp, type TestContext } from '../helpers.js';
import { insertMa, maRecord } from '../fixtures.js';

describeEach('GET /api/v1/m-a', (backend) => {
  let ctx: TestContext;
  let key: string;

  const get = async (query = '') => {
    const res = await ctx.app.inject({ method: 'GET', url: `/api/v1/m-a${query}`, headers: { 'x-lot-api-key': key } });
    return { res, body: res.json() };
  };
  const names = (body: { response: { data: { company_name: string }[] } }) =>
    body.response.data.map((r) => r.company_name).sort();

  before(async () => {
    ctx = await startApp(backend);
    key = (await makeKey(ctx.db)).key;
  });
  after(() => ctx.close());
  beforeEach(() => clearData(ctx.db));

  it('returns the envelope, echoing every filter (null or [] when unused)', async () => {
    const record = maRecord({ company_name: 'Target' });
    await insertMa(ctx.db, [{ record, status: 'completed' }]);
    const { res, body } = await get();
    assert.equal(res.statusCode, 200);
    assert.deepEqual(body.params, {
      category: [],
      amount: null,
      country: null,
      status: null,
      acquiring_company: null,
      date_from: null,
      date_to: null,
    });
    assert.equal(body.response.data.length, 1);
    // Served exactly as stored, with the derived slug; the deal status is a filter, not a field.
    assert.deepEqual(body.response.data[0], { ...record, name_path: 'target' });
    const echoed = (await get('?category=fintech&amount=10&country=GB&status=pending&acquiring_company=Glo&date_from=2025-01-01'))
      .body.params;
    assert.deepEqual(echoed, {
      category: ['fintech'],
      amount: 10,
      country: 'GB',
      status: 'pending',
      acquiring_company: 'Glo',
      date_from: '2025-01-01',
      date_to: null,
    });
  });

  it('status filters by deal status', async () => {
    await insertMa(ctx.db, [
      { record: maRecord({ company_name: 'Done' }), status: 'completed' },
      { record: maRecord({ company_name: 'Soon' }), status: 'announced' },
      { record: maRecord({ company_name: 'Wait' }), status: 'pending' },
    ]);
    assert.deepEqual(names((await get('?status=announced')).body), ['Soon']);
    assert.deepEqual(names((await get('?status=completed')).body), ['Done']);
  });

  it('acquiring_company: every word starts a word of acquired_by, ignoring case and accents', async () => {
    await insertMa(ctx.db, [
      { record: maRecord({ company_name: 'One', acquired_by: 'Globex Corporation' }), status: 'completed' },
      { record: maRecord({ company_name: 'Two', acquired_by: 'Initech' }), status: 'completed' },
      { record: maRecord({ company_name: 'Three', acquired_by: '100% Holdings' }), status: 'completed' },
      { record: maRecord({ company_name: 'Four', acquired_by: 'Société Générale' }), status: 'completed' },
    ]);
    assert.deepEqual(names((await get('?acquiring_company=globex')).body), ['One']);
    assert.deepEqual(names((await get('?acquiring_company=CORP')).body), ['One']);
    assert.deepEqual(names((await get('?acquiring_company=corp%20glob')).body), ['One'], 'words in any order');
    assert.deepEqual(names((await get('?acquiring_company=poration')).body), [], 'the middle of a word does not match');
    assert.deepEqual(names((await get('?acquiring_company=100%25')).body), ['Three'], 'punctuation separates words');
    assert.deepEqual(names((await get('?acquiring_company=generale%20SOC')).body), ['Four']);
    const blank = await get('?acquiring_company=%25');
    assert.equal(blank.res.statusCode, 400);
    assert.match(blank.body.message, /acquiring_company: must contain a letter or a digit/);
  });

  it('amount, category, country, website, linkedin_url and dates filter the acquired company', async () => {
    await insertMa(ctx.db, [
      {
        record: maRecord({
          company_name: 'Hit',
          acquisition_amount: 200_000_000,
          main_category: 'AI',
          company_info: { website: 'https://www.hit.ai/', hq_country: 'Germany', categories: ['ai'] },
          contact_info: [{ company_linkedin_url: 'https://linkedin.com/company/hit' }],
          date_seen: '2025-03-15T10:00:00.000Z',
        }),
        status: 'completed',
      },
      {
        record: maRecord({ company_name: 'Miss', acquisition_amount: 1_000_000, date_seen: '2024-03-15T10:00:00.000Z' }),
        status: 'completed',
      },
    ]);
    const only = ['Hit'];
    assert.deepEqual(names((await get('?amount=100000000')).body), only);
    assert.deepEqual(names((await get('?category=ai')).body), only);
    assert.deepEqual(names((await get('?country=DE')).body), only);
    assert.deepEqual(names((await get('?country=germany')).body), only);
    assert.deepEqual(names((await get('?website=hit.ai')).body), only);
    assert.deepEqual(names((await get('?linkedin_url=https%3A%2F%2Fwww.linkedin.com%2Fcompany%2Fhit%2F')).body), only);
    assert.deepEqual(names((await get('?date_from=2025-03-15&date_to=2025-03-15')).body), only);
    assert.deepEqual(names((await get('?date_to=2024-12-31')).body), ['Miss']);
  });

  it('pages newest first with headers, 20 a page', async () => {
    await insertMa(
      ctx.db,
      Array.from({ length: 25 }, (_, i) => ({
        record: maRecord({ date_seen: new Date(Date.UTC(2025, 0, 1, i)).toISOString() }),
        status: 'completed' as const,
      })),
    );
    const first = await get();
    assert.equal(first.res.headers['x-total-count'], '25');
    assert.equal(first.body.response.data.length, 20);
    assert.equal(first.body.response.data[0].date_seen, new Date(Date.UTC(2025, 0, 1, 24)).toISOString());
    const second = await get('?page=2');
    assert.equal(second.body.response.data.length, 5);
    const ids = [...first.body.response.data, ...second.body.response.data].map(
      (r: { investment_id: string }) => r.investment_id,
    );
    assert.equal(new Set(ids).size, 25);
  });
});
