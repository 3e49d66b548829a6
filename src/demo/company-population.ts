// The company population the demo data shares: the `companies` dataset's records (as
// generateCompanies makes them for the seed), kept in a compact, column-wise form with random
// access by index. Funding rounds, M&A deals, job changes and acquisition signals draw their
// companies from it, so one company can carry records of several datasets, named as its profile
// names it (same name, website and LinkedIn page: what the server links records by).
//
// Every company also gets an activity weight (log-normal, drawn from the population's own stream):
// the datasets draw companies in proportion to it times a fit of their own, so a minority of
// companies carries many records across the datasets and most have few or none.

import { generateCompanies } from './company-generator.js';
import { mersenneRandomizer, Rng } from './random.js';

/** The stream the activity weights draw from. */
const ACTIVITY_STREAM = 0x5e11;
/** The spread (sigma of the log) of the activity weights: larger, more skewed. */
const ACTIVITY_SIGMA = 1.4;

/** Size of the population a generator builds for itself when called without one (as in unit tests). */
export const DEFAULT_POPULATION_SIZE = 3_000;

/** One company of the population, as the generators see it. */
export interface PopulationCompany {
  index: number;
  name: string;
  website: string | null;
  linkedinUrl: string | null;
  /** ISO 3166-1 alpha-2 code of the headquarters' country. */
  country: string | null;
  /** LinkedIn industry label. */
  industry: string | null;
  employeeCount: number | null;
  foundedYear: number | null;
  description: string | null;
}

const LINKEDIN_PREFIX = 'https://www.linkedin.com/company/';

/** Small repeated strings (country codes, industry labels) kept once, referred to by number. */
class Interned {
  readonly values: string[] = [];
  private readonly ids = new Map<string, number>();

  id(value: string | null): number {
    if (value === null) return 0xff;
    let id = this.ids.get(value);
    if (id === undefined) {
      id = this.values.length;
      if (id >= 0xff) throw new Error('too many distinct values to intern');
      this.values.push(value);
      this.ids.set(value, id);
    }
    return id;
  }

  value(id: number): string | null {
    return id === 0xff ? null : (this.values[id] as string);
  }
}

/**
 * Strings kept as UTF-8 in one growing buffer, read back by index: a few bytes per character
 * where half a million JavaScript strings (built by concatenation, so in pieces) take several times that.
 */
class StringColumn {
  private bytes: Buffer;
  private used = 0;
  private readonly offsets: Uint32Array;
  private readonly nulls: Uint8Array;
  private count = 0;

  constructor(size: number, bytesEach: number) {
    this.bytes = Buffer.allocUnsafe(Math.max(1024, size * bytesEach));
    this.offsets = new Uint32Array(size + 1);
    this.nulls = new Uint8Array(size);
  }

  push(value: string | null): void {
    const i = this.count++;
    if (value === null) this.nulls[i] = 1;
    else {
      const room = value.length * 3;
      if (this.used + room > this.bytes.length) {
        const grown = Buffer.allocUnsafe(Math.max(this.bytes.length * 2, this.used + room));
        this.bytes.copy(grown, 0, 0, this.used);
        this.bytes = grown;
      }
      this.used += this.bytes.write(value, this.used, 'utf8');
    }
    this.offsets[i + 1] = this.used;
  }

  /** Drops the unused room at the end of the buffer. */
  trim(): void {
    if (this.bytes.length > this.used + 4096) this.bytes = Buffer.from(this.bytes.subarray(0, this.used));
  }

  get(index: number): string | null {
    if (this.nulls[index] === 1) return null;
    return this.bytes.toString('utf8', this.offsets[index] as number, this.offsets[index + 1] as number);
  }
}

export class CompanyPopulation {
  readonly size: number;
  private readonly names: StringColumn;
  private readonly websites: StringColumn;
  /** The LinkedIn page's handle (the URL without its common prefix), or null. */
  private readonly linkedinHandles: StringColumn;
  private readonly descriptions: StringColumn;
  private readonly countries: Uint8Array;
  private readonly industries: Uint8Array;
  /** -1: unknown. */
  private readonly employees: Int32Array;
  /** 0: unknown. */
  private readonly founded: Uint16Array;
  private readonly countryCodes = new Interned();
  private readonly industryLabels = new Interned();
  /** Each company's activity: how many records it tends to carry, relative to the others. */
  readonly activity: Float64Array;

  private constructor(size: number) {
    this.size = size;
    this.names = new StringColumn(size, 20);
    this.websites = new StringColumn(size, 32);
    this.linkedinHandles = new StringColumn(size, 20);
    this.descriptions = new StringColumn(size, 80);
    this.countries = new Uint8Array(size);
    this.industries = new Uint8Array(size);
    this.employees = new Int32Array(size);
    this.founded = new Uint16Array(size);
    this.activity = new Float64Array(size);
  }

  /** The first `size` companies of generateCompanies(seed, size, asOf) (prefix-stable, as it is). */
  static build(seed: number, size: number, asOf: Date): CompanyPopulation {
    const population = new CompanyPopulation(size);
    let i = 0;
    for (const company of generateCompanies(seed, size, asOf)) {
      population.names.push(company.name);
      population.websites.push(company.website ?? null);
      const linkedin = company.linkedinUrl ?? null;
      population.linkedinHandles.push(
        linkedin === null ? null : linkedin.startsWith(LINKEDIN_PREFIX) ? linkedin.slice(LINKEDIN_PREFIX.length) : linkedin,
      );
      population.descriptions.push(company.description ?? null);
      population.countries[i] = population.countryCodes.id(company.headquartersCountry ?? null);
      population.industries[i] = population.industryLabels.id(company.industry ?? null);
      population.employees[i] = company.employeeCount ?? -1;
      population.founded[i] = company.foundedYear ?? 0;
      i++;
    }
    if (i !== size) throw new Error(`the company generator made ${i} companies, not ${size}`);
    for (const column of [population.names, population.websites, population.linkedinHandles, population.descriptions])
      column.trim();
    const rng = new Rng(mersenneRandomizer(seed, ACTIVITY_STREAM));
    for (let k = 0; k < size; k++) population.activity[k] = Math.exp(ACTIVITY_SIGMA * rng.normal());
    return population;
  }

  name(index: number): string {
    return this.names.get(index) as string;
  }

  website(index: number): string | null {
    return this.websites.get(index);
  }

  linkedinUrl(index: number): string | null {
    const handle = this.linkedinHandles.get(index);
    if (handle === null) return null;
    return handle.startsWith('https://') ? handle : LINKEDIN_PREFIX + handle;
  }

  /** The LinkedIn page's handle ("nimbus-labs"), or null. */
  linkedinHandle(index: number): string | null {
    const handle = this.linkedinHandles.get(index);
    return handle === null || handle.startsWith('https://') ? null : handle;
  }

  country(index: number): string | null {
    return this.countryCodes.value(this.countries[index] as number);
  }

  industry(index: number): string | null {
    return this.industryLabels.value(this.industries[index] as number);
  }

  employeeCount(index: number): number | null {
    const value = this.employees[index] as number;
    return value < 0 ? null : value;
  }

  foundedYear(index: number): number | null {
    const value = this.founded[index] as number;
    return value === 0 ? null : value;
  }

  description(index: number): string | null {
    return this.descriptions.get(index);
  }

  company(index: number): PopulationCompany {
    return {
      index,
      name: this.name(index),
      website: this.website(index),
      linkedinUrl: this.linkedinUrl(index),
      country: this.country(index),
      industry: this.industry(index),
      employeeCount: this.employeeCount(index),
      foundedYear: this.foundedYear(index),
      description: this.description(index),
    };
  }

  /**
   * A sampler of companies in proportion to activity × weight(index); companies weighted 0 (or
   * less) are never drawn. The weight is a dataset's fit: startups for funding rounds, companies
   * with a LinkedIn page for job changes, and so on. `maxActivity` caps the activity counted, for
   * records a company cannot have many of (funding rounds, being acquired).
   */
  sampler(weight: (index: number) => number, maxActivity = Infinity): CompanySampler {
    return new CompanySampler(this, weight, maxActivity);
  }
}

/** Weighted draws of population indices (binary search over cumulative weights). */
export class CompanySampler {
  private readonly indices: Int32Array;
  private readonly cumulative: Float64Array;
  private readonly total: number;

  constructor(population: CompanyPopulation, weight: (index: number) => number, maxActivity: number) {
    const indices: number[] = [];
    const weights: number[] = [];
    for (let i = 0; i < population.size; i++) {
      const w = weight(i);
      if (w > 0) {
        indices.push(i);
        weights.push(w * Math.min(maxActivity, population.activity[i] as number));
      }
    }
    if (indices.length === 0) throw new Error('no company of the population fits');
    this.indices = Int32Array.from(indices);
    this.cumulative = new Float64Array(weights.length);
    let sum = 0;
    for (let i = 0; i < weights.length; i++) {
      sum += weights[i] as number;
      this.cumulative[i] = sum;
    }
    this.total = sum;
  }

  /** How many companies can be drawn. */
  get size(): number {
    return this.indices.length;
  }

  pick(rng: Rng): number {
    const target = rng.next() * this.total;
    const cumulative = this.cumulative;
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((cumulative[mid] as number) > target) hi = mid;
      else lo = mid + 1;
    }
    return this.indices[lo] as number;
  }
}

const cache = new Map<string, CompanyPopulation>();

/**
 * The population for a seed (the companies dataset's: the demo seed plus its offset), a size and a
 * reference date. The last few are kept, so a seed run or a test builds each once.
 */
export function companyPopulation(seed: number, size: number, asOf: Date): CompanyPopulation {
  const key = `${seed}/${size}/${asOf.getTime()}`;
  let population = cache.get(key);
  if (population === undefined) {
    population = CompanyPopulation.build(seed, size, asOf);
    if (cache.size >= 4) cache.delete(cache.keys().next().value as string);
    cache.set(key, population);
  } else {
    // Most recently used last.
    cache.delete(key);
    cache.set(key, population);
  }
  return population;
}

/** The small population a generator called without one draws from: the demo size, for its own seed. */
export function defaultPopulation(seed: number, asOf: Date): CompanyPopulation {
  return companyPopulation(seed, DEFAULT_POPULATION_SIZE, asOf);
}
