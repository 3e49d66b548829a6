// Mixes of distinct requests drawn from the data, each run against one server by wrk picking paths at
// random (bench/random-paths.lua): a warm-up, then RUNS runs; and the table rows a part's section shows.
// The companies and hiring parts measure their endpoints this way.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runHttpLoad, type LoadTool } from './load.js';
import { Random } from './realistic-paths.js';
import type { BenchOptions } from './options.js';
import type { LoadResult } from './stats.js';
import { describe, int, loud, ms, verdict, waitForQuiet } from './signals.js';

export const RUNS = 2;

export interface Mix {
  name: string;
  target: { reqPerSec: number; p99Ms: number };
  about: string;
  paths: string[];
}

export const query = (params: Record<string, string | number>) =>
  new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]));

/** The table's header, above the rows runMixes returns. */
export const MIX_TABLE_HEADER = [
  '| Mix | Distinct requests | req/s (runs) | p99 ms (runs) | non-2xx | Target | |',
  '|---|---:|---:|---:|---:|---|---|',
];

/** How the server and wrk ran, for the section's list. */
export const mixServerLine = (options: BenchOptions) =>
  `- Server: \`dealsignal serve --workers ${options.workers}\`, limits and credits on (enterprise key, 1 credit a page); ` +
  `wrk, ${options.connections} connections, ${options.warmupSeconds} s warm-up, then ${RUNS} runs of ${options.durationSeconds} s each, ` +
  'every request a path picked at random from the mix (distinct requests drawn from the data with a fixed seed).';

/** One wrk run of `seconds` over the paths of `file` (bench/random-paths.lua), each picked at random. */
export function loadPaths(
  tool: LoadTool,
  baseUrl: string,
  options: BenchOptions,
  file: string,
  keyFile: string,
  seconds: number,
): Promise<LoadResult> {
  return runHttpLoad(tool, {
    url: baseUrl,
    headers: {},
    connections: options.connections,
    seconds,
    script: { file: fileURLToPath(new URL('./random-paths.lua', import.meta.url)), args: [file, keyFile] },
  });
}

/**
 * 3,000 distinct list requests drawn from companies: searches by a word of a name (pages 1–3), and
 * the funding and job-change lists of a company by its domain. What a user of an account list asks
 * while other work runs (the enrichment and monitors benches measure it before and during theirs).
 */
export function companyListMix(companies: readonly { name: string; website_key: string | null }[], seed: number): string[] {
  const random = new Random(seed);
  // Websites that are a domain (a stored website may have a path, which company_domain refuses).
  const domains = companies.filter((c) => c.website_key !== null && /^[a-z0-9.-]+\.[a-z]{2,}$/.test(c.website_key));
  const paths = new Set<string>();
  while (paths.size < 3000) {
    const company = random.pick(domains);
    // A word of the name a search takes (letters, three or more).
    const word =
      company.name
        .toLowerCase()
        .split(/[^a-z]+/)
        .find((w) => w.length >= 3) ?? 'labs';
    const roll = random.int(0, 2);
    if (roll === 0) paths.add(`v2 /api/v2/companies?${query({ search: word, page: random.int(1, 3), limit: 20 })}`);
    else if (roll === 1) paths.add(`v2 /api/v2/signals/funding?${query({ company_domain: company.website_key!, limit: 20 })}`);
    else paths.add(`v2 /api/v2/signals/job-changes?${query({ company_domain: company.website_key!, limit: 20 })}`);
  }
  return [...paths];
}

/** Runs each mix against the server (its paths written under `listDir`); a table row and a line of what it asks, per mix. */
export async function runMixes(
  tool: LoadTool,
  baseUrl: string,
  options: BenchOptions,
  mixes: readonly Mix[],
  listDir: string,
  keyFile: string,
): Promise<{ rows: string[]; checks: string[] }> {
  const rows: string[] = [];
  const checks: string[] = [];
  for (const mix of mixes) {
    const file = join(listDir, `${mix.name.replace(/\W+/g, '-')}.txt`);
    writeFileSync(file, mix.paths.join('\n') + '\n');
    const load = (seconds: number) => loadPaths(tool, baseUrl, options, file, keyFile, seconds);
    const runs: LoadResult[] = [];
    await waitForQuiet();
    await load(options.warmupSeconds);
    for (let run = 1; run <= RUNS; run++) {
      const result = await load(options.durationSeconds);
      const statuses = Object.entries(result.statuses ?? {}).map(([status, n]) => `${status}×${n}`);
      console.log(`${mix.name}, run ${run}: ${describe(result)}${statuses.length > 0 ? ` [${statuses.join(', ')}]` : ''}`);
      runs.push(result);
    }
    const non2xx = runs.reduce((sum, r) => sum + r.failures + r.socketErrors, 0);
    if (non2xx > 0) loud(`${mix.name}: ${non2xx} non-2xx responses or socket errors: figures invalid`);
    rows.push(
      `| ${mix.name} | ${int(mix.paths.length)} | ${runs.map((r) => int(r.reqPerSec)).join(' / ')} | ` +
        `${runs.map((r) => ms(r.p99Ms)).join(' / ')} | ${int(non2xx)} | ≥ ${int(mix.target.reqPerSec)}, p99 ≤ ${mix.target.p99Ms} ms | ` +
        `${verdict(runs.every((r) => r.reqPerSec >= mix.target.reqPerSec && r.p99Ms <= mix.target.p99Ms && non2xx === 0))} |`,
    );
    checks.push(`- ${mix.name}: ${mix.about}.`);
  }
  return { rows, checks };
}

/** The index's bytes and records of one dataset, as the server's metrics report them. */
export async function indexMemory(baseUrl: string, dataset: string): Promise<{ bytes: number; records: number }> {
  const text = await (await fetch(`${baseUrl}/metrics`)).text();
  const read = (name: string) => Number(new RegExp(`^${name}\\{dataset="${dataset}"\\} (\\S+)`, 'm').exec(text)?.[1] ?? NaN);
  return { bytes: read('dealsignal_index_bytes'), records: read('dealsignal_index_records') };
}
