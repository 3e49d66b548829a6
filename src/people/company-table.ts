// The companies people work at, kept as columns by company number (the code of its id in the
// directory's table of company ids): their facts as codes into a string table kept as bytes, and
// the newest row of each signal table as its id, date and summary. Hundreds of thousands of
// companies give the collector their summaries to trace and nothing else, where an object per
// company, per fact and per newest row gave it several million.
import { grow, Strings } from './mentions.js';
import { SIZE_BANDS } from './schemas.js';
import type { CompanyFacts } from './sources.js';

export const SIGNAL_DATASETS = ['funding', 'm-a', 'acquisitions'] as const;
export type SignalDataset = (typeof SIGNAL_DATASETS)[number];

/** A company's newest row of one signal table: its id, date and summary (served as it is). */
export interface NewestRow {
  id: number;
  at: number;
  summary: string;
}

const TABLE: Readonly<Record<SignalDataset, number>> = { funding: 0, 'm-a': 1, acquisitions: 2 };
const TABLES = SIGNAL_DATASETS.length;
const FACTS = ['name', 'domain', 'linkedinUrl', 'country', 'industry'] as const;

export class CompanyTable {
  private capacity = 0;
  private known = new Uint8Array(0);
  /** Per company and fact (FACTS), the code of its value in `text` (-1: null). */
  private facts = new Int32Array(0);
  /** Index in SIZE_BANDS (-1: null). */
  private sizeBands = new Int8Array(0);
  private readonly text = new Strings();
  /** Per company and signal table (TABLE): the newest row's id, date (NaN: none) and summary. */
  private newestIds = new Float64Array(0);
  private newestAts = new Float64Array(0);
  private summaries: (string | undefined)[] = [];

  /** A company's facts (undefined until its row is read) as served; made anew on each call. */
  factsOf(company: number): CompanyFacts | undefined {
    if (!this.hasFacts(company)) return undefined;
    const at = company * FACTS.length;
    const band = this.sizeBands[company]!;
    return {
      name: this.text.value(this.facts[at]!),
      domain: this.text.value(this.facts[at + 1]!),
      linkedinUrl: this.text.value(this.facts[at + 2]!),
      country: this.text.value(this.facts[at + 3]!),
      sizeBand: band < 0 ? null : SIZE_BANDS[band]!,
      industry: this.text.value(this.facts[at + 4]!),
    };
  }

  hasFacts(company: number): boolean {
    return company >= 0 && company < this.capacity && this.known[company] === 1;
  }

  /** Sets a company's facts (undefined: its row is gone). */
  setFacts(company: number, facts: CompanyFacts | undefined): void {
    this.ensure(company);
    this.known[company] = facts === undefined ? 0 : 1;
    if (facts === undefined) return;
    const at = company * FACTS.length;
    FACTS.forEach((fact, i) => (this.facts[at + i] = this.text.code(facts[fact])));
    this.sizeBands[company] = facts.sizeBand === null ? -1 : SIZE_BANDS.indexOf(facts.sizeBand);
  }

  /** The date of a company's newest row of a table; undefined when it has none. */
  newestAt(company: number, dataset: SignalDataset): number | undefined {
    if (company < 0 || company >= this.capacity) return undefined;
    const at = this.newestAts[company * TABLES + TABLE[dataset]]!;
    return Number.isNaN(at) ? undefined : at;
  }

  newest(company: number, dataset: SignalDataset): NewestRow | undefined {
    const at = this.newestAt(company, dataset);
    if (at === undefined) return undefined;
    const slot = company * TABLES + TABLE[dataset];
    return { id: this.newestIds[slot]!, at, summary: this.summaries[slot]! };
  }

  setNewest(company: number, dataset: SignalDataset, row: NewestRow | undefined): void {
    this.ensure(company);
    const slot = company * TABLES + TABLE[dataset];
    this.newestIds[slot] = row?.id ?? 0;
    this.newestAts[slot] = row?.at ?? NaN;
    this.summaries[slot] = row?.summary;
  }

  private ensure(company: number): void {
    if (company < this.capacity) return;
    const capacity = Math.max(1024, this.capacity * 2, company + 1);
    this.known = grow(this.known, capacity);
    this.facts = grow(this.facts, capacity * FACTS.length, -1);
    this.sizeBands = grow(this.sizeBands, capacity, -1);
    this.newestIds = grow(this.newestIds, capacity * TABLES);
    this.newestAts = grow(this.newestAts, capacity * TABLES, NaN);
    this.summaries.length = capacity * TABLES;
    this.capacity = capacity;
  }
}
