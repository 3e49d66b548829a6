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
  | { column: keyof Row & string; op: 'in'; values: string[]; broad?: boolean }
  /** column shares an element with values (a text[] column). */
  | { column: keyof Row & string; op: 'overlaps'; values: string[]; broad?: boolean }
  /** column holds value (a text[] column). */
  | { column: keyof Row & string; op: 'includes'; value: string }
  /** column >= value */
  | { column: keyof Row & string; op: 'atLeast'; value: string | number }
  /** column < value */
  | { column: keyof Row & string; op: 'below'; value: string | number }
  /** column contains text, matched literally (a lower-cased text column). */
  | { column: keyof Row & string; op: 'contains'; text: string };

/** The WHERE conditions of a page statement, numbered $1..$n, with their parameters. */
export interface WhereClause {
  conditions: string[];
  /**
   * The same conditions where each broad one is written so no index applies (`(col || '') = ...`).
   * When the exact count shows a filter matches many rows, the page is found with this form: the
   * planner then walks the newest-first index and stops after one page, instead of collecting
   * every match through a bitmap and sorting it, which is what its estimates (blind to
   * correlated columns and substring matches) otherwise lead it to.
   */
  walkConditions: string[];
  params: unknown[];
}

/** A LIKE pattern matching the text anywhere, with the user's % and _ taken literally. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
}

/** The SQL of one condition, with "?" for its parameter, and its walking form. */
function sql<Row>(condition: Condition<Row>, type: ColumnSpec<Row>['type']): { test: string; walk: string; value: unknown } {
  const c = condition.column;
  // A broad filter's walking form: the same test on an expression no index covers.
  const unindexed = type === 'text[]' ? `(${c} || '{}'::text[])` : `(${c} || '')`;
  switch (condition.op) {
    case 'equals':
      return { test: `${c} = ?`, walk: `${c} = ?`, value: condition.value };
    case 'in':
      return {
        test: `${c} = ANY(?::text[])`,
        walk: condition.broad ? `${unindexed} = ANY(?::text[])` : `${c} = ANY(?::text[])`,
        value: condition.values,
      };
    case 'overlaps':
      return {
        test: `${c} && ?::text[]`,
        walk: condition.broad ? `${unindexed} && ?::text[]` : `${c} && ?::text[]`,
        value: condition.values,
      };
    case 'includes':
      return { test: `${c} @> ARRAY[?::text]`, walk: `${c} @> ARRAY[?::text]`, value: condition.value };
    case 'atLeast':
      return { test: `${c} >= ?::${type}`, walk: `${c} >= ?::${type}`, value: condition.value };
    case 'below':
      return { test: `${c} < ?::${type}`, walk: `${c} < ?::${type}`, value: condition.value };
    case 'contains':
      return { test: `${c} LIKE ?`, walk: `${c} LIKE ?`, value: containsPattern(condition.text) };
  }
}

/** Writes a dataset's conditions as SQL, each "?" numbered as the next $n placeholder. */
export function whereClause<Row>(columns: readonly ColumnSpec<Row>[], conditions: readonly Condition<Row>[]): WhereClause {
  const clause: WhereClause = { conditions: [], walkConditions: [], params: [] };
  for (const condition of conditions) {
    const column = columns.find((spec) => spec.name === condition.column);
    if (!column) throw new Error(`no column ${condition.column} to filter on`);
    const { test, walk, value } = sql(condition, column.type);
    clause.params.push(value);
    const placeholder = `$${clause.params.length}`;
    clause.conditions.push(test.replace('?', placeholder));
    clause.walkConditions.push(walk.replace('?', placeholder));
  }
  return clause;
}
