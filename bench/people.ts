// People under load on the large set, one worker, limits and credits on: the people explore mix
// (titles, functions, seniorities, countries, company sizes, industries, signal types and windows,
// pages 1–5) and identifier lookups (a person by LinkedIn profile, the people at a company by domain
// or LinkedIn page), each a list of distinct requests drawn from the data, picked at random by wrk,
// twice over; the explore mix again while 10 records a second (funding rounds and job changes, each
// naming people) are ingested through the admin API; and what building the people directory took
// (time, resident memory).
//
//   node --import tsx bench/people.ts [--duration N] [--warmup N] [--connections N]
//   (npm run bench -- --only people; the data set is the one in BENCH_DATABASE_URL, e.g. the large set
//   loaded by `dealsignal seed --scale large`)
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Database } from '../src/platform/db/port.js';
import { DEPARTMENTS, SENIORITIES } from '../src/catalog/role-classifier.js';
import { searchWords } from '../src/catalog/index.js';
import { SIZE_BANDS } from '../src/people/schemas.js';
import { foundData, postgresVersion } from './database.js';
import { WORK_DIR } from './options.js';
import { stopService } from './processes.js';
import { preparePart } from './setup.js';
import {
  fundedBenchKey,
  HIGH_V2_LIMIT,
  int,
  machineLines,
  ms,
  onExitStopServers,
  rowCountList,
  startWith,
  writeSection,
} from './signals.js';
import { Random } from './realistic-paths.js';
import { MIX_TABLE_HEADER, mixServerLine, query, runMixes, type Mix } from './mixes.js';
import { LIVE_BATCH, LIVE_RECORDS_PER_SECOND, LiveIngest, removeLiveRecords, type IngestAcks } from './live-ingest.js';

const HEADING = '## People';
const LIST_DIR = join(WORK_DIR, 'people');
const PATHS_PER_MIX = 4000;
/** The server takes new records through its admin API during the ingesting runs. */
const ADMIN_TOKEN = randomBytes(24).toString('hex');

/** What the data holds to draw the mixes from: the titles people hold, their profiles, companies, countries, industries. */
async function sample(db: Database) {
  const titles = (
    await db.query<{ v: string }>(`SELECT doc::json->>'newRole' AS v FROM job_changes TABLESAMPLE SYSTEM (1) LIMIT 3000`)
  ).map((row) => row.v);
  const profiles = (
    await db.query<{ v: string }>(
      `SELECT person_key AS v FROM job_changes TABLESAMPLE SYSTEM (1) WHERE person_key IS NOT NULL LIMIT 3000`,
    )
  ).map((row) => row.v);
  const companies = await db.query<{ website_key: string | null; linkedin_key: string | null }>(
    `SELECT website_key, linkedin_key FROM companies TABLESAMPLE SYSTEM (2) LIMIT 3000`,
  );
  const countries = (
    await db.query<{ v: string }>(
      `SELECT upper(country_key) AS v FROM companies WHERE country_key IS NOT NULL GROUP BY 1 ORDER BY count(*) DESC LIMIT 30`,
    )
  ).map((row) => row.v);
  const industries = (
    await db.query<{ v: string }>(
      `SELECT industry_key AS v FROM companies WHERE industry_key IS NOT NULL GROUP BY 1 ORDER BY count(*) DESC LIMIT 40`,
    )
  ).map((row) => row.v);
  return { titles, profiles, companies, countries, industries };
}
type Sample = Awaited<ReturnType<typeof sample>>;

const WINDOWS = ['30d', '90d', '6m', '12m', '2y'];
const TYPES = ['funding_round', 'acquisition', 'job_change', 'funding_round,job_change', 'acquisition,job_change'];

/** An explorer's people search: two or three of the filters, a window, a page of 20–100, pages 1–5. */
function exploreMix(data: Sample): string[] {
  const random = new Random(30);
  const paths = new Set<string>();
  while (paths.size < PATHS_PER_MIX) {
    const params: Record<string, string | number> = {};
    const filters = [
      () => {
        // A held title, or a word run of one ("VP of Sales", "Engineering Manager").
        const title = random.pick(data.titles);
        const words = searchWords(title);
        params.title = random.chance(0.5) || words.length < 2 ? title : words.slice(0, 2).join(' ');
      },
      () =>
        (params.function = random.chance(0.7)
          ? random.pick(DEPARTMENTS)
          : `${random.pick(DEPARTMENTS)},${random.pick(DEPARTMENTS)}`),
      () =>
        (params.seniority = random.chance(0.6)
          ? random.pick(SENIORITIES)
          : `${random.pick(SENIORITIES)},${random.pick(SENIORITIES)}`),
      () =>
        (params.country = random.chance(0.7)
          ? random.pick(data.countries)
          : `${random.pick(data.countries)},${random.pick(data.countries)}`),
      () => (params.exclude_countries = random.pick(data.countries)),
      () =>
        (params.company_size = random.chance(0.6)
          ? random.pick(SIZE_BANDS)
          : `${random.pick(SIZE_BANDS)},${random.pick(SIZE_BANDS)}`),
      () => (params.industry = random.pick(data.industries)),
    ];
    const wanted = 1 + random.int(0, 2);
    const used = new Set<number>();
    while (used.size < wanted) used.add(random.int(0, filters.length - 1));
    for (const i of used) filters[i]!();
    if (random.chance(0.5)) params.signal_type = random.pick(TYPES);
    if (random.chance(0.6)) params.signal_date_range = random.pick(WINDOWS);
    params.limit = random.pick([20, 20, 50, 100]);
    const page = 1 + Math.min(4, Math.floor(-Math.log(1 - random.int(0, 999) / 1000) * 0.8));
    if (page > 1) params.page = page;
    paths.add(`v2 /api/v2/people?${query(params)}`);
  }
  return [...paths];
}

/** A person by profile (half), the people at a company by domain or LinkedIn page (the rest). */
function lookupMix(data: Sample): string[] {
  const random = new Random(31);
  const paths = new Set<string>();
  for (let tries = 0; paths.size < PATHS_PER_MIX && tries < PATHS_PER_MIX * 4; tries++) {
    const params: Record<string, string | number> = { limit: 20 };
    const company = random.pick(data.companies);
    const kind = random.int(0, 3);
    if (kind < 2) params.linkedin_url = `https://www.${random.pick(data.profiles)}`;
    else if (kind === 2 && company.website_key !== null) params.company_domain = company.website_key.split('/')[0]!;
    else if (company.linkedin_key !== null) params.company_linkedin_url = `https://www.${company.linkedin_key}`;
    else continue;
    paths.add(`v2 /api/v2/people?${query(params)}`);
  }
  return [...paths];
}

async function residentBytes(baseUrl: string): Promise<number> {
  const text = await (await fetch(`${baseUrl}/metrics`)).text();
  return Number(/^dealsignal_process_resident_memory_bytes (\S+)/m.exec(text)?.[1] ?? NaN);
}

/**
 * The first people answer, however long the directory takes to build: fetch gives up waiting for
 * headers after 300 s, and a request sent again waits for the same build.
 */
async function firstAnswer(url: string, keyFile: string): Promise<{ pagination: { totalCount: number } }> {
  const deadline = Date.now() + 1_800_000;
  const headers = { authorization: `Bearer ${readFileSync(keyFile, 'utf8').trim()}` };
  for (;;) {
    try {
      const res = await fetch(url, { headers });
      const body = (await res.json()) as { pagination?: { totalCount: number } };
      if (!res.ok || body.pagination === undefined) throw new Error(`building the people directory: HTTP ${res.status}`);
      return { pagination: body.pagination };
    } catch (error) {
      const code = (error as { cause?: { code?: string } }).cause?.code;
      if (code !== 'UND_ERR_HEADERS_TIMEOUT' || Date.now() > deadline) throw error;
    }
  }
}

async function main(): Promise<void> {
  const { options, startedAt, machine, tool, db, dataset } = await preparePart(process.argv.slice(2), {
    workers: 1,
    data: foundData,
  });
  try {
    if (!dataset.rowCounts.companies) throw new Error('the bench database holds no companies: load the large set');
    const data = await sample(db);
    const mixes: Mix[] = [
      {
        name: 'people explore',
        target: { reqPerSec: 600, p99Ms: 100 },
        about:
          'one to three of title (held titles and their first two words), function, seniority, country, exclude_countries, ' +
          'company_size, industry; signal_type half the time, signal_date_range 60 % (else 12 months); limit 20–100, pages 1–5',
        paths: exploreMix(data),
      },
      {
        name: 'identifier lookups',
        target: { reqPerSec: 0, p99Ms: 20 },
        about: 'a person by LinkedIn profile (half), the people at a company by domain or LinkedIn page; all time, limit 20',
        paths: lookupMix(data),
      },
    ];
    mkdirSync(LIST_DIR, { recursive: true });
    const keyFile = join(LIST_DIR, 'key');
    writeFileSync(keyFile, `${await fundedBenchKey(db)}\n`, { mode: 0o600 });
    const server = await startWith({ RATE_LIMIT_ENTERPRISE: HIGH_V2_LIMIT, ADMIN_TOKEN }, options);
    let found: { rows: string[]; checks: string[] };
    let acks: IngestAcks;
    let build: { seconds: number; people: number; residentBefore: number; residentAfter: number };
    try {
      // The directory is built on first use: once, before the load, so no run waits for it.
      const residentBefore = await residentBytes(server.baseUrl);
      const started = performance.now();
      const body = await firstAnswer(`${server.baseUrl}/api/v2/people?count=true&signal_date_range=100y`, keyFile);
      build = {
        seconds: (performance.now() - started) / 1000,
        people: body.pagination.totalCount,
        residentBefore,
        residentAfter: await residentBytes(server.baseUrl),
      };
      console.log(`people directory: ${int(build.people)} people with a signal, built in ${build.seconds.toFixed(1)} s`);
      found = await runMixes(tool, server.baseUrl, options, mixes, LIST_DIR, keyFile);
      // The explore mix again while new records name new people and move others: each page first
      // takes in what was committed before it.
      const feed = new LiveIngest(server.baseUrl, ADMIN_TOKEN);
      feed.start();
      try {
        const explore = { ...mixes[0]!, name: 'people explore while ingesting' };
        const during = await runMixes(tool, server.baseUrl, options, [explore], LIST_DIR, keyFile);
        found.rows.push(...during.rows);
      } finally {
        acks = await feed.stop();
      }
    } finally {
      await stopService(server);
      const removed = await removeLiveRecords(db);
      console.log(`removed the ${removed.funding} funding rounds and ${removed.jobChanges} job changes ingested by the run`);
    }
    if (acks.failures > 0) throw new Error(`${acks.failures} ingests failed; first: ${acks.firstFailure}`);
    const { rows, checks } = found;
    const mib = (bytes: number) => `${int(bytes / 1048576)} MiB`;
    const section = [
      HEADING,
      '',
      '`npm run bench -- --only people` (bench/people.ts).',
      '',
      ...machineLines(startedAt, machine, await postgresVersion(db)),
      `- Data: ${rowCountList(dataset.rowCounts)}`,
      mixServerLine(options),
      ...checks,
      `- While ingesting: ${LIVE_RECORDS_PER_SECOND} records a second through \`POST /admin/ingest/KIND\` (every second ${LIVE_BATCH} ` +
        `funding rounds and ${LIVE_BATCH} job changes, dated now, one upload of each), from the warm-up to the end of the ` +
        `second run; removed from the database afterwards.`,
      '',
      ...MIX_TABLE_HEADER,
      ...rows,
      '',
      `Ingests meanwhile: ${int(acks.ingests)} seconds of records acknowledged, p50 ${ms(acks.p50Ms)} ms, p99 ${ms(acks.p99Ms)} ms, ` +
        `max ${ms(acks.maxMs)} ms, ${int(acks.failures)} failed.`,
      '',
      `People directory: ${int(build.people)} people with a signal at any time, built on first use in ${build.seconds.toFixed(1)} s; ` +
        `the server's resident memory went from ${mib(build.residentBefore)} to ${mib(build.residentAfter)}.`,
      '',
    ].join('\n');
    console.log(`\n${section}`);
    writeSection(HEADING, section);
  } finally {
    await db.close();
  }
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) onExitStopServers(main);
