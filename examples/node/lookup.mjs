#!/usr/bin/env node
// Funding rounds of a list of companies, by website, through the v1 batch lookup
// (POST /api/v1/funding/lookup, at most 100 inputs a request).
//
//   DEALSIGNAL_API_KEY=ds_… node examples/node/lookup.mjs lumly.com osiqlabs.com
//   DEALSIGNAL_API_KEY=ds_… node examples/node/lookup.mjs --file websites.txt
//
// Prints one line per website, in input order, tab-separated: the website, its number of rounds,
// and its latest round (type, amount, date).
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { DealSignal, DealSignalError } from '@dealsignal/client';

/** The lookup's limit: websites and LinkedIn pages together, per request. */
const INPUTS_PER_REQUEST = 100;

const usage = 'usage: node examples/node/lookup.mjs WEBSITE… | --file FILE (one website a line)';

function websitesFromArguments() {
  const { values, positionals } = parseArgs({ options: { file: { type: 'string' } }, allowPositionals: true });
  const websites = [...positionals];
  if (values.file !== undefined) {
    const lines = readFileSync(values.file === '-' ? 0 : values.file, 'utf8').split(/\r?\n/);
    // Blank lines and # comments are skipped; anything else is sent as written (the server judges it).
    websites.push(...lines.map((line) => line.trim()).filter((line) => line !== '' && !line.startsWith('#')));
  }
  return websites;
}

/** `Series A, 5,000,000 USD, 2025-03-01` for a round as served. */
function describeRound(round) {
  const type = round.round_type ?? 'unnamed round';
  const amount = `${round.funding_amount.toLocaleString('en-US')} ${round.currency}`;
  const date = round.date_seen === undefined ? 'date unknown' : round.date_seen.slice(0, 10);
  return `${type}, ${amount}, ${date}`;
}

/** One output line for one lookup result (results: the whole answer, where a repeat's records are). */
function describeResult(result, results) {
  if (result.status === 'invalid') return `${result.input}\tinvalid\t${result.reason ?? 'nothing left once normalised'}`;
  const rounds = `${result.total} ${result.total === 1 ? 'round' : 'rounds'}`;
  // A company asked for twice is answered once: the repeat points to the result with the records.
  const records = result.duplicate_of === undefined ? result.records : results[result.duplicate_of].records;
  // Records come newest date_seen first, so the first one is the latest round.
  const latest = records[0];
  return latest === undefined ? `${result.input}\t${rounds}` : `${result.input}\t${rounds}\tlatest: ${describeRound(latest)}`;
}

async function main() {
  let websites;
  try {
    websites = websitesFromArguments();
  } catch (error) {
    console.error(`${error.message}\n${usage}`);
    return 1;
  }
  if (websites.length === 0) {
    console.error(usage);
    return 1;
  }
  const apiKey = process.env.DEALSIGNAL_API_KEY;
  if (!apiKey) {
    console.error('Set DEALSIGNAL_API_KEY to your API key (npm start prints a demo key).');
    return 1;
  }
  const ds = new DealSignal({ apiKey, baseUrl: process.env.DEALSIGNAL_URL ?? 'http://127.0.0.1:3000' });

  for (let start = 0; start < websites.length; start += INPUTS_PER_REQUEST) {
    const body = await ds.v1.funding.lookup({ websites: websites.slice(start, start + INPUTS_PER_REQUEST) });
    for (const result of body.response.data) console.log(describeResult(result, body.response.data));
  }
  return 0;
}

try {
  process.exitCode = await main();
} catch (error) {
  if (!(error instanceof DealSignalError)) throw error;
  const requestId = error.requestId === undefined ? '' : ` (request ${error.requestId})`;
  console.error(`dealsignal answered ${error.status || 'nothing'}: ${error.message}${requestId}`);
  process.exitCode = 1;
}
