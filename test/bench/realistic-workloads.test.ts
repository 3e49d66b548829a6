// The realistic-workload benchmark counts every non-2xx as a finding about the service, so its lists
// must be right: every path a valid question that the data answers, the never-seen filters truly new,
// the live feed accepted and removable. Checked over HTTP on both stores with a small generated set.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, it } from 'node:test';
import { LiveIngest, LIVE_BATCH, removeLiveRecords } from '../../bench/live-ingest.js';
import { runHttpLoad } from '../../bench/load.js';
import { commandExists } from '../../bench/processes.js';
import { drawWorkloads, type WorkloadLists, type WorkloadPath } from '../../bench/realistic-paths.js';
import { generateFundingRecords, generateMaRecords } from '../../src/seed/v1-generator.js';
import { generateAcquisitionSignals, generateInvestors, generateJobChanges } from '../../src/seed/v2-generator.js';
import { ingest } from '../../src/services/ingest.js';
import type { Database } from '../../src/db/port.js';
import { describeEach, makeKey, startApp, type TestContext } from '../helpers.js';
import { ADMIN_TOKEN, count } from '../ingest/support.js';

const AS_OF = new Date('2026-01-15T00:00:00Z');
const SIZES = { v1Funding: 40, v1Ma: 15, v2: 45, lookups: 40, polling: 10, fresh: 20, sample: 300 };

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

describeEach('realistic workload lists', (backend) => {
  let ctx: TestContext;
  let key: string;
  let lists: WorkloadLists;
  let baseUrl: string;

  const get = (path: WorkloadPath) =>
    ctx.app.inject({
      method: 'GET',
      url: path.path,
      headers: path.family === 'v1' ? { 'x-lot-api-key': key } : { authorization: `Bearer ${key}` },
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
    for (const name of ['v1Explore', 'v2Explore', 'lookups', 'polling', 'fresh'] as const) {
      assert.ok(lists[name].length > 0, `${name} is empty`);
      for (const path of lists[name]) {
        const response = await get(path);
        assert.equal(response.statusCode, 200, `${name}: GET ${path.path}: ${response.body.slice(0, 300)}`);
      }
    }
  });

  it('every filter is drawn from the data: page 1 of each matches at least the record it came from', async () => {
    const pageOne = [...lists.v1Explore, ...lists.v2Explore, ...lists.polling, ...lists.fresh].filter(
      (path) => !/[?&]page=/.test(path.path),
    );
    for (const path of pageOne) {
      const response = await get(path);
      assert.ok(total(path, response) >= 1, `no record matches GET ${path.path}`);
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
});
