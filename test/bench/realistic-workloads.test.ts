// The realistic-workload benchmark counts every non-2xx as a finding about the service, so its lists
// must be right: every path a valid question that the data answers, the never-seen filters truly new,
// the live feed accepted and removable; the revalidations answered 304 and the batch lookups' bodies
// accepted. Checked over HTTP on both stores with a small generated set.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, it } from 'node:test';
import { LiveIngest, LIVE_BATCH, removeLiveRecords } from '../../bench/live-ingest.js';
import { runHttpLoad } from '../../bench/load.js';
import { commandExists } from '../../bench/processes.js';
import {
  BATCH_INPUTS,
  BATCH_LOOKUP_PATH,
  bodyLine,
  drawWorkloads,
  PUBLISHED_SHARES,
  readScriptReport,
  SORT_FIELDS,
  taggedLine,
  type SignalRoute,
  type WorkloadLists,
  type WorkloadPath,
} from '../../bench/realistic-paths.js';
import { PUBLISHED_ROUND_TYPES } from '../../src/catalog/schemas/v2-schemas.js';
import { COUNTRY_CATEGORIES, DATE_PRESETS, SORT_ORDERS } from '../../src/catalog/schemas/published-params.js';
import { MAX_LOOKUP_INPUTS } from '../../src/catalog/schemas/lookup-schemas.js';
import { generateFundingRecords, generateMaRecords } from '../../src/demo/v1-generator.js';
import { generateAcquisitionSignals, generateInvestors, generateJobChanges } from '../../src/demo/v2-generator.js';
import { ingest } from '../../src/ingest/importer.js';
import type { Database } from '../../src/platform/db/port.js';
import { makeKey, startApp, type TestContext, describeOnOneStore } from '../helpers.js';
import { ADMIN_TOKEN, count } from '../ingest/support.js';

const AS_OF = new Date('2026-01-15T00:00:00Z');
const SIZES = { v1Funding: 40, v1Ma: 15, v2: 45, lookups: 40, polling: 10, fresh: 20, sample: 300, v2Published: 60, batches: 12 };

async function load(db: Database, kind: string, records: Iterable<object>): Promise<void> {
  const text = [...records].map((record) => JSON.stringify(record)).join('\n') + '\n';
  const report = await ingest(db, kind, [text], { skipInvalid: false });
  assert.ok(report.committed, `${kind}: ${JSON.stringify(report.rejects.slice(0, 3))}`);
}

async function loadSmallSet(db: Database): Promise<void> {
  await load(db, 'funding', generateFundingRecords(5, 400, AS_OF));
  await load(
    db,
    'm-a',
    [...generateMaRecords(5, 150, AS_OF)].map(({ record, status }) => ({ ...record, status })),
  );
  await load(db, 'investors', generateInvestors(5, 200, AS_OF));
  await load(db, 'job-changes', generateJobChanges(5, 600, AS_OF));
  await load(db, 'acquisitions', generateAcquisitionSignals(5, 150, AS_OF));
}

describeOnOneStore('realistic workload lists', (backend) => {
  let ctx: TestContext;
  let key: string;
  let lists: WorkloadLists;
  let baseUrl: string;

  const auth = (path: WorkloadPath) => (path.family === 'v1' ? { 'x-lot-api-key': key } : { authorization: `Bearer ${key}` });
  const get = (path: WorkloadPath, headers: Record<string, string> = {}) =>
    ctx.app.inject({ method: 'GET', url: path.path, headers: { ...auth(path), ...headers } });
  const post = (path: WorkloadPath) =>
    ctx.app.inject({
      method: 'POST',
      url: path.path,
      headers: { ...auth(path), 'content-type': 'application/json' },
      payload: path.body,
    });
  const total = (path: WorkloadPath, response: Awaited<ReturnType<typeof get>>) =>
    path.family === 'v1'
      ? Number(response.headers['x-total-count'])
      : (response.json() as { pagination: { totalCount: number } }).pagination.totalCount;

  before(async () => {
    ctx = await startApp(backend, { ADMIN_TOKEN, LOAD_SHED_EVENT_LOOP_DELAY_MS: '0' });
    await loadSmallSet(ctx.db);
    key = (await makeKey(ctx.db, 'enterprise')).key;
    lists = await drawWorkloads(ctx.db, SIZES);
    baseUrl = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  });
  after(() => ctx.close());

  it('every path of every list is a valid question: 200 for the bench key', async () => {
    for (const name of ['v1Explore', 'v2Explore', 'lookups', 'polling', 'fresh', 'v2Published'] as const) {
      assert.ok(lists[name].length > 0, `${name} is empty`);
      for (const path of lists[name]) {
        const response = await get(path);
        assert.equal(response.statusCode, 200, `${name}: GET ${path.path}: ${response.body.slice(0, 300)}`);
      }
    }
  });

  it('every filter is drawn from the data: page 1 of each matches at least the record it came from', async () => {
    const pageOne = [...lists.v1Explore, ...lists.v2Explore, ...lists.polling, ...lists.fresh, ...lists.v2Published].filter(
      (path) => !/[?&]page=/.test(path.path),
    );
    for (const path of pageOne) {
      const response = await get(path);
      assert.ok(total(path, response) >= 1, `no record matches GET ${path.path}`);
      if (path.family === 'v2')
        assert.ok((response.json() as { data: unknown[] }).data.length >= 1, `no data for GET ${path.path}`);
    }
  });

  it('the 2.2 list: funding signals and each 2.2 parameter in its share, every value one its endpoint publishes', () => {
    const pageOne = lists.v2Published.filter((path) => !/[?&]page=/.test(path.path));
    assert.equal(pageOne.length, lists.counts.v2Published);
    const seen = { funding: 0, sorted: 0, excluding: 0, preset: 0, countryCategory: 0 };
    for (const path of pageOne) {
      const url = new URL(path.path, 'http://x');
      const endpoint = /^\/api\/v2\/signals\/([a-z-]+)$/.exec(url.pathname)?.[1] as SignalRoute | undefined;
      assert.ok(endpoint !== undefined && endpoint in SORT_FIELDS, path.path);
      const q = url.searchParams;
      if (endpoint === 'funding') seen.funding += 1;
      if (q.has('sort_by')) {
        seen.sorted += 1;
        assert.ok(SORT_FIELDS[endpoint].includes(q.get('sort_by')!), path.path);
        assert.ok((SORT_ORDERS as readonly string[]).includes(q.get('sort_order')!), path.path);
      } else assert.ok(!q.has('sort_order'), path.path);
      if (q.has('exclude_countries')) {
        seen.excluding += 1;
        assert.notEqual(endpoint, 'job-changes', path.path);
      }
      if (q.has('date_preset')) {
        seen.preset += 1;
        assert.ok((DATE_PRESETS as readonly string[]).includes(q.get('date_preset')!), path.path);
        assert.ok(!q.has('dateFrom') && !q.has('dateTo'), `a preset replaces the dates: ${path.path}`);
      }
      if ((COUNTRY_CATEGORIES as readonly string[]).includes(q.get('countries') ?? '')) seen.countryCategory += 1;
      for (const round of q.get('round')?.split(',') ?? []) {
        assert.ok((PUBLISHED_ROUND_TYPES as readonly string[]).includes(round), `${round}: ${path.path}`);
      }
    }
    assert.deepEqual(seen, lists.counts.published);
    for (const [name, n] of Object.entries(seen)) assert.ok(n > 0, `no combination with ${name}`);
    // Loose bounds on a small list: the shares are the constants, not chance.
    const share = seen.sorted / pageOne.length;
    assert.ok(share > PUBLISHED_SHARES.sorted / 2 && share < PUBLISHED_SHARES.sorted * 2, `sorted: ${share}`);
    assert.ok(pageOne.some((path) => /[?&]round=/.test(path.path) && /[?&]amount_min=/.test(path.path)));
  });

  it('the lists added later leave the first lists as they were', async () => {
    const other = await drawWorkloads(ctx.db, { ...SIZES, v2Published: 7, batches: 3 });
    for (const name of ['v1Explore', 'v2Explore', 'lookups', 'polling', 'fresh'] as const) {
      assert.deepEqual(other[name], lists[name], name);
    }
    assert.equal(other.v2Published.length, 7 * 3);
    assert.equal(other.batchLookups.length, 3);
  });

  it('batch lookup bodies: 10–100 websites each, accepted, one result per input; the companies found, the unknown sites not', async () => {
    assert.equal(lists.batchLookups.length, SIZES.batches);
    let matched = 0;
    let unmatched = 0;
    for (const path of lists.batchLookups) {
      assert.equal(path.path, BATCH_LOOKUP_PATH);
      const body = JSON.parse(path.body!) as { websites: string[] };
      assert.deepEqual(Object.keys(body), ['websites']);
      assert.equal(body.websites.length, path.inputs);
      assert.ok(
        path.inputs! >= BATCH_INPUTS.min && path.inputs! <= Math.min(BATCH_INPUTS.max, MAX_LOOKUP_INPUTS),
        String(path.inputs),
      );
      const response = await post(path);
      assert.equal(response.statusCode, 200, response.body.slice(0, 300));
      const results = (response.json() as { response: { data: { status: string }[] } }).response.data;
      assert.equal(results.length, path.inputs);
      matched += results.filter((r) => r.status === 'matched').length;
      unmatched += results.filter((r) => r.status === 'no_match').length;
    }
    const { batchInputs, batchHits, batchMisses } = lists.counts;
    assert.ok(batchHits > 0 && batchMisses > 0, JSON.stringify(lists.counts));
    assert.equal(batchHits + batchMisses, batchInputs);
    assert.deepEqual({ matched, unmatched }, { matched: batchHits, unmatched: batchMisses });
  });

  it('conditional polling: every saved filter page carries an ETag, and asked again with it is a 304 with no body', async () => {
    for (const path of lists.polling) {
      const first = await get(path);
      assert.equal(first.statusCode, 200);
      const tag = first.headers.etag;
      assert.ok(typeof tag === 'string' && tag.startsWith('W/"'), `${path.path}: ${String(tag)}`);
      const again = await get(path, { 'if-none-match': tag });
      assert.equal(again.statusCode, 304, path.path);
      assert.equal(again.body, '');
      // The script learns which path a response answers from the request id it sent.
      const traced = await get(path, { 'if-none-match': tag, 'x-request-id': 'poll-7' });
      assert.equal(traced.headers['x-request-id'], 'poll-7');
    }
  });

  it('lookups find their company whatever the URL variant, and nothing for the unknown sites', async () => {
    assert.ok(lists.counts.lookupHits > 0 && lists.counts.lookupMisses > 0, JSON.stringify(lists.counts));
    const found = await Promise.all(lists.lookups.map(async (path) => total(path, await get(path))));
    assert.equal(found.filter((n) => n >= 1).length, lists.counts.lookupHits);
    assert.equal(found.filter((n) => n === 0).length, lists.counts.lookupMisses);
  });

  it('explore lists hold distinct filters at every page; never-seen filters are in no other list', async () => {
    const v1Filters = new Set(lists.v1Explore.map((path) => path.filter));
    assert.equal(v1Filters.size, lists.counts.v1Funding + lists.counts.v1Ma);
    assert.equal(lists.v1Explore.length, v1Filters.size * 5);
    const v2Filters = new Set(lists.v2Explore.map((path) => path.filter));
    assert.equal(v2Filters.size, lists.counts.v2);
    assert.equal(lists.v2Explore.length, v2Filters.size * 3);
    const used = new Set([...v1Filters, ...v2Filters, ...lists.polling.map((path) => path.filter)]);
    assert.equal(lists.fresh.length, SIZES.fresh);
    assert.equal(new Set(lists.fresh.map((path) => path.filter)).size, lists.fresh.length);
    for (const path of lists.fresh) assert.ok(!used.has(path.filter), `${path.path} is not new`);
    assert.ok(lists.polling.some((path) => path.family === 'v1') && lists.polling.some((path) => path.family === 'v2'));
  });

  it('the same data and seed draw the same lists', async () => {
    assert.deepEqual(await drawWorkloads(ctx.db, SIZES), lists);
  });

  it('the live feed is acknowledged, served first, and removed again after the run', async () => {
    const before = { funding: await count(ctx.db, 'funding_rounds'), jobs: await count(ctx.db, 'job_changes') };
    const feed = new LiveIngest(baseUrl, ADMIN_TOKEN);
    await feed.ingestOnce();
    await feed.ingestOnce();
    const acks = await feed.stop();
    assert.equal(acks.failures, 0, acks.firstFailure);
    assert.equal(acks.ingests, 2);
    assert.equal(await count(ctx.db, 'funding_rounds'), before.funding + 2 * LIVE_BATCH);
    assert.equal(await count(ctx.db, 'job_changes'), before.jobs + 2 * LIVE_BATCH);

    const funding = await get({ family: 'v1', path: '/api/v1/funding', filter: '' });
    const newest = (funding.json() as { response: { data: { date_seen: string }[] } }).response.data[0]!;
    assert.ok(Date.now() - Date.parse(newest.date_seen) < 60_000, newest.date_seen);
    const jobs = await get({ family: 'v2', path: '/api/v2/signals/job-changes', filter: '' });
    assert.match((jobs.json() as { data: { signalId: string }[] }).data[0]!.signalId, /^bec4a11e-0000-/);

    assert.deepEqual(await removeLiveRecords(ctx.db), { funding: 2 * LIVE_BATCH, jobChanges: 2 * LIVE_BATCH });
    assert.deepEqual({ funding: await count(ctx.db, 'funding_rounds'), jobs: await count(ctx.db, 'job_changes') }, before);
  });

  it(
    'wrk with the path script asks the listed paths and tallies statuses outside 2xx',
    {
      skip: commandExists('wrk') ? false : 'wrk is not installed',
    },
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'dealsignal-paths-'));
      try {
        const listFile = join(dir, 'paths');
        const keyFile = join(dir, 'key');
        // A v1 path sent without a key ("plain") is refused with 401: every one must be counted.
        writeFileSync(listFile, `v1 ${lists.polling[0]!.path}\nplain /api/v1/funding\n`);
        writeFileSync(keyFile, `${key}\n`);
        const script = fileURLToPath(new URL('../../bench/random-paths.lua', import.meta.url));
        const result = await runHttpLoad('wrk', {
          url: `${baseUrl}/`,
          headers: {},
          connections: 2,
          seconds: 1,
          script: { file: script, args: [listFile, keyFile] },
        });
        const refused = Object.values(result.statuses ?? {}).reduce((sum, n) => sum + n, 0);
        assert.ok((result.statuses?.['401'] ?? 0) > 0 && refused < result.requests, JSON.stringify(result));
        assert.equal(refused, result.failures);
        assert.match(result.statusSamples?.['401'] ?? '', /"code":401/);
        assert.ok(result.maxMs >= result.p99Ms && result.p99Ms >= result.p50Ms, JSON.stringify(result));
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );

  /** One second of wrk (2 threads, one connection each) with a script and its list; the run's figures and the script's report. */
  async function wrkRun(script: string, lines: string[]) {
    const dir = mkdtempSync(join(tmpdir(), 'dealsignal-paths-'));
    try {
      const listFile = join(dir, 'list');
      const keyFile = join(dir, 'key');
      const reportFile = join(dir, 'report');
      writeFileSync(listFile, lines.join('\n') + '\n');
      writeFileSync(keyFile, `${key}\n`);
      const result = await runHttpLoad('wrk', {
        url: `${baseUrl}/`,
        headers: {},
        connections: 2,
        seconds: 1,
        script: { file: fileURLToPath(new URL(`../../bench/${script}`, import.meta.url)), args: [listFile, keyFile, reportFile] },
      });
      return { result, report: readScriptReport(reportFile) };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  it(
    'wrk with the conditional script revalidates with the tags it holds, and keeps the new tag a 200 brings',
    { skip: commandExists('wrk') ? false : 'wrk is not installed' },
    async () => {
      const [current, stale] = [lists.polling[0]!, lists.polling.at(-1)!];
      const tag = (await get(current)).headers.etag as string;
      // The second path is listed with a tag its page never had: each thread gets one 200, then keeps its tag.
      const { result, report } = await wrkRun('conditional-paths.lua', [
        taggedLine(current, tag),
        taggedLine(stale, 'W/"stale"'),
      ]);
      assert.ok(report, 'no report');
      assert.equal(result.failures + result.socketErrors, 0, JSON.stringify(result));
      assert.deepEqual(Object.keys(result.statuses ?? {}), ['304'], JSON.stringify(result));
      assert.equal(report.notModified, result.statuses!['304']);
      assert.equal(report.notModified! + report.full!, result.requests);
      assert.equal(report.unmatched, 0);
      assert.ok(report.full! >= 1 && report.full! <= 2, JSON.stringify(report));
      assert.equal(report.tagUpdates, report.full);
      assert.ok(report.sent >= result.requests, JSON.stringify(report));
    },
  );

  it(
    'wrk with the batch script POSTs the bodies and counts their websites',
    { skip: commandExists('wrk') ? false : 'wrk is not installed' },
    async () => {
      const { result, report } = await wrkRun('batch-lookups.lua', lists.batchLookups.map(bodyLine));
      assert.ok(report, 'no report');
      assert.ok(result.requests > 0);
      assert.equal(result.failures + result.socketErrors, 0, JSON.stringify(result));
      assert.deepEqual(result.statuses, {}, JSON.stringify(result));
      assert.ok(report.sent >= result.requests, JSON.stringify(report));
      const perRequest = report.inputs! / report.sent;
      assert.ok(perRequest >= BATCH_INPUTS.min && perRequest <= BATCH_INPUTS.max, String(perRequest));
    },
  );
});
