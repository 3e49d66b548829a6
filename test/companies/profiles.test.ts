// GET /api/v2/companies/{id} and /lookup over HTTP on both stores: each company's signal summary,
// answered from the read model's indexes, equals what plain SQL over the linked tables says, through
// imports, updates and deletions of the signals; a lookup picks the company SQL picks (imported first,
// then the oldest); a company with more rounds than the first read holds is summed whole.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import fc from 'fast-check';
import { acquisitionRecord, companyRecord, fundingRecord, hiringRecord, jobChangeRecord, maRecord } from '../fixtures.js';
import { clearData, describeEach, type TestContext } from '../helpers.js';
import { importThrough, startRebuildingApp } from '../ingest/support.js';
import { DEPARTMENTS, publishedRoundType } from '../../src/catalog/index.js';
import type { CompanyRecord } from '../../src/catalog/schemas/v2-schemas.js';
import type { Queryable } from '../../src/platform/db/index.js';

const DAY_MS = 86_400_000;
const INVESTORS = ['Oak Ventures', 'accel partners', 'Äpfel Capital', 'Zeta Fund', 'Beta Angels'];

/** The summary as plain SQL over the linked tables says it, in the served shape. */
async function sqlSummary(db: Queryable, companyId: string, now: Date) {
  const [row] = await db.query<{
    rounds: number;
    raised: { currency: string; amount: number }[];
    latest_round: { date: string; round_type: string | null; amount: number; currency: string } | null;
    investors: string[];
    deals_target: number;
    deals_acquirer: number;
    latest_deal: string | null;
    joined: number[];
    left_: number[];
    acquisition: { score: number | null; indicators: string[] | null; date: string } | null;
    open_postings: number;
    by_department: Record<string, number>;
    latest_posting: string | null;
  }>(
    `WITH rounds AS (
       SELECT id, funding_amount, sort_at, doc::json AS doc FROM funding_rounds WHERE company_id = $1::uuid
     ), moves AS (
       SELECT company_id, previous_company_id, sort_at FROM job_changes
        WHERE (company_id = $1::uuid OR previous_company_id = $1::uuid) AND sort_at <= $2::timestamptz
     )
     SELECT
       (SELECT count(*)::int FROM rounds) AS rounds,
       (SELECT coalesce(json_agg(json_build_object('currency', currency, 'amount', amount) ORDER BY currency COLLATE "C"), '[]'::json)
          FROM (SELECT doc->>'currency' AS currency, coalesce(sum(funding_amount), 0)::float8 AS amount FROM rounds GROUP BY 1) t) AS raised,
       (SELECT json_build_object('date', to_char(sort_at AT TIME ZONE 'UTC', 'YYYY-MM-DD'), 'round_type', doc->>'round_type',
                                 'amount', funding_amount::float8, 'currency', doc->>'currency')
          FROM rounds ORDER BY sort_at DESC, id DESC LIMIT 1) AS latest_round,
       (SELECT coalesce(json_agg(name ORDER BY name COLLATE "C"), '[]'::json)
          FROM (SELECT DISTINCT (i->>'name') COLLATE "C" AS name FROM rounds, json_array_elements(doc->'investors') i
                 WHERE i->>'name' IS NOT NULL ORDER BY 1 LIMIT 50) n) AS investors,
       (SELECT count(*)::int FROM ma_deals WHERE company_id = $1::uuid) AS deals_target,
       (SELECT count(*)::int FROM ma_deals WHERE acquirer_company_id = $1::uuid) AS deals_acquirer,
       (SELECT to_char(max(sort_at) AT TIME ZONE 'UTC', 'YYYY-MM-DD') FROM ma_deals
         WHERE company_id = $1::uuid OR acquirer_company_id = $1::uuid) AS latest_deal,
       ARRAY(SELECT (SELECT count(*)::int FROM moves WHERE company_id = $1::uuid AND sort_at >= $2::timestamptz - d * interval '1 day')
               FROM unnest(ARRAY[30, 90, 365]) d) AS joined,
       ARRAY(SELECT (SELECT count(*)::int FROM moves WHERE previous_company_id = $1::uuid AND sort_at >= $2::timestamptz - d * interval '1 day')
               FROM unnest(ARRAY[30, 90, 365]) d) AS left_,
       (SELECT json_build_object('score', (doc::json->>'acquisitionSignalScore')::float8,
                                 'indicators', doc::json->'signalIndicators',
                                 'date', to_char(sort_at AT TIME ZONE 'UTC', 'YYYY-MM-DD'))
          FROM acquisition_signals WHERE company_id = $1::uuid ORDER BY sort_at DESC, id DESC LIMIT 1) AS acquisition,
       (SELECT count(*)::int FROM hiring_postings WHERE company_id = $1::uuid AND expires_at >= $2::timestamptz) AS open_postings,
       (SELECT json_object_agg(d, (SELECT count(*) FROM hiring_postings
                                    WHERE company_id = $1::uuid AND expires_at >= $2::timestamptz AND departments && ARRAY[d]))
          FROM unnest($3::text[]) d) AS by_department,
       (SELECT to_char(max(sort_at) AT TIME ZONE 'UTC', 'YYYY-MM-DD') FROM hiring_postings WHERE company_id = $1::uuid) AS latest_posting`,
    [companyId, now.toISOString(), DEPARTMENTS],
  );
  const r = row!;
  const windows = (counts: number[]) => ({ last30Days: counts[0], last90Days: counts[1], last365Days: counts[2] });
  return {
    fundingRounds: {
      count: r.rounds,
      totalRaised: r.raised,
      latest: r.latest_round && {
        ...r.latest_round,
        round_type: undefined,
        roundType: publishedRoundType(r.latest_round.round_type),
      },
    },
    deals: { asTarget: r.deals_target, asAcquirer: r.deals_acquirer, latestDate: r.latest_deal },
    jobChanges: { joined: windows(r.joined), left: windows(r.left_) },
    acquisitionSignal: r.acquisition && { ...r.acquisition, indicators: r.acquisition.indicators ?? [] },
    investors: r.investors,
    hiring: { openPostings: r.open_postings, byDepartment: r.by_department, latestDate: r.latest_posting },
  };
}

/** A small world: companies, and rounds, deals, job changes and acquisition signals naming them over the last 400 days. */
function world(seed: number) {
  const rand = fc.sample(fc.integer({ min: 0, max: 1_000_000 }), { seed, numRuns: 3000 });
  let next = 0;
  const int = (n: number) => rand[next++ % rand.length]! % n;
  const pick = <T>(items: readonly T[]) => items[int(items.length)]!;
  // Some dated after now: they are not counted in the job change windows.
  const daysAgo = () => new Date(Date.now() - (int(400) - 3) * DAY_MS - int(DAY_MS)).toISOString();
  const companies = Array.from({ length: 16 }, (_, i) =>
    companyRecord({
      name: `Profiled ${seed} ${i}`,
      website: `https://www.profiled-${seed}-${i}.com`,
      linkedinUrl: `https://www.linkedin.com/company/profiled-${seed}-${i}`,
    }),
  ) as (CompanyRecord & { website: string; linkedinUrl: string })[];
  const round = (company = pick(companies), dateSeen?: string) =>
    fundingRecord({
      company_name: company.name,
      round_type: pick(['seed', 'series a', 'debt', null]),
      funding_amount: 1_000_000 * (1 + int(30)),
      currency: pick(['USD', 'USD', 'EUR', 'GBP']),
      company_info: { ...fundingRecord().company_info, name: company.name, website: company.website },
      investors: INVESTORS.filter(() => int(3) === 0).map((name) => ({ name })),
      // Equal dates now and then: the latest round is the one SQL's (sort_at, id) order puts first.
      date_seen: dateSeen ?? (int(5) === 0 ? '2026-01-15T00:00:00.000Z' : daysAgo()),
    });
  const deal = () => {
    const [target, acquirer] = [pick(companies), pick(companies)];
    return maRecord({
      company_name: target.name,
      company_info: { name: target.name, website: target.website, hq_country: 'GB', categories: [] },
      acquired_by: acquirer.name,
      acquired_by_linkedin_url: acquirer.linkedinUrl,
      date_seen: daysAgo(),
    });
  };
  const move = () => {
    const [company, previous] = [pick(companies), pick(companies)];
    const occurredAt = daysAgo();
    return jobChangeRecord({
      companyName: company.name,
      companyLinkedinUrl: company.linkedinUrl,
      previousCompanyName: int(3) === 0 ? null : previous.name,
      occurredAt,
      discoveredAt: occurredAt,
    });
  };
  const signal = () => {
    const company = pick(companies);
    return acquisitionRecord({
      companyName: company.name,
      website: company.website,
      linkedinUrl: company.linkedinUrl,
      acquisitionSignalScore: int(100),
      signalIndicators: int(4) === 0 ? [] : ['Recent funding round'],
      lastUpdated: daysAgo(),
    });
  };
  const posting = () => {
    const company = pick(companies);
    const created = daysAgo();
    return hiringRecord({
      title: pick(['VP of Sales', 'Software Engineer', 'Head of Marketing', 'Data Analyst', 'Legal Counsel']),
      companyName: company.name,
      companyWebsite: company.website,
      companyLinkedinUrl: company.linkedinUrl,
      datePosted: created,
      createdAt: created,
      // Some still open, some expired, some without an end.
      validThrough: int(4) === 0 ? null : new Date(Date.parse(created) + int(120) * DAY_MS).toISOString(),
    });
  };
  return { companies, round, deal, move, signal, posting };
}

describeEach('companies: profiles', (backend) => {
  let ctx: TestContext;
  let key: string;

  const importKind = (kind: string, records: object[]) => importThrough(ctx.app, kind, records);
  const get = async (path: string) => {
    const res = await ctx.app.inject({ url: `/api/v2/companies/${path}`, headers: { authorization: `Bearer ${key}` } });
    assert.equal(res.statusCode, 200, `${path}: ${res.body}`);
    return (res.json() as { data: CompanyRecord & { signals: unknown } }).data;
  };
  /** Every stored company's profile equals SQL's summary; returns how many have a round, a deal, a move in and out, a signal. */
  const agree = async () => {
    const now = new Date();
    const stored = await ctx.db.query<{ id: string }>(`SELECT record_id::text AS id FROM companies ORDER BY id`);
    const seen = { rounds: 0, deals: 0, joined: 0, left: 0, signals: 0, hiring: 0 };
    for (const { id } of stored) {
      const expected = await sqlSummary(ctx.db, id, now);
      const served = await get(id);
      assert.equal(served.id, id);
      assert.deepEqual(JSON.parse(JSON.stringify(served.signals)), JSON.parse(JSON.stringify(expected)), id);
      if (expected.fundingRounds.count > 0) seen.rounds++;
      if (expected.deals.asTarget + expected.deals.asAcquirer > 0) seen.deals++;
      if (expected.jobChanges.joined.last365Days! > 0) seen.joined++;
      if (expected.jobChanges.left.last365Days! > 0) seen.left++;
      if (expected.acquisitionSignal !== null) seen.signals++;
      if (expected.hiring.openPostings > 0) seen.hiring++;
    }
    return seen;
  };

  before(async () => {
    ({ ctx, key } = await startRebuildingApp(backend));
  });
  after(() => ctx.close());

  it('every profile equals plain SQL through imports, updates and deletions of the signals', async () => {
    await clearData(ctx.db);
    const w = world(30);
    await importKind('companies', w.companies);
    await importKind(
      'funding',
      Array.from({ length: 50 }, () => w.round()),
    );
    await importKind('m-a', Array.from({ length: 20 }, w.deal));
    const moves = Array.from({ length: 60 }, w.move);
    await importKind('job-changes', moves);
    await importKind('acquisitions', Array.from({ length: 20 }, w.signal));
    const postings = Array.from({ length: 40 }, w.posting);
    await importKind('hiring', postings);
    const seen = await agree();
    for (const [what, count] of Object.entries(seen)) assert.ok(count >= 5, `${count} companies with ${what}`);

    // Moves dated again, deletions, new signals: the next request answers from the changed indexes.
    await importKind(
      'job-changes',
      moves.slice(0, 15).map((move) => ({ ...move, occurredAt: new Date(Date.now() - 5 * DAY_MS).toISOString() })),
    );
    await ctx.db.query(`DELETE FROM funding_rounds WHERE id IN (SELECT id FROM funding_rounds ORDER BY id LIMIT 15)`);
    await ctx.db.query(`DELETE FROM ma_deals WHERE id IN (SELECT id FROM ma_deals ORDER BY id DESC LIMIT 6)`);
    await ctx.db.query(`DELETE FROM acquisition_signals WHERE id IN (SELECT id FROM acquisition_signals ORDER BY id LIMIT 6)`);
    await importKind(
      'funding',
      Array.from({ length: 10 }, () => w.round()),
    );
    await importKind('acquisitions', Array.from({ length: 5 }, w.signal));
    await importKind(
      'hiring',
      postings.slice(0, 10).map((posting) => ({ ...posting, title: 'Chief Revenue Officer', validThrough: null })),
    );
    await ctx.db.query(`DELETE FROM hiring_postings WHERE id IN (SELECT id FROM hiring_postings ORDER BY id DESC LIMIT 5)`);
    await agree();
  });

  it('a company with more rounds than the first read holds is summed whole', async () => {
    await clearData(ctx.db);
    const w = world(31);
    const company = w.companies[0]!;
    await importKind('companies', [company]);
    await importKind(
      'funding',
      Array.from({ length: 130 }, (_, i) => w.round(company, new Date(Date.now() - i * DAY_MS).toISOString())),
    );
    const [{ count }] = (await ctx.db.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM funding_rounds WHERE company_id = $1::uuid`,
      [company.id],
    )) as [{ count: number }];
    assert.ok(count > 100, `${count} rounds`);
    const served = (await get(company.id)) as unknown as { signals: { fundingRounds: { count: number } } };
    assert.equal(served.signals.fundingRounds.count, count);
    await agree();
  });

  it('a lookup by domain or LinkedIn page picks the company SQL picks: imported first, then the oldest', async () => {
    await clearData(ctx.db);
    const w = world(32);
    const [imported, other] = w.companies as [(typeof w.companies)[number], (typeof w.companies)[number]];
    // A round names a site no company has: resolution makes a company of it; then an import brings a second company with that site.
    const site = 'https://www.shared-site.com';
    await importKind('funding', [
      fundingRecord({
        company_name: 'Shared Site Co',
        company_info: { ...fundingRecord().company_info, name: 'Shared Site Co', website: site },
      }),
    ]);
    await importKind('companies', [{ ...imported, website: site }, other]);
    const candidates = await ctx.db.query<{ id: string; origin: string }>(
      `SELECT record_id::text AS id, origin FROM companies WHERE website_key = 'shared-site.com' ORDER BY (origin = 'import') DESC, id`,
    );
    assert.ok(candidates.length >= 1);
    assert.equal((await get(`lookup?domain=SHARED-SITE.com/`)).id, candidates[0]!.id);
    assert.equal((await get(`lookup?linkedin_url=${encodeURIComponent(other.linkedinUrl)}`)).id, other.id);
    const unknown = await ctx.app.inject({
      url: '/api/v2/companies/lookup?domain=no-such-site.example',
      headers: { authorization: `Bearer ${key}` },
    });
    assert.equal(unknown.statusCode, 404);
  });
});
