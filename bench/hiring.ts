// Hiring signals under load on the large set, one worker, limits and credits on: the hiring explore mix
// and the description searches (words drawn from the job descriptions, alone and with other filters),
// each a list of distinct requests drawn from the data, picked at random by wrk (bench/random-paths.lua),
// twice over; and the hiring index's memory per posting.
//
//   node --import tsx bench/hiring.ts [--duration N] [--warmup N] [--connections N] [--workers N]
//   (npm run bench -- --only hiring)
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Database } from '../src/platform/db/port.js';
import { HIRING_SORT_FIELDS } from '../src/catalog/schemas/published-params.js';
import { TEAM_SIZES } from '../src/catalog/schemas/hiring-schemas.js';
import { DEPARTMENTS, SENIORITIES } from '../src/catalog/role-classifier.js';
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

const HEADING = '## Hiring signals';
const LIST_DIR = join(WORK_DIR, 'hiring');
/** Distinct requests per mix: far more than a run can cache its way through by repetition alone. */
const PATHS_PER_MIX = 4000;
/** Words too common in any text to be what a recruiter searches for (PostgreSQL drops its own stop words too). */
const COMMON = new Set(['with', 'that', 'will', 'your', 'from', 'have', 'this', 'team', 'work', 'what', 'more', 'their']);

/** What the data holds to draw the mixes from: countries, states, days, and the words of sampled descriptions. */
async function sample(db: Database) {
  const countries = (
    await db.query<{ v: string }>(
      `SELECT upper(job_country_key) AS v FROM hiring_postings TABLESAMPLE SYSTEM (1)
        WHERE job_country_key IS NOT NULL GROUP BY 1 ORDER BY count(*) DESC LIMIT 12`,
    )
  ).map((row) => row.v);
  const states = (
    await db.query<{ v: string }>(
      `SELECT state_key AS v FROM hiring_postings TABLESAMPLE SYSTEM (1) WHERE state_key IS NOT NULL GROUP BY 1 LIMIT 20`,
    )
  ).map((row) => row.v);
  const docs = await db.query<{ doc: string }>(`SELECT doc FROM hiring_postings TABLESAMPLE SYSTEM (0.1) LIMIT 400`);
  const words = new Map<string, number>();
  for (const { doc } of docs) {
    const text = (JSON.parse(doc) as { descriptionText: string | null }).descriptionText ?? '';
    for (const word of new Set(text.toLowerCase().match(/[a-z][a-z+#]{3,}/g) ?? [])) {
      if (!COMMON.has(word)) words.set(word, (words.get(word) ?? 0) + 1);
    }
  }
  // What a recruiter searches is what tells postings apart (a skill, a tool, a stage): not the boilerplate that
  // most descriptions share ("opportunity", "employer"), kept out as words in more than 30 % of the sample.
  const distinctive = [...words].filter(([, n]) => n <= docs.length * 0.3).map(([word]) => word);
  return { countries, states, words: distinctive, sampled: docs.length };
}

type Sample = Awaited<ReturnType<typeof sample>>;

/** Filters as a recruiter or a seller sets them: departments, seniorities, countries, dates, team sizes. */
function postingFilters(data: Sample, random: Random, params: Record<string, string | number>) {
  if (random.chance(0.5)) params.departments = random.pick(DEPARTMENTS);
  if (random.chance(0.3)) params.seniorities = random.pick(SENIORITIES);
  if (random.chance(0.4)) {
    if (random.chance(0.7)) params.countries = random.pick(data.countries);
    else params.job_countries = `${random.pick(data.countries)},${random.pick(data.countries)}`;
  }
  if (random.chance(0.15) && data.states.length > 0) params.states = random.pick(data.states);
  if (random.chance(0.3)) params.date_preset = random.pick(['last_7d', 'last_30d', 'last_90d', 'this_month']);
  if (random.chance(0.25)) params.team_size = random.pick(TEAM_SIZES);
}

function paging(random: Random, params: Record<string, string | number>) {
  if (random.chance(0.3)) {
    params.sort_by = random.pick(HIRING_SORT_FIELDS);
    params.sort_order = random.pick(['asc', 'desc']);
  }
  params.limit = random.pick([20, 20, 50]);
  const page = 1 + Math.min(4, Math.floor(-Math.log(1 - random.int(0, 999) / 1000) * 0.8));
  if (page > 1) params.page = page;
}

function exploreMix(data: Sample): string[] {
  const random = new Random(31);
  const paths = new Set<string>();
  while (paths.size < PATHS_PER_MIX) {
    const params: Record<string, string | number> = {};
    postingFilters(data, random, params);
    paging(random, params);
    paths.add(`v2 /api/v2/signals/hiring?${query(params)}`);
  }
  return [...paths];
}

/** 1–3 words of the descriptions (sometimes OR, a phrase or an exclusion), alone or with other filters. */
function descriptionMix(data: Sample): string[] {
  const random = new Random(32);
  const paths = new Set<string>();
  while (paths.size < PATHS_PER_MIX) {
    const words = Array.from({ length: 1 + random.int(0, 2) }, () => random.pick(data.words));
    const shape = random.int(0, 9);
    const description =
      shape === 0 && words.length > 1
        ? words.join(' OR ')
        : shape === 1 && words.length > 1
          ? `"${words.join(' ')}"`
          : shape === 2 && words.length > 1
            ? `${words.slice(0, -1).join(' ')} -${words.at(-1)}`
            : words.join(' ');
    const params: Record<string, string | number> = { description };
    if (random.chance(0.5)) postingFilters(data, random, params);
    paging(random, params);
    paths.add(`v2 /api/v2/signals/hiring?${query(params)}`);
  }
  return [...paths];
}

async function main(): Promise<void> {
  const { options, startedAt, machine, tool, db, dataset } = await preparePart(process.argv.slice(2), {
    workers: 1,
    data: ensureDataset,
  });
  try {
    if (!dataset.rowCounts.hiring_postings) throw new Error('the bench database holds no job postings: load the large set');
    const data = await sample(db);
    const mixes: Mix[] = [
      {
        name: 'hiring explore',
        target: { reqPerSec: 800, p99Ms: 100 },
        about: 'departments, seniorities, countries, states, date presets, team sizes, sorts, pages 1–5',
        paths: exploreMix(data),
      },
      {
        name: 'description searches',
        target: { reqPerSec: 100, p99Ms: 200 },
        about:
          `1–3 words of ${int(data.words.length)} drawn from ${int(data.sampled)} sampled descriptions (words in at most 30 % of ` +
          'them; some OR, phrases, exclusions), half with other filters',
        paths: descriptionMix(data),
      },
    ];
    mkdirSync(LIST_DIR, { recursive: true });
    const keyFile = join(LIST_DIR, 'key');
    writeFileSync(keyFile, `${await fundedBenchKey(db)}\n`, { mode: 0o600 });
    const server = await startWith({ RATE_LIMIT_ENTERPRISE: HIGH_V2_LIMIT }, options);
    let found: { rows: string[]; checks: string[] };
    let memory: { bytes: number; records: number };
    try {
      memory = await indexMemory(server.baseUrl, 'hiring');
      found = await runMixes(tool, server.baseUrl, options, mixes, LIST_DIR, keyFile);
    } finally {
      await stopService(server);
    }
    const { rows, checks } = found;
    const perPosting = memory.bytes / memory.records;
    const section = [
      HEADING,
      '',
      '`npm run bench -- --only hiring` (bench/hiring.ts).',
      '',
      ...machineLines(startedAt, machine, await postgresVersion(db)),
      `- Data: ${rowCountList(dataset.rowCounts)}`,
      mixServerLine(options),
      ...checks,
      '',
      ...MIX_TABLE_HEADER,
      ...rows,
      '',
      `Hiring index: ${int(memory.bytes)} bytes for ${int(memory.records)} postings, ${perPosting.toFixed(1)} bytes a posting ` +
        `(\`dealsignal_index_bytes{dataset="hiring"}\`; target ≤ 120): ${verdict(perPosting <= 120)}.`,
      '',
    ].join('\n');
    console.log(`\n${section}`);
    writeSection(HEADING, section);
  } finally {
    await db.close();
  }
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) onExitStopServers(main);
