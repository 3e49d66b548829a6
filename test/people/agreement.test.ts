// GET /api/v2/people against plain SQL on both stores: random companies, funding rounds and deals
// naming people, job changes and acquisition signals, imported through the API (company resolution
// links them), then random filters. The reference reads the same tables in one statement: every
// person named, their newest mention, their own job change and their company's newest round and
// acquisition, each filter in SQL. The role taxonomy (a title's position, functions, seniority) is an
// input to both: the reference is given the classifier's answer for each title of the pool.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { companyRecord, fundingRecord, jobChangeRecord, maRecord, acquisitionRecord } from '../fixtures.js';
import { describeEach, makeKey, startApp, type TestContext } from '../helpers.js';
import { ADMIN_TOKEN, importRecords } from '../ingest/support.js';
import { classifyRole } from '../../src/catalog/index.js';
import { Rng, sfc32Randomizer } from '../../src/demo/random.js';
import { maskedName } from '../../src/people/sources.js';
import { SIZE_BANDS } from '../../src/people/schemas.js';

const NOW = new Date('2026-06-30T12:00:00Z');
const DAY = 86_400_000;
const TITLES = [
  'CTO',
  'Chief Technology Officer',
  'VP of Sales',
  'Head of Product',
  'Operations Coordinator',
  'Software Engineer',
  'Assistant to the CEO',
  'Sales Manager',
  'CEO',
  'Co-Founder',
  'Director of Marketing',
  'Chief Operating Officer',
];
const COUNTRIES = ['US', 'DE', 'GB', 'FR', 'CN'];
const EMPLOYEES = [5, 30, 70, 200, 400, 800, 5000, null];
const INDUSTRIES = ['Software', 'Robotics', 'Financial Services', null];
const FIRST = ['Ada', 'Bram', 'Chloe', 'Dev', 'Elif', 'Femi', 'Gus', 'Hana', 'Ivo', 'Jules'];
const LAST = ['Moss', 'Quinn', 'Rahn', 'Sato', 'Tull', 'Vega'];

interface Reference {
  url: string | null;
  name: string;
  title: string | null;
  company: string | null;
  type: string;
  date: string;
  latest: boolean;
}

const tuple = (p: Reference) => JSON.stringify([p.url, maskedName(p.name), p.title, p.company, p.type, p.date, p.latest]);

describeEach('people API agrees with plain SQL', (backend) => {
  let ctx: TestContext;
  let key: string;
  const rng = new Rng(sfc32Randomizer(20261129));
  const pick = <T>(values: readonly T[]) => values[rng.int(0, values.length - 1)]!;
  const usedTimes = new Set<number>();
  /** A distinct instant within the last three years: no two rows tie. */
  const when = () => {
    let at: number;
    do at = NOW.getTime() - rng.int(1, 3 * 365) * DAY - rng.int(0, DAY / 1000 - 1) * 1000;
    while (usedTimes.has(at));
    usedTimes.add(at);
    return new Date(at).toISOString();
  };
  const companies = Array.from({ length: 14 }, (_, i) =>
    companyRecord({
      name: `Agree Co ${i}`,
      website: `https://www.agree-co-${i}.com`,
      linkedinUrl: `https://www.linkedin.com/company/agree-co-${i}`,
      headquartersCountry: pick(COUNTRIES),
      employeeCount: pick(EMPLOYEES),
      industry: pick(INDUSTRIES),
    }),
  );
  const people = Array.from({ length: 70 }, (_, i) => ({
    name: `${FIRST[i % FIRST.length]} ${LAST[Math.floor(i / FIRST.length) % LAST.length]}${i >= 60 ? ' Jr' : ''}`,
    url: `https://www.linkedin.com/in/agree-person-${i}`,
  }));
  const staff = (count: number) => {
    const chosen = new Set<number>();
    while (chosen.size < count) chosen.add(rng.int(0, people.length - 1));
    return [...chosen].map((i) => ({
      name: people[i]!.name,
      title: pick(TITLES),
      // Some people are named without a profile: they are told apart by name at the company.
      linkedin_url: rng.chance(0.85) ? people[i]!.url : null,
    }));
  };

  before(async () => {
    ctx = await startApp(backend, { ADMIN_TOKEN }, { now: () => NOW });
    key = (await makeKey(ctx.db, 'enterprise')).key;
    await importRecords(ctx.app, 'companies', companies);
    const rounds = Array.from({ length: 24 }, () => {
      const company = pick(companies);
      const employees = staff(rng.int(0, 3));
      return fundingRecord({
        company_name: company.name,
        company_info: { name: company.name, website: company.website! },
        ceo: rng.chance(0.5) ? (employees[0]?.name ?? `${pick(FIRST)} Boss`) : null,
        contact_info: [{ company_linkedin_url: company.linkedinUrl!, employees }],
        date_seen: when(),
      });
    });
    const deals = Array.from({ length: 6 }, () => {
      const company = pick(companies);
      return maRecord({
        company_name: company.name,
        company_info: { name: company.name, website: company.website! },
        contact_info: [{ company_linkedin_url: company.linkedinUrl!, employees: staff(rng.int(0, 2)) }],
        date_seen: when(),
      });
    });
    const moves = Array.from({ length: 60 }, () => {
      const company = pick(companies);
      const person = pick(people);
      return jobChangeRecord({
        personName: person.name,
        personLinkedinUrl: person.url,
        companyName: company.name,
        companyLinkedinUrl: company.linkedinUrl!,
        newRole: pick(TITLES),
        occurredAt: when(),
      });
    });
    const likely = Array.from({ length: 5 }, () => {
      const company = pick(companies);
      return acquisitionRecord({
        companyName: company.name,
        website: company.website,
        linkedinUrl: company.linkedinUrl,
        lastUpdated: when(),
      });
    });
    await importRecords(ctx.app, 'funding', rounds);
    await importRecords(ctx.app, 'm-a', deals);
    await importRecords(ctx.app, 'acquisitions', likely);
    await importRecords(ctx.app, 'job-changes', moves);
  });
  after(() => ctx.close());

  const roles = JSON.stringify(
    TITLES.map((title) => {
      const role = classifyRole(title);
      return { title, position: role.position, seniority: role.seniority, functions: role.departments };
    }),
  );

  /** Every person the tables name, with what the filters read, by plain SQL. */
  const reference = async (query: Record<string, string>): Promise<Reference[]> => {
    const params: unknown[] = [roles];
    const param = (value: unknown) => {
      params.push(value);
      return `$${params.length}`;
    };
    const list = (name: string) => (query[name] ?? '').split(',').filter((v) => v !== '');
    const where: string[] = [];
    const types = list('signal_type');
    const asked = (type: string) => types.length === 0 || types.includes(type);
    const matched = `greatest(${asked('funding_round') ? 'fr_at' : 'NULL'}, ${asked('acquisition') ? 'acq_at' : 'NULL'}, ${asked('job_change') ? 'jc_at' : 'NULL'})`;
    const lookup = ['linkedin_url', 'company_domain', 'company_linkedin_url'].some((name) => query[name] !== undefined);
    const range = query.signal_date_range ?? (lookup ? undefined : '12m');
    where.push(`${matched} IS NOT NULL`);
    if (range !== undefined) {
      const n = Number(range.slice(0, -1));
      const unit = range.at(-1) === 'd' ? 'days' : range.at(-1) === 'm' ? 'months' : 'years';
      where.push(`${matched} >= ${param(NOW.toISOString())}::timestamptz - ${param(`${n} ${unit}`)}::interval`);
    }
    if (query.title !== undefined) {
      const alternatives = list('title').map((title) => {
        const phrase = title
          .toLowerCase()
          .replace(/[^a-z0-9]+/g, ' ')
          .trim();
        const position = classifyRole(title).position;
        return `(held LIKE ${param(`% ${phrase} %`)} OR whole = ${param(phrase)}${position ? ` OR r.position = ${param(position)}` : ''})`;
      });
      where.push(`(${alternatives.join(' OR ')})`);
    }
    if (query.function !== undefined) where.push(`r.functions && ${param(list('function'))}::text[]`);
    if (query.seniority !== undefined) where.push(`r.seniority = ANY(${param(list('seniority'))}::text[])`);
    if (query.country !== undefined) where.push(`country = ANY(${param(list('country'))}::text[])`);
    if (query.exclude_countries !== undefined)
      where.push(`(country IS NULL OR NOT country = ANY(${param(list('exclude_countries'))}::text[]))`);
    if (query.company_size !== undefined) where.push(`band = ANY(${param(list('company_size'))}::text[])`);
    if (query.industry !== undefined)
      where.push(`lower(industry) = ANY(${param(list('industry').map((v) => v.toLowerCase()))}::text[])`);
    if (query.linkedin_url !== undefined)
      where.push(`identity = ${param(query.linkedin_url.replace(/^https?:\/\/(www\.)?/, ''))}`);
    if (query.company_domain !== undefined) where.push(`domain = ${param(query.company_domain)}`);
    if (query.company_linkedin_url !== undefined)
      where.push(`company_linkedin = ${param(query.company_linkedin_url.replace(/^https?:\/\/(www\.)?/, ''))}`);
    const key = (url: string) => `lower(regexp_replace(regexp_replace(${url}, '^https?://(www\\.)?', ''), '/+$', ''))`;
    const rows = await ctx.db.query<{
      url: string | null;
      name: string;
      title: string | null;
      company: string | null;
      fr_at: Date | null;
      acq_at: Date | null;
      jc_at: Date | null;
      matched: Date;
    }>(
      `WITH roles AS (
         SELECT r->>'title' AS title, r->>'position' AS position, r->>'seniority' AS seniority,
                ARRAY(SELECT json_array_elements_text(r->'functions')) AS functions
           FROM json_array_elements($1::json) r
       ), employees AS (
         SELECT 'funding' AS tbl, t.id, t.company_id, t.sort_at, e->>'name' AS name, e->>'title' AS title,
                e->>'linkedin_url' AS url, ci->>'company_linkedin_url' AS company_url
           FROM funding_rounds t, json_array_elements(t.doc::json->'contact_info') ci, json_array_elements(ci->'employees') e
         UNION ALL
         SELECT 'm-a', t.id, t.company_id, t.sort_at, e->>'name', e->>'title', e->>'linkedin_url', ci->>'company_linkedin_url'
           FROM ma_deals t, json_array_elements(t.doc::json->'contact_info') ci, json_array_elements(ci->'employees') e
       ), candidates AS (
         SELECT 'e' AS kind, company_id, sort_at, name, title, url, company_url FROM employees
         UNION ALL
         SELECT 'e', t.company_id, t.sort_at, t.doc::json->>'ceo', 'CEO', NULL, NULL FROM funding_rounds t
          WHERE t.doc::json->>'ceo' IS NOT NULL
            AND NOT EXISTS (SELECT 1 FROM employees e WHERE e.tbl = 'funding' AND e.id = t.id AND lower(e.name) = lower(t.doc::json->>'ceo'))
         UNION ALL
         SELECT 'j', company_id, sort_at, doc::json->>'personName', doc::json->>'newRole', doc::json->>'personLinkedinUrl',
                doc::json->>'companyLinkedinUrl'
           FROM job_changes
       ), named AS (
         SELECT *, coalesce(${key('url')}, 'name:' || lower(name) || '@' || company_id::text) AS identity FROM candidates
       ), current AS (
         SELECT DISTINCT ON (identity) * FROM named ORDER BY identity, sort_at DESC, (kind = 'j') DESC
       ), people AS (
         SELECT p.*,
                (SELECT max(n.sort_at) FROM named n WHERE n.identity = p.identity AND n.kind = 'j'
                    AND n.company_id IS NOT DISTINCT FROM p.company_id) AS jc_at,
                (SELECT max(f.sort_at) FROM funding_rounds f WHERE f.company_id = p.company_id) AS fr_at,
                greatest((SELECT max(m.sort_at) FROM ma_deals m WHERE p.company_id IN (m.company_id, m.acquirer_company_id)),
                         (SELECT max(a.sort_at) FROM acquisition_signals a WHERE a.company_id = p.company_id)) AS acq_at,
                c.doc::json->>'name' AS company, upper(c.doc::json->>'headquartersCountry') AS country,
                c.doc::json->>'industry' AS industry,
                split_part(${key(`c.doc::json->>'website'`)}, '/', 1) AS domain,
                coalesce(${key(`c.doc::json->>'linkedinUrl'`)}, ${key('p.company_url')}) AS company_linkedin,
                (c.doc::json->>'employeeCount')::float8 AS employees,
                ' ' || split_part(regexp_replace(lower(p.title), '[^a-z0-9]+', ' ', 'g') || ' ', ' to ', 1) || ' ' AS held,
                trim(regexp_replace(lower(p.title), '[^a-z0-9]+', ' ', 'g')) AS whole
           FROM current p LEFT JOIN companies c ON c.record_id = p.company_id
       ), banded AS (
         SELECT *, CASE WHEN employees IS NULL OR employees < 1 THEN NULL WHEN employees <= 10 THEN '1-10'
                        WHEN employees <= 50 THEN '11-50' WHEN employees <= 100 THEN '51-100' WHEN employees <= 250 THEN '101-250'
                        WHEN employees <= 500 THEN '251-500' WHEN employees <= 1000 THEN '501-1000' ELSE '1000-plus' END AS band
           FROM people
       )
       SELECT url, name, p.title, company, fr_at, acq_at, jc_at, ${matched} AS matched
         FROM banded p LEFT JOIN roles r ON r.title = p.title
        WHERE ${where.join(' AND ')}`,
      params,
    );
    return rows.map((row) => {
      const at = (value: Date | null) => (value === null ? -Infinity : new Date(value).getTime());
      const matchedAt = new Date(row.matched).getTime();
      const type =
        at(row.fr_at) === matchedAt && asked('funding_round')
          ? 'funding_round'
          : at(row.jc_at) === matchedAt && asked('job_change')
            ? 'job_change'
            : 'acquisition';
      return {
        url: row.url,
        name: row.name,
        title: row.title,
        company: row.company,
        type,
        date: new Date(matchedAt).toISOString().slice(0, 10),
        latest: matchedAt >= Math.max(at(row.fr_at), at(row.acq_at), at(row.jc_at)),
      };
    });
  };

  const served = async (query: Record<string, string>) => {
    const all: Reference[] = [];
    let total = -1;
    for (let page = 1; ; page++) {
      const res = await ctx.app.inject({
        url: `/api/v2/people?${new URLSearchParams({ ...query, limit: '100', page: String(page) })}`,
        headers: { authorization: `Bearer ${key}` },
      });
      assert.equal(res.statusCode, 200, res.body);
      const body = res.json() as {
        data: {
          linkedin_url: string | null;
          name: string;
          title: string | null;
          company: { name: string | null };
          is_latest_signal: boolean;
          matched_signal: { type: string; date: string };
        }[];
        pagination: { totalCount: number; hasNextPage: boolean };
      };
      total = body.pagination.totalCount;
      for (const p of body.data) {
        all.push({
          url: p.linkedin_url,
          name: p.name,
          title: p.title,
          company: p.company.name,
          type: p.matched_signal.type,
          date: p.matched_signal.date,
          latest: p.is_latest_signal,
        });
      }
      if (!body.pagination.hasNextPage) break;
    }
    return { total, all };
  };

  const FILTERS: Record<string, () => string> = {
    title: () => [pick(TITLES), pick(TITLES)].slice(0, rng.int(1, 2)).join(','),
    function: () => pick(['engineering', 'sales', 'product', 'operations', 'marketing']),
    seniority: () =>
      [pick(['c_level', 'vp', 'head', 'founder']), pick(['director', 'manager'])].slice(0, rng.int(1, 2)).join(','),
    country: () => pick(COUNTRIES),
    exclude_countries: () => pick(COUNTRIES),
    company_size: () => [pick(SIZE_BANDS), pick(SIZE_BANDS)].join(','),
    industry: () => pick(['software', 'Robotics', 'financial services']),
    linkedin_url: () => pick(people).url,
    company_domain: () => `agree-co-${rng.int(0, companies.length - 1)}.com`,
    company_linkedin_url: () => `https://linkedin.com/company/agree-co-${rng.int(0, companies.length - 1)}`,
    signal_type: () =>
      [pick(['funding_round', 'acquisition', 'job_change']), pick(['funding_round', 'acquisition', 'job_change'])]
        .slice(0, rng.int(1, 2))
        .join(','),
    signal_date_range: () => pick(['30d', '6m', '12m', '2y', '5y']),
  };

  it('answers every filter, alone and combined, as the reference does', async () => {
    const queries: Record<string, string>[] = [{}, { signal_date_range: '5y' }];
    for (const title of TITLES) queries.push({ title, signal_date_range: '5y' });
    for (const name of Object.keys(FILTERS))
      for (let i = 0; i < 3; i++) queries.push({ [name]: FILTERS[name]!(), signal_date_range: '5y' });
    for (let i = 0; i < 40; i++) {
      const query: Record<string, string> = {};
      for (const name of Object.keys(FILTERS)) if (rng.chance(0.25)) query[name] = FILTERS[name]!();
      queries.push(query);
    }
    let nonEmpty = 0;
    for (const query of queries) {
      const expected = await reference(query);
      const { total, all } = await served(query);
      const label = new URLSearchParams(query).toString();
      assert.equal(total, expected.length, label);
      assert.deepEqual(all.map(tuple).sort(), expected.map(tuple).sort(), label);
      // Newest matched signal first.
      for (let i = 1; i < all.length; i++) assert.ok(all[i - 1]!.date >= all[i]!.date, label);
      if (expected.length > 0) nonEmpty++;
    }
    assert.ok(nonEmpty > queries.length / 3, `only ${nonEmpty} of ${queries.length} queries found anyone`);
  });
});
