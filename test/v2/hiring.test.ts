// GET /api/v2/signals/hiring over HTTP on both stores: every filter, `description` full-text search
// included, answers what plain SQL answers (the same conditions written as SQL,
// test/read-model/sql-conditions.ts) through imports, updates and expiry; every answer validates
// against the published 2.2 schema; a new posting is found by a description search on the next
// request; a bad value is a 400 naming its parameter.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import fc from 'fast-check';
import { hiringRecord } from '../fixtures.js';
import { hiring } from '../../src/catalog/registry.js';
import { clearData, describeEach, type TestContext } from '../helpers.js';
import { importThrough, startRebuildingApp } from '../ingest/support.js';
import { whereClause } from '../read-model/sql-conditions.js';
import { documentValidator, publishedSchemasMissing } from './published-schemas.js';
import type { HiringPostingRecord, HiringQuery } from '../../src/catalog/schemas/hiring-schemas.js';

const PUBLISHED = new URL('../../../shared/reference/signals-openapi-2026-07/openapi.json', import.meta.url);
const DAY_MS = 86_400_000;
const TITLES = [
  'Senior Software Engineer',
  'VP of Sales',
  'Account Executive',
  'Data Engineer',
  'Head of Marketing',
  'Legal Counsel',
];
const WORDS = ['kubernetes', 'terraform', 'quota', 'gdpr', 'series', 'intern', 'python', 'pipeline', 'scaling', 'remote'];
const PLACES: [string, string, string][] = [
  ['San Francisco', 'CA', 'US'],
  ['Austin', 'TX', 'US'],
  ['Berlin', 'Berlin', 'DE'],
  ['London', 'England', 'GB'],
  ['Toronto', 'Ontario', 'CA'],
];

/** Postings of a dozen companies, some expired, with descriptions drawn from a small vocabulary. */
function world(seed: number) {
  const rand = fc.sample(fc.integer({ min: 0, max: 1_000_000 }), { seed, numRuns: 5000 });
  let next = 0;
  const int = (n: number) => rand[next++ % rand.length]! % n;
  const pick = <T>(items: readonly T[]) => items[int(items.length)]!;
  const companies = Array.from({ length: 12 }, (_, i) => ({
    name: `Hirewell ${seed} ${i}`,
    website: `https://www.hirewell-${seed}-${i}.com`,
    linkedinUrl: `https://www.linkedin.com/company/hirewell-${seed}-${i}`,
    country: pick(['US', 'DE', 'GB']),
    employees: pick([8, 40, 150, 700, 5000]),
  }));
  const text = () =>
    Array.from({ length: 6 + int(10) }, () => (int(3) === 0 ? pick(WORDS) : pick(['we', 'build', 'the', 'team', 'with', 'care'])))
      .join(' ')
      .replace('scaling', int(2) === 0 ? 'scaling' : 'scaled');
  const posting = (): HiringPostingRecord => {
    const company = pick(companies);
    const [city, region, country] = pick(PLACES);
    const created = Date.now() - int(120) * DAY_MS - int(DAY_MS);
    const posted = created - int(3) * DAY_MS;
    return hiringRecord({
      title: pick(TITLES),
      city,
      region,
      jobCountry: country,
      location: `${city}, ${region}`,
      datePosted: new Date(posted).toISOString(),
      createdAt: new Date(created).toISOString(),
      // Open for up to 90 days: the older ones have expired.
      validThrough: int(4) === 0 ? null : new Date(posted + (1 + int(90)) * DAY_MS).toISOString(),
      numApplicants: int(5) === 0 ? null : String(int(300)),
      descriptionText: int(8) === 0 ? null : `${text()}. "Series B" company. ${text()}`,
      companyName: company.name,
      companyWebsite: company.website,
      companyLinkedinUrl: company.linkedinUrl,
      companyCountry: company.country,
      companyEmployeeCount: company.employees,
      companyIndustry: pick(['Software Development', 'Financial Services']),
      companyCategories: JSON.stringify([pick(['Technology', 'Fintech'])]),
    });
  };
  const description = () =>
    pick([
      () => pick(WORDS),
      () => `${pick(WORDS)} ${pick(WORDS)}`,
      () => `${pick(WORDS)} OR ${pick(WORDS)}`,
      () => `${pick(WORDS)} -${pick(WORDS)}`,
      () => '"series b"',
      () => 'scale',
      // Answered from every row without the word's, and a phrase beside words.
      () => `-${pick(WORDS)}`,
      () => `"series b" OR ${pick(WORDS)} -${pick(WORDS)}`,
      () => `${pick(WORDS)} ${pick(WORDS)} ${pick(WORDS)}`,
    ])();
  const query = (): HiringQuery & Record<string, unknown> => {
    const q: HiringQuery & Record<string, unknown> = { limit: 100 };
    if (int(2) === 0) q.description = description();
    if (int(5) === 0) q.countries = pick(['US', 'DE', 'GB,CA']);
    if (int(6) === 0) q.job_countries = pick(['US', 'CA']);
    if (int(7) === 0) q.exclude_countries = pick(['DE', 'GB']);
    if (int(6) === 0) q.states = pick(['CA', 'TX,CA']);
    if (int(6) === 0) q.city = pick(['san', 'berlin', 'lond']);
    if (int(5) === 0) q.departments = pick(['engineering', 'sales', 'marketing,legal']);
    if (int(6) === 0) q.seniorities = pick(['vp', 'head,vp']);
    if (int(6) === 0) q.team_size = pick(['1-10', '51-200,201-1000', '1000-plus']);
    if (int(6) === 0) q.applicants = pick(['0-25', '101-200,201-plus']);
    if (int(6) === 0) q.categories = pick(['Software Development', 'Fintech|Technology']);
    if (int(6) === 0) q.search = pick(['engineer', 'hirewell', 'london']);
    if (int(8) === 0) q.company_name = `Hirewell ${seed} ${int(12)}`;
    if (int(8) === 0) q.company_domain = pick(companies).website;
    if (int(5) === 0) q.include_expired = true;
    if (int(5) === 0) q.date_preset = pick(['last_30d', 'last_90d', 'this_year']);
    return q;
  };
  return { posting, query };
}

describeEach('hiring signals', (backend) => {
  let ctx: TestContext;
  let key: string;
  const validate = publishedSchemasMissing ? undefined : documentValidator(PUBLISHED, 'Hiring_HiringSignalsResponse');

  const importPostings = (records: object[]) => importThrough(ctx.app, 'hiring', records);
  const list = async (query: Record<string, unknown>) => {
    const url = `/api/v2/signals/hiring?${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]))}`;
    const res = await ctx.app.inject({ url, headers: { authorization: `Bearer ${key}` } });
    return { url, status: res.statusCode, body: res.json() as Record<string, unknown> };
  };
  /** The ids plain SQL finds for the query, newest first. */
  const sqlIds = async (query: HiringQuery, now: Date) => {
    const where = whereClause(hiring.columns, hiring.conditions(hiring.filter(query, { now })));
    // Ties in sort_at go by the row id, as the index orders them (not by the record id).
    const sql = `SELECT record_id::text AS record FROM hiring_postings ${
      where.conditions.length > 0 ? `WHERE ${where.conditions.join(' AND ')}` : ''
    } ORDER BY sort_at DESC, hiring_postings.id DESC`;
    return (await ctx.db.query<{ record: string }>(sql, where.params)).map((row) => row.record);
  };
  /** Every query's total and page equal plain SQL's; every body is the published shape. Returns how many matched something. */
  const agree = async (queries: readonly (HiringQuery & Record<string, unknown>)[]) => {
    let nonEmpty = 0;
    for (const query of queries) {
      const got = await list(query);
      const expected = await sqlIds(query, new Date());
      assert.equal(got.status, 200, `${got.url}: ${JSON.stringify(got.body)}`);
      if (validate) assert.ok(validate(got.body), `${got.url}: ${JSON.stringify(validate.errors?.slice(0, 3))}`);
      const body = got.body as { data: { id: string; match_confidence: string }[]; pagination: { totalCount: number } };
      assert.equal(body.pagination.totalCount, expected.length, got.url);
      assert.deepEqual(
        body.data.map((record) => record.id),
        expected.slice(0, 100),
        got.url,
      );
      const confidence = query.company_domain ? 'exact' : query.company_name ? 'fuzzy' : 'none';
      for (const record of body.data) assert.equal(record.match_confidence, confidence, got.url);
      if (expected.length > 0) nonEmpty++;
    }
    return nonEmpty;
  };

  before(async () => {
    ({ ctx, key } = await startRebuildingApp(backend));
  });
  after(() => ctx.close());

  it('totals and pages equal plain SQL for every filter, description included, through imports and updates', async () => {
    await clearData(ctx.db);
    const w = world(27);
    const postings = Array.from({ length: 120 }, w.posting);
    await importPostings(postings);
    const queries = Array.from({ length: 60 }, w.query);
    const matched = await agree(queries);
    assert.ok(matched >= 25, `${matched} of the queries matched a posting`);
    const described = queries.filter((q) => q.description !== undefined);
    assert.ok(described.length >= 15, `${described.length} description queries`);

    // Updates (new descriptions and titles, some now expired) and new postings: the next requests see them.
    await importPostings(
      postings.slice(0, 30).map((posting, i) => ({
        ...posting,
        title: 'Kubernetes Platform Engineer',
        descriptionText: `kubernetes terraform ${i % 2 === 0 ? 'quota' : 'gdpr'}`,
        // Expired: open until the moment it was posted.
        validThrough: i % 3 === 0 ? posting.datePosted : posting.validThrough,
      })),
    );
    await importPostings(Array.from({ length: 20 }, w.posting));
    await agree(queries);
    await agree(Array.from({ length: 30 }, w.query));

    // Deleted postings take their words with them; the words table is every posting's words and nothing else.
    await ctx.db.exec('DELETE FROM hiring_postings WHERE id IN (SELECT id FROM hiring_postings ORDER BY id LIMIT 7)');
    await agree(queries);
    const [words] = await ctx.db.query<{ stale: number }>(
      `SELECT count(*)::int AS stale
         FROM hiring_postings p FULL JOIN hiring_description_words w ON w.posting_id = p.id
        WHERE p.id IS NULL OR w.posting_id IS NULL
           OR w.words <> to_tsvector('english'::regconfig, coalesce(p.doc::json ->> 'descriptionText', ''))`,
    );
    assert.equal(words?.stale, 0);
  });

  it('a new posting is found by a description search on the next request; expired ones only with include_expired', async () => {
    await clearData(ctx.db);
    const query = { description: 'zygomorphic', limit: 100 };
    const before = (await list(query)).body as { pagination: { totalCount: number } };
    assert.equal(before.pagination.totalCount, 0);
    const open = hiringRecord({ descriptionText: 'Zygomorphic flowers, and Kubernetes.' });
    const expired = hiringRecord({
      descriptionText: 'zygomorphic again',
      datePosted: '2026-01-01T00:00:00.000Z',
      validThrough: '2026-02-01T00:00:00.000Z',
    });
    await importPostings([open, expired]);
    const found = (await list(query)).body as { data: { id: string }[] };
    assert.deepEqual(
      found.data.map((record) => record.id),
      [open.id],
    );
    const all = (await list({ ...query, include_expired: true })).body as { data: { id: string }[] };
    assert.deepEqual(all.data.map((record) => record.id).sort(), [open.id, expired.id].sort());
  });

  it('requests asking the same new question at once read each of its words once, as /metrics counts', async () => {
    await clearData(ctx.db);
    const postings = Array.from({ length: 10 }, (_, i) =>
      hiringRecord({ descriptionText: i % 2 === 0 ? 'Quorum sensing on Kubernetes.' : 'Quorum only.' }),
    );
    await importPostings(postings);
    const pieceReads = async () => {
      const res = await ctx.app.inject({ url: '/metrics' });
      return Number(/^dealsignal_full_text_pieces_total\{outcome="read"\} (\d+)/m.exec(res.body)?.[1]);
    };
    // A list request takes the index up to the import, so the question is read at the position it stands at.
    assert.equal((await list({ limit: 1 })).status, 200);
    const readsBefore = await pieceReads();
    const ask = () => list({ description: 'quorum kubernetes', limit: 100 });
    let answers: ReturnType<typeof ask>[] = [];
    // On PostgreSQL the words are held back by a lock until every request waits for them: then the
    // database holds one read of the question's words, not one a request.
    let blockedReads: number | undefined;
    if (backend.name === 'postgres') {
      await ctx.db.transaction(async (tx) => {
        await tx.exec('LOCK TABLE hiring_description_words IN ACCESS EXCLUSIVE MODE');
        answers = Array.from({ length: 6 }, ask);
        const blocked = async () =>
          Number(
            (
              await ctx.db.query<{ n: string }>(
                `SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database()
                   AND wait_event_type = 'Lock' AND query LIKE '%hiring_description_words%'`,
              )
            )[0]!.n,
          );
        for (let waited = 0; (await blocked()) === 0; waited += 20) {
          assert.ok(waited < 10_000, 'no request reached the words');
          await delay(20);
        }
        await delay(500);
        blockedReads = await blocked();
      });
    } else answers = Array.from({ length: 6 }, ask);
    for (const answer of await Promise.all(answers)) {
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      const body = answer.body as { data: { id: string }[]; pagination: { totalCount: number } };
      assert.equal(body.pagination.totalCount, 5);
      assert.deepEqual(
        body.data.map((record) => record.id).sort(),
        postings
          .filter((_, i) => i % 2 === 0)
          .map((posting) => posting.id)
          .sort(),
      );
    }
    if (blockedReads !== undefined) assert.equal(blockedReads, 1);
    // Two pieces, "quorum" and "kubernet", each read from the database once.
    assert.equal((await pieceReads()) - readsBefore, 2);
  });

  it('the record is served as published: match_confidence, companyId, isFreeAccess, companyLogo', async () => {
    await clearData(ctx.db);
    const posting = hiringRecord({ companyLogoUrl: 'https://images.example.com/logo.png' });
    await importPostings([posting]);
    const body = (await list({})).body as { data: Record<string, unknown>[]; meta: { endpoint: string } };
    assert.equal(body.meta.endpoint, 'signals.hiring');
    const [record] = body.data;
    assert.equal(record!.id, posting.id);
    assert.equal(Object.keys(record!)[1], 'match_confidence');
    assert.equal(record!.match_confidence, 'none');
    assert.equal(record!.isFreeAccess, true);
    assert.equal(record!.companyLogo, 'https://images.example.com/logo.png');
    assert.match(String(record!.companyId), /^[0-9a-f-]{36}$/);
    // Values derived when the posting is written: a US job's state, its team size and applicant bands, its department.
    for (const query of [{ states: 'CA' }, { team_size: '201-1000' }, { applicants: '26-50' }, { departments: 'engineering' }]) {
      assert.equal(((await list(query)).body as { data: unknown[] }).data.length, 1, JSON.stringify(query));
    }
    if (validate) assert.ok(validate(body), JSON.stringify(validate.errors));
  });

  it('a bad value is a 400 naming its parameter', async () => {
    for (const [query, param] of [
      [{ description: 'the and of' }, 'description'],
      [{ departments: 'astrology' }, 'departments'],
      [{ team_size: '5-6' }, 'team_size'],
      [{ applicants: 'many' }, 'applicants'],
      [{ states: 'California' }, 'states'],
      [{ company_domain: 'not a domain' }, 'company_domain'],
      [{ sort_by: 'salary' }, 'sort_by'],
    ] as const) {
      const res = await list(query);
      assert.equal(res.status, 400, `${JSON.stringify(query)}: ${JSON.stringify(res.body)}`);
      assert.equal((res.body as { success: boolean }).success, false);
      assert.match(String((res.body as { error: string }).error), new RegExp(param), JSON.stringify(res.body));
    }
  });
});
