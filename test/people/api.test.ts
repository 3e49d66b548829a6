// GET /api/v2/people over HTTP on both stores: people from job changes and from the people funding
// rounds and deals name, one per LinkedIn profile in their newest role, each filter, the matched
// signal and is_latest_signal, the window and its all-time default for lookups, credits, ETag/304,
// the published 400s, changes followed, and every answer checked against people.openapi.json.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { companyRecord, fundingRecord, jobChangeRecord, maRecord } from '../fixtures.js';
import { describeEach, makeKey, startApp, type TestContext } from '../helpers.js';
import { ADMIN_TOKEN, importRecords } from '../ingest/support.js';
import { documentValidator, publishedSchemasMissing } from '../v2/published-schemas.js';

const NOW = new Date('2026-06-30T12:00:00Z');
const PUBLISHED = new URL('../../../shared/reference/signals-openapi-2026-07/people.openapi.json', import.meta.url);

interface Person {
  name: string | null;
  linkedin_url: string | null;
  title: string | null;
  company: {
    name: string | null;
    domain: string | null;
    country: string | null;
    size_band: string | null;
    industry: string | null;
  };
  is_latest_signal: boolean;
  matched_signal: { type: string; date: string; summary: string; source_url: string | null };
}
interface Page {
  success: boolean;
  data: Person[];
  pagination: { totalCount: number; totalPages: number; currentPage: number; hasNextPage: boolean };
  meta: { endpoint: string; creditsUsed: number; creditsRemaining?: number };
}

const acme = companyRecord({
  name: 'Acme Robotics',
  website: 'https://www.acme.io',
  linkedinUrl: 'https://www.linkedin.com/company/acme-robotics',
  headquartersCountry: 'US',
  employeeCount: 80,
  industry: 'Robotics',
});
const beta = companyRecord({
  name: 'Beta Pay',
  website: 'https://betapay.de',
  linkedinUrl: 'https://www.linkedin.com/company/beta-pay',
  headquartersCountry: 'DE',
  employeeCount: 300,
  industry: 'Financial Services',
});
const cold = companyRecord({
  name: 'Cold Corp',
  website: 'https://cold.example',
  linkedinUrl: 'https://www.linkedin.com/company/cold-corp',
  headquartersCountry: 'CN',
  employeeCount: 20,
  industry: 'Software',
});
const employee = (name: string, title: string, slug: string | null) => ({
  name,
  title,
  linkedin_url: slug === null ? null : `https://www.linkedin.com/in/${slug}`,
});
const acmeRound = fundingRecord({
  company_name: 'Acme Robotics',
  round_type: 'series a',
  funding_amount: 12_000_000,
  ceo: 'Alan Acme',
  investors: [{ name: 'Accel' }],
  company_info: { name: 'Acme Robotics', website: 'https://acme.io' },
  contact_info: [
    {
      company_linkedin_url: 'https://www.linkedin.com/company/acme-robotics',
      employees: [
        employee('Jane Doe', 'CTO', 'jane-doe'),
        employee('Bob Brown', 'Operations Coordinator', 'bob-brown'),
        employee('Carol White', 'Assistant to the CEO', 'carol-white'),
      ],
    },
  ],
  date_seen: '2026-05-01T09:00:00.000Z',
});
const coldRound = fundingRecord({
  company_name: 'Cold Corp',
  company_info: { name: 'Cold Corp', website: 'https://cold.example' },
  ceo: null,
  contact_info: [
    {
      company_linkedin_url: 'https://www.linkedin.com/company/cold-corp',
      employees: [employee('Finn Gray', 'Software Engineer', 'finn-gray')],
    },
  ],
  date_seen: '2024-01-01T09:00:00.000Z',
});
const betaDeal = maRecord({
  company_name: 'Beta Pay',
  acquired_by: 'Globex',
  company_info: { name: 'Beta Pay', website: 'https://betapay.de' },
  contact_info: [
    {
      company_linkedin_url: 'https://www.linkedin.com/company/beta-pay',
      employees: [employee('Eve Stone', 'Head of Product', 'eve-stone')],
    },
  ],
  date_seen: '2026-06-15T09:00:00.000Z',
});
const danMove = jobChangeRecord({
  personName: 'Dan Move',
  personLinkedinUrl: 'https://www.linkedin.com/in/dan-move',
  companyName: 'Beta Pay',
  companyLinkedinUrl: 'https://www.linkedin.com/company/beta-pay',
  newRole: 'VP of Sales',
  occurredAt: '2026-06-01T00:00:00.000Z',
});
// Jane joined Acme before its round named her: one person, in the round's newer mention of her.
const janeMove = jobChangeRecord({
  personName: 'Jane Doe',
  personLinkedinUrl: 'https://linkedin.com/in/jane-doe/',
  companyName: 'Acme Robotics',
  companyLinkedinUrl: 'https://www.linkedin.com/company/acme-robotics',
  newRole: 'Chief Technology Officer',
  occurredAt: '2026-03-01T00:00:00.000Z',
});

describeEach('people API', (backend) => {
  let ctx: TestContext;
  let key: string;
  const validate = publishedSchemasMissing ? undefined : documentValidator(PUBLISHED, 'PeopleResponse');

  const get = async (query: string, headers: Record<string, string> = {}) => {
    const res = await ctx.app.inject({
      method: 'GET',
      url: `/api/v2/people?${query}`,
      headers: { authorization: `Bearer ${key}`, ...headers },
    });
    return res;
  };
  const page = async (query: string): Promise<Page> => {
    const res = await get(query);
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json() as Page;
    if (validate && !validate(body)) assert.fail(`${query}: ${JSON.stringify(validate.errors)}`);
    return body;
  };
  const names = async (query: string) => (await page(query)).data.map((person) => person.name);
  const sorted = async (query: string) => (await names(query)).sort();

  before(async () => {
    ctx = await startApp(backend, { ADMIN_TOKEN }, { now: () => NOW });
    key = (await makeKey(ctx.db, 'pro')).key;
    await importRecords(ctx.app, 'companies', [acme, beta, cold]);
    await importRecords(ctx.app, 'funding', [acmeRound, coldRound]);
    await importRecords(ctx.app, 'm-a', [betaDeal]);
    await importRecords(ctx.app, 'job-changes', [danMove, janeMove]);
  });
  after(() => ctx.close());

  it('serves each person once, in their newest role, newest matching signal first', async () => {
    const body = await page('');
    assert.equal(body.meta.endpoint, 'people.list');
    assert.equal(body.meta.creditsUsed, 1);
    assert.equal(body.pagination.totalCount, 6);
    assert.deepEqual(
      body.data
        .slice(0, 2)
        .map((p) => p.name)
        .sort(),
      ['Dan M.', 'Eve S.'],
    );
    assert.deepEqual(
      body.data
        .slice(2)
        .map((p) => p.name)
        .sort(),
      ['Alan A.', 'Bob B.', 'Carol W.', 'Jane D.'],
    );
    const jane = body.data.find((p) => p.name === 'Jane D.')!;
    assert.equal(jane.title, 'CTO');
    assert.equal(jane.linkedin_url, 'https://www.linkedin.com/in/jane-doe');
    assert.deepEqual(jane.company, {
      name: 'Acme Robotics',
      domain: 'acme.io',
      linkedin_url: 'https://www.linkedin.com/company/acme-robotics',
      country: 'US',
      city: null,
      size_band: '51-100',
      industry: 'Robotics',
    });
    assert.deepEqual(jane.matched_signal, {
      type: 'funding_round',
      date: '2026-05-01',
      summary: 'Series A, $12M from Accel',
      source_url: null,
    });
    assert.equal(jane.is_latest_signal, true);
    const dan = body.data.find((p) => p.name === 'Dan M.')!;
    assert.equal(dan.matched_signal.type, 'acquisition');
    assert.equal(dan.matched_signal.summary, 'Acquired by Globex for $50M');
  });

  it('pins matched_signal to the asked types and says when a newer signal exists', async () => {
    const moves = await page('signal_type=job_change');
    assert.deepEqual(
      moves.data.map((p) => [p.name, p.matched_signal.type, p.matched_signal.date, p.is_latest_signal]),
      [
        ['Dan M.', 'job_change', '2026-06-01', false],
        ['Jane D.', 'job_change', '2026-03-01', false],
      ],
    );
    assert.equal(moves.data[0]!.matched_signal.summary, 'Dan M. started as VP of Sales at Beta Pay');
    assert.equal(moves.data[0]!.matched_signal.source_url, 'https://www.linkedin.com/in/dan-move');
    assert.deepEqual(await sorted('signal_type=acquisition'), ['Dan M.', 'Eve S.']);
    assert.deepEqual(await sorted('signal_type=funding_round,job_change'), [
      'Alan A.',
      'Bob B.',
      'Carol W.',
      'Dan M.',
      'Jane D.',
    ]);
  });

  it('counts the window back from now, and from all time for a lookup', async () => {
    assert.deepEqual(await sorted('signal_date_range=30d'), ['Dan M.', 'Eve S.']);
    assert.deepEqual(await sorted('signal_date_range=8w&signal_type=funding_round'), []);
    assert.equal((await page('signal_date_range=5y')).pagination.totalCount, 7);
    assert.deepEqual(await names('company_domain=cold.example'), ['Finn G.']);
    assert.deepEqual(await names('company_domain=cold.example&signal_date_range=12m'), []);
    assert.deepEqual(await names('linkedin_url=https://linkedin.com/in/finn-gray/'), ['Finn G.']);
  });

  it('matches titles as whole words and by role', async () => {
    assert.deepEqual(await names('title=CTO'), ['Jane D.']);
    assert.deepEqual(await names('title=chief technology officer'), ['Jane D.']);
    assert.deepEqual(await names('title=CEO'), ['Alan A.']);
    assert.deepEqual(await names('title=COO'), []);
    assert.deepEqual(await names('title=coordinator'), ['Bob B.']);
    assert.deepEqual(await sorted('title=VP of Sales,Head of Product'), ['Dan M.', 'Eve S.']);
  });

  it('filters by role, company and person', async () => {
    assert.deepEqual(await names('seniority=vp'), ['Dan M.']);
    assert.deepEqual(await names('function=product'), ['Eve S.']);
    assert.deepEqual(await sorted('country=DE'), ['Dan M.', 'Eve S.']);
    assert.deepEqual(await sorted('country=de,us&exclude_countries=US'), ['Dan M.', 'Eve S.']);
    assert.equal((await page('exclude_countries=DE')).pagination.totalCount, 4);
    assert.equal((await page('company_size=51-100')).pagination.totalCount, 4);
    assert.deepEqual(await sorted('company_size=251-500&industry=financial services'), ['Dan M.', 'Eve S.']);
    assert.deepEqual(await names('company_size=1-10'), []);
    assert.deepEqual(await names('linkedin_url=https://www.linkedin.com/in/eve-stone'), ['Eve S.']);
    assert.equal((await page('company_domain=https://www.acme.io/')).pagination.totalCount, 4);
    assert.equal((await page('company_linkedin_url=linkedin.com/company/beta-pay')).pagination.totalCount, 2);
    assert.deepEqual(await names('city=Amsterdam'), []);
    assert.deepEqual(await names('include_former=false&seniority=vp'), ['Dan M.']);
  });

  it('pages, counts for free and answers a matching ETag with 304', async () => {
    const second = await page('limit=4&page=2');
    assert.equal(second.data.length, 2);
    assert.equal(second.pagination.totalPages, 2);
    const counted = await page('count=true');
    assert.deepEqual(counted.data, []);
    assert.equal(counted.pagination.totalCount, 6);
    assert.equal(counted.meta.creditsUsed, 0);
    const first = await get('country=DE');
    const again = await get('country=DE', { 'if-none-match': String(first.headers.etag) });
    assert.equal(again.statusCode, 304);
  });

  it('refuses what the published API refuses, in the v2 error shape', async () => {
    for (const [query, param] of [
      ['seniority=exec', 'seniority'],
      ['function=sorcery', 'function'],
      ['company_size=2-5', 'company_size'],
      ['signal_type=ipo', 'signal_type'],
      ['signal_date_range=12', 'signal_date_range'],
      ['signal_date_range=0d', 'signal_date_range'],
      ['signal_date_range=500y', 'signal_date_range'],
      ['include_former=true', 'include_former'],
      ['linkedin_url=https://www.linkedin.com/company/acme-robotics', 'linkedin_url'],
      ['company_domain=not a domain', 'company_domain'],
      ['country=Atlantis', 'country'],
      ['limit=101', 'limit'],
    ] as const) {
      const res = await get(query);
      assert.equal(res.statusCode, 400, query);
      const body = res.json() as { success: boolean; error: string; param?: string };
      assert.equal(body.success, false);
      assert.equal(typeof body.error, 'string');
      if (param !== 'limit') assert.equal(body.param, param, query);
    }
    assert.equal(
      (await get('seniority=exec')).json().error,
      'Invalid seniority value: exec. Accepted values: founder, c_level, vp, director, head, lead, manager.',
    );
    const anonymous = await ctx.app.inject({ method: 'GET', url: '/api/v2/people' });
    assert.equal(anonymous.statusCode, 401);
  });

  it('follows new and removed records', async () => {
    const gina = jobChangeRecord({
      personName: 'Gina Fresh',
      personLinkedinUrl: 'https://www.linkedin.com/in/gina-fresh',
      companyName: 'Acme Robotics',
      companyLinkedinUrl: 'https://www.linkedin.com/company/acme-robotics',
      newRole: 'Head of Growth',
      occurredAt: '2026-06-20T00:00:00.000Z',
    });
    await importRecords(ctx.app, 'job-changes', [gina]);
    const body = await page('');
    assert.equal(body.pagination.totalCount, 7);
    assert.equal(body.data[0]!.name, 'Gina F.');
    // Her row corrected in place (same record, same date): served as it is now, not as first read.
    await importRecords(ctx.app, 'job-changes', [{ ...gina, newRole: 'VP Growth' }]);
    const corrected = await page('linkedin_url=linkedin.com/in/gina-fresh');
    assert.deepEqual(
      corrected.data.map((person) => person.title),
      ['VP Growth'],
    );
    // Jane moves on to Beta Pay: one person still, now there, her old company's round no longer hers.
    await importRecords(ctx.app, 'job-changes', [
      {
        ...janeMove,
        signalId: '3f1c9a52-2b7e-4b8e-9d3a-0c5e7f1a2b3c',
        companyName: 'Beta Pay',
        companyLinkedinUrl: 'https://www.linkedin.com/company/beta-pay',
        newRole: 'CTO',
        occurredAt: '2026-06-25T00:00:00.000Z',
      },
    ]);
    const jane = (await page('linkedin_url=linkedin.com/in/jane-doe')).data;
    assert.equal(jane.length, 1);
    assert.equal(jane[0]!.company.name, 'Beta Pay');
    assert.equal(jane[0]!.matched_signal.type, 'job_change');
    assert.equal((await page('company_domain=acme.io')).pagination.totalCount, 4);
    // A newer round of Acme is every Acme person's matched signal.
    await importRecords(ctx.app, 'funding', [
      {
        ...acmeRound,
        round_type: 'series b',
        funding_amount: 30_000_000,
        date_seen: '2026-06-28T00:00:00.000Z',
        contact_info: [],
      },
    ]);
    const acmePeople = await page('company_domain=acme.io&signal_type=funding_round');
    assert.ok(
      acmePeople.data.every((p) => p.matched_signal.date === '2026-06-28'),
      JSON.stringify(acmePeople.data),
    );
    // The newest round removed: the newest of those left is read again (not the oldest).
    await importRecords(ctx.app, 'funding', [
      {
        ...acmeRound,
        round_type: 'series c',
        funding_amount: 60_000_000,
        date_seen: '2026-06-30T00:00:00.000Z',
        contact_info: [],
      },
    ]);
    assert.equal((await page('company_domain=acme.io&signal_type=funding_round')).data[0]!.matched_signal.date, '2026-06-30');
    await ctx.db.query(`DELETE FROM funding_rounds WHERE sort_at = '2026-06-30T00:00:00Z'`);
    const afterRemoval = await page('company_domain=acme.io&signal_type=funding_round');
    assert.ok(
      afterRemoval.data.length > 0 && afterRemoval.data.every((p) => p.matched_signal.date === '2026-06-28'),
      JSON.stringify(afterRemoval.data),
    );
  });
});
