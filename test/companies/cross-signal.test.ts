// The companies list's signal filters over HTTP on both stores: has_signals, the windows,
// funding_round_types, total_funding_min and the job change departments and seniorities answer
// exactly what plain SQL over the linked tables answers (the same conditions written as SQL,
// test/read-model/sql-conditions.ts), through imports, updates and deletions of the signals; a new
// signal moves its company into the answer on the next request; a bad value is a 400 naming it.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import fc from 'fast-check';
import { companyRecord, fundingRecord, hiringRecord, jobChangeRecord, maRecord } from '../fixtures.js';
import { companies, jobChanges } from '../../src/catalog/registry.js';
import { clearData, describeEach, type TestContext } from '../helpers.js';
import { importThrough, startRebuildingApp } from '../ingest/support.js';
import { whereClause } from '../read-model/sql-conditions.js';
import type { CompaniesQuery, CompanyRecord, JobChangesQuery } from '../../src/catalog/schemas/v2-schemas.js';

const DAY_MS = 86_400_000;
const COUNTRIES = ['US', 'DE', 'GB', 'AT'];
const ROUND_LABELS = ['seed', 'series a', 'series b', 'debt', 'grant', 'something else'];
const ROUND_TYPES = ['Seed', 'Series A', 'Series B', 'Debt Financing', 'Grant', 'Other'];
const ROLES = ['VP of Sales', 'Chief Technology Officer', 'Software Engineer', 'Head of Marketing', 'Sales Director'];
const PRESETS = ['last_30d', 'last_90d', 'last_1y', 'this_year', 'last_month'];

/** A small world: companies, and funding rounds, deals and job changes naming them, dated over the last 400 days. */
function world(seed: number) {
  const rand = fc.sample(fc.integer({ min: 0, max: 1_000_000 }), { seed, numRuns: 2000 });
  let next = 0;
  const int = (n: number) => rand[next++ % rand.length]! % n;
  const pick = <T>(items: readonly T[]) => items[int(items.length)]!;
  const daysAgo = () => new Date(Date.now() - int(400) * DAY_MS - int(DAY_MS)).toISOString();
  const companiesOfWorld = Array.from({ length: 24 }, (_, i) =>
    companyRecord({
      name: `Crossline ${seed} ${i}`,
      slug: `crossline-${seed}-${i}`,
      website: `https://www.crossline-${seed}-${i}.com`,
      linkedinUrl: `https://www.linkedin.com/company/crossline-${seed}-${i}`,
      headquartersCountry: pick(COUNTRIES),
    }),
  ) as (CompanyRecord & { website: string; linkedinUrl: string })[];
  const round = () => {
    const company = pick(companiesOfWorld);
    return fundingRecord({
      company_name: company.name,
      round_type: pick(ROUND_LABELS),
      funding_amount: 1_000_000 * (1 + int(30)),
      currency: pick(['USD', 'USD', 'EUR']),
      company_info: { ...fundingRecord().company_info, name: company.name, website: company.website },
      date_seen: daysAgo(),
    });
  };
  const deal = () => {
    const [target, acquirer] = [pick(companiesOfWorld), pick(companiesOfWorld)];
    return maRecord({
      company_name: target.name,
      company_info: { name: target.name, website: target.website, hq_country: 'GB', categories: [] },
      acquired_by: acquirer.name,
      acquired_by_linkedin_url: acquirer.linkedinUrl,
      date_seen: daysAgo(),
    });
  };
  const move = () => {
    const company = pick(companiesOfWorld);
    const occurredAt = daysAgo();
    return jobChangeRecord({
      companyName: company.name,
      companyLinkedinUrl: company.linkedinUrl,
      newRole: pick(ROLES),
      occurredAt,
      discoveredAt: occurredAt,
    });
  };
  const posting = () => {
    const company = pick(companiesOfWorld);
    const createdAt = daysAgo();
    return hiringRecord({
      title: pick(ROLES),
      companyName: company.name,
      companyWebsite: company.website,
      companyLinkedinUrl: company.linkedinUrl,
      datePosted: createdAt,
      createdAt,
    });
  };
  /** A random signal query, sometimes with a company filter. */
  const query = (): CompaniesQuery => {
    const q: CompaniesQuery = { limit: 100 };
    const window = () => (int(2) === 0 ? pick(PRESETS) : daysAgo().slice(0, 10));
    const types = ['funding_round', 'acquisition', 'job_change', 'hiring'].filter(() => int(3) === 0);
    if (types.length > 0) q.has_signals = types.join(',');
    if (int(2) === 0) q.signals_since = window();
    if (int(4) === 0) q.funding_round_since = window();
    if (int(5) === 0) q.acquisition_since = window();
    if (int(4) === 0) q.job_change_since = window();
    if (int(3) === 0) q.funding_round_types = [pick(ROUND_TYPES), pick(ROUND_TYPES)].join(',');
    if (int(3) === 0) {
      q.total_funding_min = 1_000_000 * int(60);
      if (int(2) === 0) q.total_funding_currency = pick(['usd', 'EUR', 'GBP']);
    }
    if (int(3) === 0) q.job_change_departments = pick(['sales', 'engineering', 'marketing', 'sales,engineering']);
    if (int(3) === 0) q.job_change_seniorities = pick(['vp', 'c_level', 'head,director', 'vp,c_level']);
    if (int(4) === 0) q.hiring_since = window();
    if (int(4) === 0) q.hiring_departments = pick(['sales', 'engineering', 'marketing,sales']);
    if (int(4) === 0) q.hiring_seniorities = pick(['vp', 'head,director']);
    if (int(3) === 0) q.countries = pick(COUNTRIES);
    return q;
  };
  return { companiesOfWorld, round, deal, move, posting, query, int };
}

describeEach('companies: signal filters', (backend) => {
  let ctx: TestContext;
  let key: string;

  const importKind = (kind: string, records: object[]) => importThrough(ctx.app, kind, records);
  const list = async (query: Record<string, string | number>) => {
    const url = `/api/v2/companies?${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]))}`;
    const res = await ctx.app.inject({ url, headers: { authorization: `Bearer ${key}` } });
    return { url, status: res.statusCode, body: res.json() as { data: CompanyRecord[]; pagination: { totalCount: number } } };
  };
  /** The ids plain SQL finds for the query, in id order. */
  const sqlIds = async (query: CompaniesQuery) => {
    const where = whereClause(companies.columns, companies.conditions(companies.filter(query, { now: new Date() })));
    const sql = `SELECT record_id::text AS id FROM companies ${where.conditions.length > 0 ? `WHERE ${where.conditions.join(' AND ')}` : ''}`;
    return (await ctx.db.query<{ id: string }>(sql, where.params)).map((row) => row.id).sort();
  };
  /** Every query's total and ids equal plain SQL's; returns how many matched something. */
  const agree = async (queries: readonly CompaniesQuery[]) => {
    let nonEmpty = 0;
    for (const query of queries) {
      const expected = await sqlIds(query);
      const got = await list(query as Record<string, string | number>);
      assert.equal(got.status, 200, `${got.url}: ${JSON.stringify(got.body)}`);
      assert.equal(got.body.pagination.totalCount, expected.length, got.url);
      assert.deepEqual(got.body.data.map((company) => company.id).sort(), expected, got.url);
      if (expected.length > 0) nonEmpty++;
    }
    return nonEmpty;
  };

  before(async () => {
    ({ ctx, key } = await startRebuildingApp(backend));
  });
  after(() => ctx.close());

  it('totals and companies equal plain SQL through imports, updates and deletions of the signals', async () => {
    await clearData(ctx.db);
    const w = world(26);
    await importKind('companies', w.companiesOfWorld);
    await importKind('funding', Array.from({ length: 40 }, w.round));
    await importKind('m-a', Array.from({ length: 15 }, w.deal));
    const moves = Array.from({ length: 40 }, w.move);
    await importKind('job-changes', moves);
    const postings = Array.from({ length: 40 }, w.posting);
    await importKind('hiring', postings);
    const queries = Array.from({ length: 40 }, w.query);
    const before = await agree(queries);
    assert.ok(before >= 10, `${before} of the queries matched a company`);

    // Updates (a job change's new role), deletions of signals, and new ones.
    await importKind(
      'job-changes',
      moves.slice(0, 10).map((move) => ({ ...move, newRole: 'VP Sales' })),
    );
    await ctx.db.query(`DELETE FROM funding_rounds WHERE id IN (SELECT id FROM funding_rounds ORDER BY id LIMIT 12)`);
    await ctx.db.query(`DELETE FROM ma_deals WHERE id IN (SELECT id FROM ma_deals ORDER BY id DESC LIMIT 5)`);
    await importKind('funding', Array.from({ length: 10 }, w.round));
    await importKind(
      'hiring',
      postings.slice(0, 10).map((posting) => ({ ...posting, title: 'VP of Sales' })),
    );
    await agree(queries);
    await agree(Array.from({ length: 20 }, w.query));
  });

  it('a new signal moves its company into the answer on the next request', async () => {
    await clearData(ctx.db);
    const w = world(27);
    await importKind('companies', w.companiesOfWorld);
    const company = w.companiesOfWorld[0]!;
    const query = { has_signals: 'funding_round', signals_since: 'last_30d', funding_round_types: 'Series B', limit: 100 };
    assert.equal((await list(query)).body.pagination.totalCount, 0);
    await importKind('funding', [
      fundingRecord({
        company_name: company.name,
        round_type: 'Series B',
        company_info: { ...fundingRecord().company_info, name: company.name, website: company.website },
        date_seen: new Date().toISOString(),
      }),
    ]);
    const after = await list(query);
    assert.deepEqual(
      after.body.data.map((found) => found.id),
      [company.id],
    );
    // Its total: one round of 1,000,000 USD.
    assert.equal((await list({ total_funding_min: 1_000_000 })).body.pagination.totalCount, 1);
    assert.equal((await list({ total_funding_min: 1_000_001 })).body.pagination.totalCount, 0);
    assert.equal((await list({ total_funding_min: 1, total_funding_currency: 'EUR' })).body.pagination.totalCount, 0);
  });

  it('job changes by company_domain (through the linked company) and company_linkedin_url equal plain SQL', async () => {
    await clearData(ctx.db);
    const w = world(28);
    await importKind('companies', w.companiesOfWorld);
    await importKind('job-changes', Array.from({ length: 40 }, w.move));
    const domain = (company: CompanyRecord) => new URL(company.website!).host;
    const [a, b, c] = w.companiesOfWorld;
    const cases: Record<string, string>[] = [
      { company_domain: domain(a!) },
      { company_domain: `https://${domain(b!)}/,${domain(c!).replace('www.', '')}` },
      { company_domain: 'no-such-company.example' },
      { company_linkedin_url: `${a!.linkedinUrl},${b!.linkedinUrl}` },
      { company_domain: domain(a!), company_linkedin_url: b!.linkedinUrl! },
      { company_domain: `${domain(a!)},${domain(b!)}`, company_linkedin_url: b!.linkedinUrl!, departments: 'sales' },
    ];
    let found = 0;
    for (const query of cases) {
      const filter = jobChanges.filter(query as JobChangesQuery, { now: new Date() });
      const where = whereClause(
        [...jobChanges.columns, { name: 'sort_at', type: 'timestamptz' }] as typeof jobChanges.columns,
        jobChanges.conditions(filter),
      );
      const expected = (
        await ctx.db.query<{ id: string }>(
          `SELECT record_id::text AS id FROM job_changes WHERE ${where.conditions.join(' AND ')}`,
          where.params,
        )
      )
        .map((row) => row.id)
        .sort();
      const url = `/api/v2/signals/job-changes?${new URLSearchParams({ ...query, limit: '100' })}`;
      const res = await ctx.app.inject({ url, headers: { authorization: `Bearer ${key}` } });
      assert.equal(res.statusCode, 200, `${url}: ${res.body}`);
      const body = res.json() as { data: { signalId: string; match_confidence?: string }[]; pagination: { totalCount: number } };
      assert.equal(body.pagination.totalCount, expected.length, url);
      assert.deepEqual(body.data.map((change) => change.signalId).sort(), expected, url);
      for (const change of body.data) assert.equal(change.match_confidence, 'exact', url);
      found += expected.length;
    }
    assert.ok(found > 0, 'some changes were found');
    const refused = await ctx.app.inject({
      url: '/api/v2/signals/job-changes?company_domain=not%20a%20domain',
      headers: { authorization: `Bearer ${key}` },
    });
    assert.equal(refused.statusCode, 400);
    assert.equal(refused.json().param, 'company_domain');
  });

  it('a bad value is a 400 naming its parameter', async () => {
    const cases: [Record<string, string>, string][] = [
      [{ has_signals: 'patents' }, 'has_signals'],
      [{ signals_since: 'last_3d' }, 'signals_since'],
      [{ signals_since: '2026-02-30' }, 'signals_since'],
      [{ job_change_since: 'yesterday-ish' }, 'job_change_since'],
      [{ funding_round_types: 'Series Z' }, 'funding_round_types'],
      [{ job_change_departments: 'astrology' }, 'job_change_departments'],
      [{ job_change_seniorities: 'intern' }, 'job_change_seniorities'],
      [{ total_funding_min: '-1' }, 'total_funding_min'],
      [{ total_funding_min: '10', total_funding_currency: 'dollars' }, 'total_funding_currency'],
      [{ total_funding_currency: 'EUR' }, 'total_funding_currency'],
    ];
    for (const [query, param] of cases) {
      const res = await list(query);
      assert.equal(res.status, 400, res.url);
      assert.equal((res.body as unknown as { param: string }).param, param, res.url);
    }
  });
});
