// The CSV enrichment API over HTTP on both stores: a job matches each company by website domain,
// LinkedIn page or name (and country), reports a name several companies share instead of guessing,
// carries each company's signals as the lists serve them, and validates against the published
// schemas; it costs 1 credit when accepted and nothing to poll; every error has its published code;
// a job is worked on by whichever instance runs a worker, and one whose worker stopped mid-way is
// taken over from its last chunk.
import assert from 'node:assert/strict';
import { after, before, beforeEach, it } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { acquisitionRecord, companyRecord, hiringRecord, jobChangeRecord } from '../fixtures.js';
import { buildApp } from '../../src/app.js';
import { clearData, describeEach, makeKey, startApp, testConfig, type TestContext } from '../helpers.js';
import { ADMIN_TOKEN, importRecords } from '../ingest/support.js';
import { documentValidator, publishedSchemasMissing } from '../v2/published-schemas.js';
import { startReceiver, verifyBoth } from '../webhooks/receiver.js';

const PUBLISHED = new URL('../../../shared/reference/signals-openapi-2026-07/openapi.json', import.meta.url);
const validator = (schema: string) => (publishedSchemasMissing ? undefined : documentValidator(PUBLISHED, schema));

const ACME = companyRecord({
  name: 'Acme Robotics',
  website: 'https://www.acme-robotics.com',
  linkedinUrl: 'https://www.linkedin.com/company/acme-robotics',
  headquartersCountry: 'US',
  industry: 'Robotics Engineering',
  employeeCount: 250,
});
const NORTH = companyRecord({
  name: 'Northwind',
  website: null,
  linkedinUrl: 'https://www.linkedin.com/company/northwind',
  headquartersCountry: 'DE',
});
const TWIN_US = companyRecord({
  name: 'Twin Labs',
  website: 'https://twinlabs.us',
  linkedinUrl: null,
  headquartersCountry: 'US',
});
const TWIN_GB = companyRecord({
  name: 'Twin Labs Ltd',
  website: 'https://twinlabs.co.uk',
  linkedinUrl: null,
  headquartersCountry: 'GB',
});

interface ResultShape {
  input: Record<string, string>;
  matched: boolean;
  companyId: string | null;
  company: object | null;
  match_confidence: string;
  matchedField: string | null;
  candidates?: { companyId: string }[];
  signals: Record<string, { id: string; match_confidence?: string }[]>;
  signalCounts: Record<string, number>;
}

interface Job {
  jobId: string;
  status: string;
  progress: { processed: number; total: number };
  summary: Record<string, number>;
  results: Record<string, unknown>[];
  nextCursor: string | null;
  detectedMapping?: Record<string, string | null>;
  error?: { code: string };
}

describeEach('csv enrichment', (backend) => {
  let ctx: TestContext;
  let key: string;
  let accountId: number;
  const getJob = validator('Csv_CSVEnrichmentGetResponse');
  const created = validator('Csv_CSVEnrichmentCreateResponse');
  const finishedInline = validator('Csv_CSVEnrichmentJobWithMapping');
  const createMeta = validator('Csv_CreateMeta');
  const errorBody = validator('Csv_ErrorResponse');

  const request = async (method: 'GET' | 'POST', url: string, body?: object, bearer = key) => {
    const res = await ctx.app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${bearer}`, ...(body && { 'content-type': 'application/json' }) },
      ...(body && { payload: JSON.stringify(body) }),
    });
    return { status: res.statusCode, body: res.json() as Record<string, unknown>, credits: res.headers['x-credits-remaining'] };
  };
  const balance = async () =>
    (await ctx.db.query<{ n: number }>('SELECT credits_remaining::int AS n FROM accounts WHERE id = $1', [accountId]))[0]!.n;
  const importKind = (kind: string, records: object[]) => importRecords(ctx.app, kind, records);
  /** Every result of the job, read page by page through nextCursor. */
  const allResults = async (jobId: string, limit: number) => {
    const results: Record<string, unknown>[] = [];
    let cursor: string | null = null;
    for (let pages = 0; pages < 100; pages++) {
      const res = await request('GET', `/api/v2/csv-enrichment/${jobId}?limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      if (getJob) assert.ok(getJob(res.body), JSON.stringify(getJob.errors?.slice(0, 3)));
      const data = res.body.data as Job;
      results.push(...data.results);
      cursor = data.nextCursor;
      if (cursor === null) return { results, job: data };
    }
    throw new Error('no end of pages');
  };
  const waitUntilDone = async (jobId: string) => {
    for (let i = 0; i < 400; i++) {
      const data = (await request('GET', `/api/v2/csv-enrichment/${jobId}`)).body.data as Job;
      if (data.status === 'completed' || data.status === 'failed') return data;
      await delay(25);
    }
    throw new Error(`job ${jobId} did not finish`);
  };

  before(async () => {
    ctx = await startApp(backend, {
      ADMIN_TOKEN,
      LOAD_SHED_EVENT_LOOP_DELAY_MS: '0',
      ENRICHMENT_WORKER: 'true',
      ENRICHMENT_POLL_MS: '50',
      WEBHOOK_DELIVERY: 'true',
      WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8',
      WEBHOOK_POLL_MS: '50',
    });
    const made = await makeKey(ctx.db, 'enterprise');
    key = made.key;
    accountId = made.accountId;
  });
  after(() => ctx.close());
  beforeEach(async () => {
    await clearData(ctx.db);
    await importKind('companies', [ACME, NORTH, TWIN_US, TWIN_GB]);
  });

  it('matches by domain, LinkedIn page and name, reports shared names, and carries the signals; 1 credit, polling free', async () => {
    const posting = hiringRecord({ companyName: 'Acme', companyWebsite: 'https://acme-robotics.com' });
    const older = hiringRecord({
      companyName: 'Acme',
      companyWebsite: 'https://acme-robotics.com',
      createdAt: '2024-01-01T00:00:00.000Z',
    });
    await importKind('hiring', [posting, older]);
    await importKind('acquisitions', [
      acquisitionRecord({ companyName: 'Acme', website: 'http://acme-robotics.com', linkedinUrl: null }),
    ]);
    await importKind('job-changes', [
      jobChangeRecord({ companyName: 'Northwind', companyLinkedinUrl: 'https://linkedin.com/company/northwind/' }),
    ]);
    const charged = async () =>
      (
        await ctx.db.query<{ n: number }>(
          `SELECT coalesce(-sum(delta), 0)::int AS n FROM credit_ledger WHERE account_id = $1 AND endpoint = 'csv.enrichment'`,
          [accountId],
        )
      )[0]!.n;
    const chargedBefore = await charged();
    const companies = [
      { company_name: 'Whatever Inc', domain: 'HTTPS://www.Acme-Robotics.com/', external_id: 'acct_1', score: 5, owner: null },
      { name: 'Northwind', linkedin: 'https://www.linkedin.com/company/northwind' },
      { company_name: 'Twin Labs' },
      { company_name: 'Twin Labs', country: 'United Kingdom' },
      { company_name: 'Nobody Knows Co', website_url: 'nobody.example' },
    ];
    const res = await request('POST', '/api/v2/csv-enrichment', { fileName: 'targets.csv', wait: true, timeout: 10, companies });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const data = res.body.data as Job;
    if (finishedInline) assert.ok(finishedInline(data), JSON.stringify(finishedInline.errors?.slice(0, 3)));
    if (createMeta) assert.ok(createMeta(res.body.meta), JSON.stringify(res.body.meta));
    const left = await balance();
    assert.deepEqual(res.body.meta, { endpoint: 'csv.enrichment', creditsUsed: 1, creditsRemaining: left });
    assert.equal(await charged(), chargedBefore + 1);
    // The alias most rows use; on a tie (domain and website_url, one row each) the first published one.
    assert.deepEqual(data.detectedMapping, { companyName: 'company_name', websiteUrl: 'website_url', linkedinUrl: 'linkedin' });
    assert.deepEqual([data.status, data.progress], ['completed', { processed: 5, total: 5 }]);
    assert.deepEqual(data.summary, {
      totalInputs: 5,
      matched: 3,
      unmatched: 2,
      withFundingSignals: 0,
      withAcquisitionSignals: 1,
      withHiringSignals: 1,
      withJobChangeSignals: 1,
      ambiguous: 1,
    });
    const [acme, north, twins, twinGb, nobody] = data.results as unknown as ResultShape[];
    // Times as every answer writes them; the counts and each input's fields in their order.
    assert.match(String((data as unknown as { submittedAt: string }).submittedAt), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.deepEqual(Object.keys(data.summary).slice(0, 3), ['totalInputs', 'matched', 'unmatched']);
    // Every field kept, as strings, in the order sent; null left out.
    assert.deepEqual(acme!.input, {
      company_name: 'Whatever Inc',
      domain: 'HTTPS://www.Acme-Robotics.com/',
      external_id: 'acct_1',
      score: '5',
    });
    assert.deepEqual(Object.keys(acme!.input), ['company_name', 'domain', 'external_id', 'score']);
    assert.deepEqual(
      [acme!.matched, acme!.companyId, acme!.match_confidence, acme!.matchedField],
      [true, ACME.id, 'exact', 'domain'],
    );
    assert.deepEqual(acme!.company, {
      name: 'Acme Robotics',
      domain: 'acme-robotics.com',
      industry: 'Robotics Engineering',
      country: 'US',
      employeeCount: 250,
    });
    // The postings as /signals/hiring serves them, newest first.
    assert.deepEqual(
      acme!.signals.hiring!.map((p) => [p.id, p.match_confidence]),
      [
        [posting.id, 'none'],
        [older.id, 'none'],
      ],
    );
    assert.deepEqual(acme!.signalCounts, { funding: 0, acquisition: 1, hiring: 2, job_change: 0, investors: 0 });
    assert.deepEqual(
      [north!.companyId, north!.match_confidence, north!.matchedField, north!.signalCounts.job_change],
      [NORTH.id, 'exact', 'linkedin', 1],
    );
    assert.deepEqual([twins!.matched, twins!.companyId, twins!.match_confidence, twins!.company], [false, null, 'none', null]);
    assert.deepEqual(twins!.candidates!.map((c) => c.companyId).sort(), [TWIN_US.id, TWIN_GB.id].sort());
    assert.deepEqual([twinGb!.companyId, twinGb!.match_confidence, twinGb!.matchedField], [TWIN_GB.id, 'fuzzy', 'company_name']);
    assert.deepEqual([nobody!.matched, nobody!.match_confidence, nobody!.candidates], [false, 'none', undefined]);

    // Polling is free; the pages of 2 give every result once, in order.
    const read = await request('GET', `/api/v2/csv-enrichment/${data.jobId}`);
    assert.deepEqual(read.body.meta, { endpoint: 'csv.enrichment.get', creditsUsed: 0 });
    assert.equal(read.credits, String(left));
    assert.equal(await charged(), chargedBefore + 1);
    const { results } = await allResults(data.jobId, 2);
    assert.deepEqual(results, data.results);
  });

  it('a job without wait is accepted at once and finished by the worker; one with no worker answers as accepted', async () => {
    const res = await request('POST', '/api/v2/csv-enrichment', { companies: [{ website: 'acme-robotics.com' }] });
    if (created) assert.ok(created(res.body), JSON.stringify(created.errors?.slice(0, 3)));
    const accepted = res.body.data as Job;
    assert.deepEqual(Object.keys(accepted).sort(), ['detectedMapping', 'jobId']);
    const done = await waitUntilDone(accepted.jobId);
    assert.deepEqual([done.status, done.summary.matched, done.results[0]!.companyId], ['completed', 1, ACME.id]);

    // An instance without a worker: wait=true runs out and answers as accepted; an instance with one takes the job.
    const idle = await buildApp({ config: testConfig({ ENRICHMENT_WORKER: 'false' }), db: ctx.db });
    await idle.ready();
    await ctx.app.close().catch(() => undefined);
    try {
      const res2 = await idle.inject({
        method: 'POST',
        url: '/api/v2/csv-enrichment',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        payload: JSON.stringify({ wait: true, timeout: 1, companies: [{ name: 'Northwind' }] }),
      });
      const waiting = res2.json() as { data: Job };
      assert.deepEqual(Object.keys(waiting.data).sort(), ['detectedMapping', 'jobId']);
      const pending = await idle.inject({
        url: `/api/v2/csv-enrichment/${waiting.data.jobId}`,
        headers: { authorization: `Bearer ${key}` },
      });
      const job = (pending.json() as { data: Job }).data;
      assert.deepEqual(
        [job.status, job.progress, job.results, job.nextCursor],
        ['pending', { processed: 0, total: 1 }, [], 'r0'],
      );
      const worker = await buildApp({ config: testConfig({ ENRICHMENT_WORKER: 'true', ENRICHMENT_POLL_MS: '50' }), db: ctx.db });
      await worker.ready();
      try {
        ctx.app = worker;
        const finished = await waitUntilDone(waiting.data.jobId);
        assert.deepEqual([finished.status, finished.results[0]!.companyId], ['completed', NORTH.id]);
      } finally {
        await worker.close();
      }
    } finally {
      await idle.close();
      // The suite's own app again, for the tests after.
      ctx.app = await buildApp({ config: ctx.config, db: ctx.db });
      await ctx.app.ready();
    }
  });

  it('a finished job raises enrichment.completed, signed, to the webhooks subscribed to it, and costs nothing more', async () => {
    const receiver = await startReceiver();
    try {
      const hook = await request('POST', '/api/v2/webhooks', {
        endpoint_url: receiver.url,
        event_types: ['enrichment.completed'],
      });
      assert.equal(hook.status, 201, JSON.stringify(hook.body));
      const { id: webhookId, secret } = hook.body.data as { id: string; secret: string };
      const before = await balance();
      const job = (
        await request('POST', '/api/v2/csv-enrichment', {
          fileName: 'crm.csv',
          companies: [{ domain: 'acme-robotics.com' }, { name: 'Nobody' }],
        })
      ).body.data as Job;
      const [delivery] = await receiver.waitFor(1, 10_000);
      const event = verifyBoth(secret, delivery!);
      assert.equal(event.event_type, 'enrichment.completed');
      const data = event.data as { jobId: string; status: string; fileName: string; summary: Record<string, number> };
      assert.deepEqual([data.jobId, data.status, data.fileName], [job.jobId, 'completed', 'crm.csv']);
      assert.deepEqual([data.summary.totalInputs, data.summary.matched, data.summary.unmatched], [2, 1, 1]);
      // The job's credit, and nothing for the event.
      await delay(200);
      assert.equal(await balance(), before - 1);
      const log = await request('GET', `/api/v2/webhooks/${webhookId}/deliveries`);
      assert.deepEqual(
        (log.body.data as { event_type: string; status: string }[]).map((d) => [d.event_type, d.status]),
        [['enrichment.completed', 'done']],
      );
      await ctx.app.inject({
        method: 'DELETE',
        url: `/api/v2/webhooks/${webhookId}`,
        headers: { authorization: `Bearer ${key}` },
      });
    } finally {
      await receiver.close();
    }
  });

  it('every error has its published code; a refused request costs nothing and stores nothing', async () => {
    const before = await balance();
    const jobsBefore = (await ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM enrichment_jobs'))[0]!.n;
    const expectError = async (res: { status: number; body: Record<string, unknown> }, status: number, code: string) => {
      assert.deepEqual([res.status, res.body.success, res.body.code], [status, false, code], JSON.stringify(res.body));
      if (errorBody) assert.ok(errorBody(res.body), JSON.stringify(errorBody.errors?.slice(0, 3)));
    };
    const noIdentifier = await request('POST', '/api/v2/csv-enrichment', {
      companies: [{ name: 'Acme' }, { external_id: 'x', website: '  ' }],
    });
    await expectError(noIdentifier, 400, 'invalid_company_payload');
    assert.match(String(noIdentifier.body.error), /companies\[1\]/);
    await expectError(await request('POST', '/api/v2/csv-enrichment', { companies: [] }), 400, 'invalid_company_payload');
    const tooMany = Array.from({ length: 1001 }, (_, i) => ({ name: `Company ${i}` }));
    await expectError(await request('POST', '/api/v2/csv-enrichment', { companies: tooMany }), 400, 'invalid_company_payload');
    await expectError(
      await request('POST', '/api/v2/csv-enrichment', { companies: [{ name: 'A' }], timeout: 31 }),
      400,
      'invalid_company_payload',
    );
    await expectError(
      await request('POST', '/api/v2/csv-enrichment', { companies: [{ name: 'A' }] }, 'not-a-key'),
      401,
      'invalid_api_key',
    );
    assert.equal(await balance(), before);
    assert.equal((await ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM enrichment_jobs'))[0]!.n, jobsBefore);

    // Another account's job, a job that never was and an id that is no UUID are all not found.
    const mine = ((await request('POST', '/api/v2/csv-enrichment', { companies: [{ name: 'Acme' }] })).body.data as Job).jobId;
    const other = (await makeKey(ctx.db, 'enterprise')).key;
    await expectError(await request('GET', `/api/v2/csv-enrichment/${mine}`, undefined, other), 404, 'job_not_found');
    await expectError(await request('GET', '/api/v2/csv-enrichment/7f4b7a34-8d65-4cc3-8ab0-3477f8a967a6'), 404, 'job_not_found');
    await expectError(await request('GET', '/api/v2/csv-enrichment/not-a-job'), 404, 'job_not_found');
    // What answers before any route (a path under the API no route has) speaks the API's codes too.
    await expectError(await request('GET', '/api/v2/csv-enrichment/not-a-job/results'), 404, 'job_not_found');
    await expectError(await request('GET', `/api/v2/csv-enrichment/${mine}?cursor=zzz`), 400, 'invalid_company_payload');
    await expectError(await request('GET', `/api/v2/csv-enrichment/${mine}?limit=101`), 400, 'invalid_company_payload');
    // Past its retention: 410, before and after the pruning drops its results.
    await waitUntilDone(mine);
    await ctx.db.query(`UPDATE enrichment_jobs SET expires_at = now() - interval '1 second' WHERE id = $1`, [mine]);
    await expectError(await request('GET', `/api/v2/csv-enrichment/${mine}`), 410, 'job_expired');
    const { expireJobs } = await import('../../src/enrichment/index.js');
    assert.equal(await expireJobs(ctx.db), 1);
    await expectError(await request('GET', `/api/v2/csv-enrichment/${mine}`), 410, 'job_expired');
    assert.equal(
      (await ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM enrichment_results WHERE job_id = $1', [mine]))[0]!.n,
      0,
    );

    // No credits left: 402, and nothing stored.
    await ctx.db.query(
      `UPDATE accounts SET credits_remaining = 0, credits_period = date_trunc('month', now() AT TIME ZONE 'UTC')::date WHERE id = $1`,
      [accountId],
    );
    const jobs = (await ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM enrichment_jobs'))[0]!.n;
    await expectError(
      await request('POST', '/api/v2/csv-enrichment', { companies: [{ name: 'Acme' }] }),
      402,
      'insufficient_credits',
    );
    assert.equal((await ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM enrichment_jobs'))[0]!.n, jobs);
    await ctx.db.query(`UPDATE accounts SET credits_remaining = 100000 WHERE id = $1`, [accountId]);
  });
});
