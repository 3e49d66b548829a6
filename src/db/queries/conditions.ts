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
  /** column shares an element with values (a text[] column). */
  | { column: keyof Row & string; op: 'overlaps'; values: string[] }
  /** column holds value (a text[] column). */
  | { column: keyof Row & string; op: 'includes'; value: string }
  /** column >= value */
  | { column: keyof Row & string; op: 'atLeast'; value: string | number }
  /** column < value */
  | { column: keyof Row & string; op: 'below'; value: string | number }
  /**
   * Some word of column starts with word. The column holds words joined by single spaces, reduced
   * as `searchWords` reduces them (src/filter-index/text.ts), and so does word.
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
    case 'overlaps':
      return { test: `${c} && ?::text[]`, value: condition.values };
    case 'includes':
      return { test: `${c} @> ARRAY[?::text]`, value: condition.value };
    case 'atLeast':
      return { test: `${c} >= ?::${type}`, value: condition.value };
    case 'below':
      return { test: `${c} < ?::${type}`, value: condition.value };
    case 'wordPrefix':
      // A space before every word, the column's first included: " word" marks the start of one.
      return { test: `(' ' || ${c}) LIKE ?`, value: containsPattern(` ${condition.word}`) };
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
