// The links of written rows: each row's mentions resolved (CompanyLinker) and the result kept in
// the row, in the link's column and as the fields appended to its served document. A dataset whose
// links adopt the company's fields (CompanyLinkSpec.adopt) has its rows prepared again from the
// record with the linked companies' values, so what is served and what is filtered on agree.
import {
  appendFields,
  type CompanyLinkSpec,
  type CompanyMention,
  type CompanyRecord,
  type CompanyRow,
  type Dataset,
  type PrepareContext,
  type RecordExtras,
  type StoredRow,
} from '../catalog/index.js';
import type { TObject, TSchema, Static } from '@sinclair/typebox';
import type { Queryable } from '../platform/db/index.js';
import type { CompanyLinker, FetchedCandidates } from './linker.js';

/** Where a link is kept: what writing it needs of its declaration. */
type LinkColumns = Pick<CompanyLinkSpec<unknown>, 'column' | 'idField' | 'matchField'>;

/** A row about to be written, with what its record says of each company it names (one per link). */
export interface RowMentions<Row> {
  row: Row;
  mentions: readonly (CompanyMention | null)[];
  /**
   * The row prepared again from its record with the linked companies' fields (one per link,
   * undefined where none is linked or known); undefined keeps the row. Present when a link adopts.
   */
  adopt?: (companies: readonly (CompanyRecord | undefined)[]) => Row | undefined;
}

/**
 * Resolves the mentions of these rows and writes each link into its row. Returns the companies
 * made or filled, to write before the rows (in the same transaction, or the same import).
 */
export async function linkRows<Row extends StoredRow>(
  linker: CompanyLinker,
  links: readonly LinkColumns[],
  entries: RowMentions<Row>[],
  /** Where the companies are read: the writer's transaction when it holds one (see CompanyLinker.link). */
  db?: Queryable,
): Promise<CompanyRow[]> {
  return applyLinks(linker, links, entries, await fetchLinks(linker, links, entries, db));
}

/** The reads of `linkRows`, which may run ahead of the batches before (see CompanyLinker.fetch). */
export async function fetchLinks<Row extends StoredRow>(
  linker: CompanyLinker,
  links: readonly LinkColumns[],
  entries: readonly RowMentions<Row>[],
  db?: Queryable,
): Promise<FetchedCandidates | undefined> {
  if (entries.length === 0 || links.length === 0) return undefined;
  return linker.fetch(
    entries.flatMap((entry) => entry.mentions),
    db,
    entries.some((entry) => entry.adopt !== undefined) ? 'all' : 'fillable',
  );
}

/** The rest of `linkRows` once its reads are done, in the order the batches were fetched. */
export function applyLinks<Row extends StoredRow>(
  linker: CompanyLinker,
  links: readonly LinkColumns[],
  entries: RowMentions<Row>[],
  fetched: FetchedCandidates | undefined,
): CompanyRow[] {
  if (fetched === undefined) return [];
  const { links: resolved, companies } = linker.resolve(fetched);
  entries.forEach((entry, i) => {
    const found = links.map((_, j) => resolved[i * links.length + j]!);
    if (entry.adopt) entry.row = entry.adopt(found.map((link) => link.company)) ?? entry.row;
    const row = entry.row;
    const fields: [string, string | null][] = [];
    links.forEach((link, j) => {
      const { companyId, match } = found[j]!;
      (row as Record<string, unknown>)[link.column] = companyId;
      fields.push([link.idField, companyId], [link.matchField, match]);
    });
    row.doc = appendFields(row.doc, fields);
  });
  return companies;
}

/** What a record says of each company it names, in the order of the dataset's links. */
export const mentionsOf = <R>(links: readonly CompanyLinkSpec<R>[] | undefined, record: R): (CompanyMention | null)[] =>
  (links ?? []).map((link) => link.mention(record));

/** The record with the linked companies' fields, for the links that adopt them (the record itself when none does). */
export function adoptedRecord<R>(
  links: readonly CompanyLinkSpec<R>[],
  record: R,
  companies: readonly (CompanyRecord | undefined)[],
): R {
  let adopted = record;
  links.forEach((link, j) => {
    const company = companies[j];
    if (link.adopt && company !== undefined) adopted = link.adopt(adopted, company);
  });
  return adopted;
}

/**
 * The `adopt` of a row of this record (see RowMentions), or undefined when no link of the dataset
 * adopts: the record prepared again as the first time, with the companies' fields.
 */
export function adoptionOf<Q extends TObject, F, R extends TSchema, Row extends StoredRow>(
  dataset: Dataset<Q, F, R, Row>,
  record: Static<R>,
  extras: RecordExtras,
  context: PrepareContext,
): RowMentions<Row>['adopt'] {
  const links = dataset.links ?? [];
  if (!links.some((link) => link.adopt !== undefined)) return undefined;
  return (companies) => {
    const adopted = adoptedRecord(links, record, companies);
    if (adopted === record) return undefined;
    const row = dataset.prepare(adopted, extras, context);
    // The record was valid as sent; one the company's values would make invalid keeps its own.
    return typeof row === 'string' ? undefined : row;
  };
}
