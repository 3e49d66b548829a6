import type { TSchema } from '@sinclair/typebox';
import type { FastifyRequest, FastifySchemaCompiler } from 'fastify';
import type { FastifySchemaValidationError } from 'fastify/types/schema.js';
import { checkQueryValues, compileRequestValidator } from '../../catalog/index.js';

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
      params: result.param === undefined ? {} : { param: result.param },
      message: result.message,
    };
    return { error: [error] };
  };
};

/** The message of a request that failed validation. */
export function validationMessage(errors: FastifySchemaValidationError[]): string {
  return errors[0]?.message ?? 'Invalid request';
}

/** The parameter (or body field) a failed validation names, if one (see compileRequestValidator). */
export function validationParam(errors: FastifySchemaValidationError[]): string | undefined {
  const param = errors[0]?.params.param;
  return typeof param === 'string' ? param : undefined;
}

/**
 * Checks the raw query values before the schema validator sees them, and gives it the query as
 * checkQueryValues returns it (see there). Runs
 * as a preValidation hook: after the key and rate-limit checks, before the schema.
 */
export async function checkRawQuery(request: FastifyRequest): Promise<void> {
  const query = request.query as Record<string, unknown> | undefined;
  if (!query || typeof query !== 'object') return;
  const schema = request.routeOptions.schema?.querystring as TSchema | undefined;
  // A list parameter sent as repeated keys goes on as its comma form.
  request.query = checkQueryValues(query, schema);
}
