import type { TSchema } from '@sinclair/typebox';
import type { FastifyRequest, FastifySchemaCompiler } from 'fastify';
import type { FastifySchemaValidationError } from 'fastify/types/schema.js';
import { invalidParameter } from '../services/errors.js';
import { compileRequestValidator } from '../services/validation.js';

/**
 * Fastify's validator compiler: every request schema (query parameters, form fields, route
 * parameters) is checked by the service's one validator, the one ingested records go through.
 * A failure carries its message, already written.
 */
export const validatorCompiler: FastifySchemaCompiler<TSchema> = ({ schema, httpPart }) => {
  const validate = compileRequestValidator(schema, httpPart);
  return (input: unknown) => {
    const result = validate(input);
    if ('value' in result) return { value: result.value };
    const error: FastifySchemaValidationError = {
      keyword: 'schema',
      instancePath: result.problem.path,
      schemaPath: '',
      params: {},
      message: result.message,
    };
    return { error: [error] };
  };
};

/** The message of a request that failed validation. */
export function validationMessage(errors: FastifySchemaValidationError[]): string {
  return errors[0]?.message ?? 'Invalid request';
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
