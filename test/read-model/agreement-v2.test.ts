// The v2 signal endpoints (investors, job-changes, acquisitions, funding) and companies answer exactly what plain SQL answers, on both apps of the harness
// (a read model rebuilding after 5 changes, and one with the default options), through a random
// history of imports, updates, deletions and re-imports written straight to the database.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { describeEach } from '../helpers.js';
import { assertAgreement, Harness, type AgreementOptions } from './harness.js';
import { investorsSpec, jobChangesSpec, acquisitionsSpec, fundingSignalsSpec, companiesSpec } from './specs.js';

// 15 random histories an endpoint and store: the suite's longest file, kept within the suite's time on a 2-core machine.
const OPTIONS: AgreementOptions = { numRuns: 15, maxSteps: 5, queries: { min: 3, max: 5 } };

describeEach('read model agrees with SQL: v2 signals', (backend) => {
  let harness: Harness;
  before(async () => {
    harness = await Harness.start(backend);
  });
  after(() => harness?.close());

  for (const spec of [investorsSpec, jobChangesSpec, acquisitionsSpec, fundingSignalsSpec, companiesSpec]) {
    it(`${spec.url}: totals, pages and 400s match plain SQL`, async (t) => {
      const coverage = await assertAgreement(harness, spec, OPTIONS);
      t.diagnostic(`coverage: ${JSON.stringify(coverage)}`);
      assert.ok(coverage.pages > 0 && coverage.laterPages > 0, 'some requests got records, some past the first page');
    });
  }
});
