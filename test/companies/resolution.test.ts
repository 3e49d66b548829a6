// Company resolution over HTTP on both stores: records imported through the admin API are linked to
// one company each (domain, then LinkedIn page, then name and country), the link is served on the
// record and filters the v2 lists (company_id), unknown companies are made from what the records
// say, later records fill their empty fields and never overwrite a set one, and a failed import
// makes no company.
import assert from 'node:assert/strict';
import { after, before, beforeEach, it } from 'node:test';
import {
  acquisitionRecord,
  companyRecord,
  fundingRecord,
  hiringRecord,
  insertAcquisitions,
  insertJobChanges,
  jobChangeRecord,
  maRecord,
} from '../fixtures.js';
import { resolveAll } from '../../src/companies/index.js';
import { DEPARTMENTS } from '../../src/catalog/index.js';
import { upserterOf } from '../../src/ingest/index.js';
import { companies } from '../../src/catalog/registry.js';
import { clearData, describeEach, makeKey } from '../helpers.js';
import { ADMIN_TOKEN, ndjson, startAdminApp, type AdminContext } from '../ingest/support.js';
import type { CompanyRecord } from '../../src/catalog/schemas/v2-schemas.js';

const ACME = companyRecord({
  name: 'Acme Robotics',
  slug: 'acme-robotics',
  website: 'https://www.acme-robotics.com',
  linkedinUrl: 'https://www.linkedin.com/company/acme-robotics',
  headquartersCountry: 'US',
  industry: 'Robotics Engineering',
  employeeCount: 250,
  foundedYear: null,
  description: null,
});
const NORTH = companyRecord({
  name: 'Northwind GmbH',
  slug: 'northwind',
  website: null,
  linkedinUrl: null,
  headquartersCountry: 'DE',
  employeeCount: null,
});

describeEach('company resolution', (backend) => {
  let ctx: AdminContext;
  let key: string;

  const importKind = async (kind: string, records: object[], query = '') => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: `/admin/ingest/${kind}${query}`,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/x-ndjson' },
      payload: ndjson(records),
    });
    return res.json() as { committed: boolean; inserted: number; updated: number; unchanged: number };
  };
  const get = async <T>(url: string) => {
    const res = await ctx.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${key}` } });
    assert.equal(res.statusCode, 200, `${url}: ${res.body}`);
    return res.json() as { data: T[]; pagination: { totalCount: number } };
  };
  const companiesNamed = async (search: string) =>
    (await get<CompanyRecord>(`/api/v2/companies?search=${encodeURIComponent(search)}`)).data;

  before(async () => {
    ctx = await startAdminApp(backend);
    key = (await makeKey(ctx.db, 'enterprise')).key;
  });
  after(() => ctx.close());
  beforeEach(async () => {
    await clearData(ctx.db);
    assert.equal((await importKind('companies', [ACME, NORTH])).committed, true);
  });

  it('links by domain, then LinkedIn page, then name and country, and serves the link on the record', async () => {
    const byDomain = acquisitionRecord({ companyName: 'ACME', website: 'HTTP://acme-robotics.com/', linkedinUrl: null });
    const byLinkedin = acquisitionRecord({
      companyName: 'Acme Robotics Inc.',
      website: null,
      linkedinUrl: 'https://linkedin.com/company/acme-robotics/',
    });
    const byName = acquisitionRecord({ companyName: 'Northwind GmbH', website: null, linkedinUrl: null, country: 'Germany' });
    const otherCountry = acquisitionRecord({ companyName: 'Northwind', website: null, linkedinUrl: null, country: 'France' });
    assert.equal((await importKind('acquisitions', [byDomain, byLinkedin, byName, otherCountry])).committed, true);
    const served = new Map(
      (await get<Record<string, unknown>>('/api/v2/signals/acquisitions')).data.map((record) => [record.id, record]),
    );
    assert.deepEqual(
      [byDomain, byLinkedin, byName].map((r) => [served.get(r.id)!.companyId, served.get(r.id)!.companyMatch]),
      [
        [ACME.id, 'exact'],
        [ACME.id, 'exact'],
        [NORTH.id, 'fuzzy'],
      ],
    );
    const french = served.get(otherCountry.id)!;
    assert.notEqual(french.companyId, NORTH.id, 'a name in another country is another company');
    assert.equal(french.companyMatch, 'fuzzy');
    const made = (await companiesNamed('northwind')).find((company) => company.id === french.companyId)!;
    assert.deepEqual([made.name, made.headquartersCountry], ['Northwind', 'FR'], 'made from what the record says');

    const refused = await ctx.app.inject({
      url: '/api/v2/signals/investors?company_id=acme.com',
      headers: { authorization: `Bearer ${key}` },
    });
    assert.deepEqual([refused.statusCode, (refused.json() as { param: string }).param], [400, 'company_id']);
    const page = await get<{ id: string }>(`/api/v2/signals/acquisitions?company_id=${ACME.id.toUpperCase()}`);
    assert.deepEqual(page.data.map((r) => r.id).sort(), [byDomain.id, byLinkedin.id].sort());
    const exact = (await get<Record<string, unknown>>(`/api/v2/signals/acquisitions?company_id=${NORTH.id}`)).data;
    assert.deepEqual(
      exact.map((r) => [r.id, r.match_confidence]),
      [[byName.id, 'exact']],
    );
  });

  it('links every dataset: funding (v1 and v2), both companies of a deal and of a job change', async () => {
    const round = fundingRecord({ company_name: 'Acme Robotics' });
    round.company_info = { ...round.company_info, website: 'https://acme-robotics.com', hq_country: 'US' };
    const deal = maRecord({ company_name: 'Northwind GmbH', acquired_by: 'Acme Robotics' });
    deal.company_info = { ...deal.company_info, hq_country: 'Germany' };
    delete deal.company_info.website;
    deal.acquired_by_linkedin_url = 'https://www.linkedin.com/company/acme-robotics';
    deal.contact_info = [];
    const move = jobChangeRecord({
      companyName: 'Acme Robotics',
      companyLinkedinUrl: 'https://www.linkedin.com/company/acme-robotics',
      previousCompanyName: 'Northwind GmbH',
    });
    for (const [kind, record] of [
      ['funding', round],
      ['m-a', deal],
      ['job-changes', move],
    ] as const) {
      assert.equal((await importKind(kind, [record])).committed, true, kind);
    }
    const v1 = (await ctx.app.inject({ url: '/api/v1/funding', headers: { 'x-lot-api-key': key } })).json() as {
      response: { data: Record<string, unknown>[] };
    };
    assert.deepEqual([v1.response.data[0]!.company_id, v1.response.data[0]!.company_match], [ACME.id, 'exact']);
    const signal = (await get<Record<string, unknown>>(`/api/v2/signals/funding?company_id=${ACME.id}`)).data;
    assert.deepEqual(
      signal.map((r) => [r.companyId, r.companyMatch]),
      [[ACME.id, 'exact']],
    );
    const deals = (await ctx.app.inject({ url: '/api/v1/m-a', headers: { 'x-lot-api-key': key } })).json() as {
      response: { data: Record<string, unknown>[] };
    };
    const served = deals.response.data[0]!;
    assert.deepEqual(
      [served.company_id, served.company_match, served.acquirer_company_id, served.acquirer_match],
      [NORTH.id, 'fuzzy', ACME.id, 'exact'],
    );
    const moves = (await get<Record<string, unknown>>(`/api/v2/signals/job-changes?company_id=${ACME.id}`)).data;
    assert.deepEqual(
      moves.map((r) => [r.companyId, r.companyMatch, r.previousCompanyId, r.previousCompanyMatch]),
      [[ACME.id, 'exact', NORTH.id, 'fuzzy']],
    );
  });

  it('fills empty fields of a company from later records, never a field that is set', async () => {
    const first = acquisitionRecord({
      companyName: 'Acme',
      website: 'https://acme-robotics.com',
      linkedinUrl: null,
      employeeCount: 9999,
      foundedYear: 2011,
      industry: 'Something Else',
    });
    assert.equal((await importKind('acquisitions', [first])).committed, true);
    const [acme] = (await get<CompanyRecord>(`/api/v2/companies?search=acme%20robotics`)).data;
    assert.deepEqual(
      [acme!.id, acme!.name, acme!.employeeCount, acme!.industry, acme!.foundedYear],
      [ACME.id, 'Acme Robotics', 250, 'Robotics Engineering', 2011],
      'only foundedYear was empty',
    );
    // Northwind has no website: a record naming it by name and giving one fills it, and the
    // website then finds it.
    const named = acquisitionRecord({
      companyName: 'Northwind',
      website: 'https://northwind.example',
      linkedinUrl: null,
      country: 'DE',
    });
    const byWebsite = acquisitionRecord({
      companyName: 'NW',
      website: 'https://www.northwind.example/',
      linkedinUrl: null,
      country: null,
    });
    assert.equal((await importKind('acquisitions', [named, byWebsite])).committed, true);
    const ids = (await get<Record<string, unknown>>(`/api/v2/signals/acquisitions?company_id=${NORTH.id}`)).data.map((r) => r.id);
    assert.deepEqual(ids.sort(), [named.id, byWebsite.id].sort());
  });

  it('makes one company per unknown domain, the same ids on a re-import, and none from a failed import', async () => {
    const records = [
      acquisitionRecord({ companyName: 'Zeta Labs', website: 'https://zeta-labs.io', linkedinUrl: null }),
      acquisitionRecord({ companyName: 'Zeta Labs Inc', website: 'https://zeta-labs.io/', linkedinUrl: null }),
      acquisitionRecord({ companyName: 'Zeta', website: 'https://WWW.ZETA-LABS.IO', linkedinUrl: null }),
    ];
    assert.equal((await importKind('acquisitions', records)).committed, true);
    const zeta = await companiesNamed('zeta');
    assert.equal(zeta.length, 1);
    assert.equal(zeta[0]!.website, 'https://zeta-labs.io');
    const again = await importKind('acquisitions', records);
    assert.deepEqual([again.committed, again.inserted, again.updated, again.unchanged], [true, 0, 0, 3]);
    assert.deepEqual(
      (await companiesNamed('zeta')).map((c) => c.id),
      [zeta[0]!.id],
    );

    const broken = [
      acquisitionRecord({ companyName: 'Omega Works', website: 'https://omega.works', linkedinUrl: null }),
      { nope: 1 },
    ];
    assert.equal((await importKind('acquisitions', broken)).committed, false);
    assert.deepEqual(await companiesNamed('omega'), [], 'a failed import leaves no company behind');
  });

  it('companies resolve links records written without resolution, and a second run changes nothing', async () => {
    const records = [
      acquisitionRecord({ companyName: 'Acme', website: 'https://acme-robotics.com', linkedinUrl: null }),
      acquisitionRecord({ companyName: 'Fresh Co', website: 'https://fresh.example', linkedinUrl: null }),
    ];
    const move = jobChangeRecord({
      companyName: 'Northwind',
      companyLinkedinUrl: 'https://www.linkedin.com/in/someone',
      previousCompanyName: null,
    });
    // Written as plain upserts: no links yet.
    await insertAcquisitions(ctx.db, records);
    await insertJobChanges(ctx.db, [move]);
    const before = (await get<Record<string, unknown>>('/api/v2/signals/acquisitions')).data;
    assert.ok(before.every((record) => !('companyId' in record)));

    const options = { batchRows: 1, upsertCompanies: upserterOf(companies) };
    const first = await resolveAll(ctx.db, options);
    assert.deepEqual(first.datasets.acquisitions, { records: 2, changed: 2 });
    assert.deepEqual(first.datasets['job-changes'], { records: 1, changed: 1 });
    const fresh = await companiesNamed('fresh');
    assert.equal(fresh.length, 1);
    const served = new Map((await get<Record<string, unknown>>('/api/v2/signals/acquisitions')).data.map((r) => [r.id, r]));
    assert.deepEqual(
      records.map((r) => served.get(r.id)!.companyId),
      [ACME.id, fresh[0]!.id],
    );
    const [moved] = (await get<Record<string, unknown>>(`/api/v2/signals/job-changes?company_id=${NORTH.id}`)).data;
    assert.deepEqual([moved!.companyMatch, moved!.previousCompanyId, moved!.previousCompanyMatch], ['fuzzy', null, 'none']);

    const again = await resolveAll(ctx.db, options);
    assert.deepEqual(
      [again.datasets.acquisitions, again.datasets['job-changes'], again.companies],
      [{ records: 2, changed: 0 }, { records: 1, changed: 0 }, 0],
    );
    // An import of the same records finds them as they are: resolution at import and by the command agree.
    const reimport = await importKind('acquisitions', records);
    assert.deepEqual([reimport.inserted, reimport.updated, reimport.unchanged], [0, 0, 2]);
    // Records as the API serves them, link fields and all, import as they are: resolution sets those fields.
    const servedRecords = (await get<Record<string, unknown>>('/api/v2/signals/acquisitions')).data;
    assert.ok(servedRecords.every((record) => 'companyId' in record));
    const fromApi = await importKind('acquisitions', servedRecords);
    assert.deepEqual([fromApi.committed, fromApi.unchanged], [true, 2]);
  });

  it('a companies import takes over the records of a company they made: companies resolve moves them and removes it', async () => {
    const early = acquisitionRecord({ companyName: 'Takeover Labs', website: 'https://takeover.example', linkedinUrl: null });
    assert.equal((await importKind('acquisitions', [early])).committed, true);
    const [made] = await companiesNamed('takeover');
    assert.ok(made, 'a company was made from the record');
    const imported = companyRecord({
      name: 'Takeover Laboratories',
      slug: 'takeover-laboratories',
      website: 'https://www.takeover.example/',
      linkedinUrl: null,
    });
    assert.equal((await importKind('companies', [imported])).committed, true);
    // A record written now finds the imported company first; the one before stays where it was.
    const late = acquisitionRecord({ companyName: 'Takeover Labs', website: 'http://takeover.example', linkedinUrl: null });
    assert.equal((await importKind('acquisitions', [late])).committed, true);
    const linkOf = async (id: string) =>
      (await get<Record<string, unknown>>('/api/v2/signals/acquisitions')).data.find((record) => record.id === id)!.companyId;
    assert.deepEqual([await linkOf(early.id), await linkOf(late.id)], [made.id, imported.id]);

    const options = { upsertCompanies: upserterOf(companies) };
    const report = await resolveAll(ctx.db, options);
    assert.equal(report.removed, 1);
    assert.deepEqual([await linkOf(early.id), await linkOf(late.id)], [imported.id, imported.id]);
    assert.deepEqual(
      (await companiesNamed('takeover')).map((company) => company.id),
      [imported.id],
    );
    const missing = await ctx.app.inject({ url: `/api/v2/companies/${made.id}`, headers: { authorization: `Bearer ${key}` } });
    assert.equal(missing.statusCode, 404);
    // Imported companies stay, linked or not; a second run changes and removes nothing.
    const again = await resolveAll(ctx.db, options);
    assert.deepEqual([again.removed, again.datasets.acquisitions?.changed], [0, 0]);
    assert.ok((await companiesNamed('northwind')).length === 1, 'an imported company no record names is kept');
  });

  it("hiring postings serve and filter on their company's fields; companies resolve takes a company's changes to them", async () => {
    const posting = hiringRecord({
      jobCountry: 'DE',
      companyName: 'ACME Robotics Inc',
      companyWebsite: 'https://acme-robotics.com',
      companyLinkedinUrl: null,
      companyIndustry: 'Widgets',
      companyCountry: 'GB',
      companyEmployeeCount: 8,
      companyFoundedYear: 1999,
      companySubcategory: null,
      companyCategories: '["Widgets"]',
    });
    const unknown = hiringRecord({
      companyName: 'Zed Labs',
      companyWebsite: 'https://zed-labs.example',
      companyEmployeeCount: 30,
    });
    assert.equal((await importKind('hiring', [posting, unknown])).committed, true);
    const served = async (query = '') =>
      (await get<Record<string, unknown>>(`/api/v2/signals/hiring?limit=100${query}`)).data.map((record) => record.id);
    const record = async (id: string) =>
      (await get<Record<string, unknown>>('/api/v2/signals/hiring?limit=100')).data.find((r) => r.id === id)!;

    const acme = await record(posting.id);
    // The company's values; the posting's own where the company has none (ACME's founding year).
    assert.equal(acme.companyId, ACME.id);
    assert.deepEqual(
      [acme.companyName, acme.companyWebsite, acme.companyLinkedinUrl, acme.companyIndustry, acme.companyCountry],
      [ACME.name, ACME.website, ACME.linkedinUrl, ACME.industry, ACME.headquartersCountry],
    );
    assert.deepEqual(
      [acme.companyEmployeeCount, acme.companyFoundedYear, acme.companySubcategory, acme.companyCategories],
      [250, 1999, ACME.companySubcategory, JSON.stringify(ACME.categories)],
    );
    assert.equal(acme.companyDescription, ACME.description ?? posting.companyDescription);
    // A company made from the posting has the posting's values.
    assert.deepEqual([(await record(unknown.id)).companyName, (await record(unknown.id)).companyEmployeeCount], ['Zed Labs', 30]);
    // Filters read what is served: ACME's size band and HQ, not the posting's.
    assert.deepEqual(await served('&team_size=201-1000'), [posting.id]);
    assert.deepEqual(await served('&team_size=1-10'), []);
    assert.ok((await served('&countries=US')).includes(posting.id));
    assert.deepEqual(await served('&countries=GB'), []);
    assert.deepEqual(await served(`&company_name=${encodeURIComponent('acme robotics')}`), [posting.id]);
    assert.deepEqual(await served('&company_name=inc'), []);
    // The same posting again is unchanged.
    assert.equal((await importKind('hiring', [posting])).unchanged, 1);

    // A companies import changes ACME: postings keep what they were written with until companies resolve.
    const grown = {
      ...ACME,
      name: 'Acme Robotics Group',
      employeeCount: 4200,
      foundedYear: 2011,
      updatedAt: '2026-01-01T00:00:00.000Z',
    };
    assert.equal((await importKind('companies', [grown])).committed, true);
    assert.equal((await record(posting.id)).companyEmployeeCount, 250);
    const options = { upsertCompanies: upserterOf(companies) };
    const report = await resolveAll(ctx.db, options);
    assert.equal(report.datasets.hiring?.changed, 1);
    const after = await record(posting.id);
    assert.deepEqual([after.companyName, after.companyEmployeeCount, after.companyFoundedYear], [grown.name, 4200, 2011]);
    assert.deepEqual(await served('&team_size=1000-plus'), [posting.id]);
    assert.deepEqual(await served('&team_size=201-1000'), []);
    assert.deepEqual(await served('&company_name=group'), [posting.id]);
    assert.equal((await resolveAll(ctx.db, options)).datasets.hiring?.changed, 0);
  });

  it('GET /companies/{id} and /lookup: the company and a summary of its signals, one credit; 404 costs nothing', async () => {
    const seen = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString();
    const rounds = [
      fundingRecord({
        company_name: 'Acme Robotics',
        funding_amount: 5_000_000,
        currency: 'USD',
        round_type: 'Series A',
        date_seen: seen(400),
      }),
      fundingRecord({
        company_name: 'Acme Robotics',
        funding_amount: 2_000_000,
        currency: 'EUR',
        round_type: 'seed',
        date_seen: seen(10),
      }),
    ];
    for (const round of rounds) {
      round.company_info = { ...round.company_info, website: 'https://acme-robotics.com', hq_country: 'US' };
      round.investors = [{ name: 'Oak Ventures' } as (typeof round.investors)[number]];
    }
    const deal = maRecord({ company_name: 'Northwind GmbH', acquired_by: 'Acme Robotics', date_seen: seen(5) });
    deal.acquired_by_linkedin_url = 'https://www.linkedin.com/company/acme-robotics';
    deal.company_info = { ...deal.company_info, hq_country: 'DE' };
    delete deal.company_info.website;
    deal.contact_info = [];
    const acme = { companyName: 'Acme Robotics', companyLinkedinUrl: 'https://www.linkedin.com/company/acme-robotics' };
    const moves = [
      jobChangeRecord({ ...acme, occurredAt: seen(3), previousCompanyName: 'Northwind GmbH' }),
      jobChangeRecord({ ...acme, occurredAt: seen(60), previousCompanyName: null }),
      jobChangeRecord({ ...acme, occurredAt: seen(500), previousCompanyName: null }),
    ];
    const signal = acquisitionRecord({ companyName: 'Acme', website: 'https://acme-robotics.com', acquisitionSignalScore: 81 });
    const postings = [
      hiringRecord({ ...acme, companyWebsite: null, title: 'VP of Sales', createdAt: seen(2), validThrough: seen(-30) }),
      hiringRecord({ ...acme, companyWebsite: null, title: 'Staff Engineer', createdAt: seen(40), validThrough: seen(1) }),
    ];
    for (const [kind, records] of [
      ['funding', rounds],
      ['m-a', [deal]],
      ['job-changes', moves],
      ['acquisitions', [signal]],
      ['hiring', postings],
    ] as const) {
      assert.equal((await importKind(kind, [...records])).committed, true, kind);
    }
    const res = await ctx.app.inject({ url: `/api/v2/companies/${ACME.id}`, headers: { authorization: `Bearer ${key}` } });
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json() as {
      data: Record<string, unknown> & { signals: Record<string, unknown> };
      meta: Record<string, unknown>;
    };
    assert.equal(body.data.name, 'Acme Robotics');
    assert.deepEqual(body.meta, { endpoint: 'companies.get', creditsUsed: 1, creditsRemaining: body.meta.creditsRemaining });
    assert.deepEqual(body.data.signals, {
      fundingRounds: {
        count: 2,
        totalRaised: [
          { currency: 'EUR', amount: 2_000_000 },
          { currency: 'USD', amount: 5_000_000 },
        ],
        latest: { date: seen(10).slice(0, 10), roundType: 'Seed', amount: 2_000_000, currency: 'EUR' },
      },
      deals: { asTarget: 0, asAcquirer: 1, latestDate: seen(5).slice(0, 10) },
      jobChanges: {
        joined: { last30Days: 1, last90Days: 2, last365Days: 2 },
        left: { last30Days: 0, last90Days: 0, last365Days: 0 },
      },
      acquisitionSignal: { score: 81, indicators: signal.signalIndicators, date: signal.lastUpdated.slice(0, 10) },
      investors: ['Oak Ventures'],
      // The engineer's posting has expired: only the VP of Sales is open.
      hiring: {
        openPostings: 1,
        byDepartment: { ...Object.fromEntries(DEPARTMENTS.map((department) => [department, 0])), sales: 1 },
        latestDate: seen(2).slice(0, 10),
      },
    });
    const north = (
      await ctx.app.inject({ url: `/api/v2/companies/${NORTH.id}`, headers: { authorization: `Bearer ${key}` } })
    ).json() as {
      data: { signals: { deals: { asTarget: number }; jobChanges: { left: { last30Days: number } } } };
    };
    assert.deepEqual([north.data.signals.deals.asTarget, north.data.signals.jobChanges.left.last30Days], [1, 1]);

    for (const query of [
      'domain=ACME-ROBOTICS.com',
      'domain=https://www.acme-robotics.com/',
      'linkedin_url=linkedin.com/company/acme-robotics',
    ]) {
      const found = await ctx.app.inject({
        url: `/api/v2/companies/lookup?${query}`,
        headers: { authorization: `Bearer ${key}` },
      });
      assert.equal(found.statusCode, 200, `${query}: ${found.body}`);
      assert.equal((found.json() as { data: { id: string } }).data.id, ACME.id, query);
    }
    const balance = body.meta.creditsRemaining as number;
    const missing = await ctx.app.inject({
      url: '/api/v2/companies/00000000-0000-4000-8000-000000000000',
      headers: { authorization: `Bearer ${key}` },
    });
    assert.equal(missing.statusCode, 404);
    assert.deepEqual(missing.json(), { success: false, error: 'Company not found', code: 'not_found' });
    assert.equal(
      missing.headers['x-credits-remaining'],
      String(balance - 4),
      'Northwind and the three lookups cost one each, the 404 nothing',
    );
    for (const [url, param] of [
      ['/api/v2/companies/not-a-uuid', 'id'],
      ['/api/v2/companies/lookup', 'domain'],
      ['/api/v2/companies/lookup?domain=a.com&linkedin_url=linkedin.com/company/a', 'linkedin_url'],
    ] as const) {
      const refused = await ctx.app.inject({ url, headers: { authorization: `Bearer ${key}` } });
      assert.equal(refused.statusCode, 400, `${url}: ${refused.body}`);
      assert.equal((refused.json() as { param?: string }).param, param, url);
    }
  });
});
