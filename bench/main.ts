// `npm run bench`: every benchmark in turn, each in its own process so none disturbs the next.
// `npm run bench -- --soak 10m`: the soak run only. `npm run bench -- --only PART`: bench/PART.ts only.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const ALL = [
  'run.ts',
  'signals.ts',
  'limits.ts',
  'workers.ts',
  'realistic.ts',
  'companies.ts',
  'people.ts',
  'hiring.ts',
  'enrichment.ts',
  'monitors.ts',
  'ingest.ts',
  'webhooks.ts',
  'import-readers.ts',
  'index-sharing.ts',
  'replicas.ts',
];

const argv = process.argv.slice(2);
const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));
const onlyAt = argv.indexOf('--only');
const only = onlyAt >= 0 ? argv[onlyAt + 1] : undefined;
// The parts parse their own options and know nothing of --only.
const args = onlyAt >= 0 ? [...argv.slice(0, onlyAt), ...argv.slice(onlyAt + 2)] : argv;
if (onlyAt >= 0 && (only === undefined || !ALL.includes(`${only}.ts`))) {
  console.error(`--only takes one of: ${ALL.map((file) => file.replace(/\.ts$/, '')).join(', ')}`);
  process.exit(2);
}
const suites = args.includes('--soak') ? ['soak.ts'] : only ? [`${only}.ts`] : ALL;

let failed = false;
for (const suite of suites.filter((s) => existsSync(here(s)))) {
  console.log(`\n===== bench/${suite} =====\n`);
  const result = spawnSync(process.execPath, ['--import', 'tsx', here(suite), ...args], { stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`bench/${suite} failed (exit ${result.status ?? result.signal})`);
    failed = true;
  }
}
process.exitCode = failed ? 1 : 0;
