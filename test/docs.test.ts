// The API docs (/docs, Swagger UI) and the OpenAPI document behind them, as a new user meets them:
// on a fresh demo store, every example pre-filled by "Try it out" returns records, and the page is
// ours (title, sign-up link), with no name shown twice and nothing refused by its content policy.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { after, before, it } from 'node:test';
import { chromium } from 'playwright-core';
import { buildApp } from '../src/app.js';
import { INGEST_CONTENT_TYPES } from '../src/routes/admin/index.js';
import { DEMO_SEED, seedDatabase, startOfTodayUtc } from '../src/services/seed.js';
import { describeEach, makeKey, startApp, testConfig, type TestContext } from './helpers.js';

const CHROMIUM = '/usr/bin/chromium';
const README = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const PACKAGE = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

/** README's table of v2 parameters: endpoint path → the parameters it marks as taken. */
function readmeV2Parameters(): Map<string, Set<string>> {
  const start = README.indexOf('| Parameter | `/api/v2/');
  assert.ok(start >= 0, 'README has a table of v2 parameters');
  const lines = README.slice(start).split('\n');
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
interface Operation {
  operationId: string;
  tags?: string[];
  parameters?: Parameter[];
  security?: Record<string, string[]>[];
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
  Object.entries(doc.paths)
    .flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({ path, method: method.toUpperCase(), operation })),
    )
    .filter(({ operation }) => !operation.tags?.some((tag) => tag === 'v2 webhooks' || tag === 'v1 lookup'));

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

describeEach('API docs on the demo data', (backend) => {
  let ctx: TestContext;
  let key: string;
  let doc: OpenApi;

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
  });
  after(() => ctx.close());

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

  it("README: each v2 endpoint's parameters, the Node version, ingest content types and the ../shared folder", () => {
    const table = readmeV2Parameters();
    const v2 = operationsOf(doc).filter(({ path }) => path.startsWith('/api/v2/signals/'));
    assert.deepEqual([...table.keys()].sort(), v2.map(({ path }) => path).sort());
    for (const { path, operation } of v2) {
      const documented = (operation.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
      assert.deepEqual([...table.get(path)!].sort(), documented.sort(), path);
    }
    const node = String(PACKAGE.engines.node).replace(/^>=\s*/, '');
    assert.ok(README.includes(`Node.js ${node} or later`), `README names Node.js ${node}`);
    for (const type of INGEST_CONTENT_TYPES) assert.ok(README.includes(`\`${type}\``), `README lists ${type}`);
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
    'in Chromium: no content-policy error, and "Try it out" on every operation shows records',
    {
      skip: !existsSync(CHROMIUM)
        ? `Chromium is not installed at ${CHROMIUM}`
        : backend.name !== 'pglite' && 'the page does not depend on the store: Chromium runs once, on the embedded store',
      timeout: 240_000,
    },
    async () => {
      // The docs send "Try it out" to PUBLIC_URL, so the server must know its port before it is built.
      const port = await freePort();
      const app = await buildApp({ config: testConfig({ PORT: String(port) }), db: ctx.db });
      await app.listen({ port, host: '127.0.0.1' });
      const base = `http://127.0.0.1:${port}`;
      const browser = await chromium.launch({
        executablePath: CHROMIUM,
        args: ['--headless=new', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
      });
      try {
        const page = await browser.newPage();
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
        assert.equal(await page.title(), 'dealsignal API docs');
        assert.ok((await page.locator(`a[href="${base}/signup"]`).count()) > 0, 'a link to sign-up');
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
          // Closed again, so the next operation's answer is not rendered next to all the previous ones.
          await block.locator('.opblock-summary').click();
        }
        assert.deepEqual(problems, []);
      } finally {
        await browser.close();
        await app.close();
      }
    },
  );
});
