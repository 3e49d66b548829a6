// The typed client's people search (ds.v2.people) as built, against a listening server on the demo
// data: a page of typed people, each with the signal that matched; page walks within their caps and
// over a whole filter; count mode for free; a refused parameter as a DealSignalError with the API's message.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { DealSignal, DealSignalError, type Person, type QueryOf } from '@dealsignal/client';
import { DEMO_SEED, seedDatabase, startOfTodayUtc } from '../../src/demo/seed.js';
import { describeOnOneStore, makeKey, startApp, type TestContext } from '../helpers.js';

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of iterable) items.push(item);
  return items;
}

const SIGNAL_TYPES: readonly Person['matched_signal']['type'][] = ['funding_round', 'acquisition', 'job_change'];

/** A person as one string: two people may share a masked name, never a whole record. */
const identity = (person: Person) => JSON.stringify(person);

describeOnOneStore('typed client: people', (backend) => {
  let ctx: TestContext;
  let ds: DealSignal;

  before(async () => {
    ctx = await startApp(backend);
    await seedDatabase(ctx.db, { scale: 'demo', seed: DEMO_SEED, asOf: startOfTodayUtc() });
    const baseUrl = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    ds = new DealSignal({ apiKey: (await makeKey(ctx.db, 'enterprise')).key, baseUrl });
  });
  after(() => ctx.close());

  it('lists a page of typed people, each with its matched signal', async () => {
    const page = await ds.v2.people.list({ seniority: 'c_level', limit: 5 });
    assert.equal(page.success, true);
    assert.deepEqual([page.meta.endpoint, page.meta.creditsUsed], ['people.list', 1]);
    assert.equal(page.data.length, 5);
    assert.ok(page.pagination.totalCount > 5, `${page.pagination.totalCount} people`);
    assert.equal(page.pagination.hasNextPage, true);
    const people: Person[] = page.data;
    for (const person of people) {
      const { type, date, summary, source_url } = person.matched_signal;
      assert.ok(SIGNAL_TYPES.includes(type), type);
      assert.match(date, /^\d{4}-\d{2}-\d{2}$/);
      assert.ok(summary.length > 0);
      assert.ok(source_url === null || typeof source_url === 'string');
      assert.equal(typeof person.is_latest_signal, 'boolean');
      assert.equal(person.status, 'active');
      assert.ok('domain' in person.company && 'size_band' in person.company);
    }
    // Checked by the compiler (npm run typecheck): the query is the route's, and seniority is not seniorities.
    // @ts-expect-error: no parameter `seniorities` on GET /api/v2/people
    const misspelt = () => ds.v2.people.list({ seniorities: 'c_level' });
    assert.equal(typeof misspelt, 'function');
    const dates = people.map((person) => person.matched_signal.date);
    assert.deepEqual(dates, [...dates].sort().reverse(), 'newest matched signal first');

    const counted = await ds.v2.people.list({ seniority: 'c_level', count: true });
    assert.deepEqual(counted.data, []);
    assert.equal(counted.pagination.totalCount, page.pagination.totalCount);
    assert.equal(counted.meta.creditsUsed, 0);
  });

  it('walks pages within maxPages and maxCredits; all() yields the same people in order', async () => {
    const query = { seniority: 'c_level', limit: 5 } satisfies QueryOf<'searchPeople'>;
    const byPages = await collect(ds.v2.people.pages(query, { maxPages: 3 }));
    assert.deepEqual(
      byPages.map((page) => page.pagination.currentPage),
      [1, 2, 3],
    );
    assert.ok(byPages.every((page) => page.data.length === 5 && page.meta.creditsUsed === 1));
    const walked = byPages.flatMap((page) => page.data);
    assert.equal(new Set(walked.map(identity)).size, 15, 'no one twice');

    const balance = byPages.at(-1)!.meta.creditsRemaining!;
    const byCredits = await collect(ds.v2.people.pages({ ...query, page: 2 }, { maxCredits: 2 }));
    assert.deepEqual(
      byCredits.map((page) => page.pagination.currentPage),
      [2, 3],
    );
    assert.equal(byCredits.at(-1)!.meta.creditsRemaining, balance - 2, 'two pages, two credits');

    const all = await collect(ds.v2.people.all(query, { maxPages: 3 }));
    assert.deepEqual(all.map(identity), walked.map(identity));
    // Nothing within a budget of no credits: every page costs one.
    assert.deepEqual(await collect(ds.v2.people.all(query, { maxCredits: 0 })), []);
  });

  it('walks every page of a filter: totalCount people, no one twice', async () => {
    const query = { seniority: 'c_level', signal_type: 'funding_round', signal_date_range: '30d', limit: 100 };
    const { pagination } = await ds.v2.people.list({ ...query, count: true });
    assert.ok(pagination.totalCount > 100, `a filter spanning pages (${pagination.totalCount})`);
    const pages = await collect(ds.v2.people.pages(query));
    assert.equal(pages.length, Math.ceil(pagination.totalCount / 100));
    assert.equal(pages.at(-1)!.pagination.hasNextPage, false);
    const people = pages.flatMap((page) => page.data);
    assert.equal(people.length, pagination.totalCount);
    assert.equal(new Set(people.map(identity)).size, people.length);
    assert.ok(people.every((person) => person.matched_signal.type === 'funding_round'));
  });

  it("surfaces a refused parameter as a DealSignalError with the API's message", async () => {
    const error = await ds.v2.people.list({ seniority: 'exec' }).then(
      () => assert.fail('an unknown seniority was accepted'),
      (err: unknown) => err,
    );
    assert.ok(error instanceof DealSignalError);
    assert.equal(error.status, 400);
    assert.equal(error.code, 'invalid_parameter');
    assert.ok(error.body && 'param' in error.body);
    assert.equal(error.body.param, 'seniority');
    assert.ok('error' in error.body);
    assert.equal(error.message, error.body.error);
    assert.match(error.message, /exec/);
  });
});
