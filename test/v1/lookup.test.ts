// POST /api/v1/funding/lookup and /api/v1/m-a/lookup: one result per input, in input order, each
// answered exactly as the list endpoint's website / linkedin_url filter answers it.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { startDemoApp } from '../demo-store.js';
import { clearData, describeEach, makeKey, startApp, type TestContext, describeOnOneStore } from '../helpers.js';
import { fundingRecord, insertFunding, insertMa, maRecord } from '../fixtures.js';

interface Result {
  input: string;
  filter: string;
  normalized: string | null;
  status: string;
  reason?: string;
  total: number;
  records: Record<string, unknown>[];
  duplicate_of?: number;
  next?: string;
}

const day = (n: number) => new Date(Date.UTC(2025, 0, 1 + n, 12)).toISOString();
const company = (website: string, linkedin: string) => ({
  company_info: { name: website, website, hq_country: 'US', categories: ['saas'] },
  contact_info: [{ company_linkedin_url: linkedin, employees: [] }],
});

/** The documented bounds of an answer: its records, and the whole body. */
const MAX_RECORD_BYTES = 4 * 1024 * 1024;
const MAX_RESPONSE_BYTES = 6 * 1024 * 1024;

const ENDPOINTS = [
  { path: '/api/v1/funding', list: '/api/v1/funding' },
  { path: '/api/v1/m-a', list: '/api/v1/m-a' },
] as const;

describeEach('POST /api/v1/{funding,m-a}/lookup', (backend) => {
  let ctx: TestContext;
  let key: string;

  const lookup = (path: string, payload: unknown, headers: Record<string, string> = {}) =>
    ctx.app.inject({
      method: 'POST',
      url: `${path}/lookup`,
      headers: { 'x-lot-api-key': key, 'content-type': 'application/json', ...headers },
      payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
    });
  const results = async (path: string, payload: unknown): Promise<Result[]> => {
    const res = await lookup(path, payload);
    assert.equal(res.statusCode, 200, res.body);
    return res.json().response.data;
  };
  const list = async (url: string) => {
    const res = await ctx.app.inject({ url, headers: { 'x-lot-api-key': key } });
    assert.equal(res.statusCode, 200, res.body);
    return { data: res.json().response.data as Record<string, unknown>[], total: Number(res.headers['x-total-count']) };
  };

  before(async () => {
    ctx = await startApp(backend);
    key = (await makeKey(ctx.db)).key;
    await clearData(ctx.db);
    // acme.io: three rounds, stored in another spelling than the lookups use; many.io: more than the cap.
    await insertFunding(ctx.db, [
      ...[3, 1, 2].map((n) =>
        fundingRecord({ date_seen: day(n), ...company('https://www.Acme.io/', 'https://www.linkedin.com/company/acme/') }),
      ),
      fundingRecord({ date_seen: day(5), ...company('http://beta.example.com', 'https://linkedin.com/company/beta') }),
      ...Array.from({ length: 105 }, (_, n) =>
        fundingRecord({ date_seen: day(n % 50), ...company('https://many.io', 'https://www.linkedin.com/company/many') }),
      ),
    ]);
    await insertMa(ctx.db, [
      {
        record: maRecord({ date_seen: day(1), ...company('https://acme.io', 'https://www.linkedin.com/company/acme') }),
        status: 'completed',
      },
      {
        record: maRecord({ date_seen: day(4), ...company('https://ACME.io/', 'https://linkedin.com/company/acme') }),
        status: 'pending',
      },
      {
        record: maRecord({ date_seen: day(2), ...company('https://gamma.dev', 'https://www.linkedin.com/company/gamma') }),
        status: 'announced',
      },
    ]);
  });
  after(() => ctx.close());

  it('tells an input that is no website or LinkedIn company page (invalid, with its reason) from a company not found', async () => {
    const websites = [
      'not a url at all',
      'https://acme',
      'acme..io',
      '-acme.io',
      'http://localhost:3000/',
      'nothing.example/about',
    ];
    const linkedin_urls = [
      'not a url at all',
      'linkedin.com/in/jane-doe',
      'https://acme.io/company/acme',
      'linkedin.com/company/',
      'https://de.linkedin.com/company/nobody/about/',
    ];
    for (const path of ['/api/v1/funding', '/api/v1/m-a']) {
      const res = await lookup(path, { websites, linkedin_urls });
      assert.equal(res.statusCode, 200, res.body);
      const data: Result[] = res.json().response.data;
      assert.deepEqual(
        data.map(({ input, status, normalized }) => [input, status, normalized]),
        [
          ['not a url at all', 'invalid', null],
          ['https://acme', 'invalid', null],
          ['acme..io', 'invalid', null],
          ['-acme.io', 'invalid', null],
          ['http://localhost:3000/', 'invalid', null],
          ['nothing.example/about', 'no_match', 'nothing.example/about'],
          ['not a url at all', 'invalid', null],
          ['linkedin.com/in/jane-doe', 'invalid', null],
          ['https://acme.io/company/acme', 'invalid', null],
          ['linkedin.com/company/', 'invalid', null],
          ['https://de.linkedin.com/company/nobody/about/', 'no_match', 'de.linkedin.com/company/nobody/about'],
        ],
      );
      assert.equal(
        data[0]!.reason,
        'website is not a website address: send a domain such as example.com (a scheme, "www." and a path are optional)',
      );
      assert.equal(
        data[7]!.reason,
        'linkedin_url is not a LinkedIn company page: send linkedin.com/company/NAME (a scheme and "www." are optional)',
      );
    }
  });

  it('answers every input in input order, websites then LinkedIn pages: matched, no_match or invalid', async () => {
    const res = await lookup('/api/v1/funding', {
      linkedin_urls: ['linkedin.com/company/ACME', 'https://www.linkedin.com/company/nobody'],
      websites: [
        'ACME.IO',
        'nothing.example',
        'x'.repeat(2049),
        'https://',
        'http://WWW.beta.example.com/?utm=x#top',
        'bad\u0000.io',
      ],
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.match(String(res.headers['content-type']), /^application\/json/);
    assert.equal(res.headers['cache-control'], 'no-store');
    const body = res.json();
    assert.deepEqual(Object.keys(body), ['message', 'params', 'response']);
    assert.equal(body.message, 'Data retrieved successfully');
    assert.deepEqual(body.params, {
      websites: [
        'ACME.IO',
        'nothing.example',
        'x'.repeat(2049),
        'https://',
        'http://WWW.beta.example.com/?utm=x#top',
        'bad\u0000.io',
      ],
      linkedin_urls: ['linkedin.com/company/ACME', 'https://www.linkedin.com/company/nobody'],
    });
    const data: Result[] = body.response.data;
    assert.deepEqual(
      data.map(({ records, ...rest }) => ({ ...rest, records: records.length })),
      [
        { input: 'ACME.IO', filter: 'website', normalized: 'acme.io', status: 'matched', total: 3, records: 3 },
        { input: 'nothing.example', filter: 'website', normalized: 'nothing.example', status: 'no_match', total: 0, records: 0 },
        {
          input: 'x'.repeat(2049),
          filter: 'website',
          normalized: null,
          status: 'invalid',
          reason: 'website must be at most 2048 characters',
          total: 0,
          records: 0,
        },
        {
          input: 'https://',
          filter: 'website',
          normalized: null,
          status: 'invalid',
          reason: 'website is empty once its scheme, "www.", query and trailing slash are removed',
          total: 0,
          records: 0,
        },
        {
          input: 'http://WWW.beta.example.com/?utm=x#top',
          filter: 'website',
          normalized: 'beta.example.com',
          status: 'matched',
          total: 1,
          records: 1,
        },
        {
          input: 'bad\u0000.io',
          filter: 'website',
          normalized: null,
          status: 'invalid',
          reason: 'website must not contain a NUL character (%00)',
          total: 0,
          records: 0,
        },
        {
          input: 'linkedin.com/company/ACME',
          filter: 'linkedin_url',
          normalized: 'linkedin.com/company/acme',
          status: 'matched',
          total: 3,
          records: 3,
        },
        {
          input: 'https://www.linkedin.com/company/nobody',
          filter: 'linkedin_url',
          normalized: 'linkedin.com/company/nobody',
          status: 'no_match',
          total: 0,
          records: 0,
        },
      ],
    );
    assert.deepEqual(
      data[0]!.records.map((r) => r.date_seen),
      [day(3), day(2), day(1)],
      'newest first',
    );
  });

  it('normalises scheme, www., trailing slash, query and case as the list filters do', async () => {
    const spellings = [
      'acme.io',
      'ACME.io',
      'https://acme.io',
      'http://www.acme.io/',
      'HTTPS://WWW.ACME.IO//',
      'acme.io/?ref=x',
      ' acme.io ',
    ];
    for (const result of await results('/api/v1/funding', { websites: spellings })) {
      assert.equal(result.status, 'matched', result.input);
      assert.equal(result.normalized, 'acme.io', result.input);
      assert.equal(result.total, 3, result.input);
    }
    // A path is part of the key, as in the list filter.
    const [withPath] = await results('/api/v1/funding', { websites: ['acme.io/about'] });
    assert.equal(withPath!.status, 'no_match');
  });

  for (const { path, list: listPath } of ENDPOINTS) {
    it(`${path}/lookup: the records are exactly those GET ${listPath}?website=… / ?linkedin_url=… serves`, async () => {
      const websites = ['https://www.acme.io', 'beta.example.com', 'gamma.dev', 'nothing.example'];
      const linkedins = ['https://www.linkedin.com/company/acme', 'linkedin.com/company/gamma/'];
      const data = await results(path, { websites, linkedin_urls: linkedins });
      const inputs = [...websites.map((w) => ['website', w]), ...linkedins.map((l) => ['linkedin_url', l])];
      assert.equal(data.length, inputs.length);
      for (const [i, [filter, input]] of inputs.entries()) {
        const listed = await list(`${listPath}?${filter}=${encodeURIComponent(input!)}`);
        assert.deepEqual(data[i]!.records, listed.data, `${filter}=${input}`);
        assert.equal(data[i]!.total, listed.total, `${filter}=${input}`);
        assert.equal(data[i]!.status, listed.total > 0 ? 'matched' : 'no_match', `${filter}=${input}`);
      }
    });
  }

  it("caps the records of an input at the list's first page (20), says how many there are, and links the rest", async () => {
    const [byWebsite, byLinkedin] = await results('/api/v1/funding', {
      websites: [' Many.io '],
      linkedin_urls: ['linkedin.com/company/many'],
    });
    const pages = [];
    for (let page = 1; page <= 6; page++) pages.push(...(await list(`/api/v1/funding?website=many.io&page=${page}`)).data);
    assert.equal(pages.length, 105);
    for (const result of [byWebsite!, byLinkedin!]) {
      assert.equal(result.total, 105);
      assert.equal(result.records.length, 20);
      assert.deepEqual(result.records, pages.slice(0, 20));
      // `next` is the list endpoint's page 2 for the input as sent; its Link header walks on from there.
      const next = new URL(result.next!);
      assert.equal(`${next.origin}${next.pathname}`, `${ctx.config.publicUrl}/api/v1/funding`);
      assert.equal(next.searchParams.get('page'), '2');
      assert.equal(next.searchParams.get(result.filter), result.input);
      const rest = [];
      for (let url: string | undefined = result.next; url;) {
        const res = await ctx.app.inject({ url: url.slice(ctx.config.publicUrl.length), headers: { 'x-lot-api-key': key } });
        assert.equal(res.statusCode, 200, res.body);
        rest.push(...res.json().response.data);
        url = /<([^>]+)>; rel="next"/.exec(String(res.headers.link ?? ''))?.[1];
      }
      assert.deepEqual([...result.records, ...rest], pages, 'the records, then the pages from `next` on: every one, once');
    }
    const [few] = await results('/api/v1/funding', { websites: ['acme.io'] });
    assert.equal(few!.next, undefined, 'nothing to link when every record is there');
  });

  it('answers a company sent again (in any spelling) once: the repeats point to the first result', async () => {
    const [a, b, c, d] = await results('/api/v1/m-a', {
      websites: ['acme.io', 'https://www.ACME.io/', 'gamma.dev', 'acme.io'],
    });
    assert.equal(a!.total, 2);
    assert.equal(a!.records.length, 2);
    assert.equal(a!.duplicate_of, undefined);
    for (const [repeat, input] of [
      [b!, 'https://www.ACME.io/'],
      [d!, 'acme.io'],
    ] as const) {
      assert.deepEqual(repeat, {
        input,
        filter: 'website',
        normalized: 'acme.io',
        status: 'matched',
        total: 2,
        records: [],
        duplicate_of: 0,
      });
    }
    assert.equal(c!.normalized, 'gamma.dev');
    assert.equal(c!.duplicate_of, undefined);
    // The same key through another filter is another input.
    const [site, page] = await results('/api/v1/m-a', { websites: ['acme.io'], linkedin_urls: ['linkedin.com/company/acme'] });
    assert.equal(site!.records.length, 2);
    assert.equal(page!.records.length, 2);
    assert.equal(page!.duplicate_of, undefined);
  });

  it('100 copies of one company: its records once, and a small answer', async () => {
    const spellings = ['many.io', 'https://www.many.io/', 'MANY.IO', 'http://many.io?ref=1'];
    const websites = Array.from({ length: 100 }, (_, i) => spellings[i % spellings.length]!);
    const res = await lookup('/api/v1/funding', { websites });
    assert.equal(res.statusCode, 200, res.body.slice(0, 300));
    const data: Result[] = res.json().response.data;
    assert.equal(data.length, 100);
    assert.deepEqual(
      data.map((r) => r.input),
      websites,
    );
    assert.equal(data[0]!.records.length, 20);
    assert.equal(data[0]!.total, 105);
    for (const repeat of data.slice(1)) {
      assert.deepEqual([repeat.status, repeat.total, repeat.records.length, repeat.duplicate_of], ['matched', 105, 0, 0]);
    }
    // One company's first page plus a short line per repeat (it was 100 times 100 records).
    const recordBytes = Buffer.byteLength(JSON.stringify(data[0]!.records));
    assert.ok(Buffer.byteLength(res.body) < recordBytes + 100 * 300, `${Buffer.byteLength(res.body)} bytes`);
  });

  it(`an answer holds at most ${MAX_RECORD_BYTES / 1024 / 1024} MiB of records: an input past that gets the list's page 1 instead`, async () => {
    // Two companies of 10 rounds of 240 KB each: either fits (2.4 MB), both do not.
    const description = 'd'.repeat(240_000);
    const big = (site: string) =>
      Array.from({ length: 10 }, (_, n) => {
        const record = fundingRecord({
          date_seen: day(n),
          ...company(`https://${site}`, `https://linkedin.com/company/${site}`),
        });
        return { ...record, company_info: { ...record.company_info, description } };
      });
    await insertFunding(ctx.db, [...big('big-one.io'), ...big('big-two.io')]);
    const res = await lookup('/api/v1/funding', {
      websites: ['big-one.io', 'acme.io', 'BIG-TWO.io', 'big-one.io', 'beta.example.com'],
    });
    assert.equal(res.statusCode, 200);
    const size = Buffer.byteLength(res.body);
    assert.ok(size > 2_400_000 && size <= MAX_RESPONSE_BYTES, `${size} bytes`);
    const [one, acme, two, again, beta] = res.json().response.data as Result[];
    assert.deepEqual([one!.records.length, one!.total, one!.next], [10, 10, undefined]);
    assert.equal(acme!.records.length, 3);
    // big-two.io would take the answer past its room: no records, and where to read them.
    assert.deepEqual([two!.status, two!.total, two!.records.length], ['matched', 10, 0]);
    const next = new URL(two!.next!);
    assert.equal(`${next.pathname}${next.search}`, '/api/v1/funding?website=BIG-TWO.io');
    assert.equal((await list(`${next.pathname}${next.search}`)).data.length, 10);
    assert.equal(again!.duplicate_of, 0);
    // Smaller ones after it still fit.
    assert.equal(beta!.records.length, 1);
  });

  it('takes 100 inputs in one request', async () => {
    const websites = Array.from({ length: 60 }, (_, i) => (i % 2 === 0 ? 'acme.io' : `none-${i}.example`));
    const linkedin_urls = Array.from({ length: 40 }, (_, i) => `linkedin.com/company/none-${i}`);
    const data = await results('/api/v1/funding', { websites, linkedin_urls });
    assert.equal(data.length, 100);
    assert.deepEqual(
      data.map((r) => r.input),
      [...websites, ...linkedin_urls],
    );
    assert.equal(data.filter((r) => r.status === 'matched').length, 30);
  });

  it('sees a record committed before the request', async () => {
    const [before] = await results('/api/v1/m-a', { websites: ['delta.dev'] });
    assert.equal(before!.status, 'no_match');
    await insertMa(ctx.db, [
      { record: maRecord({ ...company('https://delta.dev', 'https://linkedin.com/company/delta') }), status: 'completed' },
    ]);
    const [afterInsert] = await results('/api/v1/m-a', { websites: ['delta.dev'] });
    assert.equal(afterInsert!.status, 'matched');
    assert.deepEqual(afterInsert!.records[0]!.company_info, {
      name: 'https://delta.dev',
      website: 'https://delta.dev',
      hq_country: 'US',
      categories: ['saas'],
    });
  });

  it('reads the body as JSON whatever its Content-Type', async () => {
    for (const type of ['application/x-www-form-urlencoded', 'text/plain', 'application/json; charset=utf-8']) {
      const res = await lookup('/api/v1/funding', { websites: ['acme.io'] }, { 'content-type': type });
      assert.equal(res.statusCode, 200, `${type}: ${res.body}`);
      assert.equal(res.json().response.data[0].status, 'matched');
    }
  });

  it("a compressed body (Content-Encoding) is a 415 in the v1 shape; an error never echoes the body's bytes", async () => {
    const body = JSON.stringify({ websites: ['acme.io'] });
    const post = (payload: Buffer | string, headers: Record<string, string>) =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/v1/funding/lookup',
        headers: { 'x-lot-api-key': key, 'content-type': 'application/json', ...headers },
        payload,
      });
    const encoded: [string, Buffer][] = [
      ['gzip', gzipSync(body)],
      ['GZIP', gzipSync(body)],
      ['x-gzip', gzipSync(body)],
      ['deflate', deflateSync(body)],
      ['br', brotliCompressSync(body)],
    ];
    for (const [encoding, payload] of encoded) {
      for (const { path } of ENDPOINTS) {
        const res = await ctx.app.inject({
          method: 'POST',
          url: `${path}/lookup`,
          headers: { 'x-lot-api-key': key, 'content-type': 'application/json', 'content-encoding': encoding },
          payload,
        });
        assert.equal(res.statusCode, 415, `${path} ${encoding}: ${res.body}`);
        assert.deepEqual(res.json(), {
          code: 415,
          message: `Content-Encoding ${encoding.toLowerCase()} is not supported: send the JSON body uncompressed`,
        });
      }
    }
    const listed = await post(gzipSync(body), { 'content-encoding': 'gzip, br' });
    assert.equal(listed.statusCode, 415, listed.body);
    assert.equal(listed.json().message, 'This Content-Encoding is not supported: send the JSON body uncompressed');
    // The key is checked first, as for any other problem of the request.
    assert.equal((await post(gzipSync(body), { 'content-encoding': 'gzip', 'x-lot-api-key': 'nope' })).statusCode, 401);
    assert.equal((await post(body, { 'content-encoding': 'identity' })).statusCode, 200);

    // Compressed or binary bytes sent unlabelled are not JSON; the message says so without quoting them.
    const NOT_PRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\uFFFD]/u;
    const binary = [
      gzipSync(body),
      brotliCompressSync(body),
      randomBytes(512),
      Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x00, 0x22]),
    ];
    for (const payload of binary) {
      const res = await post(payload, {});
      assert.equal(res.statusCode, 400, res.body);
      const { message } = res.json();
      assert.match(message, /^The body is not valid JSON \(.+\)$/);
      assert.doesNotMatch(message, NOT_PRINTABLE, message);
      assert.ok(message.length < 120, message);
    }
    assert.equal(
      (await post(gzipSync(body), {})).json().message,
      "The body is not valid JSON (Unexpected token '\\u001f')",
      'the offending character, written out',
    );
  });

  describe('400 in the v1 shape, naming the problem', () => {
    const SHAPE = '{"websites": [...], "linkedin_urls": [...]}';
    const cases: [name: string, payload: string, message: string | RegExp, headers?: Record<string, string>][] = [
      ['not JSON', '{"websites": ["acme.io"', /^The body is not valid JSON \(.+\)$/],
      [
        'not JSON, as a form',
        'websites=acme.io',
        /^The body is not valid JSON/,
        { 'content-type': 'application/x-www-form-urlencoded' },
      ],
      ['empty', '', `The body is empty: send a JSON object ${SHAPE}`],
      ['blank', '  \n', `The body is empty: send a JSON object ${SHAPE}`],
      ['an array', '["acme.io"]', `The body must be a JSON object ${SHAPE}, not an array`],
      ['a string', '"acme.io"', `The body must be a JSON object ${SHAPE}, not a string`],
      ['null', 'null', `The body must be a JSON object ${SHAPE}, not null`],
      ['a number', '42', `The body must be a JSON object ${SHAPE}, not a number`],
      ['websites a string', '{"websites": "acme.io"}', 'websites must be an array of strings, not a string'],
      ['linkedin_urls an object', '{"linkedin_urls": {}}', 'linkedin_urls must be an array of strings, not an object'],
      ['a number among websites', '{"websites": ["acme.io", 7]}', 'websites[1] must be a string, not a number'],
      ['null among linkedin_urls', '{"linkedin_urls": [null]}', 'linkedin_urls[0] must be a string, not null'],
      [
        'an unknown field',
        '{"websites": ["acme.io"], "domains": ["acme.io"]}',
        'Unknown field "domains"; the body takes websites and linkedin_urls',
      ],
      ['a misspelt field', '{"website": ["acme.io"]}', 'Unknown field "website"; the body takes websites and linkedin_urls'],
      ['no field', '{}', 'No inputs: send at least one in websites or linkedin_urls'],
      ['empty arrays', '{"websites": [], "linkedin_urls": []}', 'No inputs: send at least one in websites or linkedin_urls'],
      [
        '101 websites',
        JSON.stringify({ websites: Array.from({ length: 101 }, (_, i) => `c${i}.io`) }),
        'Too many inputs: websites holds 101; at most 100 a request, websites and linkedin_urls together',
      ],
      [
        '60 websites and 41 LinkedIn pages',
        JSON.stringify({
          websites: Array.from({ length: 60 }, (_, i) => `c${i}.io`),
          linkedin_urls: Array.from({ length: 41 }, (_, i) => `linkedin.com/company/c${i}`),
        }),
        'Too many inputs: 101; at most 100 a request, websites and linkedin_urls together',
      ],
    ];
    for (const [name, payload, message, headers] of cases) {
      it(name, async () => {
        for (const { path } of ENDPOINTS) {
          const res = await lookup(path, payload, headers);
          assert.equal(res.statusCode, 400, `${path}: ${res.body}`);
          const body = res.json();
          assert.deepEqual(Object.keys(body), ['code', 'message']);
          assert.equal(body.code, 400);
          if (typeof message === 'string') assert.equal(body.message, message);
          else assert.match(body.message, message);
        }
      });
    }

    it('no body at all', async () => {
      const res = await ctx.app.inject({ method: 'POST', url: '/api/v1/funding/lookup', headers: { 'x-lot-api-key': key } });
      assert.equal(res.statusCode, 400, res.body);
      assert.deepEqual(res.json(), { code: 400, message: `The body is missing: send a JSON object ${SHAPE}` });
    });

    it('a body over 256 KiB is a 413', async () => {
      const res = await lookup('/api/v1/funding', { websites: ['x'.repeat(300 * 1024)] });
      assert.equal(res.statusCode, 413, res.body);
      assert.deepEqual(res.json(), { code: 413, message: 'The body is larger than 256 KiB (at most 100 inputs a request)' });
    });
  });

  describe('401 for a bad key, before the body is looked at', () => {
    const cases: [string, Record<string, string>][] = [
      ['empty', { 'x-lot-api-key': '' }],
      ['malformed', { 'x-lot-api-key': 'not-a-key' }],
      ['sent as Bearer instead', { 'x-lot-api-key': '', authorization: 'Bearer whatever' }],
    ];
    for (const { path } of ENDPOINTS) {
      for (const [name, headers] of cases) {
        it(`${path}/lookup: ${name}`, async () => {
          for (const payload of [{ websites: ['acme.io'] }, 'not json']) {
            const res = await lookup(path, payload, headers);
            assert.equal(res.statusCode, 401);
            assert.deepEqual(res.json(), {
              code: 401,
              message: 'Invalid or missing API key (send it in the x-lot-api-key header)',
            });
          }
        });
      }
    }
  });

  it('refuses query parameters: the inputs travel in the body', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/funding/lookup?page=2',
      headers: { 'x-lot-api-key': key },
      payload: { websites: ['acme.io'] },
    });
    assert.equal(res.statusCode, 400);
    assert.deepEqual(res.json(), {
      code: 400,
      message: 'Unknown parameter "page": the lookup takes no query parameters; send its inputs in the JSON body',
    });
  });

  it('GET on a lookup path is a 404 in the v1 shape', async () => {
    const res = await ctx.app.inject({ url: '/api/v1/funding/lookup', headers: { 'x-lot-api-key': key } });
    assert.equal(res.statusCode, 404);
    assert.equal(res.json().code, 404);
  });

  it('is documented: body, responses, key; every answer matches its OpenAPI schema', async () => {
    const spec = (await ctx.app.inject({ url: '/openapi.json' })).json();
    const ajv = new Ajv2020.default({ strict: false });
    addFormats.default(ajv);
    for (const [name, schema] of Object.entries(spec.components.schemas))
      ajv.addSchema(schema as object, `#/components/schemas/${name}`);
    for (const { path } of ENDPOINTS) {
      const operation = spec.paths[`${path}/lookup`].post;
      assert.deepEqual(operation.tags, ['v1 lookup']);
      assert.deepEqual(operation.security, [{ apiKeyHeader: [] }]);
      assert.ok(operation.requestBody.content['application/json'].schema.properties.websites, path);
      assert.ok(operation.requestBody.content['application/json'].example, `${path}: an example body`);
      for (const status of ['200', '400', '401', '413', '429']) assert.ok(operation.responses[status], `${path}: ${status}`);
      const validate = ajv.compile(operation.responses['200'].content['application/json'].schema);
      const res = await lookup(path, {
        websites: ['acme.io', 'nothing.example', 'https://'],
        linkedin_urls: ['linkedin.com/company/gamma'],
      });
      assert.ok(validate(res.json()), `${path}: ${JSON.stringify(validate.errors)}`);
      // The check is real: a record missing a required field fails it.
      const broken = res.json();
      delete broken.response.data[0].records[0].date_seen;
      delete broken.response.data[0].records[0].company_name;
      assert.equal(validate(broken), false);
    }
  });
});

describeOnOneStore('v1 lookup and the rate limit', (backend) => {
  let ctx: TestContext;

  before(async () => {
    ctx = await startApp(backend, { RATE_LIMITS: 'true', RATE_LIMIT_V1: '3' });
  });
  after(() => ctx.close());

  it('one request is one slot, whatever the number of inputs', async () => {
    const { key } = await makeKey(ctx.db);
    const websites = Array.from({ length: 100 }, (_, i) => `c${i}.io`);
    const post = (path: string) =>
      ctx.app.inject({
        method: 'POST',
        url: `${path}/lookup`,
        headers: { 'x-lot-api-key': key, 'content-type': 'application/json' },
        payload: { websites },
      });
    const first = await post('/api/v1/funding');
    assert.equal(first.statusCode, 200, first.body);
    assert.equal(first.json().response.data.length, 100);
    assert.deepEqual([first.headers['x-ratelimit-limit'], first.headers['x-ratelimit-remaining']], ['3', '2']);
    const second = await post('/api/v1/m-a');
    assert.equal(second.headers['x-ratelimit-remaining'], '1');
    // The list endpoints share the same window.
    const listed = await ctx.app.inject({ url: '/api/v1/funding', headers: { 'x-lot-api-key': key } });
    assert.equal(listed.headers['x-ratelimit-remaining'], '0');
    const refused = await post('/api/v1/funding');
    assert.equal(refused.statusCode, 429);
    assert.deepEqual(refused.json(), {
      code: 429,
      message: 'Rate limit exceeded: a maximum of 3 requests per minute is allowed',
    });
  });
});

describeOnOneStore('v1 lookup: the documented example bodies on the demo data', (backend) => {
  let ctx: TestContext;

  before(async () => {
    ctx = await startDemoApp(backend);
  });
  after(() => ctx.close());

  it('find records for every input but the one made up', async () => {
    const { key } = await makeKey(ctx.db);
    const spec = (await ctx.app.inject({ url: '/openapi.json' })).json();
    for (const { path } of ENDPOINTS) {
      const example = spec.paths[`${path}/lookup`].post.requestBody.content['application/json'].example;
      const res = await ctx.app.inject({
        method: 'POST',
        url: `${path}/lookup`,
        headers: { 'x-lot-api-key': key, 'content-type': 'application/json' },
        payload: example,
      });
      assert.equal(res.statusCode, 200, res.body);
      const statuses = res.json().response.data.map((r: Result) => `${r.input}: ${r.status}`);
      assert.deepEqual(
        statuses,
        [...example.websites, ...example.linkedin_urls].map(
          (input: string) => `${input}: ${input === 'no-such-company.example' ? 'no_match' : 'matched'}`,
        ),
        path,
      );
    }
  });
});
