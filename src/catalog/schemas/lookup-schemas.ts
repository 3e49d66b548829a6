// The v1 batch lookup (POST /api/v1/funding/lookup, /api/v1/m-a/lookup): companies by website or
// LinkedIn page, each answered with the records its list endpoint's filter would find.
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { Nullable, StringEnum } from './common.js';

/** Inputs one request may hold, websites and LinkedIn pages together. */
export const MAX_LOOKUP_INPUTS = 100;

/**
 * Records returned per input, newest first: the list endpoint's first page (20), so the rest are its
 * page 2 onwards (`next`); `total` says how many the company has.
 */
export const LOOKUP_RECORDS_PER_INPUT = 20;

/**
 * Records one answer carries at most, in bytes of JSON text. Results are filled in input order; an
 * input whose records would go past it gets none, and `next` (the list endpoint's page 1) instead.
 */
export const LOOKUP_MAX_RECORD_BYTES = 4 * 1024 * 1024;

/**
 * The documented bound on a whole answer: the records' LOOKUP_MAX_RECORD_BYTES plus what the inputs
 * make of the rest, at most about 1.7 MiB for a 256 KiB body (the echo, each input, its key, its
 * percent-encoded `next`).
 */
export const LOOKUP_MAX_RESPONSE_BYTES = 6 * 1024 * 1024;

/** The list filter an input is compared with, by the body field it came in. */
export const LOOKUP_FIELDS = { websites: 'website', linkedin_urls: 'linkedin_url' } as const;

export const LOOKUP_STATUSES = ['matched', 'no_match', 'invalid'] as const;

const inputs = (what: string) =>
  Type.Array(Type.String(), {
    maxItems: MAX_LOOKUP_INPUTS,
    description: `${what}, normalised as the list filter normalises them (scheme, "www.", query, trailing slash and case ignored)`,
  });

export const LookupBody = Type.Object(
  {
    websites: Type.Optional(inputs('Company websites')),
    linkedin_urls: Type.Optional(inputs("Companies' LinkedIn pages")),
  },
  {
    additionalProperties: false,
    description:
      `Either or both, at least one input and at most ${MAX_LOOKUP_INPUTS} in all. The body is read as JSON whatever its ` +
      'Content-Type.',
  },
);
export type LookupBody = Static<typeof LookupBody>;

/** The body echoed in `params`: both fields, empty when unused. */
export const LookupParams = Type.Object({
  websites: Type.Array(Type.String(), { description: 'As sent; empty when unused' }),
  linkedin_urls: Type.Array(Type.String(), { description: 'As sent; empty when unused' }),
});
export type LookupParams = Static<typeof LookupParams>;

/** One input's answer, with the records of the dataset given by reference. */
export const LookupResult = (record: TSchema) =>
  Type.Object({
    input: Type.String({ description: 'The input as sent' }),
    filter: StringEnum(Object.values(LOOKUP_FIELDS), 'The list filter the input was compared with'),
    normalized: Nullable(
      Type.String({ description: 'The key compared: no scheme, "www.", query, fragment or trailing slash, lower case' }),
    ),
    status: StringEnum(
      LOOKUP_STATUSES,
      'matched: records found; no_match: none (a well-formed address no record has); invalid: the list filter refuses ' +
        'the input, nothing is left of it once normalised, or it is no website (a domain name) or no LinkedIn company ' +
        'page (linkedin.com/company/NAME) (see reason)',
    ),
    reason: Type.Optional(Type.String({ description: 'Why the input is invalid (only then)' })),
    total: Type.Integer({
      minimum: 0,
      description: "The company's records in all (more than `records` holds when above the cap; see `next`)",
    }),
    records: Type.Array(record, {
      maxItems: LOOKUP_RECORDS_PER_INPUT,
      description:
        `The records the list endpoint serves for this filter, identical and in its order (newest date_seen first): ` +
        `its first page, at most ${LOOKUP_RECORDS_PER_INPUT}. Empty for a repeated company (see \`duplicate_of\`), and ` +
        `for an input past the answer's ${LOOKUP_MAX_RECORD_BYTES / 1024 / 1024} MiB of records (see \`next\`)`,
    }),
    duplicate_of: Type.Optional(
      Type.Integer({
        minimum: 0,
        description:
          'Only on a company already asked for in this request (the same filter and `normalized` key): the index in ' +
          '`data` of the first such result, which holds the records; this one has the same `status` and `total` and ' +
          'no records',
      }),
    ),
    next: Type.Optional(
      Type.String({
        format: 'uri',
        description:
          "Only when some of the input's records are not in `records`: the list endpoint's URL (`?website=…` or " +
          '`?linkedin_url=…` with the input as sent) of the page they start on, page 2 past the cap, page 1 when the ' +
          "answer's records had no room left; follow its Link header for the rest",
      }),
    ),
  });

export const LookupResponse = (record: TSchema) =>
  Type.Object({
    message: Type.String({ description: 'Status text', examples: ['Data retrieved successfully'] }),
    params: LookupParams,
    response: Type.Object({
      data: Type.Array(LookupResult(record), {
        description: 'One result per input, in input order: the websites first, then the LinkedIn pages',
      }),
    }),
  });
