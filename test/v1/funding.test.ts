import assert from 'node:assert/strict';
import { after, before, beforeEach, it } from 'node:test';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { clearData, describeEach, makeKey, startApp, type TestContext } from '../helpers.js';
import { fundingRecord, insertFunding } from '../fixtures.js';

describeEach('GET /api/v1/funding', (backend) => {
  let ctx: TestContext;
  let key: string;

  const get = async (query = '') => {
    const res = await ctx.app.inject({ method: 'GET', url: `/api/v1/funding${query}`, headers: { 'x-lot-api-key': key } });
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

  it('returns the spec envelope with params echoing unused filters as [] and null', async () => {
    await insertFunding(ctx.db, [fundingRecord({ company_name: 'Acme' })]);
    const { res, body } = await get();
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /^application\/json/);
    assert.deepEqual(Object.keys(body), ['message', 'params', 'response']);
    assert.equal(typeof body.message, 'string');
    assert.deepEqual(body.params, { category: [], round: [], amount: null, date_from: null, date_to: null });
    assert.deepEqual(Object.keys(body.response), ['data']);
    assert.equal(body.response.data[0].company_name, 'Acme');
    assert.equal(body.response.data[0].name_path, 'acme');
  });

  it('echoes applied filters in params', async () => {
    const { body } = await get('?category=SaaS,fintech&round=seed&amount=5&date_from=2024-01-01&date_to=2024-12-31');
    assert.deepEqual(body.params, {
      category: ['SaaS', 'fintech'],
      round: ['seed'],
      amount: 5,
      date_from: '2024-01-01',
      date_to: '2024-12-31',
    });
  });

  it('validates every record against the published OpenAPI document', async () => {
    await insertFunding(ctx.db, [fundingRecord(), fundingRecord({ round_type: null, ceo: null })]);
    const spec = (await ctx.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const ajv = new Ajv2020.default({ strict: false });
    addFormats.default(ajv);
    for (const [name, schema] of Object.entries(spec.components.schemas))
      ajv.addSchema(schema as object, `#/components/schemas/${name}`);
    const responseSchema = spec.paths['/api/v1/funding'].get.responses['200'].content['application/json'].schema;
    const validate = ajv.compile(responseSchema);
    const { res, body } = await get();
    assert.equal(body.response.data.length, 2);
    assert.ok(validate(body), JSON.stringify(validate.errors));
    // A record missing a required field must fail the same validator (the check is real).
    const broken = structuredClone(res.json());
    delete broken.response.data[0].funding_amount;
    assert.equal(validate(broken), false);
  });

  it('sorts newest date_seen first and pages 20 at a time without overlap or gaps', async () => {
    const records = Array.from({ length: 45 }, (_, i) =>
      // Pairs share a timestamp, so the tie-break decides their order.
      fundingRecord({
        company_name: `Co ${String(i).padStart(2, '0')}`,
        date_seen: new Date(Date.UTC(2025, 0, 1 + Math.floor(i / 2))).toISOString(),
      }),
    );
    await insertFunding(ctx.db, records);
    const seen: string[] = [];
    for (const page of [1, 2, 3]) {
      const { res, body } = await get(`?page=${page}`);
      assert.equal(res.headers['x-total-count'], '45');
      assert.equal(res.headers['x-page'], String(page));
      assert.equal(res.headers['x-per-page'], '20');
      const dates = body.response.data.map((r: { date_seen: string }) => r.date_seen);
      assert.deepEqual(dates, [...dates].sort().reverse());
      seen.push(...body.response.data.map((r: { company_name: string }) => r.company_name));
    }
    assert.equal(seen.length, 45);
    assert.equal(new Set(seen).size, 45);
    const { body: past } = await get('?page=4');
    assert.deepEqual(past.response.data, []);
  });

  it('gives next/prev links in the Link header', async () => {
    await insertFunding(
      ctx.db,
      Array.from({ length: 41 }, () => fundingRecord()),
    );
    const first = (await get('?page=1&round=seed')).res.headers.link as string;
    assert.match(first, /page=2[^>]*>; rel="next"/);
    assert.doesNotMatch(first, /rel="prev"/);
    assert.match(first, /round=seed/);
    const middle = (await get('?page=2')).res.headers.link as string;
    assert.match(middle, /page=3[^>]*>; rel="next"/);
    assert.match(middle, /page=1[^>]*>; rel="prev"/);
    const last = (await get('?page=3')).res.headers.link as string;
    assert.doesNotMatch(last, /rel="next"/);
  });

  it('round: comma-separated, case-insensitive exact match', async () => {
    await insertFunding(ctx.db, [
      fundingRecord({ company_name: 'A', round_type: 'Series A' }),
      fundingRecord({ company_name: 'B', round_type: 'seed' }),
      fundingRecord({ company_name: 'C', round_type: 'pre-seed' }),
      fundingRecord({ company_name: 'D', round_type: null }),
    ]);
    assert.deepEqual(names((await get('?round=series%20a')).body), ['A']);
    assert.deepEqual(names((await get('?round=SEED,Series%20A')).body), ['A', 'B']);
    assert.deepEqual(names((await get('?round=seed')).body), ['B']);
  });

  it('category: matches main_category or any company_info.categories, case-insensitive', async () => {
    await insertFunding(ctx.db, [
      fundingRecord({ company_name: 'Main', main_category: 'Fintech', company_info: { categories: [] } }),
      fundingRecord({ company_name: 'Listed', main_category: 'saas', company_info: { categories: ['saas', 'FinTech'] } }),
      fundingRecord({ company_name: 'Other', main_category: 'biotech', company_info: { categories: ['biotech'] } }),
    ]);
    assert.deepEqual(names((await get('?category=fintech')).body), ['Listed', 'Main']);
    assert.deepEqual(names((await get('?category=BIOTECH,fintech')).body), ['Listed', 'Main', 'Other']);
  });

  it('amount: funding_amount >= amount', async () => {
    await insertFunding(ctx.db, [
      fundingRecord({ company_name: 'Small', funding_amount: 999_999 }),
      fundingRecord({ company_name: 'Exact', funding_amount: 1_000_000 }),
      fundingRecord({ company_name: 'Big', funding_amount: 50_000_000 }),
    ]);
    assert.deepEqual(names((await get('?amount=1000000')).body), ['Big', 'Exact']);
    assert.deepEqual(names((await get('?amount=0')).body), ['Big', 'Exact', 'Small']);
  });

  it('country: by ISO code or English name, any case', async () => {
    await insertFunding(ctx.db, [
      fundingRecord({ company_name: 'US name', company_info: { hq_country: 'United States' } }),
      fundingRecord({ company_name: 'US code', company_info: { hq_country: 'us' } }),
      fundingRecord({ company_name: 'DE', company_info: { hq_country: 'Germany' } }),
      fundingRecord({ company_name: 'None', company_info: { hq_country: null } }),
    ]);
    for (const q of ['US', 'us', 'United%20States', 'united%20states', 'USA']) {
      assert.deepEqual(names((await get(`?country=${q}`)).body), ['US code', 'US name'], q);
    }
    assert.deepEqual(names((await get('?country=de')).body), ['DE']);
  });

  it('website: compared after normalising scheme, www., trailing slash and case', async () => {
    await insertFunding(ctx.db, [
      fundingRecord({ company_name: 'Acme', company_info: { website: 'https://www.acme.io/' } }),
      fundingRecord({ company_name: 'Other', company_info: { website: 'https://acme.com' } }),
    ]);
    for (const q of ['acme.io', 'https://www.acme.io/', 'HTTP://ACME.IO', 'www.acme.io']) {
      assert.deepEqual(names((await get(`?website=${encodeURIComponent(q)}`)).body), ['Acme'], q);
    }
  });

  it('linkedin_url: matches contact_info company pages, normalised', async () => {
    await insertFunding(ctx.db, [
      fundingRecord({ company_name: 'Acme', contact_info: [{ company_linkedin_url: 'https://www.linkedin.com/company/acme/' }] }),
      fundingRecord({
        company_name: 'Other',
        contact_info: [{ company_linkedin_url: 'https://www.linkedin.com/company/acme-2' }],
      }),
    ]);
    const q = encodeURIComponent('linkedin.com/company/ACME');
    assert.deepEqual(names((await get(`?linkedin_url=${q}`)).body), ['Acme']);
  });

  it('date_from / date_to: inclusive calendar dates of date_seen (UTC)', async () => {
    await insertFunding(ctx.db, [
      fundingRecord({ company_name: 'Before', date_seen: '2025-02-28T23:59:59.999Z' }),
      fundingRecord({ company_name: 'Start', date_seen: '2025-03-01T00:00:00.000Z' }),
      fundingRecord({ company_name: 'End', date_seen: '2025-03-31T23:59:59.999Z' }),
      fundingRecord({ company_name: 'After', date_seen: '2025-04-01T00:00:00.000Z' }),
    ]);
    assert.deepEqual(names((await get('?date_from=2025-03-01&date_to=2025-03-31')).body), ['End', 'Start']);
    assert.deepEqual(names((await get('?date_from=2025-03-31')).body), ['After', 'End']);
    assert.deepEqual(names((await get('?date_to=2025-02-28')).body), ['Before']);
    assert.deepEqual(names((await get('?date_from=2025-03-01&date_to=2025-03-01')).body), ['Start']);
  });

  it('combines filters with AND and counts exactly', async () => {
    await insertFunding(ctx.db, [
      fundingRecord({
        company_name: 'Hit',
        main_category: 'ai',
        funding_amount: 5_000_000,
        company_info: { hq_country: 'GB', categories: ['ai'] },
      }),
      fundingRecord({
        company_name: 'Poor',
        main_category: 'ai',
        funding_amount: 100,
        company_info: { hq_country: 'GB', categories: ['ai'] },
      }),
      fundingRecord({
        company_name: 'Far',
        main_category: 'ai',
        funding_amount: 5_000_000,
        company_info: { hq_country: 'FR', categories: ['ai'] },
      }),
    ]);
    const { res, body } = await get('?category=ai&country=GB&amount=1000000&date_from=2025-01-01');
    assert.deepEqual(names(body), ['Hit']);
    assert.equal(res.headers['x-total-count'], '1');
  });

  it('sees new records at once: counts are never stale after a write', async () => {
    await insertFunding(ctx.db, [fundingRecord()]);
    assert.equal((await get()).res.headers['x-total-count'], '1');
    await insertFunding(ctx.db, [fundingRecord({ company_name: 'Newest', date_seen: new Date().toISOString() })]);
    const { res, body } = await get();
    assert.equal(res.headers['x-total-count'], '2');
    assert.equal(body.response.data[0].company_name, 'Newest');
  });

  it('lets clients keep a page but revalidate it (ETag, private, no-cache)', async () => {
    const { res } = await get();
    assert.equal(res.headers['cache-control'], 'private, no-cache');
    assert.match(String(res.headers.etag), /^W\/"[A-Za-z0-9_-]{22}"$/);
  });
});
