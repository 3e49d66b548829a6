// Each dataset's upsert, built from its declaration (table, natural key, columns): the catalog
// says what a dataset is, ingest says how its rows are written.
import type { TObject, TSchema } from '@sinclair/typebox';
import type { Dataset, StoredRow } from '../catalog/index.js';
import { upserter, type Upserter } from './upsert-queries.js';

// Upserter<Row> takes rows, so it is not an Upserter<StoredRow>; each entry is built for its own
// dataset's rows, which upserterOf's signature restores.
const built = new WeakMap<object, Upserter<never>>();

/** Upserts the dataset's rows on its natural key, in one statement per batch; built once per dataset. */
export function upserterOf<Q extends TObject, F, R extends TSchema, Row extends StoredRow>(
  dataset: Dataset<Q, F, R, Row>,
): Upserter<Row> {
  let found = built.get(dataset) as Upserter<Row> | undefined;
  if (!found) {
    found = upserter<Row>({ table: dataset.table, conflictKey: dataset.key.column, columns: [...dataset.columns] });
    built.set(dataset, found);
  }
  return found;
}
