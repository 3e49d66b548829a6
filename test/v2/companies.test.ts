// GET /api/v2/companies, the published 2.2 list: every parameter over HTTP on both stores, the
// published default order (name, descending), the 400s, and every answer checked against the
// published Companies_CompaniesResponse.
import assert from 'node:assert/strict';
import { after, before, beforeEach, it } from 'node:test';
import { companyRecord, insertCompanies } from '../fixtures.js';
import { clearData, describeEach, makeKey, startApp, type TestContext } from '../helpers.js';
import type { CompanyRecord } from '../../src/catalog/schemas/v2-schemas.js';
import { documentValidator, publishedSchemasMissing } from './published-schemas.js';

const URL_ = '/api/v2/companies';
const PUBLISHED = new URL('../../../shared/reference/signals-openapi-2026-07/openapi.json', import.meta.url);

const RECORDS: CompanyRecord[] = [
  companyRecord({
    name: 'Acme Robotics',
    slug: 'acme-robotics',
    industry: 'Robotics Engineering',
    categories: ['Automation Machinery Manufacturing'],
    keywords: ['warehouse robots'],
    headquartersCountry: 'US',
    employeeCount: 250,
    foundedYear: 2015,
    companySubcategory: 'robotics',
    createdAt: '2024-01-05T10:00:00Z',
    updatedAt: '2024-02-01T10:00:00Z',
  }),
  companyRecord({
    name: 'Bärlin Pay',
    slug: 'barlin-pay',
    industry: 'Financial Services',
    categories: ['Banking', 'Wholesale Hardware, Plumbing, Heating Equipment'],
    description: 'Payments for small merchants.',
    headquartersCountry: 'DE',
    employeeCount: 40,
    foundedYear: 2021,
    companySubcategory: 'payments',
    createdAt: '2025-03-01T10:00:00Z',
    updatedAt: '2025-03-01T10:00:00Z',
  }),
  companyRecord({
    name: 'acme health',
    slug: 'acme-health',
    industry: 'Hospitals and Health Care',
    categories: [],
    keywords: [],
    specialties: ['remote diagnostics'],
    description: null,
    headquartersCountry: 'CH',
    employeeCount: null,
    foundedYear: null,
    companySubcategory: undefined,
    growthInfo: null,
    createdAt: '2023-07-01T10:00:00Z',
    updatedAt: '2025-01-01T10:00:00Z',
  }),
  companyRecord({
    name: 'Zephyr Labs',
    slug: 'zephyr-labs',
    industry: null,
    categories: ['Software Development'],
    headquartersCountry: null,
    employeeCount: 5000,
    foundedYear: 1999,
    companySubcategory: 'ai',
    createdAt: '2025-09-01T10:00:00Z',
    updatedAt: '2025-09-02T10:00:00Z',
  }),
  companyRecord({
    name: 'Nordic Batteries',
    slug: 'nordic-batteries',
    industry: 'Software Development',
    categories: [],
    headquartersCountry: 'SE',
    employeeCount: 40,
    foundedYear: 2021,
    companySubcategory: 'battery technology',
    createdAt: '2022-05-01T10:00:00Z',
    updatedAt: '2022-05-01T10:00:00Z',
  }),
];

describeEach('v2 companies', (backend) => {
  let ctx: TestContext;
  let key: string;
  const validate = publishedSchemasMissing ? undefined : documentValidator(PUBLISHED, 'Companies_CompaniesResponse');

  const get = (url: string) => ctx.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${key}` } });
  /** The names of every record of a request, in order; the body checked against the published schema. */
  const names = async (query: string) => {
    const res = await get(`${URL_}?${query}`);
    assert.equal(res.statusCode, 200, `${query}: ${res.body}`);
    const body = res.json() as { data: CompanyRecord[]; pagination: { totalCount: number }; meta: { endpoint: string } };
    if (validate) assert.ok(validate(body), `${query}: ${JSON.stringify(validate.errors)}`);
    assert.equal(body.meta.endpoint, 'companies.list');
    assert.equal(body.pagination.totalCount, body.data.length, `${query}: totalCount`);
    return body.data.map((record) => record.name);
  };
  const refused = async (query: string, message: RegExp, param: string) => {
    const res = await get(`${URL_}?${query}`);
    assert.equal(res.statusCode, 400, `${query}: ${res.body}`);
    const body = res.json() as { success: boolean; error: string; param?: string };
    assert.equal(body.success, false);
    assert.match(body.error, message);
    assert.equal(body.param, param);
  };

  before(async () => {
    ctx = await startApp(backend);
    key = (await makeKey(ctx.db, 'enterprise')).key;
  });
  after(() => ctx.close());
  beforeEach(async () => {
    await clearData(ctx.db);
    await insertCompanies(ctx.db, RECORDS);
  });

  it('serves every published field, and lists by name descending unless asked otherwise', async () => {
    const res = await get(URL_);
    const body = res.json() as { data: Record<string, unknown>[] };
    assert.deepEqual(Object.keys(body.data[0]!), [
      'id',
      'name',
      'slug',
      'description',
      'website',
      'linkedinUrl',
      'twitterUrl',
      'logoUrl',
      'industry',
      'foundedYear',
      'headquartersCountry',
      'employeeCount',
      'categories',
      'keywords',
      'specialties',
      'growthInfo',
      'companySubcategory',
      'createdAt',
      'updatedAt',
    ]);
    const health = body.data.find((record) => record.name === 'acme health')!;
    assert.equal(health.companySubcategory, null, 'a company without a subcategory says null');
    assert.deepEqual(await names(''), ['Zephyr Labs', 'Nordic Batteries', 'Bärlin Pay', 'Acme Robotics', 'acme health']);
    assert.deepEqual(await names('sort_order=asc'), [
      'acme health',
      'Acme Robotics',
      'Bärlin Pay',
      'Nordic Batteries',
      'Zephyr Labs',
    ]);
  });

  it('sorts by employee_count, founded_year and created_at, unknown values last', async () => {
    assert.deepEqual(await names('sort_by=employee_count'), [
      'Zephyr Labs',
      'Acme Robotics',
      ...(await tie('Bärlin Pay', 'Nordic Batteries', -1)),
      'acme health',
    ]);
    assert.deepEqual((await names('sort_by=employee_count&sort_order=asc')).at(-1), 'acme health');
    assert.deepEqual((await names('sort_by=founded_year&sort_order=asc')).slice(0, 2), ['Zephyr Labs', 'Acme Robotics']);
    assert.deepEqual(await names('sort_by=created_at'), [
      'Zephyr Labs',
      'Bärlin Pay',
      'Acme Robotics',
      'acme health',
      'Nordic Batteries',
    ]);
  });

  /** Two names in the order of their row ids (the tie-break), in the direction given. */
  async function tie(a: string, b: string, direction: 1 | -1): Promise<string[]> {
    const rows = await ctx.db.query<{ id: string; name: string }>(`SELECT id::text AS id, name FROM companies`);
    const id = (name: string) => Number(rows.find((row) => row.name === name)!.id);
    return (id(a) - id(b)) * direction < 0 ? [a, b] : [b, a];
  }

  it('filters by search words over name, industry, description, keywords and specialties', async () => {
    assert.deepEqual(await names('search=acme&sort_order=asc'), ['acme health', 'Acme Robotics']);
    assert.deepEqual(await names('search=ware%20rob'), ['Acme Robotics'], 'keywords, by word prefix');
    assert.deepEqual(await names('search=merchants'), ['Bärlin Pay'], 'description');
    assert.deepEqual(await names('search=diagnostics'), ['acme health'], 'specialties');
    assert.deepEqual(await names('search=barlin'), ['Bärlin Pay'], 'accents ignored');
    assert.deepEqual(await names('search=hospitals'), ['acme health'], 'industry');
  });

  it('filters by countries (codes, names, categories) and exclude_countries, keeping unknown countries', async () => {
    assert.deepEqual(await names('countries=US,germany&sort_order=asc'), ['Acme Robotics', 'Bärlin Pay']);
    assert.deepEqual(await names('countries=NORDICS'), ['Nordic Batteries']);
    assert.deepEqual(await names('exclude_countries=WE,NORDICS,US'), ['Zephyr Labs'], 'no country: kept');
  });

  it('industry (comma-separated) matches industry; categories (pipe-separated) industry or categories', async () => {
    assert.deepEqual(await names('industry=software%20development,FINANCIAL%20SERVICES'), ['Nordic Batteries', 'Bärlin Pay']);
    assert.deepEqual(
      await names(`industry=${encodeURIComponent('Robotics Engineering|financial services')}`),
      ['Bärlin Pay', 'Acme Robotics'],
      'industry split on pipes when it holds one',
    );
    assert.deepEqual(await names('categories=Software%20Development'), ['Zephyr Labs', 'Nordic Batteries']);
    assert.deepEqual(
      await names(`categories=${encodeURIComponent('wholesale hardware, plumbing, heating equipment|Robotics Engineering')}`),
      ['Bärlin Pay', 'Acme Robotics'],
      'a label holding commas is one category',
    );
    assert.deepEqual(await names('subcategories=AI,robotics'), ['Zephyr Labs', 'Acme Robotics']);
    assert.deepEqual(await names('subcategories=battery%20technology'), ['Nordic Batteries']);
  });

  it('employee and founding ranges are inclusive and never match unknown values', async () => {
    assert.deepEqual(await names('employee_count_min=40&employee_count_max=250'), [
      'Nordic Batteries',
      'Bärlin Pay',
      'Acme Robotics',
    ]);
    assert.deepEqual(await names('employee_count_max=39'), []);
    assert.deepEqual(await names('founded_year_min=2015&founded_year_max=2015'), ['Acme Robotics']);
    assert.deepEqual(await names('founded_year_min=2016&countries=DE'), ['Bärlin Pay']);
  });

  it('refuses what breaks a rule, naming the parameter', async () => {
    await refused(
      'subcategories=ai,rocketry',
      /subcategories: "rocketry" is not a subcategory; allowed values: ai, saas/,
      'subcategories',
    );
    await refused(
      'employee_count_min=10&employee_count_max=5',
      /employee_count_min \(10\) must not be more than/,
      'employee_count_min',
    );
    await refused('founded_year_min=1700', /founded_year_min must be >= 1800/, 'founded_year_min');
    await refused('sort_by=amount', /sort_by must be one of/, 'sort_by');
    await refused('countries=Atlantis', /countries: "Atlantis" is not a country/, 'countries');
    await refused('date_preset=last_7d', /Unknown parameter "date_preset"/, 'date_preset');
  });

  it('count mode costs nothing; a page costs one credit', async () => {
    const counted = (await get(`${URL_}?count=true&countries=US`)).json() as {
      data: unknown[];
      pagination: { totalCount: number };
      meta: { creditsUsed: number };
    };
    assert.deepEqual([counted.data, counted.pagination.totalCount, counted.meta.creditsUsed], [[], 1, 0]);
    const page = (await get(`${URL_}?limit=2&page=2`)).json() as { data: unknown[]; meta: { creditsUsed: number } };
    assert.deepEqual([page.data.length, page.meta.creditsUsed], [2, 1]);
  });

  it('a re-import of a changed company updates it in place: same id, one record', async () => {
    const changed = { ...RECORDS[0]!, employeeCount: 900, name: 'Acme Robotics AG' };
    await insertCompanies(ctx.db, [changed]);
    const res = await get(`${URL_}?search=acme%20robotics`);
    const body = res.json() as { data: CompanyRecord[] };
    assert.deepEqual(
      body.data.map((record) => [record.id, record.name, record.employeeCount]),
      [[changed.id, 'Acme Robotics AG', 900]],
    );
  });
});
