import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Value } from '@sinclair/typebox/value';
import { FormatRegistry, type TSchema } from '@sinclair/typebox';
import { generateFundingRecords, generateMaRecords } from '../src/seed/v1-generator.js';
import { generateAcquisitionSignals, generateInvestors, generateJobChanges } from '../src/seed/v2-generator.js';
import { FundingRecord, MaRecord, V1_SHARED_SCHEMAS } from '../src/schemas/v1.js';
import { AcquisitionSignalRecord, InvestorRecord, JobChangeRecord } from '../src/schemas/v2.js';

const AS_OF = new Date('2026-01-15T00:00:00Z');
const take = <T>(items: Iterable<T>, n: number): T[] => {
  const out: T[] = [];
  for (const item of items) {
    out.push(item);
    if (out.length === n) break;
  }
  return out;
};

// TypeBox's Value.Check knows no string formats until they are registered.
FormatRegistry.Set('uri', (v) => /^https?:\/\/[^\s]+$/.test(v));
FormatRegistry.Set('email', (v) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v));
FormatRegistry.Set('date-time', (v) => !Number.isNaN(Date.parse(v)) && /^\d{4}-\d{2}-\d{2}T/.test(v));
FormatRegistry.Set('date', (v) => /^\d{4}-\d{2}-\d{2}$/.test(v));
FormatRegistry.Set('uuid', (v) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(v));

const generators: [string, (seed: number, n: number) => Iterable<unknown>, TSchema][] = [
  ['funding', (seed, n) => generateFundingRecords(seed, n, AS_OF), FundingRecord],
  ['m-a', (seed, n) => [...generateMaRecords(seed, n, AS_OF)].map((d) => d.record), MaRecord],
  ['investors', (seed, n) => generateInvestors(seed, n, AS_OF), InvestorRecord],
  ['job changes', (seed, n) => generateJobChanges(seed, n, AS_OF), JobChangeRecord],
  ['acquisition signals', (seed, n) => generateAcquisitionSignals(seed, n, AS_OF), AcquisitionSignalRecord],
];

describe('synthetic data', () => {
  for (const [name, generate, schema] of generators) {
    it(`${name}: the same seed and date give the same records; another seed gives others`, () => {
      const a = take(generate(7, 300), 300);
      assert.deepEqual(take(generate(7, 300), 300), a);
      assert.notDeepEqual(take(generate(8, 300), 300), a);
    });

    it(`${name}: every record matches the served schema`, () => {
      for (const record of take(generate(11, 2000), 2000)) {
        const ok = Value.Check(schema, V1_SHARED_SCHEMAS, record);
        assert.ok(ok, `${JSON.stringify([...Value.Errors(schema, V1_SHARED_SCHEMAS, record)][0])}`);
      }
    });
  }

  it('job changes are discovered after they occur, and nothing is dated after the reference date', () => {
    for (const jc of take(generateJobChanges(3, 5000, AS_OF), 5000)) {
      assert.ok(jc.discoveredAt > jc.occurredAt, jc.signalId);
      assert.ok(Date.parse(jc.discoveredAt) <= AS_OF.getTime());
    }
  });
});
