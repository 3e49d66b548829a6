// Plants one known bug in the source, runs the test files that must catch it, and says whether they
// did and how fast; the source file is put back whatever happens (a copy taken before, restored on
// exit, Ctrl-C or a crash). The same audit can be re-run after any change:
//
//   npm run mutate -- --list          the mutations, their files and the tests that must fail
//   npm run mutate -- NAME            plant NAME, run its tests once per store (the embedded one, and
//                                     PostgreSQL when DATABASE_URL is set: TEST_STORES picks the store)
//   npm run mutate -- --all           every mutation in turn, then a summary table
//   options: --limit SECONDS (default 60) ends a run not caught by then; --store NAME runs one
//            store only; --full waits for the whole run after the first failure (to see every
//            failing test) instead of stopping at once
//
// A mutation is a search and replace that must apply exactly once: when the code it targets has
// changed, the script says so instead of testing an unchanged file.
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

export interface Mutation {
  name: string;
  /** The bug, as a reader would describe it. */
  bug: string;
  file: string;
  search: string;
  replace: string;
  /** The test files that must fail with it. */
  tests: string[];
  /** The stores whose run can catch it (default every store): a test of PostgreSQL's own behaviour skips on the embedded one. */
  stores?: readonly string[];
}

export const MUTATIONS: Mutation[] = [
  {
    name: 'filter-index-stale',
    bug: 'the filter index keeps a stale value: a record changed while a rebuild runs keeps its old version in the new main part',
    file: 'src/read/filter-index/filter-index.ts',
    search: 'if (position >= 0) main.remove(position);',
    replace: 'if (position < -1) main.remove(position);',
    tests: ['test/filter-index/filter-index.test.ts'],
  },
  {
    name: 'catch-up-skip',
    bug: 'a catch-up skips a change: the read model applies every batch of the change log but its first entry',
    file: 'src/read/read-model.ts',
    search: '    for (const change of changes) {\n      let ids = changed.get(change.dataset);',
    replace: '    for (const change of changes.slice(1)) {\n      let ids = changed.get(change.dataset);',
    tests: ['test/read-model/instances.test.ts'],
  },
  {
    name: 'feed-cursor',
    bug: "a feed cursor one entry too far: a full page's nextCursor points at the entry after its last item",
    file: 'src/changes/feed.ts',
    search: '      found.length = limit;\n      next = found.at(-1)!.position;',
    replace: '      next = found.at(-1)!.position;\n      found.length = limit;',
    tests: ['test/changes/feed.test.ts'],
  },
  {
    name: 'signature-body-only',
    bug: 'the Standard Webhooks signature covers the body alone, not "id.timestamp.body"',
    file: 'src/webhooks/signing.ts',
    search: '.update(`${message.eventId}.${timestamp}.${message.body}`)',
    replace: '.update(message.body)',
    tests: ['test/webhooks/signing.test.ts'],
  },
  {
    name: 'count-mode-charged',
    bug: 'count mode is charged a credit like a page',
    file: 'src/accounts/pricing-routes.ts',
    search: 'if (count) return { used: 0, remaining: await credits.balance(principal.accountId) };',
    replace: 'if (count) return { used: 1, remaining: await credits.charge(principal, endpoint) };',
    tests: ['test/v2/signals.test.ts'],
  },
  {
    name: '304-charged',
    bug: 'a 304 is charged: the credit is taken once the 304 has been sent (the client cannot see it; the ledger can)',
    file: 'src/read/list-routes.ts',
    search: 'signalPageTag(services.entityTags, request, page))) return reply;',
    replace:
      'signalPageTag(services.entityTags, request, page)))\n        return settleCredits(services.credits, request, api.endpoint, false).then(() => reply);',
    tests: ['test/conditional.test.ts'],
  },
  {
    name: 'webhook-active-after-retries',
    bug: 'a webhook is left active after the last retry of a delivery fails',
    file: 'src/webhooks/attempt-queries.ts',
    search: 'active = CASE WHEN o.pause_reason IS NULL THEN w.active ELSE false END,',
    replace: 'active = w.active,',
    tests: ['test/webhooks/delivery.test.ts'],
  },
  {
    name: 'memory-rate-limit-window',
    bug: "the memory rate-limit store evicts keys by the caller's window, not each key's own",
    file: 'src/platform/infra/rate-limit-store.ts',
    search: 'if (last === undefined || last <= now - log.windowMs) this.logs.delete(key);',
    replace: 'if (last === undefined || last <= now - windowMs) this.logs.delete(key);',
    tests: ['test/account/security.test.ts'],
  },
  {
    name: 'dispatch-batch-cap',
    bug: 'the webhook dispatcher records the whole batch as done when it stops at its cap: the rest is never sent',
    file: 'src/webhooks/dispatcher.ts',
    search: 'if (deliveries.length >= this.maxDeliveries) return { events, deliveries, through: change };',
    replace: 'if (deliveries.length >= this.maxDeliveries) return { events, deliveries, through: changes.at(-1)! };',
    tests: ['test/webhooks/dispatch-batch.test.ts'],
  },
  {
    name: 'paused-webhook-sent',
    bug: 'a paused webhook is claimed like an active one: its queued events are sent while it is off',
    file: 'src/webhooks/delivery-queue-queries.ts',
    search: 'WHERE next_attempt_at <= now() AND active AND deleted_at IS NULL',
    replace: 'WHERE next_attempt_at <= now() AND deleted_at IS NULL',
    tests: ['test/webhooks/delivery.test.ts'],
  },
  {
    name: 'address-range-172',
    bug: 'the refused range 172.16.0.0/12 narrowed to /16 (172.17.x, Docker, and 172.31.x, a default VPC, reachable)',
    file: 'src/webhooks/address-ranges.ts',
    search: "['172.16.0.0/12', 'a private address'],",
    replace: "['172.16.0.0/16', 'a private address'],",
    tests: ['test/webhooks/special-addresses.test.ts'],
  },
  {
    name: 'replica-behind-served',
    bug: "a page serves the replica's documents whatever its head: a replica that has not replayed what the index holds serves older documents",
    file: 'src/read/read-model.ts',
    search: 'if (comparePositions(read.head, position) >= 0) {',
    replace: 'if (comparePositions(read.head, position) >= -1) {',
    tests: ['test/read-model/replica.test.ts'],
    stores: ['postgres'],
  },
  {
    name: 'replica-no-catch-up',
    bug: "with a replica, a page trusts the replica's head alone: a write the primary took that neither the index nor the replica has yet is missed",
    file: 'src/read/read-model.ts',
    search: 'if (this.replica !== undefined && !current) {',
    replace: 'if (this.replica !== undefined && !current && attempt < 0) {',
    tests: ['test/read-model/replica.test.ts'],
    stores: ['postgres'],
  },
];

export interface Outcome {
  name: string;
  store: string;
  caught: boolean;
  /** Seconds from the start of the run to the first failing test (or to the end of the run). */
  seconds: number;
  /** The failing tests, each with the suite it ran in (its store) and when it was reported. */
  failures: { test: string; suite: string; seconds: number }[];
  note: string;
}

/** Applies the mutation to the file's text; throws unless its search text occurs exactly once. */
export function mutated(text: string, mutation: Mutation): string {
  const count = text.split(mutation.search).length - 1;
  if (count !== 1) {
    throw new Error(
      `${mutation.name}: the text to replace occurs ${count} times in ${mutation.file} (expected once); update the mutation`,
    );
  }
  return text.replace(mutation.search, () => mutation.replace);
}

interface RunOptions {
  limitSeconds: number;
  full: boolean;
  stores: string[];
}

/** The test run in progress, ended with its process group when this script is interrupted. */
let running: ChildProcess | undefined;

function killGroup(child: ChildProcess): void {
  try {
    process.kill(-child.pid!, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

/** Plants the mutation, runs its tests once per store, restores the file; never leaves the mutation in place. */
export async function runMutation(mutation: Mutation, options: RunOptions): Promise<Outcome[]> {
  const path = join(ROOT, mutation.file);
  const original = readFileSync(path, 'utf8');
  const next = mutated(original, mutation);
  const backupDir = mkdtempSync(join(tmpdir(), 'mutate-'));
  const backup = join(backupDir, 'original');
  copyFileSync(path, backup);
  const restore = () => {
    copyFileSync(backup, path);
  };
  const onSignal = (signal: NodeJS.Signals) => {
    if (running) killGroup(running);
    restore();
    process.kill(process.pid, signal);
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  process.once('exit', restore);
  try {
    writeFileSync(path, next);
    const outcomes: Outcome[] = [];
    const stores = options.stores.filter((store) => mutation.stores?.includes(store) ?? true);
    if (stores.length === 0) console.log(`  not run: its tests run on ${mutation.stores!.join(', ')} only (set DATABASE_URL)`);
    for (const store of stores) {
      const outcome = await runTests(mutation, store, options);
      console.log(`  [${store}] ${outcome.caught ? 'CAUGHT' : 'NOT CAUGHT'} in ${outcome.seconds.toFixed(1)} s: ${outcome.note}`);
      outcomes.push(outcome);
    }
    return outcomes;
  } finally {
    restore();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    process.off('exit', restore);
    rmSync(backupDir, { recursive: true, force: true });
  }
}

function runTests(mutation: Mutation, store: string, options: RunOptions): Promise<Outcome> {
  const started = performance.now();
  const elapsed = () => (performance.now() - started) / 1000;
  const args = [
    '--import',
    'tsx',
    '--import',
    './test/setup.ts',
    '--test',
    '--test-concurrency=1',
    '--test-reporter=spec',
    ...mutation.tests,
  ];
  // Its own process group, so the test files' processes end with it.
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, TEST_STORES: store },
  });
  running = child;
  const failures: Outcome['failures'] = [];
  const suites: string[] = [];
  let output = '';
  let buffered = '';
  let stopped: 'limit' | 'caught' | undefined;
  const stop = (why: 'limit' | 'caught') => {
    stopped ??= why;
    killGroup(child);
  };
  const timer = setTimeout(() => stop('limit'), options.limitSeconds * 1000);
  const onLine = (line: string) => {
    // The spec reporter indents two spaces per level; a suite's header comes before its tests.
    // (Piped, the reporter writes no colours.)
    const clean = line;
    const match = /^( *)(▶|✖|✔|﹣) (.*?)(?: \([\d.]+ms\))?$/.exec(clean);
    if (!match || clean.startsWith('✖ failing tests')) return;
    const depth = match[1]!.length / 2;
    const [, , mark, name] = match;
    if (mark === '▶') {
      suites.length = depth;
      suites[depth] = name!;
    } else if (mark === '✖' && depth > 0 && !failures.some((f) => f.test === name && f.suite === suites[0])) {
      failures.push({ test: name!, suite: suites.slice(0, depth).join(' > '), seconds: elapsed() });
      process.stdout.write(`  [${store}] ✖ ${suites.slice(0, depth).join(' > ')} > ${name} (${elapsed().toFixed(1)} s)\n`);
      if (!options.full) stop('caught');
    }
  };
  const onData = (chunk: Buffer) => {
    output += chunk.toString();
    buffered += chunk.toString();
    const lines = buffered.split('\n');
    buffered = lines.pop()!;
    for (const line of lines) onLine(line);
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) => {
    child.on('close', (code) => {
      clearTimeout(timer);
      running = undefined;
      const seconds = failures[0]?.seconds ?? elapsed();
      const caught = failures.length > 0 || (stopped === undefined && code !== 0);
      let note: string;
      if (failures.length > 0) note = `caught by ${failures.length} failing test(s)`;
      else if (stopped === 'limit') note = `not caught within ${options.limitSeconds} s (stopped)`;
      else if (code !== 0) note = `the run failed without a failing test (exit ${code}):\n${output.slice(-3000)}`;
      else note = 'not caught: every test passed';
      resolve({ name: mutation.name, store, caught, seconds, failures, note });
    });
  });
}

function list(): void {
  for (const m of MUTATIONS) {
    const line = readFileSync(join(ROOT, m.file), 'utf8').split(m.search)[0]!.split('\n').length;
    console.log(`${m.name}\n  ${m.bug}\n  ${m.file}:${line}\n  must fail: ${m.tests.join(' ')}`);
  }
}

async function main(argv: string[]): Promise<number> {
  let limitSeconds = 60;
  let full = false;
  let stores = process.env.DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];
  const names: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--list') {
      list();
      return 0;
    } else if (arg === '--all') names.push(...MUTATIONS.map((m) => m.name));
    else if (arg === '--full') full = true;
    else if (arg === '--limit') limitSeconds = Number(argv[++i]);
    else if (arg === '--store') stores = [argv[++i] ?? ''];
    else names.push(arg);
  }
  if (names.length === 0 || !(limitSeconds > 0)) {
    console.error('usage: npm run mutate -- NAME... | --all | --list  [--limit SECONDS] [--store pglite|postgres] [--full]');
    return 2;
  }
  const outcomes: Outcome[] = [];
  for (const name of names) {
    const mutation = MUTATIONS.find((m) => m.name === name);
    if (!mutation) {
      console.error(`unknown mutation ${name}; npm run mutate -- --list`);
      return 2;
    }
    console.log(`${mutation.name}: ${mutation.bug}\n  ${mutation.file}; running ${mutation.tests.join(' ')}`);
    const results = await runMutation(mutation, { limitSeconds, full, stores });
    outcomes.push(...results);
  }
  console.log('\nmutation | store | caught | first failing test | seconds');
  for (const o of outcomes) {
    const first = o.failures[0];
    const where = first ? `${first.suite} > ${first.test}` : '-';
    console.log(`${o.name} | ${o.store} | ${o.caught ? 'yes' : 'no'} | ${where} | ${o.seconds.toFixed(1)}`);
  }
  return outcomes.some((o) => !o.caught) ? 1 : 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  void main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
