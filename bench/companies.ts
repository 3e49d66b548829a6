// Companies under load on the large set, one worker, limits and credits on: the companies explore
// mix, the signal-filter (cross-signal) mix and one company by id or by domain, each a list of
// distinct requests drawn from the data, picked at random by wrk (bench/random-paths.lua), twice
// over; and the companies index's memory per company.
//
//   node --import tsx bench/companies.ts [--duration N] [--warmup N] [--connections N] [--workers N]
//   (npm run bench -- --only companies)
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Database } from '../src/platform/db/port.js';
import { PUBLISHED_ROUND_TYPES } from '../src/catalog/schemas/v2-schemas.js';
import { COMPANY_SORT_FIELDS } from '../src/catalog/schemas/published-params.js';
import { DEPARTMENTS, SENIORITIES } from '../src/catalog/role-classifier.js';
import { searchWords } from '../src/catalog/index.js';
import { postgresVersion } from './database.js';
import { WORK_DIR } from './options.js';
import { stopService } from './processes.js';
import { preparePart } from './setup.js';
import {
  fundedBenchKey,
  HIGH_V2_LIMIT,
  int,
  machineLines,
  onExitStopServers,
  rowCountList,
  startWith,
  verdict,
  writeSection,
} from './signals.js';
import { ensureDataset } from './database.js';
import { Random } from './realistic-paths.js';
import { indexMemory, MIX_TABLE_HEADER, mixServerLine, query, runMixes, type Mix } from './mixes.js';

const HEADING = '## Companies';
const LIST_DIR = join(WORK_DIR, 'companies');
/** Distinct requests per mix: far more than a run can cache its way through by repetition alone. */
const PATHS_PER_MIX = 4000;

interface SampledCompany {
  name: string;
  country_key: string | null;
  industry_key: string | null;
  employee_count: number | null;
  founded_year: number | null;
  website_key: string | null;
  record_id: string;
}

/** What the data holds to draw the mixes from: companies (with their words), industries, countries, signal dates. */
async function sample(db: Database) {
  const companies = await db.query<SampledCompany>(
    `SELECT name, country_key, industry_key, employee_count, founded_year, website_key, record_id::text AS record_id
       FROM companies TABLESAMPLE SYSTEM (2) LIMIT 8000`,
  );
  const industries = (
    await db.query<{ v: string }>(
      `SELECT industry_key AS v FROM companies WHERE industry_key IS NOT NULL GROUP BY 1 ORDER BY count(*) DESC LIMIT 60`,
    )
  ).map((row) => row.v);
  const countries = (
    await db.query<{ v: string }>(
      `SELECT upper(country_key) AS v FROM companies WHERE country_key IS NOT NULL GROUP BY 1 ORDER BY count(*) DESC LIMIT 30`,
    )
  ).map((row) => row.v);
  const days = (
    await db.query<{ v: string }>(
      `SELECT to_char(sort_at, 'YYYY-MM-DD') AS v FROM funding_rounds TABLESAMPLE SYSTEM (1) LIMIT 500`,
    )
  ).map((row) => row.v);
  const totals = (
    await db.query<{ v: number }>(
      `SELECT sum(funding_amount)::float8 AS v FROM funding_rounds TABLESAMPLE SYSTEM (5)
        WHERE company_id IS NOT NULL AND currency_key = 'USD' GROUP BY company_id LIMIT 500`,
    )
  ).map((row) => row.v);
  return { companies, industries, countries, days, totals };
}

type Sample = Awaited<ReturnType<typeof sample>>;

/** Company filters as an explorer sets them: a word of a name, countries, industries, ranges, sorts, pages 1–5. */
function companyFilters(data: Sample, random: Random, params: Record<string, string | number>) {
  const company = random.pick(data.companies);
  if (random.chance(0.35)) {
    const words = searchWords(company.name).filter((word) => word.length >= 3);
    if (words.length > 0) params.search = random.pick(words).slice(0, 3 + random.int(0, 3));
  }
  if (random.chance(0.5)) {
    params.countries = random.chance(0.7)
      ? random.pick(data.countries)
      : `${random.pick(data.countries)},${random.pick(data.countries)}`;
  }
  if (random.chance(0.3)) params.industry = random.pick(data.industries);
  if (random.chance(0.3) && company.employee_count !== null) {
    params.employee_count_min = Math.floor(company.employee_count / 2);
    if (random.chance(0.5)) params.employee_count_max = company.employee_count * 4;
  }
  if (random.chance(0.2) && company.founded_year !== null) params.founded_year_min = company.founded_year - random.int(0, 9);
}

function paging(random: Random, params: Record<string, string | number>) {
  if (random.chance(0.4)) {
    params.sort_by = random.pick(COMPANY_SORT_FIELDS);
    params.sort_order = random.pick(['asc', 'desc']);
  }
  params.limit = random.pick([20, 20, 50]);
  const page = 1 + Math.min(4, Math.floor(-Math.log(1 - random.int(0, 999) / 1000) * 0.8));
  if (page > 1) params.page = page;
}

function exploreMix(data: Sample): string[] {
  const random = new Random(26);
  const paths = new Set<string>();
  while (paths.size < PATHS_PER_MIX) {
    const params: Record<string, string | number> = {};
    companyFilters(data, random, params);
    paging(random, params);
    paths.add(`v2 /api/v2/companies?${query(params)}`);
  }
  return [...paths];
}

const PRESETS = ['last_30d', 'last_90d', 'last_6m', 'last_1y', 'this_year', 'last_2y'];

/** Two or three signal conditions and a company filter or two: "raised recently and hiring, in these countries". */
function crossMix(data: Sample): string[] {
  const random = new Random(27);
  const paths = new Set<string>();
  const window = () => (random.chance(0.6) ? random.pick(PRESETS) : random.pick(data.days));
  while (paths.size < PATHS_PER_MIX) {
    const params: Record<string, string | number> = {};
    const conditions = [
      () => (params.funding_round_since = window()),
      () => (params.job_change_since = window()),
      () => (params.has_signals = random.pick(['funding_round', 'job_change', 'acquisition', 'funding_round,job_change'])),
      () => (params.funding_round_types = random.pick(PUBLISHED_ROUND_TYPES.slice(0, 8))),
      () => (params.total_funding_min = Math.round(random.pick(data.totals) / 2)),
      () => {
        params.job_change_departments = random.pick(DEPARTMENTS);
        if (random.chance(0.6)) params.job_change_seniorities = random.pick(SENIORITIES);
      },
      () => (params.acquisition_since = window()),
    ];
    const wanted = 2 + random.int(0, 1);
    const used = new Set<number>();
    while (used.size < wanted) used.add(random.int(0, conditions.length - 1));
    for (const i of used) conditions[i]!();
    if (random.chance(0.5)) params.signals_since = window();
    const company: Record<string, string | number> = {};
    companyFilters(data, random, company);
    delete company.search;
    Object.assign(params, company);
    paging(random, params);
    paths.add(`v2 /api/v2/companies?${query(params)}`);
  }
  return [...paths];
}

/** One company: by id mostly, by domain a quarter of the time. */
function oneCompanyMix(data: Sample): string[] {
  const random = new Random(28);
  return data.companies.map((company) =>
    company.website_key !== null && random.chance(0.25)
      ? `v2 /api/v2/companies/lookup?${query({ domain: company.website_key })}`
      : `v2 /api/v2/companies/${company.record_id}`,
  );
}

async function main(): Promise<void> {
  const { options, startedAt, machine, tool, db, dataset } = await preparePart(process.argv.slice(2), {
    workers: 1,
    data: ensureDataset,
  });
  try {
    if (!dataset.rowCounts.companies) throw new Error('the bench database holds no companies: reload the large set');
    const data = await sample(db);
    const mixes: Mix[] = [
      {
        name: 'companies explore',
        target: { reqPerSec: 1000, p99Ms: 60 },
        about: 'search words, countries, industries, employee and founded ranges, sorts, pages 1–5',
        paths: exploreMix(data),
      },
      {
        name: 'cross-signal',
        target: { reqPerSec: 500, p99Ms: 100 },
        about: 'two or three signal conditions (windows, round types, totals, departments and seniorities) and company filters',
        paths: crossMix(data),
      },
      {
        name: '/companies/{id} and /lookup',
        target: { reqPerSec: 2000, p99Ms: 30 },
        about: 'one company with its signal summary, by id (3 in 4) or by domain',
        paths: oneCompanyMix(data),
      },
    ];
    mkdirSync(LIST_DIR, { recursive: true });
    const keyFile = join(LIST_DIR, 'key');
    writeFileSync(keyFile, `${await fundedBenchKey(db)}\n`, { mode: 0o600 });
    const server = await startWith({ RATE_LIMIT_ENTERPRISE: HIGH_V2_LIMIT }, options);
    let found: { rows: string[]; checks: string[] };
    let memory: { bytes: number; records: number };
    try {
      memory = await indexMemory(server.baseUrl, 'companies');
      found = await runMixes(tool, server.baseUrl, options, mixes, LIST_DIR, keyFile);
    } finally {
      await stopService(server);
    }
    const { rows, checks } = found;
    const perCompany = memory.bytes / memory.records;
    const section = [
      HEADING,
      '',
      '`npm run bench -- --only companies` (bench/companies.ts).',
      '',
      ...machineLines(startedAt, machine, await postgresVersion(db)),
      `- Data: ${rowCountList(dataset.rowCounts)}`,
      mixServerLine(options),
      ...checks,
      '',
      ...MIX_TABLE_HEADER,
      ...rows,
      '',
      `Companies index: ${int(memory.bytes)} bytes for ${int(memory.records)} companies, ${perCompany.toFixed(1)} bytes a company ` +
        `(\`dealsignal_index_bytes{dataset="companies"}\`; target ≤ 100): ${verdict(perCompany <= 100)}.`,
      '',
    ].join('\n');
    console.log(`\n${section}`);
    writeSection(HEADING, section);
  } finally {
    await db.close();
  }
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) onExitStopServers(main);
