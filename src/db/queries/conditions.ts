import type { ColumnSpec } from './upsert.js';

/**
 * One test on a column of a dataset's table. A dataset turns its filter into a list of these
 * (all must hold); this module writes them as SQL. Values are already normalised the way the
 * column was at write time (lower-cased keys, ISO timestamps).
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
   * (src/filter-index/text.ts), and so does word.
   */
  | { column: keyof Row & string; op: 'wordPrefix'; word: string };

/** The WHERE conditions of a statement, numbered $1..$n, with their parameters. */
export interface WhereClause {
  conditions: string[];
  params: unknown[];
}

/** A LIKE pattern matching the text anywhere, with the user's % and _ taken literally. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
}

/** The SQL of one condition, with "?" for its parameter. */
function sql<Row>(condition: Condition<Row>, type: ColumnSpec<Row>['type']): { test: string; value: unknown } {
  const c = condition.column;
  switch (condition.op) {
    case 'equals':
      return { test: `${c} = ?`, value: condition.value };
    case 'in':
      return { test: `${c} = ANY(?::text[])`, value: condition.values };
    case 'notIn':
      return { test: `(${c} IS NULL OR NOT ${c} = ANY(?::text[]))`, value: condition.values };
    case 'overlaps':
      return { test: `${c} && ?::text[]`, value: condition.values };
    case 'notOverlaps':
      return { test: `NOT coalesce(${c} && ?::text[], false)`, value: condition.values };
    case 'includes':
      return { test: `${c} @> ARRAY[?::text]`, value: condition.value };
    case 'atLeast':
      return { test: `${c} >= ?::${type}`, value: condition.value };
    case 'below':
      return { test: `${c} < ?::${type}`, value: condition.value };
    case 'atMost':
      return { test: `${c} <= ?::${type}`, value: condition.value };
    case 'wordPrefix':
      // A space before every word, the column's first included: " word" marks the start of one.
      // Hyphens separate words too (slugs); searchWords never leaves one in a word.
      return { test: `(' ' || translate(${c}, '-', ' ')) LIKE ?`, value: containsPattern(` ${condition.word}`) };
  }
}

/**
 * Writes a dataset's conditions as SQL, each "?" numbered as the next $n placeholder. The read
 * path answers filters from the in-memory index; this is the same filter in plain SQL, what the
 * index is checked against.
 */
export function whereClause<Row>(columns: readonly ColumnSpec<Row>[], conditions: readonly Condition<Row>[]): WhereClause {
  const clause: WhereClause = { conditions: [], params: [] };
  for (const condition of conditions) {
    const column = columns.find((spec) => spec.name === condition.column);
    if (!column) throw new Error(`no column ${condition.column} to filter on`);
    const { test, value } = sql(condition, column.type);
    clause.params.push(value);
    clause.conditions.push(test.replace('?', `$${clause.params.length}`));
  }
  return clause;
}
