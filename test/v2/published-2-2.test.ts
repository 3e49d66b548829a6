// The parameters of the published Signalbase 2.2 document on the v2 signal endpoints: sort_by and
// sort_order, date_preset (with a fixed clock), exclude_countries and the country categories,
// over HTTP on both stores; their 400s; and migration 013 filling the sort columns of rows stored
// before it without logging them as changed.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { loadMigrations, migrate } from '../../src/platform/db/migrate.js';
import type { Database } from '../../src/platform/db/port.js';
import { DATE_PRESETS, type DatePreset } from '../../src/catalog/schemas/published-params.js';
import { COUNTRY_CATEGORY_MEMBERS } from '../../src/catalog/country-groups.js';
import { presetRange } from '../../src/catalog/date-presets.js';
import { ApiError } from '../../src/catalog/errors.js';
import { compileWebhookFilters } from '../../src/webhooks/event-filters.js';
import {
  acquisitionRecord,
  fundingRecord,
  insertAcquisitions,
  insertFunding,
  insertInvestors,
  insertJobChanges,
  investorRecord,
  jobChangeRecord,
} from '../fixtures.js';
import { clearData, describeEach, makeKey, startApp, type TestContext } from '../helpers.js';

/** The fixed clock of the app under test: a Wednesday. */
const NOW = new Date('2026-07-15T10:30:00Z');
/** A date-time `days` days before NOW's day, at `hour` UTC. */
const daysAgo = (days: number, hour = 12) => new Date(Date.UTC(2026, 6, 15 - days, hour)).toISOString();

describe('date presets', () => {
  it('cover whole UTC days counted from now, weeks from Monday', () => {
    const expected: Record<DatePreset, [string, string]> = {
      today: ['2026-07-15', '2026-07-16'],
      yesterday: ['2026-07-14', '2026-07-15'],
      last_7d: ['2026-07-09', '2026-07-16'],
      last_14d: ['2026-07-02', '2026-07-16'],
      last_30d: ['2026-06-16', '2026-07-16'],
      last_60d: ['2026-05-17', '2026-07-16'],
      last_90d: ['2026-04-17', '2026-07-16'],
      last_6m: ['2026-01-16', '2026-07-16'],
      last_1y: ['2025-07-16', '2026-07-16'],
      last_2y: ['2024-07-16', '2026-07-16'],
      this_week: ['2026-07-13', '2026-07-20'],
      this_month: ['2026-07-01', '2026-08-01'],
      this_quarter: ['2026-07-01', '2026-10-01'],
      this_year: ['2026-01-01', '2027-01-01'],
      last_week: ['2026-07-06', '2026-07-13'],
      last_month: ['2026-06-01', '2026-07-01'],
      last_quarter: ['2026-04-01', '2026-07-01'],
      last_year: ['2025-01-01', '2026-01-01'],
    };
    assert.deepEqual(Object.keys(expected).sort(), [...DATE_PRESETS].sort(), 'every published preset');
    for (const preset of DATE_PRESETS) {
      const [from, before] = expected[preset];
      assert.deepEqual(presetRange(preset, NOW), { from: `${from}T00:00:00.000Z`, before: `${before}T00:00:00.000Z` }, preset);
    }
  });

  it('at the edges: Sunday and Monday, January, month ends, leap days, a second before midnight', () => {
    const range = (preset: DatePreset, now: string) => {
      const { from, before } = presetRange(preset, new Date(now));
      return [from.slice(0, 10), before.slice(0, 10)];
    };
    assert.deepEqual(range('this_week', '2026-07-19T23:59:59.999Z'), ['2026-07-13', '2026-07-20'], 'Sunday ends the week');
    assert.deepEqual(range('this_week', '2026-07-20T00:00:00Z'), ['2026-07-20', '2026-07-27'], 'Monday starts one');
    assert.deepEqual(range('last_week', '2026-01-05T08:00:00Z'), ['2025-12-29', '2026-01-05'], 'across the year');
    assert.deepEqual(range('last_month', '2026-01-31T08:00:00Z'), ['2025-12-01', '2026-01-01']);
    assert.deepEqual(range('last_quarter', '2026-02-10T08:00:00Z'), ['2025-10-01', '2026-01-01']);
    assert.deepEqual(range('this_quarter', '2026-12-31T23:00:00Z'), ['2026-10-01', '2027-01-01']);
    assert.deepEqual(range('last_6m', '2026-08-31T08:00:00Z'), ['2026-03-01', '2026-09-01'], '31 August back to 28 February');
    assert.deepEqual(range('last_1y', '2028-02-29T08:00:00Z'), ['2027-03-01', '2028-03-01'], 'a leap day back a year');
    assert.deepEqual(range('last_2y', '2028-02-29T08:00:00Z'), ['2026-03-01', '2028-03-01']);
    assert.deepEqual(range('today', '2026-07-15T23:59:59.999Z'), ['2026-07-15', '2026-07-16']);
    assert.deepEqual(range('last_7d', '2026-03-02T00:00:00Z'), ['2026-02-24', '2026-03-03']);
  });
});

describe('country categories', () => {
  it('are disjoint lists of ISO codes; NA is North America', () => {
    const all = Object.values(COUNTRY_CATEGORY_MEMBERS).flat();
    assert.equal(new Set(all).size, all.length, 'no country is in two categories');
    assert.deepEqual([...COUNTRY_CATEGORY_MEMBERS.NA].sort(), ['CA', 'US']);
    assert.ok(!all.includes('NA'), 'Namibia is in none');
  });
});

describe('webhook filters', () => {
  it('filters.query takes exclude_countries and the categories, refuses ordering and date_preset', () => {
    const compiled = compileWebhookFilters({ query: '/api/v2/signals/investors?countries=WE&exclude_countries=FR' }, [
      'investor.created',
    ]);
    assert.equal(compiled.datasets.get('investors')?.length, 1);
    const refusal = (query: string, message: string) =>
      assert.throws(
        () => compileWebhookFilters({ query }, ['investor.created']),
        (error: unknown) => error instanceof ApiError && error.status === 400 && error.message === message,
      );
    refusal('/api/v2/signals/investors?sort_by=name', 'filters.query: sort_by orders a list; a webhook has no order');
    refusal('/api/v2/signals/investors?sort_order=asc', 'filters.query: sort_order orders a list; a webhook has no order');
    refusal(
      '/api/v2/signals/investors?date_preset=last_7d',
      'filters.query: date_preset moves with the clock; a webhook needs fixed dates: use dateFrom and dateTo',
    );
  });
});

describeEach('v2: the published 2.2 parameters', (backend) => {
  let ctx: TestContext;
  let key: string;

  const get = (url: string) => ctx.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${key}` } });
  /** The `field` of every record of a request, in order; totalCount checked against the page when it is one page. */
  const list = async (url: string, field: string) => {
    const res = await get(url);
    assert.equal(res.statusCode, 200, `${url}: ${res.body}`);
    const body = res.json() as { data: Record<string, unknown>[]; pagination: { totalCount: number; totalPages: number } };
    if (body.pagination.totalPages <= 1) assert.equal(body.pagination.totalCount, body.data.length, `${url}: totalCount`);
    return body.data.map((record) => record[field]);
  };
  /** Every page of a request, `limit` a page, concatenated: what a client paging through it gets. */
  const paged = async (url: string, field: string, limit: number) => {
    const all: unknown[] = [];
    let totalCount = -1;
    for (let page = 1; ; page++) {
      const res = await get(`${url}${url.includes('?') ? '&' : '?'}limit=${limit}&page=${page}`);
      assert.equal(res.statusCode, 200, res.body);
      const body = res.json() as { data: Record<string, unknown>[]; pagination: { totalCount: number; hasNextPage: boolean } };
      if (totalCount === -1) totalCount = body.pagination.totalCount;
      assert.equal(body.pagination.totalCount, totalCount, 'the total stays the same from page to page');
      all.push(...body.data.map((record) => record[field]));
      if (!body.pagination.hasNextPage) break;
    }
    assert.equal(all.length, totalCount, `${url}: the pages hold exactly totalCount records`);
    return all;
  };
  const refused = async (url: string, message: RegExp | string, param: string) => {
    const res = await get(url);
    assert.equal(res.statusCode, 400, `${url}: ${res.body}`);
    const body = res.json() as { success: boolean; error: string; param?: string };
    assert.equal(body.success, false);
    if (typeof message === 'string') assert.equal(body.error, message, url);
    else assert.match(body.error, message, url);
    if (body.param !== undefined) assert.equal(body.param, param, `${url}: param`);
  };
  /** Row ids by record id: the tie-break the answers must follow. */
  const rowIds = async (table: string) =>
    new Map(
      (await ctx.db.query<{ id: number; record_id: string }>(`SELECT id, record_id::text AS record_id FROM ${table}`)).map(
        (row) => [row.record_id, Number(row.id)],
      ),
    );

  before(async () => {
    ctx = await startApp(backend, {}, { now: () => NOW });
    key = (await makeKey(ctx.db, 'enterprise')).key;
  });
  after(() => ctx.close());
  beforeEach(() => clearData(ctx.db));

  describe('investors', () => {
    const url = '/api/v2/signals/investors';
    // Names that collate equal (case, accents), ticket sizes with nulls, dates around NOW, countries of every category.
    const records = [
      investorRecord({
        name: 'Émile Partners',
        country: 'France',
        typicalCheckSize: { min: 100, max: 900 },
        lastUpdated: daysAgo(0),
      }),
      investorRecord({
        name: 'adam ventures',
        country: 'Poland',
        typicalCheckSize: { min: 300, max: 300 },
        lastUpdated: daysAgo(1),
      }),
      investorRecord({ name: 'Zeta Fund', country: 'Sweden', typicalCheckSize: null, lastUpdated: daysAgo(6) }),
      investorRecord({
        name: 'emile partners',
        country: 'Canada',
        typicalCheckSize: { min: 100, max: 50 },
        lastUpdated: daysAgo(7),
      }),
      investorRecord({
        name: 'Oak Capital',
        country: 'Brazil',
        typicalCheckSize: { min: 2000, max: 5000 },
        lastUpdated: daysAgo(20),
      }),
      investorRecord({ name: "O'Brien Angels", country: 'Namibia', typicalCheckSize: null, lastUpdated: daysAgo(40) }),
      investorRecord({
        name: 'Adam Ventures',
        country: 'United States',
        typicalCheckSize: { min: 300, max: 800 },
        lastUpdated: daysAgo(200),
      }),
      investorRecord({
        name: 'Ågren Invest',
        country: 'Atlantis',
        typicalCheckSize: { min: 50, max: 60 },
        lastUpdated: daysAgo(400),
      }),
      investorRecord({ name: 'Beta Bank', country: 'China', typicalCheckSize: { min: 1, max: 2 }, lastUpdated: daysAgo(-3) }),
    ];
    const byName = (name: string) => records.find((record) => record.name === name)!;
    beforeEach(() => insertInvestors(ctx.db, records));

    it('sort_by=name: case and accents ignored, punctuation kept, ties by id in the same direction', async () => {
      const ids = await rowIds('investors');
      const id = (name: string) => ids.get(byName(name).id)!;
      const tie = (a: string, b: string, direction: 1 | -1) => ((id(a) - id(b)) * direction < 0 ? [a, b] : [b, a]);
      const ascending = [
        ...tie('adam ventures', 'Adam Ventures', 1),
        'Ågren Invest',
        'Beta Bank',
        ...tie('Émile Partners', 'emile partners', 1),
        "O'Brien Angels",
        'Oak Capital',
        'Zeta Fund',
      ];
      assert.deepEqual(await list(`${url}?sort_by=name&sort_order=asc`, 'name'), ascending);
      const descending = [
        'Zeta Fund',
        'Oak Capital',
        "O'Brien Angels",
        ...tie('Émile Partners', 'emile partners', -1),
        'Beta Bank',
        'Ågren Invest',
        ...tie('adam ventures', 'Adam Ventures', -1),
      ];
      assert.deepEqual(await list(`${url}?sort_by=name`, 'name'), descending, 'sort_order defaults to desc');
      assert.deepEqual(await paged(`${url}?sort_by=name&sort_order=asc`, 'name', 2), ascending, 'pages of 2 add up to it');
      assert.deepEqual(await paged(`${url}?sort_by=name`, 'name', 3), descending);
    });

    it('created_at is lastUpdated: descending is the order without sort_by, ascending its reverse', async () => {
      const newestFirst = [...records].sort((a, b) => Date.parse(b.lastUpdated) - Date.parse(a.lastUpdated)).map((r) => r.name);
      assert.deepEqual(await list(url, 'name'), newestFirst);
      assert.deepEqual(await list(`${url}?sort_by=created_at`, 'name'), newestFirst);
      assert.deepEqual(await list(`${url}?sort_by=created_at&sort_order=desc`, 'name'), newestFirst);
      assert.deepEqual(await list(`${url}?sort_order=asc`, 'name'), [...newestFirst].reverse(), 'sort_order alone: created_at');
      assert.deepEqual(await paged(`${url}?sort_order=asc`, 'name', 4), [...newestFirst].reverse());
    });

    it('ticket_size_min and ticket_size_max: typicalCheckSize, records without one last either way, ties by id', async () => {
      const ids = await rowIds('investors');
      const order = (field: 'min' | 'max', direction: 1 | -1) =>
        records
          .filter((r) => r.typicalCheckSize !== null)
          .sort(
            (a, b) => direction * (a.typicalCheckSize![field] - b.typicalCheckSize![field] || ids.get(a.id)! - ids.get(b.id)!),
          )
          .map((r) => r.name)
          .concat(
            records
              .filter((r) => r.typicalCheckSize === null)
              .sort((a, b) => direction * (ids.get(a.id)! - ids.get(b.id)!))
              .map((r) => r.name),
          );
      assert.deepEqual(await list(`${url}?sort_by=ticket_size_min&sort_order=asc`, 'name'), order('min', 1));
      assert.deepEqual(await list(`${url}?sort_by=ticket_size_min&sort_order=desc`, 'name'), order('min', -1));
      assert.deepEqual(await list(`${url}?sort_by=ticket_size_max&sort_order=asc`, 'name'), order('max', 1));
      assert.deepEqual(await paged(`${url}?sort_by=ticket_size_max`, 'name', 2), order('max', -1));
      assert.deepEqual(
        await list(`${url}?sort_by=ticket_size_min&sort_order=asc&countries=WE,NA&count=false`, 'name'),
        order('min', 1).filter((name) => ['Émile Partners', 'emile partners', 'Adam Ventures'].includes(name)),
        'sorted and filtered',
      );
    });

    it('date_preset: whole UTC days counted from the request time, on lastUpdated', async () => {
      const names = async (query: string) => ((await list(`${url}?${query}`, 'name')) as string[]).sort();
      assert.deepEqual(await names('date_preset=today'), ['Émile Partners']);
      assert.deepEqual(await names('date_preset=yesterday'), ['adam ventures']);
      assert.deepEqual(await names('date_preset=last_7d'), ['Zeta Fund', 'adam ventures', 'Émile Partners']);
      assert.deepEqual(
        await names('date_preset=this_week'),
        ['Beta Bank', 'adam ventures', 'Émile Partners'],
        'Monday 13 to Sunday 19 July',
      );
      assert.deepEqual(await names('date_preset=last_week'), ['Zeta Fund', 'emile partners']);
      assert.deepEqual(
        await names('date_preset=this_month'),
        ['Zeta Fund', 'adam ventures', 'emile partners', 'Émile Partners', 'Beta Bank'].sort(),
      );
      assert.deepEqual(await names('date_preset=last_month'), ['Oak Capital', "O'Brien Angels"].sort());
      assert.deepEqual(
        await names('date_preset=last_1y'),
        records
          .filter((r) => r.name !== 'Ågren Invest' && r.name !== 'Beta Bank')
          .map((r) => r.name)
          .sort(),
      );
      assert.deepEqual(await names('date_preset=last_year'), ['Adam Ventures', 'Ågren Invest']);
      assert.deepEqual(await names('date_preset=last_2y&countries=US'), ['Adam Ventures']);
    });

    it('date_preset takes precedence over dateFrom and dateTo, which alone bound lastUpdated', async () => {
      const names = async (query: string) => ((await list(`${url}?${query}`, 'name')) as string[]).sort();
      assert.deepEqual(await names(`dateFrom=2026-07-14&dateTo=2026-07-15`), ['adam ventures', 'Émile Partners']);
      assert.deepEqual(await names('date_preset=yesterday&dateFrom=2020-01-01&dateTo=2020-01-02'), ['adam ventures']);
      assert.deepEqual(
        await names('date_preset=yesterday&dateFrom=2026-07-15&dateTo=2026-07-01'),
        ['adam ventures'],
        'unchecked',
      );
      await refused(
        `${url}?dateFrom=2026-07-15&dateTo=2026-07-01`,
        'dateFrom (2026-07-15) must not be after dateTo (2026-07-01)',
        'dateFrom',
      );
      await refused(`${url}?date_preset=today&dateFrom=2026-02-30`, /dateFrom must be a valid calendar date/, 'dateFrom');
    });

    it('countries takes the categories; NA is North America', async () => {
      const names = async (query: string) => ((await list(`${url}?${query}`, 'name')) as string[]).sort();
      assert.deepEqual(await names('countries=CEE'), ['adam ventures']);
      assert.deepEqual(await names('countries=we'), ['Émile Partners']);
      assert.deepEqual(await names('countries=Nordics,latam'), ['Oak Capital', 'Zeta Fund']);
      assert.deepEqual(await names('countries=NA'), ['Adam Ventures', 'emile partners']);
      assert.deepEqual(await names('countries=na,CN'), ['Adam Ventures', 'Beta Bank', 'emile partners']);
      // Namibia by name or alpha-3 code, as every country parameter takes them.
      assert.deepEqual(await names('countries=Namibia'), await names('countries=NAM'));
    });

    it('exclude_countries: codes, names and categories; records with an unknown country are kept', async () => {
      const everyone = records.map((r) => r.name);
      const without = async (query: string, left: string[]) =>
        assert.deepEqual(
          ((await list(`${url}?${query}`, 'name')) as string[]).sort(),
          everyone.filter((n) => !left.includes(n)).sort(),
          query,
        );
      await without('exclude_countries=CN', ['Beta Bank']);
      await without('exclude_countries=china', ['Beta Bank']);
      await without('exclude_countries=United%20States,PL', ['Adam Ventures', 'adam ventures']);
      await without('exclude_countries=NA', ['Adam Ventures', 'emile partners']);
      await without('exclude_countries=Namibia', ["O'Brien Angels"]);
      await without('exclude_countries=CEE,WE,NORDICS,NA,LATAM,CN,Namibia', [
        'Émile Partners',
        'adam ventures',
        'Zeta Fund',
        'emile partners',
        'Oak Capital',
        "O'Brien Angels",
        'Adam Ventures',
        'Beta Bank',
      ]);
      await without('exclude_countries=', []);
      assert.deepEqual(
        await list(`${url}?countries=NA,FR&exclude_countries=CA&sort_by=name&sort_order=asc`, 'name'),
        ['Adam Ventures', 'Émile Partners'],
        'both apply',
      );
      assert.deepEqual(await list(`${url}?countries=US&exclude_countries=US`, 'name'), []);
      await refused(
        `${url}?exclude_countries=CN,Atlantis`,
        'exclude_countries: "Atlantis" is not a country: use an ISO 3166 alpha-2 or alpha-3 code or an English country name (e.g. US, USA or United States), any case',
        'exclude_countries',
      );
    });

    it('refuses values outside the published lists, naming the parameter and the allowed values', async () => {
      await refused(
        `${url}?sort_by=updated_at`,
        'sort_by must be one of: name, created_at, ticket_size_min, ticket_size_max',
        'sort_by',
      );
      await refused(`${url}?sort_by=NAME`, /^sort_by must be one of: /, 'sort_by');
      await refused(`${url}?sort_order=ascending`, 'sort_order must be one of: asc, desc', 'sort_order');
      await refused(`${url}?date_preset=last_3d`, `date_preset must be one of: ${DATE_PRESETS.join(', ')}`, 'date_preset');
      await refused(
        `${url}?sort_by=name&sort_by=created_at`,
        /^sort_by is repeated; send it once \(it takes one value; /,
        'sort_by',
      );
      await refused(
        `${url}?amount_min=5`,
        /^Unknown parameter "amount_min"; allowed parameters: .*date_preset, exclude_countries, sort_by, sort_order/,
        'amount_min',
      );
    });

    it('count mode and the sort: the total alone, free', async () => {
      const res = await get(`${url}?sort_by=name&exclude_countries=NA&count=true`);
      assert.equal(res.statusCode, 200, res.body);
      const body = res.json() as { data: unknown[]; pagination: { totalCount: number }; meta: { creditsUsed: number } };
      assert.deepEqual([body.data, body.pagination.totalCount, body.meta.creditsUsed], [[], records.length - 2, 0]);
    });
  });

  describe('job changes', () => {
    const url = '/api/v2/signals/job-changes';
    const records = [
      jobChangeRecord({ personName: 'Zoë Ng', companyName: 'acme', occurredAt: daysAgo(0), discoveredAt: daysAgo(-1, 1) }),
      jobChangeRecord({ personName: 'zoe Adams', companyName: 'Été Labs', occurredAt: daysAgo(3), discoveredAt: daysAgo(0, 2) }),
      jobChangeRecord({ personName: 'Ana Ruiz', companyName: 'Acme', occurredAt: daysAgo(10), discoveredAt: daysAgo(9) }),
      jobChangeRecord({ personName: 'Émile Roy', companyName: 'beta', occurredAt: daysAgo(35), discoveredAt: daysAgo(2) }),
      jobChangeRecord({ personName: 'bob Li', companyName: 'ZED', occurredAt: daysAgo(100), discoveredAt: daysAgo(99) }),
    ];
    beforeEach(() => insertJobChanges(ctx.db, records));

    it('sort_by: occurred_at (the default), discovered_at, person_name, company_name', async () => {
      const ids = await rowIds('job_changes');
      const by = (key: (r: (typeof records)[number]) => string | number, direction: 1 | -1) =>
        [...records]
          .sort((a, b) => {
            const x = key(a);
            const y = key(b);
            return direction * (x < y ? -1 : x > y ? 1 : ids.get(a.signalId)! - ids.get(b.signalId)!);
          })
          .map((r) => r.personName);
      const collated = (text: string) => text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
      assert.deepEqual(
        await list(url, 'personName'),
        by((r) => Date.parse(r.occurredAt), -1),
      );
      assert.deepEqual(
        await list(`${url}?sort_by=occurred_at&sort_order=asc`, 'personName'),
        by((r) => Date.parse(r.occurredAt), 1),
      );
      assert.deepEqual(
        await list(`${url}?sort_by=discovered_at`, 'personName'),
        by((r) => Date.parse(r.discoveredAt), -1),
      );
      assert.deepEqual(
        await list(`${url}?sort_by=discovered_at&sort_order=asc`, 'personName'),
        by((r) => Date.parse(r.discoveredAt), 1),
      );
      assert.deepEqual(await list(`${url}?sort_by=person_name&sort_order=asc`, 'personName'), [
        'Ana Ruiz',
        'bob Li',
        'Émile Roy',
        'zoe Adams',
        'Zoë Ng',
      ]);
      assert.deepEqual(
        await list(`${url}?sort_by=company_name&sort_order=asc`, 'companyName'),
        by((r) => collated(r.companyName), 1).map((name) => records.find((r) => r.personName === name)!.companyName),
      );
      assert.deepEqual(
        await paged(`${url}?sort_by=company_name`, 'personName', 2),
        by((r) => collated(r.companyName), -1),
      );
    });

    it('date_preset and dateFrom/dateTo bound occurredAt', async () => {
      const names = async (query: string) => ((await list(`${url}?${query}`, 'personName')) as string[]).sort();
      assert.deepEqual(await names('date_preset=last_7d'), ['Zoë Ng', 'zoe Adams'].sort());
      assert.deepEqual(await names('date_preset=last_30d&sort_by=discovered_at'), ['Ana Ruiz', 'Zoë Ng', 'zoe Adams'].sort());
      assert.deepEqual(await names('dateFrom=2026-06-01&dateTo=2026-06-30'), ['Émile Roy']);
      assert.deepEqual(await names('date_preset=last_quarter&dateFrom=2026-07-01'), ['Émile Roy', 'bob Li'].sort());
    });

    it('takes no countries (its records have none) and only its own sort fields', async () => {
      await refused(`${url}?exclude_countries=CN`, /^Unknown parameter "exclude_countries"/, 'exclude_countries');
      await refused(
        `${url}?sort_by=name`,
        'sort_by must be one of: occurred_at, discovered_at, person_name, company_name',
        'sort_by',
      );
    });
  });

  describe('acquisitions', () => {
    const url = '/api/v2/signals/acquisitions';
    const records = [
      acquisitionRecord({ companyName: 'Alpha', country: 'Germany', employeeCount: 50, lastUpdated: daysAgo(1) }),
      acquisitionRecord({ companyName: 'Bravo', country: null, employeeCount: null, lastUpdated: daysAgo(2) }),
      acquisitionRecord({ companyName: 'Charlie', country: 'China', employeeCount: 5000, lastUpdated: daysAgo(30) }),
      acquisitionRecord({ companyName: 'Delta', country: 'Mexico', employeeCount: 50, lastUpdated: daysAgo(60) }),
      acquisitionRecord({ companyName: 'Echo', country: 'Estonia', employeeCount: 12, lastUpdated: daysAgo(90) }),
    ];
    beforeEach(() => insertAcquisitions(ctx.db, records));

    it('sort_by: employee_count (unknown last), and occurred_at, discovered_at and amount all by the signal date', async () => {
      const ids = await rowIds('acquisition_signals');
      const fifty = ['Alpha', 'Delta'].sort(
        (a, b) => ids.get(records.find((r) => r.companyName === a)!.id)! - ids.get(records.find((r) => r.companyName === b)!.id)!,
      );
      assert.deepEqual(await list(`${url}?sort_by=employee_count`, 'companyName'), [
        'Charlie',
        ...[...fifty].reverse(),
        'Echo',
        'Bravo',
      ]);
      assert.deepEqual(await list(`${url}?sort_by=employee_count&sort_order=asc`, 'companyName'), [
        'Echo',
        ...fifty,
        'Charlie',
        'Bravo',
      ]);
      const newest = ['Alpha', 'Bravo', 'Charlie', 'Delta', 'Echo'];
      for (const field of ['occurred_at', 'discovered_at', 'amount']) {
        assert.deepEqual(await list(`${url}?sort_by=${field}`, 'companyName'), newest, field);
        assert.deepEqual(await list(`${url}?sort_by=${field}&sort_order=asc`, 'companyName'), [...newest].reverse(), field);
      }
    });

    it('exclude_countries keeps signals without a country; date_preset wins over dateFrom/dateTo', async () => {
      const names = async (query: string) => ((await list(`${url}?${query}`, 'companyName')) as string[]).sort();
      assert.deepEqual(await names('exclude_countries=CN,CEE'), ['Alpha', 'Bravo', 'Delta']);
      assert.deepEqual(await names('exclude_countries=LATAM&countries=CN,MX,DE'), ['Alpha', 'Charlie']);
      assert.deepEqual(await names('date_preset=last_7d&dateFrom=2026-01-01&dateTo=2026-01-31'), ['Alpha', 'Bravo']);
      assert.deepEqual(await names('date_preset=last_month'), ['Charlie']);
      assert.deepEqual(await names('countries=cee,we'), ['Alpha', 'Echo']);
    });

    it('refuses sort fields of the other endpoints', async () => {
      await refused(
        `${url}?sort_by=founded_year`,
        'sort_by must be one of: occurred_at, discovered_at, amount, employee_count',
        'sort_by',
      );
    });
  });
});

describeEach('v2 funding signals: the published 2.2 parameters', (backend) => {
  let ctx: TestContext;
  let key: string;
  const url = '/api/v2/signals/funding';
  const get = (path: string) => ctx.app.inject({ method: 'GET', url: path, headers: { authorization: `Bearer ${key}` } });
  const list = async (path: string, field = 'companyName') => {
    const res = await get(path);
    assert.equal(res.statusCode, 200, `${path}: ${res.body}`);
    const body = res.json() as { data: Record<string, unknown>[]; pagination: { totalCount: number } };
    assert.equal(body.pagination.totalCount, body.data.length, `${path}: totalCount`);
    return body.data.map((record) => record[field]);
  };
  const headcount = (count: number, date = '2025-01-01T00:00:00.000Z') => ({ date, headcount: count, growth: 0 });
  const company = (name: string, country: string | null, yearFounded: number | null) => ({
    ...fundingRecord().company_info!,
    name,
    hq_country: country,
    year_founded: yearFounded,
  });
  const rounds = [
    fundingRecord({
      company_name: 'Alpha',
      funding_amount: 5_000_000,
      date_seen: daysAgo(1),
      company_info: company('Alpha', 'Germany', 2015),
      // The latest entry counts; of two of one date, the last.
      historical_headcount: [
        headcount(900, '2024-01-01T00:00:00Z'),
        headcount(40, '2025-03-01T00:00:00Z'),
        headcount(45, '2025-03-01T00:00:00Z'),
      ],
    }),
    fundingRecord({
      company_name: 'Bravo',
      funding_amount: 50_000_000,
      date_seen: daysAgo(20),
      company_info: company('Bravo', null, null),
      historical_headcount: [],
    }),
    fundingRecord({
      company_name: 'Charlie',
      funding_amount: 1_000_000,
      date_seen: daysAgo(45),
      company_info: company('Charlie', 'China', 2020),
      historical_headcount: [headcount(300)],
    }),
    fundingRecord({
      company_name: 'Delta',
      funding_amount: 250_000,
      date_seen: daysAgo(400),
      company_info: company('Delta', 'Brazil', 1999),
      historical_headcount: [headcount(12)],
    }),
    fundingRecord({
      company_name: 'Echo',
      funding_amount: 50_000_001,
      date_seen: daysAgo(0),
      company_info: company('Echo', 'United States', 2015),
      historical_headcount: [headcount(45)],
    }),
  ];

  before(async () => {
    ctx = await startApp(backend, {}, { now: () => NOW });
    key = (await makeKey(ctx.db, 'enterprise')).key;
  });
  after(() => ctx.close());
  beforeEach(async () => {
    await clearData(ctx.db);
    await insertFunding(ctx.db, rounds);
  });

  it('sort_by: amount, employee_count and founded_year as served (unknown last, ties by id); occurred_at and discovered_at by the date seen', async () => {
    const ids = new Map(
      (
        await ctx.db.query<{ id: number; name: string }>(`SELECT id, doc::jsonb ->> 'company_name' AS name FROM funding_rounds`)
      ).map((row) => [row.name, Number(row.id)]),
    );
    type Served = { companyName: string; employeeCount: number | null; foundedYear: number | null; fundingAmount: number };
    const served = ((await get(`${url}?limit=100`)).json() as { data: Served[] }).data;
    const by = (field: 'employeeCount' | 'foundedYear' | 'fundingAmount', direction: 1 | -1) => {
      const tie = (a: Served, b: Served) => direction * (ids.get(a.companyName)! - ids.get(b.companyName)!);
      const known = served.filter((r) => r[field] !== null).sort((a, b) => direction * (a[field]! - b[field]!) || tie(a, b));
      return [...known, ...served.filter((r) => r[field] === null).sort(tie)].map((r) => r.companyName);
    };
    assert.equal(served.find((r) => r.companyName === 'Alpha')!.employeeCount, 45, 'served: the last entry of the latest date');
    const fields = [
      ['amount', 'fundingAmount'],
      ['employee_count', 'employeeCount'],
      ['founded_year', 'foundedYear'],
    ] as const;
    for (const [field, shown] of fields) {
      assert.deepEqual(await list(`${url}?sort_by=${field}&sort_order=asc`), by(shown, 1), field);
      assert.deepEqual(await list(`${url}?sort_by=${field}`), by(shown, -1), field);
    }
    const newest = ['Echo', 'Alpha', 'Bravo', 'Charlie', 'Delta'];
    assert.deepEqual(await list(url), newest);
    for (const field of ['occurred_at', 'discovered_at']) {
      assert.deepEqual(await list(`${url}?sort_by=${field}`), newest, field);
      assert.deepEqual(await list(`${url}?sort_by=${field}&sort_order=asc`), [...newest].reverse(), field);
    }
  });

  it('amount_min and amount_max: inclusive bounds on fundingAmount', async () => {
    const names = async (query: string) => ((await list(`${url}?${query}`)) as string[]).sort();
    assert.deepEqual(await names('amount_min=1000000'), ['Alpha', 'Bravo', 'Charlie', 'Echo']);
    assert.deepEqual(await names('amount_max=1000000'), ['Charlie', 'Delta']);
    assert.deepEqual(await names('amount_min=1000000&amount_max=50000000'), ['Alpha', 'Bravo', 'Charlie']);
    assert.deepEqual(await names('amount_min=5000000&amount_max=5000000'), ['Alpha']);
    assert.deepEqual(await names('amount_min=0&amount_max=0'), []);
    assert.deepEqual(await list(`${url}?amount_max=50000000&sort_by=amount`), ['Bravo', 'Alpha', 'Charlie', 'Delta']);
    const refusedWith = async (query: string, error: string, param: string) => {
      const res = await get(`${url}?${query}`);
      assert.equal(res.statusCode, 400, res.body);
      const body = res.json() as { error: string; param?: string };
      assert.equal(body.error, error);
      if (body.param !== undefined) assert.equal(body.param, param);
    };
    await refusedWith('amount_min=6&amount_max=5', 'amount_min (6) must not be more than amount_max (5)', 'amount_min');
    await refusedWith('amount_max=-1', 'amount_max must be >= 0', 'amount_max');
    await refusedWith('amount_min=1e6', 'amount_min must be a whole number (digits 0-9 only)', 'amount_min');
    await refusedWith('amount_min=5.5', 'amount_min must be a whole number (digits 0-9 only)', 'amount_min');
    await refusedWith(
      'sort_by=name',
      'sort_by must be one of: occurred_at, discovered_at, amount, employee_count, founded_year',
      'sort_by',
    );
  });

  it('exclude_countries, the country categories and date_preset', async () => {
    const names = async (query: string) => ((await list(`${url}?${query}`)) as string[]).sort();
    assert.deepEqual(await names('exclude_countries=CN,na'), ['Alpha', 'Bravo', 'Delta'], 'a round with no country is kept');
    assert.deepEqual(await names('countries=WE,LATAM'), ['Alpha', 'Delta']);
    assert.deepEqual(await names('date_preset=last_30d'), ['Alpha', 'Bravo', 'Echo']);
    assert.deepEqual(await names('date_preset=last_month&dateFrom=2020-01-01'), ['Bravo']);
    assert.deepEqual(await names('date_preset=last_1y&exclude_countries=US&amount_min=1000000'), ['Alpha', 'Bravo', 'Charlie']);
  });
});

// Migration 013 adds the sort columns; rows stored before it get them from their documents, and no
// change is logged (their served documents did not change).
describeEach('migration 013: sort columns of stored rows', (backend) => {
  let db: Database;
  before(async () => {
    db = await backend.open();
  });
  after(() => db.close());

  it('fills them from the documents, a row that is not JSON keeps nulls, nothing is logged', async () => {
    const all = loadMigrations();
    await migrate(
      db,
      all.filter((m) => m.name < '013'),
    );
    const investor = investorRecord({ name: 'Émile Partners', typicalCheckSize: { min: 10, max: 20.5 } });
    const noCheck = investorRecord({ typicalCheckSize: null });
    const job = jobChangeRecord({ personName: 'Zoë Ng', companyName: 'Été Labs', discoveredAt: '2026-01-02T03:04:05.678Z' });
    const acquisition = acquisitionRecord({ employeeCount: 321 });
    const round = fundingRecord({
      historical_headcount: [
        { date: '2025-01-01T00:00:00Z', headcount: 7, growth: 0 },
        { date: '2025-02-01T00:00:00Z', headcount: 8, growth: 0 },
        { date: '2025-02-01T00:00:00Z', headcount: 9, growth: 0 },
      ],
    });
    const insert = (table: string, columns: string, values: unknown[]) =>
      db.query(`INSERT INTO ${table} (${columns}) VALUES (${values.map((_, i) => `$${i + 1}`).join(', ')})`, values);
    const sortAt = '2026-01-01T00:00:00Z';
    for (const record of [investor, noCheck]) {
      await insert('investors', 'record_id, investor_type, search_text, sort_at, doc', [
        record.id,
        'vc',
        'x',
        sortAt,
        JSON.stringify(record),
      ]);
    }
    await insert('investors', 'record_id, investor_type, search_text, sort_at, doc', [
      '00000000-0000-4000-8000-000000000001',
      'vc',
      'x',
      sortAt,
      'not json',
    ]);
    await insert('job_changes', 'record_id, search_text, sort_at, doc', [job.signalId, 'x', sortAt, JSON.stringify(job)]);
    await insert('acquisition_signals', 'record_id, search_text, sort_at, doc', [
      acquisition.id,
      'x',
      sortAt,
      JSON.stringify(acquisition),
    ]);
    const roundColumns = 'natural_key, name_path, funding_amount, sort_at, doc';
    await insert('funding_rounds', roundColumns, ['k1', 'co', 1, sortAt, JSON.stringify(round)]);
    const bare = { ...round, historical_headcount: undefined, company_info: { ...round.company_info, year_founded: null } };
    await insert('funding_rounds', roundColumns, ['k2', 'co', 1, sortAt, JSON.stringify(bare)]);
    const logged = async () => (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM change_log'))[0]!.n;
    const before013 = await logged();
    assert.deepEqual(
      await migrate(db, all),
      all.filter((m) => m.name >= '013').map((m) => m.name),
    );
    assert.equal(await logged(), before013, 'no change logged');
    const investors = await db.query<{
      record_id: string;
      name: string | null;
      ticket_size_min: number | null;
      ticket_size_max: number | null;
    }>('SELECT record_id::text AS record_id, name, ticket_size_min, ticket_size_max FROM investors ORDER BY id');
    assert.deepEqual(investors, [
      { record_id: investor.id, name: 'Émile Partners', ticket_size_min: 10, ticket_size_max: 20.5 },
      { record_id: noCheck.id, name: noCheck.name, ticket_size_min: null, ticket_size_max: null },
      { record_id: '00000000-0000-4000-8000-000000000001', name: null, ticket_size_min: null, ticket_size_max: null },
    ]);
    const jobs = await db.query<{ discovered: string; person_name: string; company_name: string }>(
      `SELECT to_char(discovered_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS') AS discovered, person_name, company_name FROM job_changes`,
    );
    assert.deepEqual(jobs, [{ discovered: '2026-01-02T03:04:05.678', person_name: 'Zoë Ng', company_name: 'Été Labs' }]);
    const acquisitions = await db.query<{ employee_count: number }>('SELECT employee_count FROM acquisition_signals');
    assert.deepEqual(acquisitions, [{ employee_count: 321 }]);
    const funded = await db.query<{ employee_count: number | null; founded_year: number | null }>(
      'SELECT employee_count, founded_year FROM funding_rounds ORDER BY id',
    );
    assert.deepEqual(funded, [
      { employee_count: 9, founded_year: 2020 },
      { employee_count: null, founded_year: null },
    ]);
  });
});
