// examples/: the Node and Python scripts, run as child processes against a real server on the demo
// data set. The lookup prints what the batch lookup answers; the sync's copy holds exactly the rounds
// the v1 list serves for the country, after a first run and again after the data changes.
import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { pruneChangeLog } from '../src/changes/change-log-queries.js';
import { fundingRecord } from './fixtures.js';
import { startDemoApp } from './demo-store.js';
import { backends, makeKey, type TestContext } from './helpers.js';
import { ADMIN_TOKEN, ndjson } from './ingest/support.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const python = spawnSync('python3', ['--version'], { encoding: 'utf8' });
const noPython: string | false = python.error || python.status !== 0 ? 'python3 is not installed' : false;

const LANGUAGES = [
  { name: 'node', skip: false, command: 'node', lookup: 'examples/node/lookup.mjs', sync: 'examples/node/sync-funding.mjs' },
  {
    name: 'python',
    skip: noPython,
    command: 'python3',
    lookup: 'examples/python/lookup.py',
    sync: 'examples/python/sync_funding.py',
  },
] as const;

type Round = Record<string, unknown> & { company_info?: { hq_country?: string | null; website?: string } };
interface LookupResult {
  input: string;
  status: 'matched' | 'no_match' | 'invalid';
  total: number;
  records: Round[];
}
interface Summary {
  applied: number;
  pages: number;
  credits: number;
  rounds: number;
}

/** JSON with keys sorted at every level: equal for equal records, whatever order a writer used. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([name, field]) => `${JSON.stringify(name)}:${canonical(field)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
const multiset = (rounds: unknown[]) => rounds.map(canonical).sort();

/** The summary line both sync scripts print. */
function summaryOf(stdout: string): Summary {
  const match = /: (\d+) changes? applied, (\d+) pages?, (\d+) credits? spent, (\d+) rounds in the copy/.exec(stdout);
  assert.ok(match, `a summary line in:\n${stdout}`);
  const [applied, pages, credits, rounds] = match.slice(1).map(Number) as [number, number, number, number];
  return { applied, pages, credits, rounds };
}

async function readCopy(path: string): Promise<{ id: string; round: Round }[]> {
  const text = await readFile(path, 'utf8');
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line));
}

describe('examples/', () => {
  let ctx: TestContext;
  let key: string;
  let baseUrl: string;
  let dir: string;

  before(async () => {
    ctx = await startDemoApp(backends()[0]!, { ADMIN_TOKEN });
    ({ key } = await makeKey(ctx.db, 'enterprise'));
    baseUrl = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    dir = await mkdtemp(join(tmpdir(), 'dealsignal-examples-'));
  });
  after(async () => {
    await ctx?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  /** Runs a script with the key and the server in its environment; never throws on a non-zero exit. */
  const run = (command: string, args: string[], overrides: Record<string, string> = {}) =>
    new Promise<{ code: number; stdout: string; stderr: string }>((resolve, reject) => {
      const env = { ...process.env, DEALSIGNAL_API_KEY: key, DEALSIGNAL_URL: baseUrl, ...overrides };
      execFile(command, args, { cwd: ROOT, env, timeout: 60_000, maxBuffer: 16 << 20 }, (error, stdout, stderr) => {
        if (error && typeof error.code !== 'number') return reject(error);
        resolve({ code: typeof error?.code === 'number' ? error.code : 0, stdout, stderr });
      });
    });

  const v1 = async (url: string) => {
    const res = await ctx.app.inject({ url, headers: { 'x-lot-api-key': key } });
    assert.equal(res.statusCode, 200, res.body);
    return { data: res.json().response.data as Round[], total: Number(res.headers['x-total-count']), link: res.headers.link };
  };

  /** Every US round the v1 list serves, walked over all its pages (once while the data stays the same). */
  let usRoundsNow: Promise<Round[]> | undefined;
  const usRounds = () => (usRoundsNow ??= walkUsRounds());
  const walkUsRounds = async () => {
    const rounds: Round[] = [];
    for (let page = 1; ; page++) {
      const { data, total, link } = await v1(`/api/v1/funding?country=US&page=${page}`);
      rounds.push(...data);
      if (!String(link ?? '').includes('rel="next"')) {
        assert.equal(rounds.length, total);
        return rounds;
      }
    }
  };

  const lookup = async (websites: string[]): Promise<LookupResult[]> => {
    const results: LookupResult[] = [];
    for (let start = 0; start < websites.length; start += 100) {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/v1/funding/lookup',
        headers: { 'x-lot-api-key': key, 'content-type': 'application/json' },
        payload: { websites: websites.slice(start, start + 100) },
      });
      assert.equal(res.statusCode, 200, res.body);
      results.push(...res.json().response.data);
    }
    return results;
  };

  /** 103 websites of companies of the data (so two requests), one unknown, one invalid. */
  let websitesOnce: Promise<string[]> | undefined;
  const lookupInputs = () =>
    (websitesOnce ??= (async () => {
      const known = new Set<string>();
      for (let page = 1; known.size < 103; page++) {
        for (const round of (await v1(`/api/v1/funding?page=${page}`)).data) {
          if (round.company_info?.website && known.size < 103) known.add(round.company_info.website);
        }
      }
      return [...known, 'no-such-company.example', 'https://'];
    })());

  describe('lookup', () => {
    for (const language of LANGUAGES) {
      it(
        `${language.name}: prints per website what the batch lookup answers, 100 inputs a request`,
        { skip: language.skip },
        async () => {
          const websites = await lookupInputs();
          const expected = await lookup(websites);
          assert.ok(expected.some((result) => result.total > 1));

          // Node takes the websites as arguments, Python from a file.
          const listFile = join(dir, `websites-${language.name}.txt`);
          await writeFile(listFile, `# companies\n${websites.join('\n')}\n\n`);
          const args = language.name === 'node' ? websites : ['--file', listFile];
          const { code, stdout, stderr } = await run(language.command, [language.lookup, ...args]);
          assert.equal(code, 0, stderr);

          const lines = stdout.trimEnd().split('\n');
          assert.equal(lines.length, websites.length, stdout);
          lines.forEach((line, index) => {
            const [input, count, latest] = line.split('\t');
            const result = expected[index]!;
            assert.equal(input, websites[index]);
            if (result.status === 'invalid') {
              assert.equal(count, 'invalid', line);
              return;
            }
            assert.equal(count, `${result.total} ${result.total === 1 ? 'round' : 'rounds'}`, line);
            // The first record is the newest: its type, amount and date.
            const newest = result.records[0];
            const amount = `${(newest?.funding_amount as number | undefined)?.toLocaleString('en-US')} ${newest?.currency}`;
            const described = `latest: ${newest?.round_type ?? 'unnamed round'}, ${amount}, ${String(newest?.date_seen).slice(0, 10)}`;
            assert.equal(latest, newest === undefined ? undefined : described, line);
          });
          assert.match(lines.at(-2)!, /^no-such-company\.example\t0 rounds$/);
          assert.match(lines.at(-1)!, /^https:\/\/\tinvalid\t/);
        },
      );
    }
  });

  describe('python: an HTTP error prints the answer, never a traceback', { skip: noPython }, () => {
    const python = LANGUAGES[1];
    const scripts = [
      [python.lookup, 'lumly.com'],
      [python.sync, '--country', 'US', '--out', join(tmpdir(), `dealsignal-never-${process.pid}.ndjson`)],
    ];

    it("a refused key: the API's error body as sent, exit 1", async () => {
      const wrongKey = `ds_${'x'.repeat(40)}`;
      for (const [script, ...args] of scripts) {
        const { code, stdout, stderr } = await run(python.command, [script!, ...args], { DEALSIGNAL_API_KEY: wrongKey });
        assert.equal(code, 1, `${stdout}\n${stderr}`);
        assert.doesNotMatch(stderr, /Traceback/);
        const [summary, body] = stderr.trimEnd().split('\n');
        assert.match(summary!, /^dealsignal answered 401: /);
        // The body the API sends that key, field for field (its code, for one, says what to do).
        // (The sync script's first request is a v1 list page.)
        const answer = await ctx.app.inject(
          script === python.lookup
            ? {
                method: 'POST',
                url: '/api/v1/funding/lookup',
                headers: { 'x-lot-api-key': wrongKey },
                payload: { websites: ['lumly.com'] },
              }
            : { url: '/api/v1/funding?country=US', headers: { 'x-lot-api-key': wrongKey } },
        );
        assert.deepEqual(JSON.parse(body!), answer.json(), script);
      }
    });

    it('a connection cut before any answer: one line saying so, exit 1', async () => {
      const server = createServer((socket) => socket.destroy());
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      try {
        for (const [script, ...args] of scripts) {
          const { code, stderr } = await run(python.command, [script!, ...args], { DEALSIGNAL_URL: url });
          assert.equal(code, 1, stderr);
          assert.doesNotMatch(stderr, /Traceback/);
          assert.match(stderr, /^dealsignal did not answer: /);
        }
      } finally {
        server.close();
      }
    });
  });

  describe('sync-funding', () => {
    const outOf = (language: { name: string }) => join(dir, `funding-us-${language.name}.ndjson`);
    const sync = (language: (typeof LANGUAGES)[number], out: string) =>
      run(language.command, [language.sync, '--country', 'US', '--out', out]);
    const changed = { created: '', updated: '', moved: '', deleted: '' };

    for (const language of LANGUAGES) {
      it(`${language.name}: the first run copies every US round from the feed's start`, { skip: language.skip }, async () => {
        const { code, stdout, stderr } = await sync(language, outOf(language));
        assert.equal(code, 0, `${stdout}\n${stderr}`);
        const summary = summaryOf(stdout);
        const expected = await usRounds();
        const copy = await readCopy(outOf(language));
        assert.deepEqual(multiset(copy.map((line) => line.round)), multiset(expected));
        assert.equal(new Set(copy.map((line) => line.id)).size, copy.length, 'one line per id');
        assert.equal(summary.rounds, expected.length);
        // Every funding change of the seed (more than the US rounds), 1,000 a page, 1 credit each.
        assert.ok(summary.applied >= 5_000, stdout);
        assert.equal(summary.credits, summary.pages);
        const fullPages = Math.ceil(summary.applied / 1000);
        assert.ok(summary.pages >= fullPages && summary.pages <= fullPages + 1, stdout);
        assert.match(stdout, new RegExp(`Rounds of US: ${expected.length} in the copy, ${expected.length} on the server`));
        const state = JSON.parse(await readFile(`${outOf(language)}.state.json`, 'utf8'));
        assert.deepEqual(state.spellings, ['united states', 'us']);
        assert.equal(typeof state.cursor, 'string');
        // Kept for the 410 case below: a state whose changes will be pruned.
        await copyFile(outOf(language), `${outOf(language)}.old`);
        await copyFile(`${outOf(language)}.state.json`, `${outOf(language)}.old.state.json`);
      });
    }

    const fromNowOf = (language: { name: string }) => join(dir, `funding-us-from-now-${language.name}.ndjson`);
    for (const language of LANGUAGES) {
      it(
        `${language.name}: --from-now starts at the feed's head, reading none of the past changes`,
        { skip: language.skip },
        async () => {
          const { code, stdout, stderr } = await run(language.command, [
            language.sync,
            '--country',
            'US',
            '--out',
            fromNowOf(language),
            '--from-now',
          ]);
          // The copy is empty, and the server has every round: the counts differ.
          assert.equal(code, 2, `${stdout}\n${stderr}`);
          assert.match(stdout, /^First run: following the feed from now;/m);
          // The head costs nothing; the one page read after it (empty) costs 1 credit.
          assert.deepEqual(summaryOf(stdout), { applied: 0, pages: 1, credits: 1, rounds: 0 });
          const state = JSON.parse(await readFile(`${fromNowOf(language)}.state.json`, 'utf8'));
          const head = await ctx.app.inject({ url: '/api/v2/changes?since=now', headers: { authorization: `Bearer ${key}` } });
          assert.equal(state.cursor, head.json().pagination.nextCursor);
        },
      );
    }

    it('the data changes: a round created, one updated, one moved abroad, one deleted, one created abroad', async () => {
      const copy = await readCopy(outOf(LANGUAGES[0]));
      const [toUpdate, toMove, toDelete] = copy.filter((line) => line.id.startsWith('source:')).slice(0, 3);
      assert.ok(toUpdate && toMove && toDelete);
      const sourceId = (id: string) => id.slice('source:'.length);
      const today = new Date().toISOString();
      const abroad = fundingRecord({ company_name: 'Examples Abroad SA', date_seen: today });
      abroad.company_info = { ...abroad.company_info!, hq_country: 'France' };
      const records = [
        {
          ...fundingRecord({ company_name: 'Examples Sync Co', round_type: 'Series B', date_seen: today }),
          source_id: 'examples-new',
        },
        { ...abroad, source_id: 'examples-abroad' },
        { ...toUpdate.round, funding_amount: (toUpdate.round.funding_amount as number) + 1, source_id: sourceId(toUpdate.id) },
        {
          ...toMove.round,
          company_info: { ...toMove.round.company_info, hq_country: 'Germany' },
          source_id: sourceId(toMove.id),
        },
      ];
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/admin/ingest/funding',
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/x-ndjson' },
        payload: ndjson(records),
      });
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual([res.json().inserted, res.json().updated], [2, 2], res.body);
      // No write path deletes a round; plain SQL is logged like any other (docs/api/changes-feed.md).
      await ctx.db.query('DELETE FROM funding_rounds WHERE natural_key = $1', [toDelete.id]);
      usRoundsNow = undefined;
      Object.assign(changed, { created: 'source:examples-new', updated: toUpdate.id, moved: toMove.id, deleted: toDelete.id });
    });

    for (const language of LANGUAGES) {
      it(
        `${language.name}: the next run reads only the new changes, and the copy is exact again`,
        { skip: language.skip },
        async () => {
          assert.ok(changed.created, 'the data changed');
          const { code, stdout, stderr } = await sync(language, outOf(language));
          assert.equal(code, 0, `${stdout}\n${stderr}`);
          // Four rounds in one import, one deletion: five changes, one page.
          assert.deepEqual(summaryOf(stdout), { applied: 5, pages: 1, credits: 1, rounds: summaryOf(stdout).rounds });
          const expected = await usRounds();
          const copy = await readCopy(outOf(language));
          assert.deepEqual(multiset(copy.map((line) => line.round)), multiset(expected));
          assert.equal(summaryOf(stdout).rounds, expected.length);
          const ids = new Set(copy.map((line) => line.id));
          assert.ok(ids.has(changed.created) && ids.has(changed.updated));
          assert.ok(!ids.has(changed.moved) && !ids.has(changed.deleted));
          assert.ok(!ids.has('source:examples-abroad'));
        },
      );
    }

    for (const language of LANGUAGES) {
      it(
        `${language.name}: a copy started --from-now holds the rounds created or changed since`,
        { skip: language.skip },
        async () => {
          assert.ok(changed.created, 'the data changed');
          const { code, stdout, stderr } = await sync(language, fromNowOf(language));
          assert.equal(code, 2, `${stdout}\n${stderr}`);
          const ids = (await readCopy(fromNowOf(language))).map((line) => line.id).sort();
          assert.deepEqual(ids, [changed.created, changed.updated].sort());
        },
      );
    }

    for (const language of LANGUAGES) {
      it(
        `${language.name}: a cursor older than the retention (410) starts over; a short copy exits 2`,
        { skip: language.skip },
        async () => {
          // Every change so far falls out of the log, so the old state's cursor is gone.
          await pruneChangeLog(ctx.db, new Date(Date.now() + 86_400_000));
          const out = `${outOf(language)}.old`;
          const { code, stdout, stderr } = await sync(language, out);
          assert.equal(code, 2, `${stdout}\n${stderr}`);
          assert.match(
            stdout,
            /^410: the stored cursor is older than the change log's retention; starting over from the feed's start/m,
          );
          // The feed holds nothing now: the copy starts over empty, and the server still has every round.
          const summary = summaryOf(stdout);
          assert.equal(summary.rounds, 0);
          assert.equal((await readFile(out, 'utf8')).trim(), '');
          assert.match(stdout, new RegExp(`Rounds of US: 0 in the copy, ${(await usRounds()).length} on the server`));
          assert.match(stdout, /CHANGE_LOG_RETENTION_DAYS/);
        },
      );
    }
  });
});
