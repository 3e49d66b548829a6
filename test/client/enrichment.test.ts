// The typed client's enrichment jobs (ds.v2.enrichment) as built, against a listening server with an
// enrichment worker: create a list, wait for it with the polling helper, read every result back in
// input order through the cursor, and a refused call as a DealSignalError with the published code.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { DealSignal, DealSignalError } from '@dealsignal/client';
import { companyRecord, insertCompanies } from '../fixtures.js';
import { describeOnOneStore, makeKey, startApp, type TestContext } from '../helpers.js';

describeOnOneStore('typed client: enrichment jobs', (backend) => {
  let ctx: TestContext;
  let ds: DealSignal;
  const known = Array.from({ length: 20 }, (_, i) =>
    companyRecord({ name: `Client Known ${i}`, website: `https://client-known-${i}.example`, linkedinUrl: null }),
  );

  before(async () => {
    ctx = await startApp(backend, { ENRICHMENT_WORKER: 'true', ENRICHMENT_POLL_MS: '50' });
    await insertCompanies(ctx.db, known);
    const baseUrl = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    ds = new DealSignal({ apiKey: (await makeKey(ctx.db, 'enterprise')).key, baseUrl });
  });
  after(() => ctx.close());

  it('create, wait and read every result back in order; a refusal is a DealSignalError with its code', async () => {
    const companies = Array.from({ length: 230 }, (_, i) => ({ website_url: `client-known-${i % 25}.example`, row: String(i) }));
    const created = await ds.v2.enrichment.create({ fileName: 'client.csv', companies });
    assert.equal(created.meta.creditsUsed, 1);
    const { jobId } = created.data;
    const job = await ds.v2.enrichment.wait(jobId, { intervalMs: 50, timeoutMs: 20_000 });
    assert.deepEqual(
      [job.status, job.progress.processed, job.summary.matched],
      ['completed', 230, companies.filter((_, i) => i % 25 < 20).length],
    );
    const rows: string[] = [];
    for await (const result of ds.v2.enrichment.results(jobId, { limit: 40 })) {
      rows.push(result.input.row!);
      assert.equal(result.matched, Number(result.input.row) % 25 < 20, result.input.row);
    }
    assert.deepEqual(
      rows,
      companies.map((company) => company.row),
    );
    const page = await ds.v2.enrichment.get(jobId, { limit: 1, cursor: 'r229' });
    assert.deepEqual([page.data.results.length, page.data.nextCursor, page.meta.creditsUsed], [1, null, 0]);

    await assert.rejects(ds.v2.enrichment.get('7f4b7a34-8d65-4cc3-8ab0-3477f8a967a6'), (error: unknown) => {
      assert.ok(error instanceof DealSignalError);
      assert.deepEqual([error.status, (error.body as { code: string }).code], [404, 'job_not_found']);
      return true;
    });
  });
});
