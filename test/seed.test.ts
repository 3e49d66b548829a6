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
import { demoPopulation } from '../src/demo/generators.js';

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
  // from the generators' output (seeded as the demo load seeds them, over the demo scale's company
  // population) and is recorded here.
  const demo = SCALES.demo;
  const population = () => demoPopulation(DEMO_SEED, 'demo', AS_OF);
  const DEMO_HASHES: [string, () => Iterable<unknown>, string][] = [
    [
      'funding',
      () => generateFundingRecords(DEMO_SEED, demo.funding, AS_OF, population()),
      '2d109f8068427d05a1649fb605fa2378a7e2d6570b10b1a46097e2f5c2b42df9',
    ],
    [
      'm-a',
      () => generateMaRecords(DEMO_SEED + 1, demo['m-a'], AS_OF, population()),
      '5d811205888d1887214bef8499bd4c8d53cbb749bd9429591cf354b3d74eba15',
    ],
    [
      'investors',
      () => generateInvestors(DEMO_SEED + 2, demo.investors, AS_OF),
      'd55de423a29796f3521ddf0f014ee67bd6749df8ef46226bf886eb5860d3c61d',
    ],
    [
      'job changes',
      () => generateJobChanges(DEMO_SEED + 3, demo['job-changes'], AS_OF, population()),
      '9aa0996934d7de7aa180d5e3ee431e68491e7d5de02da7ae5b42950b0a6b87ab',
    ],
    [
      'acquisition signals',
      () => generateAcquisitionSignals(DEMO_SEED + 4, demo.acquisitions, AS_OF, population()),
      '7e4944e2195cc3e2d5ce14010fd8fc58d1561738d72347e582877061dd7ddf8f',
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
