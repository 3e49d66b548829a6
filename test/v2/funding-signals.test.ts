// GET /api/v2/signals/funding: the published FundingSignal over the v1 funding rounds (one table,
// one index), its parameters and their 400s, paging, count mode and credits; and v2 company_domain /
// company_linkedin_url with match_confidence on /signals/funding and /signals/acquisitions.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { buildApp } from '../../src/app.js';
import { funding, fundingSignals } from '../../src/catalog/registry.js';
import { FUNDING_SIGNAL_NAMESPACE, fundingSignal, ROUND_LABELS, utcDate } from '../../src/catalog/datasets/funding-signals.js';
import type { FundingRecord } from '../../src/catalog/schemas/v1-schemas.js';
import { PUBLISHED_ROUND_TYPES } from '../../src/catalog/schemas/v2-schemas.js';
import { ingest } from '../../src/ingest/importer.js';
import { uuidV5 } from '../../src/catalog/uuid.js';
import { clearData, describeEach, makeKey, startApp, testConfig, type TestContext } from '../helpers.js';
import { acquisitionRecord, fundingRecord, insertAcquisitions, insertFunding, insertRecords } from '../fixtures.js';
import { publishedSchemasMissing, publishedValidator } from './published-schemas.js';
import { DEMO_GENERATORS } from '../../src/demo/index.js';

const FUNDING = '/api/v2/signals/funding';
const ACQUISITIONS = '/api/v2/signals/acquisitions';

interface Signal {
  signalId: string;
  companyName: string;
  roundType: string;
  announcedDate: string | null;
  match_confidence?: string;
  [field: string]: unknown;
}

describe('funding signals: pieces', () => {
  it('UUID v5 matches the RFC 9562 example, and signal ids are v5 UUIDs in our namespace', () => {
    assert.equal(uuidV5('6ba7b810-9dad-11d1-80b4-00c04fd430c8', 'www.example.com'), '2ed6657d-e927-568b-95e1-2665a8aea6a2');
    const id = fundingSignal({ company_name: 'X' }, 'source:abc', 0).signalId;
    assert.equal(id, uuidV5(FUNDING_SIGNAL_NAMESPACE, 'source:abc'));
    assert.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('announcedDate is the UTC date PostgreSQL stores (fractions rounded to the microsecond)', () => {
    assert.equal(utcDate('2025-03-01T00:30:00+01:00'), '2025-02-28');
    assert.equal(utcDate('2025-03-01T23:59:59.999999Z'), '2025-03-01');
    assert.equal(utcDate('2025-03-01T23:59:59.9999996Z'), '2025-03-02');
    assert.equal(utcDate('2025-03-01T23:59:59.9999994Z'), '2025-03-01');
    assert.equal(utcDate('2025-03-01t10:00:00z'), '2025-03-01');
    assert.equal(utcDate('2025-03-01T10:00:00+05:30'), '2025-03-01');
  });

  it('the round table maps every label to one published type, and every published type but Other has a label', () => {
    const seen = new Map<string, string>();
    for (const [type, labels] of Object.entries(ROUND_LABELS)) {
      assert.ok((PUBLISHED_ROUND_TYPES as readonly string[]).includes(type), type);
      assert.ok(labels.length > 0, type);
      for (const label of labels) {
        assert.equal(seen.get(label), undefined, `${label} is listed twice`);
        assert.equal(label, label.trim().toLowerCase().replace(/\s+/g, ' '), `${label} is written as round_key stores it`);
        seen.set(label, type);
      }
    }
    assert.deepEqual(Object.keys(ROUND_LABELS).sort(), PUBLISHED_ROUND_TYPES.filter((t) => t !== 'Other').sort());
  });
});

describeEach('v2 funding signals', (backend) => {
  let ctx: TestContext;
  let key: string;

  const request = (url: string, bearer = key) =>
    ctx.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${bearer}` } });
  const get = async (url: string, bearer = key) => {
    const res = await request(url, bearer);
    assert.equal(res.statusCode, 200, `${url}: ${res.body}`);
    return res.json() as {
      data: Signal[];
      pagination: { currentPage: number; totalPages: number; totalCount: number; hasNextPage: boolean; hasPreviousPage: boolean };
      meta: { endpoint: string; creditsUsed: number; creditsRemaining: number };
    };
  };
  /** The company names of every match (one page of up to 100), sorted; checks totalCount is exact. */
  const names = async (query: string, path = FUNDING) => {
    const body = await get(`${path}?limit=100&${query}`);
    assert.equal(body.pagination.totalCount, body.data.length, `${query}: totalCount is exact`);
    return body.data.map((r) => String(r.companyName)).sort();
  };
  const expect400 = async (url: string, param: string, pattern: RegExp) => {
    const res = await request(url);
    assert.equal(res.statusCode, 400, `${url}: ${res.body}`);
    const body = res.json();
    assert.equal(body.success, false);
    assert.equal(body.param, param, `${url}: ${res.body}`);
    assert.match(body.error, pattern);
  };

  before(async () => {
    ctx = await startApp(backend);
    key = (await makeKey(ctx.db, 'enterprise')).key;
  });
  after(() => ctx.close());
  beforeEach(() => clearData(ctx.db));

  it('serves each round as the published FundingSignal (January fields, 2.2 fields added), fields we lack null', async () => {
    const round = fundingRecord({
      company_name: 'Lumly Robotics & Co.',
      round_type: 'Series A',
      funding_amount: 12_500_000,
      currency: 'EUR',
      date_seen: '2025-05-04T22:30:00-03:00',
      main_category: 'robotics',
      investors: [{ name: 'Sequoia Capital' }, { name: 'Index Ventures' }],
      historical_headcount: [
        { date: '2025-04-01T00:00:00Z', headcount: 80, growth: 0.1 },
        { date: '2024-04-01T00:00:00Z', headcount: 40, growth: 0.1 },
      ],
      contact_info: [{ company_linkedin_url: null }, { company_linkedin_url: 'https://www.linkedin.com/company/lumly' }],
    });
    round.company_info = { ...round.company_info!, hq_country: 'usa', website: 'https://www.lumly.com/', year_founded: 2019 };
    await insertFunding(ctx.db, [round]);
    const body = await get(FUNDING);
    assert.deepEqual(body.meta.endpoint, 'signals.funding');
    assert.deepEqual(body.data, [
      {
        // The natural key of a round without a source id: name_path | round label | date_seen's own date.
        signalId: uuidV5(FUNDING_SIGNAL_NAMESPACE, 'lumly-robotics-and-co|series a|2025-05-04'),
        companyName: 'Lumly Robotics & Co.',
        roundType: 'Series A',
        fundingAmount: 12_500_000,
        fundingCurrency: 'EUR',
        announcedDate: '2025-05-05',
        industry: 'Software',
        country: 'United States',
        category: 'robotics',
        website: 'https://www.lumly.com/',
        linkedinUrl: 'https://www.linkedin.com/company/lumly',
        employeeCount: 80,
        foundedYear: 2019,
        description: 'Makes things.',
        investorNames: ['Sequoia Capital', 'Index Ventures'],
        leadInvestor: null,
        totalFundingToDate: null,
        valuation: null,
        useOfFunds: null,
        lastUpdated: '2025-05-04T22:30:00-03:00',
        // The 2.2 fields; those renaming a January field carry its value.
        signalType: 'funding_round',
        occurredAt: '2025-05-04T22:30:00-03:00',
        discoveredAt: '2025-05-04T22:30:00-03:00',
        companyLogo: null,
        companyWebsite: 'https://www.lumly.com/',
        companyLinkedin: 'https://www.linkedin.com/company/lumly',
        companyIndustry: 'Software',
        companyCountry: 'US',
        companySubcategory: null,
        companyFoundedYear: 2019,
        companyCategories: '["robotics","saas"]',
        companyDescription: 'Makes things.',
        companyEmployeeCount: 80,
        roundFlavor: null,
        amount: 12_500_000,
        currency: 'EUR',
        confidenceScore: null,
        isFreeAccess: true,
        investors: [
          { name: 'Sequoia Capital', linkedin: null },
          { name: 'Index Ventures', linkedin: null },
        ],
        sources: [],
      },
    ]);
  });

  it('records validate against the published FundingSignal schema', { skip: publishedSchemasMissing }, async () => {
    const sparse = fundingRecord({ round_type: null, investors: [], contact_info: [], historical_headcount: [] });
    delete sparse.company_info;
    delete sparse.main_category;
    await insertFunding(ctx.db, [fundingRecord(), fundingRecord({ round_type: 'weird label' }), sparse]);
    const validate = publishedValidator('funding-signals', 'FundingSignalsResponse');
    for (const url of [`${FUNDING}?limit=100`, `${FUNDING}?company_domain=company-1.com,${'x.com,'.repeat(3)}y.com`]) {
      const body = await get(url);
      assert.ok(validate(body), `${url}: ${JSON.stringify(validate.errors)}`);
    }
    const body = await get(`${FUNDING}?limit=100`);
    assert.equal(body.data.length, 3);
    assert.deepEqual(body.data.map((r) => r.roundType).sort(), ['Other', 'Other', 'Seed']);
    const broken = structuredClone(body);
    broken.data[0]!.roundType = 'Seed Round';
    assert.equal(validate(broken), false, 'the validator is real: a type outside the enum fails it');
  });

  describe('round: published types, our labels mapped by the table', () => {
    const LABELS: (string | null)[] = [
      'pre-seed',
      'Seed',
      'SERIES  A',
      'series e',
      'Series G',
      'bridge',
      'debt',
      'grant',
      'convertible note',
      'crowdfunding',
      'ico',
      'ipo',
      'growth equity',
      'venture',
      'angel',
      'corporate round',
      'secondary',
      null,
    ];
    beforeEach(() =>
      insertFunding(
        ctx.db,
        LABELS.map((label, i) => fundingRecord({ company_name: `R${i}`, round_type: label })),
      ),
    );

    it('roundType of each label', async () => {
      const body = await get(`${FUNDING}?limit=100`);
      const byName = new Map(body.data.map((r) => [r.companyName, r.roundType]));
      const expected = [
        'Pre-Seed',
        'Seed',
        'Series A',
        'Series E',
        'Series F+',
        'Bridge',
        'Debt Financing',
        'Grant',
        'Convertible Note',
        'Equity Crowdfunding',
        'ICO',
        'IPO',
        'Private Equity',
        'Venture',
        'Angel',
        'Corporate',
        'Other',
        'Other',
      ];
      assert.deepEqual(
        LABELS.map((_, i) => byName.get(`R${i}`)),
        expected,
      );
    });

    it('each published type finds exactly the rounds served with it; Other is every other label and none', async () => {
      const body = await get(`${FUNDING}?limit=100`);
      for (const type of PUBLISHED_ROUND_TYPES) {
        const want = body.data
          .filter((r) => r.roundType === type)
          .map((r) => r.companyName)
          .sort();
        assert.deepEqual(await names(`round=${encodeURIComponent(type)}`), want, type);
      }
      assert.deepEqual(await names('round=Other'), ['R16', 'R17']);
    });

    it('case-insensitive, comma-separated (OR), Other combined with others', async () => {
      assert.deepEqual(await names('round=seed,SERIES%20a'), ['R1', 'R2']);
      assert.deepEqual(await names('round=%20series%20f%2B%20'), ['R4']);
      assert.deepEqual(await names('round=other,Seed'), ['R1', 'R16', 'R17']);
      const all = await names('');
      assert.deepEqual(await names(`round=${PUBLISHED_ROUND_TYPES.map(encodeURIComponent).join(',')}`), all);
    });

    it('a value outside the published list is a 400 naming it', async () => {
      await expect400(
        `${FUNDING}?round=Seed,Series%20Z`,
        'round',
        /round: "Series Z" is not a round type; allowed values: Pre-Seed, Seed, .*Other/,
      );
      await expect400(`${FUNDING}?round=series_a`, 'round', /"series_a"/);
    });
  });

  describe('filters', () => {
    beforeEach(async () => {
      const at = (
        name: string,
        overrides: Partial<FundingRecord>,
        info: Partial<NonNullable<FundingRecord['company_info']>> = {},
      ) => {
        const record = fundingRecord({ company_name: name, ...overrides });
        record.company_info = { ...record.company_info!, ...info };
        return record;
      };
      await insertFunding(ctx.db, [
        at(
          'Sequoia Robotics',
          { date_seen: '2025-01-01T00:00:00Z', main_category: 'robotics' },
          { hq_country: 'US', categories: [] },
        ),
        at(
          'Société Générale Labs',
          { date_seen: '2025-01-31T23:59:59.999Z', main_category: 'fintech' },
          { hq_country: 'France' },
        ),
        at(
          'Zürich Insure',
          { date_seen: '2025-02-01T00:00:00Z', main_category: 'insurtech' },
          { hq_country: 'CH', categories: ['fintech'] },
        ),
        at('Capital Sequence', { date_seen: '2025-03-15T12:00:00+02:00' }, { hq_country: 'United Kingdom' }),
      ]);
    });

    it('countries: ISO codes, any case, OR; an unknown code is a 400', async () => {
      assert.deepEqual(await names('countries=us'), ['Sequoia Robotics']);
      assert.deepEqual(await names('countries=FR,gb'), ['Capital Sequence', 'Société Générale Labs']);
      await expect400(`${FUNDING}?countries=US,XX`, 'countries', /"XX" is not a country/);
    });

    it("categories: the round's main category or any of its company's, case-insensitive, OR", async () => {
      assert.deepEqual(await names('categories=FINTECH'), ['Société Générale Labs', 'Zürich Insure']);
      assert.deepEqual(await names('categories=robotics,insurtech'), ['Sequoia Robotics', 'Zürich Insure']);
      assert.deepEqual(await names('categories=saas'), ['Capital Sequence', 'Société Générale Labs']);
    });

    it("search: word prefixes of the company's name, every word, accents and case ignored", async () => {
      assert.deepEqual(await names('search=sequ'), ['Capital Sequence', 'Sequoia Robotics']);
      assert.deepEqual(await names('search=SEQU%20cap'), ['Capital Sequence']);
      assert.deepEqual(await names('search=soc%20gen'), ['Société Générale Labs']);
      assert.deepEqual(await names('search=z%C3%BCrich'), ['Zürich Insure']);
      assert.deepEqual(await names('search=quence'), []);
      await expect400(`${FUNDING}?search=--`, 'search', /letter or a digit/);
    });

    it('dateFrom / dateTo: inclusive UTC dates of announcedDate', async () => {
      assert.deepEqual(await names('dateFrom=2025-01-31&dateTo=2025-02-01'), ['Société Générale Labs', 'Zürich Insure']);
      assert.deepEqual(await names('dateFrom=2025-03-15'), ['Capital Sequence']);
      assert.deepEqual(await names('dateTo=2025-01-01'), ['Sequoia Robotics']);
      const body = await get(`${FUNDING}?dateFrom=2025-01-31&dateTo=2025-01-31`);
      assert.deepEqual(
        body.data.map((r) => r.announcedDate),
        ['2025-01-31'],
      );
      await expect400(`${FUNDING}?dateFrom=2025-02-02&dateTo=2025-02-01`, 'dateFrom', /must not be after dateTo/);
      await expect400(`${FUNDING}?dateTo=2025-02-30`, 'dateTo', /dateTo/);
    });

    it('filters combine with AND', async () => {
      assert.deepEqual(await names('categories=fintech&countries=CH&search=insure&dateFrom=2025-02-01'), ['Zürich Insure']);
      assert.deepEqual(await names('categories=fintech&countries=US'), []);
    });

    it('any other parameter, a repeated one, and paging out of range are 400s', async () => {
      await expect400(`${FUNDING}?amount=5`, 'amount', /amount/);
      await expect400(`${FUNDING}?limit=101`, 'limit', /limit/);
      await expect400(`${FUNDING}?page=0`, 'page', /page/);
      await expect400(`${FUNDING}?sort_by=amount&sort_by=name`, 'sort_by', /repeated/);
    });
  });

  it('paging, count mode and credits: one credit a page, count free', async () => {
    await insertFunding(
      ctx.db,
      Array.from({ length: 7 }, (_, i) => fundingRecord({ company_name: `P${i}`, date_seen: `2025-01-0${i + 1}T00:00:00Z` })),
    );
    const first = await get(`${FUNDING}?limit=3`);
    assert.deepEqual(
      first.data.map((r) => r.companyName),
      ['P6', 'P5', 'P4'],
    );
    assert.deepEqual(first.pagination, {
      currentPage: 1,
      totalPages: 3,
      totalCount: 7,
      hasNextPage: true,
      hasPreviousPage: false,
    });
    assert.equal(first.meta.creditsUsed, 1);
    const last = await get(`${FUNDING}?limit=3&page=3`);
    assert.deepEqual(
      last.data.map((r) => r.companyName),
      ['P0'],
    );
    assert.equal(last.meta.creditsRemaining, first.meta.creditsRemaining - 1, 'each page one credit');
    const past = await get(`${FUNDING}?limit=3&page=9`);
    assert.deepEqual(past.data, []);
    assert.equal(past.pagination.totalCount, 7);
    const count = await get(`${FUNDING}?count=true&limit=3`);
    assert.deepEqual(count.data, []);
    assert.deepEqual(count.pagination, first.pagination);
    assert.equal(count.meta.creditsUsed, 0);
    assert.equal(count.meta.creditsRemaining, past.meta.creditsRemaining);
  });

  it("the same rounds as v1: every comparable filter has v1's X-Total-Count and its records, in its order", async () => {
    const asOf = new Date('2025-06-01T00:00:00Z');
    await insertRecords(ctx.db, funding, [...DEMO_GENERATORS.funding.generate(11, 300, asOf)]);
    const v1 = async (query: string) => {
      const res = await ctx.app.inject({ method: 'GET', url: `/api/v1/funding?${query}`, headers: { 'x-lot-api-key': key } });
      assert.equal(res.statusCode, 200, res.body);
      const docs = (res.json() as { response: { data: FundingRecord[] } }).response.data;
      return { total: Number(res.headers['x-total-count']), keys: docs.map((d) => `${d.company_name}|${utcDate(d.date_seen!)}`) };
    };
    const v2 = async (query: string) => {
      const body = await get(`${FUNDING}?limit=20&${query}`);
      return { total: body.pagination.totalCount, keys: body.data.map((r) => `${r.companyName}|${r.announcedDate}`) };
    };
    // A round's company has a website, another's a LinkedIn page (not every company has one).
    const [website] = (
      await ctx.db.query<{ v: string }>(
        'SELECT website_key AS v FROM funding_rounds WHERE website_key IS NOT NULL ORDER BY id LIMIT 1',
      )
    ).map((r) => r.v);
    const [linkedin] = (
      await ctx.db.query<{ v: string }>(
        'SELECT linkedin_keys[1] AS v FROM funding_rounds WHERE cardinality(linkedin_keys) > 0 ORDER BY id LIMIT 1',
      )
    ).map((r) => r.v);
    const pairs: [string, string][] = [
      ['', ''],
      ['country=US', 'countries=US'],
      ['category=fintech,saas', 'categories=fintech,saas'],
      ['round=seed', 'round=Seed'],
      ['round=series%20a,series%20b', 'round=Series%20A,Series%20B'],
      ['round=debt', 'round=Debt%20Financing'],
      ['round=growth%20equity', 'round=Private%20Equity'],
      ['date_from=2025-01-01&date_to=2025-03-31', 'dateFrom=2025-01-01&dateTo=2025-03-31'],
      ['country=DE&category=saas', 'countries=de&categories=SAAS'],
      [`website=${website}`, `company_domain=${website}`],
      [`linkedin_url=${linkedin}`, `company_linkedin_url=${linkedin}`],
      ['page=3', 'page=3'],
    ];
    for (const [one, two] of pairs) {
      const [a, b] = [await v1(one), await v2(two)];
      assert.ok(a.total > 0, `${one} matches something`);
      assert.deepEqual(b, a, `v1 ?${one} and v2 ?${two}`);
    }
    // Rounds without a label, and labels outside the table, are "Other"; v1 lists the unlabelled ones among all.
    const other = await get(`${FUNDING}?round=Other&count=true`);
    const unlabelled = await ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM funding_rounds WHERE round_key IS NULL');
    assert.equal(other.pagination.totalCount, unlabelled[0]!.n);
  });

  it('signalId: unique, and the same after a re-import and an app restart', async () => {
    const lines = [
      { ...fundingRecord({ company_name: 'With Source' }), source_id: 'crm-42' },
      fundingRecord({ company_name: 'Without Source', round_type: 'Series B' }),
      fundingRecord({ company_name: 'Without Source', round_type: 'Series B', date_seen: '2025-07-01T00:00:00Z' }),
      fundingRecord({ company_name: 'No Date', date_seen: undefined }),
    ];
    const file = lines.map((line) => JSON.stringify(line)).join('\n') + '\n';
    const imported = await ingest(ctx.db, 'funding', [file], { skipInvalid: false });
    assert.equal(imported.inserted, 4);
    const ids = async (app = ctx.app) => {
      const res = await app.inject({ method: 'GET', url: `${FUNDING}?limit=100`, headers: { authorization: `Bearer ${key}` } });
      return new Map((res.json().data as Signal[]).map((r) => [`${r.companyName}|${r.announcedDate}`, r.signalId]));
    };
    const before = await ids();
    assert.equal(new Set(before.values()).size, 4, 'one id per round');
    assert.equal(before.get('With Source|2025-06-01'), uuidV5(FUNDING_SIGNAL_NAMESPACE, 'source:crm-42'));
    const again = await ingest(ctx.db, 'funding', [file], { skipInvalid: false });
    assert.equal(again.unchanged, 4);
    assert.deepEqual(await ids(), before, 'a re-import keeps every id');
    const restarted = await buildApp({ config: testConfig(), db: ctx.db });
    try {
      await restarted.ready();
      assert.deepEqual(await ids(restarted), before, 'a new instance, with its index built afresh, gives the same ids');
    } finally {
      await restarted.close();
    }
  });

  describe('company_domain and company_linkedin_url', () => {
    const ENDPOINTS = [
      {
        path: FUNDING,
        async insert(companies: { name: string; website: string; linkedin: string }[]) {
          await insertFunding(
            ctx.db,
            companies.map(({ name, website, linkedin }) => {
              const record = fundingRecord({ company_name: name, contact_info: [{ company_linkedin_url: linkedin }] });
              record.company_info = { ...record.company_info!, website };
              return record;
            }),
          );
        },
      },
      {
        path: ACQUISITIONS,
        async insert(companies: { name: string; website: string; linkedin: string }[]) {
          await insertAcquisitions(
            ctx.db,
            companies.map(({ name, website, linkedin }) =>
              acquisitionRecord({ companyName: name, website, linkedinUrl: linkedin }),
            ),
          );
        },
      },
    ];
    for (const { path, insert } of ENDPOINTS) {
      describe(path, () => {
        beforeEach(() =>
          insert([
            { name: 'Novartis', website: 'https://www.novartis.com/', linkedin: 'https://www.linkedin.com/company/novartis' },
            { name: 'Acme', website: 'http://acme.io', linkedin: 'https://linkedin.com/company/acme-inc/' },
            { name: 'Globex', website: 'https://globex.com/en', linkedin: 'https://www.linkedin.com/company/globex' },
          ]),
        );

        it('variants of a domain are one; OR within a list, AND across the two', async () => {
          for (const variant of ['novartis.com', 'www.novartis.com', 'https://novartis.com/', 'HTTPS://WWW.NOVARTIS.COM?ref=x']) {
            assert.deepEqual(await names(`company_domain=${encodeURIComponent(variant)}`, path), ['Novartis'], variant);
          }
          assert.deepEqual(await names('company_domain=novartis.com,%20acme.io,nobody.example', path), ['Acme', 'Novartis']);
          assert.deepEqual(await names('company_linkedin_url=linkedin.com/company/ACME-INC', path), ['Acme']);
          assert.deepEqual(
            await names('company_linkedin_url=http://www.linkedin.com/company/globex/,linkedin.com/company/novartis', path),
            ['Globex', 'Novartis'],
          );
          assert.deepEqual(
            await names('company_domain=acme.io,novartis.com&company_linkedin_url=linkedin.com/company/novartis', path),
            ['Novartis'],
          );
          assert.deepEqual(await names('company_domain=acme.io&company_linkedin_url=linkedin.com/company/novartis', path), []);
          assert.deepEqual(await names('company_domain=globex.com', path), [], 'the stored website has a path: not this domain');
        });

        it('match_confidence "exact" on every record of such a query, and only then', async () => {
          const matched = await get(`${path}?company_domain=novartis.com,acme.io`);
          assert.deepEqual(
            matched.data.map((r) => r.match_confidence),
            ['exact', 'exact'],
          );
          assert.equal(Object.keys(matched.data[0]!)[1], 'match_confidence', 'right after the id, as published');
          const linked = await get(`${path}?company_linkedin_url=linkedin.com/company/globex`);
          assert.deepEqual(
            linked.data.map((r) => r.match_confidence),
            ['exact'],
          );
          const plain = await get(`${path}?limit=100`);
          assert.equal(plain.data.length, 3);
          assert.ok(plain.data.every((r) => !('match_confidence' in r)));
          const counted = await get(`${path}?company_domain=novartis.com&count=true`);
          assert.deepEqual(counted.data, []);
          assert.equal(counted.pagination.totalCount, 1);
        });

        it('up to 50 values cost one credit a page; 51 is a 400', async () => {
          const fifty = ['novartis.com', ...Array.from({ length: 49 }, (_, i) => `company-${i}.example`)];
          const before = await get(`${path}?count=true`);
          const body = await get(`${path}?company_domain=${fifty.join(',')}`);
          assert.deepEqual(
            body.data.map((r) => r.match_confidence),
            ['exact'],
          );
          assert.equal(body.meta.creditsUsed, 1);
          assert.equal(body.meta.creditsRemaining, before.meta.creditsRemaining - 1);
          const links = Array.from({ length: 50 }, (_, i) => `linkedin.com/company/c${i}`);
          assert.equal((await get(`${path}?company_linkedin_url=${links.join(',')}`)).meta.creditsUsed, 1);
          await expect400(
            `${path}?company_domain=${[...fifty, 'one-more.example'].join(',')}`,
            'company_domain',
            /at most 50 values \(got 51\)/,
          );
          await expect400(
            `${path}?company_linkedin_url=${[...links, 'linkedin.com/company/x'].join(',')}`,
            'company_linkedin_url',
            /at most 50/,
          );
        });

        it('a value that is not a domain, or not a LinkedIn company URL, is a 400 naming it', async () => {
          const domains = [
            'not%20a%20domain',
            'http://',
            'novartis',
            '10.0.0.1',
            'acme.io/about',
            'acme.io:8080',
            'user@acme.io',
          ];
          for (const value of domains) {
            await expect400(
              `${path}?company_domain=acme.io,${value}`,
              'company_domain',
              /company_domain: (".*" is not a domain|must name)/,
            );
          }
          await expect400(`${path}?company_domain=not%20a%20domain`, 'company_domain', /"not a domain" is not a domain/);
          await expect400(`${path}?company_domain=http://`, 'company_domain', /"http:\/\/" is not a domain/);
          await expect400(`${path}?company_domain=`, 'company_domain', /company_domain/);
          const links = [
            'https://www.linkedin.com/in/ada-lovelace',
            'linkedin.com/company/',
            'https://example.com/company/acme',
            'linkedin.com/company/acme/about',
            'novartis.com',
          ];
          for (const value of links) {
            await expect400(
              `${path}?company_linkedin_url=${encodeURIComponent(value)}`,
              'company_linkedin_url',
              new RegExp(`"${value.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}" is not a LinkedIn company URL`),
            );
          }
        });
      });
    }

    it(
      'acquisition records keep validating against the published schema with match_confidence',
      { skip: publishedSchemasMissing },
      async () => {
        await insertAcquisitions(ctx.db, [acquisitionRecord({ website: 'https://novartis.com' })]);
        const validate = publishedValidator('acquisition-signals', 'AcquisitionSignalsResponse');
        const body = await get(`${ACQUISITIONS}?company_domain=novartis.com`);
        assert.equal(body.data[0]!.match_confidence, 'exact');
        assert.ok(validate(body), JSON.stringify(validate.errors));
      },
    );
  });

  it('the view serves the dataset: one table, one index, no second copy', () => {
    assert.equal(fundingSignals.name, funding.name);
    assert.equal(fundingSignals.table, funding.table);
    assert.equal(fundingSignals.indexed, funding.indexed);
  });
});
