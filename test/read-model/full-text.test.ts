// A full-text question answered piece by piece (each word and phrase read from the database on its
// own, the question's tree evaluated over their id sets, src/read/full-text.ts) holds for exactly the
// rows PostgreSQL's `@@ websearch_to_tsquery` holds for, on both stores: random texts and random
// questions in the published syntax (words, OR, a leading -, "quoted phrases", stray punctuation).
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import fc from 'fast-check';
import type { Database } from '../../src/platform/db/index.js';
import { bitsOf, evaluate, keptIdsOfList, parseTsQuery, piecesOf, type IdSet } from '../../src/read/full-text.js';
import { fullTextIdsWithHead, websearchTsQuery } from '../../src/read/queries.js';
import { describeEach } from '../helpers.js';

// Stems shared by several words, stop words, hyphenated and quoted words, a number.
const WORDS = [
  'engineer',
  'engineers',
  'engineering',
  'kubernetes',
  'terraform',
  'quota',
  'gdpr',
  'series',
  'b',
  'intern',
  'internship',
  'full-stack',
  'stack',
  "o'neil",
  'the',
  'and',
  'of',
  'remote',
  'sales',
  '2026',
];
const SOURCE = { table: 'ft_docs', words: { table: 'ft_words', idColumn: 'doc_id', column: 'words' } };

const textArb = fc.array(fc.constantFrom(...WORDS, ',', '.'), { minLength: 0, maxLength: 12 }).map((words) => words.join(' '));
const tokenArb = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...WORDS) },
  { weight: 2, arbitrary: fc.constantFrom(...WORDS).map((word) => `-${word}`) },
  { weight: 2, arbitrary: fc.constant('OR') },
  {
    weight: 2,
    arbitrary: fc
      .array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 3 })
      .chain((words) => fc.constantFrom(`"${words.join(' ')}"`, `-"${words.join(' ')}"`)),
  },
  fc.constantFrom('(', ')', '-', '"', 'or', ':', '&', '!'),
);
const questionArb = fc.array(tokenArb, { minLength: 1, maxLength: 5 }).map((tokens) => tokens.join(' '));

function idsOf(set: IdSet): number[] {
  const ids: number[] = [];
  for (let id = 0; id < set.length * 32; id++) if ((set[id >>> 5]! & (1 << (id & 31))) !== 0) ids.push(id);
  return ids;
}

describeEach('full-text questions answered piece by piece agree with PostgreSQL', (backend) => {
  let db: Database;
  before(async () => {
    db = await backend.openMigrated();
    // As the hiring postings keep their descriptions' words (migration 023): a table of them by id.
    await db.exec(`CREATE TABLE ft_docs (id bigint PRIMARY KEY, doc text NOT NULL);
      CREATE TABLE ft_words (doc_id bigint PRIMARY KEY, words tsvector NOT NULL);
      CREATE INDEX ft_words_words ON ft_words USING gin (words)`);
    const texts = fc.sample(fc.option(textArb, { freq: 8 }), { seed: 27, numRuns: 120 });
    for (const [i, text] of texts.entries()) {
      await db.query('INSERT INTO ft_docs (id, doc) VALUES ($1, $2)', [
        // Ids past the first words of a set, and one gap: an id set is sized by its largest id.
        i < 100 ? i + 1 : 1000 + i,
        JSON.stringify(text === null ? { title: 'no description' } : { descriptionText: text }),
      ]);
    }
    await db.exec(`INSERT INTO ft_words (doc_id, words)
      SELECT id, to_tsvector('english'::regconfig, coalesce(doc::json ->> 'descriptionText', '')) FROM ft_docs`);
  });
  after(() => db?.close());

  it('every random question holds for the same rows', async () => {
    let answered = 0;
    let withRows = 0;
    await fc.assert(
      fc.asyncProperty(questionArb, async (question) => {
        const expected = await db.query<{ id: number }>(
          `SELECT id::int AS id FROM ft_docs
            WHERE to_tsvector('english'::regconfig, coalesce(doc::json ->> 'descriptionText', ''))
                  @@ websearch_to_tsquery('english'::regconfig, $1)
            ORDER BY id`,
          [question],
        );
        const tree = parseTsQuery(await websearchTsQuery(db, question));
        if (tree === null) {
          // No word to search for (the API's 400): PostgreSQL's empty query holds for no row either.
          assert.deepEqual(expected, []);
          return;
        }
        const pieces = piecesOf(tree);
        const read = await fullTextIdsWithHead(db, SOURCE, pieces);
        const sets = new Map(pieces.map((piece, i) => [piece, bitsOf(keptIdsOfList(read.ids[i]!))]));
        assert.deepEqual(
          idsOf(evaluate(tree, sets)),
          expected.map((row) => row.id),
          question,
        );
        answered++;
        if (expected.length > 0) withRows++;
      }),
      { seed: 2027, numRuns: 250 },
    );
    assert.ok(answered > 150 && withRows > 60, `${answered} questions answered, ${withRows} with rows`);
  });

  it('reads PostgreSQL’s printed tsqueries: precedence, phrases, negations and quotes', () => {
    assert.deepEqual(parseTsQuery(`'kubernet' | 'terraform' & !'intern'`), {
      op: 'or',
      args: [
        { op: 'piece', text: `'kubernet'` },
        {
          op: 'and',
          args: [
            { op: 'piece', text: `'terraform'` },
            { op: 'not', arg: { op: 'piece', text: `'intern'` } },
          ],
        },
      ],
    });
    assert.deepEqual(parseTsQuery(`'kubernet' & !( 'custom' <-> 'success' )`), {
      op: 'and',
      args: [
        { op: 'piece', text: `'kubernet'` },
        { op: 'not', arg: { op: 'piece', text: `( 'custom' <-> 'success' )` } },
      ],
    });
    assert.deepEqual(parseTsQuery(`'o''neil' <2> 'x':*`), { op: 'piece', text: `( 'o''neil' <2> 'x':* )` });
    assert.equal(parseTsQuery(''), null);
    assert.deepEqual(piecesOf(parseTsQuery(`!'intern'`)!), ['', `'intern'`]);
    assert.throws(() => parseTsQuery(`'unterminated`), SyntaxError);
  });

  it('keeps a sparse piece as its ids and a dense one as bits, the same set either way', () => {
    const sparse = keptIdsOfList('700,5,3');
    assert.ok('list' in sparse && [...sparse.list].join() === '3,5,700');
    assert.deepEqual(idsOf(bitsOf(sparse)), [3, 5, 700]);
    const dense = keptIdsOfList(Array.from({ length: 40 }, (_, i) => 63 - i).join(','));
    assert.ok('bits' in dense);
    assert.deepEqual(
      idsOf(bitsOf(dense)),
      Array.from({ length: 40 }, (_, i) => 24 + i),
    );
    assert.deepEqual(idsOf(bitsOf(keptIdsOfList(null))), []);
  });
});
