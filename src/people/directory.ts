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
// Millions of people are kept as numbers (mentions.ts): a person is the code of their identity and a
// company the code of its id in string tables kept as bytes; a mention is its row, date, title and
// company codes; a company's newest signal is a row id, a date and its summary. A page's people are
// served from their rows, read again by id (one statement a page) unless kept from an earlier page,
// so no name or profile of millions of people stays in memory.
import { classifyRole, keyHash, urlKey } from '../catalog/index.js';
import type { Database } from '../platform/db/index.js';
import { ChangeFollower, ChangeLogExpiredError, comparePositions, loadSnapshot, type Change } from '../changes/index.js';
import { FilterIndex, type IndexRecord, type SortOrder, type Term } from '../read/index.js';
import {
  companiesAfter,
  companiesByIds,
  latestSignalRows,
  type CompanyDocRow,
  sourceRowsAfter,
  sourceRowsWithHead,
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
import { CompanyTable, type NewestRow, type SignalDataset } from './company-table.js';
import type { PersonSignalType } from './schemas.js';

const PEOPLE_DATASETS: readonly SourceDataset[] = ['job-changes', 'funding', 'm-a'];
const FOLLOWED = ['job-changes', 'funding', 'm-a', 'acquisitions', 'companies'] as const;

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
/** Times a page is asked again when the change log moved while its rows were read. */
const PAGE_ATTEMPTS = 3;
/**
 * Most people whose served mentions are kept, parsed, most recently served first: pages lead with
 * the people of the newest signals, so most pages are served without reading their rows again
 * (about 1 KB a person; a changed row's people are let go when it is applied).
 */
const KEPT_PEOPLE = 50_000;
const FIRST_UUID = '00000000-0000-0000-0000-000000000000';

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
  /** People by identity: a person's number is their identity's code. */
  private people = new Strings();
  private mentions = new Mentions();
  private titles = new Strings();
  private titleFacts: (TitleFacts | undefined)[] = [];
  /** Companies by id: a company's number is its id's code, and a mention's company (>= 0) when linked. */
  private companyIds = new Strings();
  /** The names rows give companies linked to none: a mention's company is -1 - the name's code. */
  private unlinkedNames = new Strings();
  private companyLinkedins = new Strings();
  private companies = new CompanyTable();
  /** The companies (numbers) a signal row is the newest of (by sourceOf). */
  private newestOf = new Map<number, number | number[]>();
  private follower: ChangeFollower | undefined;
  private building: Promise<void> | undefined;
  private polling: Promise<void> | undefined;
  private queued: Promise<void> | undefined;
  /** People's served mentions, by person, least recently served first (see KEPT_PEOPLE). */
  private kept = new Map<number, ServedRows>();

  constructor(private readonly db: Database) {}

  /**
   * People meeting the filter, newest matching signal first: the exact total and one page, as of a
   * position of the change log at or after the call. The page's rows are read with the log's head:
   * when it has moved past the directory's position, the new changes are applied and the page asked
   * again; a page whose rows are all kept waits for a catch-up read of the log (shared by concurrent requests).
   */
  async search(filter: PeopleFilter): Promise<PeoplePage> {
    await this.ready();
    // No source gives a person's city: a city filter matches no one.
    if (filter.city !== undefined) return { total: 0, people: [] };
    const { terms, order, sortFrom } = this.query(filter);
    const offset = filter.count ? 0 : (filter.page - 1) * filter.limit;
    const limit = filter.count ? 0 : filter.limit;
    // Whether a catch-up begun after this call has completed: the directory then holds every write committed before it.
    let current = false;
    for (let attempt = 1; ; attempt++) {
      const follower = this.follower!;
      const position = follower.position;
      const { total, ids } = this.index.query({ terms, sortFrom }, offset, limit, order);
      const plans = this.plans(ids);
      const missing = plans.filter((plan) => plan.served === undefined);
      if (missing.length === 0) {
        if (current || attempt === PAGE_ATTEMPTS) return { total, people: plans.flatMap(viewOf) };
        await this.catchUp();
        current = true;
        // Nothing applied meanwhile: the page asked before the catch-up is the answer (no second index query).
        if (comparePositions(follower.position, position) === 0) return { total, people: plans.flatMap(viewOf) };
        continue;
      }
      const { rows, head } = await sourceRowsWithHead(this.db, sourcesByDataset(missing));
      const exact = comparePositions(head, position) === 0;
      if (!exact && attempt < PAGE_ATTEMPTS) {
        await this.catchUp();
        current = true;
        continue;
      }
      // Kept only when no change was applied meanwhile either (one may concern these rows).
      const keep = exact && comparePositions(follower.position, position) === 0;
      this.serve(missing, rows, keep);
      return { total, people: plans.flatMap(viewOf) };
    }
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
    // A newest signal of some types is no newer than the newest of all (sortAt), so only people
    // whose sortAt is in the window can match: the index reads that range of its order only.
    return { terms, order: { column, direction: 'desc' }, sortFrom: filter.since };
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
    this.kept.clear();
    this.people.clear();
    this.mentions = new Mentions();
    this.titles.clear();
    this.titleFacts = [];
    this.companyIds.clear();
    this.unlinkedNames.clear();
    this.companyLinkedins.clear();
    this.companies = new CompanyTable();
    this.newestOf.clear();
  }

  private async build(): Promise<void> {
    const snapshot = await loadSnapshot(this.db, async (tx) => {
      const companies = inBatches((last?: CompanyDocRow) => companiesAfter(tx, last?.record_id ?? FIRST_UUID, BATCH));
      for await (const rows of companies) {
        for (const row of rows) this.companies.setFacts(this.companyOf(row.record_id), companyFacts(JSON.parse(row.doc)));
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
    for (let person = 0; person < this.people.size; person++) {
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

  /** A company's number, given one when new. */
  private companyOf(id: string): number {
    return this.companyIds.code(id);
  }

  /**
   * A row's people and signal, added (the build, and a created or changed row). Returns the
   * companies (numbers) whose newest signal moved; the people the row names are added to `named`.
   */
  private addRow(dataset: SourceDataset, row: SourceRow, named?: Set<number>): number[] {
    const moved: number[] = [];
    let doc: Record<string, unknown> | undefined;
    if (dataset !== 'job-changes') {
      for (const id of signalCompanies(row)) {
        // The document is parsed only for a row that is a company's newest so far.
        const company = this.offer(dataset, id, row, () => (doc ??= JSON.parse(row.doc)));
        if (company >= 0) moved.push(company);
      }
    }
    if (!PEOPLE_DATASETS.includes(dataset)) return moved;
    for (const candidate of candidatesOf(dataset, row, (doc ??= JSON.parse(row.doc)))) {
      const person = this.people.code(candidate.identity);
      named?.add(person);
      this.mentions.add({
        person,
        source: candidate.source,
        at: candidate.at,
        move: candidate.move,
        title: this.titles.code(candidate.title),
        company:
          candidate.companyId === null
            ? -1 - this.unlinkedNames.code(candidate.companyName ?? '')
            : this.companyOf(candidate.companyId),
        companyLinkedin: this.companyLinkedins.code(urlKey(candidate.companyLinkedinUrl)),
      });
    }
    return moved;
  }

  private async apply(changes: readonly Change[]): Promise<void> {
    const people = new Set<number>();
    const companies = new Set<number>();
    const stale = new Map<SignalDataset, Set<number>>();
    for (const change of changes) {
      if (change.dataset === 'companies') {
        const id = change.key ?? change.record?.key;
        if (id === null || id === undefined) continue;
        const company = this.companyOf(id);
        this.companies.setFacts(company, change.record?.doc ? companyFacts(JSON.parse(change.record.doc)) : undefined);
        companies.add(company);
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
        for (const company of typeof wasNewest === 'number' ? [wasNewest] : wasNewest) {
          set.add(company);
          companies.add(company);
          this.companies.setNewest(company, dataset, undefined);
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
      const equals = this.companyIds.value(company)!;
      const { ids } = this.index.query({ terms: [{ column: 'company_id', equals }] }, 0, Number.MAX_SAFE_INTEGER);
      for (const person of ids) people.add(person);
    }
    for (const person of people) {
      // Their rows changed: what was kept of them is read again when next served.
      this.kept.delete(person);
      const record = this.recordOf(person);
      if (record === undefined) this.index.remove(person);
      else this.index.upsert(record);
    }
  }

  /**
   * A row's signal for a company, kept as its newest of the table when it is (newest date, then
   * highest id): returns the company's number then, else -1.
   */
  private offer(dataset: SignalDataset, id: string, row: SourceRow, doc: () => Record<string, unknown>): number {
    const { sort_ms: at } = row;
    const company = this.companyOf(id);
    const newest = this.companies.newest(company, dataset);
    if (newest !== undefined && (newest.at > at || (newest.at === at && newest.id > row.id))) return -1;
    if (newest !== undefined) this.forgetNewest(sourceOf(dataset, newest.id), company);
    this.companies.setNewest(company, dataset, { id: row.id, at, summary: signalOf(dataset, row, doc(), id)!.summary });
    const source = sourceOf(dataset, row.id);
    const of = this.newestOf.get(source);
    if (of === undefined) this.newestOf.set(source, company);
    else if (typeof of === 'number') {
      if (of !== company) this.newestOf.set(source, [of, company]);
    } else if (!of.includes(company)) of.push(company);
    return company;
  }

  private forgetNewest(source: number, company: number): void {
    const of = this.newestOf.get(source);
    if (of === company) this.newestOf.delete(source);
    else if (Array.isArray(of)) {
      const rest = of.filter((other) => other !== company);
      if (rest.length === 0) this.newestOf.delete(source);
      else this.newestOf.set(source, rest.length === 1 ? rest[0]! : rest);
    }
  }

  /** Reads again the newest signal rows of companies whose newest changed or went. */
  private async refreshNewest(stale: ReadonlyMap<SignalDataset, ReadonlySet<number>>): Promise<void> {
    for (const [dataset, companies] of stale) {
      const ids = [...companies].map((company) => this.companyIds.value(company)!);
      for (const row of await latestSignalRows(this.db, dataset, ids)) {
        this.offer(dataset, row.company, row, () => JSON.parse(row.doc));
      }
    }
  }

  /** Companies a change touched that the directory has no facts of yet (a signal before its company's row): read. */
  private async refreshCompanies(companies: ReadonlySet<number>): Promise<void> {
    const missing = [...companies].filter((company) => !this.companies.hasFacts(company));
    if (missing.length === 0) return;
    const ids = missing.map((company) => this.companyIds.value(company)!);
    for (const row of await companiesByIds(this.db, ids)) {
      this.companies.setFacts(this.companyOf(row.record_id), companyFacts(JSON.parse(row.doc)));
    }
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

  /** The company a mention is linked to (-1 when it is linked to none). */
  private linkedCompany(slot: number): number {
    return Math.max(-1, this.mentions.companyOf(slot));
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
    const company = linked < 0 ? undefined : this.companies.factsOf(linked);
    const deal = this.companies.newestAt(linked, 'm-a');
    const likely = this.companies.newestAt(linked, 'acquisitions');
    const dates: Record<PersonSignalType, number | undefined> = {
      funding_round: this.companies.newestAt(linked, 'funding'),
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
    const identity = this.people.value(person)!;
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
      company_id: this.companyIds.value(linked),
    };
    for (const types of SUBSETS) values[subsetColumn(types)] = newestOf(types);
    return { id: person, sortAt: newestOf(['funding_round', 'acquisition', 'job_change']) ?? 0, values };
  }

  /**
   * A page's people as planned now: their current and move rows, their company's facts and newest
   * signals (taken now: a change applied while the rows are read must not mix into this page), and
   * their served rows when kept.
   */
  private plans(people: readonly number[]): PagePlan[] {
    return people.flatMap((person) => {
      const role = this.roleOf(person);
      if (role === undefined) return [];
      const current = this.mentions.sourceOf(role.current);
      const move = role.move < 0 ? undefined : this.mentions.sourceOf(role.move);
      const company = this.linkedCompany(role.current);
      const funding = this.companies.newest(company, 'funding');
      const deal = this.companies.newest(company, 'm-a');
      const likely = this.companies.newest(company, 'acquisitions');
      const kept = this.kept.get(person);
      const served = kept !== undefined && kept.current === current && kept.move === move ? kept : undefined;
      if (served !== undefined) {
        // Most recently used last: the first entries are the ones let go.
        this.kept.delete(person);
        this.kept.set(person, served);
      }
      return [
        {
          person,
          identity: this.people.value(person)!,
          current,
          move,
          company: company < 0 ? undefined : this.companies.factsOf(company),
          funding: signal('funding_round', funding),
          acquisition:
            deal && likely ? signal('acquisition', likely.at > deal.at ? likely : deal) : signal('acquisition', deal ?? likely),
          served,
        },
      ];
    });
  }

  /**
   * Finds the planned people's mentions in their rows as read, keeping them when `keep` (the rows
   * are those of the directory's position). A person a row no longer names stays unserved: left off
   * the page (the next request has caught up with the change).
   */
  private serve(plans: PagePlan[], rows: readonly (SourceRow & { dataset: SourceDataset })[], keep: boolean): void {
    const read = new Map<number, { row: SourceRow; doc: Record<string, unknown> }>();
    for (const row of rows) read.set(sourceOf(row.dataset, row.id), { row, doc: JSON.parse(row.doc) });
    const mentionIn = (source: number | undefined, identity: string) => {
      const found = source === undefined ? undefined : read.get(source);
      if (found === undefined) return undefined;
      return candidatesOf(datasetOfSource(source!), found.row, found.doc).find((candidate) => candidate.identity === identity);
    };
    for (const plan of plans) {
      const mention = mentionIn(plan.current, plan.identity);
      if (mention === undefined) continue;
      plan.served = { current: plan.current, move: plan.move, mention, moveMention: mentionIn(plan.move, plan.identity) };
      if (!keep) continue;
      this.kept.set(plan.person, plan.served);
      if (this.kept.size > KEPT_PEOPLE) this.kept.delete(this.kept.keys().next().value!);
    }
  }
}

/** A person of a page: what the directory knows of them, and their mentions once read (or kept). */
interface PagePlan {
  person: number;
  identity: string;
  current: number;
  move: number | undefined;
  company: CompanyFacts | undefined;
  funding: PersonSignal | undefined;
  acquisition: PersonSignal | undefined;
  served: ServedRows | undefined;
}

/** A person's current mention and move as their rows give them, with the rows (sources) they were read from. */
interface ServedRows {
  current: number;
  move: number | undefined;
  mention: Candidate;
  moveMention: Candidate | undefined;
}

const viewOf = (plan: PagePlan): PersonView[] =>
  plan.served === undefined
    ? []
    : [
        {
          current: plan.served.mention,
          company: plan.company,
          move: plan.served.moveMention,
          funding: plan.funding,
          acquisition: plan.acquisition,
        },
      ];

/** The rows the planned people are served from, by table. */
function sourcesByDataset(plans: readonly PagePlan[]): Map<SourceDataset, number[]> {
  const wanted = new Map<SourceDataset, number[]>();
  const want = (source: number) => {
    const dataset = datasetOfSource(source);
    let ids = wanted.get(dataset);
    if (ids === undefined) wanted.set(dataset, (ids = []));
    ids.push(idOfSource(source));
  };
  for (const { current, move } of plans) {
    want(current);
    if (move !== undefined && move !== current) want(move);
  }
  return wanted;
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
