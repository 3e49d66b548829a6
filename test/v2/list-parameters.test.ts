// List parameters sent the way HTTP libraries send lists (the key repeated: Python requests,
// axios, URLSearchParams) over HTTP, on both stores: every list parameter of both families takes
// repeated keys as its comma form; a scalar sent twice stays a 400 that says how lists are sent;
// /openapi.json documents each list parameter as `style: form, explode: true`.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { fundingRecord, insertFunding, insertInvestors, investorRecord } from '../fixtures.js';
import { makeKey, startApp, type TestContext, describeOnOneStore } from '../helpers.js';

interface Parameter {
  name: string;
  in: string;
  description?: string;
  style?: string;
  explode?: boolean;
  example?: unknown;
  schema?: Record<string, unknown>;
}

/** The list endpoints of both families and the parameters each takes as a list. */
const LISTS: Record<string, string[]> = {
  '/api/v1/funding': ['round', 'category'],
  '/api/v1/m-a': ['category'],
  '/api/v2/signals/investors': ['countries', 'categories', 'exclude_countries', 'company_id'],
  '/api/v2/signals/job-changes': [
    'positions',
    'departments',
    'seniorities',
    'company_id',
    'company_domain',
    'company_linkedin_url',
  ],
  '/api/v2/signals/acquisitions': [
    'countries',
    'categories',
    'company_domain',
    'company_linkedin_url',
    'exclude_countries',
    'company_id',
  ],
  '/api/v2/signals/funding': [
    'countries',
    'categories',
    'round',
    'company_domain',
    'company_linkedin_url',
    'exclude_countries',
    'company_id',
  ],
  '/api/v2/companies': [
    'countries',
    'exclude_countries',
    'industry',
    'subcategories',
    'has_signals',
    'funding_round_types',
    'job_change_departments',
    'job_change_seniorities',
    'hiring_departments',
    'hiring_seniorities',
  ],
  '/api/v2/signals/hiring': [
    'countries',
    'exclude_countries',
    'job_countries',
    'states',
    'subcategories',
    'positions',
    'departments',
    'seniorities',
    'team_size',
    'applicants',
    'company_domain',
    'company_linkedin_url',
    'company_id',
  ],
  '/api/v2/changes': ['datasets'],
};

/** A value of each list parameter with two items, for the endpoints whose examples have fewer. */
const TWO_VALUES: Record<string, string[]> = {
  company_domain: ['acme.io', 'https://www.beta.example.com/'],
  company_linkedin_url: ['linkedin.com/company/acme', 'linkedin.com/company/beta'],
  exclude_countries: ['CN', 'india'],
  company_id: ['0f8fad5b-d9cb-469f-a165-70867728950e', '7c9e6679-7425-40de-944b-e07fc1f90ae7'],
  has_signals: ['funding_round', 'job_change'],
  funding_round_types: ['Series A', 'Seed'],
  job_change_departments: ['sales', 'engineering'],
  job_change_seniorities: ['vp', 'c_level'],
  hiring_departments: ['sales', 'engineering'],
  hiring_seniorities: ['vp', 'c_level'],
  job_countries: ['US', 'CA'],
  states: ['CA', 'NY'],
  subcategories: ['saas', 'ai'],
  departments: ['engineering', 'sales'],
  seniorities: ['vp', 'director'],
  positions: ['cto', 'ceo'],
  team_size: ['1-10', '11-50'],
  applicants: ['0-25', '26-50'],
};

describeOnOneStore('list parameters: repeated keys as the comma list', (backend) => {
  let ctx: TestContext;
  let key: string;
  let parameters: Map<string, Parameter[]>;

  const get = (url: string) =>
    ctx.app.inject({ method: 'GET', url, headers: { 'x-lot-api-key': key, authorization: `Bearer ${key}` } });

  /** What a list answers, without what changes from call to call (the balance). */
  const answer = async (url: string) => {
    const res = await get(url);
    assert.equal(res.statusCode, 200, `${url}: ${res.body}`);
    const body = res.json();
    return body.success === true
      ? { data: body.data, pagination: body.pagination }
      : { body, total: res.headers['x-total-count'], link: res.headers.link };
  };

  before(async () => {
    ctx = await startApp(backend);
    key = (await makeKey(ctx.db, 'enterprise')).key;
    await insertFunding(ctx.db, [
      fundingRecord({ round_type: 'seed' }),
      fundingRecord({ round_type: 'series a' }),
      fundingRecord({ round_type: 'series b' }),
    ]);
    await insertInvestors(ctx.db, [
      investorRecord({ country: 'United States' }),
      investorRecord({ country: 'Germany' }),
      investorRecord({ country: 'France' }),
    ]);
    const document = (await ctx.app.inject('/openapi.json')).json();
    parameters = new Map(Object.keys(LISTS).map((path) => [path, (document.paths[path].get.parameters ?? []) as Parameter[]]));
  });
  after(() => ctx?.close());

  it('round=seed&round=series a is round=seed,series a (v1), countries=US&countries=DE is countries=US,DE (v2)', async () => {
    const v1 = await get('/api/v1/funding?round=seed&round=series%20a');
    assert.equal(v1.statusCode, 200, v1.body);
    assert.deepEqual(v1.json().params.round, ['seed', 'series a']);
    assert.deepEqual(
      v1
        .json()
        .response.data.map((round: { round_type: string }) => round.round_type)
        .sort(),
      ['seed', 'series a'],
    );
    const v2 = await get('/api/v2/signals/investors?countries=US&countries=de');
    assert.equal(v2.statusCode, 200, v2.body);
    assert.deepEqual(
      v2
        .json()
        .data.map((investor: { country: string }) => investor.country)
        .sort(),
      ['Germany', 'United States'],
    );
  });

  it('every list parameter of both families answers its repeated form as its comma form', async () => {
    for (const [path, names] of Object.entries(LISTS)) {
      for (const name of names) {
        const parameter = parameters.get(path)!.find((p) => p.name === name);
        assert.ok(parameter, `${path} documents ${name}`);
        const example = parameter.example;
        const values = TWO_VALUES[name] ?? (typeof example === 'string' ? example.split(',') : []);
        assert.ok(values.length >= 2, `${path} ${name}: two values to send`);
        const comma = `${path}?${new URLSearchParams({ [name]: values.join(',') })}`;
        const repeated = `${path}?${new URLSearchParams(values.map((value) => [name, value]))}`;
        assert.deepEqual(await answer(repeated), await answer(comma), `${repeated} answers as ${comma}`);
        // The first value repeated with nothing new, and an empty repeat, change nothing either.
        const withEmpty = `${path}?${new URLSearchParams([...values.map((value): [string, string] => [name, value]), [name, '']])}`;
        assert.deepEqual(await answer(withEmpty), await answer(comma), `${withEmpty} answers as ${comma}`);
      }
    }
  });

  it('a value refused in the repeated form is refused as in the comma form, naming it', async () => {
    const repeated = await get('/api/v2/signals/investors?countries=US&countries=ZZ');
    const comma = await get('/api/v2/signals/investors?countries=US,ZZ');
    assert.equal(repeated.statusCode, 400);
    assert.deepEqual(repeated.json(), comma.json());
    assert.equal(repeated.json().param, 'countries');
  });

  it('a scalar sent twice stays a 400 naming it, and says how to send several values of a list', async () => {
    const v2 = await get('/api/v2/signals/investors?limit=5&limit=6');
    assert.equal(v2.statusCode, 400);
    assert.deepEqual(v2.json(), {
      success: false,
      error:
        'limit is repeated; send it once (it takes one value; list parameters such as countries take several, ' +
        'comma-separated as countries=a,b or repeated as countries=a&countries=b)',
      code: 'invalid_parameter',
      param: 'limit',
    });
    const v1 = await get('/api/v1/funding?country=US&country=DE');
    assert.equal(v1.statusCode, 400);
    assert.equal(
      v1.json().message,
      'country is repeated; send it once (it takes one value; list parameters such as round take several, ' +
        'comma-separated as round=a,b or repeated as round=a&round=b)',
    );
    const since = await get('/api/v2/changes?since=a&since=b');
    assert.match(since.json().error, /^since is repeated; send it once \(it takes one value; the list parameter datasets/);
  });

  it('/openapi.json documents each list parameter as style form, explode true, and the comma form too', async () => {
    for (const [path, list] of parameters) {
      for (const parameter of list) {
        const isList = LISTS[path]!.includes(parameter.name);
        assert.equal(parameter.style, isList ? 'form' : undefined, `${path} ${parameter.name}`);
        assert.equal(parameter.explode, isList ? true : undefined, `${path} ${parameter.name}`);
        assert.equal(parameter.schema?.['x-list'], undefined, 'the validator marker stays out of the document');
        if (isList) {
          assert.ok(
            parameter.description?.endsWith(
              `Several values: comma-separated, or the parameter repeated (\`${parameter.name}=a&${parameter.name}=b\`).`,
            ),
            `${path} ${parameter.name}: ${parameter.description}`,
          );
        }
      }
    }
  });
});
