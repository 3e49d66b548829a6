// Migration 012 gives the acquisition signals already stored the website and LinkedIn keys urlKey
// gives (src/catalog/normalize.ts), exactly: the values SQL normalises the same way get them in
// the migration, every other row from urlKey itself before the index is built; and no change is
// logged (the served documents did not change).
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { it } from 'node:test';
import fc from 'fast-check';
import { loadMigrations, migrate } from '../../src/platform/db/migrate.js';
import type { Database } from '../../src/platform/db/port.js';
import { completeAcquisitionKeys } from '../../src/ingest/acquisition-key-backfill.js';
import { urlKey } from '../../src/catalog/normalize.js';
import { ReadModel } from '../../src/read/read-model.js';
import { describeEach } from '../helpers.js';

const BEFORE_012 = loadMigrations().filter((migration) => migration.name < '012');

/** URL-ish text: scheme, www., case, query, fragment, slashes, and now and then white space or non-ASCII letters. */
const PIECES = [
  'HTTP://',
  'https://',
  'ftp+x://',
  'www.',
  'WWW.',
  'Acme',
  'acme',
  '.io',
  '.COM',
  '/',
  '//',
  '?q=1',
  '#top',
  'Path',
];
// (No U+FEFF: the embedded store's client drops one at the start of a text it reads back.)
const ODD = [' ', '\t', '\n', '\r\n', '\u00a0', '\u2028', '\u3000', 'Ä', 'ö', 'İ', 'ΣΑΣ', 'ß', '日本', 'ﬁ', '\u007f', '\u0001'];
const codePoint = fc
  .oneof(fc.integer({ min: 1, max: 0xd7ff }), fc.integer({ min: 0xe000, max: 0x10ffff }))
  .map((c) => String.fromCodePoint(c));
const urlText = fc.oneof(
  { weight: 6, arbitrary: fc.array(fc.constantFrom(...PIECES), { maxLength: 6 }).map((parts) => parts.join('')) },
  { weight: 3, arbitrary: fc.array(fc.constantFrom(...PIECES, ...ODD), { maxLength: 6 }).map((parts) => parts.join('')) },
  { weight: 1, arbitrary: fc.array(codePoint, { maxLength: 8 }).map((chars) => chars.join('')) },
);
/** A field of the stored document: text, null, absent, or (written by plain SQL) not text at all. */
const field = fc.oneof({ weight: 12, arbitrary: urlText }, fc.constant(null), fc.constant(undefined), fc.constant(42));

interface Stored {
  website: unknown;
  linkedinUrl: unknown;
}

async function insertRaw(db: Database, docs: string[]): Promise<void> {
  await db.query(
    `INSERT INTO acquisition_signals (record_id, search_text, sort_at, doc)
     SELECT r, '', now(), d FROM unnest($1::uuid[], $2::text[]) AS t (r, d)`,
    [docs.map(() => randomUUID()), docs],
  );
}

const expectedKey = (value: unknown) => (typeof value === 'string' ? urlKey(value) : null);

describeEach('migration 012: acquisition company keys', (backend) => {
  it('existing rows get the keys urlKey gives, the non-ASCII ones from urlKey itself, and nothing is logged', async () => {
    const db = await backend.open();
    try {
      await migrate(db, BEFORE_012);
      const stored = fc.sample(fc.record({ website: field, linkedinUrl: field }), { numRuns: 600, seed: 12 }) as Stored[];
      stored.push(
        { website: 'https://www.Novartis.com/?x=1#y', linkedinUrl: 'HTTPS://WWW.LINKEDIN.COM/company/Novartis///' },
        { website: '', linkedinUrl: 'http://' },
        { website: 'www.', linkedinUrl: '?only=query' },
        { website: ' https://padded.com ', linkedinUrl: 'https://ÜBER.de/' },
      );
      await insertRaw(
        db,
        stored.map((values) => JSON.stringify({ companyName: 'X', ...values })),
      );
      const logged = async () =>
        (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM change_log WHERE dataset = 'acquisitions'`))[0]!.n;
      const before = await logged();

      await migrate(db);
      const rows = async () =>
        db.query<{ id: number; doc: string; website_key: string | null; linkedin_key: string | null }>(
          'SELECT id, doc, website_key, linkedin_key FROM acquisition_signals ORDER BY id',
        );
      const pending = new Set(
        (await db.query<{ id: number }>('SELECT id FROM acquisition_key_backfill')).map((row) => Number(row.id)),
      );
      const printable = (value: unknown) => typeof value !== 'string' || /^[\x21-\x7e]*$/.test(value);
      for (const row of await rows()) {
        const doc = JSON.parse(row.doc) as Stored;
        const exact = printable(doc.website) && printable(doc.linkedinUrl);
        assert.equal(
          pending.has(Number(row.id)),
          !exact,
          `row ${row.doc}: left to the application exactly when SQL cannot do it`,
        );
        if (exact) {
          assert.equal(row.website_key, expectedKey(doc.website), `website of ${row.doc}`);
          assert.equal(row.linkedin_key, expectedKey(doc.linkedinUrl), `linkedinUrl of ${row.doc}`);
        }
      }
      assert.ok(pending.size > 20 && pending.size < stored.length - 100, `some rows each way (${pending.size} pending)`);

      // What an instance does before it builds its index.
      const model = await ReadModel.open(db);
      assert.ok(model.stats().datasets.acquisitions!.records === stored.length);
      for (const row of await rows()) {
        const doc = JSON.parse(row.doc) as Stored;
        assert.equal(row.website_key, expectedKey(doc.website), `website of ${row.doc}`);
        assert.equal(row.linkedin_key, expectedKey(doc.linkedinUrl), `linkedinUrl of ${row.doc}`);
      }
      assert.deepEqual(await db.query('SELECT id FROM acquisition_key_backfill'), []);
      assert.equal(await logged(), before, 'no change was logged: the served documents are the same');
      assert.equal(await completeAcquisitionKeys(db), 0, 'once done, nothing is left');
      // The update trigger is on again: a real change is logged.
      await db.query(`UPDATE acquisition_signals SET doc = doc || ' ' WHERE id = (SELECT min(id) FROM acquisition_signals)`);
      assert.equal(await logged(), before + 1);
    } finally {
      await db.close();
    }
  });

  it('a document jsonb cannot read leaves every row to urlKey; a document that is no JSON, or a key holding NUL, has no key', async () => {
    const db = await backend.open();
    try {
      await migrate(db, BEFORE_012);
      await insertRaw(db, [
        JSON.stringify({ website: 'https://A.example/', linkedinUrl: 'https://www.linkedin.com/company/a' }),
        JSON.stringify({ website: 'https://b.example', linkedinUrl: 'nul\u0000inside' }),
        'not json',
      ]);
      await migrate(db);
      assert.equal((await db.query('SELECT id FROM acquisition_key_backfill')).length, 3);
      assert.equal(await completeAcquisitionKeys(db), 3);
      const keys = await db.query('SELECT website_key, linkedin_key FROM acquisition_signals ORDER BY id');
      assert.deepEqual(keys, [
        { website_key: 'a.example', linkedin_key: 'linkedin.com/company/a' },
        { website_key: 'b.example', linkedin_key: null },
        { website_key: null, linkedin_key: null },
      ]);
    } finally {
      await db.close();
    }
  });
});
