// The people directory: every person the stored records name, one per identity (LinkedIn profile,
// else name at company), in their current role (their newest mention), with their company and the
// newest signal of each type (their own job change, the company's funding round, its acquisition),
// held in an in-memory filter index for exact totals and pages on any filter.
//
// Built on first use from one snapshot of the tables and kept current from the change log, as the read model is:
// each request first applies what was committed before it arrived (polls shared by concurrent
// requests). A changed row replaces its candidates; a changed signal moves its company's newest
// (read again from the database when the newest one itself changed or went); the people of every
// company touched are made again.
import { classifyRole, keyHash, urlKey } from '../catalog/index.js';
import type { Database } from '../platform/db/index.js';
import { ChangeFollower, ChangeLogExpiredError, loadSnapshot, type Change } from '../changes/index.js';
import { FilterIndex, type IndexRecord, type SortOrder, type Term } from '../read/index.js';
import {
  companiesAfter,
  companiesByIds,
  latestSignalRows,
  sourceRowsAfter,
  SOURCE_TABLES,
  type SourceDataset,
  type SourceRow,
} from './queries.js';
import {
  candidatesOf,
  companyFacts,
  industryKey,
  signalCompanies,
  signalOf,
  sourceOf,
  type Candidate,
  type CompanyFacts,
  type PersonSignal,
} from './sources.js';
import { heldTitleKeys, type PeopleFilter } from './filter.js';
import type { PersonSignalType } from './schemas.js';

type SignalDataset = Exclude<SourceDataset, 'job-changes'>;
const PEOPLE_DATASETS: readonly SourceDataset[] = ['job-changes', 'funding', 'm-a'];
const FOLLOWED = ['job-changes', 'funding', 'm-a', 'acquisitions', 'companies'] as const;

/** A company's newest signal of one table, and the row it came from. */
interface CompanySignal extends PersonSignal {
  source: number;
  id: number;
}

interface CompanyState {
  facts?: CompanyFacts;
  newest: Partial<Record<SignalDataset, CompanySignal>>;
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

/** The dates of a person's newest signal of each type (ms; undefined: none). */
function signalDates(view: PersonView): Record<PersonSignalType, number | undefined> {
  return { funding_round: view.funding?.at, acquisition: view.acquisition?.at, job_change: view.move?.at };
}

interface Person {
  identity: string;
  ordinal: number;
  candidates: Candidate[];
  view?: PersonView;
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

export interface PeoplePage {
  total: number;
  people: PersonView[];
}

export class PeopleDirectory {
  private index = new FilterIndex(COLUMNS);
  private people = new Map<string, Person>();
  private byOrdinal: (Person | undefined)[] = [];
  /** Identities each row names. */
  private bySource = new Map<number, string | string[]>();
  /** One string per company id, name and page, however many rows name it. */
  private strings = new Map<string, string>();
  private companies = new Map<string, CompanyState>();
  /** The companies a signal row is the newest of. */
  private newestOf = new Map<number, Set<string>>();
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
    const people = result.ids.flatMap((ordinal) => {
      const view = this.byOrdinal[ordinal]?.view;
      return view ? [view] : [];
    });
    return { total: result.total, people };
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
    this.people.clear();
    this.byOrdinal = [];
    this.bySource.clear();
    this.strings.clear();
    this.companies.clear();
    this.newestOf.clear();
  }

  private async build(): Promise<void> {
    const snapshot = await loadSnapshot(this.db, async (tx) => {
      let after = '00000000-0000-0000-0000-000000000000';
      for (;;) {
        const rows = await companiesAfter(tx, after, BATCH);
        for (const row of rows) this.company(row.record_id).facts = companyFacts(JSON.parse(row.doc));
        if (rows.length < BATCH) break;
        after = rows.at(-1)!.record_id;
      }
      for (const dataset of ['acquisitions', 'm-a', 'funding', 'job-changes'] as const) {
        for (let afterId = 0; ;) {
          const rows = await sourceRowsAfter(tx, dataset, afterId, BATCH);
          for (const row of rows) this.addRow(dataset, row, JSON.parse(row.doc));
          if (rows.length < BATCH) break;
          afterId = rows.at(-1)!.id;
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
    for (const person of this.people.values()) {
      person.view = this.viewOf(person);
      batch.push(this.recordOf(person));
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

  /** A row's people and signal, added (the build, and a created or changed row). Returns the companies whose newest signal moved. */
  private addRow(dataset: SourceDataset, row: SourceRow, doc: Record<string, unknown>): string[] {
    const source = sourceOf(dataset, row.id);
    const moved: string[] = [];
    if (dataset !== 'job-changes') {
      for (const company of signalCompanies(row)) {
        const signal = signalOf(dataset, row, doc, company);
        if (signal !== undefined && this.offer(dataset, company, signal, row.id)) moved.push(company);
      }
    }
    if ((PEOPLE_DATASETS as readonly string[]).includes(dataset)) {
      const candidates = candidatesOf(dataset, row, doc);
      if (candidates.length > 0) {
        this.bySource.set(source, candidates.length === 1 ? candidates[0]!.identity : candidates.map((c) => c.identity));
      }
      for (const candidate of candidates) {
        // Many rows name one company: one string each for all of them.
        if (candidate.companyId !== null) candidate.companyId = this.interned(candidate.companyId);
        if (candidate.companyName !== null) candidate.companyName = this.interned(candidate.companyName);
        if (candidate.companyLinkedinUrl !== null) candidate.companyLinkedinUrl = this.interned(candidate.companyLinkedinUrl);
        let person = this.people.get(candidate.identity);
        if (person === undefined) {
          person = { identity: candidate.identity, ordinal: this.byOrdinal.length, candidates: [] };
          this.people.set(candidate.identity, person);
          this.byOrdinal.push(person);
        }
        person.candidates.push(candidate);
      }
    }
    return moved;
  }

  private interned(id: string): string {
    const kept = this.strings.get(id);
    if (kept !== undefined) return kept;
    this.strings.set(id, id);
    return id;
  }

  private identitiesOf(source: number): string[] {
    const named = this.bySource.get(source);
    return named === undefined ? [] : typeof named === 'string' ? [named] : named;
  }

  /** Takes a row's people out; returns the identities it named. */
  private removeRowPeople(source: number): string[] {
    const identities = this.identitiesOf(source);
    this.bySource.delete(source);
    for (const identity of identities) {
      const person = this.people.get(identity);
      if (person) person.candidates = person.candidates.filter((candidate) => candidate.source !== source);
    }
    return identities;
  }

  private async apply(changes: readonly Change[]): Promise<void> {
    const identities = new Set<string>();
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
      for (const identity of this.removeRowPeople(source)) identities.add(identity);
      // The row was some companies' newest: what is their newest now is read again.
      const wasNewest = this.newestOf.get(source);
      if (wasNewest && dataset !== 'job-changes') {
        this.newestOf.delete(source);
        let set = stale.get(dataset);
        if (set === undefined) stale.set(dataset, (set = new Set()));
        for (const company of wasNewest) {
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
      for (const company of this.addRow(dataset, row, JSON.parse(record.doc))) companies.add(company);
      for (const identity of this.identitiesOf(source)) identities.add(identity);
    }
    await this.refreshNewest(stale);
    await this.refreshCompanies(companies);
    for (const company of companies) {
      const { ids } = this.index.query({ terms: [{ column: 'company_id', equals: company }] }, 0, Number.MAX_SAFE_INTEGER);
      for (const ordinal of ids) {
        const person = this.byOrdinal[ordinal];
        if (person) identities.add(person.identity);
      }
    }
    for (const identity of identities) {
      const person = this.people.get(identity);
      if (person === undefined) continue;
      if (person.candidates.length === 0) {
        this.index.remove(person.ordinal);
        person.view = undefined;
        continue;
      }
      person.view = this.viewOf(person);
      this.index.upsert(this.recordOf(person));
    }
  }

  /** A row's signal for a company, kept as its newest of the table when it is (newest date, then highest id). */
  private offer(dataset: SignalDataset, company: string, signal: PersonSignal, id: number): boolean {
    const state = this.company(company);
    const newest = state.newest[dataset];
    if (newest !== undefined && (newest.at > signal.at || (newest.at === signal.at && newest.id > id))) return false;
    if (newest) this.newestOf.get(newest.source)?.delete(company);
    const source = sourceOf(dataset, id);
    state.newest[dataset] = { ...signal, source, id };
    let of = this.newestOf.get(source);
    if (of === undefined) this.newestOf.set(source, (of = new Set()));
    of.add(company);
    return true;
  }

  /** Reads again the newest signal rows of companies whose newest changed or went. */
  private async refreshNewest(stale: ReadonlyMap<SignalDataset, ReadonlySet<string>>): Promise<void> {
    for (const [dataset, companies] of stale) {
      for (const row of await latestSignalRows(this.db, dataset, [...companies])) {
        const signal = signalOf(dataset, row, JSON.parse(row.doc), row.company);
        if (signal !== undefined) this.offer(dataset, row.company, signal, row.id);
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

  private viewOf(person: Person): PersonView {
    let current = person.candidates[0]!;
    for (const candidate of person.candidates) {
      if (candidate.at > current.at || (candidate.at === current.at && candidate.move && !current.move)) current = candidate;
    }
    let move: Candidate | undefined;
    for (const candidate of person.candidates) {
      if (candidate.move && sameCompany(candidate, current) && (move === undefined || candidate.at > move.at)) move = candidate;
    }
    const state = current.companyId === null ? undefined : this.companies.get(current.companyId);
    const deal = state?.newest['m-a'];
    const likely = state?.newest.acquisitions;
    return {
      current,
      company: state?.facts,
      move,
      funding: state?.newest.funding,
      acquisition: deal && likely ? (likely.at > deal.at ? likely : deal) : (deal ?? likely),
    };
  }

  private recordOf(person: Person): IndexRecord {
    const view = person.view!;
    const { current, company } = view;
    const dates = signalDates(view);
    const role = current.title === null ? undefined : classifyRole(current.title);
    const newest = (types: readonly PersonSignalType[]) => {
      let at: number | null = null;
      for (const type of types) {
        const date = dates[type];
        if (date !== undefined && (at === null || date > at)) at = date;
      }
      return at;
    };
    const values: Record<string, string | number | null | readonly string[]> = {
      title_keys: heldTitleKeys(current.title),
      functions: role?.departments ?? [],
      seniority: role?.seniority ?? null,
      country: company?.country?.toLowerCase() ?? null,
      size_band: company?.sizeBand ?? null,
      industry: industryKey(company?.industry ?? null),
      person_key: urlKey(current.linkedinUrl),
      company_domain: company?.domain ?? null,
      company_linkedin: urlKey(company?.linkedinUrl ?? current.companyLinkedinUrl),
      company_id: current.companyId,
    };
    for (const types of SUBSETS) values[subsetColumn(types)] = newest(types);
    return { id: person.ordinal, sortAt: newest(['funding_round', 'acquisition', 'job_change']) ?? 0, values };
  }
}

function sameTypes(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((type) => b.includes(type));
}

function sameCompany(a: Candidate, b: Candidate): boolean {
  return a.companyId !== null ? a.companyId === b.companyId : b.companyId === null && a.companyName === b.companyName;
}
