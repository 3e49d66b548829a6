// The API docs (/docs, Swagger UI) and the OpenAPI document behind them, as a new user meets them:
// on a fresh demo store, every example pre-filled by "Try it out" returns records, and the page is
// ours (title, sign-up link), with no name shown twice and nothing refused by its content policy.
// Every operation carries code samples (curl, JavaScript with @dealsignal/client, Python), and those
// of the data endpoints, run as a user would run them, print records.
import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { FastifyInstance } from 'fastify';
import { chromium } from 'playwright-core';
import ts from 'typescript';
import { buildApp } from '../src/app.js';
import { withCodeSamples } from '../src/platform/http/code-samples.js';
import { INGEST_CONTENT_TYPES } from '../src/ingest/routes.js';
import { DEMO_SEED, seedDatabase, startOfTodayUtc } from '../src/demo/seed.js';
import { makeKey, startApp, testConfig, type TestContext, describeOnOneStore } from './helpers.js';
import { SCREENSHOTS } from './account/chromium.js';

const CHROMIUM = '/usr/bin/chromium';
const README = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const V2_DOC = readFileSync(new URL('../docs/api/v2.md', import.meta.url), 'utf8');
const OPERATIONS_DOC = readFileSync(new URL('../docs/operations.md', import.meta.url), 'utf8');
const PACKAGE = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PYTHON_MISSING: string | false = spawnSync('python3', ['--version']).status === 0 ? false : 'python3 is not installed';
const CLIENT_MISSING: string | false = existsSync(new URL('../client/dist/index.js', import.meta.url))
  ? false
  : 'the client is not built';
// Asynchronous: the server answering the samples runs in this process.
const run = promisify(execFile);

/** docs/api/v2.md's table of v2 parameters: endpoint path → the parameters it marks as taken. */
function documentedV2Parameters(): Map<string, Set<string>> {
  const start = V2_DOC.indexOf('| Parameter | `/api/v2/');
  assert.ok(start >= 0, 'docs/api/v2.md has a table of v2 parameters');
  const lines = V2_DOC.slice(start).split('\n');
  const cells = (line: string) =>
    line
      .slice(1, -1)
      .split('|')
      .map((cell) => cell.trim());
  const end = lines.findIndex((line) => !line.startsWith('|'));
  const rows = lines.slice(0, end).map(cells);
  const paths = rows[0]!.slice(1).map((cell) => cell.replace(/`/g, ''));
  const taken = new Map(paths.map((path) => [path, new Set<string>()]));
  for (const row of rows.slice(2)) {
    const names = [...row[0]!.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
    row.slice(1).forEach((cell, i) => {
      if (cell !== '' && cell !== '—') for (const name of names) taken.get(paths[i]!)!.add(name);
    });
  }
  return taken;
}

interface Parameter {
  name: string;
  in: string;
  example?: unknown;
  schema?: { default?: unknown };
}
interface CodeSample {
  lang: string;
  label: string;
  source: string;
}
interface Operation {
  operationId: string;
  tags?: string[];
  description?: string;
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { example?: unknown }> };
  security?: Record<string, string[]>[];
  'x-codeSamples'?: CodeSample[];
}
interface OpenApi {
  info: { title: string; description: string };
  servers: { url: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: {
    schemas: Record<string, { title?: string }>;
    securitySchemes: Record<string, { type: string; in?: string; name?: string; scheme?: string }>;
  };
}

/**
 * The operations that read data (the list endpoints and what else serves records): the webhooks API
 * manages subscriptions, and has its own suites (test/webhooks); the v1 batch lookups take a body,
 * and theirs (test/v1/lookup.test.ts) check their documented examples on the demo data.
 */
const operationsOf = (doc: OpenApi) =>
  everyOperation(doc).filter(
    // One company (by id, or looked up) answers one record, not a list: test/companies calls them.
    // The enrichment API takes a list in a body and reads jobs by id: test/enrichment calls it.
    // Monitors are an account's own, made by calls: test/monitors calls them.
    ({ operation }) =>
      !operation.tags?.some((tag) => ['v2 webhooks', 'v1 lookup', 'v2 companies', 'v2 enrichment', 'v2 monitors'].includes(tag)),
  );

const everyOperation = (doc: OpenApi) =>
  Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({ path, method: method.toUpperCase(), operation })),
  );

/** The v1 batch lookups: they take a body, and answer one result per input. */
const lookupsOf = (doc: OpenApi) => everyOperation(doc).filter(({ operation }) => operation.tags?.includes('v1 lookup'));

/** The client call each operation's JavaScript sample makes (the client's API, as designed). */
const CLIENT_CALLS: Record<string, string> = {
  listFunding: 'ds.v1.funding.list(params)',
  listMergersAndAcquisitions: 'ds.v1.deals.list(params)',
  lookupFunding: 'ds.v1.funding.lookup(body)',
  lookupMergersAndAcquisitions: 'ds.v1.deals.lookup(body)',
  getInvestors: 'ds.v2.investors.list(params)',
  getJobChangeSignals: 'ds.v2.jobChanges.list(params)',
  getAcquisitionSignals: 'ds.v2.acquisitions.list(params)',
  getFundingSignals: 'ds.v2.funding.list(params)',
  getHiringSignals: 'ds.v2.hiring.list(params)',
  getCompanies: 'ds.v2.companies.list(params)',
  searchPeople: 'ds.v2.people.list(params)',
  getCompany: "ds.v2.companies.get('COMPANY_ID')",
  lookupCompany: 'ds.v2.companies.lookup(params)',
  listChanges: 'ds.v2.changes.list(params)',
  createWebhook: 'ds.v2.webhooks.create(body)',
  listWebhooks: 'ds.v2.webhooks.list(params)',
  getWebhook: "ds.v2.webhooks.get('WEBHOOK_ID')",
  updateWebhook: "ds.v2.webhooks.update('WEBHOOK_ID', body)",
  deleteWebhook: "ds.v2.webhooks.delete('WEBHOOK_ID')",
  testWebhook: "ds.v2.webhooks.test('WEBHOOK_ID')",
  listWebhookDeliveries: "ds.v2.webhooks.deliveries('WEBHOOK_ID', params)",
  retryWebhookDelivery: "ds.v2.webhooks.retry('WEBHOOK_ID', 'DELIVERY_ID')",
  createCSVEnrichmentJob: 'ds.v2.enrichment.create(body)',
  getCSVEnrichmentJob: "ds.v2.enrichment.get('JOB_ID', params)",
  createMonitor: 'ds.v2.monitors.create(body)',
  listMonitors: 'ds.v2.monitors.list()',
  getMonitor: "ds.v2.monitors.get('MONITOR_ID')",
  updateMonitor: "ds.v2.monitors.update('MONITOR_ID', body)",
  deleteMonitor: "ds.v2.monitors.delete('MONITOR_ID')",
  listMonitorTargets: "ds.v2.monitors.targets('MONITOR_ID', params)",
  addMonitorTargets: "ds.v2.monitors.addTargets('MONITOR_ID', body)",
  removeMonitorTarget: "ds.v2.monitors.removeTarget('MONITOR_ID', 'TARGET_ID')",
  removeMonitorTargets: "ds.v2.monitors.removeTargets('MONITOR_ID', body)",
  replayMonitor: "ds.v2.monitors.replay('MONITOR_ID', body)",
};

const SAMPLES = [
  { lang: 'Shell', label: 'curl', fence: 'sh' },
  { lang: 'JavaScript', label: 'JavaScript (@dealsignal/client)', fence: 'js' },
  { lang: 'Python', label: 'Python (standard library)', fence: 'python' },
];

/** An operation's sample in one language. */
function sampleOf(operation: Operation, lang: string): string {
  const sample = operation['x-codeSamples']?.find((candidate) => candidate.lang === lang);
  assert.ok(sample, `${operation.operationId} has a ${lang} sample`);
  return sample.source;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The headers that carry a key the way the operation's security scheme says. */
function credentials(doc: OpenApi, operation: Operation, key: string): Record<string, string> {
  const name = Object.keys(operation.security?.[0] ?? {})[0];
  const scheme = name ? doc.components.securitySchemes[name] : undefined;
  if (scheme?.type === 'apiKey' && scheme.in === 'header') return { [scheme.name!]: key };
  if (scheme?.type === 'http' && scheme.scheme === 'bearer') return { authorization: `Bearer ${key}` };
  throw new Error(`${operation.operationId}: no security scheme this test knows`);
}

/** The records of a page of either family (v1 `response.data`, v2 `data`). */
const recordsOf = (body: { data?: unknown[]; response?: { data?: unknown[] } }) => body.data ?? body.response?.data;

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
    probe.on('error', reject);
  });

describe('code samples (withCodeSamples)', () => {
  const operation = (operationId?: string) => ({ paths: { '/api/v2/new': { get: { operationId, responses: {} } } } });

  it('refuses an operation it has no client call for, so a new route cannot ship without samples', () => {
    assert.throws(() => withCodeSamples(operation('getSomethingNew'), 'http://127.0.0.1:3000'), /getSomethingNew.*CLIENT_CALLS/);
    assert.throws(() => withCodeSamples(operation(undefined), 'http://127.0.0.1:3000'), /GET \/api\/v2\/new has no operationId/);
  });

  it("samples a v2 signal list the client names no member for through the client's v2.endpoint(path)", () => {
    const document = { paths: { '/api/v2/signals/patents': { get: { operationId: 'getPatents', responses: {} } } } };
    const samples = (
      withCodeSamples(document, 'http://127.0.0.1:3000').paths['/api/v2/signals/patents'].get as {
        'x-codeSamples'?: CodeSample[];
      }
    )['x-codeSamples']!;
    const javascript = samples.find((sample) => sample.lang === 'JavaScript')!.source;
    assert.match(javascript, /ds\.v2\.endpoint\('\/api\/v2\/signals\/patents'\)\.list\(/);
    assert.match(javascript, /ds\.v2\.endpoint\('\/api\/v2\/signals\/patents'\)\.all\(/);
    // Only a GET of a signal list: any other new operation still needs its named call.
    const post = { paths: { '/api/v2/signals/patents': { post: { operationId: 'createPatent', responses: {} } } } };
    assert.throws(() => withCodeSamples(post, 'http://127.0.0.1:3000'), /createPatent.*CLIENT_CALLS/);
  });

  it('returns a new document and leaves the one it was given as it was', () => {
    const document = {
      paths: {
        '/api/v2/webhooks/{id}': { get: { operationId: 'getWebhook', parameters: [{ name: 'id', in: 'path', required: true }] } },
      },
    };
    const before = structuredClone(document);
    const result = withCodeSamples(document, 'http://127.0.0.1:3000/');
    assert.deepEqual(document, before);
    const samples = (result.paths['/api/v2/webhooks/{id}'].get as { 'x-codeSamples'?: CodeSample[] })['x-codeSamples'];
    assert.match(samples![0]!.source, /'http:\/\/127\.0\.0\.1:3000\/api\/v2\/webhooks\/WEBHOOK_ID'/);
  });
});

describeOnOneStore('API docs on the demo data', (backend) => {
  let ctx: TestContext;
  let key: string;
  let doc: OpenApi;
  // A server listening on the port its PUBLIC_URL names, as the docs page and the code samples call it.
  let live: FastifyInstance;
  let base: string;
  let liveDoc: OpenApi;

  const call = async (path: string, operation: Operation, query: Record<string, string>) => {
    const res = await ctx.app.inject({
      method: 'GET',
      url: path,
      query,
      headers: credentials(doc, operation, key),
    });
    return { res, records: res.statusCode === 200 ? recordsOf(res.json()) : undefined };
  };

  before(async () => {
    ctx = await startApp(backend);
    // What the first `npm start` loads, and a key like its demo key.
    await seedDatabase(ctx.db, { scale: 'demo', seed: DEMO_SEED, asOf: startOfTodayUtc() });
    key = (await makeKey(ctx.db, 'pro')).key;
    doc = (await ctx.app.inject({ url: '/openapi.json' })).json();
    const port = await freePort();
    live = await buildApp({ config: testConfig({ PORT: String(port) }), db: ctx.db });
    await live.listen({ port, host: '127.0.0.1' });
    base = `http://127.0.0.1:${port}`;
    liveDoc = (await live.inject({ url: '/openapi.json' })).json();
  });
  after(async () => {
    await live?.close();
    await ctx.close();
  });

  /** Runs a sample as a user would, with the key in DEALSIGNAL_API_KEY; its output as JSON. */
  const runSample = async (operation: Operation, lang: 'Shell' | 'Python') => {
    const source = sampleOf(operation, lang);
    const [command, args] = lang === 'Shell' ? ['sh', ['-c', source]] : ['python3', ['-c', source]];
    const { stdout, stderr } = await run(command, args, {
      env: { ...process.env, DEALSIGNAL_API_KEY: key },
      timeout: 20_000,
    }).catch((error: { stdout?: string; stderr?: string }) => {
      throw new Error(`${operation.operationId}'s ${lang} sample failed: ${error.stderr}${error.stdout}\n${source}`);
    });
    assert.equal(stderr, '', `${operation.operationId}'s ${lang} sample wrote to stderr`);
    return JSON.parse(stdout);
  };

  /** The lookups' sample prints one result per input of the documented example, in input order, some matched. */
  const assertLookupAnswer = (
    operation: Operation,
    body: { response: { data: { input: string; status: string; records: unknown[] }[] } },
  ) => {
    const example = operation.requestBody!.content['application/json']!.example as {
      websites?: string[];
      linkedin_urls?: string[];
    };
    const inputs = [...(example.websites ?? []), ...(example.linkedin_urls ?? [])];
    assert.deepEqual(
      body.response.data.map((result) => result.input),
      inputs,
      `${operation.operationId}: one result per input`,
    );
    assert.ok(
      body.response.data.some((result) => result.status === 'matched' && result.records.length > 0),
      `${operation.operationId}: no input matched`,
    );
  };

  it('every operation carries curl, JavaScript and Python samples for itself, shown in its description', async () => {
    const base = ctx.config.publicUrl;
    const operations = everyOperation(doc);
    assert.deepEqual(operations.map(({ operation }) => operation.operationId).sort(), Object.keys(CLIENT_CALLS).sort());
    const pythonSources: string[] = [];
    for (const { path, method, operation } of operations) {
      const id = operation.operationId;
      const samples = operation['x-codeSamples'] ?? [];
      assert.deepEqual(
        samples.map(({ lang, label }) => ({ lang, label })),
        SAMPLES.map(({ lang, label }) => ({ lang, label })),
        id,
      );
      assert.ok(operation.description?.includes('**Code samples**'), `${id}: the description has the section`);
      for (const { lang, fence } of SAMPLES) {
        assert.ok(
          operation.description!.includes(`\`\`\`${fence}\n${sampleOf(operation, lang)}\n\`\`\``),
          `${id}: the ${lang} sample is in the description`,
        );
      }
      const [curl, js, python] = SAMPLES.map(({ lang }) => sampleOf(operation, lang)) as [string, string, string];
      // The URL, with a placeholder (WEBHOOK_ID) for each path parameter.
      const url = escapeRegExp(base + path).replace(/\\\{[^}]+\\\}/g, '[A-Z][A-Z_]*_ID');
      assert.match(curl, new RegExp(`'${url}'`), `${id}: curl's URL`);
      assert.match(python, new RegExp(`"${url}(\\?)?"`), `${id}: Python's URL`);
      // The key, from the environment, in the operation's scheme.
      const [header, value] = Object.entries(credentials(doc, operation, '$DEALSIGNAL_API_KEY'))[0]!;
      assert.match(
        curl,
        new RegExp(`^curl -sS --fail-with-body .*\\n  -H "${header}: ${escapeRegExp(value)}"( \\\\$|$)`, 'im'),
        `${id}: curl's key`,
      );
      const pythonKey = `${value.startsWith('Bearer ') ? '"Bearer " \\+ ' : ''}os\\.environ\\["DEALSIGNAL_API_KEY"\\]`;
      assert.match(python, new RegExp(`"${header}": ${pythonKey}`, 'i'), `${id}: Python's key`);
      assert.ok(js.startsWith("import { DealSignal } from '@dealsignal/client';\n"), `${id}: the client's import`);
      assert.ok(
        js.includes(`new DealSignal({ apiKey: process.env.DEALSIGNAL_API_KEY, baseUrl: '${base}' })`),
        `${id}: the client's options`,
      );
      assert.ok(js.includes(`await ${CLIENT_CALLS[id]}`), `${id}: ${CLIENT_CALLS[id]} in\n${js}`);
      // The method, and the body (the documented example when there is one) as JSON.
      const sendsBody = operation.requestBody !== undefined;
      if (method === 'GET') assert.doesNotMatch(curl + python, / -X |method=/, id);
      else if (!(method === 'POST' && sendsBody)) {
        assert.match(curl, new RegExp(` -X ${method} `), id);
        assert.match(python, new RegExp(`method="${method}"`), id);
      }
      if (sendsBody) {
        const sent = JSON.parse(/ --data '([^']*)'$/.exec(curl)?.[1] ?? 'null');
        assert.ok(sent !== null && typeof sent === 'object', `${id}: curl sends a JSON body`);
        const example = operation.requestBody!.content['application/json']?.example;
        if (example !== undefined) assert.deepEqual(sent, example, `${id}: curl sends the documented example`);
        assert.match(curl, /-H 'Content-Type: application\/json'/, id);
        assert.match(python, /data=json\.dumps\(body\)\.encode\(\),[\s\S]*"Content-Type": "application\/json"/, id);
      } else assert.doesNotMatch(curl + python, /--data |data=/, id);
      // Python: the standard library only.
      const imports = [...python.matchAll(/^(?:import|from) (\S+)/gm)].map((match) => match[1]);
      assert.deepEqual(
        imports.filter((name) => !['json', 'os', 'urllib.parse', 'urllib.request'].includes(name!)),
        [],
        id,
      );
      // The JavaScript is a valid module (checked here for all; two of them run in the test below).
      const { diagnostics } = ts.transpileModule(js, {
        reportDiagnostics: true,
        compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
      });
      assert.deepEqual(
        diagnostics?.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n')),
        [],
        `${id}: JavaScript syntax`,
      );
      await run('sh', ['-n', '-c', curl]).catch((error: { stderr: string }) =>
        assert.fail(`${id}: shell syntax: ${error.stderr}`),
      );
      pythonSources.push(python);
    }
    // Every Python sample compiles, those not run below included.
    if (!PYTHON_MISSING) {
      const check = 'import json, sys\nfor source in json.load(sys.stdin): compile(source, "sample", "exec")';
      const child = run('python3', ['-c', check]);
      child.child.stdin!.end(JSON.stringify(pythonSources));
      await child;
    }
  });

  it('the curl sample of every list operation and lookup prints records on the demo data', async () => {
    await Promise.all([
      ...operationsOf(liveDoc).map(async ({ path, operation }) => {
        const body = await runSample(operation, 'Shell');
        assert.ok(recordsOf(body)!.length > 0, `${path}: curl printed no records`);
      }),
      ...lookupsOf(liveDoc).map(async ({ operation }) => assertLookupAnswer(operation, await runSample(operation, 'Shell'))),
    ]);
  });

  it(
    'the Python sample of every list operation and lookup prints records on the demo data',
    { skip: PYTHON_MISSING },
    async () => {
      await Promise.all([
        ...operationsOf(liveDoc).map(async ({ path, operation }) => {
          const body = await runSample(operation, 'Python');
          assert.ok(recordsOf(body)!.length > 0, `${path}: Python printed no records`);
        }),
        ...lookupsOf(liveDoc).map(async ({ operation }) => assertLookupAnswer(operation, await runSample(operation, 'Python'))),
      ]);
    },
  );

  it('the JavaScript samples of listFunding and getInvestors run with @dealsignal/client', { skip: CLIENT_MISSING }, async () => {
    for (const id of ['listFunding', 'getInvestors']) {
      const { operation } = everyOperation(liveDoc).find((candidate) => candidate.operation.operationId === id)!;
      const source = sampleOf(operation, 'JavaScript');
      // What the same request answers, as curl gets it: each of its records must be printed.
      const expected = recordsOf(await runSample(operation, 'Shell')) as Record<string, unknown>[];
      const { stdout } = await run(process.execPath, ['--input-type=module', '-e', source], {
        cwd: ROOT,
        env: { ...process.env, DEALSIGNAL_API_KEY: key },
        timeout: 20_000,
      }).catch((error: { stderr?: string }) => assert.fail(`${id}'s JavaScript sample failed: ${error.stderr}\n${source}`));
      assert.ok(expected.length > 0, id);
      for (const record of expected) {
        const shown = Object.values(record).find((value) => typeof value === 'string') as string;
        assert.ok(stdout.includes(shown), `${id}: the JavaScript sample did not print ${shown}:\n${stdout.slice(0, 2000)}`);
      }
    }
  });

  it('every parameter example, alone, returns records', async () => {
    let examples = 0;
    for (const { path, method, operation } of operationsOf(doc)) {
      assert.equal(method, 'GET', `${operation.operationId}: only GET operations are documented`);
      for (const parameter of operation.parameters ?? []) {
        if (parameter.example === undefined) continue;
        examples++;
        const query = { [parameter.name]: String(parameter.example) };
        const { res, records } = await call(path, operation, query);
        assert.equal(res.statusCode, 200, `${path}?${parameter.name}=${parameter.example}: ${res.body}`);
        assert.ok(records!.length > 0, `${path}?${parameter.name}=${parameter.example} returned no records`);
      }
    }
    assert.ok(examples >= 15, `only ${examples} examples in the document`);
  });

  it('all examples of an operation together, with the defaults, as "Try it out" sends them, return records', async () => {
    for (const { path, operation } of operationsOf(doc)) {
      const query: Record<string, string> = {};
      for (const parameter of operation.parameters ?? []) {
        const value = parameter.example ?? parameter.schema?.default;
        if (value !== undefined) query[parameter.name] = String(value);
      }
      assert.ok(Object.keys(query).length > 1, `${operation.operationId} has examples`);
      const { res, records } = await call(path, operation, query);
      const url = `${path}?${new URLSearchParams(query)}`;
      assert.equal(res.statusCode, 200, `${url}: ${res.body}`);
      assert.ok(records!.length > 0, `${url} returned no records`);
    }
  });

  it("docs: each v2 endpoint's parameters, the Node version, ingest content types and the ../shared folder", () => {
    const table = documentedV2Parameters();
    const v2 = operationsOf(doc).filter(({ path }) => path.startsWith('/api/v2/signals/'));
    assert.deepEqual([...table.keys()].sort(), v2.map(({ path }) => path).sort());
    for (const { path, operation } of v2) {
      const documented = (operation.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
      assert.deepEqual([...table.get(path)!].sort(), documented.sort(), path);
    }
    const node = String(PACKAGE.engines.node).replace(/^>=\s*/, '');
    assert.ok(README.includes(`Node.js ${node} or later`), `README names Node.js ${node}`);
    for (const type of INGEST_CONTENT_TYPES)
      assert.ok(OPERATIONS_DOC.includes(`\`${type}\``), `docs/operations.md lists ${type}`);
    assert.ok(
      README.includes('`../shared/reference/signals-openapi-2026-01/`'),
      'README says where the published files are read',
    );
  });

  it('no two component schemas share a display name', () => {
    const seen = new Map<string, string>();
    for (const [name, schema] of Object.entries(doc.components.schemas)) {
      const shown = schema.title ?? name;
      assert.equal(seen.get(shown), undefined, `${name} and ${seen.get(shown)} are both shown as "${shown}"`);
      seen.set(shown, name);
    }
  });

  it("the page carries the service's name, links to sign-up, and its policy lets it call the API", async () => {
    const page = await ctx.app.inject({ url: '/docs' });
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /<title>dealsignal API docs<\/title>/);
    assert.doesNotMatch(page.body, /Swagger UI|Fastify/i);
    assert.equal(doc.info.title, 'dealsignal API');
    const base = ctx.config.publicUrl;
    assert.ok(doc.info.description.includes(`](${base}/signup)`), doc.info.description);
    assert.equal((await ctx.app.inject({ url: '/signup' })).statusCode, 200);
    const policy = String(page.headers['content-security-policy']);
    assert.match(policy, new RegExp(`connect-src 'self' ${base.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(;| )`));
    // Served over plain HTTP, the page must not ask the browser to upgrade its requests to HTTPS.
    assert.doesNotMatch(policy, /upgrade-insecure-requests/);
    const behindTls = await buildApp({ config: testConfig({ PUBLIC_URL: 'https://api.example.com' }), db: ctx.db });
    try {
      const tlsPolicy = String((await behindTls.inject({ url: '/docs' })).headers['content-security-policy']);
      assert.match(tlsPolicy, /connect-src 'self' https:\/\/api\.example\.com;/);
      assert.match(tlsPolicy, /upgrade-insecure-requests/);
    } finally {
      await behindTls.close();
    }
  });

  it(
    'in Chromium: no content-policy error, "Try it out" on every operation shows records, and the code samples show',
    {
      skip: !existsSync(CHROMIUM)
        ? `Chromium is not installed at ${CHROMIUM}`
        : backend.name !== 'pglite' && 'the page does not depend on the store: Chromium runs once, on the embedded store',
      timeout: 240_000,
    },
    async () => {
      // The docs send "Try it out" to PUBLIC_URL: the live server, which knew its port before it was built.
      const browser = await chromium.launch({
        executablePath: CHROMIUM,
        args: ['--headless=new', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
      });
      try {
        const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
        await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
        const page = await context.newPage();
        const problems: string[] = [];
        page.on('console', (message) => {
          if (message.type() === 'error') problems.push(message.text());
        });
        page.on('pageerror', (error) => problems.push(error.message));
        await page.addInitScript(() =>
          document.addEventListener('securitypolicyviolation', (event) =>
            console.error(`policy violation: ${event.violatedDirective} ${event.blockedURI}`),
          ),
        );
        await page.goto(`${base}/docs`);
        await page.locator('.opblock').first().waitFor();
        mkdirSync(SCREENSHOTS, { recursive: true });
        await page.screenshot({ path: join(SCREENSHOTS, 'docs-top.png') });
        assert.equal(await page.title(), 'dealsignal API docs');
        assert.ok((await page.locator(`a[href="${base}/signup"]`).count()) > 0, 'a link to sign-up');
        // The site's header: its logo and name lead home; the portal's links are there.
        const brand = page.locator('header.ds-header a.ds-brand');
        assert.equal(await brand.getAttribute('href'), '/');
        assert.equal(await brand.innerText(), 'dealsignal');
        assert.ok(await brand.locator('img').evaluate((img) => (img as HTMLImageElement).naturalWidth > 0), 'the logo loads');
        assert.equal(await page.locator('header.ds-header a[href="/signup"]').innerText(), 'Get an API key');
        assert.equal(
          await page.locator('body').evaluate((body) => getComputedStyle(body).backgroundColor),
          'rgb(245, 246, 250)',
          "the portal's background",
        );
        // Authorize, as a user would: the key into every scheme (v1 header and v2 Bearer).
        await page.locator('button.authorize').first().click();
        const inputs = page.locator('.modal-ux input');
        for (let i = 0; i < (await inputs.count()); i++) await inputs.nth(i).fill(key);
        const authorize = page.locator('.modal-ux .auth-btn-wrapper button.authorize');
        while ((await authorize.count()) > 0) await authorize.first().click();
        await page.locator('.modal-ux button.btn-done').first().click();
        for (const { path } of operationsOf(doc)) {
          const block = page.locator('.opblock', { has: page.locator(`[data-path="${path}"]`) });
          await block.locator('.opblock-summary').click();
          await block.getByRole('button', { name: 'Try it out' }).click();
          await block.getByRole('button', { name: 'Execute' }).click();
          const status = block.locator('.live-responses-table .response .response-col_status').first();
          await status.waitFor();
          assert.equal((await status.innerText()).trim(), '200', path);
          const body = JSON.parse(await block.locator('.live-responses-table .response-col_description pre').first().innerText());
          assert.ok(recordsOf(body)!.length > 0, `${path}: Try it out returned no records`);
          if (path === '/api/v2/signals/investors') {
            // The code samples, as a user reads them on the page: one tab per language, one panel
            // shown at a time, and its copy button puts exactly the sample on the clipboard.
            const samples = block.locator('.ds-samples');
            const tabs = samples.getByRole('tab');
            assert.deepEqual(await tabs.allInnerTexts(), ['curl', 'JavaScript', 'Python']);
            const { operation } = everyOperation(liveDoc).find((candidate) => candidate.path === path)!;
            const shown: string[] = [];
            for (let i = 0; i < 3; i++) {
              await tabs.nth(i).click();
              assert.equal(await tabs.nth(i).getAttribute('aria-selected'), 'true');
              const panel = samples.locator('[role="tabpanel"]:visible');
              assert.equal(await panel.count(), 1, 'one panel at a time');
              shown.push((await panel.locator('pre code').innerText()).trim());
              await panel.getByRole('button', { name: /^Copy/ }).click();
              await panel.getByRole('button', { name: /^Copy/ }).filter({ hasText: 'Copied' }).waitFor();
              assert.equal((await page.evaluate(() => navigator.clipboard.readText())).trim(), shown[i]);
            }
            assert.deepEqual(
              shown,
              SAMPLES.map(({ lang }) => sampleOf(operation, lang)),
            );
            assert.ok(shown[0]!.startsWith('curl -sS'), 'a curl sample is shown');
            assert.ok(shown[1]!.includes("import { DealSignal } from '@dealsignal/client'"), "the client's import is shown");
            await tabs.nth(0).click();
            mkdirSync(SCREENSHOTS, { recursive: true });
            await block.screenshot({ path: join(SCREENSHOTS, 'docs-operation.png') });
          }
          // Closed again, so the next operation's answer is not rendered next to all the previous ones.
          await block.locator('.opblock-summary').click();
        }
        assert.deepEqual(problems, []);
      } finally {
        await browser.close();
      }
    },
  );
});
