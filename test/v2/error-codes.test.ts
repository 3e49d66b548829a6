// Machine-readable v2 errors over HTTP, on both stores: each code a real request produces, exactly,
// with `param` naming the parameter at fault; every body as /openapi.json documents it, and the
// document's codes are the catalogue's. v1 bodies stay exactly {code, message}; the webhooks API
// keeps its published codes.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { DatabaseUnavailableError, type Database } from '../../src/platform/db/port.js';
import { pruneChangeLog } from '../../src/changes/change-log-queries.js';
import { V2_ERROR_CODES } from '../../src/catalog/schemas/v2-schemas.js';
import { ERROR_STATUS, ERROR_V2_CODE, type ErrorCode } from '../../src/catalog/errors.js';
import { generateApiKey } from '../../src/accounts/api-keys.js';
import { insertInvestors, investorRecord } from '../fixtures.js';
import { describeEach, makeKey, testConfig } from '../helpers.js';

const INVESTORS = '/api/v2/signals/investors';
const ACQUISITIONS = '/api/v2/signals/acquisitions';
const JOB_CHANGES = '/api/v2/signals/job-changes';

describe('the v2 error catalogue', () => {
  it('documents exactly the codes the catalogue gives, each with the status of its catalogue entry', () => {
    const entries = Object.entries(ERROR_V2_CODE) as [ErrorCode, keyof typeof V2_ERROR_CODES][];
    assert.deepEqual(new Set(entries.map(([, code]) => code)), new Set(Object.keys(V2_ERROR_CODES)), 'one code per entry');
    for (const [entry, code] of entries) assert.equal(V2_ERROR_CODES[code].status, ERROR_STATUS[entry], code);
  });
});

describeEach('v2 error codes', (backend) => {
  let real: Database;
  let app: FastifyInstance;
  let key: string;
  /** While set, every statement that reads the change log (each list request does) fails with it. */
  let failure: Error | undefined;
  /** ErrorResponse as /openapi.json documents it. */
  let documented: ValidateFunction;

  before(async () => {
    real = await backend.openMigrated();
    const db: Database = {
      ...real,
      async query(sql, params) {
        if (failure && sql.includes('change_log')) throw failure;
        return real.query(sql, params);
      },
    };
    const config = testConfig({
      RATE_LIMITS: 'true',
      RATE_LIMIT_FREE: '2',
      RATE_LIMIT_V1: '20',
      AUTH_FAILURE_LIMITS: 'true',
      AUTH_FAILURE_LIMIT: '5',
    });
    app = await buildApp({ config, db });
    await app.ready();
    key = (await makeKey(real, 'enterprise')).key;
    const spec = (await app.inject('/openapi.json')).json();
    const ajv = new Ajv2020.default({ strict: false });
    addFormats.default(ajv);
    for (const [name, schema] of Object.entries(spec.components.schemas))
      ajv.addSchema(schema as object, `#/components/schemas/${name}`);
    documented = ajv.getSchema('#/components/schemas/ErrorResponse')!;
  });
  after(async () => {
    await app?.close();
    await real?.close();
  });

  const get = (url: string, headers: Record<string, string> = { authorization: `Bearer ${key}` }, remoteAddress?: string) =>
    app.inject({ method: 'GET', url, headers, ...(remoteAddress && { remoteAddress }) });

  /** The response's status and its exact body, which must also be as the document says. */
  async function expectV2(response: ReturnType<typeof get>, status: number, body: Record<string, unknown>) {
    const res = await response;
    assert.equal(res.statusCode, status, res.body);
    assert.deepEqual(res.json(), { success: false, ...body });
    assert.ok(documented(res.json()), `not as documented: ${JSON.stringify(documented.errors)}`);
    return res;
  }
  const invalid = (url: string, error: string, param: string) =>
    expectV2(get(url), 400, { error, code: 'invalid_parameter', param });

  it('401 invalid_api_key: missing, unknown, or sent in the v1 header', async () => {
    const from = '192.0.2.10';
    await expectV2(get(INVESTORS, {}, from), 401, { error: 'Invalid API key', code: 'invalid_api_key' });
    await expectV2(get(INVESTORS, { authorization: `Bearer ${generateApiKey()}` }, from), 401, {
      error: 'Invalid API key',
      code: 'invalid_api_key',
    });
    await expectV2(get('/api/v2/changes', { 'x-lot-api-key': key }, from), 401, {
      error: 'Invalid API key: v2 expects Authorization: Bearer <key>',
      code: 'invalid_api_key',
    });
  });

  it('402 insufficient_credits', async () => {
    const poor = await makeKey(real, 'pro');
    await real.query(
      `UPDATE accounts SET credits_remaining = 0, credits_period = date_trunc('month', now() AT TIME ZONE 'UTC')::date WHERE id = $1`,
      [poor.accountId],
    );
    await expectV2(get(INVESTORS, { authorization: `Bearer ${poor.key}` }), 402, {
      error: 'API credits exhausted for this billing period; they refill at the start of next month',
      code: 'insufficient_credits',
    });
  });

  it('429 rate_limited: the account limit, and the failed-authentication limit', async () => {
    const free = await makeKey(real, 'free');
    const headers = { authorization: `Bearer ${free.key}` };
    for (let i = 0; i < 2; i++) assert.equal((await get(INVESTORS, headers)).statusCode, 200);
    const limited = await expectV2(get(INVESTORS, headers), 429, {
      error: 'Rate limit exceeded. Please try again later.',
      code: 'rate_limited',
    });
    assert.ok(Number(limited.headers['retry-after']) >= 1);

    const guesser = '192.0.2.99';
    for (let i = 0; i < 5; i++) {
      assert.equal((await get(INVESTORS, { authorization: `Bearer ${generateApiKey()}` }, guesser)).statusCode, 401);
    }
    await expectV2(get(INVESTORS, { authorization: `Bearer ${generateApiKey()}` }, guesser), 429, {
      error: 'Too many failed authentication attempts. Please try again later.',
      code: 'rate_limited',
    });
  });

  it('400 invalid_parameter names the parameter the schema refuses', async () => {
    await invalid(`${INVESTORS}?limit=0`, 'limit must be >= 1', 'limit');
    await invalid(`${INVESTORS}?limit=101`, 'limit must be <= 100', 'limit');
    await invalid(`${INVESTORS}?count=maybe`, 'count must be true or false', 'count');
    await invalid(`${ACQUISITIONS}?dateTo=2024-02-30`, 'dateTo must be a valid calendar date in YYYY-MM-DD form', 'dateTo');
    await invalid(`${ACQUISITIONS}?dateFrom=2200-01-01`, 'dateFrom must be a date between 1900-01-01 and 2199-12-31', 'dateFrom');
    await invalid('/api/v2/changes?limit=1001', 'limit must be <= 1000', 'limit');
  });

  it('400 invalid_parameter names an unknown parameter, as sent', async () => {
    // (The message goes on to list the parameters the endpoint takes.)
    for (const [query, name] of [
      ['foo=1', 'foo'],
      ['foo=1&foo=2', 'foo'],
      ['api_key=x', 'api_key'],
      ['personLinkedinUrl=x', 'personLinkedinUrl'],
      ['=1', ''],
    ]) {
      const res = await get(`${INVESTORS}?${query}`);
      const { error } = res.json();
      assert.ok(error.startsWith(`Unknown parameter "${name}"; allowed parameters: page, limit, count,`), error);
      await expectV2(Promise.resolve(res), 400, { error, code: 'invalid_parameter', param: name });
    }
  });

  it('400 invalid_parameter names a repeated parameter, a NUL and an integer not in plain digits', async () => {
    await invalid(
      `${INVESTORS}?page=1&page=2`,
      'page is repeated; send it once (it takes one value; list parameters such as countries take several, ' +
        'comma-separated as countries=a,b or repeated as countries=a&countries=b)',
      'page',
    );
    await invalid(
      '/api/v2/changes?limit=5&limit=5',
      'limit is repeated; send it once (it takes one value; the list parameter datasets take several, ' +
        'comma-separated as datasets=a,b or repeated as datasets=a&datasets=b)',
      'limit',
    );
    await invalid(`${INVESTORS}?search=a%00b`, 'search must not contain a NUL character (%00)', 'search');
    await invalid(`${INVESTORS}?page=0x10`, 'page must be a whole number (digits 0-9 only)', 'page');
    await invalid(`${INVESTORS}?page=-3`, 'page must be >= 1', 'page');
    await invalid(`${INVESTORS}?limit=1e309`, 'limit must be a whole number (digits 0-9 only)', 'limit');
  });

  it("400 invalid_parameter names the parameter a data set's own rule refuses; of two in conflict, the first", async () => {
    await invalid(
      `${INVESTORS}?countries=US,XX`,
      'countries: "XX" is not a country: use an ISO 3166 alpha-2 or alpha-3 code or an English country name (e.g. US, USA ' +
        'or United States), any case',
      'countries',
    );
    await invalid(
      `${INVESTORS}?categories=vc,hedge`,
      'categories: "hedge" is not allowed; allowed values: vc, angel, pe, corporate, accelerator, family_office, fund, government',
      'categories',
    );
    await invalid(`${ACQUISITIONS}?search=%21%21%21`, 'search: must contain a letter or a digit', 'search');
    await invalid(`${JOB_CHANGES}?search=a+b+c+d+e+f+g+h+i+j+k`, 'search: at most 10 words', 'search');
    const seniorities = await get(`${JOB_CHANGES}?seniorities=emperor`);
    assert.equal(seniorities.statusCode, 400);
    assert.equal(seniorities.json().param, 'seniorities');
    await invalid(
      `${ACQUISITIONS}?dateFrom=2024-02-01&dateTo=2024-01-31`,
      'dateFrom (2024-02-01) must not be after dateTo (2024-01-31)',
      'dateFrom',
    );
  });

  it('400 invalid_parameter on the changes feed names since or datasets; 410 gone names since', async () => {
    await invalid(
      '/api/v2/changes?since=abc',
      'since is not a valid cursor: pass a cursor this feed returned (pagination.nextCursor or an item cursor)',
      'since',
    );
    await invalid(
      '/api/v2/changes?datasets=funding,patents',
      'datasets: "patents" is not allowed; allowed values: funding, m-a, investors, job-changes, acquisitions, companies, hiring',
      'datasets',
    );

    // A cursor, then a change after it, then the log pruned past both (as the hourly pruning does after 7 days).
    await insertInvestors(real, [investorRecord()]);
    let since: string | undefined;
    for (;;) {
      const res = await get(`/api/v2/changes?limit=1000${since ? `&since=${since}` : ''}`);
      assert.equal(res.statusCode, 200, res.body);
      since = res.json().pagination.nextCursor;
      if (!res.json().pagination.hasNextPage) break;
    }
    await insertInvestors(real, [investorRecord()]);
    await pruneChangeLog(real, new Date(Date.now() + 86_400_000));
    await expectV2(get(`/api/v2/changes?since=${since}`), 410, {
      error:
        "since is older than the change log's retention (7 days): changes after it are no longer kept. Resync: read the " +
        'records again from the list endpoints, then follow this feed from its start (without since).',
      code: 'gone',
      param: 'since',
    });
  });

  it('404 not_found: an unknown path or method under /api/v2', async () => {
    await expectV2(get('/api/v2/signals/patents'), 404, { error: 'Not found: GET /api/v2/signals/patents', code: 'not_found' });
    await expectV2(app.inject({ method: 'DELETE', url: INVESTORS, headers: { authorization: `Bearer ${key}` } }), 404, {
      error: `Not found: DELETE ${INVESTORS}`,
      code: 'not_found',
    });
    await expectV2(get('/api/v2'), 404, { error: 'Not found: GET /api/v2', code: 'not_found' });
  });

  it('414 uri_too_long, and a malformed path (400 without param) in the v2 shape', async () => {
    await expectV2(get(`${INVESTORS}?search=${'x'.repeat(5000)}`), 414, {
      error: 'URI too long: at most 4096 characters',
      code: 'uri_too_long',
    });
    await expectV2(get('/api/v2/signals/%zz'), 400, {
      error: "'/api/v2/signals/%zz' is not a valid url component",
      code: 'invalid_parameter',
    });
  });

  it('500 internal_error and 503 unavailable, nothing internal in the body', async () => {
    failure = new Error('relation "secret_table" does not exist');
    try {
      await expectV2(get(INVESTORS), 500, { error: 'An unknown error occurred', code: 'internal_error' });
      failure = new DatabaseUnavailableError('connect ECONNREFUSED 10.0.0.1:5432');
      const res = await expectV2(get(INVESTORS), 503, {
        error: 'Service temporarily unavailable. Please try again later.',
        code: 'unavailable',
      });
      assert.equal(res.headers['retry-after'], '2');
    } finally {
      failure = undefined;
    }
  });

  it('v1 bodies are exactly {code, message}, the code the HTTP status', async () => {
    const v1 = (url: string, headers: Record<string, string> = { 'x-lot-api-key': key }, remoteAddress?: string) =>
      get(url, headers, remoteAddress);
    const expectV1 = async (response: ReturnType<typeof get>, status: number, message: string) => {
      const res = await response;
      assert.equal(res.statusCode, status, res.body);
      assert.deepEqual(res.json(), { code: status, message });
    };
    await expectV1(
      v1('/api/v1/funding', {}, '192.0.2.20'),
      401,
      'Invalid or missing API key (send it in the x-lot-api-key header)',
    );
    await expectV1(v1('/api/v1/funding?amount=-1'), 400, 'amount must be >= 0');
    await expectV1(
      v1('/api/v1/funding?amount=1&amount=2'),
      400,
      'amount is repeated; send it once (it takes one value; list parameters such as round take several, ' +
        'comma-separated as round=a,b or repeated as round=a&round=b)',
    );
    const unknown = await v1('/api/v1/funding?foo=1');
    assert.equal(unknown.statusCode, 400);
    assert.deepEqual(Object.keys(unknown.json()), ['code', 'message']);
    await expectV1(
      v1('/api/v1/m-a?date_from=2024-02-01&date_to=2024-01-01'),
      400,
      'date_from (2024-02-01) must not be after date_to (2024-01-01)',
    );
    await expectV1(
      v1('/api/v1/funding?country=Atlantis'),
      400,
      'country: "Atlantis" is not a country: use an ISO 3166 alpha-2 or alpha-3 code or an English country name (e.g. US, USA ' +
        'or United States), any case',
    );
    await expectV1(v1('/api/v1/nothing'), 404, 'Not found: GET /api/v1/nothing');
    await expectV1(v1(`/api/v1/funding?round=${'x'.repeat(5000)}`), 414, 'URI too long: at most 4096 characters');
    await expectV1(v1('/api/v1/%zz'), 400, "'/api/v1/%zz' is not a valid url component");
    failure = new Error('boom');
    try {
      await expectV1(v1('/api/v1/funding'), 500, 'Internal server error');
      failure = new DatabaseUnavailableError('down');
      await expectV1(v1('/api/v1/funding'), 503, 'Service temporarily unavailable, please retry shortly');
    } finally {
      failure = undefined;
    }
    const limited = await makeKey(real, 'pro');
    for (let i = 0; i < 20; i++) assert.equal((await v1('/api/v1/funding', { 'x-lot-api-key': limited.key })).statusCode, 200);
    await expectV1(
      v1('/api/v1/funding', { 'x-lot-api-key': limited.key }),
      429,
      'Rate limit exceeded: a maximum of 20 requests per minute is allowed',
    );
  });

  it('the webhooks API keeps its published codes, with param where a parameter is at fault', async () => {
    const headers = { authorization: `Bearer ${key}` };
    const missing = await get('/api/v2/webhooks/00000000-0000-4000-8000-000000000000', headers);
    assert.equal(missing.statusCode, 404);
    assert.deepEqual(missing.json(), { success: false, error: 'Webhook not found', code: 'not_found' });
    const bad = await get('/api/v2/webhooks?limit=0', headers);
    assert.equal(bad.statusCode, 400);
    assert.deepEqual(Object.keys(bad.json()).sort(), ['code', 'error', 'param', 'success']);
    assert.equal(bad.json().code, 'bad_request');
    assert.equal(bad.json().param, 'limit');
  });
});
