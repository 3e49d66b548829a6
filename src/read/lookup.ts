// Batch lookup of v1 companies by website or LinkedIn page. Each input is answered exactly as the
// list endpoint's `website` or `linkedin_url` filter answers it: the same checks (an input that
// filter refuses is "invalid", with its 400 message as the reason), the same normalisation and
// conditions (the dataset's filter() and conditions()), the same records in the same order, from
// the same read model.
import type { TObject, TSchema } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { ValueErrorType, type ValueError } from '@sinclair/typebox/errors';
import type { Condition } from '../catalog/index.js';
import type { Dataset, StoredRow, ValidQuery } from '../catalog/index.js';
import { V1_PAGE_SIZE } from '../catalog/index.js';
import {
  LOOKUP_FIELDS,
  LOOKUP_MAX_RECORD_BYTES,
  LOOKUP_RECORDS_PER_INPUT,
  LookupBody,
  MAX_LOOKUP_INPUTS,
  type LookupParams,
} from '../catalog/index.js';
import { ApiError } from '../catalog/index.js';
import { urlKey } from '../catalog/index.js';
import type { ReadModel } from './read-model.js';
import { checkQueryValues, compileRequestValidator, fieldPath } from '../catalog/index.js';

/** The body fields, in the order their results are listed. */
const FIELDS = ['websites', 'linkedin_urls'] as const;

export const LOOKUP_BODY_SHAPE = '{"websites": [...], "linkedin_urls": [...]}';

/**
 * Reads of the read model one lookup runs at once: enough to overlap the document reads of its
 * inputs, few enough that a lookup never takes the whole connection pool from other requests.
 */
const LOOKUP_CONCURRENCY = 4;

// The records of an input are the list endpoint's first pages, so the rest start on a page of it.
if (LOOKUP_RECORDS_PER_INPUT % V1_PAGE_SIZE !== 0) throw new Error('a lookup must answer whole v1 list pages');
/** The list page an input's records past the cap start on. */
const PAGE_AFTER_CAP = LOOKUP_RECORDS_PER_INPUT / V1_PAGE_SIZE + 1;

export interface LookupOptions {
  /** The dataset's list endpoint, absolute (as in its Link headers): where `next` points. */
  listUrl: string;
}

export interface LookupAnswer {
  /** The body, echoed. */
  params: LookupParams;
  /** One result per input, in input order, as JSON array text (records spliced in as stored). */
  dataJson: string;
}

const bodyChecker = TypeCompiler.Compile(LookupBody);

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

function describeBodyError(error: ValueError): string {
  const where = fieldPath(error.path);
  switch (error.type) {
    case ValueErrorType.Object:
      return `The body must be a JSON object ${LOOKUP_BODY_SHAPE}, not ${kindOf(error.value)}`;
    case ValueErrorType.ObjectAdditionalProperties:
      return `Unknown field "${error.path.split('/').at(-1)}"; the body takes ${FIELDS.join(' and ')}`;
    case ValueErrorType.Array:
      return `${where} must be an array of strings, not ${kindOf(error.value)}`;
    case ValueErrorType.ArrayMaxItems:
      return `Too many inputs: ${where} holds ${Array.isArray(error.value) ? error.value.length : '?'}; at most ${MAX_LOOKUP_INPUTS} a request, ${FIELDS.join(' and ')} together`;
    case ValueErrorType.String:
      return `${where} must be a string, not ${kindOf(error.value)}`;
    default:
      return `${where || 'The body'}: ${error.message}`;
  }
}

/** What is wrong with a lookup body, in one sentence naming the field; undefined when it is a good one. */
export function lookupBodyProblem(body: unknown): string | undefined {
  // (A request without a body has a null one; a null sent is refused as such while parsing.)
  if (body === undefined || body === null) return `The body is missing: send a JSON object ${LOOKUP_BODY_SHAPE}`;
  if (!bodyChecker.Check(body)) return describeBodyError(bodyChecker.Errors(body).First()!);
  const count = FIELDS.reduce((sum, field) => sum + (body[field]?.length ?? 0), 0);
  if (count === 0) return `No inputs: send at least one in ${FIELDS.join(' or ')}`;
  if (count > MAX_LOOKUP_INPUTS) {
    return `Too many inputs: ${count}; at most ${MAX_LOOKUP_INPUTS} a request, ${FIELDS.join(' and ')} together`;
  }
  return undefined;
}

type Filter = (typeof LOOKUP_FIELDS)[keyof typeof LOOKUP_FIELDS];

/** A host name: dot-separated labels of letters, digits and inner hyphens, ending in a top-level domain of letters (or xn--). */
const HOST = /^(?:[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,61}[\p{L}\p{N}])?\.)+(?:\p{L}{2,63}|xn--[a-z0-9-]{1,59})\.?(?::\d{1,5})?$/u;
/** A LinkedIn company page, normalised: linkedin.com (or a country subdomain) /company/NAME, anything after it. */
const LINKEDIN_COMPANY = /^(?:[a-z]{2,3}\.)?linkedin\.com\/company\/[^/\s]+(?:\/.*)?$/;

/**
 * What makes a normalised input no address of its kind, per filter: undefined when it is one. A
 * website is a host name (a path after it is allowed); a LinkedIn input is a company page.
 */
const LOOKUP_INPUT_SHAPES: Readonly<Record<Filter, (normalized: string) => string | undefined>> = {
  website: (normalized) =>
    HOST.test(normalized.split('/')[0]!)
      ? undefined
      : 'website is not a website address: send a domain such as example.com (a scheme, "www." and a path are optional)',
  linkedin_url: (normalized) =>
    LINKEDIN_COMPANY.test(normalized)
      ? undefined
      : 'linkedin_url is not a LinkedIn company page: send linkedin.com/company/NAME (a scheme and "www." are optional)',
};

/** An input as the list filter takes it: its key and conditions, or why the filter refuses it. */
type Resolved<Row> = { normalized: string; conditions: Condition<Row>[] } | { reason: string };

/** At most `limit` calls of fn running at once; stops starting new ones once one has failed. */
async function mapConcurrently<T, U>(items: readonly T[], limit: number, fn: (item: T) => Promise<U>): Promise<U[]> {
  const results: U[] = [];
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (!failed && next < items.length) {
      const index = next++;
      try {
        results[index] = await fn(items[index]!);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/**
 * The lookup of one v1 dataset (its query must have the company filters `website` and
 * `linkedin_url`): each input's records, at most LOOKUP_RECORDS_PER_INPUT, newest first.
 *
 * An answer is bounded whatever the body: a company asked for again (in any spelling) is read and
 * sent once, its repeats pointing at the first result (`duplicate_of`); each input carries at most one
 * list page of records, with `next` for the rest; and the records of one answer stop at
 * LOOKUP_MAX_RECORD_BYTES. Without these, 100 copies of one company made one request (one place in
 * the window) answer 100 times its records.
 */
export function companyLookup<Q extends TObject, F, R extends TSchema, Row extends StoredRow>(
  readModel: ReadModel,
  dataset: Dataset<Q, F, R, Row>,
  options: LookupOptions,
): (body: LookupBody) => Promise<LookupAnswer> {
  /** The list endpoint's URL of the input's records from `page` on (the input as sent: the list normalises it alike). */
  const nextUrl = (filter: Filter, input: string, page: number) => {
    const query = new URLSearchParams({ [filter]: input });
    if (page > 1) query.set('page', String(page));
    return `${options.listUrl}?${query}`;
  };
  const validateQuery = compileRequestValidator(dataset.query, 'querystring');
  const queryChecker = TypeCompiler.Compile(dataset.query);
  const isValidQuery = (value: unknown): value is ValidQuery<Q> => queryChecker.Check(value);

  /** The list endpoint's handling of `?filter=input`, up to the read. */
  const resolve = (filter: Filter, input: string): Resolved<Row> => {
    const raw = { [filter]: input };
    let conditions: Condition<Row>[];
    try {
      checkQueryValues(raw, dataset.query);
      const checked = validateQuery(raw);
      if (!('value' in checked)) return { reason: checked.message };
      if (!isValidQuery(checked.value)) throw new Error(`${dataset.name}: the query validator and checker disagree`);
      conditions = dataset.conditions(dataset.filter(checked.value));
    } catch (error) {
      if (error instanceof ApiError && error.code === 'INVALID_PARAMETER') return { reason: error.message };
      throw error;
    }
    // The filter would match nothing (no stored key is empty): say so rather than "no_match".
    const normalized = urlKey(input);
    if (normalized === null) {
      return { reason: `${filter} is empty once its scheme, "www.", query and trailing slash are removed` };
    }
    // Text that is no address of its kind ("not a url at all") can match no company: the list filter
    // answers it with nothing, but a lookup says it is not one, so a typo is told from a miss.
    const shapeProblem = LOOKUP_INPUT_SHAPES[filter](normalized);
    if (shapeProblem !== undefined) return { reason: shapeProblem };
    return { normalized, conditions };
  };

  return async (body) => {
    const inputs = FIELDS.flatMap((field) =>
      (body[field] ?? []).map((input) => {
        const filter = LOOKUP_FIELDS[field];
        return { input, filter, resolved: resolve(filter, input), key: '' };
      }),
    );
    // One read per distinct filter: a company sent twice (or in two spellings) is read once.
    const reads = new Map<string, Condition<Row>[]>();
    for (const item of inputs) {
      if ('reason' in item.resolved) continue;
      item.key = `${item.filter}\u0000${item.resolved.normalized}`;
      reads.set(item.key, item.resolved.conditions);
    }
    const entries = [...reads];
    const pages = await mapConcurrently(entries, LOOKUP_CONCURRENCY, ([, conditions]) =>
      readModel.page(dataset, conditions, 0, LOOKUP_RECORDS_PER_INPUT),
    );
    const pageOf = new Map(entries.map(([key], i) => [key, pages[i]!]));

    /** The index of the first result of each company, which alone carries its records. */
    const firstOf = new Map<string, number>();
    let recordBytes = 0;
    const results = inputs.map(({ input, filter, resolved, key }, index) => {
      if ('reason' in resolved) {
        const head = { input, filter, normalized: null, status: 'invalid', reason: resolved.reason, total: 0 };
        return `${JSON.stringify(head).slice(0, -1)},"records":[]}`;
      }
      const page = pageOf.get(key)!;
      const head = {
        input,
        filter,
        normalized: resolved.normalized,
        status: page.total > 0 ? 'matched' : 'no_match',
        total: page.total,
      };
      const first = firstOf.get(key);
      if (first !== undefined) return JSON.stringify({ ...head, records: [], duplicate_of: first });
      firstOf.set(key, index);
      const bytes = Buffer.byteLength(page.dataJson);
      // Past the answer's room for records, the input gets none, and the list endpoint's page 1 to read them.
      if (page.total > 0 && recordBytes + bytes > LOOKUP_MAX_RECORD_BYTES) {
        return JSON.stringify({ ...head, records: [], next: nextUrl(filter, input, 1) });
      }
      recordBytes += bytes;
      const next =
        page.total > LOOKUP_RECORDS_PER_INPUT ? `,"next":${JSON.stringify(nextUrl(filter, input, PAGE_AFTER_CAP))}` : '';
      // The records' stored JSON text, as the list endpoint sends it (no parse, no re-serialisation).
      return `${JSON.stringify(head).slice(0, -1)},"records":${page.dataJson}${next}}`;
    });
    return {
      params: { websites: body.websites ?? [], linkedin_urls: body.linkedin_urls ?? [] },
      dataJson: `[${results.join(',')}]`,
    };
  };
}
