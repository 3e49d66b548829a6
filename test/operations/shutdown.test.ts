import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { it } from 'node:test';

const BIN = new URL('../../bin/dealsignal.js', import.meta.url).pathname;

interface Answer {
  status: number;
  draining: boolean;
  /** The request went out on a connection opened earlier (keep-alive). */
  reused: boolean;
}

function get(agent: Agent | false, port: number, path: string, headers: Record<string, string>): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, agent, headers }, (res) => {
      res.resume();
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, draining: res.headers.connection === 'close', reused: req.reusedSocket }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

const errorCode = (err: unknown) => (err as NodeJS.ErrnoException).code ?? (err as Error).message;

/** A raw connection whose request is written in parts, when the test says; resolves with the whole answer. */
function rawConnection(port: number): Promise<{ socket: Socket; answer: Promise<string> }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      const answer = new Promise<string>((done) => {
        let data = '';
        socket.on('data', (chunk) => (data += chunk));
        socket.on('end', () => done(data));
        socket.on('error', (err) => done(`${data}[${errorCode(err)}]`));
      });
      resolve({ socket, answer });
    });
    socket.once('error', reject);
  });
}

it(
  'SIGTERM under load: requests in flight are answered 200, new connections are answered or refused, never reset; exit 0 within 10 s',
  { timeout: 60_000 },
  async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'dealsignal-shutdown-'));
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: '0',
      SEED_DEMO: 'false',
      LOG_LEVEL: 'info',
      SHUTDOWN_DELAY_MS: '1500',
      RATE_LIMIT_V1: '1000000',
      LOAD_SHED_EVENT_LOOP_DELAY_MS: '0',
    };
    delete env.DATABASE_URL;
    delete env.REDIS_URL;
    const { key } = JSON.parse(
      execFileSync(process.execPath, [BIN, 'keys', 'create', '--email', 'ops@example.com', '--json', '--create-store'], {
        env,
        encoding: 'utf8',
      }),
    ) as { key: string };
    const keyed = { 'x-lot-api-key': key };
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
      let exited = false;
      const exit = new Promise<{ code: number | null; at: number }>((resolve) =>
        server.once('exit', (code) => {
          exited = true;
          resolve({ code, at: performance.now() });
        }),
      );

      // Load-balancer connections: keep-alive, sending until the instance says it is draining
      // (Connection: close), then taking their traffic elsewhere.
      const balancer = new Agent({ keepAlive: true, maxSockets: 6 });
      const balanced = { answers: [] as number[], told: 0, errors: [] as string[] };
      const balancerClient = async () => {
        for (;;) {
          try {
            const { status, draining } = await get(balancer, port, '/api/v1/funding', keyed);
            balanced.answers.push(status);
            if (draining) return void balanced.told++;
          } catch (err) {
            return void balanced.errors.push(errorCode(err));
          }
        }
      };

      // New connections throughout the shutdown, one every 20 ms until the process is gone: each is
      // answered while the listener is open, refused once it is closed, and never reset.
      const fresh: Promise<string>[] = [];
      let listenerClosed!: () => void;
      const closed = new Promise<void>((resolve) => (listenerClosed = resolve));
      const opener = async () => {
        while (!exited) {
          fresh.push(
            get(false, port, '/healthz', {}).then(
              ({ status }) => `status ${status}`,
              (err) => {
                const code = errorCode(err);
                if (code === 'ECONNREFUSED') listenerClosed();
                return code;
              },
            ),
          );
          await new Promise((r) => setTimeout(r, 20));
        }
      };

      const load = Promise.all([...Array.from({ length: 6 }, balancerClient), opener()]);
      // A request in flight from before the signal until after the listener has closed: its headers trickle in.
      const trickled = await rawConnection(port);
      trickled.socket.write('GET /api/v1/funding HTTP/1.1\r\nHost: dealsignal\r\n');
      // A keep-alive connection that goes quiet before the signal and is used again once the listener is closed.
      const quiet = new Agent({ keepAlive: true, maxSockets: 1 });
      assert.equal((await get(quiet, port, '/api/v1/funding', keyed)).status, 200);
      await new Promise((r) => setTimeout(r, 1000));

      const signalledAt = performance.now();
      server.kill('SIGTERM');
      await closed;
      trickled.socket.write(`x-lot-api-key: ${key}\r\n\r\n`);
      const [trickledAnswer, quietAnswer] = await Promise.all([
        trickled.answer,
        get(quiet, port, '/api/v1/funding', keyed).catch((err: unknown) => errorCode(err)),
      ]);

      const { code, at } = await exit;
      await load;
      const freshOutcomes = await Promise.all(fresh);
      balancer.destroy();
      quiet.destroy();

      assert.equal(code, 0, 'exit code');
      assert.ok(at - signalledAt < 10_000, `exited after ${Math.round(at - signalledAt)} ms`);
      assert.match(trickledAnswer, /^HTTP\/1\.1 200 /, 'the request in flight across the shutdown was served');
      assert.match(trickledAnswer, /\r\nconnection: close\r\n/i);
      assert.deepEqual(
        quietAnswer,
        { status: 200, draining: true, reused: true },
        'a quiet keep-alive connection used after the listener closed was answered',
      );
      assert.deepEqual(balanced.errors, [], 'no balancer connection broke');
      assert.ok(balanced.answers.length > 6, `the balancer was served (${balanced.answers.length})`);
      assert.deepEqual(
        balanced.answers.filter((s) => s !== 200),
        [],
        'every balancer request was served',
      );
      assert.equal(balanced.told, 6, 'every balancer connection was told to go elsewhere');
      const unexpected = freshOutcomes.filter((o) => o !== 'status 200' && o !== 'ECONNREFUSED');
      assert.deepEqual(unexpected, [], 'new connections were answered or refused, never reset');
      assert.ok(freshOutcomes.includes('status 200') && freshOutcomes.includes('ECONNREFUSED'));
      await assert.rejects(get(false, port, '/healthz', {}), { code: 'ECONNREFUSED' }, 'new connections are refused');
    } finally {
      server.kill('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    }
  },
);
