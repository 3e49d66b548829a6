// The change log's one reader, on both stores: each changed row comes with the filter values the
// read model's index is built from and the document the list endpoints serve, and the read model's
// follower, the webhook dispatcher and the changes feed all get the same change from it.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { DATASETS } from '../../src/catalog/registry.js';
import { readChangeRange } from '../../src/changes/change-reader.js';
import { encodeCursor } from '../../src/changes/cursor.js';
import { readChangesPage } from '../../src/changes/feed.js';
import { ChangeFollower } from '../../src/changes/follower.js';
import { LOG_START, type Change } from '../../src/changes/change-log-queries.js';
import type { Database } from '../../src/platform/db/port.js';
import { indexedDataset } from '../../src/read/dataset-index-filter.js';
import { indexRowsAfter } from '../../src/read/queries.js';
import {
  acquisitionRecord,
  fundingRecord,
  insertAcquisitions,
  insertFunding,
  insertInvestors,
  insertJobChanges,
  insertMa,
  investorRecord,
  jobChangeRecord,
  maRecord,
} from '../fixtures.js';
import { describeEach } from '../helpers.js';

const ALL = { documents: true, values: true };

/** The changes with what each consumer reads of them, as comparable values. */
const entry = ({ position, dataset, id, key, op, changedAt }: Change) => ({ position, dataset, id, key, op, changedAt });

describeEach('the change log reader', (backend) => {
  let db: Database;

  before(async () => {
    db = await backend.openMigrated();
    await insertFunding(db, [fundingRecord(), fundingRecord()]);
    await insertMa(db, [{ record: maRecord(), status: 'completed' }]);
    await insertInvestors(db, [investorRecord(), investorRecord()]);
    await insertJobChanges(db, [jobChangeRecord()]);
    await insertAcquisitions(db, [acquisitionRecord(), acquisitionRecord()]);
    // An update, a deletion, and a natural key changed by plain SQL (a deletion and a creation).
    await db.query(`UPDATE investors SET doc = doc WHERE id = (SELECT min(id) FROM investors)`);
    await db.query(`UPDATE funding_rounds SET funding_amount = 5 WHERE id = (SELECT min(id) FROM funding_rounds)`);
    await db.query(`DELETE FROM acquisition_signals WHERE id = (SELECT min(id) FROM acquisition_signals)`);
    await db.query(`UPDATE investors SET record_id = gen_random_uuid() WHERE id = (SELECT max(id) FROM investors)`);
  });
  after(async () => {
    await db?.close();
  });

  it('reads each changed row with the values the index is built from and its document; none for a deletion', async () => {
    const { changes, scanned, last } = await readChangeRange(db, undefined, { scanRows: 1000, records: ALL });
    assert.equal(scanned, changes.length);
    assert.deepEqual(last, changes.at(-1)!.position);
    assert.ok(changes.some((change) => change.op === 'updated'));
    for (const dataset of DATASETS) {
      const indexed = dataset.withTypes(indexedDataset);
      const rows = new Map((await indexRowsAfter(db, indexed.source, 0, 1000)).map((row) => [row.id, row]));
      const stored = await db.query<{ id: number; key: string; doc: string }>(
        `SELECT id, ${dataset.key.column}::text AS key, doc FROM ${dataset.table}`,
      );
      const docs = new Map(stored.map((row) => [row.id, row]));
      for (const change of changes.filter((c) => c.dataset === dataset.name)) {
        if (change.op === 'deleted' || !rows.has(change.id)) {
          assert.equal(change.record, undefined, `${dataset.name} ${change.op} ${change.id}: no record`);
          continue;
        }
        assert.deepEqual(change.record!.values, rows.get(change.id), `${dataset.name} ${change.id}: the index's values`);
        assert.equal(change.record!.doc, docs.get(change.id)!.doc);
        assert.equal(change.record!.key, docs.get(change.id)!.key);
      }
    }
    // The row whose key plain SQL changed: its first entries name the old key, the row the new one.
    const renamed = changes.filter((c) => c.dataset === 'investors' && c.record && c.key !== c.record.key);
    assert.equal(renamed.length, 1);
    assert.ok(changes.some((c) => c.dataset === 'acquisitions' && c.op === 'deleted' && c.record === undefined));
  });

  it('reads the rows asked for only, and filters by data set after reading scanRows entries', async () => {
    const everything = await readChangeRange(db, LOG_START, { scanRows: 1000, records: ALL });
    const bare = await readChangeRange(db, LOG_START, { scanRows: 1000 });
    assert.deepEqual(bare.changes, everything.changes.map(entry));
    const fundingOnly = await readChangeRange(db, LOG_START, {
      scanRows: 1000,
      records: { datasets: ['funding'], documents: true },
    });
    for (const [i, change] of fundingOnly.changes.entries()) {
      const full = everything.changes[i]!;
      if (change.dataset !== 'funding') assert.equal(change.record, undefined);
      else if (full.record) assert.deepEqual(change.record, { key: full.record.key, doc: full.record.doc });
    }
    // Five entries read, the investors among them returned, at most one.
    const filtered = await readChangeRange(db, LOG_START, { scanRows: 5, datasets: ['investors'], maxChanges: 1 });
    assert.equal(filtered.scanned, 5);
    assert.deepEqual(filtered.last, everything.changes[4]!.position);
    assert.deepEqual(
      filtered.changes,
      everything.changes
        .slice(0, 5)
        .filter((c) => c.dataset === 'investors')
        .slice(0, 1)
        .map(entry),
    );
  });

  it('gives the follower, the dispatcher and the feed the same change', async () => {
    const { changes } = await readChangeRange(db, LOG_START, { scanRows: 1000, records: ALL });
    // The read model's follower, in small batches.
    const follower = new ChangeFollower(db, LOG_START, { batchSize: 3, records: { values: true } });
    const followed: Change[] = [];
    for (let batch = await follower.poll(); batch.length > 0; batch = await follower.poll()) followed.push(...batch);
    assert.deepEqual(
      followed,
      changes.map((c) => ({ ...entry(c), ...(c.record && { record: { key: c.record.key, values: c.record.values } }) })),
    );
    // The dispatcher reads as the follower does, with the documents of the data sets listened to.
    const dispatched = await readChangeRange(db, LOG_START, { scanRows: 1000, records: { datasets: ['investors'], ...ALL } });
    assert.deepEqual(
      dispatched.changes,
      changes.map((c) => ({ ...entry(c), ...(c.dataset === 'investors' && c.record && { record: c.record }) })),
    );
    // The feed: the same entries, the record where the row still has the entry's key, in its list's
    // served form (acquisition and hiring signals add their published fields).
    const page = await readChangesPage(db, { limit: 1000 }, { retentionDays: 7 });
    const served = (dataset: string, record: NonNullable<Change['record']>) => {
      const view = DATASETS.find((d) => d.name === dataset)!.document;
      return view ? view.serve(record.doc!, record.key, record.values!.sort_ms) : record.doc!;
    };
    const items = JSON.parse(page.dataJson) as {
      cursor: string;
      dataset: string;
      op: string;
      id: string;
      changedAt: string;
      record: unknown;
    }[];
    assert.deepEqual(
      items,
      changes.map((c) => {
        const current = c.record && c.record.key === c.key ? c.record : undefined;
        return {
          cursor: encodeCursor(c.position),
          dataset: c.dataset,
          op: c.op,
          id: c.key,
          changedAt: c.changedAt.toISOString(),
          record: current ? JSON.parse(served(c.dataset, current)) : null,
        };
      }),
    );
  });
});
