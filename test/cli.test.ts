import assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { connect, createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { COMMANDS, isGroup } from '../src/cli/help-text.js';
import { isWellFormedApiKey } from '../src/accounts/api-keys.js';
import { fundingRecord } from './fixtures.js';
import { needsPostgres } from './helpers.js';
import { ndjson } from './ingest/support.js';

const BIN = new URL('../bin/dealsignal.js', import.meta.url).pathname;
// The commands and servers here live seconds: V8's baseline WASM compiler alone (no optimising tier
// compiled in the background) runs the embedded store's start in 60 % of the CPU time. They behave
// the same; only how the engine's code is compiled differs.
const NODE_ARGS = ['--liftoff-only'];

type Env = Record<string, string | undefined>;

function processEnv(env: Env): NodeJS.ProcessEnv {
  const fullEnv = { ...process.env, DATABASE_URL: undefined, LOG_LEVEL: 'silent', ...env } as NodeJS.ProcessEnv;
  for (const k of Object.keys(fullEnv)) if (fullEnv[k] === undefined) delete fullEnv[k];
  return fullEnv;
}

/** Runs the built command to its end; input (if any) is its standard input. */
/** fn over every item, four processes at a time (each a Node start-up), results in the items' order. */
async function eachAtOnce<T, R>(items: T[], fn: (item: T) => Promise<R>, width = 4): Promise<R[]> {
  const results: R[] = [];
  for (let i = 0; i < items.length; i += width) {
    results.push(...(await Promise.all(items.slice(i, i + width).map(fn))));
  }
  return results;
}

async function cli(args: string[], env: Env = {}, options: { input?: string; cwd?: string } = {}) {
  const child = spawn(process.execPath, [...NODE_ARGS, BIN, ...args], {
    env: processEnv(env),
    cwd: options.cwd,
    timeout: 60_000,
  });
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

  it('a replica without its primary is refused', async () => {
    const result = await cli(['migrate'], {
      DATABASE_REPLICA_URL: 'postgres://127.0.0.1:5433/dealsignal',
      REPLICA_WAIT_MS: '-1',
    });
    assert.equal(result.code, 1);
    assert.match(result.stderr, /DATABASE_REPLICA_URL needs DATABASE_URL/);
    assert.match(result.stderr, /REPLICA_WAIT_MS/);
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

describe('help, arguments and the store a command uses', () => {
  const root = mkdtempSync(join(tmpdir(), 'dealsignal-usage-'));
  after(() => rmSync(root, { recursive: true, force: true }));
  // Never created by anything below but --create-store: help and refused arguments open nothing.
  const missing = join(root, 'missing');
  const env = { DATA_DIR: missing };
  /** Every command line: each command, and each command with each of its subcommands. */
  const commandLines = Object.entries(COMMANDS).flatMap(([name, entry]) =>
    isGroup(entry) ? [[name], ...Object.keys(entry.subcommands).map((sub) => [name, sub])] : [[name]],
  );

  it('--help on every command and subcommand prints its usage, exit 0, and runs nothing', async () => {
    assert.ok(commandLines.length >= 15, `${commandLines.length} command lines`);
    const helps = await eachAtOnce(commandLines, (line) => cli([...line, '--help'], env));
    for (const [i, line] of commandLines.entries()) {
      const result = helps[i]!;
      assert.equal(result.code, 0, `${line.join(' ')}: ${result.stderr}`);
      assert.ok(result.stdout.startsWith(`Usage: dealsignal ${line.join(' ')}`), `${line.join(' ')}: ${result.stdout}`);
      assert.equal(result.stderr, '', line.join(' '));
    }
    // Wherever it stands, and whatever else is there.
    for (const args of [
      ['migrate', 'foo', '--help'],
      ['keys', 'create', '--email', 'x@y.z', '-h'],
      ['import', '-h'],
    ]) {
      const result = await cli(args, env);
      assert.equal(result.code, 0, args.join(' '));
      assert.match(result.stdout, /^Usage: dealsignal /);
    }
    assert.equal(existsSync(missing), false, 'nothing was created or migrated');
  });

  it('unknown options and extra or missing arguments are refused with the usage, exit 2', async () => {
    const lines = commandLines.filter(([name]) => name !== 'mcp');
    const refusals = await eachAtOnce(lines, (line) => cli([...line, '--no-such-option'], env));
    for (const [i, line] of lines.entries()) {
      const result = refusals[i]!;
      assert.equal(result.code, 2, `${line.join(' ')}: ${result.stderr}`);
      assert.match(result.stderr, /Unknown option '--no-such-option'|unknown \w+ action "--no-such-option"/, line.join(' '));
      assert.match(result.stderr, /\n\nUsage: dealsignal /);
    }
    const refused: [string[], RegExp][] = [
      [['migrate', 'foo'], /migrate takes no arguments \(got "foo"\)/],
      [['seed', 'large'], /seed takes no arguments/],
      [['keys', 'revoke'], /keys revoke needs 1 argument/],
      [['keys', 'revoke', 'a', 'b'], /keys revoke takes at most 1 argument/],
      [['keys'], /keys needs an action; use create, list, revoke or credits/],
      [['accounts', 'remove'], /unknown accounts action "remove"/],
      [['import', 'funding'], /import needs 2 arguments/],
      [['frobnicate'], /unknown command "frobnicate"/],
    ];
    const refusedResults = await eachAtOnce(refused, ([args]) => cli(args, env));
    for (const [i, [args, message]] of refused.entries()) {
      const result = refusedResults[i]!;
      assert.equal(result.code, 2, args.join(' '));
      assert.match(result.stderr, message);
    }
    assert.equal(existsSync(missing), false, 'nothing was created or migrated');
  });

  it('--version prints the version', async () => {
    const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
    const result = await cli(['--version']);
    assert.deepEqual([result.code, result.stdout], [0, `dealsignal ${version}\n`]);
  });

  it('a command refuses to create a new embedded store unless given --create-store, naming DATA_DIR', async () => {
    for (const args of [['keys', 'list'], ['migrate'], ['import', 'funding', '-']]) {
      const result = await cli(args, env, { input: ndjson([fundingRecord()]) });
      assert.equal(result.code, 1, args.join(' '));
      assert.match(
        result.stderr,
        new RegExp(
          `embedded store ${missing}: there is no embedded store in DATA_DIR=${missing} .*set DATA_DIR to the server's data directory, or pass --create-store`,
        ),
      );
    }
    assert.equal(existsSync(missing), false);
    const created = await cli(['keys', 'create', '--email', 'new@example.com', '--create-store'], env);
    assert.equal(created.code, 0, created.stderr);
    assert.match(created.stderr, new RegExp(`^dealsignal: embedded store ${missing}\n`));
    // From now on the store is there: no flag needed, and every command says which store it used.
    for (const args of [['keys', 'list'], ['migrate'], ['accounts', 'list'], ['import', 'funding', '-']]) {
      const result = await cli(args, env, { input: ndjson([fundingRecord()]) });
      assert.equal(result.code, 0, `${args.join(' ')}: ${result.stderr}`);
      assert.match(result.stderr, new RegExp(`^dealsignal: embedded store ${missing}\n`), args.join(' '));
    }
  });

  it('on PostgreSQL a command names the host and database, never the password', { skip: needsPostgres }, async () => {
    const url = new URL(process.env.DATABASE_URL!);
    url.password = 'not-to-be-printed';
    const result = await cli(['keys', 'list', '--email', 'nobody@example.com'], {
      DATABASE_URL: url.href,
      SESSION_SECRET: 'x'.repeat(32),
    });
    assert.match(result.stderr, new RegExp(`^dealsignal: PostgreSQL ${url.host}${url.pathname}\n`));
    assert.doesNotMatch(result.stderr + result.stdout, /not-to-be-printed/);
  });
});

describe('dealsignal keys on the embedded store', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'dealsignal-cli-'));
  after(() => rmSync(dataDir, { recursive: true, force: true }));
  const env = { DATA_DIR: dataDir };

  it('creates, lists and revokes keys; the full key is printed only at creation', async () => {
    const created = await cli(
      ['keys', 'create', '--email', 'Ops@Example.com', '--tier', 'enterprise', '--name', 'ci', '--json', '--create-store'],
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
      assert.match(result.stderr, /which takes no commands/);
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

interface RunningServer {
  child: ChildProcessWithoutNullStreams;
  /** What it printed so far (stdout and stderr). */
  output(): string;
  get(path: string, headers?: Record<string, string>): Promise<Response>;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
}

/** `dealsignal serve` in its own process (with this umask, if given); resolves once the banner says it is serving. */
async function startServer(env: Env, options: { umask?: string } = {}): Promise<RunningServer> {
  // Opening the embedded store stalls the event loop; shedding is not what these tests are about.
  const spawnOptions = {
    env: processEnv({ PORT: '0', LOG_LEVEL: 'info', SHUTDOWN_DELAY_MS: '0', LOAD_SHED_EVENT_LOOP_DELAY_MS: '0', ...env }),
  };
  const child = options.umask
    ? spawn('/bin/sh', ['-c', `umask ${options.umask} && exec "$0" "$@"`, process.execPath, BIN, 'serve'], spawnOptions)
    : spawn(process.execPath, [...NODE_ARGS, BIN, 'serve'], spawnOptions);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let output = '';
  const port = await new Promise<number>((resolve, reject) => {
    let listening: number | undefined;
    child.stdout.on('data', (chunk) => {
      output += chunk;
      // The port comes from Fastify's log line; the banner comes last, once everything is up.
      listening ??= Number(/Server listening at http:\/\/127\.0\.0\.1:(\d+)/.exec(output)?.[1]) || undefined;
      if (listening && output.includes('dealsignal is serving')) resolve(listening);
    });
    child.stderr.on('data', (chunk) => (output += chunk));
    void exited.then((code) => reject(new Error(`the server exited (${code}): ${output}`)));
  });
  return {
    child,
    output: () => output,
    get: (path, headers = {}) => fetch(`http://127.0.0.1:${port}${path}`, { headers }),
    async stop() {
      child.kill('SIGTERM');
      return exited;
    },
  };
}

describe('operator commands next to the embedded server', () => {
  const root = mkdtempSync(join(tmpdir(), 'dealsignal-operator-'));
  after(() => rmSync(root, { recursive: true, force: true }));

  it('keys, accounts, credits, import and watch work while the server runs, through the server', async () => {
    const dataDir = join(root, 'live');
    const env = { DATA_DIR: dataDir };
    const server = await startServer({ ...env, SEED_DEMO: 'false', KEY_CACHE_MS: '0' });
    try {
      const created = await cli(['keys', 'create', '--email', 'Live@Example.com', '--tier', 'free', '--json'], env);
      assert.equal(created.code, 0, created.stderr);
      const key = JSON.parse(created.stdout);
      assert.ok(isWellFormedApiKey(key.key));
      const v1 = { 'x-lot-api-key': key.key };
      assert.equal((await server.get('/api/v1/funding', v1)).status, 200, 'the running server knows the new key');

      // A relative FILE is found from the command's working directory; standard input streams through.
      const work = join(root, 'work');
      mkdirSync(work);
      writeFileSync(join(work, 'rounds.ndjson'), ndjson([fundingRecord(), fundingRecord()]));
      const imported = await cli(['import', 'funding', 'rounds.ndjson', '--json'], env, { cwd: work });
      assert.equal(imported.code, 0, imported.stderr);
      assert.equal(JSON.parse(imported.stdout).inserted, 2);
      const piped = await cli(['import', 'funding', '-'], env, { input: ndjson([fundingRecord()]) });
      assert.equal(piped.code, 0, piped.stderr);
      assert.match(piped.stdout, /^funding: 1 received, 1 inserted, 0 updated/);
      assert.equal((await server.get('/api/v1/funding', v1)).headers.get('x-total-count'), '3');

      // Failures keep their exit status and their messages.
      const invalid = await cli(['import', 'funding', '-'], env, {
        input: ndjson([{ ...fundingRecord(), funding_amount: 'lots' }]),
      });
      assert.equal(invalid.code, 1);
      assert.match(invalid.stdout, /line 1: funding_amount: Expected integer/);
      const usage = await cli(['import', 'nope', '-'], env);
      assert.equal(usage.code, 2);
      assert.match(usage.stderr, /^dealsignal: unknown kind "nope"/);
      const unknownKey = await cli(['keys', 'revoke', 'key_nope'], env);
      assert.deepEqual(
        [unknownKey.code, unknownKey.stderr],
        [1, `dealsignal: embedded store ${dataDir} (through the server that holds it)\ndealsignal: no key with id key_nope\n`],
      );
      assert.equal((await server.get('/api/v1/funding', v1)).headers.get('x-total-count'), '3');

      const listed = await cli(['keys', 'list', '--email', 'live@example.com'], env);
      assert.equal(listed.code, 0, listed.stderr);
      assert.match(
        listed.stdout,
        new RegExp(`^${key.id} {2}${key.key.slice(0, 7)}…${key.key.slice(-4)} {2}live@example.com .* active\n$`),
      );

      assert.match((await cli(['keys', 'credits', 'live@example.com', '--set', '5'], env)).stdout, /\(free\): 5 credits/);
      const signals = await server.get('/api/v2/signals/investors', { authorization: `Bearer ${key.key}` });
      assert.equal(signals.status, 200);
      assert.equal((await signals.json()).meta.creditsRemaining, 4);
      assert.match((await cli(['keys', 'credits', key.id], env)).stdout, /: 4 credits/);

      assert.match((await cli(['accounts', 'set-tier', 'live@example.com', 'pro'], env)).stdout, /now on the pro tier/);
      assert.match((await cli(['accounts', 'set-limit', 'live@example.com', '--v1', '300'], env)).stdout, /v1 limit 300/);
      const accounts = JSON.parse((await cli(['accounts', 'list', '--json'], env)).stdout);
      assert.deepEqual(
        accounts.map((a: { email: string; tier: string; v1_rate_limit: number; credits: number }) => [
          a.email,
          a.tier,
          a.v1_rate_limit,
          a.credits,
        ]),
        [['live@example.com', 'pro', 300, 4]],
      );
      assert.equal((await server.get('/api/v1/funding', v1)).headers.get('x-ratelimit-limit'), '300');
      assert.match((await cli(['migrate'], env)).stdout, /migrations are up to date/);

      // watch runs in the server until the command is interrupted.
      const inbox = join(root, 'inbox');
      mkdirSync(inbox);
      const watcher = spawn(process.execPath, [...NODE_ARGS, BIN, 'watch', inbox, '--interval', '50'], { env: processEnv(env) });
      let watched = '';
      watcher.stdout.on('data', (chunk) => (watched += chunk));
      watcher.stderr.on('data', (chunk) => (watched += chunk));
      const watcherExited = new Promise<number | null>((resolve) => watcher.once('exit', (code) => resolve(code)));
      writeFileSync(join(inbox, 'funding-1.ndjson.tmp'), ndjson([fundingRecord()]));
      renameSync(join(inbox, 'funding-1.ndjson.tmp'), join(inbox, 'funding-1.ndjson'));
      for (let i = 0; i < 600 && !existsSync(join(inbox, 'processed', 'funding-1.ndjson')); i++) {
        assert.equal(watcher.exitCode, null, `watch stopped early: ${watched}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      watcher.kill('SIGINT');
      assert.equal(await watcherExited, 0, watched);
      assert.ok(existsSync(join(inbox, 'processed', 'funding-1.ndjson')), watched);
      assert.equal((await server.get('/api/v1/funding', v1)).headers.get('x-total-count'), '4');

      // With DATABASE_URL the command goes to PostgreSQL, never to the embedded server.
      const direct = await cli(['keys', 'list'], {
        ...env,
        DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none',
        SESSION_SECRET: 'x'.repeat(32),
      });
      assert.equal(direct.code, 1);
      assert.match(direct.stderr, /DATABASE_URL: cannot connect to PostgreSQL/);

      const revoked = await cli(['keys', 'revoke', key.id], env);
      assert.equal(revoked.code, 0, revoked.stderr);
      assert.equal((await server.get('/api/v1/funding', v1)).status, 401, 'the revoke applies on the running server');
      assert.equal(server.child.exitCode, null, 'the server kept running throughout');
    } finally {
      assert.equal(await server.stop(), 0);
    }
  });

  it('the channel answers only a client holding the token from DATA_DIR', async () => {
    const dataDir = join(root, 'guarded');
    const env = { DATA_DIR: dataDir };
    const server = await startServer({ ...env, SEED_DEMO: 'false' });
    try {
      const channelFile = join(dataDir, 'operator-channel.json');
      assert.equal(statSync(channelFile).mode & 0o777, 0o600, 'only the owner can read the token');
      const channel = JSON.parse(readFileSync(channelFile, 'utf8'));
      writeFileSync(channelFile, JSON.stringify({ ...channel, token: 'a'.repeat(channel.token.length) }));
      const refused = await cli(['keys', 'create', '--email', 'intruder@example.com'], env);
      assert.equal(refused.code, 1);
      assert.match(refused.stderr, /refused/);
      writeFileSync(channelFile, JSON.stringify(channel));
      assert.equal(JSON.parse((await cli(['accounts', 'list', '--json'], env)).stdout).length, 0, 'nothing was created');
    } finally {
      assert.equal(await server.stop(), 0);
    }
  });

  it('1,000 connections dropped without a command (port checks) leave nothing open; commands still run', async () => {
    const dataDir = join(root, 'probed');
    const env = { DATA_DIR: dataDir };
    const server = await startServer({ ...env, SEED_DEMO: 'false' });
    try {
      const { port } = JSON.parse(readFileSync(join(dataDir, 'operator-channel.json'), 'utf8'));
      // The server's open descriptors (Linux): each connection left behind holds one.
      const openFds = () => (process.platform === 'linux' ? readdirSync(`/proc/${server.child.pid}/fd`).length : 0);
      // Once settled: the first runs of the background passes open the store's files of the tables
      // they read, which on a busy machine may come after the banner.
      let before = openFds();
      for (let stable = 0, i = 0; stable < 10 && i < 200; i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        const now = openFds();
        stable = now === before ? stable + 1 : 0;
        before = now;
      }
      const probe = () =>
        new Promise<void>((resolve) => {
          // Connects and hangs up at once, as `nc -z` or a port scanner does.
          const socket = connect({ host: '127.0.0.1', port }, () => socket.destroy());
          socket.once('close', () => resolve());
          socket.on('error', () => undefined);
        });
      for (let batch = 0; batch < 10; batch++) await Promise.all(Array.from({ length: 100 }, probe));

      let open = openFds();
      for (let i = 0; i < 100 && open > before + 4; i++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        open = openFds();
      }
      assert.ok(open <= before + 4, `the server holds ${open} descriptors, ${before} before the probes`);

      // A request announced larger than any command's (64 KiB) is not waited for, let alone buffered.
      const started = Date.now();
      await new Promise<void>((resolve) => {
        const socket = connect({ host: '127.0.0.1', port }, () => {
          const header = Buffer.alloc(4);
          header.writeUInt32BE(1024 * 1024);
          socket.write(Buffer.concat([header, Buffer.alloc(1024, 0x7b)]));
        });
        socket.on('error', () => undefined);
        socket.once('close', () => resolve());
      });
      assert.ok(Date.now() - started < 2000, `cut after ${Date.now() - started} ms (the request timeout is 10 s)`);

      const listed = await cli(['keys', 'create', '--email', 'after-probes@example.com', '--json'], env);
      assert.equal(listed.code, 0, listed.stderr);
      assert.match(JSON.parse(listed.stdout).id, /^key_/);
    } finally {
      assert.equal(await server.stop(), 0);
    }
  });

  it('the same commands work with the server stopped, and the server serves their results', async () => {
    const dataDir = join(root, 'stopped');
    const env = { DATA_DIR: dataDir };
    const kept = JSON.parse(
      (await cli(['keys', 'create', '--email', 'ops@example.com', '--json', '--create-store'], env)).stdout,
    );
    const dropped = JSON.parse((await cli(['keys', 'create', '--email', 'ops@example.com', '--json'], env)).stdout);
    const file = join(root, 'stopped-rounds.ndjson');
    writeFileSync(file, ndjson([fundingRecord(), fundingRecord()]));
    const imported = await cli(['import', 'funding', file], env);
    assert.equal(imported.code, 0, imported.stderr);
    assert.equal((await cli(['keys', 'revoke', dropped.id], env)).code, 0);
    assert.match((await cli(['keys', 'credits', 'ops@example.com', '--set', '7'], env)).stdout, /: 7 credits/);
    assert.match((await cli(['accounts', 'list'], env)).stdout, /ops@example.com {2}free .* 7 credits {2}1 active keys/);
    assert.match((await cli(['keys', 'list'], env)).stdout, new RegExp(`${dropped.id} .* revoked`));

    const server = await startServer({ ...env, SEED_DEMO: 'false' });
    try {
      const page = await server.get('/api/v1/funding', { 'x-lot-api-key': kept.key });
      assert.equal(page.status, 200);
      assert.equal(page.headers.get('x-total-count'), '2');
      assert.equal((await server.get('/api/v1/funding', { 'x-lot-api-key': dropped.key })).status, 401);
      const signals = await server.get('/api/v2/signals/investors', { authorization: `Bearer ${kept.key}` });
      assert.equal((await signals.json()).meta.creditsRemaining, 6);
    } finally {
      assert.equal(await server.stop(), 0);
    }
    assert.equal((await cli(['keys', 'list'], env)).code, 0, 'the store is free again once the server stopped');
  });
});

describe("the embedded store is its owner's alone", { skip: process.platform === 'win32' && 'POSIX modes' }, () => {
  const root = mkdtempSync(join(tmpdir(), 'dealsignal-modes-'));
  after(() => rmSync(root, { recursive: true, force: true }));

  /** Every folder and file under dir (dir included), with its permission bits. */
  const modes = (dir: string): [string, number][] => {
    const found: [string, number][] = [[dir, statSync(dir).mode & 0o777]];
    for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
      const path = join(entry.parentPath, entry.name);
      found.push([path, lstatSync(path).mode & 0o777]);
    }
    return found;
  };
  const notOwnerOnly = (dir: string) =>
    modes(dir).filter(([path, mode]) => mode !== (statSync(path).isDirectory() ? 0o700 : 0o600));

  it('under umask 000 every folder is 700 and every file 600; a widened store is tightened at start, which says so', async () => {
    const dataDir = join(root, 'data');
    const env = { DATA_DIR: dataDir, SEED_DEMO: 'false' };
    let server = await startServer(env, { umask: '000' });
    try {
      const all = modes(dataDir);
      assert.ok(all.length > 500, `the store's files are there (${all.length})`);
      assert.ok(all.some(([path]) => path.endsWith('operator-channel.json')) && all.some(([path]) => path.endsWith('.lock')));
      assert.deepEqual(notOwnerOnly(dataDir), [], 'a new store');
      assert.doesNotMatch(server.output(), /owner-only/, 'nothing to tighten on a new store');
    } finally {
      assert.equal(await server.stop(), 0);
    }

    // As a store copied with `cp -r` under umask 000, or chmod -R a+rwX, leaves it.
    for (const [path] of modes(dataDir)) chmodSync(path, statSync(path).isDirectory() ? 0o777 : 0o666);
    const widened = modes(dataDir).length;
    server = await startServer(env, { umask: '000' });
    try {
      assert.deepEqual(notOwnerOnly(dataDir), [], 'a widened store');
      assert.match(
        server.output(),
        new RegExp(`DATA_DIR ${dataDir}: ${widened} files and folders other users could read or write are now owner-only`),
      );
    } finally {
      assert.equal(await server.stop(), 0);
    }
  });

  it('a shared folder (sticky bit, as /tmp) is refused as DATA_DIR, and left as it was', async () => {
    const shared = join(root, 'shared');
    mkdirSync(shared);
    chmodSync(shared, 0o1777);
    const result = await cli(['keys', 'list', '--create-store'], { DATA_DIR: shared });
    assert.equal(result.code, 1);
    assert.match(result.stderr, /DATA_DIR .*shared is a shared folder \(sticky bit\): give the store a folder of its own/);
    assert.equal(statSync(shared).mode & 0o7777, 0o1777);
    assert.deepEqual(readdirSync(shared), [], 'no lock left behind');
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
