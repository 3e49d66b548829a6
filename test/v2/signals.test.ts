import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { revokeApiKey } from '../../src/accounts/api-key-queries.js';
import { generateApiKey } from '../../src/accounts/api-keys.js';
import { clearData, describeEach, makeKey, startApp, type TestContext } from '../helpers.js';
import {
  acquisitionRecord,
  insertAcquisitions,
  insertInvestors,
  insertJobChanges,
  investorRecord,
  jobChangeRecord,
} from '../fixtures.js';
import { publishedSchemasMissing, publishedValidator } from './published-schemas.js';

const ENDPOINTS = [
  { path: '/api/v2/signals/investors', endpoint: 'signals.investors' },
  { path: '/api/v2/signals/job-changes', endpoint: 'signals.job-changes' },
  { path: '/api/v2/signals/acquisitions', endpoint: 'signals.acquisitions' },
  { path: '/api/v2/companies', endpoint: 'companies.list' },
];

describeEach('v2 signals: envelope, auth, paging, credits', (backend) => {
  let ctx: TestContext;
  let key: string;

  const get = async (url: string, bearer: string | null = key) => {
    const res = await ctx.app.inject({
      method: 'GET',
      url,
      headers: bearer === null ? {} : { authorization: `Bearer ${bearer}` },
    });
    return { res, body: res.json() };
  };
  /** The v2 error code of each status met here. */
  const CODES: Record<number, string> = {
    400: 'invalid_parameter',
    401: 'invalid_api_key',
    402: 'insufficient_credits',
    404: 'not_found',
  };
  const expectError = async (url: string, status: number, pattern: RegExp, bearer: string | null = key) => {
    const { res, body } = await get(url, bearer);
    assert.equal(res.statusCode, status, `${url}: ${res.body}`);
    // Each 400 here is the fault of the query's first parameter (of two in conflict, the first): `param` names it.
    const param = status === 400 ? [...new URL(url, 'http://localhost').searchParams.keys()][0] : undefined;
    assert.deepEqual(body, { success: false, error: body.error, code: CODES[status], ...(param !== undefined && { param }) });
    assert.match(body.error, pattern);
    return res;
  };

  before(async () => {
    ctx = await startApp(backend);
    key = (await makeKey(ctx.db, 'enterprise')).key;
  });
  after(() => ctx.close());
  beforeEach(() => clearData(ctx.db));

  describe('401 for every kind of bad key, with one body', () => {
    for (const { path } of ENDPOINTS) {
      const cases: [string, Record<string, string>][] = [
        ['missing', {}],
        ['Bearer without key', { authorization: 'Bearer ' }],
        ['malformed', { authorization: 'Bearer abc' }],
        ['unknown', { authorization: `Bearer ${generateApiKey()}` }],
      ];
      for (const [name, headers] of cases) {
        it(`${path}: ${name}`, async () => {
          const res = await ctx.app.inject({ method: 'GET', url: path, headers });
          assert.equal(res.statusCode, 401);
          assert.deepEqual(res.json(), { success: false, error: 'Invalid API key', code: 'invalid_api_key' });
        });
      }
      it(`${path}: a key without the Bearer scheme, or another scheme, gets the 401 saying how to send it`, async () => {
        for (const authorization of [
          key,
          `  ${key} `,
          'ds_whatever',
          `Basic ${Buffer.from('a:b').toString('base64')}`,
          `Token ${key}`,
        ]) {
          const res = await ctx.app.inject({ method: 'GET', url: path, headers: { authorization } });
          assert.equal(res.statusCode, 401, authorization);
          assert.deepEqual(res.json(), {
            success: false,
            error: 'Invalid API key: send Authorization: Bearer <key>',
            code: 'invalid_api_key',
          });
        }
      });
      it(`${path}: a key in the v1 header gets the 401 with a hint to the Bearer header`, async () => {
        for (const sent of [key, 'whatever', '']) {
          const res = await ctx.app.inject({ method: 'GET', url: path, headers: { 'x-lot-api-key': sent } });
          assert.equal(res.statusCode, 401, sent);
          assert.deepEqual(res.json(), {
            success: false,
            error: 'Invalid API key: v2 expects Authorization: Bearer <key>',
            code: 'invalid_api_key',
          });
        }
      });
    }
    it('a revoked key gets the same 401', async () => {
      const created = await makeKey(ctx.db);
      assert.equal((await get(ENDPOINTS[0]!.path, created.key)).res.statusCode, 200);
      await revokeApiKey(ctx.db, created.id);
      await new Promise((r) => setTimeout(r, 1100));
      await expectError(ENDPOINTS[0]!.path, 401, /^Invalid API key$/, created.key);
    });
  });

  describe('400 naming the parameter and the rule', () => {
    for (const { path } of ENDPOINTS) {
      const cases: [string, RegExp][] = [
        ['limit=0', /limit must be >= 1/],
        ['limit=101', /limit must be <= 100/],
        ['limit=abc', /limit must be a whole number/],
        ['page=0', /page must be >= 1/],
        ['page=1.5', /page must be a whole number/],
        ['count=maybe', /count must be true or false/],
        ['nope=1', /Unknown parameter "nope"; allowed parameters: page, limit, count/],
        ['search=', /search must not be empty/],
        ['page=1&page=2', /^page is repeated; send it once \(it takes one value; /],
        ['limit=0x10', /^limit must be a whole number \(digits 0-9 only\)$/],
        ['limit=1e1', /^limit must be a whole number \(digits 0-9 only\)$/],
        ['page=0b1', /^page must be a whole number \(digits 0-9 only\)$/],
      ];
      for (const [query, pattern] of cases)
        it(`${path}?${query}`, async () => void (await expectError(`${path}?${query}`, 400, pattern)));
    }
    it('unknown country codes', async () => {
      await expectError(
        '/api/v2/signals/investors?countries=US,XX',
        400,
        /countries: "XX" is not a country: use an ISO 3166 alpha-2 or alpha-3 code/,
      );
      // A country's English name is a country, as in every country parameter.
      assert.equal((await get('/api/v2/signals/acquisitions?countries=United%20States')).res.statusCode, 200);
      await expectError('/api/v2/signals/acquisitions?countries=Atlantis', 400, /countries: "Atlantis" is not a country/);
    });
    it('investor categories outside the list name the allowed values', async () => {
      const res = await expectError('/api/v2/signals/investors?categories=vc,hedge', 400, /categories: "hedge" is not allowed/);
      for (const t of ['vc', 'angel', 'pe', 'corporate', 'accelerator', 'family_office', 'fund', 'government']) {
        assert.ok(res.json().error.includes(t));
      }
    });
    it('positions, departments and seniorities outside their lists', async () => {
      await expectError(
        '/api/v2/signals/job-changes?positions=cto,wizard',
        400,
        /positions: "wizard" is not allowed; allowed values: ceo, cto/,
      );
      await expectError('/api/v2/signals/job-changes?departments=magic', 400, /departments: "magic".*customer_success/);
      await expectError('/api/v2/signals/job-changes?seniorities=intern', 400, /seniorities: "intern".*c_level/);
    });
    it('dateFrom after dateTo, and impossible dates', async () => {
      await expectError(
        '/api/v2/signals/acquisitions?dateFrom=2025-02-01&dateTo=2025-01-01',
        400,
        /dateFrom .* must not be after dateTo/,
      );
      await expectError('/api/v2/signals/acquisitions?dateFrom=2025-02-30', 400, /dateFrom must be a valid calendar date/);
    });
    it('dates outside 1900-01-01 .. 2199-12-31, and the range ends', async () => {
      await expectError(
        '/api/v2/signals/acquisitions?dateTo=9999-12-31',
        400,
        /^dateTo must be a date between 1900-01-01 and 2199-12-31$/,
      );
      await expectError(
        '/api/v2/signals/acquisitions?dateFrom=0000-01-01',
        400,
        /^dateFrom must be a date between 1900-01-01 and 2199-12-31$/,
      );
      await insertAcquisitions(ctx.db, [acquisitionRecord()]);
      const { res, body } = await get('/api/v2/signals/acquisitions?dateFrom=1900-01-01&dateTo=2199-12-31');
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(body.pagination.totalCount, 1);
    });
    it('costs nothing', async () => {
      const before = (await get('/api/v2/signals/investors?count=true')).body.meta.creditsRemaining;
      await expectError('/api/v2/signals/investors?limit=0', 400, /limit/);
      assert.equal((await get('/api/v2/signals/investors?count=true')).body.meta.creditsRemaining, before);
    });
  });

  it('unknown paths under /api/v2 get 404 in the v2 shape', async () => {
    await expectError('/api/v2/signals/unknown', 404, /Not found/);
    await expectError('/api/v2/whatever', 404, /Not found/, null);
  });

  for (const { path, endpoint } of ENDPOINTS) {
    it(`${path}: envelope, meta and credit headers`, async () => {
      const { res, body } = await get(path);
      assert.equal(res.statusCode, 200);
      assert.deepEqual(Object.keys(body), ['success', 'data', 'pagination', 'meta']);
      assert.equal(body.success, true);
      assert.deepEqual(body.data, []);
      assert.deepEqual(body.pagination, {
        currentPage: 1,
        totalPages: 0,
        totalCount: 0,
        hasNextPage: false,
        hasPreviousPage: false,
      });
      assert.equal(body.meta.endpoint, endpoint);
      assert.equal(body.meta.creditsUsed, 1);
      assert.equal(res.headers['x-credits-remaining'], String(body.meta.creditsRemaining));
      assert.equal(res.headers['cache-control'], 'private, no-cache');
    });
  }

  it('pagination arithmetic: first, middle, last, past the end', async () => {
    await insertInvestors(
      ctx.db,
      Array.from({ length: 45 }, (_, i) =>
        investorRecord({ name: `Firm ${i}`, lastUpdated: new Date(Date.UTC(2025, 0, 1 + (i >> 1))).toISOString() }),
      ),
    );
    const p = async (q: string) => (await get(`/api/v2/signals/investors?${q}`)).body;
    const first = await p('limit=20');
    assert.deepEqual(first.pagination, {
      currentPage: 1,
      totalPages: 3,
      totalCount: 45,
      hasNextPage: true,
      hasPreviousPage: false,
    });
    const middle = await p('limit=20&page=2');
    assert.deepEqual(middle.pagination, {
      currentPage: 2,
      totalPages: 3,
      totalCount: 45,
      hasNextPage: true,
      hasPreviousPage: true,
    });
    const last = await p('limit=20&page=3');
    assert.equal(last.data.length, 5);
    assert.deepEqual(last.pagination, {
      currentPage: 3,
      totalPages: 3,
      totalCount: 45,
      hasNextPage: false,
      hasPreviousPage: true,
    });
    const past = await p('limit=20&page=9');
    assert.deepEqual(past.data, []);
    assert.deepEqual(past.pagination, {
      currentPage: 9,
      totalPages: 3,
      totalCount: 45,
      hasNextPage: false,
      hasPreviousPage: true,
    });
    const ids = [...first.data, ...middle.data, ...last.data].map((r: { id: string }) => r.id);
    assert.equal(new Set(ids).size, 45, 'pages never overlap or skip');
    const dates = [...first.data, ...middle.data, ...last.data].map((r: { lastUpdated: string }) => r.lastUpdated);
    assert.deepEqual(dates, [...dates].sort().reverse(), 'newest first');
    const one = await p('limit=1');
    assert.equal(one.pagination.totalPages, 45);
    const hundred = await p('limit=100');
    assert.equal(hundred.data.length, 45);
    assert.equal(hundred.pagination.totalPages, 1);
  });

  it('count mode: data [] with full pagination, costs nothing', async () => {
    await insertJobChanges(
      ctx.db,
      Array.from({ length: 7 }, () => jobChangeRecord()),
    );
    const before = (await get('/api/v2/signals/job-changes?count=true')).body;
    assert.deepEqual(before.data, []);
    assert.deepEqual(before.pagination, {
      currentPage: 1,
      totalPages: 1,
      totalCount: 7,
      hasNextPage: false,
      hasPreviousPage: false,
    });
    assert.equal(before.meta.creditsUsed, 0);
    const again = (await get('/api/v2/signals/job-changes?count=true&limit=5')).body;
    assert.equal(again.pagination.totalPages, 2);
    assert.equal(again.meta.creditsRemaining, before.meta.creditsRemaining);
    const paid = (await get('/api/v2/signals/job-changes')).body;
    assert.equal(paid.meta.creditsUsed, 1);
    assert.equal(paid.meta.creditsRemaining, before.meta.creditsRemaining - 1);
  });

  it('402 when credits run out, with no data; ledger matches the balance', async () => {
    const poor = await makeKey(ctx.db, 'free');
    await ctx.db.query(
      `UPDATE accounts SET credits_remaining = 2, credits_period = date_trunc('month', now() AT TIME ZONE 'UTC')::date WHERE id = $1`,
      [poor.accountId],
    );
    for (const expected of [1, 0]) {
      const { res, body } = await get('/api/v2/signals/acquisitions', poor.key);
      assert.equal(res.statusCode, 200);
      assert.equal(body.meta.creditsRemaining, expected);
    }
    const res = await expectError('/api/v2/signals/acquisitions', 402, /credits exhausted/, poor.key);
    assert.equal(res.headers['x-credits-remaining'], '0');
    // Count mode still works without credits.
    assert.equal((await get('/api/v2/signals/acquisitions?count=true', poor.key)).res.statusCode, 200);
    const ledger = await ctx.db.query<{ n: number; sum: number }>(
      `SELECT count(*)::int AS n, coalesce(sum(delta), 0)::int AS sum FROM credit_ledger WHERE account_id = $1 AND reason = 'request'`,
      [poor.accountId],
    );
    assert.deepEqual(ledger[0], { n: 2, sum: -2 });
  });

  describe('HEAD answers the status and headers GET would, and costs nothing', () => {
    const ledgerRows = async (accountId: number) =>
      (await ctx.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM credit_ledger WHERE account_id = $1`, [accountId]))[0]!
        .n;
    const head = (url: string, bearer: string) =>
      ctx.app.inject({ method: 'HEAD', url, headers: { authorization: `Bearer ${bearer}` } });

    for (const { path } of ENDPOINTS) {
      it(`${path}: balance and ledger unchanged`, async () => {
        await insertInvestors(ctx.db, [investorRecord()]);
        await insertJobChanges(ctx.db, [jobChangeRecord()]);
        await insertAcquisitions(ctx.db, [acquisitionRecord()]);
        const account = await makeKey(ctx.db, 'free');
        const balance = (await get(`${path}?count=true`, account.key)).body.meta.creditsRemaining;
        const ledger = await ledgerRows(account.accountId);
        for (let i = 0; i < 3; i++) {
          const res = await head(path, account.key);
          assert.equal(res.statusCode, 200);
          assert.equal(res.body, '');
          assert.match(String(res.headers['content-type']), /^application\/json/);
          assert.ok(Number(res.headers['content-length']) > 0, 'the length of the body GET would send');
          assert.equal(res.headers['cache-control'], 'private, no-cache');
          assert.equal(res.headers['x-credits-remaining'], String(balance));
        }
        assert.equal((await get(`${path}?count=true`, account.key)).body.meta.creditsRemaining, balance);
        assert.equal(await ledgerRows(account.accountId), ledger, 'no ledger row');
        const paid = await get(path, account.key);
        assert.equal(paid.body.meta.creditsRemaining, balance - 1, 'GET is still charged');
      });
    }

    it('is refused as GET would be: 401 without a key, 400 for a bad parameter, 402 without credits', async () => {
      const path = ENDPOINTS[0]!.path;
      assert.equal((await ctx.app.inject({ method: 'HEAD', url: path })).statusCode, 401);
      assert.equal((await head(`${path}?limit=0`, key)).statusCode, 400);
      const poor = await makeKey(ctx.db, 'free');
      await ctx.db.query(
        `UPDATE accounts SET credits_remaining = 0, credits_period = date_trunc('month', now() AT TIME ZONE 'UTC')::date WHERE id = $1`,
        [poor.accountId],
      );
      const refused = await head(path, poor.key);
      assert.equal(refused.statusCode, 402);
      assert.equal(refused.headers['x-credits-remaining'], '0');
      assert.equal((await get(path, poor.key)).res.statusCode, 402);
    });
  });

  it('refills to the tier allowance at the start of a month, recording it in the ledger', async () => {
    const fresh = await makeKey(ctx.db, 'free');
    const { body } = await get('/api/v2/signals/investors', fresh.key);
    assert.equal(body.meta.creditsRemaining, 99, 'a new free account starts with 100');
    // Pretend the last use was last month with a low balance.
    await ctx.db.query(`UPDATE accounts SET credits_remaining = 3, credits_period = DATE '2000-01-01' WHERE id = $1`, [
      fresh.accountId,
    ]);
    assert.equal((await get('/api/v2/signals/investors', fresh.key)).body.meta.creditsRemaining, 99);
    const rows = await ctx.db.query<{ reason: string; delta: number; balance_after: number }>(
      'SELECT reason, delta::int, balance_after::int FROM credit_ledger WHERE account_id = $1 ORDER BY id',
      [fresh.accountId],
    );
    assert.deepEqual(rows, [
      { reason: 'refill', delta: 100, balance_after: 100 },
      { reason: 'request', delta: -1, balance_after: 99 },
      { reason: 'refill', delta: 97, balance_after: 100 },
      { reason: 'request', delta: -1, balance_after: 99 },
    ]);
  });

  it('every response validates against the published schemas', { skip: publishedSchemasMissing }, async () => {
    await insertInvestors(ctx.db, [
      investorRecord(),
      investorRecord({ city: null, state: null, aum: null, typicalCheckSize: null }),
    ]);
    await insertJobChanges(ctx.db, [jobChangeRecord(), jobChangeRecord({ previousCompanyName: 'Old Co' })]);
    await insertAcquisitions(ctx.db, [acquisitionRecord(), acquisitionRecord({ revenue: null })]);
    const cases = [
      ['/api/v2/signals/investors', 'investors', 'InvestorsResponse'],
      ['/api/v2/signals/job-changes', 'job-change-signals', 'JobChangeSignalsResponse'],
      ['/api/v2/signals/acquisitions', 'acquisition-signals', 'AcquisitionSignalsResponse'],
    ] as const;
    for (const [path, file, schema] of cases) {
      const validate = publishedValidator(file, schema);
      const { body } = await get(`${path}?limit=100`);
      assert.equal(body.data.length, 2, path);
      assert.ok(validate(body), `${path}: ${JSON.stringify(validate.errors)}`);
      // The validator is real: a record without its id fails it.
      const broken = structuredClone(body);
      delete broken.data[0][path.includes('job') ? 'signalId' : 'id'];
      assert.equal(validate(broken), false, path);
    }
  });
});
