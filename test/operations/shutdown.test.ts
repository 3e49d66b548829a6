import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { it } from 'node:test';

const BIN = new URL('../../bin/dealsignal.js', import.meta.url).pathname;

function get(agent: Agent, port: number, path: string): Promise<{ status: number; draining: boolean }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, agent }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, draining: res.headers.connection === 'close' }));
    });
    req.on('error', reject);
    req.end();
  });
}

it('SIGTERM under load: in-flight requests finish, no connection is reset, exit 0 within 10 s', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'dealsignal-shutdown-'));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: '0',
    SEED_DEMO: 'false',
    LOG_LEVEL: 'info',
    SHUTDOWN_DELAY_MS: '300',
  };
  delete env.DATABASE_URL;
  const server = spawn(process.execPath, [BIN, 'serve'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    // The port comes from the log line Fastify writes when it listens.
    const port = await new Promise<number>((resolve, reject) => {
      let out = '';
      server.stdout.on('data', (chunk) => {
        out += chunk;
        const match = /Server listening at http:\/\/127\.0\.0\.1:(\d+)/.exec(out);
        if (match) resolve(Number(match[1]));
      });
      server.once('exit', (code) => reject(new Error(`server exited early (${code}): ${out}`)));
    });
    const exited = new Promise<{ code: number | null; at: number }>((resolve) =>
      server.once('exit', (code) => resolve({ code, at: performance.now() })),
    );

    const agent = new Agent({ keepAlive: true, maxSockets: 8 });
    const outcomes = { ok: 0, drained: 0, refused: 0, other: [] as string[] };
    let stop = false;
    // Each client behaves like a load balancer's connection: it keeps sending until the instance
    // says it is draining (Connection: close), then sends its traffic elsewhere.
    const worker = async () => {
      while (!stop) {
        try {
          const { status, draining } = await get(agent, port, outcomes.ok % 2 ? '/healthz' : '/api/v1/funding');
          if (status === 200 || status === 401 || status === 429 || status === 503) outcomes.ok++;
          else outcomes.other.push(`status ${status}`);
          if (draining) {
            outcomes.drained++;
            return;
          }
        } catch (err) {
          const code = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
          if (code === 'ECONNREFUSED') {
            outcomes.refused++;
            stop = true; // the listener is closed: the process is going away
          } else {
            outcomes.other.push(code);
          }
        }
      }
    };
    const load = Promise.all(Array.from({ length: 8 }, worker));
    await new Promise((r) => setTimeout(r, 1000));
    const signalledAt = performance.now();
    server.kill('SIGTERM');
    const { code, at } = await exited;
    stop = true;
    await load;
    agent.destroy();

    assert.equal(code, 0, 'exit code');
    assert.ok(at - signalledAt < 10_000, `exited after ${Math.round(at - signalledAt)} ms`);
    assert.ok(outcomes.ok > 100, `requests were served (${outcomes.ok})`);
    assert.deepEqual(outcomes.other, [], 'no reset or broken connection');
    assert.equal(outcomes.drained, 8, 'every client was told to go elsewhere before the listener closed');
    await assert.rejects(get(new Agent(), port, '/healthz'), { code: 'ECONNREFUSED' }, 'new connections are refused');
  } finally {
    server.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  }
});
