#!/usr/bin/env node
// A local NDJSON copy of every funding round of one country, kept in sync through the changes feed
// (GET /api/v2/changes?datasets=funding, 1 credit a page).
//
//   DEALSIGNAL_API_KEY=ds_… node examples/node/sync-funding.mjs --country US [--out funding-US.ndjson] [--from-now]
//
// The copy holds one line per round, {"id": "<the feed's id>", "round": <the record as served>}; the
// state file next to it (<out>.state.json) holds the country, the spellings of its name the records
// use, and the feed cursor the copy is up to date with. The first run follows the feed from its start,
// later runs from the stored cursor. With --from-now, the first run starts at the feed's head instead
// (since=now, free): the copy then collects only the rounds created or changed from that moment. At the end the copy's count is compared with the server's total
// for the country. Exit 0 when they agree, 2 when they differ, 1 on any other failure.
// examples/python/sync_funding.py does the same with Python's standard library alone.
import { open, readFile, rename, rm } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { DealSignal, DealSignalError } from '@dealsignal/client';

const usage =
  'usage: node examples/node/sync-funding.mjs --country CODE_OR_NAME [--out FILE.ndjson] [--limit 1..1000] [--from-now]';

function parseOptions() {
  const { values } = parseArgs({
    options: {
      country: { type: 'string' },
      out: { type: 'string' },
      limit: { type: 'string', default: '1000' },
      'from-now': { type: 'boolean', default: false },
    },
  });
  const country = values.country?.trim();
  const limit = Number(values.limit);
  if (!country || !Number.isInteger(limit) || limit < 1 || limit > 1000) throw new Error(usage);
  const out = values.out ?? `funding-${country.replace(/[^A-Za-z0-9]+/g, '-')}.ndjson`;
  return { country, out, statePath: `${out}.state.json`, limit, fromNow: values['from-now'] };
}

// ---------------------------------------------------------------- files

async function readTextOrUndefined(path) {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Replaces the file in one step: written and flushed beside it, then renamed over it. */
async function writeAtomically(path, text) {
  const temporary = `${path}.${process.pid}.tmp`;
  const handle = await open(temporary, 'w');
  try {
    await handle.writeFile(text, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(temporary, path).catch(async (error) => {
    await rm(temporary, { force: true });
    throw error;
  });
}

/** The copy: feed id → round; undefined when there is no file. */
async function loadCopy(path) {
  const text = await readTextOrUndefined(path);
  if (text === undefined) return undefined;
  const copy = new Map();
  for (const [index, line] of text.split('\n').entries()) {
    if (line.trim() === '') continue;
    const { id, round } = JSON.parse(line);
    if (typeof id !== 'string' || typeof round !== 'object' || round === null)
      throw new Error(`${path}:${index + 1}: not {id, round}`);
    copy.set(id, round);
  }
  return copy;
}

const copyText = (copy) =>
  [...copy.keys()]
    .sort()
    .map((id) => `${JSON.stringify({ id, round: copy.get(id) })}\n`)
    .join('');

/**
 * Saves a page's work: the copy first (when it changed), then the state with the page's cursor.
 * A crash between the two renames leaves the copy ahead of its cursor, never behind: the next run
 * applies that page again, and applying a change twice gives the same copy (upserts and removals).
 */
async function save(options, copy, state, copyChanged) {
  if (copyChanged) await writeAtomically(options.out, copyText(copy));
  await writeAtomically(options.statePath, `${JSON.stringify(state, null, 2)}\n`);
}

// ---------------------------------------------------------------- the country

const plural = (count, word) => `${count} ${count === 1 ? word : `${word}s`}`;

const spellingOf = (value) => value.trim().toLowerCase().replace(/\s+/g, ' ');

/**
 * The ways the records write the country (company_info.hq_country), learned from the server: the
 * v1 list's country filter knows codes, names and aliases, so the countries of its first pages'
 * records, plus the argument itself, are the spellings to match.
 */
async function learnSpellings(ds, country) {
  const spellings = new Set([spellingOf(country)]);
  let page = await ds.v1.funding.list({ country });
  for (let pages = 1; ; pages++) {
    for (const round of page.data) {
      if (typeof round.company_info?.hq_country === 'string') spellings.add(spellingOf(round.company_info.hq_country));
    }
    if (pages === 2 || !page.hasNextPage) return [...spellings].sort();
    page = await ds.v1.funding.list({ country, page: 2 });
  }
}

// ---------------------------------------------------------------- applying the feed

/** Applies one change to the copy; true when the copy changed. */
function apply(copy, change, spellings) {
  if (change.op === 'deleted') return copy.delete(change.id);
  // A record deleted since: its deletion comes later in the feed.
  if (change.record === null) return false;
  const country = change.record.company_info?.hq_country;
  if (typeof country === 'string' && spellings.has(spellingOf(country))) {
    copy.set(change.id, change.record);
    return true;
  }
  // Outside the country (perhaps a round that moved away): not, or no longer, in the copy.
  return copy.delete(change.id);
}

async function main() {
  let options;
  try {
    options = parseOptions();
  } catch (error) {
    console.error(error.message === usage ? usage : `${error.message}\n${usage}`);
    return 1;
  }
  const apiKey = process.env.DEALSIGNAL_API_KEY;
  if (!apiKey) {
    console.error('Set DEALSIGNAL_API_KEY to your API key (npm start prints a demo key).');
    return 1;
  }
  const ds = new DealSignal({ apiKey, baseUrl: process.env.DEALSIGNAL_URL ?? 'http://127.0.0.1:3000' });

  const stateText = await readTextOrUndefined(options.statePath);
  let state = stateText === undefined ? undefined : JSON.parse(stateText);
  if (state !== undefined && spellingOf(state.country) !== spellingOf(options.country)) {
    console.error(
      `${options.statePath} is the state of a copy of ${state.country}: pass --country ${state.country}, or another --out`,
    );
    return 1;
  }
  let copy = new Map();
  if (state === undefined) {
    state = { country: options.country, spellings: await learnSpellings(ds, options.country), cursor: null };
    const quoted = state.spellings.map((spelling) => `"${spelling}"`).join(' or ');
    if (options.fromNow) {
      // The head's cursor, free: nothing before it is read.
      state.cursor = (await ds.v2.changes.list({ since: 'now' })).pagination.nextCursor;
      await save(options, copy, state, true);
    }
    console.log(
      `First run: following the feed from ${options.fromNow ? 'now' : 'its start'}; rounds of ${options.country} have ` +
        `hq_country ${quoted} (any case)`,
    );
  } else {
    copy = await loadCopy(options.out);
    if (copy === undefined) {
      console.log(`${options.out} is missing: following the feed from its start again`);
      copy = new Map();
      state.cursor = null;
    }
  }
  const spellings = new Set(state.spellings);

  let applied = 0;
  let pages = 0;
  let credits = 0;
  for (let restarted = false; ;) {
    try {
      const feed = ds.v2.changes.pages({ since: state.cursor ?? undefined, datasets: 'funding', limit: options.limit });
      for await (const page of feed) {
        pages += 1;
        credits += page.meta.creditsUsed;
        let copyChanged = false;
        for (const change of page.data) {
          if (apply(copy, change, spellings)) copyChanged = true;
          applied += 1;
        }
        state.cursor = page.pagination.nextCursor;
        await save(options, copy, state, copyChanged);
      }
      break;
    } catch (error) {
      if (!(error instanceof DealSignalError) || error.status !== 410 || restarted) throw error;
      // The changes after the stored cursor are no longer in the change log: start over.
      console.log("410: the stored cursor is older than the change log's retention; starting over from the feed's start, empty.");
      restarted = true;
      copy = new Map();
      state.cursor = null;
      await save(options, copy, state, true);
    }
  }
  console.log(
    `Synced ${state.country}: ${plural(applied, 'change')} applied, ${plural(pages, 'page')}, ` +
      `${plural(credits, 'credit')} spent, ${copy.size} rounds in the copy (${options.out})`,
  );

  // v1 is free of credits, and X-Total-Count is exact.
  const { total } = await ds.v1.funding.list({ country: state.country });
  console.log(`Rounds of ${state.country}: ${copy.size} in the copy, ${total} on the server`);
  if (total === copy.size) return 0;
  console.log(
    [
      'They differ. This can happen when:',
      '- the change log no longer holds the oldest rounds: it keeps CHANGE_LOG_RETENTION_DAYS of changes (7 by default),',
      '  so a copy built from the feed lacks the rounds not changed since;',
      `- a record spells the country in a way not learned (known: ${state.spellings.join(', ')}): add it to "spellings"`,
      `  in ${options.statePath} and set "cursor" to null to replay the feed;`,
      '- the data changed after this run caught up: run again.',
    ].join('\n'),
  );
  return 2;
}

try {
  process.exitCode = await main();
} catch (error) {
  if (!(error instanceof DealSignalError)) throw error;
  const requestId = error.requestId === undefined ? '' : ` (request ${error.requestId})`;
  console.error(`dealsignal answered ${error.status || 'nothing'}: ${error.message}${requestId}`);
  process.exitCode = 1;
}
