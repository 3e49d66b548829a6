// CSV enrichment under load, one worker, limits and credits on, on whatever data the bench database
// holds (the large set: `dealsignal seed --scale large`):
// - a 1,000-company job (70 % known by website, 20 % by name only, 10 % unknown), submitted and
//   polled until done, three jobs of different companies (target ≤ 5 s each);
// - wait=true with 100 companies, ten requests of different companies (target ≤ 2 s each);
// - reading results: wrk over the finished jobs' pages (100 results a page, every cursor; ≥ 500 pages/s);
// - ten jobs submitted at once by ten accounts while a list mix runs: all complete, and the list
//   mix's p99 stays within 1.5× of the same mix idle.
//
//   node --import tsx bench/enrichment.ts [--duration N] [--warmup N] [--connections N]
//   (npm run bench -- --only enrichment)
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Database } from '../src/platform/db/port.js';
import { createApiKey } from '../src/accounts/api-keys.js';
import { adjustCredits } from '../src/accounts/credit-queries.js';
import { foundData, postgresVersion } from './database.js';
import { WORK_DIR } from './options.js';
import { stopService } from './processes.js';
import { preparePart } from './setup.js';
import {
  describe,
  fundedBenchKey,
  HIGH_V2_LIMIT,
  int,
  machineLines,
  ms,
  onExitStopServers,
  rowCountList,
  startWith,
  verdict,
  waitForQuiet,
  writeSection,
} from './signals.js';
import { Random } from './realistic-paths.js';
import { companyListMix, loadPaths, query } from './mixes.js';
import type { LoadResult } from './stats.js';

const HEADING = '## CSV enrichment';
const LIST_DIR = join(WORK_DIR, 'enrichment');

/** The create answer, as far as the bench reads it. */
interface Created {
  data: { jobId: string; status?: string };
}

interface Known {
  name: string;
  website_key: string | null;
  country_key: string | null;
}

/** Companies to draw inputs from: with a website (the 70 %), and any (their names: the 20 %). */
async function sample(db: Database): Promise<{ withSite: Known[]; any: Known[] }> {
  const rows = await db.query<Known>(`SELECT name, website_key, country_key FROM companies TABLESAMPLE SYSTEM (5) LIMIT 40000`);
  return { withSite: rows.filter((row) => row.website_key !== null), any: rows };
}

/** A list of `size` companies as a CRM export gives them: 70 % by website, 20 % by name only, 10 % unknown. */
function companiesList(data: { withSite: Known[]; any: Known[] }, random: Random, size: number, tag: string) {
  return Array.from({ length: size }, (_, i) => {
    const roll = random.int(0, 99);
    if (roll < 70) {
      const company = random.pick(data.withSite);
      return { company_name: company.name, website_url: company.website_key!, crm_id: `${tag}-${i}` };
    }
    if (roll < 90) {
      const company = random.pick(data.any);
      return {
        company_name: company.name,
        ...(random.chance(0.5) && company.country_key && { country: company.country_key }),
        crm_id: `${tag}-${i}`,
      };
    }
    return { company_name: `Unheard Of ${tag} ${i}`, website_url: `unheard-of-${tag}-${i}.example`, crm_id: `${tag}-${i}` };
  });
}

async function post(baseUrl: string, key: string, body: object): Promise<{ status: number; ms: number; body: Created }> {
  const started = performance.now();
  const res = await fetch(`${baseUrl}/api/v2/csv-enrichment`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const parsed = (await res.json()) as Created;
  return { status: res.status, ms: performance.now() - started, body: parsed };
}

/** Polls the job every 25 ms until it has finished; its status and the time from `since`. */
async function finish(
  baseUrl: string,
  key: string,
  jobId: string,
  since: number,
): Promise<{ status: string; ms: number; matched: number }> {
  for (;;) {
    const res = await fetch(`${baseUrl}/api/v2/csv-enrichment/${jobId}?limit=1`, { headers: { authorization: `Bearer ${key}` } });
    const job = ((await res.json()) as { data: { status: string; summary: { matched: number } } }).data;
    if (job.status === 'completed' || job.status === 'failed')
      return { status: job.status, ms: performance.now() - since, matched: job.summary.matched };
    if (performance.now() - since > 120_000) return { status: 'timed out', ms: performance.now() - since, matched: 0 };
    await sleep(25);
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
    mkdirSync(LIST_DIR, { recursive: true });
    const key = await fundedBenchKey(db);
    const keyFile = join(LIST_DIR, 'key');
    writeFileSync(keyFile, `${key}\n`, { mode: 0o600 });
    // Ten accounts of their own for the concurrent jobs.
    const accounts: string[] = [];
    for (let i = 0; i < 10; i++) {
      const made = await createApiKey(db, { email: `bench-enrichment-${i}@dealsignal.local`, tier: 'enterprise', name: 'bench' });
      await adjustCredits(db, made.accountId, { set: 1_000_000 });
      accounts.push(made.key);
    }
    const server = await startWith({ RATE_LIMIT_ENTERPRISE: HIGH_V2_LIMIT }, options);
    const lines: string[] = [];
    try {
      const random = new Random(28);
      const base = server.baseUrl;
      await waitForQuiet();
      // A warm-up job (the first read of each index part), not counted.
      const warm = await post(base, key, { companies: companiesList(data, random, 1000, 'warm') });
      if (warm.status !== 200) throw new Error(`POST answered ${warm.status}: ${JSON.stringify(warm.body).slice(0, 300)}`);
      await finish(base, key, warm.body.data.jobId, performance.now());

      // 1. 1,000-company jobs, one at a time.
      const jobs: { id: string; ms: number; matched: number; status: string }[] = [];
      for (let i = 0; i < 3; i++) {
        const started = performance.now();
        const created = await post(base, key, { companies: companiesList(data, random, 1000, `job${i}`) });
        if (created.status !== 200) throw new Error(`POST answered ${created.status}: ${JSON.stringify(created.body)}`);
        const done = await finish(base, key, created.body.data.jobId, started);
        jobs.push({ id: created.body.data.jobId, ...done });
        console.log(`1,000-company job ${i + 1}: ${done.status} in ${ms(done.ms)} ms, ${done.matched} matched`);
      }
      const slowestJob = Math.max(...jobs.map((job) => job.ms));
      lines.push(
        `| 1,000-company job (70 % website, 20 % name only, 10 % unknown), submit to completed | ${jobs.map((j) => int(j.ms)).join(' / ')} ms ` +
          `(${jobs.map((j) => j.matched).join(' / ')} matched) | ≤ 5,000 ms | ${verdict(jobs.every((j) => j.status === 'completed') && slowestJob <= 5000)} |`,
      );

      // 2. wait=true with 100 companies.
      const waits: number[] = [];
      for (let i = 0; i < 10; i++) {
        const res = await post(base, key, { wait: true, timeout: 30, companies: companiesList(data, random, 100, `wait${i}`) });
        if (res.body.data.status !== 'completed')
          throw new Error(`wait=true did not finish: ${JSON.stringify(res.body).slice(0, 300)}`);
        waits.push(res.ms);
      }
      waits.sort((a, b) => a - b);
      console.log(`wait=true, 100 companies: ${waits.map((w) => ms(w)).join(', ')} ms`);
      lines.push(
        `| wait=true with 100 companies, answered inline (10 requests) | median ${int(waits[5]!)} ms, slowest ${int(waits.at(-1)!)} ms | ≤ 2,000 ms | ${verdict(waits.at(-1)! <= 2000)} |`,
      );

      // 3. Reading results: every page of the finished jobs, picked at random; pages of 100 (the most) and of 50 (the default).
      for (const size of [100, 50]) {
        const pages = jobs.flatMap((job) =>
          Array.from(
            { length: 1000 / size },
            (_, p) => `v2 /api/v2/csv-enrichment/${job.id}?${query({ limit: size, ...(p > 0 && { cursor: `r${p * size}` }) })}`,
          ),
        );
        const pagesFile = join(LIST_DIR, `result-pages-${size}.txt`);
        writeFileSync(pagesFile, pages.join('\n') + '\n');
        await loadPaths(tool, base, options, pagesFile, keyFile, options.warmupSeconds);
        const reads: LoadResult[] = [];
        for (let run = 0; run < 2; run++) {
          reads.push(await loadPaths(tool, base, options, pagesFile, keyFile, options.durationSeconds));
          console.log(`result pages of ${size}, run ${run + 1}: ${describe(reads.at(-1)!)}`);
        }
        const readFailures = reads.reduce((sum, r) => sum + r.failures + r.socketErrors, 0);
        lines.push(
          `| reading results, ${size} a page (${pages.length} distinct pages) | ${reads.map((r) => int(r.reqPerSec)).join(' / ')} pages/s, ` +
            `p99 ${reads.map((r) => ms(r.p99Ms)).join(' / ')} ms, ${readFailures} non-2xx | ≥ 500 pages/s | ` +
            `${verdict(readFailures === 0 && reads.every((r) => r.reqPerSec >= 500))} |`,
        );
      }

      // 4. Ten jobs by ten accounts at once, while the list mix runs; the same mix idle first.
      const listFile = join(LIST_DIR, 'lists.txt');
      writeFileSync(listFile, companyListMix(data.withSite, 31).join('\n') + '\n');
      const seconds = Math.max(options.durationSeconds, 15);
      await loadPaths(tool, base, options, listFile, keyFile, options.warmupSeconds);
      const idle = await loadPaths(tool, base, options, listFile, keyFile, seconds);
      console.log(
        `lists idle: ${describe(idle)} ${JSON.stringify(idle.statuses ?? {})} ${JSON.stringify(idle.statusSamples ?? {})}`,
      );
      const submitted = performance.now();
      const during = loadPaths(tool, base, options, listFile, keyFile, seconds);
      await sleep(1000);
      const concurrent = await Promise.all(
        accounts.map(async (accountKey, i) => {
          const started = performance.now();
          const created = await post(base, accountKey, { companies: companiesList(data, random, 1000, `ten${i}`) });
          return finish(base, accountKey, created.body.data.jobId, started);
        }),
      );
      const busy = await during;
      const allDone = performance.now() - submitted - 1000;
      console.log(
        `lists during ten jobs: ${describe(busy)}; jobs ${concurrent.map((c) => `${c.status} ${int(c.ms)} ms`).join(', ')}`,
      );
      const ratio = busy.p99Ms / idle.p99Ms;
      const listFailures = idle.failures + idle.socketErrors + busy.failures + busy.socketErrors;
      lines.push(
        `| ten 1,000-company jobs by ten accounts at once | all ${concurrent.every((c) => c.status === 'completed') ? 'completed' : '**not** completed'}, ` +
          `the last ${int(Math.max(...concurrent.map((c) => c.ms)))} ms after submission (${int(allDone)} ms for all) | all complete | ` +
          `${verdict(concurrent.every((c) => c.status === 'completed'))} |`,
        `| list mix p99 meanwhile (${int(seconds)} s, same ${int(3000)} requests idle first) | ${ms(idle.p99Ms)} ms idle → ${ms(busy.p99Ms)} ms ` +
          `(${ratio.toFixed(2)}×; ${int(idle.reqPerSec)} → ${int(busy.reqPerSec)} req/s, ${listFailures} non-2xx) | ≤ 1.5× | ${verdict(ratio <= 1.5 && listFailures === 0)} |`,
      );
    } finally {
      await stopService(server);
    }
    const section = [
      HEADING,
      '',
      '`npm run bench -- --only enrichment` (bench/enrichment.ts).',
      '',
      ...machineLines(startedAt, machine, await postgresVersion(db)),
      `- Data: ${rowCountList(dataset.rowCounts)}`,
      `- Server: \`dealsignal serve --workers ${options.workers}\` with its enrichment worker, limits and credits on; inputs drawn ` +
        'from a 5 % sample of the companies with a fixed seed (names as stored, websites as their domains, half the name-only ' +
        `inputs with the company's country); wrk, ${options.connections} connections.`,
      '',
      '| Measure | Figures | Target | |',
      '|---|---|---|---|',
      ...lines,
      '',
    ].join('\n');
    console.log(`\n${section}`);
    writeSection(HEADING, section);
  } finally {
    await db.close();
  }
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) onExitStopServers(main);
