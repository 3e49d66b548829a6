// A dataset's filter as the in-memory index reads it: its conditions (the same ones the property
// tests evaluate as plain SQL, test/read-model/sql-conditions.ts) as index terms, and its stored rows as index records.
import type { TObject, TSchema } from '@sinclair/typebox';
import { invalidParameter, type Condition } from '../catalog/index.js';
import type { IndexRow, IndexSource } from './queries.js';
import type { ColumnSpec, IndexFilter, IndexRecord, KeyValues, SortOrder, Term } from './filter-index/index.js';
import type { Dataset, RowOrder, StoredRow } from '../catalog/index.js';

type AnyCondition = Condition<Record<string, unknown>>;

/** A condition on the records of another dataset linked to this one's rows (a company's signals). */
export type LinkedCondition = Extract<AnyCondition, { op: 'linkedFrom' | 'linkedTotal' }>;

/**
 * The rows a linked condition holds for, as a term on the linking key column without its column:
 * their keys (as hashes, see FilterIndex.keysOf), or a value per key and the least one that holds.
 */
export type LinkedTerm = { hashes: Float64Array } | { keyValues: KeyValues; least: number };
export type LinkedKeys = (condition: LinkedCondition) => LinkedTerm;

/** A full-text condition: answered by the database, then handed to the index as the ids of the rows it holds. */
export type FullTextCondition = Extract<AnyCondition, { op: 'fullText' }>;
/**
 * The ids of the rows a full-text condition holds for, as an id set (bit `id` set), and how it is made
 * of its pieces' sets: the index's `ids` term.
 */
export type FullTextIds = (condition: FullTextCondition) => Extract<Term, { ids: Uint32Array }>;

/** Any dataset, whatever its types: what the read model keeps per dataset. */
export interface IndexedDataset {
  name: string;
  /** The index's columns. */
  columns: ColumnSpec[];
  /** Where the rows come from: the table and the types of the columns read. */
  source: IndexSource;
  /**
   * `linked` answers the conditions on other datasets' records (the read model, which holds every index);
   * `fullText` the full-text conditions, as the ids of the rows the database found.
   */
  indexFilter(conditions: readonly AnyCondition[], linked?: LinkedKeys, fullText?: FullTextIds): IndexFilter;
  /** A row order as the index takes it: undefined for its own (sort_at DESC, id DESC). */
  indexOrder(order: { column: string; direction: RowOrder<unknown>['direction'] } | undefined): SortOrder | undefined;
}

/** Reads a condition on `sort_at` (a bound of the index's order) or on an indexed column (a term). */
export function indexedDataset<Q extends TObject, F, R extends TSchema, Row extends StoredRow>(
  dataset: Dataset<Q, F, R, Row>,
): IndexedDataset {
  const kinds = dataset.indexed as Readonly<Record<string, ColumnSpec['kind'] | undefined>>;
  // Number columns are the amounts and counts pages are ordered by: the index keeps their order.
  const columns = Object.entries(kinds).map(([name, kind]) => ({
    name,
    kind: kind!,
    ...(kind === 'number' && { sorted: true }),
  }));
  const source: IndexSource = {
    table: dataset.table,
    columns: columns.map(({ name }) => {
      const spec = dataset.columns.find((column) => column.name === name);
      if (!spec) throw new Error(`${dataset.name}: indexed column ${name} is not a column of ${dataset.table}`);
      return { name, type: spec.type };
    }),
  };
  return {
    name: dataset.name,
    columns,
    source,
    indexFilter(conditions, linked, fullText) {
      let sortFrom = -Infinity;
      let sortBefore = Infinity;
      const terms: Term[] = [];
      for (const condition of conditions) {
        const column = condition.column;
        if (column === 'sort_at') {
          if (condition.op === 'atLeast') sortFrom = Math.max(sortFrom, Date.parse(String(condition.value)));
          else if (condition.op === 'below') sortBefore = Math.min(sortBefore, Date.parse(String(condition.value)));
          else throw new Error(`${dataset.name}: sort_at is filtered by atLeast or below, not ${condition.op}`);
          continue;
        }
        if (condition.op === 'fullText') {
          // The database answers it for a list request; a webhook's filter tests each record in memory.
          if (fullText === undefined) {
            throw invalidParameter(
              `${condition.param}: full-text search answers list requests, not webhook filters`,
              condition.param,
            );
          }
          terms.push(fullText(condition));
          continue;
        }
        const kind = kinds[column];
        if (kind === undefined) throw new Error(`${dataset.name}: ${column} is filtered but not indexed`);
        if (condition.op === 'linkedFrom' || condition.op === 'linkedTotal') {
          if (kind !== 'key' || linked === undefined) throw new Error(`${dataset.name}: ${column} cannot take linked records`);
          terms.push({ column, ...linked(condition) });
          continue;
        }
        terms.push(term(condition, kind));
      }
      return { sortFrom, sortBefore, terms };
    },
    indexOrder(order) {
      if (order === undefined) return undefined;
      if (order.column === 'sort_at') return order.direction === 'desc' ? undefined : { direction: 'asc' };
      const kind = kinds[order.column];
      if (kind !== 'number' && kind !== 'text')
        throw new Error(`${dataset.name}: ${order.column} is not indexed as number or text`);
      return { column: order.column, direction: order.direction };
    },
  };
}

function term(condition: Exclude<AnyCondition, LinkedCondition | FullTextCondition>, kind: ColumnSpec['kind']): Term {
  const { column } = condition;
  switch (condition.op) {
    case 'equals':
    case 'includes':
      return kind === 'key' ? { column, equals: condition.value } : { column, anyOf: [condition.value] };
    case 'in':
    case 'overlaps':
      return { column, anyOf: condition.values };
    case 'notIn':
    case 'notOverlaps':
      return { column, noneOf: condition.values };
    case 'atLeast':
      return { column, min: numberOf(condition.value) };
    case 'atMost':
      return { column, max: numberOf(condition.value) };
    case 'wordPrefix':
      return { column, words: [condition.word] };
    case 'below':
      throw new Error(`${column}: an upper bound is only supported on sort_at`);
  }
}

/** A stored row's values as an index record. */
export function indexRecord(row: IndexRow): IndexRecord {
  const { id, sort_ms, ...values } = row;
  return { id, sortAt: sort_ms, values };
}

/** A bound as a number column holds it: a number as given, a timestamp (ISO text) as ms since the epoch. */
function numberOf(value: string | number): number {
  const number = Number(value);
  return typeof value === 'string' && Number.isNaN(number) ? Date.parse(value) : number;
}
