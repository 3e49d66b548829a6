// A row's filter and sort values as the in-memory filter index and the webhook matcher take them:
// numbers as doubles and timestamps in ms since the epoch, so no caller converts them again.
import type { ColumnSpec } from '../../catalog/index.js';

export type ValueColumnType = ColumnSpec<never>['type'];

/** The expression reading `column` (qualified or not) as an index value. */
export function indexValueSql(column: string, type: ValueColumnType): string {
  if (type === 'bigint') return `${column}::float8`;
  if (type === 'timestamptz') return `(extract(epoch FROM ${column}) * 1000)::float8`;
  return column;
}
