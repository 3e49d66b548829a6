// The links of written rows: each row's mentions resolved (CompanyLinker) and the result kept in
// the row, in the link's column and as the fields appended to its served document.
import { appendFields, type CompanyLinkSpec, type CompanyMention, type CompanyRow, type StoredRow } from '../catalog/index.js';
import type { Queryable } from '../platform/db/index.js';
import type { CompanyLinker, FetchedCandidates } from './linker.js';

/** A row about to be written, with what its record says of each company it names (one per link). */
export interface RowMentions<Row> {
  row: Row;
  mentions: readonly (CompanyMention | null)[];
}

/**
 * Resolves the mentions of these rows and writes each link into its row. Returns the companies
 * made or filled, to write before the rows (in the same transaction, or the same import).
 */
export async function linkRows<Row extends StoredRow>(
  linker: CompanyLinker,
  links: readonly CompanyLinkSpec<never>[],
  entries: readonly RowMentions<Row>[],
  /** Where the companies are read: the writer's transaction when it holds one (see CompanyLinker.link). */
  db?: Queryable,
): Promise<CompanyRow[]> {
  return applyLinks(linker, links, entries, await fetchLinks(linker, links, entries, db));
}

/** The reads of `linkRows`, which may run ahead of the batches before (see CompanyLinker.fetch). */
export async function fetchLinks<Row extends StoredRow>(
  linker: CompanyLinker,
  links: readonly CompanyLinkSpec<never>[],
  entries: readonly RowMentions<Row>[],
  db?: Queryable,
): Promise<FetchedCandidates | undefined> {
  if (entries.length === 0 || links.length === 0) return undefined;
  return linker.fetch(
    entries.flatMap((entry) => entry.mentions),
    db,
  );
}

/** The rest of `linkRows` once its reads are done, in the order the batches were fetched. */
export function applyLinks<Row extends StoredRow>(
  linker: CompanyLinker,
  links: readonly CompanyLinkSpec<never>[],
  entries: readonly RowMentions<Row>[],
  fetched: FetchedCandidates | undefined,
): CompanyRow[] {
  if (fetched === undefined) return [];
  const { links: resolved, companies } = linker.resolve(fetched);
  entries.forEach(({ row }, i) => {
    const fields: [string, string | null][] = [];
    links.forEach((link, j) => {
      const { companyId, match } = resolved[i * links.length + j]!;
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
