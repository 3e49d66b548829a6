// The demo data's generators load faker (ten locales); a server that does not seed never loads
// them: the catalog only declares datasets, and the seed imports the generators only to seed.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';

const ROOT = new URL('..', import.meta.url).pathname;
const CHILD = ['--import', 'tsx', '--import', './test/demo-isolation/watch-faker.ts', 'test/demo-isolation/serve.ts'];

/** Runs `dealsignal serve` on a new embedded store under the faker watch; what it printed. */
async function serveOnce(seedDemo: boolean): Promise<string> {
  const dataDir = join(mkdtempSync(join(tmpdir(), 'dealsignal-demo-isolation-')), 'data');
  try {
    const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'silent' };
    env.SEED_DEMO = String(seedDemo);
    delete env.DATABASE_URL;
    const child = spawn(process.execPath, CHILD, { cwd: ROOT, env, timeout: 120_000 });
    let [stdout, stderr] = ['', ''];
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
    assert.equal(code, 0, stderr);
    return stdout;
  } finally {
    rmSync(join(dataDir, '..'), { recursive: true, force: true });
  }
}

describe('demo data isolation', () => {
  it('a server that does not seed never loads faker', async () => {
    const output = await serveOnce(false);
    assert.match(output, /^faker not loaded$/m);
    assert.doesNotMatch(output, /faker loaded/);
  });

  it('a server that seeds an empty store loads it (the watch sees it)', async () => {
    assert.match(await serveOnce(true), /^faker loaded: .*\/@faker-js\//m);
  });
});
