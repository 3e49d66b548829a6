import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { collationKey, keyHash, searchWords } from '../../src/read/filter-index/index.js';
// Bounded property runs and failing assertions that report at once (also when run alone).
import '../setup.js';

describe('search words', () => {
  it('ignores case, accents, ligatures and punctuation', () => {
    assert.deepEqual(searchWords('Zürich-based ﬁntech, São Paulo'), ['zurich', 'based', 'fintech', 'sao', 'paulo']);
    assert.deepEqual(searchWords('İSTANBUL ÅDAM Œuvre'), ['istanbul', 'adam', 'œuvre']);
    assert.deepEqual(searchWords('e-commerce/B2B  (R&D) 3.5x'), ['e', 'commerce', 'b2b', 'r', 'd', '3', '5x']);
    assert.deepEqual(searchWords('  --  '), []);
  });

  it('gives the same words when applied to its own output', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 40 }), (text) => {
        const words = searchWords(text);
        assert.deepEqual(searchWords(words.join(' ')), words);
        for (const word of words) assert.deepEqual(searchWords(word), [word]);
      }),
      { numRuns: 2000 },
    );
  });

  it('hashes keys to integers below 2^53, equal keys alike', () => {
    fc.assert(
      fc.property(fc.string(), (key) => {
        const hash = keyHash(key);
        assert.ok(Number.isSafeInteger(hash) && hash >= 0, `${hash}`);
        assert.equal(keyHash(key.slice()), hash);
      }),
    );
    assert.notEqual(keyHash('acme.io'), keyHash('acme.com'));
  });
});

describe('collation key (what text columns order by)', () => {
  it('ignores case, accents and runs of white space; keeps punctuation', () => {
    for (const same of ['Émile Roy', 'emile roy', ' EMILE  ROY ', 'ÉMILE\tRoy', 'Émile Roy'])
      assert.equal(collationKey(same), 'emile roy');
    assert.equal(collationKey('ﬁnance İstanbul'), 'finance istanbul');
    assert.ok(collationKey("O'Brien") < collationKey('Oak'), 'an apostrophe sorts before letters');
    assert.ok(collationKey('Ågren') < collationKey('Beta'));
    assert.equal(collationKey('   '), '');
  });

  it('takes the short way for ASCII text to the same key as the full reduction', () => {
    const full = (text: string) =>
      text
        .toLowerCase()
        .normalize('NFKD')
        .replace(/\p{M}+/gu, '')
        .toLowerCase()
        .replace(/\s+/gu, ' ')
        .trim();
    fc.assert(
      fc.property(
        fc.oneof(fc.string({ unit: 'binary-ascii', maxLength: 30 }), fc.string({ unit: 'grapheme', maxLength: 30 })),
        (text) => {
          assert.equal(collationKey(text), full(text));
          assert.equal(collationKey(collationKey(text)), collationKey(text), 'stable when applied twice');
        },
      ),
    );
  });
});
