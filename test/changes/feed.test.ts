// GET /api/v2/changes over HTTP, on both stores: items and their records, the data set filter,
// paging and resuming, count mode, credits, the 400s and the 410, and resuming after a restart.
import { adjustCredits } from '../../src/accounts/credit-queries.js';
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import type { Config } from '../../src/config.js';
import type { Database } from '../../src/platform/db/port.js';
import { CHANGE_DATASETS, changeLogHead, comparePositions, pruneChangeLog } from '../../src/changes/change-log-queries.js';
import { encodeCursor, parseCursor } from '../../src/changes/cursor.js';
import { readChangesPage } from '../../src/changes/feed.js';
import type { InvestorRecord } from '../../src/catalog/schemas/v2-schemas.js';
import { acquisitionRecord, fundingRecord, hiringRecord, investorRecord, jobChangeRecord, maRecord } from '../fixtures.js';
import { describeEach, makeKey, testConfig } from '../helpers.js';
import { ADMIN_TOKEN, ndjson } from '../ingest/support.js';

interface Item {
  cursor: string;
  dataset: string;
  op: 'created' | 'updated' | 'deleted';
  id: string | null;
  changedAt: string;
  record: Record<string, unknown> | null;
}
interface Page {
  success: true;
  data: Item[];
  pagination: { limit: number; nextCursor: string; hasNextPage: boolean; totalCount?: number };
  meta: { endpoint: string; creditsUsed: number; creditsRemaining: number };
}

describeEach('changes feed', (backend) => {
  let db: Database;
  let config: Config;
  let app: FastifyInstance;
  let key: string;
  let accountId: number;
  /** The 200 body as /openapi.json documents it. */
  let documented: ValidateFunction;

  before(async () => {
    db = await backend.openMigrated();
    config = testConfig({ ADMIN_TOKEN });
    app = await buildApp({ config, db });
    await app.ready();
    ({ key, accountId } = await makeKey(db, 'enterprise'));
    const spec = (await app.inject('/openapi.json')).json();
    const ajv = new Ajv2020.default({ strict: false });
    addFormats.default(ajv);
    for (const [name, schema] of Object.entries(spec.components.schemas))
      ajv.addSchema(schema as object, `#/components/schemas/${name}`);
    documented = ajv.compile(spec.paths['/api/v2/changes'].get.responses['200'].content['application/json'].schema);
  });
  after(async () => {
    await app?.close();
    await db?.close();
  });

  /**
   * The feed, by default over every data set but the companies: each record imported here names a
   * company that resolution makes in the same transaction, and these tests count the records'
   * changes (test/companies follows the companies').
   */
  const RECORD_DATASETS = CHANGE_DATASETS.filter((dataset) => dataset !== 'companies').join(',');
  const get = (query: Record<string, string | number | boolean> = {}, method: 'GET' | 'HEAD' = 'GET') =>
    app.inject({
      method,
      url: '/api/v2/changes',
      query: Object.fromEntries(
        Object.entries({ datasets: RECORD_DATASETS, ...query }).map(([name, value]) => [name, String(value)]),
      ),
      headers: { authorization: `Bearer ${key}` },
    });

  const page = async (query: Record<string, string | number | boolean> = {}): Promise<Page> => {
    const res = await get(query);
    assert.equal(res.statusCode, 200, res.body);
    const body: Page = res.json();
    assert.ok(documented(body), `not as documented: ${JSON.stringify(documented.errors)}`);
    return body;
  };

  /** Every page from since until caught up: the items and the cursor to resume from. */
  const follow = async (since: string | undefined, query: Record<string, string | number> = {}) => {
    const items: Item[] = [];
    let cursor = since;
    for (let pages = 1; ; pages++) {
      const body = await page({ ...query, ...(cursor === undefined ? {} : { since: cursor }) });
      items.push(...body.data);
      assert.ok(body.data.length <= body.pagination.limit);
      cursor = body.pagination.nextCursor;
      if (!body.pagination.hasNextPage) return { items, cursor, pages };
      assert.ok(pages < 10_000, 'the feed ends');
    }
  };

  /** The cursor at the head of the feed now. */
  const head = async () => (await follow(undefined, { limit: 1000 })).cursor;

  const importRecords = async (kind: string, records: object[]) => {
    const res = await app.inject({
      method: 'POST',
      url: `/admin/ingest/${kind}`,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/x-ndjson' },
      payload: ndjson(records),
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().committed, true, res.body);
  };

  /** A served record without the company link fields resolution appends (src/companies). */
  const withoutLinks = (record: unknown) => {
    if (record === null || typeof record !== 'object') return record;
    const rest: Record<string, unknown> = { ...record };
    delete rest.companyId;
    delete rest.companyMatch;
    return rest;
  };

  const balance = async () => (await page({ count: true })).meta.creditsRemaining;

  const expectError = async (query: Record<string, string | number | boolean>, status: number, message: RegExp) => {
    const res = await get(query);
    assert.equal(res.statusCode, status, res.body);
    const body = res.json();
    assert.equal(body.success, false);
    assert.match(body.error, message);
    return res;
  };

  /** What a list endpoint serves for a record, found by a field. */
  const listed = async (url: string, field: string, value: unknown) => {
    const res = await app.inject({ url, headers: { authorization: `Bearer ${key}`, 'x-lot-api-key': key } });
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json();
    const records: Record<string, unknown>[] = body.data ?? body.response.data;
    return records.find((record) => record[field] === value);
  };

  /** Items of one transaction in a known order (an import writes its records in key order). */
  const sortedById = (items: Item[]) => [...items].sort((x, y) => ((x.id ?? '') < (y.id ?? '') ? -1 : 1));

  const positionOf = (cursor: string) => {
    const position = parseCursor(cursor);
    assert.ok(position, `${cursor} is a cursor`);
    return position;
  };

  const assertInOrder = (items: Item[], after?: string) => {
    let previous = after === undefined ? undefined : positionOf(after);
    for (const item of items) {
      const position = positionOf(item.cursor);
      if (previous) assert.ok(comparePositions(position, previous) > 0, `${item.cursor} comes after the one before`);
      previous = position;
    }
  };

  it('created, updated and deleted items carry the natural key and the record as listed now, or null', async () => {
    const start = await head();
    const [a, b] = [investorRecord({ name: 'Alpha Feed Capital' }), investorRecord({ name: 'Beta Feed Partners' })].sort(
      (x, y) => (x.id < y.id ? -1 : 1),
    ) as [InvestorRecord, InvestorRecord];
    await importRecords('investors', [a, b]);

    const created = await page({ since: start });
    assert.equal(created.success, true);
    // (One import is one transaction; its records come in the order it wrote them, by key.)
    assert.deepEqual(
      sortedById(created.data).map((item) => [item.dataset, item.op, item.id]),
      [
        ['investors', 'created', a.id],
        ['investors', 'created', b.id],
      ],
    );
    const createdA = created.data.find((item) => item.id === a.id)!;
    assert.deepEqual(createdA.record, await listed(`/api/v2/signals/investors?search=${encodeURIComponent(a.name)}`, 'id', a.id));
    // The record as sent, with the company link resolution appended (src/companies).
    const { companyId, companyMatch, ...sent } = createdA.record as InvestorRecord & { companyId: string; companyMatch: string };
    assert.deepEqual(sent, a);
    assert.deepEqual([typeof companyId, companyMatch], ['string', 'exact']);
    assert.ok(created.data.every((item) => Math.abs(Date.parse(item.changedAt) - Date.now()) < 60_000));
    assert.match(created.data[0]!.changedAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.equal(created.pagination.hasNextPage, false);
    assert.equal(created.pagination.nextCursor, created.data[1]!.cursor);
    assert.deepEqual(created.meta, { endpoint: 'changes', creditsUsed: 1, creditsRemaining: created.meta.creditsRemaining });

    // An update, then a deletion (plain SQL: every write path is logged).
    const renamed = { ...a, name: `${a.name} II` };
    await importRecords('investors', [renamed]);
    await db.query('DELETE FROM investors WHERE record_id = $1', [b.id]);
    const later = await page({ since: created.pagination.nextCursor });
    assert.deepEqual(
      later.data.map((item) => [item.op, item.id, withoutLinks(item.record)]),
      [
        ['updated', a.id, renamed],
        ['deleted', b.id, null],
      ],
    );

    // Read again from the start: records as they are now, and null for b, deleted since.
    const replayed = await page({ since: start });
    assert.deepEqual(
      [...sortedById(replayed.data.slice(0, 2)), ...replayed.data.slice(2)].map((item) => [
        item.op,
        item.id,
        withoutLinks(item.record),
      ]),
      [
        ['created', a.id, renamed],
        ['created', b.id, null],
        ['updated', a.id, renamed],
        ['deleted', b.id, null],
      ],
    );

    // The natural key of each data set: m-a's investment_id, job changes' signalId, funding's key.
    const deal = maRecord();
    const job = jobChangeRecord();
    const round = fundingRecord({ company_name: 'Feed Rounds Ltd', round_type: 'Series A', date_seen: '2025-03-01T09:00:00Z' });
    await importRecords('m-a', [deal]);
    await importRecords('job-changes', [job]);
    await importRecords('funding', [round]);
    // Served forms of their own (the published 2.2 fields): the feed carries them as the lists do.
    const acquisition = acquisitionRecord();
    const posting = hiringRecord();
    await importRecords('acquisitions', [acquisition]);
    await importRecords('hiring', [posting]);
    const others = await page({ since: later.pagination.nextCursor });
    assert.deepEqual(
      others.data.map((item) => [item.dataset, item.op, item.id]),
      [
        ['m-a', 'created', deal.investment_id],
        ['job-changes', 'created', job.signalId],
        ['funding', 'created', 'feed-rounds-ltd|series a|2025-03-01'],
        ['acquisitions', 'created', acquisition.id],
        ['hiring', 'created', posting.id],
      ],
    );
    assert.deepEqual(others.data[0]!.record, await listed('/api/v1/m-a', 'investment_id', deal.investment_id));
    assert.deepEqual(others.data[1]!.record, await listed('/api/v2/signals/job-changes', 'signalId', job.signalId));
    assert.deepEqual(others.data[2]!.record, await listed('/api/v1/funding', 'company_name', 'Feed Rounds Ltd'));
    assert.deepEqual(others.data[3]!.record, await listed('/api/v2/signals/acquisitions', 'id', acquisition.id));
    assert.equal(others.data[3]!.record!.signalType, 'acquisition');
    assert.deepEqual(others.data[4]!.record, await listed('/api/v2/signals/hiring', 'id', posting.id));
    assertInOrder([...replayed.data, ...others.data], start);
  });

  it('a row whose natural key or id changes through plain SQL: the old key is deleted before the new one is created', async () => {
    const round = fundingRecord({ company_name: 'Renamed Rounds', round_type: 'seed', date_seen: '2025-04-01T00:00:00Z' });
    await importRecords('funding', [round]);
    const start = await head();
    await db.query(`UPDATE funding_rounds SET natural_key = 'source:renamed-1' WHERE name_path = 'renamed-rounds'`);
    await db.query(`UPDATE funding_rounds SET id = id + 1000000 WHERE name_path = 'renamed-rounds'`);
    const { items } = await follow(start);
    const listedRound = await listed('/api/v1/funding', 'company_name', 'Renamed Rounds');
    assert.ok(listedRound);
    assert.deepEqual(
      items.map((item) => [item.op, item.id, item.record]),
      [
        ['deleted', 'renamed-rounds|seed|2025-04-01', null],
        // Its row (by id) is gone since: the deletion follows.
        ['created', 'source:renamed-1', null],
        ['deleted', 'source:renamed-1', null],
        ['created', 'source:renamed-1', listedRound],
      ],
    );
  });

  it('datasets filters in order; the cursor moves past what it skipped, so nothing is read twice', async () => {
    const start = await head();
    const investors = [investorRecord(), investorRecord()];
    const jobs = [jobChangeRecord(), jobChangeRecord()];
    await importRecords('funding', [fundingRecord(), fundingRecord()]);
    await importRecords('investors', investors);
    await importRecords('funding', [fundingRecord()]);
    await importRecords('job-changes', jobs);
    await importRecords('funding', [fundingRecord()]);
    const all = (await follow(start)).items;
    assert.equal(all.length, 8);

    const filtered = await page({ since: start, datasets: 'job-changes,investors' });
    assert.deepEqual(
      filtered.data.map((item) => item.cursor),
      all.filter((item) => item.dataset !== 'funding').map((item) => item.cursor),
    );
    assert.deepEqual(
      [...sortedById(filtered.data.slice(0, 2)), ...sortedById(filtered.data.slice(2))].map((item) => item.id),
      [...investors.map((r) => r.id).sort(), ...jobs.map((r) => r.signalId).sort()],
    );
    // Read to the head: the trailing funding entry is behind nextCursor too.
    assert.equal(filtered.pagination.hasNextPage, false);
    assert.equal(filtered.pagination.nextCursor, all.at(-1)!.cursor);
    assert.deepEqual((await page({ since: filtered.pagination.nextCursor })).data, []);

    // Nothing of the selected data sets: an empty page that still moves the cursor to the head.
    const none = await page({ since: start, datasets: 'm-a,acquisitions' });
    assert.deepEqual(none.data, []);
    assert.equal(none.pagination.nextCursor, all.at(-1)!.cursor);
    assert.equal(none.pagination.hasNextPage, false);

    // Case and spaces do not matter; every data set named is the same as none named.
    assert.deepEqual(
      (await page({ since: start, datasets: ' Funding , FUNDING' })).data,
      all.filter((i) => i.dataset === 'funding'),
    );
    assert.deepEqual((await page({ since: start, datasets: 'funding,m-a,investors,job-changes,acquisitions' })).data, all);

    // Small pages with a filter: the same items, each once.
    for (const limit of [1, 2, 3]) {
      const paged = await follow(start, { datasets: 'funding', limit });
      assert.deepEqual(
        paged.items,
        all.filter((item) => item.dataset === 'funding'),
        `limit ${limit}`,
      );
      assert.equal(paged.cursor, all.at(-1)!.cursor);
    }
  });

  it('pages of any size, resumed from any cursor, never miss or repeat a change', async () => {
    const start = await head();
    await importRecords(
      'funding',
      Array.from({ length: 12 }, () => fundingRecord()),
    );
    await importRecords(
      'job-changes',
      Array.from({ length: 5 }, () => jobChangeRecord()),
    );
    await importRecords('investors', [investorRecord()]);
    await importRecords('m-a', [maRecord(), maRecord()]);
    const all = (await follow(start, { limit: 1000 })).items;
    assert.equal(all.length, 20);
    assert.equal(new Set(all.map((item) => item.cursor)).size, 20);
    assertInOrder(all, start);

    for (const limit of [1, 3, 7, 19, 20, 21]) {
      const paged = await follow(start, { limit });
      assert.deepEqual(paged.items, all, `limit ${limit}`);
      assert.equal(paged.pages, Math.max(1, Math.ceil(20 / limit)), `limit ${limit}: pages`);
    }
    // A full page that is not the last says so, and ends at its last item.
    const first = await page({ since: start, limit: 7 });
    assert.equal(first.pagination.hasNextPage, true);
    assert.equal(first.pagination.nextCursor, first.data.at(-1)!.cursor);
    assert.equal(first.pagination.limit, 7);
    // From every item's cursor, exactly the changes after it.
    for (let i = 0; i < all.length; i++) {
      assert.deepEqual((await follow(all[i]!.cursor, { limit: 4 })).items, all.slice(i + 1), `after item ${i}`);
    }
    // Caught up: nothing after the head, and the cursor stays.
    const caughtUp = await page({ since: all.at(-1)!.cursor });
    assert.deepEqual(caughtUp.data, []);
    assert.equal(caughtUp.pagination.nextCursor, all.at(-1)!.cursor);
    assert.equal(caughtUp.pagination.hasNextPage, false);
    // Without since: from the oldest retained change, with the default limit of 100.
    const fromStart = await page();
    assert.equal(fromStart.pagination.limit, 100);
    assert.ok(fromStart.data.length > 0);
  });

  it('a long run of other data sets is read in bounded steps: short pages, never a missed or repeated change', async () => {
    const start = await head();
    await importRecords(
      'job-changes',
      Array.from({ length: 9 }, () => jobChangeRecord()),
    );
    await importRecords('investors', [investorRecord()]);
    await importRecords(
      'job-changes',
      Array.from({ length: 7 }, () => jobChangeRecord()),
    );
    await importRecords('investors', [investorRecord(), investorRecord()]);
    const all = (await follow(start)).items;
    const wanted = all.filter((item) => item.dataset === 'investors');
    // The service read with 2 entries a statement and at most 4 a page: most pages stop early.
    const items = [];
    let cursor = start;
    let pages = 0;
    for (;;) {
      const result = await readChangesPage(
        db,
        { since: cursor, datasets: 'investors', limit: 1 },
        { retentionDays: 7, scanRows: 2, scanBudget: 4 },
      );
      pages++;
      items.push(...JSON.parse(result.dataJson));
      cursor = result.pagination.nextCursor;
      if (!result.pagination.hasNextPage) break;
    }
    assert.deepEqual(items, wanted);
    assert.ok(pages >= 5, `${pages} pages: some ended early, empty or short`);
    assert.equal(cursor, all.at(-1)!.cursor);
  });

  it('count mode: the exact number of retained changes after since, per data set, for free', async () => {
    const start = await head();
    await importRecords('funding', [fundingRecord(), fundingRecord(), fundingRecord()]);
    await importRecords('investors', [investorRecord()]);
    const before = await balance();
    const counted = await page({ since: start, count: true });
    const atHead = await page({ since: await head(), count: true });
    const charged = 1; // the follow in head()
    assert.deepEqual(counted.data, []);
    assert.deepEqual(counted.pagination, { limit: 100, nextCursor: start, hasNextPage: true, totalCount: 4 });
    assert.deepEqual(counted.meta, { endpoint: 'changes', creditsUsed: 0, creditsRemaining: before });
    assert.equal((await page({ since: start, count: true, datasets: 'funding' })).pagination.totalCount, 3);
    assert.equal((await page({ since: start, count: true, datasets: 'm-a' })).pagination.totalCount, 0);
    assert.equal(atHead.pagination.totalCount, 0);
    assert.equal(atHead.pagination.hasNextPage, false);
    assert.equal(await balance(), before - charged, 'counting is free');
    // Without since: every retained change.
    assert.equal((await page({ count: true })).pagination.totalCount, (await follow(undefined, { limit: 1000 })).items.length);
  });

  it('since=now: an empty page at the head, free; following from it gets only the changes made after', async () => {
    await importRecords('investors', [investorRecord()]);
    const top = await head();
    const before = await balance();
    const now = await page({ since: 'now' });
    assert.deepEqual(now.data, []);
    assert.deepEqual(now.pagination, { limit: 100, nextCursor: top, hasNextPage: false });
    assert.deepEqual(now.meta, { endpoint: 'changes', creditsUsed: 0, creditsRemaining: before });
    assert.equal((await get({ since: 'now' })).headers['x-credits-remaining'], String(before));
    // The data set filter is still checked; count mode says nothing follows.
    await expectError({ since: 'now', datasets: 'patents' }, 400, /datasets/);
    const counted = await page({ since: 'now', count: true, datasets: 'funding', limit: 5 });
    assert.deepEqual(counted.pagination, { limit: 5, nextCursor: now.pagination.nextCursor, hasNextPage: false, totalCount: 0 });
    assert.equal(await balance(), before, 'taking the head is free');

    const later = investorRecord();
    await importRecords('investors', [later]);
    const followed = await follow(now.pagination.nextCursor);
    assert.deepEqual(
      followed.items.map((item) => [item.op, item.id]),
      [['created', later.id]],
    );
    // The poor account can take the head too: it costs nothing.
    const poor = await makeKey(db, 'free');
    await adjustCredits(db, poor.accountId, { set: 0 });
    const free = await app.inject({ url: '/api/v2/changes?since=now', headers: { authorization: `Bearer ${poor.key}` } });
    assert.equal(free.statusCode, 200, free.body);
    assert.equal(free.json().pagination.nextCursor, followed.cursor);
  });

  it('1 credit per page, whatever it holds; count mode, HEAD and errors are free; 402 without credits', async () => {
    const start = await head();
    await importRecords('investors', [investorRecord(), investorRecord(), investorRecord()]);
    const before = await balance();
    const first = await get({ since: start, limit: 2 });
    assert.equal(first.json().meta.creditsUsed, 1);
    assert.equal(first.json().meta.creditsRemaining, before - 1);
    assert.equal(first.headers['x-credits-remaining'], String(before - 1));
    assert.equal(first.headers['cache-control'], 'private, no-cache');
    assert.ok(first.headers['x-request-id']);
    const empty = await page({ since: await head() });
    assert.equal(empty.meta.creditsUsed, 1, 'an empty page is a page');
    assert.equal((await get({ since: start }, 'HEAD')).statusCode, 200);
    await expectError({ since: 'nope' }, 400, /since/);
    assert.equal(await balance(), before - 3, 'two pages, and the follow in head()');
    const ledger = await db.query<{ endpoint: string; n: number }>(
      `SELECT endpoint, count(*)::int AS n FROM credit_ledger WHERE account_id = $1 AND endpoint = 'changes' GROUP BY endpoint`,
      [accountId],
    );
    assert.ok(ledger[0]!.n >= 3, 'the ledger names the endpoint');

    const poor = await makeKey(db, 'free');
    await adjustCredits(db, poor.accountId, { set: 0 });
    const refused = await app.inject({ url: '/api/v2/changes', headers: { authorization: `Bearer ${poor.key}` } });
    assert.equal(refused.statusCode, 402, refused.body);
    assert.match(refused.json().error, /credits exhausted/);
    const free = await app.inject({ url: '/api/v2/changes?count=true', headers: { authorization: `Bearer ${poor.key}` } });
    assert.equal(free.statusCode, 200, free.body);
    const anonymous = await app.inject({ url: '/api/v2/changes' });
    assert.equal(anonymous.statusCode, 401);
    assert.deepEqual(anonymous.json(), { success: false, error: 'Invalid API key', code: 'invalid_api_key' });
  });

  it('400 for a malformed or never-issued cursor, an unknown data set, a limit out of range or an unknown parameter', async () => {
    const before = await balance();
    const valid = await head();
    for (const since of ['', 'abc', `${valid}%`, Buffer.from('v1.1.x').toString('base64url'), 'v1.1.1', `${valid}=`]) {
      await expectError({ since }, 400, /^since is not a valid cursor/);
    }
    const position = positionOf(valid);
    await expectError(
      { since: encodeCursor({ seq: position.seq + 1000, changeId: 1 }) },
      400,
      /since is ahead of the change log/,
    );
    await expectError({ since: encodeCursor({ seq: position.seq + 1000, changeId: 1 }), count: true }, 400, /since/);
    const res = await expectError({ datasets: 'funding,patents' }, 400, /datasets/);
    assert.match(res.json().error, /"patents"/);
    assert.match(res.json().error, /funding, m-a, investors, job-changes, acquisitions/);
    for (const limit of ['0', '1001', 'abc', '1.5', '-1', '1e2']) await expectError({ limit }, 400, /limit/);
    await expectError({ count: 'maybe' }, 400, /count/);
    await expectError({ page: 2 }, 400, /page/);
    const repeated = await app.inject({
      url: `/api/v2/changes?since=${valid}&since=${valid}`,
      headers: { authorization: `Bearer ${key}` },
    });
    assert.equal(repeated.statusCode, 400);
    assert.match(repeated.json().error, /since is repeated/);
    assert.equal((await page({ limit: 1000 })).pagination.limit, 1000);
    assert.equal(await balance(), before - 2, 'only the head() follow and the last page were charged');
  });

  it('410 once the changes after a cursor are pruned; the head and the horizon still answer', async () => {
    const old = await head();
    await importRecords('funding', [fundingRecord()]);
    const before = await balance();
    // Everything committed before tomorrow goes.
    const { pruned } = await pruneChangeLog(db, new Date(Date.now() + 86_400_000));
    const horizon = encodeCursor(pruned);
    assert.deepEqual(pruned, await changeLogHead(db));
    const gone = await expectError({ since: old }, 410, /list endpoints/);
    assert.match(gone.json().error, /7 days/);
    await expectError({ since: old, count: true }, 410, /resync/i);
    await expectError({ since: old, datasets: 'investors' }, 410, /retention/);
    assert.equal(await balance(), before, 'a 410 costs nothing');

    // At the horizon nothing is missed: an empty page, the cursor kept. Without since: the same.
    for (const query of [{ since: horizon }, {}] as Record<string, string>[]) {
      const body = await page(query);
      assert.deepEqual(body.data, []);
      assert.equal(body.pagination.nextCursor, horizon);
      assert.equal(body.pagination.hasNextPage, false);
    }
    assert.equal((await page({ count: true })).pagination.totalCount, 0);
    // And the feed goes on from there.
    const round = fundingRecord();
    await importRecords('funding', [round]);
    const fresh = await page({ since: horizon });
    assert.equal(fresh.data.length, 1);
    assert.equal(fresh.data[0]!.op, 'created');
  });

  it('a client resumes with its stored cursor after the server restarts', async () => {
    const start = await head();
    await importRecords('investors', [investorRecord(), investorRecord(), investorRecord()]);
    const all = (await follow(start)).items;
    const firstPage = await page({ since: start, limit: 2 });

    await app.close();
    app = await buildApp({ config, db });
    await app.ready();
    await importRecords('investors', [investorRecord()]);

    const rest = await follow(firstPage.pagination.nextCursor, { limit: 2 });
    const seen = [...firstPage.data, ...rest.items];
    assert.deepEqual(seen.slice(0, 3), all);
    assert.equal(seen.length, 4);
    assert.equal(new Set(seen.map((item) => item.cursor)).size, 4);
    assertInOrder(seen, start);
  });
});
