// Company resolution: each company a record names is linked to one company, by its website
// domain, then its LinkedIn page (both `exact`), then its normalised name and country (`fuzzy`).
// A company named by no stored one is made from what the record says (its id a version 5 UUID of
// the key it was found by, so the same records make the same ids); a later record fills the
// company's empty fields and never overwrites one that is set. Among several candidates an
// imported company comes before one made from records, then the oldest row: the same store and
// the same records always give the same links.
//
// A linker serves one import (or one seed): what it made or filled is not committed until the
// import is, so it keeps those companies and finds them again itself.
import {
  companies,
  mentionKeys,
  slugify,
  uuidV5,
  type CompanyKeys,
  type CompanyMention,
  type CompanyRecord,
  type CompanyRow,
  type MatchConfidence,
} from '../catalog/index.js';
import type { Queryable } from '../platform/db/index.js';
import { companiesByKeys, companyDocuments, type CompanyKeyRow } from './queries.js';

/** Ids of companies made from records: version 5 UUIDs of the key they were first found by, in this namespace. */
export const COMPANY_NAMESPACE = '0b7f3c52-6a1e-4d6b-9f0e-5c2a8d41e7b3';

export interface CompanyLink {
  companyId: string | null;
  match: MatchConfidence;
  /** The linked company's record as it stands here: when it was read (see `fetch`'s documents), made or filled. */
  company?: CompanyRecord;
}

/** A company as resolution knows it: its keys, and its record once this linker has read, made or filled it. */
interface Candidate {
  recordId: string;
  /** The table's row id; a company made here comes after every stored one, in the order made. */
  order: number;
  imported: boolean;
  keys: CompanyKeys;
  /** Which fields a record may still fill (they are empty). */
  empty: ReadonlySet<FillField>;
  /** The record as it stands here (read when it may be filled, made or filled here). */
  record?: CompanyRecord;
}

type FillField = 'website' | 'linkedinUrl' | 'headquartersCountry' | 'industry' | 'employeeCount' | 'foundedYear';
const FILL_FIELDS: readonly FillField[] = [
  'website',
  'linkedinUrl',
  'headquartersCountry',
  'industry',
  'employeeCount',
  'foundedYear',
];

const MAX_URL = 2048;
const url = (value: string | null | undefined) => (typeof value === 'string' && value.length <= MAX_URL ? value : null);
const integer = (value: number | null | undefined, min: number, max: number) =>
  typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max ? value : null;
const text = (value: string | null | undefined, max: number) =>
  typeof value === 'string' && value.trim() !== '' ? value.trim().slice(0, max) : null;

/** What a mention says of each field a record may fill. */
function mentionValues(mention: CompanyMention, keys: CompanyKeys): Record<FillField, string | number | null> {
  return {
    website: keys.domain === null ? null : url(mention.website),
    linkedinUrl: keys.linkedin === null ? null : url(mention.linkedinUrl),
    headquartersCountry: keys.country === null ? null : keys.country.toUpperCase(),
    industry: text(mention.industry, 200),
    employeeCount: integer(mention.employeeCount, 0, 100_000_000),
    foundedYear: integer(mention.foundedYear, 1800, 2199),
  };
}

/** The fields a stored company lacks, as a mask: bit i stands for FILL_FIELDS[i]. */
function emptyMask(row: CompanyKeyRow): number {
  return (
    (row.website_key === null ? 1 : 0) |
    (row.linkedin_key === null ? 2 : 0) |
    (row.country_key === null ? 4 : 0) |
    (row.industry_key === null ? 8 : 0) |
    (row.employee_count === null ? 16 : 0) |
    (row.founded_year === null ? 32 : 0)
  );
}

function emptyFields(row: CompanyKeyRow): Set<FillField> {
  const mask = emptyMask(row);
  return new Set(FILL_FIELDS.filter((_, i) => (mask & (1 << i)) !== 0));
}

/** The fields a mention has a value for, as a mask (bit i: FILL_FIELDS[i]). */
function offeredFields(mention: CompanyMention, keys: CompanyKeys): number {
  const values = mentionValues(mention, keys);
  let mask = 0;
  FILL_FIELDS.forEach((field, i) => {
    if (values[field] !== null) mask |= 1 << i;
  });
  return mask;
}

function keysOfRecord(record: CompanyRecord): CompanyKeys {
  return mentionKeys({
    name: record.name,
    website: record.website,
    linkedinUrl: record.linkedinUrl,
    country: record.headquartersCountry,
  });
}

/** The first of several candidates: imported before made from records, then the oldest. */
function first(candidates: readonly Candidate[] | undefined): Candidate | undefined {
  let best: Candidate | undefined;
  for (const candidate of candidates ?? []) {
    if (
      best === undefined ||
      (candidate.imported && !best.imported) ||
      (candidate.imported === best.imported && candidate.order < best.order)
    ) {
      best = candidate;
    }
  }
  return best;
}

/** Candidates by each key they have. */
class KeyIndex {
  readonly domain = new Map<string, Candidate[]>();
  readonly linkedin = new Map<string, Candidate[]>();
  readonly name = new Map<string, Candidate[]>();

  add(candidate: Candidate): void {
    const { domain, linkedin, name } = candidate.keys;
    if (domain !== null) push(this.domain, domain, candidate);
    if (linkedin !== null) push(this.linkedin, linkedin, candidate);
    if (name !== null) push(this.name, name, candidate);
  }

  /** Whether a company other than this one has the key. */
  taken(map: Map<string, Candidate[]>, key: string | null, candidate: Candidate): boolean {
    return key !== null && (map.get(key) ?? []).some((other) => other !== candidate);
  }

  /** The candidate a mention's keys find (how the link is rated is the caller's: see link). */
  find(keys: CompanyKeys): Candidate | undefined {
    const byDomain = keys.domain === null ? undefined : first(this.domain.get(keys.domain));
    if (byDomain) return byDomain;
    const byLinkedin = keys.linkedin === null ? undefined : first(this.linkedin.get(keys.linkedin));
    if (byLinkedin) return byLinkedin;
    if (keys.name === null) return undefined;
    const named = this.name.get(keys.name) ?? [];
    // A record that gives a country matches a company of that country, else one whose country is
    // unknown (a company made from a record that gave none); never one of another country.
    const byName =
      keys.country === null
        ? first(named)
        : (first(named.filter((c) => c.keys.country === keys.country)) ?? first(named.filter((c) => c.keys.country === null)));
    return byName;
  }
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) {
    if (!list.includes(value)) list.push(value);
  } else {
    map.set(key, [value]);
  }
}

export interface LinkedBatch {
  /** One link per mention, in order. */
  links: CompanyLink[];
  /** The companies this batch made or filled, as rows to write before the records. */
  companies: CompanyRow[];
}

/** Whose documents `CompanyLinker.fetch` reads: those a mention may fill, or every candidate's. */
export type LinkedDocuments = 'fillable' | 'all';

/** What `CompanyLinker.fetch` read for a batch of mentions, for `resolve`. */
export interface FetchedCandidates {
  /** Each mention with its keys, in order; null where it names no company. */
  keyed: readonly ({ mention: CompanyMention; keys: CompanyKeys } | null)[];
  /** The stored companies that have one of the mentions' keys. */
  stored: readonly CompanyKeyRow[];
  /** The documents of those a mention may fill, by id. */
  docs: ReadonlyMap<string, string>;
}

export class CompanyLinker {
  /** Companies made or filled by this linker and not yet known to be committed, by id. */
  private local = new Map<string, Candidate>();
  private localIndex = new KeyIndex();
  private made = 0;

  constructor(
    private readonly db: Queryable,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /**
   * Links each mention (null: the record names no company there) to one company, reading the
   * companies through `db`: the import's own transaction when it holds one (a pool may have no
   * other connection to give), else the store.
   */
  async link(
    mentions: readonly (CompanyMention | null)[],
    db: Queryable = this.db,
    documents: LinkedDocuments = 'fillable',
  ): Promise<LinkedBatch> {
    return this.resolve(await this.fetch(mentions, db, documents));
  }

  /**
   * Reads the stored companies these mentions may name: the database half of `link`. It depends on
   * nothing this linker made or filled (its own versions win in `resolve`), so an import may read
   * the next batch's candidates while it still works on this one; each fetched batch must then be
   * resolved in the order the batches were fetched. With `documents: 'all'` every candidate's
   * document is read, so each link carries its company's record (a dataset that adopts the
   * company's fields needs them); else only those a mention may fill.
   */
  async fetch(
    mentions: readonly (CompanyMention | null)[],
    db: Queryable = this.db,
    documents: LinkedDocuments = 'fillable',
  ): Promise<FetchedCandidates> {
    const keyed = mentions.map((mention) => {
      if (mention === null) return null;
      const keys = mentionKeys(mention);
      return keys.domain === null && keys.linkedin === null && keys.name === null ? null : { mention, keys };
    });
    const present = keyed.filter((entry) => entry !== null);
    const domains = new Set<string>();
    const linkedins = new Set<string>();
    const names = new Set<string>();
    // The fields the batch's mentions could fill (a mask of FILL_FIELDS), by each key they have: a
    // stored company's document is read only when a mention that may find it has a value for one
    // of its empty fields.
    const offered = new Map<string, number>();
    const offer = (key: string, fields: number) => offered.set(key, (offered.get(key) ?? 0) | fields);
    for (const { mention, keys } of present) {
      const fields = offeredFields(mention, keys);
      if (keys.domain !== null) {
        domains.add(keys.domain);
        if (fields !== 0) offer(`d:${keys.domain}`, fields);
      }
      if (keys.linkedin !== null) {
        linkedins.add(keys.linkedin);
        if (fields !== 0) offer(`l:${keys.linkedin}`, fields);
      }
      if (keys.name !== null) {
        names.add(keys.name);
        if (fields !== 0) offer(`n:${keys.name}`, fields);
      }
    }
    const stored = await companiesByKeys(db, { domains: [...domains], linkedins: [...linkedins], names: [...names] });
    // A company this linker made or filled stays its own (it only forgets them in settle, between
    // batches that are not read ahead), so its stored document is not needed.
    const mayFill = (row: CompanyKeyRow) => {
      if (this.local.has(row.record_id)) return false;
      const empty = emptyMask(row);
      return (
        empty !== 0 &&
        (((offered.get(`d:${row.website_key}`) ?? 0) & empty) !== 0 ||
          ((offered.get(`l:${row.linkedin_key}`) ?? 0) & empty) !== 0 ||
          ((offered.get(`n:${row.name_key}`) ?? 0) & empty) !== 0)
      );
    };
    const wanted = documents === 'all' ? stored.filter((row) => !this.local.has(row.record_id)) : stored.filter(mayFill);
    const docs = await companyDocuments(
      db,
      wanted.map((row) => row.record_id),
    );
    return { keyed, stored, docs };
  }

  /** Links the fetched mentions: the work of `link` after its reads, on this linker's own state. */
  resolve({ keyed, stored, docs }: FetchedCandidates): LinkedBatch {
    const index = this.candidates(keyed, stored, docs);
    const touched = new Set<Candidate>();
    const linked: (Candidate | undefined)[] = [];
    const links = keyed.map((entry): CompanyLink => {
      linked.push(undefined);
      if (entry === null) return { companyId: null, match: 'none' };
      const found = index.find(entry.keys);
      const candidate = found ?? this.make(entry.mention, entry.keys);
      if (found === undefined || this.fill(candidate, entry.mention, entry.keys, index)) {
        touched.add(candidate);
        index.add(candidate);
      }
      // Exact when the company has the record's website or LinkedIn page (found by it, or given it
      // here): so an import of the same records again, which finds it by that key, links it the same.
      const { domain, linkedin } = entry.keys;
      const shared =
        (domain !== null && candidate.keys.domain === domain) || (linkedin !== null && candidate.keys.linkedin === linkedin);
      linked[linked.length - 1] = candidate;
      return { companyId: candidate.recordId, match: shared ? 'exact' : 'fuzzy' };
    });
    // Each link's company as the whole batch left it: a record later in the batch may fill it.
    links.forEach((link, i) => {
      const record = linked[i]?.record;
      if (record !== undefined) link.company = record;
    });
    const rows = [...touched].map((candidate) => {
      const row = companies.prepare(candidate.record!, { sourceId: null, status: 'completed' }, { dayStart: '' });
      if (typeof row === 'string') throw new Error(`company ${candidate.recordId}: ${row}`);
      return { ...row, origin: candidate.imported ? 'import' : 'records' } satisfies CompanyRow;
    });
    return { links, companies: rows };
  }

  /**
   * Forgets what this linker made and filled: call it once they are committed (a seed's batch),
   * where the store's reads find them.
   */
  settle(): void {
    this.local = new Map();
    this.localIndex = new KeyIndex();
  }

  /** The stored and the local candidates of these keys, indexed; the local version of a company wins. */
  private candidates(
    keyed: FetchedCandidates['keyed'],
    stored: readonly CompanyKeyRow[],
    docs: ReadonlyMap<string, string>,
  ): KeyIndex {
    const index = new KeyIndex();
    for (const row of stored) {
      if (this.local.has(row.record_id)) continue;
      const doc = docs.get(row.record_id);
      index.add({
        recordId: row.record_id,
        order: row.id,
        imported: row.origin === 'import',
        keys: { domain: row.website_key, linkedin: row.linkedin_key, name: row.name_key, country: row.country_key },
        empty: doc === undefined ? new Set() : emptyFields(row),
        record: doc === undefined ? undefined : (JSON.parse(doc) as CompanyRecord),
      });
    }
    for (const entry of keyed) {
      if (entry === null) continue;
      const k = entry.keys;
      if (k.domain !== null) for (const candidate of this.localIndex.domain.get(k.domain) ?? []) index.add(candidate);
      if (k.linkedin !== null) for (const candidate of this.localIndex.linkedin.get(k.linkedin) ?? []) index.add(candidate);
      if (k.name !== null) for (const candidate of this.localIndex.name.get(k.name) ?? []) index.add(candidate);
    }
    return index;
  }

  /** Fills the candidate's empty fields from the mention; true when one changed. */
  private fill(candidate: Candidate, mention: CompanyMention, keys: CompanyKeys, index: KeyIndex): boolean {
    if (candidate.record === undefined || candidate.empty.size === 0) return false;
    const values = mentionValues(mention, keys);
    // A website or LinkedIn page another company has stays that company's: one company per key.
    if (index.taken(index.domain, keys.domain, candidate)) values.website = null;
    if (index.taken(index.linkedin, keys.linkedin, candidate)) values.linkedinUrl = null;
    const record: CompanyRecord = { ...candidate.record };
    const empty = new Set(candidate.empty);
    for (const field of FILL_FIELDS) {
      const value = values[field];
      if (!empty.has(field) || value === null) continue;
      (record as Record<FillField, unknown>)[field] = value;
      empty.delete(field);
    }
    if (empty.size === candidate.empty.size) return false;
    // An industry filled here is a category too, as on a company made from a record.
    if (candidate.empty.has('industry') && record.industry !== null && !record.categories.includes(record.industry)) {
      record.categories = [record.industry, ...record.categories];
    }
    record.updatedAt = this.now().toISOString();
    candidate.record = record;
    candidate.empty = empty;
    candidate.keys = keysOfRecord(record);
    this.remember(candidate);
    return true;
  }

  /** A new company from what the mention says, under the first key it has. */
  private make(mention: CompanyMention, keys: CompanyKeys): Candidate {
    const identity =
      keys.domain !== null
        ? `domain:${keys.domain}`
        : keys.linkedin !== null
          ? `linkedin:${keys.linkedin}`
          : `name:${keys.name}|${keys.country ?? ''}`;
    const id = uuidV5(COMPANY_NAMESPACE, identity);
    const values = mentionValues(mention, keys);
    const name = text(mention.name, 300) ?? keys.domain ?? keys.linkedin!;
    const at = this.now().toISOString();
    const industry = values.industry as string | null;
    const record: CompanyRecord = {
      id,
      name,
      slug: `${slugify(name).slice(0, 280) || 'company'}-${id.slice(0, 8)}`,
      description: text(mention.description, 5000),
      website: values.website as string | null,
      linkedinUrl: values.linkedinUrl as string | null,
      twitterUrl: url(mention.twitterUrl),
      logoUrl: url(mention.logoUrl),
      industry,
      foundedYear: values.foundedYear as number | null,
      headquartersCountry: values.headquartersCountry as string | null,
      employeeCount: values.employeeCount as number | null,
      categories: industry === null ? [] : [industry],
      keywords: [],
      specialties: [],
      growthInfo: null,
      companySubcategory: null,
      createdAt: at,
      updatedAt: at,
    };
    const candidate: Candidate = {
      recordId: id,
      order: Number.MAX_SAFE_INTEGER - 1_000_000_000 + this.made++,
      imported: false,
      keys: keysOfRecord(record),
      empty: new Set(FILL_FIELDS.filter((field) => record[field] === null)),
      record,
    };
    this.remember(candidate);
    return candidate;
  }

  private remember(candidate: Candidate): void {
    this.local.set(candidate.recordId, candidate);
    this.localIndex.add(candidate);
  }
}
