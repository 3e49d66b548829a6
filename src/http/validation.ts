import type { FastifyRequest } from 'fastify';
import type { FastifySchemaValidationError } from 'fastify/types/schema.js';
import { invalidParameter } from './errors.js';

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

/**
 * Checks the raw query values the schema validator lets through but the database cannot take:
 * - U+0000: PostgreSQL text cannot hold it, so a NUL would fail inside the database.
 * - numbers beyond double range ("1e309", "Infinity"): coerced to Infinity, which the validator's
 *   integer and maximum checks accept, and which no bigint parameter can hold.
 * Both are the client's mistake (400, naming the parameter). Runs as a preValidation hook:
 * after the key and rate-limit checks, before the schema.
 */
export async function rejectUnstorableQueryValues(request: FastifyRequest): Promise<void> {
  const query = request.query as Record<string, unknown> | undefined;
  if (!query || typeof query !== 'object') return;
  const schema = request.routeOptions.schema?.querystring as { properties?: Record<string, NumericRule> } | undefined;
  for (const [name, value] of Object.entries(query)) {
    const values = (Array.isArray(value) ? value : [value]).filter((v): v is string => typeof v === 'string');
    if (name.includes('\u0000') || values.some((v) => v.includes('\u0000'))) {
      throw invalidParameter(`${name.replaceAll('\u0000', '%00')} must not contain a NUL character (%00)`);
    }
    const rule = schema?.properties?.[name];
    if (rule?.type !== 'integer' && rule?.type !== 'number') continue;
    for (const raw of values) {
      const n = Number(raw);
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
