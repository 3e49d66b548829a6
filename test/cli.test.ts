import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { isWellFormedApiKey } from '../src/services/api-keys.js';

const BIN = new URL('../bin/dealsignal.js', import.meta.url).pathname;

type Env = Record<string, string | undefined>;

function processEnv(env: Env): NodeJS.ProcessEnv {
  const fullEnv = { ...process.env, DATABASE_URL: undefined, LOG_LEVEL: 'silent', ...env } as NodeJS.ProcessEnv;
  for (const k of Object.keys(fullEnv)) if (fullEnv[k] === undefined) delete fullEnv[k];
  return fullEnv;
}

/** Runs the built command to its end; input (if any) is its standard input. */
async function cli(args: string[], env: Env = {}, options: { input?: string; cwd?: string } = {}) {
  const child = spawn(process.execPath, [BIN, ...args], { env: processEnv(env), cwd: options.cwd, timeout: 60_000 });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  child.stdin.end(options.input ?? '');
  const code = await new Promise<number | null>((resolve) => child.once('close', (status) => resolve(status)));
  return { code, stdout, stderr };
}
describe('configuration is checked once, at start', () => {
  it('a bad PORT stops the process naming the variable', async () => {
    const result = await cli(['migrate'], { PORT: 'abc' });
    assert.equal(result.code, 1);
    assert.match(result.stderr, /PORT="abc" is not a whole number/);
  });

  it('every bad variable is named at once', async () => {
    const result = await cli(['migrate'], { PORT: '70000', LOG_LEVEL: 'loud', DATABASE_URL: 'mysql://x' });
    assert.equal(result.code, 1);
    assert.match(result.stderr, /PORT=70000 must be between 0 and 65535/);
    assert.match(result.stderr, /LOG_LEVEL/);
    assert.match(result.stderr, /DATABASE_URL must use postgres:/);
  });

  it('an unreachable DATABASE_URL stops the process with a clear message', async () => {
    const result = await cli(['migrate'], {
      DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none',
      SESSION_SECRET: 'x'.repeat(32),
    });
    assert.equal(result.code, 1);
    assert.match(result.stderr, /DATABASE_URL: cannot connect to PostgreSQL/);
  });
});

describe('dealsignal keys on the embedded store', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'dealsignal-cli-'));
  after(() => rmSync(dataDir, { recursive: true, force: true }));
  const env = { DATA_DIR: dataDir };

  it('creates, lists and revokes keys; the full key is printed only at creation', async () => {
    const created = await cli(
      ['keys', 'create', '--email', 'Ops@Example.com', '--tier', 'enterprise', '--name', 'ci', '--json'],
      env,
    );
    assert.equal(created.code, 0, created.stderr);
    const key = JSON.parse(created.stdout);
    assert.ok(isWellFormedApiKey(key.key));
    assert.equal(key.tier, 'enterprise');
    assert.equal(key.email, 'ops@example.com');
    assert.match(key.id, /^key_/);

    const listed = await cli(['keys', 'list', '--email', 'ops@example.com'], env);
    assert.equal(listed.code, 0, listed.stderr);
    assert.ok(listed.stdout.includes(key.id));
    assert.ok(listed.stdout.includes(`${key.key.slice(0, 7)}…${key.key.slice(-4)}`));
    assert.ok(!listed.stdout.includes(key.key), 'the full key is never listed');
    assert.match(listed.stdout, /active/);

    const revoked = await cli(['keys', 'revoke', key.id], env);
    assert.equal(revoked.code, 0, revoked.stderr);
    const json = JSON.parse((await cli(['keys', 'list', '--json'], env)).stdout);
    assert.ok(json.find((k: { id: string; revoked_at: string | null }) => k.id === key.id).revoked_at);
  });

  it('shows and changes credit balances by email, account id or key id', async () => {
    const key = JSON.parse(
      (await cli(['keys', 'create', '--email', 'credits@example.com', '--tier', 'free', '--json'], env)).stdout,
    );
    assert.match(
      (await cli(['keys', 'credits', 'credits@example.com'], env)).stdout,
      /credits@example.com \(free\): 100 credits/,
    );
    assert.match((await cli(['keys', 'credits', key.id, '--set', '5'], env)).stdout, /: 5 credits/);
    assert.match((await cli(['keys', 'credits', String(key.accountId), '--add', '10'], env)).stdout, /: 15 credits/);
    assert.match((await cli(['keys', 'credits', 'CREDITS@example.com'], env)).stdout, /: 15 credits/);
    assert.match((await cli(['keys', 'credits', key.id, '--add=-1'], env)).stderr, /--add must be a whole number/);
    assert.match((await cli(['keys', 'credits', 'nobody@example.com'], env)).stderr, /no account matches/);
  });

  it('accounts: list, set-tier and set-limit', async () => {
    await cli(['keys', 'create', '--email', 'ent@example.com', '--tier', 'free'], env);
    assert.match(
      (await cli(['accounts', 'set-tier', 'ENT@example.com', 'enterprise'], env)).stdout,
      /now on the enterprise tier/,
    );
    assert.match((await cli(['accounts', 'set-limit', 'ent@example.com', '--v1', '300'], env)).stdout, /v1 limit 300/);
    const listed = JSON.parse((await cli(['accounts', 'list', '--json'], env)).stdout);
    const account = listed.find((a: { email: string }) => a.email === 'ent@example.com');
    assert.equal(account.tier, 'enterprise');
    assert.equal(account.v1_rate_limit, 300);
    assert.equal(account.credits, 1_000_000);
    assert.match(
      (await cli(['accounts', 'list'], env)).stdout,
      /ent@example.com {2}enterprise {2}v1 300\/window {2}v2 600\/window/,
    );
    assert.match(
      (await cli(['accounts', 'set-limit', 'ent@example.com', '--v1', 'default'], env)).stdout,
      /v1 limit 60 \(default\)/,
    );
    assert.match((await cli(['accounts', 'set-tier', 'ent@example.com', 'gold'], env)).stderr, /TIER must be one of/);
    assert.match((await cli(['accounts', 'set-limit', 'nobody@example.com', '--v1', '5'], env)).stderr, /no account with email/);
  });

  it('rejects bad arguments with a message', async () => {
    assert.match((await cli(['keys', 'create', '--email', 'x@y.z', '--tier', 'gold'], env)).stderr, /--tier must be one of/);
    assert.match((await cli(['keys', 'create'], env)).stderr, /needs --email/);
    assert.match((await cli(['keys', 'revoke', 'key_nope'], env)).stderr, /no key with id key_nope/);
    assert.match((await cli(['frobnicate'], env)).stderr, /unknown command/);
  });

  it('refuses to open a store another live process holds', async () => {
    // The test runner itself plays the running server holding the lock.
    writeFileSync(join(dataDir, 'dealsignal.lock'), String(process.pid));
    try {
      const result = await cli(['keys', 'list'], env);
      assert.equal(result.code, 1);
      assert.match(result.stderr, /in use by another dealsignal process \(pid \d+\)/);
    } finally {
      rmSync(join(dataDir, 'dealsignal.lock'));
    }
  });

  it('takes over a lock left by a process that died', async () => {
    writeFileSync(join(dataDir, 'dealsignal.lock'), '2147483646');
    const result = await cli(['keys', 'list'], env);
    assert.equal(result.code, 0, result.stderr);
  });
});

describe('serve checks its port before opening the store', () => {
  it('a taken port stops the server at once with one line, and no store is created', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const { port } = blocker.address() as AddressInfo;
    const root = mkdtempSync(join(tmpdir(), 'dealsignal-port-'));
    const dataDir = join(root, 'data');
    try {
      const result = await cli(['serve'], { DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'info' });
      assert.equal(result.stderr, `dealsignal: port ${port} is in use (127.0.0.1:${port}); set PORT to another port\n`);
      assert.equal(result.code, 1);
      assert.equal(result.stdout, '');
      assert.ok(!existsSync(dataDir), `no store was created (${existsSync(dataDir) ? readdirSync(dataDir).join(', ') : ''})`);
    } finally {
      blocker.close();
      rmSync(root, { recursive: true, force: true });
    }
  });
});
