import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, beforeEach, describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { acquisitionRecord, fundingRecord, jobChangeRecord } from '../fixtures.js';
import { clearData, describeEach, makeKey, describeOnOneStore } from '../helpers.js';
import { BATCH_ROWS } from '../../src/ingest/importer.js';
import { ADMIN_TOKEN, count, ndjson, snapshot, startAdminApp, WriteProbe, type AdminContext } from './support.js';

describeEach('POST /admin/ingest/:kind', (backend) => {
  let ctx: AdminContext;
  let customerKey: string;
  const logs: string[] = [];
  const probe = new WriteProbe();

  const post = (kind: string, body: string | Buffer, headers: Record<string, string> = {}, query = '') =>
    ctx.app.inject({
      method: 'POST',
      url: `/admin/ingest/${kind}${query}`,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/x-ndjson', ...headers },
      payload: body,
    });

  before(async () => {
    ctx = await startAdminApp(probe.backend(backend), true, logs);
    customerKey = (await makeKey(ctx.db, 'enterprise')).key;
  });
  after(() => ctx.close());
  beforeEach(() => clearData(ctx.db));

  it('refuses anything but the admin token with 403, before reading the body, and changes nothing', async () => {
    await post('funding', ndjson([fundingRecord()]));
    const before = await snapshot(ctx.db);
    const attempts: Record<string, string>[] = [
      { authorization: '' },
      { authorization: `Bearer ${ADMIN_TOKEN}x` },
      { authorization: `Bearer ${ADMIN_TOKEN.slice(0, -1)}` },
      { authorization: ADMIN_TOKEN },
      { authorization: `Basic ${Buffer.from(`admin:${ADMIN_TOKEN}`).toString('base64')}` },
      { authorization: `Bearer ${customerKey}` },
      { authorization: '', 'x-lot-api-key': customerKey },
    ];
    for (const headers of attempts) {
      const res = await post('funding', ndjson([fundingRecord()]), headers);
      assert.equal(res.statusCode, 403, JSON.stringify(headers));
      assert.deepEqual(res.json(), { error: 'Forbidden: admin routes need Authorization: Bearer <ADMIN_TOKEN>' });
    }
    const unknownPath = await ctx.app.inject({
      method: 'GET',
      url: '/admin/anything',
      headers: { authorization: `Bearer ${customerKey}` },
    });
    assert.equal(unknownPath.statusCode, 403);
    assert.deepEqual(await snapshot(ctx.db), before);
  });

  it('an import is served at once: first on page 1, and the total count includes it', async () => {
    const v1 = () => ctx.app.inject({ method: 'GET', url: '/api/v1/funding', headers: { 'x-lot-api-key': customerKey } });
    await post(
      'funding',
      ndjson([fundingRecord({ date_seen: '2025-01-01T00:00:00Z' }), fundingRecord({ date_seen: '2025-02-01T00:00:00Z' })]),
    );
    const before = await v1(); // also caches the count for this data version
    assert.equal(before.headers['x-total-count'], '2');

    const fresh = fundingRecord({ company_name: 'Just Announced', date_seen: new Date().toISOString() });
    const res = await post('funding', ndjson([fresh]));
    assert.equal(res.statusCode, 200);
    const report = res.json();
    assert.deepEqual(
      [report.kind, report.received, report.inserted, report.updated, report.unchanged, report.rejected, report.committed],
      ['funding', 1, 1, 0, 0, 0, true],
    );
    assert.equal(res.headers['cache-control'], 'no-store');

    const after = await v1();
    assert.equal(after.headers['x-total-count'], '3');
    assert.equal(after.json().response.data[0].company_name, 'Just Announced');
  });

  it('derived fields are filled: a job change is found by its classified position', async () => {
    const change = jobChangeRecord({ personName: 'Classified Person', newRole: 'VP of Engineering' });
    assert.equal((await post('job-changes', ndjson([change, jobChangeRecord({ newRole: 'Barista' })]))).statusCode, 200);
    const res = await ctx.app.inject({
      method: 'GET',
      url: '/api/v2/signals/job-changes?positions=vp%20of%20engineering',
      headers: { authorization: `Bearer ${customerKey}` },
    });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(
      res.json().data.map((d: { personName: string }) => d.personName),
      ['Classified Person'],
    );
  });

  it('422 with the report when records are rejected (nothing changes); skipInvalid=true imports the rest', async () => {
    const body = ndjson([acquisitionRecord(), '{"id": 1', acquisitionRecord({ lastUpdated: '2025-02-30T00:00:00Z' })]);
    const rejected = await post('acquisitions', body);
    assert.equal(rejected.statusCode, 422);
    const report = rejected.json();
    assert.deepEqual([report.committed, report.failure, report.rejected, report.inserted], [false, 'invalid-records', 2, 0]);
    assert.deepEqual(
      report.rejects.map((r: { line: number }) => r.line),
      [2, 3],
    );
    assert.equal(await count(ctx.db, 'acquisition_signals'), 0);

    const skipped = await post('acquisitions', body, {}, '?skipInvalid=true');
    assert.equal(skipped.statusCode, 200);
    assert.deepEqual([skipped.json().inserted, skipped.json().rejected], [1, 2]);
    assert.equal(await count(ctx.db, 'acquisition_signals'), 1);
  });

  it('all-or-nothing across write batches: a bad record after more than a full batch → 422, the store as before', async () => {
    const stored = [fundingRecord(), fundingRecord(), fundingRecord()];
    assert.equal((await post('funding', ndjson(stored))).statusCode, 200);
    const before = await snapshot(ctx.db);
    const good = [
      ...stored.map((r) => ({ ...r, funding_amount: 7_777_777 })),
      ...Array.from({ length: BATCH_ROWS.funding * 2 + 50 }, () => fundingRecord()),
    ];
    probe.rowsWritten = 0;
    const res = await post('funding', ndjson([...good, { ...fundingRecord(), funding_amount: -1 }, fundingRecord()]));
    assert.equal(res.statusCode, 422, res.body.slice(0, 300));
    assert.ok(probe.rowsWritten >= BATCH_ROWS.funding, `${probe.rowsWritten} rows written before the rollback`);
    const report = res.json();
    assert.deepEqual([report.committed, report.rejected, report.rejects[0].line], [false, 1, good.length + 1]);
    assert.deepEqual(await snapshot(ctx.db), before);
  });

  it('a record with several problems is reported with every one of them', async () => {
    const broken = { ...acquisitionRecord(), companyName: 7, lastUpdated: '2025-02-30T00:00:00Z', score: 90 };
    const res = await post('acquisitions', ndjson([acquisitionRecord(), broken]));
    assert.equal(res.statusCode, 422);
    const [reject] = res.json().rejects;
    assert.deepEqual([...reject.problems].sort(), [
      'companyName: Expected string (got 7)',
      'lastUpdated: must be a date-time that exists, with a time zone (e.g. 2025-06-01T12:00:00Z) (got "2025-02-30T00:00:00Z")',
      'score: unknown field (not part of the acquisitions record)',
    ]);
    assert.equal(reject.reason, `line 2: ${reject.problems.join('; ')}`);
    assert.equal(await count(ctx.db, 'acquisition_signals'), 0);
  });

  it('takes JSON arrays, gzip, and the ndjson, json and plain-text content types', async () => {
    const array = JSON.stringify([fundingRecord(), fundingRecord()]);
    assert.equal((await post('funding', array, { 'content-type': 'application/json' })).json().inserted, 2);
    const zipped = await post('funding', gzipSync(ndjson([fundingRecord()])), {
      'content-encoding': 'gzip',
      'content-type': 'text/plain',
    });
    assert.equal(zipped.statusCode, 200);
    assert.equal(zipped.json().inserted, 1);
    const empty = await post('funding', '', { 'content-type': 'application/x-ndjson' });
    assert.deepEqual([empty.statusCode, empty.json().received, empty.json().format], [200, 0, 'empty']);
    assert.equal(await count(ctx.db, 'funding_rounds'), 3);
  });

  it('streams uploads far larger than the JSON body limit of the API', async () => {
    const records = Array.from({ length: 3000 }, () => fundingRecord());
    const body = ndjson(records);
    assert.ok(body.length > 2 * 1024 * 1024);
    const res = await post('funding', body);
    assert.equal(res.statusCode, 200, res.body.slice(0, 200));
    assert.equal(res.json().inserted, 3000);
  });

  it('unknown kind → 404 listing the kinds; bad parameters → 400; other media → 415', async () => {
    const unknown = await post('mergers', ndjson([fundingRecord()]));
    assert.equal(unknown.statusCode, 404);
    assert.deepEqual(unknown.json(), {
      error: 'Unknown kind "mergers"; kinds: funding, m-a, investors, job-changes, acquisitions, companies, hiring',
    });

    const badFlag = await post('funding', ndjson([fundingRecord()]), {}, '?skipInvalid=maybe');
    assert.equal(badFlag.statusCode, 400);
    assert.match(badFlag.json().error, /skipInvalid must be true or false/);
    const unknownParam = await post('funding', ndjson([fundingRecord()]), {}, '?dryRun=true');
    assert.equal(unknownParam.statusCode, 400);
    assert.match(unknownParam.json().error, /Unknown parameter "dryRun"/);

    const form = await post('funding', 'a=b', { 'content-type': 'application/x-www-form-urlencoded' });
    assert.equal(form.statusCode, 415);
    assert.match(form.json().error, /Unsupported Content-Type/);
    const brotli = await post('funding', 'x', { 'content-encoding': 'br' });
    assert.equal(brotli.statusCode, 415);
    assert.equal(await count(ctx.db, 'funding_rounds'), 0);
  });

  it('a truncated upload (the client goes away mid-body, after more than a write batch) is rolled back: nothing changes', async () => {
    const stored = [fundingRecord(), fundingRecord()];
    await post('funding', ndjson(stored));
    const before = await snapshot(ctx.db);
    const address = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = new URL(address);
    // Complete records, changes of stored ones among them, in the part that is sent: taking the
    // cut as the end would import them. More than a full batch is sent, and written, before the cut.
    const records = [
      ...stored.map((r) => ({ ...r, funding_amount: 7_777_777 })),
      ...Array.from({ length: BATCH_ROWS.funding * 3 + 100 }, () => fundingRecord()),
    ];
    const body = Buffer.from(ndjson(records));
    const sent = Buffer.from(ndjson(records.slice(0, BATCH_ROWS.funding * 2 + 100)));
    probe.rowsWritten = 0;
    const logsBefore = logs.length;
    await new Promise<void>((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1', () => {
        socket.write(
          `POST /admin/ingest/funding HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${ADMIN_TOKEN}\r\n` +
            `Content-Type: application/x-ndjson\r\nContent-Length: ${body.length}\r\n\r\n`,
        );
        socket.write(sent, async () => {
          // Cut only once the server has written a batch inside the import's transaction.
          const deadline = Date.now() + 10_000;
          while (probe.rowsWritten < BATCH_ROWS.funding && Date.now() < deadline) {
            await new Promise((r) => setTimeout(r, 10));
          }
          socket.destroy();
        });
      });
      socket.on('close', () => resolve());
      socket.on('error', reject);
    });
    assert.ok(probe.rowsWritten >= BATCH_ROWS.funding, `${probe.rowsWritten} rows written before the cut`);
    // Wait for the server to finish with the request (its import logs the outcome).
    const deadline = Date.now() + 10_000;
    while (!logs.slice(logsBefore).some((line) => line.includes('"ingest"')) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    const outcome = logs.slice(logsBefore).find((line) => line.includes('"ingest"'));
    assert.ok(outcome, 'the import finished');
    assert.match(outcome, /"failure":"input-interrupted"/);
    assert.match(outcome, /"committed":false/);
    assert.deepEqual(await snapshot(ctx.db), before);
  });
});

describeOnOneStore('admin routes without ADMIN_TOKEN', (backend) => {
  let ctx: AdminContext;
  before(async () => {
    ctx = await startAdminApp(backend, false);
  });
  after(() => ctx.close());

  it('are not there at all: 404, and nothing changes', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/admin/ingest/funding',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/x-ndjson' },
      payload: ndjson([fundingRecord()]),
    });
    assert.equal(res.statusCode, 404);
    assert.equal(await count(ctx.db, 'funding_rounds'), 0);
  });
});

describe('the customer families are unaffected by the admin scope', () => {
  it('v1 still parses nothing it should not: a POST there stays a 404 in the v1 shape', async () => {
    const { backends } = await import('../helpers.js');
    const ctx = await startAdminApp(backends()[0]!, true);
    try {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/v1/funding',
        headers: { 'content-type': 'application/json' },
        payload: '{}',
      });
      assert.equal(res.statusCode, 404);
      assert.equal(res.json().code, 404);
    } finally {
      await ctx.close();
    }
  });
});
