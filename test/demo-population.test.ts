// The demo data draws every dataset's companies from one population (the companies dataset's):
// a company's funding rounds, M&A deals, job changes and acquisition signals name it as its
// profile does (name, website, LinkedIn page: what records are linked to companies by), a
// minority of companies carries many records, and many carry records of several datasets.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEMO_GENERATORS, demoPopulation } from '../src/demo/generators.js';
import { generateCompanies } from '../src/demo/company-generator.js';
import type { CompanyPopulation } from '../src/demo/company-population.js';
import { DEMO_SEED, SCALES } from '../src/demo/seed.js';

const AS_OF = new Date('2026-01-15T00:00:00Z');
const SHARED = ['funding', 'm-a', 'job-changes', 'acquisitions'] as const;
type Shared = (typeof SHARED)[number];

/** A URL as the server compares them: lower case, without scheme, "www.", query and trailing slash. */
const urlKey = (url: string | null | undefined): string | null =>
  url
    ? url
        .toLowerCase()
        .replace(/^[a-z]+:\/\//, '')
        .replace(/^www\./, '')
        .replace(/[?#].*$/, '')
        .replace(/\/+$/, '')
    : null;

/** What a record says of its company. */
interface Named {
  name: string;
  website?: string | null;
  linkedinUrl?: string | null;
}

// Loosely typed on purpose: each dataset's record shape is checked by test/seed.test.ts.
/* eslint-disable @typescript-eslint/no-explicit-any */
const namedBy: Record<Shared, (record: any) => Named> = {
  funding: (r) => ({
    name: r.company_name,
    website: r.company_info?.website ?? null,
    linkedinUrl: r.contact_info?.[0]?.company_linkedin_url ?? null,
  }),
  'm-a': (r) => ({
    name: r.company_name,
    website: r.company_info?.website ?? null,
    linkedinUrl: r.contact_info?.[0]?.company_linkedin_url ?? null,
  }),
  'job-changes': (r) => ({ name: r.companyName, linkedinUrl: r.companyLinkedinUrl }),
  acquisitions: (r) => ({ name: r.companyName, website: r.website, linkedinUrl: r.linkedinUrl }),
};

function recordsOf(name: Shared, population: CompanyPopulation, count = DEMO_GENERATORS[name].sizes.demo): unknown[] {
  const generator = DEMO_GENERATORS[name];
  const out: unknown[] = [];
  for (const { record } of generator.generate(DEMO_SEED + generator.seedOffset, count, AS_OF, population)) out.push(record);
  return out;
}

describe('demo data: one company population for every dataset', () => {
  const population = demoPopulation(DEMO_SEED, 'demo', AS_OF);
  const byWebsite = new Map<string, number>();
  const byLinkedin = new Map<string, number>();
  const byName = new Map<string, number>();
  for (let i = 0; i < population.size; i++) {
    byName.set(population.name(i), i);
    const website = urlKey(population.website(i));
    if (website) byWebsite.set(website, i);
    const linkedin = urlKey(population.linkedinUrl(i));
    if (linkedin) byLinkedin.set(linkedin, i);
  }
  /**
   * The population company a record is about, by website, then LinkedIn page, then name (for the
   * few companies with neither; names are unique in the population); -1: none.
   */
  const companyOf = (named: Named) =>
    byWebsite.get(urlKey(named.website) ?? '') ??
    byLinkedin.get(urlKey(named.linkedinUrl) ?? '') ??
    (named.website || named.linkedinUrl ? undefined : byName.get(named.name)) ??
    -1;
  const records = Object.fromEntries(SHARED.map((name) => [name, recordsOf(name, population)])) as Record<Shared, unknown[]>;

  it('is the companies dataset of the scale, seeded as the seed seeds it', () => {
    assert.equal(population.size, SCALES.demo.companies);
    const companies = [...generateCompanies(DEMO_SEED + DEMO_GENERATORS.companies.seedOffset, population.size, AS_OF)];
    companies.forEach((company, i) => {
      assert.equal(population.name(i), company.name);
      assert.equal(population.website(i), company.website);
      assert.equal(population.linkedinUrl(i), company.linkedinUrl);
      assert.equal(population.country(i), company.headquartersCountry);
      assert.equal(population.industry(i), company.industry);
      assert.equal(population.employeeCount(i), company.employeeCount);
      assert.equal(population.foundedYear(i), company.foundedYear);
      assert.equal(population.description(i), company.description);
    });
  });

  it("every record names a population company exactly as the company's profile does", () => {
    for (const name of SHARED) {
      for (const record of records[name]) {
        const named = namedBy[name](record);
        const i = companyOf(named);
        assert.ok(i >= 0, `${name}: ${JSON.stringify(named)} is no population company`);
        assert.equal(named.name, population.name(i), name);
        if (named.website !== undefined) assert.equal(named.website, population.website(i), name);
        assert.equal(named.linkedinUrl, population.linkedinUrl(i), name);
      }
    }
  });

  it('records agree with their company: country, industry, headcount, founded year, description', () => {
    for (const record of records.acquisitions as any[]) {
      const i = companyOf(namedBy.acquisitions(record));
      assert.equal(record.employeeCount, population.employeeCount(i));
      if (population.foundedYear(i) !== null) assert.equal(record.foundedYear, population.foundedYear(i));
      if (population.industry(i) !== null) assert.equal(record.industry, population.industry(i));
      if (population.description(i) !== null) assert.equal(record.description, population.description(i));
      assert.ok(population.country(i) !== null && record.country !== null);
    }
    for (const name of ['funding', 'm-a'] as const) {
      for (const record of records[name] as any[]) {
        const i = companyOf(namedBy[name](record));
        const info = record.company_info;
        assert.equal(info.year_founded, population.foundedYear(i), name);
        if (population.industry(i) !== null) assert.equal(info.industry, population.industry(i), name);
        if (population.description(i) !== null) assert.equal(info.description, population.description(i), name);
        assert.equal(info.hq_country === null, population.country(i) === null, name);
        assert.ok(Date.parse(record.date_seen) >= Date.UTC(info.year_founded ?? 1900, 0, 1), `${name}: seen before founded`);
      }
    }
  });

  it('a minority of companies carries many records; a good share has records of two datasets or more', () => {
    const datasets = new Uint8Array(population.size);
    SHARED.forEach((name, bit) => {
      const counts = new Map<number, number>();
      for (const record of records[name]) {
        const i = companyOf(namedBy[name](record));
        datasets[i]! |= 1 << bit;
        counts.set(i, (counts.get(i) ?? 0) + 1);
      }
      // Skewed: the busiest tenth of the companies with records carries well over a tenth of them.
      const sorted = [...counts.values()].sort((a, b) => b - a);
      const top = sorted.slice(0, Math.ceil(sorted.length / 10)).reduce((a, b) => a + b, 0);
      if (name === 'funding' || name === 'job-changes')
        assert.ok(top / records[name].length > 0.2, `${name}: top tenth has ${top}`);
    });
    const inSeveral = datasets.filter((bits) => (bits & (bits - 1) & 0xff) !== 0).length;
    const inNone = datasets.filter((bits) => bits === 0).length;
    assert.ok(inSeveral / population.size > 0.35, `${inSeveral} of ${population.size} companies in 2+ datasets`);
    assert.ok(inNone / population.size > 0.1, `${inNone} of ${population.size} companies without records`);
  });

  it('the records are prefix-stable and the same whatever the reference date names the same companies', () => {
    for (const name of SHARED) {
      assert.deepEqual(recordsOf(name, population, 300), records[name].slice(0, 300), name);
    }
    const later = new Date('2026-09-30T00:00:00Z');
    const laterPopulation = demoPopulation(DEMO_SEED, 'demo', later);
    for (const name of ['funding', 'm-a', 'acquisitions'] as const) {
      const generator = DEMO_GENERATORS[name];
      const names = (iterable: Iterable<{ record: unknown }>) => [...iterable].map(({ record }) => namedBy[name](record));
      assert.deepEqual(
        names(generator.generate(DEMO_SEED + generator.seedOffset, 500, later, laterPopulation)),
        records[name].slice(0, 500).map(namedBy[name]),
        name,
      );
    }
  });
});
