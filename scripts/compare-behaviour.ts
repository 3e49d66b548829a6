// Shows that two builds behave the same for clients and for the database: starts each as a real
// server on the same demo data, sends both the same ~1,000 requests in the same order, compares
// every answer (status, headers, body), and compares the SQL statement texts each sent.
//
//   npm run compare -- --base <git-ref> [--head <git-ref>|worktree] [--store pglite|postgres]
//                      [--requests N] [--seed N] [--port P] [--max-diffs N] [--report FILE] [--answers FILE] [--keep]
//
// --store postgres makes two fresh databases next to DATABASE_URL's (its name + _a and _b).
// Exit status: 0 identical, 1 a difference, 2 the comparison could not run. See docs/compare-behaviour.md.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { prepareBuild, removeBuild, WORKING_TREE, type Build } from './compare-behaviour/builds.js';
import { describe, normalise, render, send, ServerState, unifiedDiff } from './compare-behaviour/compare.js';
import { ACCOUNTS, discover, discoveryPlan, LIMITED_V1, mainPlan, type Answer, type Step } from './compare-behaviour/plan.js';
import {
  ADMIN_TOKEN,
  dealsignal,
  dropDatabase,
  freshDatabase,
  startReceiver,
  startServer,
  stopServer,
  waitReady,
  type RunningServer,
  type StoreKind,
} from './compare-behaviour/servers.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

const { values } = parseArgs({
  options: {
    base: { type: 'string' },
    head: { type: 'string', default: WORKING_TREE },
    store: { type: 'string', default: 'pglite' },
    requests: { type: 'string', default: '1000' },
    seed: { type: 'string', default: '1' },
    port: { type: 'string' },
    'max-diffs': { type: 'string', default: '20' },
    report: { type: 'string' },
    answers: { type: 'string' },
    keep: { type: 'boolean', default: false },
  },
});

function usage(problem: string): never {
  console.error(`compare-behaviour: ${problem}
usage: npm run compare -- --base <git-ref> [--head <git-ref>|worktree] [--store pglite|postgres]
                          [--requests N] [--seed N] [--port P] [--max-diffs N] [--report FILE] [--answers FILE] [--keep]`);
  process.exit(2);
}

const wholeNumber = (flag: string, value: string | undefined): number => {
  if (value === undefined || !/^\d+$/.test(value)) usage(`--${flag} must be a whole number`);
  return Number(value);
};

if (!values.base) usage('--base is required');
if (values.store !== 'pglite' && values.store !== 'postgres') usage('--store is pglite or postgres');
const store: StoreKind = values.store;
const requestCount = wholeNumber('requests', values.requests);
const seed = wholeNumber('seed', values.seed);
const maxDiffs = wholeNumber('max-diffs', values['max-diffs']);
if (store === 'postgres' && !process.env.DATABASE_URL)
  usage('--store postgres needs DATABASE_URL (two databases are made beside it)');

/** Three ports: base, head and the webhook receiver; free ones unless --port gives the first. */
async function pickPorts(): Promise<[number, number, number]> {
  if (values.port !== undefined) {
    const first = wholeNumber('port', values.port);
    return [first, first + 1, first + 2];
  }
  const free = () =>
    new Promise<number>((resolve, reject) => {
      const probe = createServer();
      probe.once('error', reject);
      probe.listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => resolve(port));
      });
    });
  return [await free(), await free(), await free()];
}

function databaseUrl(suffix: string): string {
  const url = new URL(process.env.DATABASE_URL!);
  url.pathname = `${url.pathname}_${suffix}`;
  return url.href;
}

interface Difference {
  index: number;
  request: string;
  diff: string;
}

const log = (line: string) => console.error(line);
const seconds = (since: number) => `${((Date.now() - since) / 1000).toFixed(1)} s`;

async function createAccounts(server: RunningServer, state: ServerState): Promise<void> {
  for (const account of ACCOUNTS) {
    const created = JSON.parse(
      await dealsignal(server, 'keys', 'create', '--email', `${account.name}@compare.test`, '--tier', account.tier, '--json'),
    ) as { key: string; id: string; prefix: string };
    state.vars.set(`key.${account.name}`, created.key);
    state.vars.set(`keyid.${account.name}`, created.id);
    state.alias(created.key, `key.${account.name}`);
    state.alias(created.id, `keyid.${account.name}`);
  }
  await dealsignal(server, 'accounts', 'set-limit', 'limited@compare.test', '--v1', String(LIMITED_V1));
  await dealsignal(server, 'keys', 'revoke', state.vars.get('keyid.revoked')!);
  state.vars.set('admin', ADMIN_TOKEN);
}

async function main(): Promise<number> {
  const started = Date.now();
  const [basePort, headPort, receiverPort] = await pickPorts();
  const builds: Build[] = [];
  const servers: RunningServer[] = [];
  const databases = store === 'postgres' ? [databaseUrl('a'), databaseUrl('b')] : [];
  const receiver = await startReceiver(receiverPort);
  const work = mkdtempSync(join(tmpdir(), 'dealsignal-compare-'));
  // Ctrl-C stops the servers; the request under way then fails and the cleanup below still runs.
  let interrupted = false;
  const interrupt = () => {
    interrupted = true;
    log('interrupted: stopping the servers and cleaning up');
    for (const server of servers) server.process.kill('SIGTERM');
  };
  process.on('SIGINT', interrupt);
  process.on('SIGTERM', interrupt);
  try {
    log(`building ${values.base} and ${values.head}...`);
    const prepared = await Promise.allSettled([
      prepareBuild(ROOT, values.base!, join(work, 'base-tree')),
      prepareBuild(ROOT, values.head!, join(work, 'head-tree')),
    ]);
    for (const result of prepared) if (result.status === 'fulfilled') builds.push(result.value);
    for (const result of prepared) if (result.status === 'rejected') throw result.reason;
    if (interrupted) throw new Error('interrupted');
    const [baseBuild, headBuild] = builds as [Build, Build];
    log(`built in ${seconds(started)}: base ${baseBuild.description}, head ${headBuild.description}`);

    for (const url of databases) await freshDatabase(url);
    const serversStarted = Date.now();
    const today = new Date(`${new Date(serversStarted).toISOString().slice(0, 10)}T00:00:00Z`);
    servers.push(
      startServer({
        name: 'base',
        build: baseBuild,
        store,
        port: basePort,
        dataDir: mkdtempSync(join(work, 'base-')),
        databaseUrl: databases[0],
      }),
      startServer({
        name: 'head',
        build: headBuild,
        store,
        port: headPort,
        dataDir: mkdtempSync(join(work, 'head-')),
        databaseUrl: databases[1],
      }),
    );
    if (interrupted) throw new Error('interrupted');
    await Promise.all(servers.map((server) => waitReady(server)));
    const states = servers.map((server) => new ServerState(server.name, server.baseUrl)) as [ServerState, ServerState];
    await Promise.all(servers.map((server, i) => createAccounts(server, states[i]!)));
    log(
      `both servers ready on ${store === 'pglite' ? 'the embedded store' : 'PostgreSQL'} with the demo data in ${seconds(serversStarted)}`,
    );

    const differences: Difference[] = [];
    const statuses = new Map<number, number>();
    const answersLog: string[] = [];
    let sent = 0;
    const runStep = async (step: Step): Promise<[Answer, Answer]> => {
      const answers = (await Promise.all(states.map((state) => send(state, step.request)))) as [Answer, Answer];
      answers.forEach((answer, i) => {
        for (const capture of step.captures ?? []) {
          const value = capture.from(answer);
          if (value === undefined) continue;
          states[i]!.vars.set(capture.name, value);
          if (capture.alias) states[i]!.alias(value, capture.alias);
        }
      });
      const [base, head] = answers.map((answer, i) => render(normalise(answer, step, states[i]!, serversStarted)));
      sent += 1;
      statuses.set(answers[0].status, (statuses.get(answers[0].status) ?? 0) + 1);
      if (values.answers)
        answersLog.push(`### ${sent}: ${describe(step.request)}\n${base}${base === head ? '' : `### head:\n${head}`}`);
      if (base !== head) differences.push({ index: sent, request: describe(step.request), diff: unifiedDiff(base!, head!) });
      return answers;
    };

    const requestsStarted = Date.now();
    const discovery = discoveryPlan();
    const baseAnswers: Answer[] = [];
    for (const step of discovery) baseAnswers.push((await runStep(step))[0]);
    const plan = mainPlan({
      seed,
      size: requestCount - discovery.length,
      today,
      found: discover(baseAnswers),
      receiver: receiver.url,
    });
    for (const step of plan) await runStep(step);
    log(`${sent} requests sent to both in ${seconds(requestsStarted)}`);
    if (new Date().toISOString().slice(0, 10) !== today.toISOString().slice(0, 10)) {
      log('warning: the UTC day changed during the run; answers that depend on the date may differ for that reason alone');
    }

    await Promise.all(servers.map((server) => stopServer(server)));
    const sql = compareSql(servers[0]!.sqlLog, servers[1]!.sqlLog);

    const lines: string[] = [];
    lines.push(`base: ${baseBuild.description}`, `head: ${headBuild.description}`, `store: ${store}, seed ${seed}`, '');
    lines.push(`${sent} requests, ${sent - differences.length} identical, ${differences.length} different`);
    const byStatus = [...statuses].sort(([a], [b]) => a - b).map(([status, n]) => `${status}×${n}`);
    lines.push(`statuses (base): ${byStatus.join(', ')}`);
    if (values.answers) writeFileSync(values.answers, answersLog.join('\n'));
    differences.forEach((difference, n) => {
      if (n >= maxDiffs && !values.report) return;
      lines.push('', `--- request ${difference.index}: ${difference.request}`, difference.diff.trimEnd());
    });
    if (differences.length > maxDiffs && !values.report)
      lines.push('', `... and ${differences.length - maxDiffs} more (--max-diffs, --report FILE)`);
    lines.push('', ...sql.lines);
    const report = lines.join('\n');
    if (values.report) {
      writeFileSync(values.report, report + '\n');
      const shown = report
        .split('\n--- request ')
        .slice(0, maxDiffs + 1)
        .join('\n--- request ');
      console.log(shown === report ? report : `${shown}\n\n(the full report is in ${values.report})\n\n${sql.lines.join('\n')}`);
    } else {
      console.log(report);
    }
    log(`done in ${seconds(started)}`);
    return differences.length === 0 && sql.identical ? 0 : 1;
  } finally {
    await Promise.all(servers.map((server) => stopServer(server).catch(() => undefined)));
    await new Promise((resolve) => receiver.server.close(resolve));
    for (const build of builds)
      await removeBuild(ROOT, build).catch((err: unknown) => log(`could not remove ${build.dir}: ${String(err)}`));
    if (values.keep) log(`kept ${work}${databases.length ? ` and ${databases.join(', ')}` : ''}`);
    else {
      rmSync(work, { recursive: true, force: true });
      for (const url of databases) await dropDatabase(url).catch(() => undefined);
    }
  }
}

/**
 * The statement texts each server sent. Their order and how often each ran depend on timing
 * (the change-log follower and the webhook dispatcher poll), so the sets of distinct texts are
 * compared; the counts are shown as information.
 */
function compareSql(baseFile: string, headFile: string): { identical: boolean; lines: string[] } {
  const read = (file: string) => new Map(Object.entries(JSON.parse(readFileSync(file, 'utf8')) as Record<string, number>));
  const base = read(baseFile);
  const head = read(headFile);
  const onlyBase = [...base.keys()].filter((text) => !head.has(text)).sort();
  const onlyHead = [...head.keys()].filter((text) => !base.has(text)).sort();
  const squeeze = (text: string) => text.replace(/\s+/g, ' ').trim();
  const headSqueezed = new Set(onlyHead.map(squeeze));
  const total = (counts: Map<string, number>) => [...counts.values()].reduce((sum, n) => sum + n, 0);
  const countsDiffer = [...base.keys()].filter((text) => head.has(text) && head.get(text) !== base.get(text));
  const lines = [
    `SQL: base sent ${base.size} distinct statement texts (${total(base)} statements), head ${head.size} (${total(head)}); ` +
      `${onlyBase.length} only in base, ${onlyHead.length} only in head`,
    `  (information: ${countsDiffer.length} texts ran a different number of times, as polling and timing make them)`,
  ];
  const show = (text: string) => (text.length > 2000 ? `${text.slice(0, 2000)}…` : text);
  for (const text of onlyBase) {
    const spacing = headSqueezed.has(squeeze(text)) ? ' (head has it with other white space)' : '';
    lines.push('', `- only in base (${base.get(text)}×)${spacing}:`, show(text));
  }
  for (const text of onlyHead) lines.push('', `+ only in head (${head.get(text)}×):`, show(text));
  return { identical: onlyBase.length === 0 && onlyHead.length === 0, lines };
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(`compare-behaviour: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(2);
  },
);
