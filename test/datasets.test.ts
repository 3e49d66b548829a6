// The dataset registry: every dataset it lists is served, ingested, versioned and documented under
// its one name, with nothing else to register.
import { CHANGE_DATASETS } from '../src/changes/change-log-queries.js';
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { DATASETS, datasetNamed, VIEWS } from '../src/catalog/registry.js';
import { demoGeneratorOf } from '../src/demo/index.js';
import { clearData, describeEach, makeKey, startApp, type TestContext, describeOnOneStore } from './helpers.js';
import { ADMIN_TOKEN } from './ingest/support.js';

const AS_OF = new Date('2026-01-01T00:00:00Z');

/** One generated record of the dataset, as a file line: the record plus the extra fields it came with. */
function generatedLine(dataset: (typeof DATASETS)[number]): string {
  const [first] = demoGeneratorOf(dataset.name)?.generate(7, 1, AS_OF) ?? [];
  assert.ok(first, `${dataset.name} generates records`);
  const extras = first.extras ?? {};
  return JSON.stringify({
    ...(first.record as object),
    ...(extras.sourceId ? { source_id: extras.sourceId } : {}),
    ...(extras.status ? { status: extras.status } : {}),
  });
}

describeEach('dataset registry', (backend) => {
  let ctx: TestContext;
  let key: string;

  before(async () => {
    ctx = await startApp(backend, { ADMIN_TOKEN });
    key = (await makeKey(ctx.db, 'enterprise')).key;
    await clearData(ctx.db);
  });
  after(() => ctx.close());

  it('names every dataset once: its change log name, its ingest kind, its endpoint', async () => {
    assert.deepEqual(DATASETS.map((d) => d.name).sort(), [...CHANGE_DATASETS].sort());
    const document = (await ctx.app.inject({ url: '/openapi.json' })).json() as { paths: Record<string, unknown> };
    // The changes feed and the webhooks API span every dataset, and a v1 dataset's batch lookup sits under its
    // list; every other API path is one dataset's list, or one view's (a dataset behind a second endpoint).
    const spanning = [
      '/api/v2/changes',
      '/api/v2/webhooks',
      '/api/v1/funding/lookup',
      '/api/v1/m-a/lookup',
      '/api/v2/companies/',
      '/api/v2/csv-enrichment',
      '/api/v2/monitors',
      // People are made from the job changes, funding rounds and deals, not a dataset of their own.
      '/api/v2/people',
    ];
    assert.deepEqual(
      Object.keys(document.paths).filter(
        (path) => path.startsWith('/api/') && !spanning.some((prefix) => path.startsWith(prefix)),
      ),
      [...DATASETS, ...VIEWS].map((d) => `/api/${d.api.family}${d.api.path}`),
    );
    for (const view of VIEWS) assert.ok(datasetNamed(view.name), `${view.api.path} is a view of a dataset of the registry`);
  });

  for (const dataset of DATASETS) {
    it(`${dataset.name}: a record imported under its name is counted, logged and served by its endpoint`, async () => {
      const version = async () =>
        (await ctx.db.query<{ v: number }>('SELECT count(*)::int AS v FROM change_log WHERE dataset = $1', [dataset.name]))[0]?.v;
      const before = await version();
      const imported = await ctx.app.inject({
        method: 'POST',
        url: `/admin/ingest/${dataset.name}`,
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/x-ndjson' },
        payload: `${generatedLine(dataset)}\n`,
      });
      assert.equal(imported.statusCode, 200, imported.body);
      assert.deepEqual([imported.json().kind, imported.json().inserted], [dataset.name, 1]);
      assert.ok((await version())! > before!, 'the write is in the change log');

      // Expired postings are hidden by default: the generated one may be past its validThrough.
      const url = `/api/${dataset.api.family}${dataset.api.path}${dataset.name === 'hiring' ? '?include_expired=true' : ''}`;
      const headers = dataset.api.family === 'v1' ? { 'x-lot-api-key': key } : { authorization: `Bearer ${key}` };
      const listed = await ctx.app.inject({ url, headers });
      assert.equal(listed.statusCode, 200, listed.body);
      const total = dataset.api.family === 'v1' ? Number(listed.headers['x-total-count']) : listed.json().pagination.totalCount;
      // Records name companies, and companies are made from them: the list holds every row of the table.
      const [stored] = await ctx.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${dataset.table}`);
      assert.equal(total, stored!.n);
      if (dataset.links === undefined) assert.ok(total >= 1);
      else assert.equal(total, 1);
      if (dataset.api.family === 'v2') assert.equal(listed.json().meta.endpoint, dataset.api.endpoint);
    });
  }
});

describeOnOneStore('v1 rate-limit documentation', (backend) => {
  let ctx: TestContext;
  before(async () => {
    ctx = await startApp(backend, { RATE_LIMIT_V1: '25' });
  });
  after(() => ctx.close());

  it('the documented 429 of every v1 endpoint names the configured limit', async () => {
    const document = (await ctx.app.inject({ url: '/openapi.json' })).json() as {
      paths: Record<string, { get: { responses: Record<string, { description: string }> } }>;
    };
    for (const path of ['/api/v1/funding', '/api/v1/m-a']) {
      const description = document.paths[path]!.get.responses['429']!.description;
      assert.match(description, /\b25\b/, `${path}: ${description}`);
      assert.doesNotMatch(description, /\b60\b/, `${path}: ${description}`);
    }
  });
});
