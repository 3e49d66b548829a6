import assert from 'node:assert/strict';
import { after, before, beforeEach, it } from 'node:test';
import type { Database } from '../../src/platform/db/port.js';
import { BATCH_ROWS, ingest, UnknownKindError, type IngestKind } from '../../src/ingest/importer.js';
import { generateFundingRecords, generateMaRecords } from '../../src/demo/v1-generator.js';
import { generateAcquisitionSignals, generateInvestors, generateJobChanges } from '../../src/demo/v2-generator.js';
import {
  acquisitionRecord,
  companyRecord,
  fundingRecord,
  hiringRecord,
  investorRecord,
  jobChangeRecord,
  maRecord,
} from '../fixtures.js';
import { clearData, describeEach } from '../helpers.js';
import { chunked, count, ndjson, run, snapshot, WriteProbe } from './support.js';

const AS_OF = new Date('2026-01-01T00:00:00Z');

type AnyRecord = Record<string, unknown>;

/** Per kind: a new valid record, and the same record changed (an update when imported again). */
const MAKERS: Record<IngestKind, { make(): AnyRecord; change(record: AnyRecord): AnyRecord }> = {
  funding: { make: () => fundingRecord(), change: (r) => ({ ...r, funding_amount: 7_777_777 }) },
  'm-a': { make: () => maRecord(), change: (r) => ({ ...r, acquisition_amount: 7_777_777 }) },
  investors: { make: () => investorRecord(), change: (r) => ({ ...r, name: 'Renamed Capital' }) },
  'job-changes': { make: () => jobChangeRecord(), change: (r) => ({ ...r, newRole: 'Chief Executive Officer' }) },
  acquisitions: { make: () => acquisitionRecord(), change: (r) => ({ ...r, companyName: 'Renamed Co' }) },
  companies: { make: () => companyRecord(), change: (r) => ({ ...r, employeeCount: 4242 }) },
  hiring: { make: () => hiringRecord(), change: (r) => ({ ...r, title: 'Staff Software Engineer' }) },
};

describeEach('ingest service', (backend) => {
  let db: Database;

  before(async () => {
    db = await backend.openMigrated();
  });
  after(() => db.close());
  beforeEach(() => clearData(db));

  /** A store with some of every kind, so "unchanged" means something. */
  async function populate(): Promise<void> {
    const reports = await Promise.all([
      run(db, 'funding', ndjson([fundingRecord(), fundingRecord()])),
      run(db, 'm-a', ndjson([maRecord()])),
      run(db, 'investors', ndjson([investorRecord()])),
      run(db, 'job-changes', ndjson([jobChangeRecord()])),
      run(db, 'acquisitions', ndjson([acquisitionRecord()])),
      run(db, 'companies', ndjson([companyRecord()])),
      run(db, 'hiring', ndjson([hiringRecord()])),
    ]);
    for (const report of reports) assert.equal(report.committed, true, JSON.stringify(report));
  }

  it('imports every kind, generated data included, and re-importing it changes nothing', async () => {
    const inputs: Record<string, string> = {
      funding: ndjson([...generateFundingRecords(1, 300, AS_OF)]),
      'm-a': ndjson([...generateMaRecords(1, 300, AS_OF)].map(({ record, status }) => ({ ...record, status }))),
      investors: JSON.stringify([...generateInvestors(1, 300, AS_OF)], null, 2),
      'job-changes': ndjson([...generateJobChanges(1, 300, AS_OF)]),
      acquisitions: JSON.stringify([...generateAcquisitionSignals(1, 300, AS_OF)]),
    };
    for (const [kind, text] of Object.entries(inputs)) {
      const first = await run(db, kind, text, { batchRows: 128 });
      assert.deepEqual(
        { committed: first.committed, received: first.received, inserted: first.inserted, rejected: first.rejected },
        { committed: true, received: 300, inserted: 300, rejected: 0 },
        `${kind}: ${JSON.stringify(first.rejects.slice(0, 3))}`,
      );
      const before = await snapshot(db);
      const again = await run(db, kind, text, { batchRows: 128 });
      assert.deepEqual(
        [again.committed, again.inserted, again.updated, again.unchanged],
        [true, 0, 0, 300],
        `${kind} second import`,
      );
      assert.deepEqual(await snapshot(db), before, `${kind}: a re-import changes nothing, not even the data version`);
    }
    assert.equal(await count(db, 'ma_deals'), 300);
  });

  it('serves the record exactly as sent, with derived fields filled and file-only fields stripped', async () => {
    const funding = fundingRecord({ company_name: 'Acme Robotics, Inc.', date_seen: '2025-06-01T12:00:00.000Z' });
    delete (funding as { name_path?: string }).name_path;
    funding.company_info = { ...funding.company_info, website: 'https://www.Acme.io/', hq_country: 'United States' };
    const report = await run(db, 'funding', ndjson([{ ...funding, source_id: 'crm-42' }]));
    assert.equal(report.inserted, 1);
    const [row] = await db.query<{ doc: string; name_path: string; website_key: string; country_key: string; source_id: string }>(
      'SELECT doc, name_path, website_key, country_key, source_id FROM funding_rounds',
    );
    assert.equal(row!.name_path, 'acme-robotics-inc');
    assert.equal(row!.website_key, 'acme.io');
    assert.equal(row!.country_key, 'us');
    assert.equal(row!.source_id, 'crm-42');
    // The record as sent, with its company link appended (src/companies): a company made from it, by its website.
    const [made] = await db.query<{ id: string }>(`SELECT record_id::text AS id FROM companies WHERE website_key = 'acme.io'`);
    assert.deepEqual(JSON.parse(row!.doc), {
      ...funding,
      name_path: 'acme-robotics-inc',
      company_id: made!.id,
      company_match: 'exact',
    });

    const deal = maRecord();
    await run(db, 'm-a', ndjson([{ ...deal, status: 'pending' }]));
    const [ma] = await db.query<{ doc: string; status: string }>('SELECT doc, status FROM ma_deals');
    assert.equal(ma!.status, 'pending');
    assert.equal('status' in JSON.parse(ma!.doc), false);

    const change = jobChangeRecord({ newRole: 'Chief Technology Officer' });
    await run(db, 'job-changes', ndjson([change]));
    const [job] = await db.query<{ position: string; seniority: string; person_key: string }>(
      'SELECT position, seniority, person_key FROM job_changes',
    );
    assert.deepEqual(job, {
      position: 'cto',
      seniority: 'c_level',
      person_key: change.personLinkedinUrl.replace('https://www.', ''),
    });
  });

  it('natural keys: source_id for funding, else name_path + round + day; ids for the others', async () => {
    const base = fundingRecord({ company_name: 'Keyed', round_type: 'Series A', date_seen: '2025-06-01T10:00:00Z' });
    const sameDayLater = { ...base, date_seen: '2025-06-01T18:00:00Z', funding_amount: 2 };
    let report = await run(db, 'funding', ndjson([base]));
    report = await run(db, 'funding', ndjson([sameDayLater]));
    assert.deepEqual([report.inserted, report.updated], [0, 1]);
    assert.equal(await count(db, 'funding_rounds'), 1);
    // With a source_id, the source's identity wins over name and date.
    report = await run(
      db,
      'funding',
      ndjson([
        { ...base, source_id: 's-1' },
        { ...base, company_name: 'Renamed', source_id: 's-1' },
      ]),
    );
    assert.deepEqual([report.inserted, report.duplicates], [1, 1]);
    assert.equal(await count(db, 'funding_rounds'), 2);

    const investor = investorRecord();
    await run(db, 'investors', ndjson([investor]));
    report = await run(db, 'investors', ndjson([{ ...investor, id: investor.id.toUpperCase(), name: 'Renamed Capital' }]));
    assert.deepEqual([report.inserted, report.updated], [0, 1], 'uuids compare case-insensitively');
  });

  it('a changed record replaces the stored one: updated 1, the rest unchanged', async () => {
    const records = [fundingRecord(), fundingRecord(), fundingRecord()];
    await run(db, 'funding', ndjson(records));
    const report = await run(db, 'funding', ndjson([records[0]!, { ...records[1]!, funding_amount: 7_000_000 }, records[2]!]));
    assert.deepEqual([report.committed, report.inserted, report.updated, report.unchanged], [true, 0, 1, 2]);
    const docs = (await db.query<{ doc: string }>('SELECT doc FROM funding_rounds')).map((r) => JSON.parse(r.doc));
    assert.ok(docs.some((d) => d.funding_amount === 7_000_000));
  });

  it('bad inputs: a clear reason with the line, and the store exactly as before (all-or-nothing)', async () => {
    await populate();
    const good = () => fundingRecord();
    const cases: { name: string; kind: string; input: string | Buffer; reason: RegExp; failure?: string }[] = [
      {
        name: 'malformed JSON line',
        kind: 'funding',
        input: ndjson([good(), '{"company_name": "x",', good()]),
        reason: /^line 2: not valid JSON/,
      },
      {
        name: 'missing required field',
        kind: 'funding',
        input: ndjson([good(), { ...good(), funding_amount: undefined }]),
        reason: /^line 2: funding_amount: is required$/,
      },
      {
        name: 'wrong type',
        kind: 'funding',
        input: ndjson([{ ...good(), funding_amount: '1M' }]),
        reason: /^line 1: funding_amount: Expected integer \(got "1M"\)$/,
      },
      {
        name: 'impossible date',
        kind: 'funding',
        input: ndjson([{ ...good(), date_seen: '2024-02-30T10:00:00Z' }]),
        reason: /^line 1: date_seen: must be a date-time that exists.*\(got "2024-02-30T10:00:00Z"\)$/,
      },
      {
        name: 'a date outside the supported range',
        kind: 'funding',
        input: ndjson([good(), { ...good(), date_seen: '9999-12-31T00:00:00Z' }]),
        reason: /^line 2: date_seen: must be between 1900-01-01 and 2199-12-31 \(UTC\) \(got "9999-12-31T00:00:00Z"\)$/,
      },
      {
        name: 'impossible date inside a nullable field',
        kind: 'investors',
        input: ndjson([investorRecord({ lastInvestmentDate: '2023-02-29' })]),
        reason: /^line 1: lastInvestmentDate: must be a calendar date that exists/,
      },
      {
        name: 'nested wrong type',
        kind: 'funding',
        input: ndjson([{ ...good(), investors: [{ name: 'A' }, { name: 42 }] }]),
        reason: /^line 1: investors\[1\]\.name: Expected string \(got 42\)$/,
      },
      {
        name: 'a value outside an enumeration',
        kind: 'investors',
        input: ndjson([investorRecord({ investorType: 'hedge' as never })]),
        reason: /^line 1: investorType: must be one of vc, angel, pe, corporate/,
      },
      {
        name: 'unknown field',
        kind: 'funding',
        input: ndjson([{ ...good(), fundingAmount: 5 }]),
        reason: /^line 1: fundingAmount: unknown field \(not part of the funding record\)$/,
      },
      {
        name: 'not an object',
        kind: 'funding',
        input: ndjson([good(), '[1, 2]']),
        reason: /^line 2: expected a JSON object, got an array$/,
      },
      {
        name: 'bad m-a status',
        kind: 'm-a',
        input: ndjson([{ ...maRecord(), status: 'rumoured' }]),
        reason: /^line 1: status: must be one of announced, completed, pending$/,
      },
      {
        name: 'negative amount',
        kind: 'm-a',
        input: ndjson([{ ...maRecord(), acquisition_amount: -5 }]),
        reason: /acquisition_amount: must be between 0 and/,
      },
      {
        name: 'amount beyond 2^53',
        kind: 'funding',
        input: ndjson([{ ...good(), funding_amount: 1e20 }]),
        reason: /funding_amount: must be between 0 and/,
      },
      { name: 'NUL character', kind: 'funding', input: ndjson([{ ...good(), ceo: 'a\u0000b' }]), reason: /NUL character/ },
      {
        name: 'malformed source_id',
        kind: 'funding',
        input: ndjson([{ ...good(), source_id: 5 }]),
        reason: /^line 1: source_id: must be a non-empty string/,
      },
      {
        name: 'no name_path can be derived',
        kind: 'funding',
        input: ndjson([{ ...good(), company_name: '株式会社', name_path: undefined }]),
        reason: /name_path: cannot be derived from company_name/,
      },
      {
        name: 'file cut off mid-record (NDJSON)',
        kind: 'funding',
        input: ndjson([good(), good()]) + JSON.stringify(good()).slice(0, 150),
        reason: /^line 3: the file ends in the middle of a record/,
      },
      {
        name: 'file cut off mid-record (JSON array)',
        kind: 'funding',
        input: JSON.stringify([good(), good()]).slice(0, -40),
        reason: /^index 1 \(line 1\): the file ends in the middle of a record$/,
        failure: 'malformed-input',
      },
      {
        name: 'a broken JSON array',
        kind: 'job-changes',
        input: `[${JSON.stringify(jobChangeRecord())} ${JSON.stringify(jobChangeRecord())}]`,
        reason: /expected "," or "]" after the record/,
        failure: 'malformed-input',
      },
      {
        name: 'record over the size limit',
        kind: 'acquisitions',
        input: ndjson([acquisitionRecord({ description: 'x'.repeat(5000) })]),
        reason: /^line 1: record is larger than/,
      },
    ];
    const before = await snapshot(db);
    for (const c of cases) {
      const report = await run(db, c.kind, c.input, {
        maxRecordBytes: c.name === 'record over the size limit' ? 4096 : undefined,
      });
      assert.equal(report.committed, false, c.name);
      assert.equal(report.failure, c.failure ?? 'invalid-records', c.name);
      assert.equal(report.inserted + report.updated + report.unchanged, 0, c.name);
      assert.ok(report.rejects.length >= 1, c.name);
      assert.match(report.rejects[0]!.reason, c.reason, `${c.name}: ${report.rejects[0]!.reason}`);
      assert.deepEqual(await snapshot(db), before, `${c.name}: the store is exactly as before`);
    }
  });

  it('all-or-nothing across write batches: a bad record after more than a full batch undoes every row written', async () => {
    for (const [kind, { make, change }] of Object.entries(MAKERS) as [IngestKind, (typeof MAKERS)[IngestKind]][]) {
      const stored = [make(), make(), make()];
      assert.equal((await run(db, kind, ndjson(stored))).committed, true);
      const before = await snapshot(db);
      // The stored records changed (updates) first, then new ones: more than two batches of the
      // kind's size, so at least a batch's worth is written before the bad record is read (staged
      // statements, on the embedded store, hold fewer rows than a batch when records are large).
      const good = [...stored.map(change), ...Array.from({ length: BATCH_ROWS[kind] * 2 + 50 }, make)];
      const input = ndjson([...good, { ...make(), not_a_field: true }, make(), make()]);
      const probe = new WriteProbe();
      const report = await ingest(probe.wrap(db), kind, chunked(input, 64 * 1024), { skipInvalid: false });
      assert.ok(
        probe.rowsWritten >= BATCH_ROWS[kind],
        `${kind}: ${probe.rowsWritten} rows written before the rollback, expected a full batch (${BATCH_ROWS[kind]})`,
      );
      assert.deepEqual(
        [report.committed, report.failure, report.received, report.rejected, report.inserted, report.updated],
        [false, 'invalid-records', good.length + 3, 1, 0, 0],
        kind,
      );
      assert.equal(report.rejects[0]!.line, good.length + 1, kind);
      assert.deepEqual(await snapshot(db), before, `${kind}: the store is exactly as before (counts, checksums, change log)`);
    }
  });

  it('every invalid record is reported (the list is capped, the count is not)', async () => {
    const lines = [
      fundingRecord(),
      '{bad',
      fundingRecord(),
      { ...fundingRecord(), currency: 1 },
      '"text"',
      'nul',
      fundingRecord(),
    ];
    const report = await run(db, 'funding', ndjson(lines));
    assert.deepEqual([report.received, report.rejected, report.committed], [7, 4, false]);
    assert.deepEqual(
      report.rejects.map((r) => r.line),
      [2, 4, 5, 6],
    );
    const capped = await run(db, 'funding', ndjson(lines), { maxListed: 2 });
    assert.deepEqual([capped.rejects.length, capped.rejectsTruncated, capped.rejected], [2, 2, 4]);
    assert.equal(await count(db, 'funding_rounds'), 0);
  });

  it('every problem of a record is reported, not only the first (at most 20 a record)', async () => {
    const broken: Record<string, unknown> = {
      ...fundingRecord(),
      source_id: 5,
      funding_amount: 'lots',
      investors: [{ name: 'A' }, { name: 42 }],
      date_seen: '9999-12-31T00:00:00Z',
      fundingAmount: 5,
    };
    delete broken.currency;
    const report = await run(db, 'funding', ndjson([fundingRecord(), broken, fundingRecord()]));
    assert.deepEqual([report.committed, report.rejected], [false, 1]);
    const expected = [
      'source_id: must be a non-empty string of at most 512 characters, or null',
      'currency: is required',
      'fundingAmount: unknown field (not part of the funding record)',
      'funding_amount: Expected integer (got "lots")',
      'investors[1].name: Expected string (got 42)',
      'date_seen: must be between 1900-01-01 and 2199-12-31 (UTC) (got "9999-12-31T00:00:00Z")',
    ];
    const [reject] = report.rejects;
    assert.deepEqual([...reject!.problems!].sort(), [...expected].sort());
    assert.equal(reject!.reason, `line 2: ${reject!.problems!.join('; ')}`);

    // A rule the schema cannot state is reported next to the schema's.
    const deal = await run(db, 'm-a', ndjson([{ ...maRecord(), acquisition_amount: -5, acquisition_percentage: 'all' }]));
    assert.deepEqual([...deal.rejects[0]!.problems!].sort(), [
      'acquisition_amount: must be between 0 and 9007199254740991',
      'acquisition_percentage: Expected number (got "all")',
    ]);

    // One problem: the reason as before, no list.
    const single = await run(db, 'funding', ndjson([{ ...fundingRecord(), currency: 1 }]));
    assert.deepEqual(single.rejects[0], { line: 1, reason: 'line 1: currency: Expected string (got 1)' });

    // A record broken throughout: 20 problems, then a note that there were more.
    const flooded = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`unknown_${i}`, i]));
    const capped = await run(db, 'funding', ndjson([{ ...fundingRecord(), ...flooded }]));
    const problems = capped.rejects[0]!.problems!;
    assert.equal(problems.length, 21);
    assert.ok(problems.slice(0, 20).every((p) => /^unknown_\d+: unknown field/.test(p)));
    assert.equal(problems[20], 'more problems not listed (at most 20 a record)');
    assert.equal(await count(db, 'funding_rounds'), 0);
  });

  it('skipInvalid imports the valid records and reports the others', async () => {
    const lines = [fundingRecord(), '{bad', fundingRecord(), { ...fundingRecord(), date_seen: '2025-13-01T00:00:00Z' }];
    const report = await run(db, 'funding', ndjson(lines), { skipInvalid: true });
    assert.deepEqual(
      [report.committed, report.received, report.inserted, report.rejected, report.failure],
      [true, 4, 2, 2, undefined],
    );
    assert.deepEqual(
      report.rejects.map((r) => r.line),
      [2, 4],
    );
    assert.equal(await count(db, 'funding_rounds'), 2);
    // A JSON array cut off is not trusted even then.
    const cut = await run(db, 'funding', JSON.stringify([fundingRecord(), fundingRecord()]).slice(0, -10), { skipInvalid: true });
    assert.deepEqual([cut.committed, cut.failure], [false, 'malformed-input']);
    assert.equal(await count(db, 'funding_rounds'), 2);
  });

  it('duplicate keys in one input: the last wins, each is reported, counts stay exact', async () => {
    const a = jobChangeRecord();
    const b = jobChangeRecord();
    const report = await run(db, 'job-changes', ndjson([a, b, { ...a, newRole: 'CEO' }]));
    assert.deepEqual([report.received, report.inserted, report.duplicates, report.unchanged], [3, 2, 1, 0]);
    assert.match(report.replaced[0]!.reason, /^line 3 replaces line 1 \(same key "/);
    const [stored] = await db.query<{ doc: string }>('SELECT doc FROM job_changes WHERE record_id = $1', [a.signalId]);
    assert.equal(JSON.parse(stored!.doc).newRole, 'CEO');

    // Across write batches (2 rows each), with the first copy new, unchanged or changed.
    await clearData(db);
    const existing = jobChangeRecord();
    const untouched = jobChangeRecord();
    await run(db, 'job-changes', ndjson([existing, untouched]));
    const c = jobChangeRecord();
    const lines = [
      c, // new
      existing, // unchanged at first...
      jobChangeRecord(),
      jobChangeRecord(),
      { ...c, newRole: 'VP Sales' }, // a new record written again: still one insert
      { ...existing, newRole: 'Head of Product' }, // ...then changed: one update
      untouched,
      untouched, // the same unchanged record twice
    ];
    const across = await run(db, 'job-changes', ndjson(lines), { batchRows: 2 });
    assert.deepEqual(
      { inserted: across.inserted, updated: across.updated, unchanged: across.unchanged, duplicates: across.duplicates },
      { inserted: 3, updated: 1, unchanged: 1, duplicates: 3 },
    );
    assert.deepEqual(
      across.replaced.map((r) => r.line),
      [5, 6, 8],
    );
    assert.equal(await count(db, 'job_changes'), 5);
    const roles = (await db.query<{ doc: string }>('SELECT doc FROM job_changes')).map((r) => JSON.parse(r.doc).newRole);
    assert.ok(roles.includes('VP Sales') && roles.includes('Head of Product'));
  });

  it('an empty input is a successful no-op: received 0, nothing changed', async () => {
    await populate();
    const before = await snapshot(db);
    for (const input of ['', '\n  \n', '[]', ' [ \n ] ']) {
      const report = await run(db, 'investors', input);
      assert.deepEqual(
        [report.committed, report.received, report.inserted, report.rejected, report.format],
        [true, 0, 0, 0, input.includes('[') ? 'json' : 'empty'],
      );
    }
    assert.deepEqual(await snapshot(db), before);
  });

  it('a 10 MB single line is imported in one piece; over the limit it is rejected unread', async () => {
    const description = 'Lorem ipsum dolor sit amet. '.repeat(Math.ceil((10 * 1024 * 1024) / 28));
    const record = fundingRecord({ company_name: 'Huge' });
    record.company_info = { ...record.company_info, description };
    const line = ndjson([record]);
    assert.ok(line.length > 10 * 1024 * 1024);
    const report = await ingest(db, 'funding', [Buffer.from(line)], { skipInvalid: false });
    assert.deepEqual([report.committed, report.inserted], [true, 1]);
    const [row] = await db.query<{ length: number }>('SELECT length(doc)::int AS length FROM funding_rounds');
    assert.ok(row!.length > 10 * 1024 * 1024);

    const before = await snapshot(db);
    const limited = await run(db, 'funding', ndjson([fundingRecord(), { ...record, company_name: 'Huge 2' }]), {
      maxRecordBytes: 1024 * 1024,
    });
    assert.equal(limited.committed, false);
    assert.equal(limited.rejects[0]!.reason, 'line 2: record is larger than the 1 MiB limit');
    assert.deepEqual(await snapshot(db), before);
  });

  it('an input that fails while being read changes nothing', async () => {
    await populate();
    const before = await snapshot(db);
    async function* failing() {
      yield ndjson([fundingRecord(), fundingRecord(), fundingRecord()]);
      throw new Error('connection reset');
    }
    const report = await ingest(db, 'funding', failing(), { skipInvalid: true, batchRows: 1 });
    assert.deepEqual([report.committed, report.failure], [false, 'input-interrupted']);
    assert.match(report.error!, /could not be read to the end \(connection reset\)/);
    assert.deepEqual(await snapshot(db), before);
  });

  it('an unknown kind is refused before anything is read', async () => {
    await assert.rejects(run(db, 'mergers', ndjson([maRecord()])), (err: unknown) => {
      assert.ok(err instanceof UnknownKindError);
      assert.match((err as Error).message, /unknown kind "mergers"; kinds: funding, m-a, investors, job-changes, acquisitions/);
      return true;
    });
  });

  it('concurrent imports of the same batch never create duplicates', async () => {
    const text = ndjson(Array.from({ length: 400 }, () => fundingRecord()));
    const reports = await Promise.all([1, 2, 3].map(() => run(db, 'funding', text, { batchRows: 50 })));
    assert.ok(reports.every((r) => r.committed));
    assert.equal(await count(db, 'funding_rounds'), 400);
    assert.equal(
      reports.reduce((sum, r) => sum + r.inserted, 0),
      400,
    );
    assert.deepEqual(
      reports.map((r) => r.inserted + r.updated + r.unchanged),
      [400, 400, 400],
    );
  });

  it('readers never see half an import', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const first = ndjson(Array.from({ length: 30 }, () => jobChangeRecord()));
    async function* slow() {
      yield first;
      await gate;
      yield ndjson(Array.from({ length: 30 }, () => jobChangeRecord()));
    }
    const importing = ingest(db, 'job-changes', slow(), { skipInvalid: false, batchRows: 10 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(await count(db, 'job_changes'), 0, 'nothing is visible before the commit');
    release();
    const report = await importing;
    assert.equal(report.inserted, 60);
    assert.equal(await count(db, 'job_changes'), 60);
  });
});
