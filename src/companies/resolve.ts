// `dealsignal companies resolve`: links every stored record again, a batch at a time, by today's
// rules and today's companies: after a change of the rules, a companies import that should take
// over records, or records written without resolution (plain SQL, rows stored before it).
// Deterministic: run twice, the second run changes nothing. A dataset whose records carry their
// company's fields (hiring) takes them again from the companies as they are now, filter columns too.
import type { Static, TObject, TSchema } from '@sinclair/typebox';
import { appendFields, DATASETS, type CompanyRow, type Dataset, type DatasetName, type StoredRow } from '../catalog/index.js';
import type { Database, Queryable } from '../platform/db/index.js';
import { CompanyLinker } from './linker.js';
import { adoptedRecord, mentionsOf } from './link-rows.js';
import { deleteUnlinkedCompanies, linkedRowsAfter, updateLinks, updateRows } from './queries.js';

export interface ResolveReport {
  /** Per dataset with links: records read, and records whose links changed. */
  datasets: Partial<Record<DatasetName, { records: number; changed: number }>>;
  /** Companies made or filled along the way. */
  companies: number;
  /** Companies made from records that no record links to any more, deleted at the end. */
  removed: number;
}

export interface ResolveOptions {
  batchRows?: number;
  now?: () => Date;
  /** Writes company rows: ingest's upsert of the companies dataset (ingest uses this capability, not the reverse). */
  upsertCompanies(db: Queryable, rows: readonly CompanyRow[]): Promise<unknown>;
  onProgress?: (dataset: DatasetName, records: number, changed: number) => void;
}

/**
 * Re-links every record of every dataset with links, one transaction per batch; then deletes the
 * companies made from records that none links to any more. That is how a companies import takes
 * over the records of companies made before it: their records now find the imported company first
 * (by the domain or LinkedIn page they share), and the made ones are left with none.
 */
export async function resolveAll(db: Database, options: ResolveOptions): Promise<ResolveReport> {
  const report: ResolveReport = { datasets: {}, companies: 0, removed: 0 };
  for (const dataset of DATASETS) {
    await dataset.withTypes(async (typed) => {
      const counts = await resolveDataset(db, typed, options, report);
      if (counts) report.datasets[dataset.name] = counts;
    });
  }
  const links = DATASETS.flatMap((dataset) =>
    (dataset.links ?? []).map((link) => ({ table: dataset.table, column: link.column })),
  );
  report.removed = await deleteUnlinkedCompanies(db, links);
  return report;
}

async function resolveDataset<Q extends TObject, F, R extends TSchema, Row extends StoredRow>(
  db: Database,
  dataset: Dataset<Q, F, R, Row>,
  options: ResolveOptions,
  report: ResolveReport,
): Promise<{ records: number; changed: number } | undefined> {
  const links = dataset.links ?? [];
  if (links.length === 0) return undefined;
  const columns = links.map((link) => link.column);
  // A dataset that adopts its companies' fields is prepared again: its filter columns follow them.
  const adopts = links.some((link) => link.adopt !== undefined);
  const kept = new Set<string>([dataset.key.column, ...dataset.extras]);
  const written = dataset.columns.filter((column) => !kept.has(column.name));
  const linkFields = new Set(links.flatMap((link) => [link.idField, link.matchField]));
  const linker = new CompanyLinker(db, options.now);
  const counts = { records: 0, changed: 0 };
  for (let afterId = 0; ;) {
    const rows = await linkedRowsAfter(db, dataset.table, columns, afterId, options.batchRows ?? 2000);
    if (rows.length === 0) break;
    afterId = rows.at(-1)!.id;
    // The record as stored, without the fields earlier links appended: JSON.parse's value is the
    // dataset's record as written (held to its schema when imported).
    const records: Static<R>[] = rows.map((row) => {
      const record: Static<R> & Record<string, unknown> = JSON.parse(row.doc);
      for (const field of linkFields) delete record[field];
      return record;
    });
    const { links: resolved, companies: made } = await linker.link(
      records.flatMap((record) => mentionsOf(links, record)),
      db,
      adopts ? 'all' : 'fillable',
    );
    const changed = rows.flatMap((row, i) => {
      const fields: [string, string | null][] = [];
      const found = links.map((_, j) => resolved[i * links.length + j]!);
      const ids = links.map((link, j) => {
        const { companyId, match } = found[j]!;
        fields.push([link.idField, companyId], [link.matchField, match]);
        return companyId;
      });
      const record = adopts
        ? adoptedRecord(
            links,
            records[i]!,
            found.map((link) => link.company),
          )
        : records[i]!;
      const doc = appendFields(JSON.stringify(record), fields);
      const same = doc === row.doc && ids.every((id, j) => id === row[columns[j]!]);
      return same ? [] : [{ id: row.id, record, doc, links: ids }];
    });
    await db.transaction(async (tx) => {
      await options.upsertCompanies(tx, made);
      if (!adopts) return updateLinks(tx, dataset.table, columns, changed);
      const prepared = changed.flatMap((change) => {
        const row = dataset.prepare(change.record, { sourceId: null, status: 'completed' }, { dayStart: '' });
        if (typeof row === 'string') return [];
        const values: Record<string, unknown> = { ...(row as object), doc: change.doc };
        links.forEach((link, j) => (values[link.column] = change.links[j]));
        return [{ id: change.id, values }];
      });
      await updateRows(tx, dataset.table, written, prepared);
    });
    linker.settle();
    report.companies += made.length;
    counts.records += rows.length;
    counts.changed += changed.length;
    options.onProgress?.(dataset.name as DatasetName, counts.records, counts.changed);
  }
  return counts;
}
