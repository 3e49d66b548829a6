import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildApp } from '../../src/app.js';
import type { Database } from '../../src/platform/db/port.js';
import { revokeApiKey } from '../../src/accounts/api-key-queries.js';
import { generateApiKey } from '../../src/accounts/api-keys.js';
import { backends, makeKey, startApp, testConfig, type TestContext, describeOnOneStore } from '../helpers.js';

const V1_PATHS = ['/api/v1/funding', '/api/v1/m-a'];

describeOnOneStore('v1 errors', (backend) => {
  let ctx: TestContext;
  let key: string;

  const get = (url: string, headers: Record<string, string> = { 'x-lot-api-key': key }) =>
    ctx.app.inject({ method: 'GET', url, headers });

  const expectError = async (url: string, status: number, pattern: RegExp, headers?: Record<string, string>) => {
    const res = await get(url, headers);
    assert.equal(res.statusCode, status, `${url}: ${res.body}`);
    const body = res.json();
    assert.deepEqual(Object.keys(body).sort(), ['code', 'message'], url);
    assert.equal(body.code, status);
    assert.match(body.message, pattern, url);
    return body.message as string;
  };

  before(async () => {
    ctx = await startApp(backend);
    key = (await makeKey(ctx.db)).key;
  });
  after(() => ctx.close());

  describe('401 for every kind of bad key, with one body', () => {
    const cases: [string, Record<string, string>][] = [
      ['missing', {}],
      ['empty', { 'x-lot-api-key': '' }],
      ['malformed', { 'x-lot-api-key': 'not-a-key' }],
      ['bad checksum', { 'x-lot-api-key': 'ds_' + 'a'.repeat(38) }],
      ['unknown but well-formed', { 'x-lot-api-key': generateApiKey() }],
      ['sent as Bearer instead', { authorization: 'Bearer whatever' }],
    ];
    for (const path of V1_PATHS) {
      for (const [name, headers] of cases) {
        it(`${path}: ${name}`, async () => {
          const res = await get(path, headers);
          assert.equal(res.statusCode, 401);
          assert.deepEqual(res.json(), {
            code: 401,
            message: 'Invalid or missing API key (send it in the x-lot-api-key header)',
          });
        });
      }
    }

    it('a key in the query string is never accepted', async () => {
      for (const param of ['api_key', 'x-lot-api-key', 'key']) {
        const res = await get(`/api/v1/funding?${param}=${key}`, {});
        assert.equal(res.statusCode, 401, param);
      }
    });

    it('a revoked key stops working at once on the instance that revoked it', async () => {
      const created = await makeKey(ctx.db);
      assert.equal((await get('/api/v1/funding', { 'x-lot-api-key': created.key })).statusCode, 200);
      await revokeApiKey(ctx.db, created.id);
      // The CLI revokes in another process; this instance's cache expires within KEY_CACHE_MS (1 s).
      await new Promise((r) => setTimeout(r, 1100));
      assert.equal((await get('/api/v1/funding', { 'x-lot-api-key': created.key })).statusCode, 401);
    });
  });

  describe('400 naming the parameter and the rule', () => {
    const cases: [string, RegExp][] = [
      ['amount=-1', /amount must be >= 0/],
      ['amount=1.5', /amount must be a whole number/],
      ['amount=abc', /amount must be a whole number/],
      ['amount=', /amount must be a whole number/],
      ['page=0', /page must be >= 1/],
      ['page=-3', /page must be >= 1/],
      ['page=2.5', /page must be a whole number/],
      ['page=x', /page must be a whole number/],
      ['page=99999999999', /page must be <= 1000000/],
      ['date_from=2024-02-30', /date_from must be a valid calendar date in YYYY-MM-DD form/],
      ['date_to=2024-13-01', /date_to must be a valid calendar date/],
      ['date_from=yesterday', /date_from must be a valid calendar date/],
      ['date_from=2024-1-5', /date_from must be a valid calendar date/],
      ['date_from=2024-05-02&date_to=2024-05-01', /date_from \(2024-05-02\) must not be after date_to \(2024-05-01\)/],
      ['bogus=1', /Unknown parameter "bogus"; allowed parameters: .*round/],
      ['country=Atlantis', /^country: "Atlantis" is not a country: use an ISO 3166 alpha-2 or alpha-3 code/],
      ['amount=1&amount=2', /^amount is repeated; send it once \(it takes one value; list parameters such as round take several/],
      ['page=1&page=2', /^page is repeated; send it once \(/],
      ['amount=0x10', /^amount must be a whole number \(digits 0-9 only\)$/],
      ['amount=1e3', /^amount must be a whole number \(digits 0-9 only\)$/],
      ['page=+1', /^page must be a whole number \(digits 0-9 only\)$/],
      ['page=%201', /^page must be a whole number \(digits 0-9 only\)$/],
      ['page=1.0', /^page must be a whole number \(digits 0-9 only\)$/],
      ['date_to=9999-12-31', /^date_to must be a date between 1900-01-01 and 2199-12-31$/],
      ['date_from=0000-01-01', /^date_from must be a date between 1900-01-01 and 2199-12-31$/],
    ];
    for (const [query, pattern] of cases) {
      it(`/api/v1/funding?${query}`, async () => void (await expectError(`/api/v1/funding?${query}`, 400, pattern)));
    }
    const maCases: [string, RegExp][] = [
      ['status=closed', /status/],
      ['amount=-5', /amount must be >= 0/],
      ['round=seed', /Unknown parameter "round"/],
      ['date_from=2024-02-30', /date_from must be a valid calendar date/],
      ['acquiring_company=', /acquiring_company must not be empty/],
    ];
    for (const [query, pattern] of maCases) {
      it(`/api/v1/m-a?${query}`, async () => void (await expectError(`/api/v1/m-a?${query}`, 400, pattern)));
    }

    it("names of Object.prototype's members (__proto__, constructor, …) are unknown parameters like any other", async () => {
      for (const path of V1_PATHS) {
        for (const name of ['__proto__', 'constructor', 'prototype', 'hasOwnProperty', 'toString', 'valueOf']) {
          for (const query of [`${name}=1`, `page=1&${name}=%7B%7D`]) {
            await expectError(`${path}?${query}`, 400, new RegExp(`^Unknown parameter "${name}"; allowed parameters: `));
          }
        }
      }
      // The lookup, which takes no query parameter at all, and v2 alike.
      const lookup = await ctx.app.inject({
        method: 'POST',
        url: '/api/v1/funding/lookup?__proto__=1',
        headers: { 'x-lot-api-key': key, 'content-type': 'application/json' },
        payload: { websites: ['acme.io'] },
      });
      assert.equal(lookup.statusCode, 400, lookup.body);
      assert.match(lookup.json().message, /^Unknown parameter "__proto__"/);
      const v2 = await get('/api/v2/signals/investors?__proto__=1', { authorization: `Bearer ${key}` });
      assert.equal(v2.statusCode, 400, v2.body);
      assert.equal(v2.json().param, '__proto__');
    });

    it('no error quotes a parameter value as binary: control characters and invalid UTF-8 come back escaped', async () => {
      const NOT_PRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\uFFFD]/u;
      // ESC and a colour sequence, BEL, DEL, a right-to-left override, a lone continuation byte, a cut sequence.
      const values = ['%1b%5b31mUS%07', '%7f%ff%fe', 'a%e2%80%aeb', '%c3%28x', 'x%80', '%01', 'US%0d%0aSet-Cookie:%20x'];
      const doc = (await get('/openapi.json')).json() as {
        paths: Record<string, { get?: { parameters?: { name: string; in: string }[] } }>;
      };
      const endpoints = Object.entries(doc.paths)
        .filter(([path, item]) => (path.startsWith('/api/v1/') || path.startsWith('/api/v2/')) && item.get?.parameters)
        .map(([path, item]) => ({ path, names: item.get!.parameters!.filter((p) => p.in === 'query').map((p) => p.name) }));
      let quoted = 0;
      for (const { path, names } of endpoints) {
        if (path.includes('{')) continue;
        const headers: Record<string, string> = path.startsWith('/api/v1')
          ? { 'x-lot-api-key': key }
          : { authorization: `Bearer ${key}` };
        for (const name of names) {
          for (const value of values) {
            const res = await get(`${path}?${name}=${value}`, headers);
            assert.ok(res.statusCode < 500, `${path}?${name}=${value}: ${res.body}`);
            if (res.statusCode === 200) continue;
            const body = res.json() as { message?: string; error?: string };
            const message = body.message ?? body.error ?? '';
            assert.doesNotMatch(message, NOT_PRINTABLE, `${path}?${name}=${value}: ${res.body}`);
            if (/\\u00|%[0-9a-f]{2}/i.test(message)) quoted += 1;
          }
        }
      }
      assert.ok(quoted > 0, 'some messages quote the value, escaped');
      // A webhook filter's value alike (the webhooks API's own shape).
      const webhook = await ctx.app.inject({
        method: 'POST',
        url: '/api/v2/webhooks',
        headers: { authorization: `Bearer ${key}` },
        payload: {
          endpoint_url: 'http://127.0.0.1:9/x',
          event_types: ['acquisition.created'],
          filters: { countries: 'U\u0001S\u202e' },
        },
      });
      assert.equal(webhook.statusCode, 400, webhook.body);
      assert.doesNotMatch(webhook.json().error, NOT_PRINTABLE, webhook.body);
    });

    it('status lists its allowed values', async () => {
      const message = await expectError('/api/v1/m-a?status=closed', 400, /status/);
      for (const s of ['announced', 'completed', 'pending']) assert.ok(message.includes(s), message);
    });
  });

  it('unknown paths and methods under /api/v1 get 404 in the v1 shape', async () => {
    await expectError('/api/v1/nothing-here', 404, /Not found/);
    const res = await ctx.app.inject({ method: 'POST', url: '/api/v1/funding', headers: { 'x-lot-api-key': key } });
    assert.equal(res.statusCode, 404);
    assert.equal(res.json().code, 404);
  });
});

describe('v1 unexpected failures', () => {
  it('answer 500 with a generic body: no message, stack or SQL leaks', async () => {
    const [pglite] = backends();
    const real = await pglite!.open();
    const { migrate } = await import('../../src/platform/db/migrate.js');
    await migrate(real);
    const { key } = await makeKey(real);
    // The key lookup works; once the app is built, the list request's query fails with an internal error.
    let armed = false;
    const failing: Database = {
      ...real,
      async query(sql, params) {
        if (armed && sql.includes('change_log')) throw new Error('relation "secret_table" does not exist at /srv/app/db.ts:42');
        return real.query(sql, params);
      },
    };
    const logs: string[] = [];
    const app = await buildApp({
      config: testConfig({ LOG_LEVEL: 'error' }),
      db: failing,
      logStream: { write: (line: string) => logs.push(line) } as unknown as NodeJS.WritableStream,
    });
    armed = true;
    try {
      const res = await app.inject({ method: 'GET', url: '/api/v1/funding', headers: { 'x-lot-api-key': key } });
      assert.equal(res.statusCode, 500);
      assert.deepEqual(res.json(), { code: 500, message: 'Internal server error' });
      assert.doesNotMatch(res.body, /secret_table|\/srv|at /);
      // The cause is logged for operators, with the request id.
      const logged = logs.map((l) => JSON.parse(l)).find((l) => l.msg === 'unhandled error');
      assert.ok(logged, 'error was logged');
      assert.ok(logged.reqId, 'log line carries the request id');
      assert.match(JSON.stringify(logged), /secret_table/);
    } finally {
      await app.close();
      await real.close();
    }
  });
});
