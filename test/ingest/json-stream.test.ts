import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RecordReader, type InputFormat, type SplitItem } from '../../src/ingest/json-stream.js';
import { isDate, isDateTime, isEmail, isUri, isUuid } from '../../src/catalog/formats.js';

/** Everything the reader yields for an input cut into chunks of the given size. */
function split(text: string | Buffer, chunkSize: number, format: InputFormat | 'auto' = 'auto', max = 1024 * 1024): SplitItem[] {
  const bytes = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
  const reader = new RecordReader(format, max);
  const items: SplitItem[] = [];
  const drain = () => {
    for (let item = reader.next(); item !== undefined; item = reader.next()) items.push(item);
  };
  for (let i = 0; i < bytes.length; i += chunkSize) {
    reader.push(bytes.subarray(i, i + chunkSize));
    drain();
  }
  reader.end();
  drain();
  return items;
}

const simplify = (items: SplitItem[]) =>
  items.map((item) =>
    item.kind === 'record'
      ? { text: item.text, line: item.line, index: item.index, atEnd: item.atEnd }
      : { problem: item.reason, line: item.line, index: item.index, fatal: item.fatal, isRecord: item.isRecord },
  );

/** The same result whatever the chunk size: every record boundary falls inside a chunk somewhere. */
function splitEverywhere(text: string, format: InputFormat | 'auto' = 'auto', max?: number) {
  const whole = simplify(split(text, 1 << 20, format, max));
  for (const size of [1, 2, 3, 5, 7, 16, 64]) {
    assert.deepEqual(simplify(split(text, size, format, max)), whole, `chunk size ${size}`);
  }
  return whole;
}

describe('NDJSON splitting', () => {
  it('one record per line with its line number; blank lines skipped; CRLF accepted', () => {
    const items = splitEverywhere('{"a":1}\n\n  \r\n{"b":"é ü 漢字 🚀"}\r\n{"c":3}\n');
    assert.deepEqual(items, [
      { text: '{"a":1}', line: 1, index: undefined, atEnd: false },
      { text: '{"b":"é ü 漢字 🚀"}', line: 4, index: undefined, atEnd: false },
      { text: '{"c":3}', line: 5, index: undefined, atEnd: false },
    ]);
  });

  it('a last line without a newline is still a record (marked as at the end)', () => {
    assert.deepEqual(splitEverywhere('{"a":1}\n{"b":2}'), [
      { text: '{"a":1}', line: 1, index: undefined, atEnd: false },
      { text: '{"b":2}', line: 2, index: undefined, atEnd: true },
    ]);
  });

  it('skips a UTF-8 byte order mark and leading blank lines (line numbers stay right)', () => {
    const items = split(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('\n\n{"a":1}\n')]), 2);
    assert.deepEqual(simplify(items), [{ text: '{"a":1}', line: 3, index: undefined, atEnd: false }]);
  });

  it('a line over the size limit is rejected without being kept, and the next line is read', () => {
    const big = `{"x":"${'y'.repeat(500)}"}`;
    const items = splitEverywhere(`{"a":1}\n${big}\n{"b":2}\n`, 'auto', 100);
    assert.equal(items.length, 3);
    assert.deepEqual(items[1], {
      problem: 'line 2: record is larger than the 0 KiB limit',
      line: 2,
      index: undefined,
      fatal: false,
      isRecord: true,
    });
    assert.deepEqual(items[2], { text: '{"b":2}', line: 3, index: undefined, atEnd: false });
  });

  it('an empty or white-space-only input has no records', () => {
    assert.deepEqual(split('', 4), []);
    assert.deepEqual(split(' \n\n\t\r\n', 1), []);
  });
});

describe('JSON array splitting', () => {
  it('finds top-level elements, respecting strings, escapes and nesting', () => {
    const text = '[\n  {"a":"x]}\\"{[,"},\n  {"b":[1,{"c":"\\\\"}]},\n  {"d":"漢字 🚀"}\n]\n';
    const items = splitEverywhere(text);
    assert.deepEqual(items, [
      { text: '{"a":"x]}\\"{[,"}', line: 2, index: 0, atEnd: false },
      { text: '{"b":[1,{"c":"\\\\"}]}', line: 3, index: 1, atEnd: false },
      { text: '{"d":"漢字 🚀"}', line: 4, index: 2, atEnd: false },
    ]);
    for (const item of items) JSON.parse((item as { text: string }).text);
  });

  it('top-level primitives are returned as elements (validation rejects them later)', () => {
    assert.deepEqual(
      splitEverywhere('[1, "s\\"]", null,true]').map((i) => (i as { text: string }).text),
      ['1', '"s\\"]"', 'null', 'true'],
    );
  });

  it('an empty array has no records', () => {
    assert.deepEqual(splitEverywhere(' [ ] '), []);
  });

  it('a file cut off inside an element: that element is reported, then the unclosed array (fatal)', () => {
    const items = splitEverywhere('[{"a":1},\n{"b":"cut');
    assert.equal(items.length, 3);
    assert.deepEqual(items[1], {
      problem: 'index 1 (line 2): the file ends in the middle of a record',
      line: 2,
      index: 1,
      fatal: false,
      isRecord: true,
    });
    assert.equal((items[2] as { fatal: boolean }).fatal, true);
    assert.match((items[2] as { problem: string }).problem, /ends before the JSON array is closed/);
  });

  it('a file cut off between elements is an unclosed array', () => {
    const items = splitEverywhere('[{"a":1},');
    assert.equal(items.length, 2);
    assert.match((items[1] as { problem: string }).problem, /ends before the JSON array is closed/);
  });

  it('broken structure is fatal: a missing comma, text after the array, a stray comma', () => {
    for (const [text, pattern] of [
      ['[{"a":1} {"b":2}]', /index 0 \(line 1\): expected "," or "]" after the record, found "{"/],
      ['[{"a":1}] x', /unexpected text after the end of the JSON array/],
      ['[{"a":1},,{"b":2}]', /index 1 \(line 1\): expected a record, found ","/],
      ['[,]', /expected a record, found ","/],
    ] as const) {
      const items = split(text, 3);
      const last = items[items.length - 1] as { fatal?: boolean; reason?: string };
      assert.equal(last.fatal, true, text);
      assert.match(last.reason ?? '', pattern);
    }
  });

  it('format json insists on an array; format ndjson reads "[" lines as records', () => {
    const asJson = split('{"a":1}\n', 4, 'json');
    assert.equal((asJson[0] as { fatal: boolean }).fatal, true);
    const asNdjson = split('[1]\n', 4, 'ndjson');
    assert.deepEqual(simplify(asNdjson), [{ text: '[1]', line: 1, index: undefined, atEnd: false }]);
  });

  it('an element over the size limit is rejected and the array goes on', () => {
    const big = `{"x":"${'y'.repeat(500)}"}`;
    const items = splitEverywhere(`[{"a":1},${big},{"b":2}]`, 'auto', 100);
    assert.equal(items.length, 3);
    assert.match((items[1] as { problem: string }).problem, /index 1 \(line 1\): record is larger than/);
    assert.deepEqual(items[2], { text: '{"b":2}', line: 1, index: 2, atEnd: false });
  });
});

describe('formats', () => {
  it('dates must exist in the calendar and lie in 1900-01-01 .. 2199-12-31', () => {
    for (const ok of ['2024-02-29', '2000-02-29', '1999-12-31', '1900-01-01', '2199-12-31']) assert.ok(isDate(ok), ok);
    for (const bad of [
      '0001-01-01',
      '1899-12-31',
      '2200-01-01',
      '9999-12-31',
      '2024-02-30',
      '2023-02-29',
      '1900-02-29',
      '2024-13-01',
      '2024-00-10',
      '0000-01-01',
      '2024-1-01',
      '2024-01-01T00:00:00Z',
    ]) {
      assert.ok(!isDate(bad), bad);
    }
  });

  it('date-times need a real date, a valid time and a zone', () => {
    for (const ok of [
      '2025-06-01T12:00:00Z',
      '2025-06-01T12:00:00.123456Z',
      '2025-06-01t23:59:59+05:30',
      '2024-02-29T00:00:00-08:00',
      '1900-01-01T00:00:00Z',
      '2199-12-31T23:59:59.999Z',
      // Instants inside the range, whatever the digits say: 1900-01-01T00:00Z and 2199-12-31T23:30Z.
      '1899-12-31T23:00:00-01:00',
      '2200-01-01T00:30:00+01:00',
    ]) {
      assert.ok(isDateTime(ok), ok);
    }
    for (const bad of [
      '2024-02-30T00:00:00Z',
      '2025-06-01T24:00:00Z',
      '2025-06-01T12:60:00Z',
      '2025-06-01T12:00:00',
      '2025-06-01 12:00:00Z',
      '2025-06-01T12:00:00.Z',
      '2025-06-01T12:00:00+5:30',
      '2025-06-01T12:00:00+24:00',
      '2025-06-01',
      'yesterday',
      '9999-12-31T00:00:00Z',
      '0001-01-01T00:00:00Z',
      '1899-12-31T23:59:59.999Z',
      '2200-01-01T00:00:00Z',
      '1900-01-01T00:30:00+01:00',
      '2199-12-31T23:00:00-05:00',
    ]) {
      assert.ok(!isDateTime(bad), bad);
    }
  });

  it('uri, email and uuid', () => {
    assert.ok(isUri('https://www.linkedin.com/company/acme'));
    assert.ok(isUri('mailto:someone@example.com'));
    for (const bad of ['www.acme.io', 'https://', 'https:///path', 'http://exa mple.com', 'not a url'])
      assert.ok(!isUri(bad), bad);
    assert.ok(isEmail('ada@example.co.uk'));
    assert.ok(!isEmail('ada@'));
    assert.ok(isUuid('3f2504e0-4f89-11d3-9a0c-0305e82c3301'));
    assert.ok(!isUuid('3f2504e0-4f89-11d3-9a0c-0305e82c330'));
  });
});
