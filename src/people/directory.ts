// The people directory: every person the stored records name, one per identity (LinkedIn profile,
// else name at company), in their current role (their newest mention), with their company and the
// newest signal of each type (their own job change, the company's funding round, its acquisition),
// held in an in-memory filter index for exact totals and pages on any filter.
//
// Built on first use from one snapshot of the tables and kept current from the change log, as the read model is:
// each request first applies what was committed before it arrived (polls shared by concurrent
// requests). A changed row replaces its mentions; a changed signal moves its company's newest
// (read again from the database when the newest one itself changed or went); the people of every
// company touched are made again.
//
// Millions of people are kept as numbers (mentions.ts): a mention is its row, date, title and company
// codes; a company's newest signal is a row id, a date and its summary. A page's people are served from
// their rows, read again by id (one statement a page), so no person's name or profile stays in memory.
import { classifyRole, keyHash, urlKey } from '../catalog/index.js';
import type { Database } from '../platform/db/index.js';
import { ChangeFollower, ChangeLogExpiredError, loadSnapshot, type Change } from '../changes/index.js';
import { FilterIndex, type IndexRecord, type SortOrder, type Term } from '../read/index.js';
import {
  companiesAfter,
  companiesByIds,
  latestSignalRows,
  type CompanyDocRow,
  sourceRowsAfter,
  sourceRowsOf,
  SOURCE_TABLES,
  type SourceDataset,
  type SourceRow,
} from './queries.js';
import {
  candidatesOf,
  companyFacts,
  datasetOfSource,
  idOfSource,
  industryKey,
  signalCompanies,
  signalOf,
  sourceOf,
  type Candidate,
  type CompanyFacts,
  type PersonSignal,
} from './sources.js';
import { heldTitleKeys, type PeopleFilter } from './filter.js';
import { Mentions, Strings } from './mentions.js';
import type { PersonSignalType } from './schemas.js';

type SignalDataset = Exclude<SourceDataset, 'job-changes'>;
const PEOPLE_DATASETS: readonly SourceDataset[] = ['job-changes', 'funding', 'm-a'];
const FOLLOWED = ['job-changes', 'funding', 'm-a', 'acquisitions', 'companies'] as const;

/** A company's newest row of one signal table: its id, date and summary (served as it is). */
interface NewestRow {
  id: number;
  at: number;
  summary: string;
}

interface CompanyState {
  facts?: CompanyFacts;
  newest: Partial<Record<SignalDataset, NewestRow>>;
}

/** A person as served: their current role, their move into it, and their company's newest signals. */
export interface PersonView {
  current: Candidate;
  company: CompanyFacts | undefined;
  /** Their newest job change into the current role's company. */
  move: Candidate | undefined;
  funding: PersonSignal | undefined;
  acquisition: PersonSignal | undefined;
}

/** Signal types by one letter, in the order the subset columns name them. */
const TYPE_LETTERS: Readonly<Record<PersonSignalType, string>> = { funding_round: 'f', acquisition: 'a', job_change: 'j' };
/** The newest signal among each set of types but all three (that one is the record's sortAt). */
const SUBSETS: readonly PersonSignalType[][] = [
  ['funding_round'],
  ['acquisition'],
  ['job_change'],
  ['funding_round', 'acquisition'],
  ['funding_round', 'job_change'],
  ['acquisition', 'job_change'],
];
const subsetColumn = (types: readonly PersonSignalType[]) => `newest_${types.map((type) => TYPE_LETTERS[type]).join('')}`;

const COLUMNS = [
  { name: 'title_keys', kind: 'key' },
  { name: 'functions', kind: 'multi' },
  { name: 'seniority', kind: 'enum' },
  { name: 'country', kind: 'enum' },
  { name: 'size_band', kind: 'enum' },
  { name: 'industry', kind: 'enum' },
  { name: 'person_key', kind: 'key' },
  { name: 'company_domain', kind: 'key' },
  { name: 'company_linkedin', kind: 'key' },
  { name: 'company_id', kind: 'key' },
  ...SUBSETS.map((types) => ({ name: subsetColumn(types), kind: 'number' as const, sorted: true })),
] as const;

const BATCH = 5000;
const FIRST_UUID = '00000000-0000-0000-0000-000000000000';
/** Company references of mentions linked to no company: the company name as the row gives it. */
const UNLINKED = 'name:';

export interface PeoplePage {
  total: number;
  people: PersonView[];
}

/** What a person's title gives the index, worked out once per distinct title. */
interface TitleFacts {
  keys: string[];
  functions: readonly string[];
  seniority: string | null;
}

/** A person's current mention and their move into it (mention slots; -1: none). */
interface Role {
  current: number;
  move: number;
}

export class PeopleDirectory {
  private index = new FilterIndex(COLUMNS);
  private ordinals = new Map<string, number>();
  private identities: string[] = [];
  private mentions = new Mentions();
  private titles = new Strings();
  private titleFacts: (TitleFacts | undefined)[] = [];
  /** A mention's company: its id when linked, else UNLINKED and the name the row gives. */
  private companyRefs = new Strings();
  private companyLinkedins = new Strings();
  private companies = new Map<string, CompanyState>();
  /** The companies a signal row is the newest of (by sourceOf). */
  private newestOf = new Map<number, string | string[]>();
  private follower: ChangeFollower | undefined;
  private building: Promise<void> | undefined;
  private polling: Promise<void> | undefined;
  private queued: Promise<void> | undefined;

  constructor(private readonly db: Database) {}

  /** People meeting the filter, newest matching signal first: the exact total and one page. */
  async search(filter: PeopleFilter): Promise<PeoplePage> {
    await this.ready();
    await this.catchUp();
    // No source gives a person's city: a city filter matches no one.
    if (filter.city !== undefined) return { total: 0, people: [] };
    const { terms, order, sortFrom } = this.query(filter);
    const offset = filter.count ? 0 : (filter.page - 1) * filter.limit;
    const result = this.index.query({ terms, sortFrom }, offset, filter.count ? 0 : filter.limit, order);
    return { total: result.total, people: await this.views(result.ids) };
  }

  /** People in the directory (for metrics and tests). */
  get size(): number {
    return this.index.size;
  }

  private query(filter: PeopleFilter): { terms: Term[]; order: SortOrder | undefined; sortFrom: number | undefined } {
    const terms: Term[] = [];
    const keys = (column: string, values: readonly string[]) => {
      const hashes = Float64Array.from(new Set(values.map(keyHash))).sort();
      terms.push({ column, hashes });
    };
    if (filter.titleKeys.length > 0) keys('title_keys', filter.titleKeys);
    if (filter.functions.length > 0) terms.push({ column: 'functions', anyOf: filter.functions });
    if (filter.seniorities.length > 0) terms.push({ column: 'seniority', anyOf: filter.seniorities });
    if (filter.countryKeys.length > 0) terms.push({ column: 'country', anyOf: filter.countryKeys });
    if (filter.excludedCountryKeys.length > 0) terms.push({ column: 'country', noneOf: filter.excludedCountryKeys });
    if (filter.sizeBands.length > 0) terms.push({ column: 'size_band', anyOf: filter.sizeBands });
    if (filter.industryKeys.length > 0) terms.push({ column: 'industry', anyOf: filter.industryKeys });
    if (filter.personKey !== undefined) terms.push({ column: 'person_key', equals: filter.personKey });
    if (filter.domainKeys) keys('company_domain', filter.domainKeys);
    if (filter.linkedinKeys) keys('company_linkedin', filter.linkedinKeys);
    if (filter.signalTypes.length === 3) {
      // The record's own order is its newest signal of any type; a person with none has sortAt 0.
      return { terms, order: undefined, sortFrom: Math.max(1, filter.since ?? 1) };
    }
    const column = subsetColumn(SUBSETS.find((types) => sameTypes(types, filter.signalTypes))!);
    terms.push({ column, min: filter.since ?? Number.MIN_SAFE_INTEGER });
    return { terms, order: { column, direction: 'desc' }, sortFrom: undefined };
  }

  private ready(): Promise<void> {
    this.building ??= this.build().catch((error) => {
      this.building = undefined;
      throw error;
    });
    return this.building;
  }

  /** Applies every change committed before the call; concurrent callers share polls. */
  private catchUp(): Promise<void> {
    if (this.polling === undefined) {
      this.polling = this.poll().finally(() => {
        this.polling = undefined;
      });
      return this.polling;
    }
    // A poll is running, maybe begun before this request: one more after it, shared by all who wait.
    this.queued ??= this.polling
      .catch(() => undefined)
      .then(() => {
        this.queued = undefined;
        return this.catchUp();
      });
    return this.queued;
  }

  private async poll(): Promise<void> {
    const follower = this.follower!;
    try {
      for (;;) {
        const changes = await follower.poll();
        if (changes.length === 0) return;
        await this.apply(changes);
      }
    } catch (error) {
      if (!(error instanceof ChangeLogExpiredError)) throw error;
      // Changes this directory never saw are gone: made again from the tables.
      this.reset();
      this.building = undefined;
      await this.ready();
    }
  }

  private reset(): void {
    this.index = new FilterIndex(COLUMNS);
    this.ordinals.clear();
    this.identities = [];
    this.mentions = new Mentions();
    this.titles.clear();
    this.titleFacts = [];
    this.companyRefs.clear();
    this.companyLinkedins.clear();
    this.companies.clear();
    this.newestOf.clear();
  }

  private async build(): Promise<void> {
    const snapshot = await loadSnapshot(this.db, async (tx) => {
      const companies = inBatches((last?: CompanyDocRow) => companiesAfter(tx, last?.record_id ?? FIRST_UUID, BATCH));
      for await (const rows of companies) {
        for (const row of rows) this.company(row.record_id).facts = companyFacts(JSON.parse(row.doc));
      }
      for (const dataset of ['acquisitions', 'm-a', 'funding', 'job-changes'] as const) {
        for await (const rows of inBatches((last?: SourceRow) => sourceRowsAfter(tx, dataset, last?.id ?? 0, BATCH))) {
          for (const row of rows) this.addRow(dataset, row);
        }
      }
    });
    await this.index.build(this.recordBatches());
    this.follower = new ChangeFollower(this.db, snapshot.head, {
      batchSize: 1000,
      records: { datasets: FOLLOWED, documents: true, values: true },
    });
  }

  /** Every person's index record, a batch at a time: the records of millions of people are never all held at once. */
  private *recordBatches(): Generator<IndexRecord[]> {
    let batch: IndexRecord[] = [];
    for (let person = 0; person < this.identities.length; person++) {
      const record = this.recordOf(person);
      if (record === undefined) continue;
      batch.push(record);
      if (batch.length === BATCH) {
        yield batch;
        batch = [];
      }
    }
    yield batch;
  }

  private company(id: string): CompanyState {
    let state = this.companies.get(id);
    if (state === undefined) {
      state = { newest: {} };
      this.companies.set(id, state);
    }
    return state;
  }

  /**
   * A row's people and signal, added (the build, and a created or changed row). Returns the
   * companies whose newest signal moved; the people the row names are added to `named`.
   */
  private addRow(dataset: SourceDataset, row: SourceRow, named?: Set<number>): string[] {
    const moved: string[] = [];
    let doc: Record<string, unknown> | undefined;
    if (dataset !== 'job-changes') {
      for (const company of signalCompanies(row)) {
        // The document is parsed only for a row that is a company's newest so far.
        if (this.offer(dataset, company, row, () => (doc ??= JSON.parse(row.doc)))) moved.push(company);
      }
    }
    if (!PEOPLE_DATASETS.includes(dataset)) return moved;
    for (const candidate of candidatesOf(dataset, row, (doc ??= JSON.parse(row.doc)))) {
      let person = this.ordinals.get(candidate.identity);
      if (person === undefined) {
        person = this.identities.length;
        this.ordinals.set(candidate.identity, person);
        this.identities.push(candidate.identity);
      }
      named?.add(person);
      this.mentions.add({
        person,
        source: candidate.source,
        at: candidate.at,
        move: candidate.move,
        title: this.titles.code(candidate.title),
        company: this.companyRefs.code(candidate.companyId ?? UNLINKED + (candidate.companyName ?? '')),
        companyLinkedin: this.companyLinkedins.code(urlKey(candidate.companyLinkedinUrl)),
      });
    }
    return moved;
  }

  private async apply(changes: readonly Change[]): Promise<void> {
    const people = new Set<number>();
    const companies = new Set<string>();
    const stale = new Map<SignalDataset, Set<string>>();
    for (const change of changes) {
      if (change.dataset === 'companies') {
        const id = change.key ?? change.record?.key;
        if (id === null || id === undefined) continue;
        const state = this.company(id);
        state.facts = change.record?.doc ? companyFacts(JSON.parse(change.record.doc)) : undefined;
        companies.add(id);
        continue;
      }
      const dataset = change.dataset as SourceDataset;
      if (!(dataset in SOURCE_TABLES)) continue;
      const source = sourceOf(dataset, change.id);
      for (const person of this.mentions.removeRow(source)) people.add(person);
      // The row was some companies' newest: what is their newest now is read again.
      const wasNewest = this.newestOf.get(source);
      if (wasNewest !== undefined && dataset !== 'job-changes') {
        this.newestOf.delete(source);
        let set = stale.get(dataset);
        if (set === undefined) stale.set(dataset, (set = new Set()));
        for (const company of typeof wasNewest === 'string' ? [wasNewest] : wasNewest) {
          set.add(company);
          companies.add(company);
          delete this.company(company).newest[dataset];
        }
      }
      const record = change.record;
      if (change.op === 'deleted' || record?.doc === undefined || record.values === undefined) continue;
      const values = record.values;
      const row: SourceRow = {
        id: change.id,
        doc: record.doc,
        sort_ms: values.sort_ms,
        company_id: typeof values.company_id === 'string' ? values.company_id : null,
        acquirer_company_id: typeof values.acquirer_company_id === 'string' ? values.acquirer_company_id : null,
      };
      for (const company of this.addRow(dataset, row, people)) companies.add(company);
    }
    await this.refreshNewest(stale);
    await this.refreshCompanies(companies);
    for (const company of companies) {
      const { ids } = this.index.query({ terms: [{ column: 'company_id', equals: company }] }, 0, Number.MAX_SAFE_INTEGER);
      for (const person of ids) people.add(person);
    }
    for (const person of people) {
      const record = this.recordOf(person);
      if (record === undefined) this.index.remove(person);
      else this.index.upsert(record);
    }
  }

  /** A row's signal for a company, kept as its newest of the table when it is (newest date, then highest id). */
  private offer(dataset: SignalDataset, company: string, row: SourceRow, doc: () => Record<string, unknown>): boolean {
    const { id, sort_ms: at } = row;
    const state = this.company(company);
    const newest = state.newest[dataset];
    if (newest !== undefined && (newest.at > at || (newest.at === at && newest.id > id))) return false;
    if (newest !== undefined) this.forgetNewest(sourceOf(dataset, newest.id), company);
    state.newest[dataset] = { id, at, summary: signalOf(dataset, row, doc(), company)!.summary };
    const source = sourceOf(dataset, id);
    const of = this.newestOf.get(source);
    if (of === undefined) this.newestOf.set(source, company);
    else if (typeof of === 'string') {
      if (of !== company) this.newestOf.set(source, [of, company]);
    } else if (!of.includes(company)) of.push(company);
    return true;
  }

  private forgetNewest(source: number, company: string): void {
    const of = this.newestOf.get(source);
    if (of === company) this.newestOf.delete(source);
    else if (Array.isArray(of)) {
      const rest = of.filter((id) => id !== company);
      if (rest.length === 0) this.newestOf.delete(source);
      else this.newestOf.set(source, rest.length === 1 ? rest[0]! : rest);
    }
  }

  /** Reads again the newest signal rows of companies whose newest changed or went. */
  private async refreshNewest(stale: ReadonlyMap<SignalDataset, ReadonlySet<string>>): Promise<void> {
    for (const [dataset, companies] of stale) {
      for (const row of await latestSignalRows(this.db, dataset, [...companies])) {
        this.offer(dataset, row.company, row, () => JSON.parse(row.doc));
      }
    }
  }

  /** Companies a change touched that the directory has no facts of yet (a signal before its company's row): read. */
  private async refreshCompanies(companies: ReadonlySet<string>): Promise<void> {
    const missing = [...companies].filter((id) => this.companies.get(id)?.facts === undefined);
    if (missing.length === 0) return;
    for (const row of await companiesByIds(this.db, missing))
      this.company(row.record_id).facts = companyFacts(JSON.parse(row.doc));
  }

  /** The person's current mention (the newest; a move before a mention of the same date) and their move into its company. */
  private roleOf(person: number): Role | undefined {
    const { mentions } = this;
    let current = mentions.firstOf(person);
    if (current < 0) return undefined;
    for (let slot = mentions.next(current); slot >= 0; slot = mentions.next(slot)) {
      const at = mentions.atOf(slot);
      const currentAt = mentions.atOf(current);
      if (at > currentAt || (at === currentAt && mentions.isMove(slot) && !mentions.isMove(current))) current = slot;
    }
    const company = mentions.companyOf(current);
    let move = -1;
    for (let slot = mentions.firstOf(person); slot >= 0; slot = mentions.next(slot)) {
      if (!mentions.isMove(slot) || mentions.companyOf(slot) !== company) continue;
      if (move < 0 || mentions.atOf(slot) > mentions.atOf(move)) move = slot;
    }
    return { current, move };
  }

  /** The company a mention is linked to (undefined when it is linked to none). */
  private linkedCompany(slot: number): { id: string; state: CompanyState | undefined } | undefined {
    const ref = this.companyRefs.value(this.mentions.companyOf(slot))!;
    return ref.startsWith(UNLINKED) ? undefined : { id: ref, state: this.companies.get(ref) };
  }

  private titleFactsOf(code: number): TitleFacts {
    if (code < 0) return { keys: [], functions: [], seniority: null };
    let facts = this.titleFacts[code];
    if (facts === undefined) {
      const title = this.titles.value(code)!;
      const role = classifyRole(title);
      facts = { keys: heldTitleKeys(title), functions: role.departments, seniority: role.seniority };
      this.titleFacts[code] = facts;
    }
    return facts;
  }

  /** A person's index record; undefined when no row names them any more. */
  private recordOf(person: number): IndexRecord | undefined {
    const role = this.roleOf(person);
    if (role === undefined) return undefined;
    const { mentions } = this;
    const linked = this.linkedCompany(role.current);
    const company = linked?.state?.facts;
    const newest = linked?.state?.newest;
    const deal = newest?.['m-a']?.at;
    const likely = newest?.acquisitions?.at;
    const dates: Record<PersonSignalType, number | undefined> = {
      funding_round: newest?.funding?.at,
      acquisition: deal === undefined ? likely : likely === undefined ? deal : Math.max(deal, likely),
      job_change: role.move < 0 ? undefined : mentions.atOf(role.move),
    };
    const newestOf = (types: readonly PersonSignalType[]) => {
      let at: number | null = null;
      for (const type of types) {
        const date = dates[type];
        if (date !== undefined && (at === null || date > at)) at = date;
      }
      return at;
    };
    const title = this.titleFactsOf(mentions.titleOf(role.current));
    const identity = this.identities[person]!;
    const values: Record<string, string | number | null | readonly string[]> = {
      title_keys: title.keys,
      functions: title.functions,
      seniority: title.seniority,
      country: company?.country?.toLowerCase() ?? null,
      size_band: company?.sizeBand ?? null,
      industry: industryKey(company?.industry ?? null),
      // A person told apart by profile has the profile's key as identity; by name, none.
      person_key: identity.startsWith('name:') ? null : identity,
      company_domain: company?.domain ?? null,
      company_linkedin:
        company?.linkedinUrl != null
          ? urlKey(company.linkedinUrl)
          : this.companyLinkedins.value(mentions.companyLinkedinOf(role.current)),
      company_id: linked?.id ?? null,
    };
    for (const types of SUBSETS) values[subsetColumn(types)] = newestOf(types);
    return { id: person, sortAt: newestOf(['funding_round', 'acquisition', 'job_change']) ?? 0, values };
  }

  /**
   * A page's people as served: their current mention and their move read again from their rows
   * (one statement), their company's facts and newest signals from memory. A row changed since the
   * directory last caught up is served as it is now; a person it no longer names is left off this
   * page (the next request has caught up with the change).
   */
  private async views(people: readonly number[]): Promise<PersonView[]> {
    const wanted = new Map<SourceDataset, number[]>();
    const want = (source: number) => {
      const dataset = datasetOfSource(source);
      let ids = wanted.get(dataset);
      if (ids === undefined) wanted.set(dataset, (ids = []));
      ids.push(idOfSource(source));
    };
    const plans = people.flatMap((person) => {
      const role = this.roleOf(person);
      if (role === undefined) return [];
      const current = this.mentions.sourceOf(role.current);
      const move = role.move < 0 ? undefined : this.mentions.sourceOf(role.move);
      want(current);
      if (move !== undefined && move !== current) want(move);
      return [{ identity: this.identities[person]!, current, move, company: this.linkedCompany(role.current)?.state }];
    });
    const rows = new Map<number, { row: SourceRow; doc: Record<string, unknown> }>();
    for (const row of await sourceRowsOf(this.db, wanted)) {
      rows.set(sourceOf(row.dataset, row.id), { row, doc: JSON.parse(row.doc) });
    }
    const mentionIn = (source: number | undefined, identity: string) => {
      const read = source === undefined ? undefined : rows.get(source);
      if (read === undefined) return undefined;
      return candidatesOf(datasetOfSource(source!), read.row, read.doc).find((candidate) => candidate.identity === identity);
    };
    return plans.flatMap(({ identity, current, move, company }) => {
      const mention = mentionIn(current, identity);
      if (mention === undefined) return [];
      const newest = company?.newest ?? {};
      const deal = newest['m-a'];
      const likely = newest.acquisitions;
      return [
        {
          current: mention,
          company: company?.facts,
          move: mentionIn(move, identity),
          funding: newest.funding && signal('funding_round', newest.funding),
          acquisition:
            deal && likely ? signal('acquisition', likely.at > deal.at ? likely : deal) : signal('acquisition', deal ?? likely),
        },
      ];
    });
  }
}

/** A table read a batch at a time, in key order, the next batch asked for while the last is worked on. */
async function* inBatches<T>(read: (last?: T) => Promise<T[]>): AsyncGenerator<T[]> {
  let pending = read();
  for (;;) {
    const rows = await pending;
    const more = rows.length === BATCH;
    if (more) {
      pending = read(rows.at(-1));
      // Awaited on the next turn; a reader stopped before then must not leave it unhandled.
      pending.catch(() => undefined);
    }
    yield rows;
    if (!more) return;
  }
}

/** A company's newest row of a table as a person's signal. */
function signal(type: PersonSignalType, newest: NewestRow | undefined): PersonSignal | undefined {
  return newest && { type, at: newest.at, summary: newest.summary, sourceUrl: null };
}

function sameTypes(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((type) => b.includes(type));
}
