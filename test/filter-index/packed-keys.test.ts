// Sorted keys packed in typed arrays (sort keys and search words) answer as the sorted strings do.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { PackedKeys } from '../../src/read/filter-index/packed-keys.js';
import { Slicer } from '../../src/read/filter-index/time-slicer.js';
import '../setup.js';

/** Keys of one to three characters from a small alphabet, with and without characters above U+00FF. */
const keysArb = fc
  .uniqueArray(fc.string({ unit: fc.constantFrom('a', 'b', 'é', 'z', 'ß', 'Ω', '中', ' '), minLength: 0, maxLength: 3 }), {
    maxLength: 40,
  })
  .map((keys) => keys.sort());

// A slicer that never pauses: the runs follow each other at once.
const noPauses = new Slicer(Infinity);
const pack = (keys: readonly string[]) => PackedKeys.packInRuns(keys, noPauses);

describe('packed keys', () => {
  it('read, compare, search and find prefixes as the sorted strings do, shared or not', async () => {
    await fc.assert(
      fc.asyncProperty(
        keysArb,
        fc.string({ unit: fc.constantFrom('a', 'b', 'é', 'z', 'Ω'), maxLength: 3 }),
        async (keys, probe) => {
          const packed = await pack(keys);
          // Through postMessage's structured clone, its arrays in SharedArrayBuffers.
          const copy = PackedKeys.fromImage(structuredClone(packed.shared().image()));
          for (const each of [packed, copy]) {
            assert.equal(each.length, keys.length);
            assert.deepEqual(await each.toArrayInRuns(noPauses), keys);
            const lower = keys.findIndex((key) => key >= probe);
            assert.equal(each.lowerBound(probe), lower < 0 ? keys.length : lower);
            assert.equal(each.indexOf(probe), keys.indexOf(probe));
            const prefixed = keys.flatMap((key, i) => (key.startsWith(probe) ? [i] : []));
            const [first, last] = each.prefixRange(probe);
            assert.deepEqual(
              Array.from({ length: last - first }, (_, k) => first + k),
              prefixed,
            );
            keys.forEach((key, i) => assert.equal(Math.sign(each.compare(i, probe)), key < probe ? -1 : key > probe ? 1 : 0));
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('keeps one byte a character unless a key needs two', async () => {
    const narrow = await pack(['café', 'zürich']);
    const wide = await pack(['café', 'Ωmega']);
    // Offsets (3 × 4 bytes) and a fixed 16, then the characters: 10 of one byte, or 9 of two.
    assert.equal(narrow.bytes(), 12 + 16 + 10);
    assert.equal(wide.bytes(), 12 + 16 + 18);
  });
});
