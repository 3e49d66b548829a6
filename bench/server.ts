import { randomBytes } from 'node:crypto';
import { freePort, runChecked, startService, waitUntilAnswering, type Service } from './processes.js';
import { PROJECT_DIR } from './options.js';

export function buildProject(): void {
  console.log('building (npm run -s build)...');
  runChecked('npm', ['run', '-s', 'build'], { cwd: PROJECT_DIR });
}

/** The real server, as deployed: the built CLI in its own process. */
export async function startDealsignal(
  databaseUrl: string,
  poolSize: number,
  workers: number,
  name = 'dealsignal',
): Promise<Service> {
  const port = await freePort();
  const started = performance.now();
  const service = startService(name, process.execPath, ['bin/dealsignal.js', 'serve', '--workers', String(workers)], {
    cwd: PROJECT_DIR,
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      DATABASE_POOL_SIZE: String(poolSize),
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      SEED_DEMO: 'false',
      // As docs/operations.md ("Memory and scale") advises for a process serving alone (workers get it from their primary).
      MALLOC_MMAP_THRESHOLD_: process.env.MALLOC_MMAP_THRESHOLD_ ?? '131072',
      // Required with DATABASE_URL; the bench uses no sessions, so a throwaway one will do.
      SESSION_SECRET: process.env.SESSION_SECRET || randomBytes(32).toString('hex'),
    },
    baseUrl: `http://127.0.0.1:${port}`,
  });
  // Any status means the HTTP layer is up; the key check is done per scenario. The server listens
  // once its filter index is built, which takes tens of seconds on the large set.
  await waitUntilAnswering(service, '/api/v1/funding', 300_000);
  service.readyMs = performance.now() - started;
  return service;
}
