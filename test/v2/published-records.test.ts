// Every v2 list answers bodies the published schemas accept: the 2.2.0 OpenAPI document
// (../shared/reference/signals-openapi-2026-07/openapi.json) for all six lists, and the January 2026
// files where they had the endpoint (funding, acquisitions, investors, job changes). Read on the store
// the run uses, from the demo data (every record linked to its company) and from records that are
// not linked (written without resolution) or that name no company, over several pages, orders and
// filters. The 2.2 fields were added to the January records: each January field keeps its value, and a
// 2.2 field that renames one carries the same value.
//
// api-spec.md fixes nothing on these bodies that 2.2.0 contradicts (its investor and job-change
// fields, the envelope and `meta` are all types 2.2.0 accepts: `meta.endpoint` is a string there, its
// example "signals.jobChanges" is no rule), so every body is checked against the published rules as
// they are. One published rule is not met, on purpose, and checked apart: a record that names no
// company (no name, website or LinkedIn page to resolve) has served `companyId: null` since company
// links were added, and a served field keeps its value; 2.2.0 has `companyId` as a non-null uuid that
// may be absent. Such records are validated without that field, and its null asserted.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { after, before, it } from 'node:test';
import { startOfTodayUtc } from '../../src/demo/seed.js';
import { hiring } from '../../src/catalog/registry.js';
import { FUNDING_SIGNAL_NAMESPACE } from '../../src/catalog/datasets/funding-signals.js';
import { uuidV5 } from '../../src/catalog/uuid.js';
import {
  acquisitionRecord,
  fundingRecord,
  hiringRecord,
  insertAcquisitions,
  insertFunding,
  insertInvestors,
  insertJobChanges,
  insertRecords,
  investorRecord,
  jobChangeRecord,
} from '../fixtures.js';
import { startDemoApp } from '../demo-store.js';
import { describeNeeding, makeKey, type TestContext, describeOnOneStore } from '../helpers.js';
import { ADMIN_TOKEN, importRecords } from '../ingest/support.js';
import { documentValidator, publishedSchemasMissing, publishedValidator } from './published-schemas.js';

const PUBLISHED_2_2 = new URL('../../../shared/reference/signals-openapi-2026-07/openapi.json', import.meta.url);
const missing = publishedSchemasMissing || (existsSync(PUBLISHED_2_2) ? false : `${PUBLISHED_2_2.pathname} is missing`);

type Body = {
  success: boolean;
  data: Record<string, unknown>[];
  pagination: { totalPages: number; totalCount: number };
  meta: { endpoint: string };
};

interface Endpoint {
  path: string;
  /** The 200 body's schema in the 2.2.0 document. */
  schema: string;
  /** The January 2026 file and schema of the endpoint, when it had one. */
  january?: [file: string, schema: string];
  /** The record's id field. */
  id: string;
  /** Queries besides the pages and orders every list is read with. */
  filters: (sample: Record<string, unknown>[]) => string[];
}

/** The domain of a website, as company_domain takes it. */
const domainOf = (url: unknown) => (typeof url === 'string' ? new URL(url).hostname.replace(/^www\./, '') : undefined);

const ENDPOINTS: Endpoint[] = [
  {
    path: '/api/v2/signals/funding',
    schema: 'Funding_FundingSignalsResponse',
    january: ['funding-signals', 'FundingSignalsResponse'],
    id: 'signalId',
    filters: (sample) => [
      'countries=US,GB',
      'round=Seed,Series A,Other',
      'amount_min=1000000&sort_by=amount',
      'sort_by=employee_count&sort_order=asc',
      `company_domain=${domainOf(sample[0]!.website)}`,
    ],
  },
  {
    path: '/api/v2/signals/acquisitions',
    schema: 'Acquisition_AcquisitionSignalsResponse',
    january: ['acquisition-signals', 'AcquisitionSignalsResponse'],
    id: 'id',
    filters: (sample) => [
      'countries=US,DE',
      'sort_by=employee_count',
      'categories=Technology',
      `company_domain=${domainOf(sample[0]!.website)}`,
    ],
  },
  {
    path: '/api/v2/signals/investors',
    schema: 'Investors_InvestorsResponse',
    january: ['investors', 'InvestorsResponse'],
    id: 'id',
    filters: () => ['categories=angel,fund,government', 'sort_by=name&sort_order=asc', 'countries=WE'],
  },
  {
    path: '/api/v2/signals/job-changes',
    schema: 'JobChange_JobChangeSignalsResponse',
    january: ['job-change-signals', 'JobChangeSignalsResponse'],
    id: 'signalId',
    filters: (sample) => [
      'seniorities=c_level,founder',
      'sort_by=person_name',
      `company_linkedin_url=${encodeURIComponent(String(sample[0]!.companyLinkedinUrl))}`,
    ],
  },
  {
    path: '/api/v2/signals/hiring',
    schema: 'Hiring_HiringSignalsResponse',
    id: 'id',
    filters: (sample) => [
      'include_expired=true',
      'include_expired=true&sort_order=asc',
      'departments=engineering',
      `company_name=${encodeURIComponent(String(sample[0]!.companyName))}`,
    ],
  },
  {
    path: '/api/v2/companies',
    schema: 'Companies_CompaniesResponse',
    id: 'id',
    filters: () => ['sort_by=name', 'sort_by=employee_count&sort_order=asc'],
  },
];

/** The record schema of a response schema of a published document: its name, required fields and fields. */
function recordSchema(document: URL, responseSchema: string): { required: string[]; properties: string[] } {
  const schemas = JSON.parse(readFileSync(document, 'utf8')).components.schemas;
  const name = String(schemas[responseSchema].properties.data.items.$ref).split('/').pop()!;
  return { required: schemas[name].required ?? [], properties: Object.keys(schemas[name].properties) };
}

const januaryFile = (file: string) =>
  new URL(`../../../shared/reference/signals-openapi-2026-01/${file}.openapi.json`, import.meta.url);

/** The 2.2 fields each record of the list carries; those left out are named with why. */
const SERVED_2_2: Record<string, { absent: string[] }> = {
  // companySlug: the linked company's slug is not in the round; verificationStatus: not recorded, and not nullable.
  // currency is absent only when the round records none (see the aliases below).
  '/api/v2/signals/funding': { absent: ['companySlug', 'verificationStatus', 'currency'] },
  // currency: no amount is recorded; acquiringCompany: the acquirer is not recorded (acquiringCompanyId is null).
  '/api/v2/signals/acquisitions': { absent: ['companySlug', 'currency', 'acquiringCompany'] },
};

/** The 2.2 fields that rename a January one: served under both names, with the same value. */
const ALIASES: Record<string, [january: string, published: string][]> = {
  '/api/v2/signals/funding': [
    ['fundingAmount', 'amount'],
    ['website', 'companyWebsite'],
    ['linkedinUrl', 'companyLinkedin'],
    ['industry', 'companyIndustry'],
    ['foundedYear', 'companyFoundedYear'],
    ['description', 'companyDescription'],
    ['employeeCount', 'companyEmployeeCount'],
  ],
  '/api/v2/signals/acquisitions': [
    ['id', 'signalId'],
    ['lastUpdated', 'occurredAt'],
    ['lastUpdated', 'discoveredAt'],
    ['website', 'companyWebsite'],
    ['linkedinUrl', 'companyLinkedin'],
    ['industry', 'companyIndustry'],
    ['foundedYear', 'companyFoundedYear'],
    ['description', 'companyDescription'],
    ['employeeCount', 'companyEmployeeCount'],
  ],
};

/** Checks what the schemas cannot: every January field still served, the 2.2 fields and their aliases. */
function checkFields(path: string, record: Record<string, unknown>, january: string[] | undefined, published: string[]) {
  const where = `${path} ${JSON.stringify(record).slice(0, 200)}`;
  for (const field of january ?? []) assert.ok(field in record, `${where}: the January field ${field} is served`);
  const served = SERVED_2_2[path];
  if (served) {
    for (const field of published) {
      // match_confidence is there when the query names companies, companyId once the record is linked.
      if (served.absent.includes(field) || field === 'match_confidence' || field === 'companyId') continue;
      assert.ok(field in record, `${where}: the 2.2 field ${field} is served`);
    }
  }
  for (const [old, renamed] of ALIASES[path] ?? []) {
    assert.deepEqual(record[renamed], record[old], `${where}: ${renamed} is ${old}`);
  }
  if (path === '/api/v2/signals/funding') {
    // The currency is served under both names when the round records one.
    if (record.fundingCurrency === null) assert.ok(!('currency' in record), where);
    else assert.equal(record.currency, record.fundingCurrency, where);
    // occurredAt is date_seen (lastUpdated) when the round has one.
    if (record.lastUpdated !== null) assert.equal(record.occurredAt, record.lastUpdated, where);
    assert.equal(record.discoveredAt, record.occurredAt, where);
    assert.deepEqual(
      (record.investors as { name: string }[]).map((investor) => investor.name),
      record.investorNames,
      `${where}: investorNames are the names of investors`,
    );
  }
}

if (missing) {
  describeNeeding('v2 records against the published schemas', 'the published OpenAPI files', missing, () => undefined);
} else {
  describeOnOneStore('v2 records against the published 2.2.0 and January 2026 schemas', (backend) => {
    let ctx: TestContext;
    let key: string;
    const today = startOfTodayUtc();

    // Not linked: written without company resolution, so without companyId/companyMatch. Dated before
    // the demo data, so each list's oldest page holds them.
    const sparseRound = fundingRecord({
      company_name: 'Sparse Round Co',
      round_type: null,
      investors: [],
      contact_info: [],
      historical_headcount: [],
      currency: ' ',
      date_seen: '2001-03-04T05:06:07.000Z',
    });
    delete sparseRound.company_info;
    delete sparseRound.main_category;
    const unlinked = {
      funding: [
        fundingRecord({ date_seen: '2001-01-02T03:04:05.000Z', round_type: 'weird label' }),
        fundingRecord({
          date_seen: '2001-02-03T00:00:00.000Z',
          investors: [{ name: 'Lone Angel' }, { name: 'Fund X', linkedin_url: 'https://www.linkedin.com/company/fund-x' }],
          company_info: { ...fundingRecord().company_info!, hq_country: 'Atlantis', categories: [] },
        }),
        sparseRound,
      ],
      acquisitions: [
        acquisitionRecord({ lastUpdated: '2001-01-01T00:00:00Z' }),
        acquisitionRecord({
          lastUpdated: '2001-01-02T00:00:00+02:00',
          industry: null,
          country: null,
          category: null,
          website: null,
          linkedinUrl: null,
          employeeCount: null,
          revenue: null,
          foundedYear: null,
          description: null,
          acquisitionSignalScore: null,
          signalIndicators: [],
        }),
        acquisitionRecord({ lastUpdated: '2001-01-03T00:00:00Z', country: 'deu' }),
      ],
      investors: [
        investorRecord({ lastUpdated: '2001-01-01T00:00:00Z', city: null, state: null, aum: null, typicalCheckSize: null }),
      ],
      jobChanges: [
        jobChangeRecord({
          occurredAt: '2001-01-01T00:00:00Z',
          discoveredAt: '2001-01-02T00:00:00Z',
          previousCompanyName: 'Old Co',
        }),
      ],
      hiring: [hiringRecord({ createdAt: '2001-01-01T00:00:00Z', datePosted: '2001-01-01T00:00:00Z' })],
    };
    // Imported (so resolved): records that name no company (companyId null), and a round with a source
    // id and no date_seen, which occurs when it sorts: the start of the day it was imported on.
    const noCompanyRound = {
      ...fundingRecord({ company_name: '—', contact_info: [], date_seen: '2001-05-01T00:00:00Z' }),
      name_path: 'unnamed-round',
      company_info: { description: 'No name, website or LinkedIn page.' },
    };
    const undatedRound = { ...fundingRecord({ company_name: 'Undated Source Co' }), source_id: 'undated-1' };
    delete (undatedRound as { date_seen?: string }).date_seen;
    const noCompanyAcquisition = acquisitionRecord({
      companyName: '—',
      website: null,
      linkedinUrl: null,
      lastUpdated: '2001-05-01T00:00:00Z',
    });

    const get = async (url: string) => {
      const res = await ctx.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${key}` } });
      assert.equal(res.statusCode, 200, `${url}: ${res.body}`);
      return res.json() as Body;
    };

    before(async () => {
      ctx = await startDemoApp(backend, { ADMIN_TOKEN }, { asOf: today });
      key = (await makeKey(ctx.db, 'enterprise')).key;
      await insertFunding(ctx.db, unlinked.funding);
      await insertAcquisitions(ctx.db, unlinked.acquisitions);
      await insertInvestors(ctx.db, unlinked.investors);
      await insertJobChanges(ctx.db, unlinked.jobChanges);
      await insertRecords(
        ctx.db,
        hiring,
        unlinked.hiring.map((record) => ({ record })),
      );
      await importRecords(ctx.app, 'funding', [noCompanyRound, undatedRound]);
      await importRecords(ctx.app, 'acquisitions', [noCompanyAcquisition]);
    });
    after(() => ctx?.close());

    for (const endpoint of ENDPOINTS) {
      it(`${endpoint.path}: pages, orders and filters validate against 2.2.0${endpoint.january ? ' and January 2026' : ''}`, async () => {
        const validate = documentValidator(PUBLISHED_2_2, endpoint.schema);
        const validateJanuary = endpoint.january && publishedValidator(...endpoint.january);
        const record = recordSchema(PUBLISHED_2_2, endpoint.schema);
        const january = endpoint.january && recordSchema(januaryFile(endpoint.january[0]), endpoint.january[1]).properties;
        const first = await get(`${endpoint.path}?limit=100`);
        assert.ok(first.pagination.totalPages > 3, `${endpoint.path}: the demo data fills pages`);
        const queries = [
          'limit=100',
          'limit=100&page=2',
          `limit=100&page=${Math.ceil(first.pagination.totalPages / 2)}`,
          `limit=100&page=${first.pagination.totalPages}`,
          'limit=100&sort_order=asc',
          ...endpoint.filters(first.data).map((filter) => `limit=100&${filter}`),
        ];
        const seen = new Map<string, Record<string, unknown>>();
        let unlinkedSeen = 0;
        for (const query of queries) {
          const url = `${endpoint.path}?${query}`;
          const body = await get(url);
          assert.ok(body.data.length > 0, `${url}: records`);
          // A record naming no company is checked apart (see the top of this file).
          const unnamed = body.data.filter((r) => r.companyId === null && record.properties.includes('companyId'));
          const strict = { ...body, data: body.data.filter((r) => !unnamed.includes(r)) };
          assert.ok(validate(strict), `${url}: 2.2.0: ${JSON.stringify(validate.errors?.slice(0, 5))}`);
          if (validateJanuary)
            assert.ok(validateJanuary(body), `${url}: January: ${JSON.stringify(validateJanuary.errors?.slice(0, 5))}`);
          for (const r of unnamed) {
            const { companyId, ...rest } = r;
            assert.equal(companyId, null, url);
            assert.ok(validate({ ...body, data: [rest] }), `${url}: 2.2.0 without companyId: ${JSON.stringify(validate.errors)}`);
          }
          for (const r of body.data) {
            checkFields(endpoint.path, r, january, record.properties);
            if (!('companyId' in r) && endpoint.path !== '/api/v2/companies') unlinkedSeen++;
            seen.set(String(r[endpoint.id]), r);
          }
        }
        assert.ok(seen.size >= 250, `${endpoint.path}: ${seen.size} records seen`);
        if (endpoint.path !== '/api/v2/companies') assert.ok(unlinkedSeen > 0, `${endpoint.path}: records without a link seen`);

        // The validators are real: a record without any field 2.2.0 (or January) requires fails them.
        const sample = first.data[0]!;
        const without = (field: string) => ({
          ...first,
          data: [Object.fromEntries(Object.entries(sample).filter(([f]) => f !== field))],
        });
        for (const field of record.required) {
          assert.equal(validate(without(field)), false, `${endpoint.path}: 2.2.0 requires ${field}`);
        }
        if (validateJanuary) {
          assert.equal(validateJanuary(without(endpoint.id)), false, `${endpoint.path}: January requires ${endpoint.id}`);
        }
      });
    }

    it('funding: the fields of a round without data, one naming no company, one without date_seen', async () => {
      const signals = (await get('/api/v2/signals/funding?limit=100&sort_order=asc')).data;
      const sparse = signals.find((r) => r.companyName === 'Sparse Round Co')!;
      assert.deepEqual(
        {
          roundType: sparse.roundType,
          fundingCurrency: sparse.fundingCurrency,
          companyCountry: sparse.companyCountry,
          companyCategories: sparse.companyCategories,
          companyLogo: sparse.companyLogo,
          investors: sparse.investors,
          sources: sparse.sources,
          occurredAt: sparse.occurredAt,
        },
        {
          roundType: 'Other',
          fundingCurrency: null,
          companyCountry: null,
          companyCategories: null,
          companyLogo: null,
          investors: [],
          sources: [],
          occurredAt: '2001-03-04T05:06:07.000Z',
        },
      );
      assert.ok(!('currency' in sparse) && !('companyId' in sparse), 'no currency recorded, no link yet');
      const atlantis = signals.find((r) => (r.investorNames as string[]).includes('Lone Angel'))!;
      assert.equal(atlantis.country, 'Atlantis');
      assert.equal(atlantis.companyCountry, 'Atlantis', 'a country we do not recognise: as recorded');
      assert.equal(atlantis.companyCategories, '["saas"]');
      assert.deepEqual(atlantis.investors, [
        { name: 'Lone Angel', linkedin: null },
        { name: 'Fund X', linkedin: 'https://www.linkedin.com/company/fund-x' },
      ]);
      const unnamed = signals.find((r) => r.companyName === '—')!;
      assert.equal(unnamed.companyId, null);
      assert.equal(unnamed.companyMatch, 'none');

      const undated = (await get('/api/v2/signals/funding?limit=100&search=undated')).data;
      assert.equal(undated.length, 1);
      assert.equal(undated[0]!.signalId, uuidV5(FUNDING_SIGNAL_NAMESPACE, 'source:undated-1'));
      assert.equal(undated[0]!.lastUpdated, null);
      assert.equal(undated[0]!.announcedDate, null);
      const [row] = await ctx.db.query<{ ms: number }>(
        `SELECT (extract(epoch FROM sort_at) * 1000)::float8 AS ms FROM funding_rounds WHERE natural_key = 'source:undated-1'`,
      );
      const sortAt = new Date(Number(row!.ms)).toISOString();
      assert.match(sortAt, /T00:00:00\.000Z$/, 'sorted at the start of the day it was imported on');
      assert.equal(undated[0]!.occurredAt, sortAt, 'occurs when it sorts');
      assert.equal(undated[0]!.discoveredAt, sortAt);
      assert.equal(typeof undated[0]!.companyId, 'string');
    });

    it('acquisitions: the fields of a signal without data, and of one naming no company', async () => {
      const signals = (await get('/api/v2/signals/acquisitions?limit=100&sort_order=asc')).data;
      const empty = signals.find((r) => r.id === unlinked.acquisitions[1]!.id)!;
      assert.deepEqual(
        Object.fromEntries(
          ['signalId', 'signalType', 'occurredAt', 'companyCountry', 'companyCategories', 'companyWebsite', 'sources'].map(
            (f) => [f, empty[f]],
          ),
        ),
        {
          signalId: empty.id,
          signalType: 'acquisition',
          occurredAt: '2001-01-02T00:00:00+02:00',
          companyCountry: null,
          companyCategories: null,
          companyWebsite: null,
          sources: [],
        },
      );
      const german = signals.find((r) => r.id === unlinked.acquisitions[2]!.id)!;
      assert.deepEqual([german.country, german.companyCountry, german.companyCategories], ['deu', 'DE', '["Technology"]']);
      const unnamed = signals.find((r) => r.id === noCompanyAcquisition.id)!;
      assert.equal(unnamed.companyId, null);
      assert.equal(unnamed.companyMatch, 'none');
    });
  });
}
