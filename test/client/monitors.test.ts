// The typed client's monitors (ds.v2.monitors) as built, against a listening server: create a
// monitor, add targets (again: nothing doubled), page through them, change and delete it, and a
// refusal as a DealSignalError with the published code.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { DealSignal, DealSignalError } from '@dealsignal/client';
import { companyRecord, insertCompanies } from '../fixtures.js';
import { describeOnOneStore, makeKey, startApp, type TestContext } from '../helpers.js';

describeOnOneStore('typed client: monitors', (backend) => {
  let ctx: TestContext;
  let ds: DealSignal;
  const known = Array.from({ length: 5 }, (_, i) =>
    companyRecord({ name: `Watched ${i}`, website: `https://watched-${i}.example`, linkedinUrl: null }),
  );

  before(async () => {
    ctx = await startApp(backend);
    await insertCompanies(ctx.db, known);
    const baseUrl = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    ds = new DealSignal({ apiKey: (await makeKey(ctx.db, 'pro')).key, baseUrl });
  });
  after(() => ctx.close());

  it('creates a monitor, adds and lists its targets, changes and deletes it; a refusal has its code', async () => {
    const created = await ds.v2.monitors.create({ name: 'Client', signal_types: ['funding_round', 'hiring'] });
    assert.deepEqual(created.meta, { endpoint: 'monitors.create', creditsUsed: 0 });
    const id = created.data.id;
    const targets = [...known.map((_, i) => `watched-${i}.example`), 'nobody-yet.example', 'not a target'];
    const added = await ds.v2.monitors.addTargets(id, { targets });
    assert.deepEqual(
      [added.data.added.length, added.data.resolved_companies, added.data.pending, added.data.invalid],
      [6, 5, ['nobody-yet.example'], ['not a target']],
    );
    const again = await ds.v2.monitors.addTargets(id, { targets });
    assert.deepEqual([again.data.added.length, again.data.skipped_existing], [0, 6]);
    const page = await ds.v2.monitors.targets(id, { status: 'resolved', limit: 2, offset: 4 });
    assert.deepEqual(page.pagination, { limit: 2, offset: 4, count: 1, total: 5 });
    const removed = await ds.v2.monitors.removeTargets(id, { targets: ['nobody-yet.example'] });
    assert.equal(removed.data.removed[0]?.value, 'nobody-yet.example');
    const paused = await ds.v2.monitors.update(id, { active: false });
    assert.equal(paused.data.active, false);
    assert.equal((await ds.v2.monitors.list()).data[0]?.stats.targets, 5);
    await ds.v2.monitors.delete(id);
    await assert.rejects(ds.v2.monitors.get(id), (error: unknown) => {
      assert.ok(error instanceof DealSignalError);
      assert.deepEqual([error.status, (error.body as { code: string }).code], [404, 'not_found']);
      return true;
    });
  });
});
