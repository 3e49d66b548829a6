import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, it } from 'node:test';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import { makeKey, startApp, type TestContext, describeOnOneStore } from '../helpers.js';
import {
  acquisitionRecord,
  fundingRecord,
  insertAcquisitions,
  insertFunding,
  insertInvestors,
  insertJobChanges,
  insertMa,
  investorRecord,
  jobChangeRecord,
  maRecord,
} from '../fixtures.js';
// Bounded property runs and failing assertions that report at once (also when run alone).
import '../setup.js';

const ENDPOINTS = [
  {
    path: '/api/v1/funding',
    family: 'v1',
    params: ['round', 'category', 'amount', 'country', 'website', 'linkedin_url', 'page', 'date_from', 'date_to'],
    integers: ['amount', 'page'],
    dates: ['date_from', 'date_to'],
  },
  {
    path: '/api/v1/m-a',
    family: 'v1',
    params: [
      'amount',
      'category',
      'country',
      'website',
      'linkedin_url',
      'page',
      'date_from',
      'date_to',
      'status',
      'acquiring_company',
    ],
    integers: ['amount', 'page'],
    dates: ['date_from', 'date_to'],
  },
  {
    path: '/api/v2/signals/investors',
    family: 'v2',
    params: ['page', 'limit', 'count', 'countries', 'categories', 'search'],
    integers: ['page', 'limit'],
    dates: [],
  },
  {
    path: '/api/v2/signals/job-changes',
    family: 'v2',
    params: [
      'page',
      'limit',
      'count',
      'search',
      'personLinkedinUrl',
      'companyLinkedinUrl',
      'positions',
      'departments',
      'seniorities',
    ],
    integers: ['page', 'limit'],
    dates: [],
  },
  {
    path: '/api/v2/signals/acquisitions',
    family: 'v2',
    params: ['page', 'limit', 'count', 'dateFrom', 'dateTo', 'countries', 'categories', 'search'],
    integers: ['page', 'limit'],
    dates: ['dateFrom', 'dateTo'],
  },
] as const;

/** The parameters above that take a list, so a repeated key is their comma form (test/v2/list-parameters.test.ts). */
const LIST_PARAMS = new Set(['round', 'category', 'countries', 'categories', 'positions', 'departments', 'seniorities']);

/** Integers written any way but plain decimal digits: JavaScript's Number() reads each as a number. */
const NOT_PLAIN_DIGITS = ['0x10', '0b1', '0o7', '+1', ' 1', '1 ', '1e3', '1.0', '1_000', '١'];

/** Well-formed dates outside the supported range (1900-01-01 .. 2199-12-31). */
const OUT_OF_RANGE_DATES = ['9999-12-31', '0000-01-01', '0001-01-01', '1899-12-31', '2200-01-01'];

const ADMIN_TOKEN = 'admin-token-for-hostile-input-tests';

/** Values a hostile or careless client sends; each one is tried in every parameter below. */
const HOSTILE_CONSTANTS = [
  '',
  ' ',
  '-1',
  '0',
  '1e309',
  '-1e309',
  'Infinity',
  '-Infinity',
  '0x10',
  '1.5',
  '9'.repeat(40),
  '-' + '9'.repeat(40),
  'NaN',
  'null',
  'true',
  '[]',
  '{}',
  '%00',
  '\u0000',
  '2024-02-30',
  '0000-00-00',
  ...OUT_OF_RANGE_DATES,
  ...NOT_PLAIN_DIGITS,
  "' OR 1=1 --",
  "'; DROP TABLE funding_rounds; --",
  '%',
  '_',
  '\\',
  '..%2f..%2f',
  '<script>alert(1)</script>',
  'ü漢字🚀',
  ',,,',
  'us,,gb',
  'vc,VC,Vc',
];

/** The constants, plus random ones. */
const hostileValue = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary', maxLength: 50 }),
  fc.integer().map(String),
  fc.double().map(String),
  fc.constantFrom(...HOSTILE_CONSTANTS),
  fc.bigInt().map(String),
);

const queryString = (params: readonly string[]) =>
  fc
    .array(
      fc.tuple(
        fc.oneof(
          fc.constantFrom(...params),
          fc.constantFrom(...params).map((p) => `${p}[]`),
          fc.string({ maxLength: 12 }),
        ),
        hostileValue,
      ),
      { maxLength: 6 },
    )
    .map((pairs) => pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&'));

describeOnOneStore('hostile input', (backend) => {
  let ctx: TestContext;
  let key: string;
  let validators: Record<string, (body: unknown) => boolean>;
  const v1Error = (b: Record<string, unknown>) =>
    Object.keys(b).sort().join() === 'code,message' && Number.isInteger(b.code) && typeof b.message === 'string';
  // A v2 error names its code; a 400 caused by a query parameter names that parameter too.
  const v2Error = (b: Record<string, unknown>) =>
    ['code,error,success', 'code,error,param,success'].includes(Object.keys(b).sort().join()) &&
    b.success === false &&
    typeof b.error === 'string' &&
    typeof b.code === 'string' &&
    (b.code === 'invalid_parameter') === (typeof b.param === 'string');

  before(async () => {
    ctx = await startApp(backend, { ADMIN_TOKEN });
    key = (await makeKey(ctx.db, 'enterprise')).key;
    await insertFunding(ctx.db, [fundingRecord(), fundingRecord({ round_type: null })]);
    await insertMa(ctx.db, [{ record: maRecord(), status: 'pending' }]);
    await insertInvestors(ctx.db, [investorRecord()]);
    await insertJobChanges(ctx.db, [jobChangeRecord()]);
    await insertAcquisitions(ctx.db, [acquisitionRecord()]);
    const spec = (await ctx.app.inject('/openapi.json')).json();
    const ajv = new Ajv2020.default({ strict: false });
    addFormats.default(ajv);
    for (const [name, schema] of Object.entries(spec.components.schemas))
      ajv.addSchema(schema as object, `#/components/schemas/${name}`);
    validators = Object.fromEntries(
      ENDPOINTS.map((e) => [e.path, ajv.compile(spec.paths[e.path].get.responses['200'].content['application/json'].schema)]),
    );
  });
  after(() => ctx.close());

  for (const endpoint of ENDPOINTS) {
    it(`${endpoint.path}: no 5xx, every body in the family's shape, every 200 valid against /openapi.json`, async () => {
      await fc.assert(
        fc.asyncProperty(queryString(endpoint.params), async (query) => {
          const headers = endpoint.family === 'v1' ? { 'x-lot-api-key': key } : { authorization: `Bearer ${key}` };
          const res = await ctx.app.inject({ method: 'GET', url: `${endpoint.path}?${query}`, headers });
          assert.ok(res.statusCode < 500, `${res.statusCode} for ?${query}: ${res.body}`);
          const body = res.json();
          if (res.statusCode === 200) assert.ok(validators[endpoint.path]!(body), `invalid 200 body for ?${query}`);
          else assert.ok(endpoint.family === 'v1' ? v1Error(body) : v2Error(body), `bad error shape for ?${query}: ${res.body}`);
          assert.doesNotMatch(res.body, /\bat .+\.(ts|js):\d+|SELECT |node_modules|\/work\//, 'no stack, SQL or path');
        }),
        { numRuns: 150 },
      );
    });
  }

  it('every hostile constant, in every parameter of every endpoint: no 5xx, the family shape, valid 200s', async () => {
    for (const endpoint of ENDPOINTS) {
      const headers = endpoint.family === 'v1' ? { 'x-lot-api-key': key } : { authorization: `Bearer ${key}` };
      for (const param of endpoint.params) {
        for (const value of HOSTILE_CONSTANTS) {
          const url = `${endpoint.path}?${param}=${encodeURIComponent(value)}`;
          const res = await ctx.app.inject({ method: 'GET', url, headers });
          assert.ok(res.statusCode < 500, `${res.statusCode} for ${url}: ${res.body}`);
          const body = res.json();
          if (res.statusCode === 200) assert.ok(validators[endpoint.path]!(body), `invalid 200 body for ${url}`);
          else assert.ok(endpoint.family === 'v1' ? v1Error(body) : v2Error(body), `bad error shape for ${url}: ${res.body}`);
        }
      }
    }
  });

  it('a NUL character in any parameter of any endpoint is a 400 naming the parameter, never a 5xx', async () => {
    for (const endpoint of ENDPOINTS) {
      const headers = endpoint.family === 'v1' ? { 'x-lot-api-key': key } : { authorization: `Bearer ${key}` };
      for (const param of endpoint.params) {
        for (const value of ['%00', 'a%00b', 'x&' + param + '=%00']) {
          const res = await ctx.app.inject({ method: 'GET', url: `${endpoint.path}?${param}=${value}`, headers });
          assert.equal(res.statusCode, 400, `${endpoint.path}?${param}=${value}: ${res.body}`);
          const body = res.json();
          assert.ok(endpoint.family === 'v1' ? v1Error(body) : v2Error(body), res.body);
          assert.match(res.body, new RegExp(`${param} must not contain a NUL character`));
          if (endpoint.family === 'v2') assert.equal(body.param, param);
        }
      }
    }
  });

  const headersFor = (family: string) => (family === 'v1' ? { 'x-lot-api-key': key } : { authorization: `Bearer ${key}` });
  const errorText = (body: { message?: string; error?: string }) => body.message ?? body.error ?? '';

  it('integer parameters take plain decimal digits only: 0x10, 0b1, 0o7, +1, " 1", 1e3, 1.0 are a 400 naming the parameter', async () => {
    for (const endpoint of ENDPOINTS) {
      for (const param of endpoint.integers) {
        for (const value of NOT_PLAIN_DIGITS) {
          const url = `${endpoint.path}?${param}=${encodeURIComponent(value)}`;
          const res = await ctx.app.inject({ method: 'GET', url, headers: headersFor(endpoint.family) });
          assert.equal(res.statusCode, 400, `${url}: ${res.body}`);
          const body = res.json();
          assert.ok(endpoint.family === 'v1' ? v1Error(body) : v2Error(body), res.body);
          assert.match(errorText(body), new RegExp(`^${param} must be a whole number \\(digits 0-9 only\\)$`), url);
          if (endpoint.family === 'v2') assert.equal(body.param, param, url);
        }
        // Plain digits, leading zeros included, still work.
        const res = await ctx.app.inject({
          method: 'GET',
          url: `${endpoint.path}?${param}=01`,
          headers: headersFor(endpoint.family),
        });
        assert.equal(res.statusCode, 200, `${endpoint.path}?${param}=01: ${res.body}`);
      }
    }
  });

  it('a repeated scalar parameter is a 400 saying it is repeated, for every scalar of every endpoint (lists take it)', async () => {
    for (const endpoint of ENDPOINTS) {
      for (const param of endpoint.params) {
        if (LIST_PARAMS.has(param)) continue;
        for (const query of [`${param}=1&${param}=2`, `${param}=1&${param}=1`, `${param}=&${param}=&${param}=`]) {
          const url = `${endpoint.path}?${query}`;
          const res = await ctx.app.inject({ method: 'GET', url, headers: headersFor(endpoint.family) });
          assert.equal(res.statusCode, 400, `${url}: ${res.body}`);
          const body = res.json();
          assert.ok(endpoint.family === 'v1' ? v1Error(body) : v2Error(body), res.body);
          assert.ok(errorText(body).startsWith(`${param} is repeated; send it once (it takes one value; `), url);
          if (endpoint.family === 'v2') assert.equal(body.param, param, url);
        }
      }
    }
  });

  it('dates outside 1900-01-01 .. 2199-12-31 are a 400 naming the parameter and the range; the ends are served', async () => {
    for (const endpoint of ENDPOINTS) {
      for (const param of endpoint.dates) {
        for (const value of OUT_OF_RANGE_DATES) {
          const url = `${endpoint.path}?${param}=${value}`;
          const res = await ctx.app.inject({ method: 'GET', url, headers: headersFor(endpoint.family) });
          assert.equal(res.statusCode, 400, `${url}: ${res.body}`);
          const body = res.json();
          assert.ok(endpoint.family === 'v1' ? v1Error(body) : v2Error(body), res.body);
          assert.equal(errorText(body), `${param} must be a date between 1900-01-01 and 2199-12-31`, url);
          if (endpoint.family === 'v2') assert.equal(body.param, param, url);
        }
        for (const value of ['1900-01-01', '2199-12-31']) {
          const url = `${endpoint.path}?${param}=${value}`;
          const res = await ctx.app.inject({ method: 'GET', url, headers: headersFor(endpoint.family) });
          assert.equal(res.statusCode, 200, `${url}: ${res.body}`);
          assert.ok(validators[endpoint.path]!(res.json()), `invalid 200 body for ${url}`);
        }
      }
      if (endpoint.dates.length === 2) {
        const [from, to] = endpoint.dates;
        const url = `${endpoint.path}?${from}=1900-01-01&${to}=2199-12-31`;
        const res = await ctx.app.inject({ method: 'GET', url, headers: headersFor(endpoint.family) });
        assert.equal(res.statusCode, 200, `${url}: ${res.body}`);
        const total = endpoint.family === 'v1' ? Number(res.headers['x-total-count']) : res.json().pagination.totalCount;
        assert.equal(total, endpoint.path === '/api/v1/funding' ? 2 : 1, `${url}: the whole range holds every record`);
      }
    }
  });

  it('ingest rejects records dated outside 1900-01-01 .. 2199-12-31, naming the field and the range; nothing changes', async () => {
    const cases: [kind: string, record: object, field: string][] = [
      ['funding', fundingRecord({ date_seen: '9999-12-31T00:00:00Z' }), 'date_seen'],
      ['funding', fundingRecord({ date_seen: '0001-01-01T00:00:00Z' }), 'date_seen'],
      ['m-a', maRecord({ date_seen: '2200-01-01T00:00:00Z' }), 'date_seen'],
      ['investors', investorRecord({ lastInvestmentDate: '9999-12-31' }), 'lastInvestmentDate'],
      ['job-changes', jobChangeRecord({ occurredAt: '1899-12-31T23:59:59Z' }), 'occurredAt'],
      ['acquisitions', acquisitionRecord({ lastUpdated: '9999-12-31T23:59:59.999Z' }), 'lastUpdated'],
      // The instant counts, not the digits: this is 2200-01-01T04:00Z.
      ['acquisitions', acquisitionRecord({ lastUpdated: '2199-12-31T23:00:00-05:00' }), 'lastUpdated'],
    ];
    const v1 = await ctx.app.inject({ method: 'GET', url: '/api/v1/funding', headers: headersFor('v1') });
    for (const [kind, record, field] of cases) {
      const res = await ctx.app.inject({
        method: 'POST',
        url: `/admin/ingest/${kind}`,
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/x-ndjson' },
        payload: JSON.stringify(record) + '\n',
      });
      assert.equal(res.statusCode, 422, `${kind} ${field}: ${res.body}`);
      const report = res.json();
      assert.deepEqual([report.committed, report.rejected], [false, 1]);
      assert.match(
        report.rejects[0].reason,
        new RegExp(`^line 1: ${field}: must be between 1900-01-01 and 2199-12-31 \\(UTC\\)`),
      );
    }
    const after = await ctx.app.inject({ method: 'GET', url: '/api/v1/funding', headers: headersFor('v1') });
    assert.equal(after.body, v1.body, 'page 1 is as it was');
  });

  it('what the HTTP parser refuses (431, 414, 400) is answered in the shape of the family the path is under', async () => {
    const url = new URL(await ctx.app.listen({ port: 0, host: '127.0.0.1' }));
    /** Sends raw bytes (in pieces, if several) and reads the answer to its end. */
    const raw = (...pieces: string[]) =>
      new Promise<{ status: number; type: string; body: string }>((resolve, reject) => {
        const socket = connect({ host: url.hostname, port: Number(url.port) }, async () => {
          for (const piece of pieces) {
            socket.write(piece);
            if (pieces.length > 1) await new Promise((done) => setTimeout(done, 30));
          }
        });
        let answer = '';
        socket.on('data', (chunk) => (answer += chunk.toString('utf8')));
        socket.on('error', () => undefined);
        socket.once('close', () => {
          const [head = '', body = ''] = answer.split('\r\n\r\n');
          const status = Number(/^HTTP\/1\.1 (\d{3}) /.exec(head)?.[1]);
          if (!status) reject(new Error(`no answer: ${JSON.stringify(answer)}`));
          resolve({ status, type: /content-type: ([^\r]+)/i.exec(head)?.[1] ?? '', body });
        });
      });
    const big = `X-Big: ${'a'.repeat(20_000)}\r\n`;
    const cases: [path: string, family: 'v1' | 'v2', pieces: string[], status: number, message: string][] = [
      [
        '/api/v1/funding',
        'v1',
        [`GET /api/v1/funding HTTP/1.1\r\nHost: x\r\n${big}\r\n`],
        431,
        'Request headers too large: at most 16 KiB in all',
      ],
      [
        '/api/v2/signals/investors',
        'v2',
        [`GET /api/v2/signals/investors HTTP/1.1\r\nHost: x\r\n${big}\r\n`],
        431,
        'Request headers too large: at most 16 KiB in all',
      ],
      [
        '/api/v2/webhooks',
        'v2',
        [`POST /api/v2/webhooks HTTP/1.1\r\nHost: x\r\n${big}\r\n`],
        431,
        'Request headers too large: at most 16 KiB in all',
      ],
      // The request line in a piece of its own: the refused bytes do not say the path, so v1's shape.
      [
        '(sent apart)',
        'v1',
        [`GET /api/v2/signals/investors HTTP/1.1\r\n`, `Host: x\r\n${big}\r\n`],
        431,
        'Request headers too large: at most 16 KiB in all',
      ],
      [
        '/api/v2 (a URL past the limit)',
        'v2',
        [`GET /api/v2/signals/investors?search=${'x'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`],
        414,
        'URI too long: at most 4096 characters',
      ],
      [
        '/api/v1 (a URL past the limit)',
        'v1',
        [`GET /api/v1/funding?country=${'x'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`],
        414,
        'URI too long: at most 4096 characters',
      ],
      [
        '/api/v2 (a malformed header)',
        'v2',
        [`GET /api/v2/signals/investors HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n`],
        400,
        'Malformed HTTP request',
      ],
      [
        '/api/v1 (a malformed header)',
        'v1',
        [`GET /api/v1/funding HTTP/1.1\r\nHost: x\r\nBad\u0001: 1\r\n\r\n`],
        400,
        'Malformed HTTP request',
      ],
    ];
    const v2Codes: Record<number, string> = { 431: 'headers_too_large', 414: 'uri_too_long', 400: 'invalid_parameter' };
    for (const [label, family, pieces, status, message] of cases) {
      const answer = await raw(...pieces);
      assert.equal(answer.status, status, `${label}: ${answer.body}`);
      assert.match(answer.type, /^application\/json/, label);
      const expected = family === 'v1' ? { code: status, message } : { success: false, error: message, code: v2Codes[status] };
      assert.deepEqual(JSON.parse(answer.body), expected, label);
    }
    // fetch (undici) sees the same: a body it can read, in the family's shape.
    const res = await fetch(new URL('/api/v2/signals/investors', url), { headers: { 'x-big': 'a'.repeat(20_000) } });
    assert.equal(res.status, 431);
    assert.deepEqual(await res.json(), {
      success: false,
      error: 'Request headers too large: at most 16 KiB in all',
      code: 'headers_too_large',
    });
  });

  it('no error message ever carries binary: bodies and parameter names of any bytes, in every family', async () => {
    const NOT_PRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\uFFFD]/u;
    const message = (body: { message?: string; error?: string }) => body.message ?? body.error ?? '';
    const bytes = fc.uint8Array({ minLength: 1, maxLength: 200 }).map((array) => Buffer.from(array));
    await fc.assert(
      fc.asyncProperty(
        bytes,
        fc.constantFrom('/api/v1/funding/lookup', '/api/v1/m-a/lookup', '/api/v2/webhooks'),
        async (payload, path) => {
          const headers = path.startsWith('/api/v1') ? { 'x-lot-api-key': key } : { authorization: `Bearer ${key}` };
          const res = await ctx.app.inject({
            method: 'POST',
            url: path,
            headers: { ...headers, 'content-type': 'application/json' },
            payload,
          });
          assert.ok(res.statusCode >= 400 && res.statusCode < 500, `${path}: ${res.statusCode} ${res.body}`);
          assert.doesNotMatch(message(res.json()), NOT_PRINTABLE, `${path}: ${res.body}`);
        },
      ),
      { numRuns: 150, examples: [[Buffer.from('\u001f\u008b\u0008\u0000', 'latin1'), '/api/v2/webhooks']] },
    );
    await fc.assert(
      fc.asyncProperty(bytes, fc.constantFrom(...ENDPOINTS), async (name, endpoint) => {
        const encoded = [...name].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join('');
        const url = `${endpoint.path}?${encoded}=1`;
        const res = await ctx.app.inject({ method: 'GET', url, headers: headersFor(endpoint.family) });
        assert.ok(res.statusCode < 500, `${url}: ${res.body}`);
        if (res.statusCode !== 200) assert.doesNotMatch(message(res.json()), NOT_PRINTABLE, `${url}: ${res.body}`);
      }),
      { numRuns: 150 },
    );
  });

  it('hostile headers, paths and methods under the API never cause a 5xx and keep the family shape', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('/api/v1', '/api/v2', '/api/v2/signals'),
        fc.array(
          fc.oneof(
            fc.string({ maxLength: 10 }),
            fc.constantFrom('funding', 'm-a', 'investors', '..', '%2e%2e', '%00', 'signals'),
          ),
          { maxLength: 3 },
        ),
        fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS'),
        fc.oneof(
          fc.constant(undefined),
          fc.string({ maxLength: 100 }),
          fc.constantFrom(key, `Bearer ${key}`, `Bearer ${key} extra`, 'Bearer', '\u00ff'),
        ),
        async (prefix, segments, method, auth) => {
          const url = `${prefix}/${segments.map(encodeURIComponent).join('/')}`;
          const headers: Record<string, string> = {};
          if (auth !== undefined) {
            headers['x-lot-api-key'] = auth;
            headers.authorization = auth;
          }
          const res = await ctx.app.inject({ method: method as 'GET', url, headers });
          assert.ok(res.statusCode < 500, `${method} ${url}: ${res.statusCode} ${res.body}`);
          if (method === 'HEAD' || res.body === '') return;
          // Dot segments resolve first (/api/v2/.. is /api/), then the path decides the family;
          // a path that resolves outside /api (/api/v1/../.. is /) is a page, not the API.
          const resolved = new URL(url, 'http://localhost').pathname;
          if (!resolved.startsWith('/api/')) return;
          const body = res.json();
          const v2 = resolved.startsWith('/api/v2');
          assert.ok(
            v2 ? v2Error(body) || body.success === true : v1Error(body) || 'response' in body,
            `${method} ${url}: ${res.body}`,
          );
        },
      ),
      {
        numRuns: 300,
        examples: [
          ['/api/v1', ['..', '..'], 'GET', undefined],
          ['/api/v2', ['%2e%2e'], 'GET', undefined],
        ],
      },
    );
  });
});
