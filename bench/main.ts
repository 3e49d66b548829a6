// `npm run bench`: every benchmark in turn, each in its own process so none disturbs the next.
// `npm run bench -- --soak 10m`: the soak run only.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const args = process.argv.slice(2);
const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));
const suites = args.includes('--soak') ? ['soak.ts'] : ['run.ts', 'signals.ts', 'limits.ts', 'workers.ts', 'ingest.ts'];

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
