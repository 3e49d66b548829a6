// The people directory's string table (identities, titles, company ids) answers as a Map of
// strings to codes given in the order first seen does, across its growth and rehashing.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { Strings } from '../../src/people/mentions.js';
import '../setup.js';

/** Short strings from a small alphabet (many repeats), with multi-byte characters and the empty string. */
const stringArb = fc.string({ unit: fc.constantFrom('a', 'b', 'é', 'Ω', '中', '😀', ' ', ':'), maxLength: 4 });

describe('people string table', () => {
  it('codes, finds and reads back strings as a Map does', () => {
    fc.assert(
      fc.property(fc.array(fc.option(stringArb, { nil: null }), { maxLength: 3000 }), stringArb, (values, probe) => {
        const table = new Strings();
        const model = new Map<string, number>();
        for (const value of values) {
          const code = table.code(value);
          if (value === null) {
            assert.equal(code, -1);
            continue;
          }
          if (!model.has(value)) model.set(value, model.size);
          assert.equal(code, model.get(value));
        }
        assert.equal(table.size, model.size);
        for (const [value, code] of model) {
          assert.equal(table.value(code), value);
          assert.equal(table.find(value), code);
        }
        assert.equal(table.find(probe), model.get(probe) ?? -1);
        assert.equal(table.find(null), -1);
        assert.equal(table.value(-1), null);
      }),
    );
  });

  it('holds long strings and starts again when cleared', () => {
    const table = new Strings();
    const long = 'x'.repeat(100_000) + 'é';
    assert.equal(table.code('short'), 0);
    assert.equal(table.code(long), 1);
    assert.equal(table.value(1), long);
    table.clear();
    assert.equal(table.size, 0);
    assert.equal(table.find('short'), -1);
    assert.equal(table.code(long), 0);
    assert.equal(table.value(0), long);
  });
});
