import type { FastifyRequest } from 'fastify';
import type { FastifySchemaValidationError } from 'fastify/types/schema.js';
import { DATE_RANGE } from '../schemas/common.js';
import { invalidParameter } from '../services/errors.js';

interface AjvLikeError extends FastifySchemaValidationError {
  keyword: string;
  params: Record<string, unknown>;
}

const TYPE_WORDS: Record<string, string> = {
  integer: 'a whole number',
  number: 'a number',
  string: 'a single value (not repeated)',
  boolean: 'true or false',
};

/** Turns the first schema violation into a message naming the parameter and the rule. */
export function describeValidationError(errors: FastifySchemaValidationError[], allowed: string[]): string {
  const error = errors[0] as AjvLikeError | undefined;
  if (!error) return 'Invalid request';
  const name = error.instancePath
    .replace(/^\//, '')
    .replace(/\/\d+$/, '')
    .replace(/\//g, '.');
  const p = error.params;
  switch (error.keyword) {
    case 'additionalProperties':
      return `Unknown parameter "${String(p.additionalProperty)}"; allowed parameters: ${allowed.join(', ')}`;
    case 'type':
      return `${name} must be ${TYPE_WORDS[String(p.type)] ?? String(p.type)}`;
    case 'minimum':
      return `${name} must be >= ${String(p.limit)}`;
    case 'maximum':
      return `${name} must be <= ${String(p.limit)}`;
    case 'minLength':
      return p.limit === 1 ? `${name} must not be empty` : `${name} must be at least ${String(p.limit)} characters`;
    case 'maxLength':
      return `${name} must be at most ${String(p.limit)} characters`;
    case 'formatMinimum':
    case 'formatMaximum':
      // Only the date parameters carry these, all with the one supported range.
      return `${name} must be a date between ${DATE_RANGE.from} and ${DATE_RANGE.to}`;
    case 'format':
      return p.format === 'date'
        ? `${name} must be a valid calendar date in YYYY-MM-DD form`
        : `${name} must be a valid ${String(p.format)}`;
    case 'enum':
      return `${name} must be one of: ${(p.allowedValues as unknown[]).join(', ')}`;
    case 'anyOf':
    case 'const':
      return `${name} has a value that is not allowed`;
    default:
      return `${name || 'request'} ${error.message ?? 'is invalid'}`;
  }
}

interface NumericRule {
  type?: string;
  minimum?: number;
  maximum?: number;
}

/** How an integer parameter must be written: decimal digits, nothing else. */
const PLAIN_DIGITS = /^[0-9]+$/;

/**
 * Checks the raw query values before the schema validator sees them, for what it would let
 * through, misread or misdescribe:
 * - a repeated parameter arrives as an array, which the validator reports as a wrong type;
 * - U+0000: PostgreSQL text cannot hold it, so a NUL would fail inside the database;
 * - integers: the validator coerces with Number(), which also reads "0x10", "0b1", "0o7", "+1",
 *   " 1", "1e3" and "1.0" as whole numbers; a client sending those has made a mistake that
 *   should not pass as a different request;
 * - numbers beyond double range ("1e309", "Infinity"): coerced to Infinity, which the validator's
 *   integer and maximum checks accept, and which no bigint parameter can hold.
 * Each is the client's mistake (400, naming the parameter). Runs as a preValidation hook: after
 * the key and rate-limit checks, before the schema.
 */
export async function checkRawQuery(request: FastifyRequest): Promise<void> {
  const query = request.query as Record<string, unknown> | undefined;
  if (!query || typeof query !== 'object') return;
  const schema = request.routeOptions.schema?.querystring as { properties?: Record<string, NumericRule> } | undefined;
  for (const [name, value] of Object.entries(query)) {
    const values = (Array.isArray(value) ? value : [value]).filter((v): v is string => typeof v === 'string');
    if (name.includes('\u0000') || values.some((v) => v.includes('\u0000'))) {
      throw invalidParameter(`${name.replaceAll('\u0000', '%00')} must not contain a NUL character (%00)`);
    }
    const rule = schema?.properties?.[name];
    // (An unknown parameter, repeated or not, is left to the schema, which lists the known ones.)
    if (Array.isArray(value) && rule !== undefined) throw invalidParameter(`${name} is repeated; send it once`);
    if (rule?.type !== 'integer' && rule?.type !== 'number') continue;
    for (const raw of values) {
      const n = Number(raw);
      if (rule.type === 'integer' && !PLAIN_DIGITS.test(raw)) {
        // "-5" is plain enough to be told what the rule is.
        if (/^-[0-9]+$/.test(raw) && rule.minimum !== undefined && n < rule.minimum) {
          throw invalidParameter(`${name} must be >= ${rule.minimum}`);
        }
        throw invalidParameter(`${name} must be a whole number (digits 0-9 only)`);
      }
      if (n === Infinity) {
        throw invalidParameter(
          rule.maximum === undefined ? `${name} must be a finite number` : `${name} must be <= ${rule.maximum}`,
        );
      }
      if (n === -Infinity) {
        throw invalidParameter(
          rule.minimum === undefined ? `${name} must be a finite number` : `${name} must be >= ${rule.minimum}`,
        );
      }
    }
  }
}
