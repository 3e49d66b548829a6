import type { ColumnSpec, Condition } from '../../src/catalog/index.js';
import { datasetNamed } from '../../src/catalog/registry.js';

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
function sql<Row>(
  condition: Exclude<Condition<Row>, { op: 'linkedFrom' | 'linkedTotal' }>,
  type: ColumnSpec<Row>['type'],
): { test: string; value: unknown } {
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
    case 'fullText':
      return {
        test: `to_tsvector('english'::regconfig, coalesce(${c}::json ->> '${condition.field}', '')) @@ websearch_to_tsquery('english'::regconfig, ?)`,
        value: condition.query,
      };
    case 'wordPrefix':
      // A space before every word, the column's first included: " word" marks the start of one.
      // Hyphens separate words too (slugs); searchWords never leaves one in a word.
      return { test: `(' ' || translate(${c}, '-', ' ')) LIKE ?`, value: containsPattern(` ${condition.word}`) };
  }
}

/**
 * Writes a dataset's conditions as SQL, each "?" numbered as the next $n placeholder. The read
 * path answers filters from the in-memory index; this is the same filter in plain SQL, what the
 * property tests check the index against (the server never runs it).
 */
export function whereClause<Row>(
  columns: readonly ColumnSpec<Row>[],
  conditions: readonly Condition<Row>[],
  params: unknown[] = [],
): WhereClause {
  const clause: WhereClause = { conditions: [], params };
  for (const condition of conditions) {
    const column = columns.find((spec) => spec.name === condition.column);
    if (!column) throw new Error(`no column ${condition.column} to filter on`);
    if (condition.op === 'linkedFrom' || condition.op === 'linkedTotal') {
      clause.conditions.push(`${condition.column} IN (${linkedSql(condition, params)})`);
      continue;
    }
    const { test, value } = sql(condition, column.type);
    clause.params.push(value);
    clause.conditions.push(test.replace('?', `$${clause.params.length}`));
  }
  return clause;
}

/** The ids of the rows a condition on linked records holds for, as a SELECT (its parameters added to `params`). */
function linkedSql<Row>(condition: Extract<Condition<Row>, { op: 'linkedFrom' | 'linkedTotal' }>, params: unknown[]): string {
  const dataset = datasetNamed(condition.dataset);
  if (!dataset) throw new Error(`no dataset ${condition.dataset}`);
  const columns = [...dataset.columns, { name: 'sort_at', type: 'timestamptz' }] as ColumnSpec<Record<string, unknown>>[];
  const where = whereClause(columns, condition.conditions, params).conditions;
  const filtered = (link: string) => [`${link} IS NOT NULL`, ...where].join(' AND ');
  if (condition.op === 'linkedFrom') {
    return condition.links.map((link) => `SELECT ${link} FROM ${dataset.table} WHERE ${filtered(link)}`).join(' UNION ');
  }
  params.push(condition.atLeast);
  return (
    `SELECT ${condition.link} FROM ${dataset.table} WHERE ${filtered(condition.link)} ` +
    `GROUP BY ${condition.link} HAVING sum(${condition.sum}) >= $${params.length}`
  );
}
