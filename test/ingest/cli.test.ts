import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { after, before, beforeEach, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { importCommand, startInbox, watchCommand, type CommandIo } from '../../src/cli/ingest-command.js';
import type { Database } from '../../src/platform/db/port.js';
import { fundingRecord, jobChangeRecord, maRecord } from '../fixtures.js';
import { clearData, describeEach, testConfig } from '../helpers.js';
import { BATCH_ROWS } from '../../src/ingest/importer.js';
import { count, ndjson, snapshot, WriteProbe } from './support.js';

describeEach('dealsignal import and watch', (backend) => {
  let db: Database;
  let dir: string;
  const config = testConfig();
  const probe = new WriteProbe();

  /** Runs a command against the test store, capturing what it prints. */
  async function cli(command: typeof importCommand, args: string[], stdin = '', untilStopped?: () => Promise<void>) {
    const out: string[] = [];
    const err: string[] = [];
    const io: CommandIo = {
      stdin: Readable.from([Buffer.from(stdin)]),
      out: (text) => out.push(text),
      err: (text) => err.push(text),
      // The store outlives the command here; the command's close() must not end it.
      open: async () => ({ ...probe.wrap(db), close: async () => undefined }),
      untilStopped,
    };
    const code = await command(config, args, io);
    return { code, out: out.join('\n'), err: err.join('\n') };
  }

  before(async () => {
    db = await backend.openMigrated();
    dir = mkdtempSync(join(tmpdir(), 'dealsignal-ingest-cli-'));
  });
  after(async () => {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(() => clearData(db));

  it('imports a file and prints the counts; exit 0', async () => {
    const file = join(dir, 'rounds.ndjson');
    writeFileSync(file, ndjson([fundingRecord(), fundingRecord()]));
    const result = await cli(importCommand, ['funding', file]);
    assert.equal(result.code, 0, result.err);
    assert.match(result.out, /^funding: 2 received, 2 inserted, 0 updated, 0 unchanged, 0 rejected, 0 duplicates; committed$/);
    const again = await cli(importCommand, ['funding', file, '--json']);
    assert.equal(again.code, 0);
    assert.deepEqual([JSON.parse(again.out).unchanged, JSON.parse(again.out).inserted], [2, 0]);
  });

  it('an input without records says so (not "committed"); exit 0, nothing changes', async () => {
    await cli(importCommand, ['funding', '-'], ndjson([fundingRecord()]));
    const before = await snapshot(db);
    for (const input of ['', '\n\n', '[]']) {
      const result = await cli(importCommand, ['funding', '-'], input);
      assert.equal(result.code, 0, result.err);
      assert.equal(result.out, 'funding: no records in the input; nothing to import');
    }
    assert.deepEqual(await snapshot(db), before);
  });

  it('reads standard input with "-", and .gz files', async () => {
    const result = await cli(importCommand, ['job-changes', '-', '--json'], ndjson([jobChangeRecord(), jobChangeRecord()]));
    assert.equal(result.code, 0, result.err);
    assert.equal(JSON.parse(result.out).inserted, 2);
    const file = join(dir, 'deals.json.gz');
    writeFileSync(file, gzipSync(JSON.stringify([maRecord()])));
    const zipped = await cli(importCommand, ['m-a', file]);
    assert.equal(zipped.code, 0, zipped.out);
    assert.equal(await count(db, 'ma_deals'), 1);
  });

  it('exit 1 and every reject listed when a record is invalid; nothing changes', async () => {
    await cli(importCommand, ['funding', '-'], ndjson([fundingRecord()]));
    const before = await snapshot(db);
    const input = ndjson([fundingRecord(), { ...fundingRecord(), funding_amount: 'lots' }, '{oops']);
    const result = await cli(importCommand, ['funding', '-'], input);
    assert.equal(result.code, 1);
    assert.match(result.out, /2 rejected.*not committed \(all-or-nothing/);
    assert.match(result.out, /line 2: funding_amount: Expected integer \(got "lots"\)/);
    assert.match(result.out, /line 3: not valid JSON/);
    assert.deepEqual(await snapshot(db), before);

    const skipped = await cli(importCommand, ['funding', '-', '--skip-invalid'], input);
    assert.equal(skipped.code, 0);
    assert.equal(await count(db, 'funding_rounds'), 2);
  });

  it('all-or-nothing across write batches: a bad record after more than a full batch → exit 1, the store as before', async () => {
    const stored = [maRecord(), maRecord(), maRecord()];
    assert.equal((await cli(importCommand, ['m-a', '-'], ndjson(stored))).code, 0);
    const before = await snapshot(db);
    const good = [
      ...stored.map((r) => ({ ...r, acquisition_amount: 7_777_777 })),
      ...Array.from({ length: BATCH_ROWS['m-a'] * 2 + 50 }, () => maRecord()),
    ];
    const file = join(dir, 'deals-with-a-bad-one.ndjson');
    writeFileSync(file, ndjson([...good, { ...maRecord(), status: 'rumoured' }, maRecord()]));
    probe.rowsWritten = 0;
    const result = await cli(importCommand, ['m-a', file]);
    assert.equal(result.code, 1, result.out);
    assert.ok(probe.rowsWritten >= BATCH_ROWS['m-a'], `${probe.rowsWritten} rows written before the rollback`);
    assert.match(result.out, new RegExp(`line ${good.length + 1}: status: must be one of`));
    assert.deepEqual(await snapshot(db), before);
  });

  it('a record with several problems: each one printed on its own line under the record', async () => {
    const broken = { ...fundingRecord(), funding_amount: 'lots', currency: 1, founded: 1999 };
    const result = await cli(importCommand, ['funding', '-'], ndjson([fundingRecord(), broken]));
    assert.equal(result.code, 1);
    const listed = result.out.split('\n');
    const at = listed.indexOf('  line 2:');
    assert.ok(at > 0, result.out);
    assert.deepEqual(listed.slice(at + 1, at + 4).sort(), [
      '    currency: Expected string (got 1)',
      '    founded: unknown field (not part of the funding record)',
      '    funding_amount: Expected integer (got "lots")',
    ]);
    const json = JSON.parse((await cli(importCommand, ['funding', '-', '--json'], ndjson([broken]))).out);
    assert.equal(json.rejects[0].problems.length, 3);
    assert.equal(await count(db, 'funding_rounds'), 0);
  });

  it('exit 2 on usage errors: unknown kind (the kinds are listed), missing file, bad option', async () => {
    const unknown = await cli(importCommand, ['deals', '-']);
    assert.equal(unknown.code, 2);
    assert.match(unknown.err, /unknown kind "deals"; kinds: funding, m-a, investors, job-changes, acquisitions/);
    assert.equal((await cli(importCommand, ['funding'])).code, 2);
    const missing = await cli(importCommand, ['funding', join(dir, 'nope.ndjson')]);
    assert.equal(missing.code, 2);
    assert.match(missing.err, /cannot read .*nope\.ndjson \(ENOENT\)/);
    assert.equal((await cli(importCommand, ['funding', '-', '--dry-run'])).code, 2);
    assert.equal((await cli(importCommand, ['funding', '-', '--format', 'xml'])).code, 2);
    assert.equal((await cli(watchCommand, [join(dir, 'no-such-dir')])).code, 2);
  });

  it('the inbox imports dropped files and moves them to processed/ or failed/ with a report', async () => {
    const inboxDir = mkdtempSync(join(dir, 'inbox-'));
    const lines: string[] = [];
    const log = { info: (m: string) => lines.push(m), warn: (m: string) => lines.push(m), error: (m: string) => lines.push(m) };
    const inbox = await startInbox(db, inboxDir, log, { intervalMs: 40 });
    try {
      writeFileSync(join(inboxDir, 'm-a-2025-06-01.ndjson'), ndjson([maRecord(), maRecord()]));
      // Cut off mid-record, as an interrupted transfer leaves it.
      writeFileSync(join(inboxDir, 'funding_bad.ndjson'), ndjson([fundingRecord()]) + '{"company_name":');
      writeFileSync(join(inboxDir, 'misc.json'), '[]');
      writeFileSync(join(inboxDir, 'job-changes.ndjson.tmp'), ndjson([jobChangeRecord()]));
      writeFileSync(join(inboxDir, 'notes.txt'), 'not for the inbox');
      await waitFor(
        () =>
          readdirSync(join(inboxDir, 'failed')).length === 4 &&
          existsSync(join(inboxDir, 'processed', 'm-a-2025-06-01.ndjson.report.json')),
      );

      const processed = JSON.parse(readFileSync(join(inboxDir, 'processed', 'm-a-2025-06-01.ndjson.report.json'), 'utf8'));
      assert.deepEqual(
        [processed.file, processed.movedTo, processed.kind, processed.inserted, processed.committed],
        ['m-a-2025-06-01.ndjson', 'processed', 'm-a', 2, true],
      );
      assert.equal(await count(db, 'ma_deals'), 2);

      const failed = JSON.parse(readFileSync(join(inboxDir, 'failed', 'funding_bad.ndjson.report.json'), 'utf8'));
      assert.deepEqual([failed.movedTo, failed.committed, failed.rejected], ['failed', false, 1]);
      assert.match(failed.rejects[0].reason, /^line 2: the file ends in the middle of a record/);
      assert.equal(await count(db, 'funding_rounds'), 0);

      const nameless = JSON.parse(readFileSync(join(inboxDir, 'failed', 'misc.json.report.json'), 'utf8'));
      assert.match(nameless.error, /the file name must start with the kind/);

      // Written under a temporary name, then renamed when complete: only then is it taken.
      assert.ok(existsSync(join(inboxDir, 'job-changes.ndjson.tmp')));
      assert.ok(existsSync(join(inboxDir, 'notes.txt')));
      renameSync(join(inboxDir, 'job-changes.ndjson.tmp'), join(inboxDir, 'job-changes.ndjson'));
      await waitFor(() => existsSync(join(inboxDir, 'processed', 'job-changes.ndjson.report.json')));
      assert.equal(await count(db, 'job_changes'), 1);

      // The same name again does not overwrite the earlier file or report.
      writeFileSync(join(inboxDir, 'm-a-2025-06-01.ndjson'), ndjson([maRecord()]));
      await waitFor(() => readdirSync(join(inboxDir, 'processed')).length === 6);
      assert.equal(await count(db, 'ma_deals'), 3);
    } finally {
      await inbox.stop();
    }
    assert.ok(lines.some((l) => /inbox: m-a-2025-06-01\.ndjson → processed\//.test(l)));
  });

  it('dealsignal watch runs the inbox until stopped', async () => {
    const inboxDir = mkdtempSync(join(dir, 'watch-'));
    writeFileSync(join(inboxDir, 'investors.json'), '[]');
    const result = await cli(watchCommand, [inboxDir, '--interval', '30'], '', () =>
      waitFor(() => existsSync(join(inboxDir, 'processed', 'investors.json.report.json'))),
    );
    assert.equal(result.code, 0, result.err);
    assert.match(result.out, /inbox: investors\.json → processed\/investors\.json: investors: no records in the input/);
  });
});

async function waitFor(condition: () => boolean, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
