// Company resolution as properties: records naming a few companies by random spellings of their
// website, LinkedIn page and name, imported in random batches, link every spelling of one domain
// (and of one LinkedIn page) to one company; importing them again and `companies resolve` change no link.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import fc from 'fast-check';
import { acquisitionRecord } from '../fixtures.js';
import { clearData, describeEach } from '../helpers.js';
import { ndjson, run } from '../ingest/support.js';
import { resolveAll } from '../../src/companies/index.js';
import { upserterOf } from '../../src/ingest/index.js';
import { companies } from '../../src/catalog/registry.js';
import { appendFields } from '../../src/catalog/index.js';
import type { Database } from '../../src/platform/db/port.js';
import type { AcquisitionSignalRecord } from '../../src/catalog/schemas/v2-schemas.js';

const COMPANIES = ['alpha-robotics', 'beta-pay', 'gamma-bio'];

/** How a record spells its company: each URL in one of several forms, or left out. */
const spelling = fc.record({
  company: fc.integer({ min: 0, max: COMPANIES.length - 1 }),
  website: fc.constantFrom(null, 'https://www.%s.com', 'http://%s.com/', 'HTTPS://%s.COM/?ref=x', 'https://%s.com#about'),
  linkedin: fc.constantFrom(
    null,
    'https://www.linkedin.com/company/%s',
    'https://linkedin.com/company/%s/',
    'HTTP://WWW.LINKEDIN.COM/company/%s',
  ),
  name: fc.constantFrom('%s', '%s Inc.', '%s GmbH', ' %s '),
  country: fc.constantFrom(null, 'United States', 'US'),
});

type Spelling = typeof spelling extends fc.Arbitrary<infer T> ? T : never;

function recordOf(s: Spelling): AcquisitionSignalRecord {
  const slug = COMPANIES[s.company]!;
  const fill = (pattern: string | null) => (pattern === null ? null : pattern.replace('%s', slug));
  return acquisitionRecord({
    companyName: s.name.replace('%s', slug.replace('-', ' ')),
    website: fill(s.website),
    linkedinUrl: fill(s.linkedin),
    country: s.country,
  });
}

describeEach('company resolution properties', (backend) => {
  let db: Database;
  before(async () => {
    db = await backend.openMigrated();
  });
  after(() => db.close());

  const links = async () =>
    db.query<{ record_id: string; company_id: string | null }>(
      'SELECT record_id::text AS record_id, company_id::text AS company_id FROM acquisition_signals ORDER BY id',
    );

  it('one company per domain and per LinkedIn page; re-imports and resolve change no link', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(spelling, { minLength: 1, maxLength: 24 }),
        fc.integer({ min: 1, max: 8 }),
        async (spellings, batch) => {
          await clearData(db);
          const records = spellings.map(recordOf);
          const report = await run(db, 'acquisitions', ndjson(records), { batchRows: batch });
          assert.equal(report.committed, true, JSON.stringify(report.rejects));
          const linked = new Map((await links()).map((row) => [row.record_id, row.company_id]));
          const companyOf = (i: number) => linked.get(records[i]!.id)!;
          // Every record names a company, so every one is linked.
          spellings.forEach((_, i) => assert.ok(companyOf(i), `record ${i} is linked`));
          for (const field of ['website', 'linkedin'] as const) {
            const byCompany = new Map<number, Set<string>>();
            spellings.forEach((s, i) => {
              if (s[field] === null) return;
              byCompany.set(s.company, (byCompany.get(s.company) ?? new Set()).add(companyOf(i)));
            });
            for (const [company, ids] of byCompany) assert.equal(ids.size, 1, `${field} of ${COMPANIES[company]}: one company`);
          }
          const before = await links();
          const again = await run(db, 'acquisitions', ndjson(records), { batchRows: batch });
          assert.deepEqual([again.inserted, again.updated], [0, 0]);
          const resolved = await resolveAll(db, { upsertCompanies: upserterOf(companies), batchRows: batch });
          assert.equal(resolved.datasets.acquisitions?.changed, 0);
          assert.deepEqual(await links(), before);
        },
      ),
      { numRuns: 20 },
    );
  });
});

it('appendFields: the fields go last, the same in the text and in the encoded bytes of any document', () => {
  const doc = fc.dictionary(fc.string(), fc.jsonValue(), { maxKeys: 6 });
  const fields = fc.array(fc.tuple(fc.string(), fc.option(fc.string())), { minLength: 1, maxLength: 4 });
  fc.assert(
    fc.property(doc, fields, fc.constantFrom('', ' ', '\n'), (record, added, space) => {
      const text = `${JSON.stringify(record, null, space === '' ? undefined : space)}${space}`;
      const appended = appendFields(text, added);
      assert.equal(appendFields(Buffer.from(text), added).toString('utf8'), appended);
      // Built as JSON.parse builds objects: a field named "__proto__" is an own property, not the prototype.
      const expected = JSON.parse(text) as Record<string, unknown>;
      for (const [name, value] of added) {
        delete expected[name];
        Object.defineProperty(expected, name, { value, enumerable: true, writable: true, configurable: true });
      }
      assert.deepEqual(JSON.parse(appended), expected);
    }),
  );
});
