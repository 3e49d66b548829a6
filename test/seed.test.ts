import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { Value } from '@sinclair/typebox/value';
import { FormatRegistry, type TSchema } from '@sinclair/typebox';
import { generateFundingRecords, generateMaRecords } from '../src/demo/v1-generator.js';
import { generateAcquisitionSignals, generateInvestors, generateJobChanges } from '../src/demo/v2-generator.js';
import { FundingRecord, MaRecord, V1_SHARED_SCHEMAS } from '../src/catalog/schemas/v1-schemas.js';
import { AcquisitionSignalRecord, InvestorRecord, JobChangeRecord } from '../src/catalog/schemas/v2-schemas.js';
import { DEMO_SEED, SCALES } from '../src/demo/seed.js';

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

  // The demo data set is what every fresh store serves and what the docs' examples are written
  // against: a change to the generators' code must not change a byte of it. Each hash was taken
  // from the generators' output (seeded as the demo load seeds them) and is recorded here.
  const demo = SCALES.demo;
  const DEMO_HASHES: [string, () => Iterable<unknown>, string][] = [
    [
      'funding',
      () => generateFundingRecords(DEMO_SEED, demo.funding, AS_OF),
      'c75b3c53e506b8bac9e6ce384c8204fc51ccf69587503948c6d71054d54d7fff',
    ],
    [
      'm-a',
      () => generateMaRecords(DEMO_SEED + 1, demo['m-a'], AS_OF),
      'a49cd01f8be51a094730b09c7c6e977d972e4bf9fd80948a1ce57b23e4939ba4',
    ],
    [
      'investors',
      () => generateInvestors(DEMO_SEED + 2, demo.investors, AS_OF),
      'd55de423a29796f3521ddf0f014ee67bd6749df8ef46226bf886eb5860d3c61d',
    ],
    [
      'job changes',
      () => generateJobChanges(DEMO_SEED + 3, demo['job-changes'], AS_OF),
      'd96d354effe2b34f931f5c7696aacb910d6ddf0b957e9e476a3f595fe1b257ab',
    ],
    [
      'acquisition signals',
      () => generateAcquisitionSignals(DEMO_SEED + 4, demo.acquisitions, AS_OF),
      'd63905b56005a2a7c561adef2ab0f5fd3cea0f8387835ded75d3108a89c8c95a',
    ],
  ];
  for (const [name, generate, expected] of DEMO_HASHES) {
    it(`${name}: the demo set (seed ${DEMO_SEED}, ${AS_OF.toISOString().slice(0, 10)}) is byte for byte the recorded one`, () => {
      const hash = createHash('sha256');
      for (const record of generate()) hash.update(JSON.stringify(record) + '\n');
      assert.equal(hash.digest('hex'), expected);
    });
  }
});
