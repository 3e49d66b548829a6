// `dealsignal mcp`: the built command over stdio, driven by the MCP SDK's own client, against a real
// server on the demo data. Every answer is compared with what the HTTP API gives for the same query.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ErrorCode, McpError, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import type { TObject, TSchema } from '@sinclair/typebox';
import { adjustCredits } from '../../src/accounts/credit-queries.js';
import {
  acquisitions,
  companies,
  funding,
  fundingSignals,
  hiring,
  investors,
  jobChanges,
  mA,
} from '../../src/catalog/registry.js';
import { ChangesQuery } from '../../src/changes/schemas.js';
import { FundingSignalRecord } from '../../src/catalog/schemas/v2-schemas.js';
import { PeopleQuery, PersonRecord } from '../../src/people/schemas.js';
import { generateApiKey } from '../../src/accounts/api-keys.js';
import { DEMO_SEED, seedDatabase, startOfTodayUtc } from '../../src/demo/seed.js';
import { makeKey, startApp, type TestContext, describeOnOneStore } from '../helpers.js';

const BIN = new URL('../../bin/dealsignal.js', import.meta.url).pathname;

/** Each tool with the schemas its route uses: the registry's query and record, the API path. */
const TOOLS: Record<string, { family: 'v1' | 'v2'; path: string; query: TObject; record?: TSchema; limitMax: number }> = {
  list_funding_rounds: { family: 'v1', path: '/api/v1/funding', query: funding.query, record: funding.record, limitMax: 20 },
  list_deals: { family: 'v1', path: '/api/v1/m-a', query: mA.query, record: mA.record, limitMax: 20 },
  list_investors: {
    family: 'v2',
    path: '/api/v2/signals/investors',
    query: investors.query,
    record: investors.record,
    limitMax: 100,
  },
  list_job_changes: {
    family: 'v2',
    path: '/api/v2/signals/job-changes',
    query: jobChanges.query,
    record: jobChanges.record,
    limitMax: 100,
  },
  list_acquisition_signals: {
    family: 'v2',
    path: '/api/v2/signals/acquisitions',
    query: acquisitions.query,
    record: acquisitions.record,
    limitMax: 100,
  },
  list_funding_signals: {
    family: 'v2',
    path: '/api/v2/signals/funding',
    query: fundingSignals.query,
    // A view: its records are the funding rounds served as the published FundingSignal.
    record: FundingSignalRecord,
    limitMax: 100,
  },
  list_hiring_signals: {
    family: 'v2',
    path: '/api/v2/signals/hiring',
    query: hiring.query,
    record: hiring.record,
    limitMax: 100,
  },
  list_companies: {
    family: 'v2',
    path: '/api/v2/companies',
    query: companies.query,
    record: companies.record,
    limitMax: 100,
  },
  find_people: { family: 'v2', path: '/api/v2/people', query: PeopleQuery, record: PersonRecord, limitMax: 100 },
  list_changes: { family: 'v2', path: '/api/v2/changes', query: ChangesQuery, limitMax: 1000 },
};

/** A filter per list tool that matches more than a page of the demo data. */
const FILTERS: Record<string, Record<string, string>> = {
  list_funding_rounds: { country: 'US', category: 'fintech,saas' },
  list_deals: { country: 'US', status: 'completed' },
  list_investors: { countries: 'US', categories: 'vc,angel' },
  list_job_changes: { seniorities: 'c_level,vp' },
  list_acquisition_signals: { countries: 'NA' },
  list_funding_signals: { countries: 'US', round: 'Seed,Series A' },
  list_companies: { countries: 'US', employee_count_min: '10' },
  list_hiring_signals: { departments: 'engineering,sales' },
  find_people: { seniority: 'c_level,vp,founder' },
};

interface ListResult {
  total: number;
  page: number;
  hasNextPage: boolean;
  returned: number;
  records: Record<string, unknown>[];
  creditsRemaining?: number;
}

interface ChangesResult {
  nextCursor: string;
  hasNextPage: boolean;
  returned: number;
  total?: number;
  changes: { cursor: string; dataset: string; op: string; id: string | null; record: Record<string, unknown> | null }[];
  creditsRemaining?: number;
}

const pick = (record: Record<string, unknown>, fields: readonly string[]) =>
  Object.fromEntries(Object.entries(record).filter(([name]) => fields.includes(name)));

/** Starts `dealsignal mcp` with this key and connects the SDK's client to it. */
async function connect(apiKey: string, url: string): Promise<Client> {
  const client = new Client({ name: 'dealsignal-test', version: '1.0.0' });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp'],
    env: { DEALSIGNAL_API_KEY: apiKey, DEALSIGNAL_URL: url },
    stderr: 'pipe',
  });
  await client.connect(transport);
  return client;
}

describeOnOneStore('dealsignal mcp', (backend) => {
  let ctx: TestContext;
  let url: string;
  let key: string;
  let accountId: number;
  let client: Client;
  let stranger: Client;
  let tools: Map<string, Tool>;

  before(async () => {
    // With the enrichment worker: enrich_companies waits for its job.
    ctx = await startApp(backend, { ENRICHMENT_WORKER: 'true', ENRICHMENT_POLL_MS: '50' });
    url = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    ({ key, accountId } = await makeKey(ctx.db));
    // The processes start while the data loads. The second holds a key the server never issued.
    [client, stranger] = await Promise.all([
      connect(key, url),
      connect(generateApiKey(), url),
      seedDatabase(ctx.db, { scale: 'demo', seed: DEMO_SEED, asOf: startOfTodayUtc() }),
    ]);
    tools = new Map((await client.listTools()).tools.map((tool) => [tool.name, tool]));
  });
  after(async () => {
    await Promise.all([client?.close(), stranger?.close()]);
    await ctx?.close();
  });

  async function call(name: string, args: Record<string, unknown> = {}, as = client): Promise<CallToolResult> {
    return (await as.callTool({ name, arguments: args })) as CallToolResult;
  }

  /** A successful call's structured result, checked against its text twin. */
  async function result<T>(name: string, args: Record<string, unknown> = {}): Promise<T> {
    const answer = await call(name, args);
    assert.notEqual(answer.isError, true, JSON.stringify(answer.content));
    const [text] = answer.content;
    assert.equal(text?.type, 'text');
    assert.deepEqual(JSON.parse(text.type === 'text' ? text.text : ''), answer.structuredContent);
    return answer.structuredContent as T;
  }

  /** A failed call's message. */
  async function failure(name: string, args: Record<string, unknown>, as = client): Promise<string> {
    const answer = await call(name, args, as);
    assert.equal(answer.isError, true, JSON.stringify(answer.content));
    assert.equal(answer.structuredContent, undefined);
    const [text] = answer.content;
    return text?.type === 'text' ? text.text : '';
  }

  /** The HTTP API's answer to the same query. */
  async function api(path: string, query: Record<string, string | number | boolean>) {
    const family = path.startsWith('/api/v1/') ? 'v1' : 'v2';
    const search = new URLSearchParams(Object.entries(query).map(([name, value]) => [name, String(value)]));
    const res = await fetch(`${url}${path}?${search}`, {
      headers: family === 'v1' ? { 'x-lot-api-key': key } : { authorization: `Bearer ${key}` },
    });
    const body = await res.json();
    return { status: res.status, total: Number(res.headers.get('x-total-count')), link: res.headers.get('link'), body };
  }

  const defaultFields = (name: string) => (tools.get(name)!.inputSchema.properties!.fields as { default: string[] }).default;

  it("lists the tools, each list with its route's parameters plus fields, and a smaller default page", () => {
    assert.deepEqual(
      [...tools.keys()].sort(),
      [...Object.keys(TOOLS), 'get_company', 'enrich_companies', 'list_monitors', 'add_monitor_targets'].sort(),
    );
    for (const [name, route] of Object.entries(TOOLS)) {
      const schema = tools.get(name)!.inputSchema;
      const properties = schema.properties as Record<string, Record<string, unknown>>;
      const routeProperties = route.query.properties as Record<string, TSchema>;
      const expected = [...Object.keys(routeProperties), 'fields', ...(route.family === 'v1' ? ['limit'] : [])];
      assert.deepEqual(Object.keys(properties).sort(), expected.sort(), name);
      assert.equal(schema.additionalProperties, false, name);
      // The route's own words document each parameter (the tool adds to those of limit and count).
      for (const [parameter, routeSchema] of Object.entries(routeProperties)) {
        assert.ok(String(properties[parameter]!.description).startsWith(String(routeSchema.description)), `${name} ${parameter}`);
      }
      assert.equal(properties.limit!.default, 10, name);
      assert.equal(properties.limit!.maximum, route.limitMax, name);
      assert.doesNotMatch(JSON.stringify(schema), /formatMinimum|formatMaximum/, name);
      const fields = properties.fields as { items: { enum: string[] }; default?: string[] };
      if (route.record) {
        const recordFields = Object.keys((route.record as TObject).properties);
        for (const field of recordFields) assert.ok(fields.items.enum.includes(field), `${name} ${field}`);
        assert.ok(fields.default!.length > 0 && fields.default!.length <= 10, name);
        for (const field of fields.default!) assert.ok(recordFields.includes(field), `${name} ${field}`);
      } else {
        assert.equal(fields.default, undefined, name);
      }
      assert.match(tools.get(name)!.description!, route.family === 'v1' ? /no credits/ : /1 credit per call/, name);
    }
    // Fields of the served record beyond the stored one's: match_confidence, with company_domain.
    const acquisitionFields = tools.get('list_acquisition_signals')!.inputSchema.properties!.fields as {
      items: { enum: string[] };
    };
    assert.ok(acquisitionFields.items.enum.includes('match_confidence'));
  });

  it('each list tool answers with the exact total of the HTTP API, the default page and the default fields', async () => {
    for (const [name, filter] of Object.entries(FILTERS)) {
      const route = TOOLS[name]!;
      const got = await result<ListResult>(name, filter);
      const fields = defaultFields(name);
      if (route.family === 'v1') {
        const expected = await api(route.path, filter);
        assert.equal(got.total, expected.total, name);
        assert.equal(got.hasNextPage, /rel="next"/.test(expected.link ?? ''), name);
        assert.deepEqual(
          got.records,
          expected.body.response.data.slice(0, 10).map((r: Record<string, unknown>) => pick(r, fields)),
          name,
        );
        assert.equal(got.creditsRemaining, undefined, name);
      } else {
        const expected = await api(route.path, { ...filter, limit: 10 });
        assert.equal(got.total, expected.body.pagination.totalCount, name);
        assert.equal(got.hasNextPage, expected.body.pagination.hasNextPage, name);
        assert.deepEqual(
          got.records,
          expected.body.data.map((r: Record<string, unknown>) => pick(r, fields)),
          name,
        );
        assert.equal(typeof got.creditsRemaining, 'number', name);
      }
      assert.ok(got.total > 10, `${name}: ${got.total} records, more than a page`);
      assert.equal(got.page, 1, name);
      assert.equal(got.returned, 10, name);
      assert.ok(got.hasNextPage, name);
      for (const record of got.records)
        assert.ok(
          Object.keys(record).every((field) => fields.includes(field)),
          name,
        );
    }
  });

  it("paging with fields: page 2 is the API's page 2; v1 keeps the first `limit` records of it", async () => {
    const fundingFilter = FILTERS.list_funding_rounds!;
    const v1Page2 = await api('/api/v1/funding', { ...fundingFilter, page: 2 });
    const whole = await result<ListResult>('list_funding_rounds', {
      ...fundingFilter,
      page: 2,
      limit: 20,
      fields: ['company_name', 'date_seen'],
    });
    assert.equal(whole.page, 2);
    assert.equal(whole.total, v1Page2.total);
    assert.deepEqual(
      whole.records,
      v1Page2.body.response.data.map((r: Record<string, unknown>) => pick(r, ['company_name', 'date_seen'])),
    );
    const part = await result<ListResult>('list_funding_rounds', {
      ...fundingFilter,
      page: 2,
      limit: 5,
      fields: ['company_name'],
    });
    assert.equal(part.returned, 5);
    assert.deepEqual(
      part.records,
      whole.records.slice(0, 5).map((r) => pick(r, ['company_name'])),
    );

    const investorsFilter = FILTERS.list_investors!;
    const v2Page2 = await api('/api/v2/signals/investors', { ...investorsFilter, page: 2, limit: 10 });
    const got = await result<ListResult>('list_investors', { ...investorsFilter, page: 2, fields: ['id', 'name', 'aum'] });
    assert.equal(got.page, 2);
    assert.equal(got.total, v2Page2.body.pagination.totalCount);
    assert.deepEqual(
      got.records,
      v2Page2.body.data.map((r: Record<string, unknown>) => pick(r, ['id', 'name', 'aum'])),
    );
    assert.deepEqual(Object.keys(got.records[0]!), ['id', 'name', 'aum']);

    const counted = await result<ListResult>('list_investors', { ...investorsFilter, count: true });
    assert.equal(counted.total, v2Page2.body.pagination.totalCount);
    assert.equal(counted.returned, 0);
    assert.equal(counted.creditsRemaining, got.creditsRemaining, 'count mode is free');
  });

  it("get_company answers what GET /api/v2/companies/{id} and /lookup answer; a bad argument is the tool's error", async () => {
    const listed = await result<ListResult>('list_companies', { limit: 1, fields: ['id', 'website'] });
    const { id, website } = listed.records[0] as { id: string; website: string | null };
    const expected = await api(`/api/v2/companies/${id}`, {});
    assert.equal(expected.status, 200);
    const byId = await result<{ company: unknown }>('get_company', { id });
    assert.deepEqual(byId.company, expected.body.data);
    if (website !== null) {
      const byDomain = await result<{ company: { id: string } }>('get_company', { domain: website });
      assert.equal(byDomain.company.id, id);
    }
    const both = await call('get_company', { id, domain: 'acme.com' });
    assert.equal(both.isError, true);
  });

  it('enrich_companies answers what the finished job answers, with the newest signal of each type', async () => {
    const listed = await result<ListResult>('list_companies', { limit: 1, fields: ['id', 'name', 'website'] });
    const [first] = listed.records as { id: string; name: string; website: string | null }[];
    const companies = [
      first!.website === null ? { company_name: first!.name } : { website_url: first!.website, crm_id: '7' },
      { company_name: 'A company nobody has heard of 12345' },
    ];
    const got = await result<{
      jobId: string;
      status: string;
      summary: { totalInputs: number };
      results: { companyId: string; matched: boolean; signalCounts: object; latest: Record<string, unknown> }[];
    }>('enrich_companies', { companies, fileName: 'from-a-model' });
    assert.deepEqual([got.status, got.summary.totalInputs], ['completed', 2]);
    const expected = await api(`/api/v2/csv-enrichment/${got.jobId}`, {});
    assert.equal(expected.status, 200);
    const [known, unknown] = got.results;
    const [knownExpected] = expected.body.data.results;
    assert.deepEqual([known!.companyId, known!.matched], [knownExpected.companyId, true]);
    assert.deepEqual(known!.signalCounts, knownExpected.signalCounts);
    for (const [type, list] of Object.entries(knownExpected.signals as Record<string, unknown[]>)) {
      assert.deepEqual(known!.latest[type], list[0] ?? null, type);
    }
    assert.equal(unknown!.matched, false);
    const tooMany = await call('enrich_companies', { companies: [] });
    assert.equal(tooMany.isError, true);
  });

  it('add_monitor_targets adds companies to a monitor, and again adds nothing; list_monitors shows them', async () => {
    const created = await fetch(`${url}/api/v2/monitors`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'From a model', signal_types: ['funding_round', 'hiring'] }),
    });
    assert.equal(created.status, 201);
    const monitorId = ((await created.json()) as { data: { id: string } }).data.id;
    const listed = await result<ListResult>('list_companies', { limit: 2, fields: ['id', 'website'] });
    const websites = (listed.records as { website: string | null }[]).flatMap((c) => (c.website ? [c.website] : []));
    const targets = [...websites, 'not a domain'];
    const first = await result<{
      added: { status: string }[];
      skipped_existing: number;
      invalid: string[];
      resolved_companies: number;
    }>('add_monitor_targets', { monitor_id: monitorId, targets });
    assert.equal(first.added.length, websites.length);
    assert.ok(first.added.every((t) => t.status === 'resolved'));
    assert.deepEqual(first.invalid, ['not a domain']);
    assert.equal(first.resolved_companies, websites.length);
    // Safe to retry: the same call adds nothing.
    const again = await result<{ added: unknown[]; skipped_existing: number }>('add_monitor_targets', {
      monitor_id: monitorId,
      targets,
    });
    assert.deepEqual([again.added.length, again.skipped_existing], [0, websites.length]);
    const monitors = await result<{ monitors: { id: string; stats: { targets: number } }[] }>('list_monitors');
    assert.equal(monitors.monitors.find((m) => m.id === monitorId)?.stats.targets, websites.length);
    assert.match(
      await failure('add_monitor_targets', { monitor_id: '00000000-0000-4000-8000-000000000000', targets: ['a.com'] }),
      /not found/i,
    );
  });

  it('find_people returns the people with their matched signal and the total, as GET /api/v2/people does', async () => {
    const filter = { seniority: 'c_level,founder', signal_type: 'funding_round', signal_date_range: '6m' };
    const expected = await api('/api/v2/people', { ...filter, limit: 5 });
    const got = await result<ListResult>('find_people', { ...filter, limit: 5 });
    assert.equal(expected.status, 200);
    assert.ok(got.total > 5, `${got.total} people`);
    assert.equal(got.total, expected.body.pagination.totalCount);
    assert.equal(got.returned, 5);
    assert.deepEqual(
      got.records,
      expected.body.data.map((r: Record<string, unknown>) => pick(r, defaultFields('find_people'))),
    );
    assert.deepEqual(defaultFields('find_people'), [
      'name',
      'title',
      'linkedin_url',
      'company',
      'matched_signal',
      'is_latest_signal',
    ]);
    for (const person of got.records as { matched_signal: Record<string, unknown>; is_latest_signal: unknown }[]) {
      assert.equal(person.matched_signal.type, 'funding_round');
      assert.match(String(person.matched_signal.date), /^\d{4}-\d{2}-\d{2}$/);
      assert.ok(String(person.matched_signal.summary).length > 0);
      assert.equal(typeof person.is_latest_signal, 'boolean');
    }
    const description = tools.get('find_people')!.description!;
    assert.match(description, /just raised/);
    assert.match(description, /matched_signal/);
    const counted = await result<ListResult>('find_people', { ...filter, count: true });
    assert.deepEqual([counted.total, counted.returned], [got.total, 0]);
    assert.equal(counted.creditsRemaining, got.creditsRemaining, 'count mode is free');
  });

  /** The tool calls a prompt's text spells out, `tool {json}` on a line of their own, in order. */
  const promptCalls = (text: string) =>
    [...text.matchAll(/^\s*(\w+) (\{.*\})$/gm)].map(([, tool, args]) => ({
      tool: tool!,
      args: JSON.parse(args!) as Record<string, unknown>,
    }));

  /** The text of the prompt's one message, for these arguments. */
  async function promptText(args?: Record<string, string>): Promise<string> {
    const prompt = await client.getPrompt({ name: 'funded_and_hiring', ...(args && { arguments: args }) });
    assert.equal(prompt.messages.length, 1);
    const [message] = prompt.messages;
    assert.equal(message!.role, 'user');
    assert.equal(message!.content.type, 'text');
    return message!.content.type === 'text' ? message!.content.text : '';
  }

  /** The UTC day `days` days before now. */
  const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);

  it('lists the prompt "funded and hiring: whom to call", with its optional arguments', async () => {
    const { prompts } = await client.listPrompts();
    assert.deepEqual(
      prompts.map(({ name, title }) => ({ name, title })),
      [{ name: 'funded_and_hiring', title: 'Funded and hiring: whom to call' }],
    );
    const [prompt] = prompts;
    assert.match(prompt!.description!, /find_people/);
    assert.deepEqual(
      prompt!.arguments!.map(({ name, required }) => ({ name, required })),
      [
        { name: 'function', required: false },
        { name: 'country', required: false },
        { name: 'window', required: false },
      ],
    );
    for (const argument of prompt!.arguments!) assert.ok(argument.description!.length > 0, argument.name);
  });

  it('the prompt, fetched with arguments, spells out the calls; followed on the demo data, it finds people to call', async () => {
    const earlier = daysAgo(30);
    const text = await promptText({ function: 'Sales', country: 'US', window: '30d' });
    const since = [earlier, daysAgo(30)].find((day) => text.includes(`since ${day}`));
    assert.ok(since, text);
    const calls = promptCalls(text);
    assert.deepEqual(
      calls.map((call) => call.tool),
      ['list_companies', 'list_companies', 'find_people', 'find_people'],
    );
    assert.deepEqual(calls[0]!.args, {
      has_signals: 'funding_round,hiring',
      funding_round_since: since,
      hiring_since: since,
      countries: 'US',
      count: true,
    });
    assert.deepEqual(calls[2]!.args, {
      signal_type: 'funding_round',
      signal_date_range: '30d',
      seniority: 'c_level,vp,founder',
      function: 'sales',
      country: 'US',
      limit: 100,
    });
    assert.deepEqual(calls[3]!.args, {
      signal_type: 'funding_round',
      seniority: 'c_level,vp,founder',
      function: 'sales',
      company_domain: '<the website>',
    });
    assert.match(text, /matched_signal/);

    // Without arguments: any function and country, the last 90 days.
    const plain = await promptText();
    const [count, read, people] = promptCalls(plain);
    assert.ok([daysAgo(90), daysAgo(91)].includes(String(count!.args.funding_round_since)), plain);
    assert.deepEqual(people!.args, {
      signal_type: 'funding_round',
      signal_date_range: '90d',
      seniority: 'c_level,vp,founder',
      limit: 100,
    });

    // The calls as a model makes them: companies funded and hiring, and decision makers at some of them.
    const counted = await result<ListResult>('list_companies', count!.args);
    const companies = await result<ListResult>('list_companies', read!.args);
    assert.ok(counted.total > 0 && companies.returned === Math.min(counted.total, 100), `${counted.total} companies`);
    const found = await result<ListResult>('find_people', people!.args);
    const domains = new Set(
      companies.records.map((company) =>
        String(company.website)
          .replace(/^https?:\/\/(www\.)?/, '')
          .replace(/\/.*$/, ''),
      ),
    );
    const toCall = (found.records as { company: { domain: string | null }; matched_signal: { type: string } }[]).filter(
      (person) => person.company.domain !== null && domains.has(person.company.domain),
    );
    assert.ok(toCall.length > 0, 'people to call at companies funded and hiring');
    assert.ok(toCall.every((person) => person.matched_signal.type === 'funding_round'));
  });

  it('a prompt argument it cannot use, or an unknown prompt, is the protocol error', async () => {
    const cases: [args: Record<string, string>, message: RegExp][] = [
      [{ window: 'soon' }, /window: "soon" is not a window/],
      [{ window: '0d' }, /window: "0d"/],
      [{ function: 'astrology' }, /function: astrology is not a function id; use one or more of marketing, sales/],
      [{ seniority: 'vp' }, /takes no argument seniority/],
    ];
    for (const [args, message] of cases) {
      await assert.rejects(client.getPrompt({ name: 'funded_and_hiring', arguments: args }), (err: unknown) => {
        assert.ok(err instanceof McpError);
        assert.equal(err.code, ErrorCode.InvalidParams);
        assert.match(err.message, message);
        return true;
      });
    }
    await assert.rejects(client.getPrompt({ name: 'whom_to_call' }), /Unknown prompt: whom_to_call/);
  });

  it('list_changes follows a cursor, with records trimmed to their data set’s default fields', async () => {
    const first = await result<ChangesResult>('list_changes', { datasets: 'm-a' });
    const expectedFirst = await api('/api/v2/changes', { datasets: 'm-a', limit: 10 });
    assert.equal(first.returned, 10);
    assert.equal(first.total, undefined);
    assert.equal(first.nextCursor, expectedFirst.body.pagination.nextCursor);
    assert.deepEqual(
      first.changes.map((change) => change.cursor),
      expectedFirst.body.data.map((change: { cursor: string }) => change.cursor),
    );
    const dealFields = defaultFields('list_deals');
    for (const change of first.changes) {
      assert.equal(change.dataset, 'm-a');
      assert.deepEqual(Object.keys(change.record ?? {}).sort(), [...dealFields].sort());
    }

    const second = await result<ChangesResult>('list_changes', {
      datasets: 'm-a',
      since: first.nextCursor,
      fields: ['company_name'],
    });
    const expectedSecond = await api('/api/v2/changes', { datasets: 'm-a', limit: 10, since: first.nextCursor });
    assert.equal(second.nextCursor, expectedSecond.body.pagination.nextCursor);
    assert.deepEqual(
      second.changes.map((change) => [change.id, change.record]),
      expectedSecond.body.data.map((change: { id: string; record: Record<string, unknown> }) => [
        change.id,
        pick(change.record, ['company_name']),
      ]),
    );
    assert.ok(!first.changes.some((change) => second.changes.some((next) => next.cursor === change.cursor)));

    const counted = await result<ChangesResult>('list_changes', { datasets: 'm-a', since: first.nextCursor, count: true });
    const expectedCount = await api('/api/v2/changes', { datasets: 'm-a', since: first.nextCursor, count: true });
    assert.equal(counted.total, expectedCount.body.pagination.totalCount);
    assert.ok(counted.total! > 10);
  });

  it("list_changes with since 'now' returns the head's cursor for free, and the tool says how to start there", async () => {
    assert.match(tools.get('list_changes')!.description!, /`since: "now"`/);
    const now = await result<ChangesResult>('list_changes', { since: 'now' });
    const head = await api('/api/v2/changes', { since: 'now' });
    assert.deepEqual(
      { nextCursor: now.nextCursor, hasNextPage: now.hasNextPage, returned: now.returned, changes: now.changes },
      { nextCursor: head.body.pagination.nextCursor, hasNextPage: false, returned: 0, changes: [] },
    );
    assert.equal(now.creditsRemaining, head.body.meta.creditsRemaining, 'free');
  });

  it("a bad parameter comes back as a tool error with the API's message", async () => {
    const cases: [tool: string, path: string, args: Record<string, string | number>][] = [
      ['list_investors', '/api/v2/signals/investors', { countries: 'ZZ' }],
      ['list_investors', '/api/v2/signals/investors', { limit: 0 }],
      ['list_funding_signals', '/api/v2/signals/funding', { round: 'Series Z' }],
      ['list_changes', '/api/v2/changes', { since: 'not-a-cursor' }],
      ['list_funding_rounds', '/api/v1/funding', { country: 'Atlantis' }],
      ['list_deals', '/api/v1/m-a', { unknown_parameter: 'x' }],
      ['find_people', '/api/v2/people', { seniority: 'exec' }],
      ['find_people', '/api/v2/people', { signal_date_range: 'soon' }],
    ];
    for (const [tool, path, args] of cases) {
      const expected = await api(path, args);
      assert.equal(expected.status, 400, JSON.stringify(expected.body));
      const message = path.startsWith('/api/v1/') ? expected.body.message : expected.body.error;
      const text = await failure(tool, args);
      assert.ok(text.startsWith(`${message} (HTTP 400`), `${tool}: ${text}`);
      if (path.startsWith('/api/v2/')) assert.match(text, /code invalid_parameter, parameter \w+\)$/, text);
    }
    // The tool's own parameters are checked by the tool.
    assert.match(await failure('list_funding_rounds', { limit: 0 }), /^limit must be an integer from 1 to 20/);
    assert.match(await failure('list_deals', { limit: 21 }), /^limit must be an integer from 1 to 20/);
    assert.match(
      await failure('list_investors', { fields: ['nope'] }),
      /^fields must be a non-empty array of these names: id, name,/,
    );
    assert.match(await failure('list_investors', { countries: { US: true } }), /^countries must be a string/);
  });

  it('requests in flight when standard input closes are answered before the process exits', async () => {
    // As `printf '…' | dealsignal mcp`: every request written at once, then the end of input.
    const child = spawn(process.execPath, [BIN, 'mcp'], {
      env: { PATH: process.env.PATH, DEALSIGNAL_API_KEY: key, DEALSIGNAL_URL: url },
      timeout: 30_000,
    });
    let stdout = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    const messages = [
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'printf', version: '1' } },
      },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'list_funding_rounds', arguments: { limit: 2 } } },
      { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'list_investors', arguments: { count: true } } },
    ];
    child.stdin.end(messages.map((m) => JSON.stringify(m)).join('\n') + '\n');
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
    assert.equal(code, 0);
    const answers = new Map(
      stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { id: number; result?: { isError?: boolean; structuredContent?: { total: number } } })
        .map((answer) => [answer.id, answer]),
    );
    assert.deepEqual([...answers.keys()].sort(), [1, 2, 3], stdout);
    for (const id of [2, 3]) {
      assert.notEqual(answers.get(id)!.result!.isError, true, stdout);
      assert.ok(answers.get(id)!.result!.structuredContent!.total > 0);
    }
  });

  it("an unknown tool is the protocol's error", async () => {
    await assert.rejects(call('list_everything'), (err: unknown) => {
      assert.ok(err instanceof McpError);
      assert.equal(err.code, ErrorCode.InvalidParams);
      assert.match(err.message, /Unknown tool: list_everything/);
      return true;
    });
  });

  it('a wrong key: a tool error with the 401 message of each family', async () => {
    assert.equal(await failure('list_investors', {}, stranger), 'Invalid API key (HTTP 401, code invalid_api_key)');
    assert.equal(
      await failure('list_deals', {}, stranger),
      'Invalid or missing API key (send it in the x-lot-api-key header) (HTTP 401)',
    );
  });

  it('an account out of credits: v2 tools answer the 402 message, v1 tools and count mode still work', async () => {
    await adjustCredits(ctx.db, accountId, { set: 0 });
    try {
      assert.equal(
        await failure('list_acquisition_signals', {}),
        'API credits exhausted for this billing period; they refill at the start of next month (HTTP 402, code insufficient_credits)',
      );
      assert.match(await failure('list_changes', {}), /^API credits exhausted .*\(HTTP 402, code insufficient_credits\)$/);
      assert.equal((await result<ListResult>('list_deals')).returned, 10);
      assert.equal((await result<ListResult>('list_acquisition_signals', { count: true })).creditsRemaining, 0);
    } finally {
      await adjustCredits(ctx.db, accountId, { set: 10_000 });
    }
  });
});

describe('dealsignal mcp: configuration', () => {
  /** Runs `dealsignal ARGS` to its end with this environment (and nothing on standard input). */
  async function run(args: string[], env: Record<string, string | undefined>) {
    const child = spawn(process.execPath, [BIN, ...args], { env: { PATH: process.env.PATH, ...env }, timeout: 30_000 });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.stdin.end();
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
    return { code, stdout, stderr };
  }

  it('stops at once with exit status 1 and a message on stderr without DEALSIGNAL_API_KEY', async () => {
    const { code, stdout, stderr } = await run(['mcp'], { DEALSIGNAL_URL: 'http://127.0.0.1:1' });
    assert.equal(code, 1);
    assert.equal(stdout, '');
    assert.match(stderr, /^dealsignal mcp: DEALSIGNAL_API_KEY is not set/);
  });

  it('a key given as an argument, in any form, never appears in its output', async () => {
    const key = generateApiKey();
    const forms = [[key], ['--key', key], [`--api-key=${key}`], [`--${key}`], ['--', key], ['--help', key]];
    const cases = [
      ...forms.map((args) => ({ args, env: {} })),
      ...forms.slice(0, 2).map((args) => ({ args, env: { DEALSIGNAL_API_KEY: generateApiKey() } })),
    ];
    for (const { args, env } of cases) {
      const { code, stdout, stderr } = await run(['mcp', ...args], { DEALSIGNAL_URL: 'http://127.0.0.1:1', ...env });
      const label = `mcp ${args.join(' ')} (${Object.keys(env).join() || 'no key in the environment'})`;
      assert.ok(!stderr.includes(key) && !stderr.includes(key.slice(3, 15)), `${label} echoed the key: ${stderr}`);
      assert.equal(stdout, '', label);
      assert.equal(code, 2, `${label}: ${stderr}`);
      assert.equal(
        stderr,
        `dealsignal mcp: takes no arguments (${args.length} given, not shown); set the key in DEALSIGNAL_API_KEY and ` +
          'the server in DEALSIGNAL_URL\n',
        label,
      );
    }
  });
});
