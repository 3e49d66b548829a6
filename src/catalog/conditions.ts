/**
 * One test on a column of a dataset's table. A dataset turns its filter into a list of these
 * (all must hold); the read model's filter index evaluates them, and the property tests write
 * them as SQL (test/read-model/sql-conditions.ts) to check the index against. Values are already
 * normalised the way the column was at write time (lower-cased keys, ISO timestamps).
 */
export type Condition<Row> =
  /** column = value */
  | { column: keyof Row & string; op: 'equals'; value: string }
  /** column is one of values (a text column). */
  | { column: keyof Row & string; op: 'in'; values: string[] }
  /** column is none of values (a text column); a null column is none of them. */
  | { column: keyof Row & string; op: 'notIn'; values: string[] }
  /** column shares an element with values (a text[] column). */
  | { column: keyof Row & string; op: 'overlaps'; values: string[] }
  /** column shares no element with values (a text[] column); an empty or null one shares none. */
  | { column: keyof Row & string; op: 'notOverlaps'; values: string[] }
  /** column holds value (a text[] column). */
  | { column: keyof Row & string; op: 'includes'; value: string }
  /** column >= value */
  | { column: keyof Row & string; op: 'atLeast'; value: string | number }
  /** column < value */
  | { column: keyof Row & string; op: 'below'; value: string | number }
  /** column <= value (a null column is not) */
  | { column: keyof Row & string; op: 'atMost'; value: string | number }
  /**
   * Some word of column starts with word. The column holds words joined by single spaces or
   * hyphens (a slug, such as a funding round's name_path), reduced as `searchWords` reduces them
   * (src/catalog/search-words.ts), and so does word.
   */
  | { column: keyof Row & string; op: 'wordPrefix'; word: string }
  /**
   * The text in the document's `field` (column holds the JSON document) matches `query`, PostgreSQL's
   * full-text search in its English configuration with the syntax of `websearch_to_tsquery` (words
   * stemmed, "phrases" in order, OR, a leading - to exclude). The read model asks the database for the
   * matching records, at the position its index stands at (src/read/queries.ts), from `words`: a
   * table of each row's tsvector of that text (to_tsvector('english', coalesce(doc::json ->> field,
   * ''))) by the row's id, under a GIN index, kept by the triggers of a migration.
   */
  | {
      column: keyof Row & string;
      op: 'fullText';
      field: string;
      words: { table: string; idColumn: string; column: string };
      query: string;
      /** The parameter a 400 names. */
      param: string;
    }
  /**
   * Some record of `dataset` that meets `conditions` (on that dataset's columns) is linked to this
   * row through one of its company link columns `links`: column holds the company's id. How a
   * company is filtered by its signals ("raised in the last 90 days").
   */
  | {
      column: keyof Row & string;
      op: 'linkedFrom';
      dataset: string;
      links: readonly string[];
      conditions: readonly Condition<Record<string, unknown>>[];
    }
  /**
   * The records of `dataset` that meet `conditions` and are linked to this row through `link` add up
   * to at least `atLeast` in their column `sum` ("raised at least $10M in all").
   */
  | {
      column: keyof Row & string;
      op: 'linkedTotal';
      dataset: string;
      link: string;
      sum: string;
      atLeast: number;
      conditions: readonly Condition<Record<string, unknown>>[];
    };
