// One validator for everything the service takes in: query parameters (and form fields) over
// HTTP and ingested records are checked by TypeBox's compiler with the same string formats, so
// no value can pass one path and fail the other, and one function says what is wrong.
import { Kind, type TSchema } from '@sinclair/typebox';
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler';
import { ValueErrorType, type ValueError } from '@sinclair/typebox/errors';
import { Value } from '@sinclair/typebox/value';
import { DATE_RANGE, isListParam } from './schemas/common.js';
import { isOutOfDateRange, registerFormats } from './formats.js';
import { invalidParameter } from './errors.js';

registerFormats();

/**
 * A copy of a schema (and, for references, of each referenced one) in which every object
 * rejects properties it does not declare: the served document must be exactly the API's fields.
 */
function strict<T extends TSchema>(schema: T): T {
  const visit = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(visit);
    if (node === null || typeof node !== 'object') return node;
    const source = node as Record<PropertyKey, unknown>;
    const copy: Record<PropertyKey, unknown> = {};
    for (const key of Reflect.ownKeys(source)) copy[key] = visit(source[key]);
    if (copy[Kind] === 'Object' && copy.additionalProperties === undefined) copy.additionalProperties = false;
    return copy;
  };
  return visit(schema) as T;
}

/** The checker of an ingested record: the served record's schema, refusing any field it does not declare. */
export function compileRecordChecker<T extends TSchema>(schema: T, references: readonly TSchema[] = []): TypeCheck<T> {
  return TypeCompiler.Compile(strict(schema), references.map(strict));
}

interface PropertyRule {
  type?: string;
}

/**
 * Query values arrive as text; each becomes what its parameter's schema says it is, as the
 * JSON Schema validators of HTTP frameworks coerce them: integers and numbers from their
 * decimal text, booleans from "true" and "false" only. Anything else is left for the checker
 * to refuse.
 */
function coerceQuery(schema: TSchema, query: unknown): unknown {
  if (query === null || typeof query !== 'object') return query;
  const rules = (schema as { properties?: Record<string, PropertyRule> }).properties ?? {};
  const coerce = (name: string, value: unknown): unknown => {
    const type = Object.hasOwn(rules, name) ? rules[name]!.type : undefined;
    if (typeof value !== 'string') return value;
    if ((type === 'integer' || type === 'number') && value.trim() !== '' && !Number.isNaN(Number(value))) return Number(value);
    if (type === 'boolean' && (value === 'true' || value === 'false')) return value === 'true';
    return value;
  };
  // Built as own properties, never assigned: `coerced["__proto__"] = "1"` would set the object's
  // prototype instead, and ?__proto__=1 would vanish rather than be refused as an unknown parameter.
  return Object.fromEntries(Object.entries(query).map(([name, value]) => [name, coerce(name, value)]));
}

/**
 * The validator of a part of a request ('querystring', 'body', 'params'): the value as the
 * handler gets it (query text coerced, defaults applied), or what is wrong with it and, when the
 * problem lies in one, the parameter (for a body, the field's path) it names.
 */
export function compileRequestValidator(
  schema: TSchema,
  part: string | undefined,
): (input: unknown) => { value: unknown } | { problem: ValueError; message: string; param?: string } {
  const checker = TypeCompiler.Compile(schema);
  const allowed = Object.keys((schema as { properties?: object }).properties ?? {});
  return (input) => {
    const value = Value.Default(schema, part === 'querystring' ? coerceQuery(schema, input) : input);
    if (checker.Check(value)) return { value };
    const problem = checker.Errors(value).First()!;
    const param = problemParam(problem, part);
    return { problem, message: describeProblem(problem, { style: 'parameter', allowed }), ...(param !== undefined && { param }) };
  };
}

/**
 * The parameter a problem lies in: a query parameter's name as sent (the first step of the path:
 * the query is flat), a body field's path ("filters.query"); none for the part as a whole.
 */
function problemParam(problem: ValueError, part: string | undefined): string | undefined {
  const pointer = innermost(problem).path;
  if (part !== 'querystring') return fieldPath(pointer) || undefined;
  // (A name may be empty: "?=1" sends a parameter named "".)
  const first = pointer.split('/')[1];
  return first === undefined ? undefined : first.replace(/~1/g, '/').replace(/~0/g, '~');
}

/**
 * The schema violations of a record, one per field, as "field: what is wrong (got …)": at
 * most `max` of them, and then a last line saying more were left out (a record may hold
 * thousands of unknown fields; listing them all would only bury the report).
 */
export function describeRecordProblems(checker: TypeCheck<TSchema>, record: unknown, kind: string, max: number): string[] {
  const described: string[] = [];
  // A field can break several rules of its schema at once (a missing field is also not a
  // string): its first is the one that says what to fix.
  const fields = new Set<string>();
  for (const error of checker.Errors(record)) {
    if (fields.has(error.path)) continue;
    if (described.length === max) {
      described.push(`more problems not listed (at most ${max} a record)`);
      break;
    }
    fields.add(error.path);
    described.push(describeProblem(error, { style: 'field', kind, record }));
  }
  return described.length > 0 ? described : ['does not match the record schema'];
}

// ---------- the message of a problem ----------

/**
 * How a problem is worded: a query parameter is named and its rule stated ("page must be >= 1";
 * the parameters a request may send are listed when it sends another); a record's field is
 * located and the offending value quoted ("date_seen: must be … (got "2024-02-30")").
 */
type Wording = { style: 'parameter'; allowed: readonly string[] } | { style: 'field'; kind: string; record: unknown };

/** "/contact_info/0/employees/1/name" → "contact_info[0].employees[1].name" */
export function fieldPath(pointer: string): string {
  let out = '';
  for (const raw of pointer.split('/').slice(1)) {
    const part = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    out += /^\d+$/.test(part) ? `[${part}]` : out === '' ? part : `.${part}`;
  }
  return out;
}

function shortValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

const TYPE_WORDS: Partial<Record<ValueErrorType, string>> = {
  [ValueErrorType.Integer]: 'a whole number',
  [ValueErrorType.Number]: 'a number',
  [ValueErrorType.String]: 'a single value (not repeated)',
  [ValueErrorType.Boolean]: 'true or false',
};

const FORMAT_WORDS: Record<string, string> = {
  date: 'a calendar date that exists, in YYYY-MM-DD form',
  'date-time': 'a date-time that exists, with a time zone (e.g. 2025-06-01T12:00:00Z)',
  uuid: 'a UUID',
  email: 'an email address',
  uri: 'an absolute URL',
};

interface RuleSchema {
  format?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  maxItems?: number;
  enum?: unknown[];
  anyOf?: { const?: unknown }[];
}

/** The most specific error: inside a nullable or other union, the non-null alternative's. */
function innermost(error: ValueError): ValueError {
  // A union's alternatives are iterators, read once: the answer is kept for the next caller.
  const known = innermostOf.get(error);
  if (known) return known;
  const found = findInnermost(error);
  innermostOf.set(error, found);
  return found;
}

const innermostOf = new WeakMap<ValueError, ValueError>();

function findInnermost(error: ValueError): ValueError {
  let current = error;
  while (current.type === ValueErrorType.Union) {
    const anyOf = (current.schema as RuleSchema).anyOf ?? [];
    if (anyOf.length > 0 && anyOf.every((s) => s.const !== undefined)) return current; // an enumeration
    const alternatives = current.errors.map((it) => it.First()).filter((e): e is ValueError => e !== undefined);
    const best = alternatives.find((e) => e.type !== ValueErrorType.Null) ?? alternatives[0];
    if (!best) break;
    current = best;
  }
  return current;
}

/** The allowed values of an enumeration (a string enum, or a union of literals), if the schema is one. */
function enumeration(schema: RuleSchema): unknown[] | undefined {
  if (schema.enum) return schema.enum;
  if (schema.anyOf && schema.anyOf.length > 0 && schema.anyOf.every((s) => s.const !== undefined)) {
    return schema.anyOf.map((s) => s.const);
  }
  return undefined;
}

/** What is wrong, in one sentence: the single function behind every validation message. */
export function describeProblem(problem: ValueError, wording: Wording): string {
  const error = innermost(problem);
  const schema = error.schema as RuleSchema;
  // A well-formed date whose only fault is its year: said as such, on both paths.
  const beyondRange =
    error.type === ValueErrorType.StringFormat &&
    typeof error.value === 'string' &&
    isOutOfDateRange(schema.format ?? '', error.value);
  const allowed = enumeration(schema);

  if (wording.style === 'parameter') {
    const name = fieldPath(error.path);
    switch (error.type) {
      case ValueErrorType.ObjectAdditionalProperties: {
        const steps = error.path.split('/');
        const unknown = steps.at(-1)!.replace(/~1/g, '/').replace(/~0/g, '~');
        const parent = fieldPath(steps.slice(0, -1).join('/'));
        // A key inside a body field (a webhook's filters): named with its field and that field's keys.
        if (parent !== '') {
          const keys = Object.keys((schema as { properties?: object }).properties ?? {});
          return `${parent}: unknown key ${shortValue(unknown)}; allowed keys: ${keys.join(', ')}`;
        }
        return `Unknown parameter "${unknown}"; allowed parameters: ${wording.allowed.join(', ')}`;
      }
      case ValueErrorType.ObjectRequiredProperty:
        return `${name} is required`;
      case ValueErrorType.Integer:
      case ValueErrorType.Number:
      case ValueErrorType.String:
      case ValueErrorType.Boolean:
        // A query string only ever sends strings: a string expected there and missed is a repeated parameter.
        if (error.type === ValueErrorType.String && !Array.isArray(error.value)) return `${name} must be a string`;
        return `${name} must be ${TYPE_WORDS[error.type]}`;
      case ValueErrorType.IntegerMinimum:
      case ValueErrorType.NumberMinimum:
        return `${name} must be >= ${schema.minimum}`;
      case ValueErrorType.IntegerMaximum:
      case ValueErrorType.NumberMaximum:
        return `${name} must be <= ${schema.maximum}`;
      case ValueErrorType.StringMinLength:
        return schema.minLength === 1 ? `${name} must not be empty` : `${name} must be at least ${schema.minLength} characters`;
      case ValueErrorType.StringMaxLength:
        return `${name} must be at most ${schema.maxLength} characters`;
      case ValueErrorType.ArrayMaxItems:
        return `${name} must hold at most ${schema.maxItems} items`;
      case ValueErrorType.StringFormat:
        if (beyondRange) return `${name} must be a date between ${DATE_RANGE.from} and ${DATE_RANGE.to}`;
        return schema.format === 'date'
          ? `${name} must be a valid calendar date in YYYY-MM-DD form`
          : `${name} must be a valid ${schema.format}`;
      default:
        if (allowed) return `${name} must be one of: ${allowed.join(', ')}`;
        return error.type === ValueErrorType.Union || error.type === ValueErrorType.Literal
          ? `${name} has a value that is not allowed`
          : `${name || 'request'} ${error.message}`;
    }
  }

  const path = fieldPath(error.path);
  const where = path === '' ? 'record' : path;
  const got = `(got ${shortValue(error.value)})`;
  switch (error.type) {
    case ValueErrorType.ObjectRequiredProperty:
      return `${where}: is required`;
    case ValueErrorType.ObjectAdditionalProperties:
      return `${where}: unknown field (not part of the ${wording.kind} record)`;
    case ValueErrorType.Object:
      return path === '' ? `expected a JSON object, got ${shortValue(wording.record)}` : `${where}: must be an object ${got}`;
    case ValueErrorType.StringFormat:
      if (beyondRange) return `${where}: must be between ${DATE_RANGE.from} and ${DATE_RANGE.to} (UTC) ${got}`;
      return `${where}: must be ${FORMAT_WORDS[schema.format ?? ''] ?? `a valid ${schema.format}`} ${got}`;
    default:
      if (allowed) return `${where}: must be one of ${allowed.join(', ')} ${got}`;
      return `${where}: ${error.message} ${got}`;
  }
}

interface NumericRule {
  type?: string;
  minimum?: number;
  maximum?: number;
}

/** The list parameters of a query schema (see LIST_PARAM), by name. */
function listParams(properties: Record<string, unknown> | undefined): string[] {
  return Object.entries(properties ?? {})
    .filter(([, rule]) => isListParam(rule))
    .map(([name]) => name);
}

/** Why a scalar parameter may be sent once only; where the endpoint takes lists, how to send several values. */
function repeatedMessage(name: string, lists: readonly string[]): string {
  const hint =
    lists.length === 0
      ? ''
      : ` (it takes one value; ${lists.length === 1 ? 'the list parameter' : 'list parameters such as'} ${lists[0]} take several, ` +
        `comma-separated as ${lists[0]}=a,b or repeated as ${lists[0]}=a&${lists[0]}=b)`;
  return `${name} is repeated; send it once${hint}`;
}

/** How an integer parameter must be written: decimal digits, nothing else. */
const PLAIN_DIGITS = /^[0-9]+$/;

/**
 * Checks the raw query values before the schema validator sees them, for what it would let
 * through, misread or misdescribe, and returns the query as the validator is to see it:
 * - a repeated parameter arrives as an array: a list parameter's values become its comma form
 *   (`round=seed&round=series a` is `round=seed,series a`), a scalar's are a 400 (the validator
 *   would report them as a wrong type);
 * - U+0000: PostgreSQL text cannot hold it, so a NUL would fail inside the database;
 * - integers: the validator coerces with Number(), which also reads "0x10", "0b1", "0o7", "+1",
 *   " 1", "1e3" and "1.0" as whole numbers; a client sending those has made a mistake that
 *   should not pass as a different request;
 * - numbers beyond double range ("1e309", "Infinity"): coerced to Infinity, which the validator's
 *   integer and maximum checks accept, and which no bigint parameter can hold.
 * Each is the client's mistake (400, naming the parameter).
 */
export function checkQueryValues(query: Record<string, unknown>, schema: TSchema | undefined): Record<string, unknown> {
  const properties = (schema as { properties?: Record<string, NumericRule> } | undefined)?.properties;
  // Built as own properties, never assigned (see coerceQuery: a "__proto__" parameter stays a parameter).
  const checked: [string, unknown][] = [];
  for (const [name, value] of Object.entries(query)) {
    const values = (Array.isArray(value) ? value : [value]).filter((v): v is string => typeof v === 'string');
    if (name.includes('\u0000') || values.some((v) => v.includes('\u0000'))) {
      throw invalidParameter(`${name.replaceAll('\u0000', '%00')} must not contain a NUL character (%00)`, name);
    }
    const rule = properties?.[name];
    if (Array.isArray(value) && isListParam(rule) && values.length === value.length) {
      checked.push([name, values.join(',')]);
      continue;
    }
    checked.push([name, value]);
    // (An unknown parameter, repeated or not, is left to the schema, which lists the known ones.)
    if (Array.isArray(value) && rule !== undefined) throw invalidParameter(repeatedMessage(name, listParams(properties)), name);
    if (rule?.type !== 'integer' && rule?.type !== 'number') continue;
    for (const raw of values) {
      const n = Number(raw);
      if (rule.type === 'integer' && !PLAIN_DIGITS.test(raw)) {
        // "-5" is plain enough to be told what the rule is.
        if (/^-[0-9]+$/.test(raw) && rule.minimum !== undefined && n < rule.minimum) {
          throw invalidParameter(`${name} must be >= ${rule.minimum}`, name);
        }
        throw invalidParameter(`${name} must be a whole number (digits 0-9 only)`, name);
      }
      if (n === Infinity) {
        throw invalidParameter(
          rule.maximum === undefined ? `${name} must be a finite number` : `${name} must be <= ${rule.maximum}`,
          name,
        );
      }
      if (n === -Infinity) {
        throw invalidParameter(
          rule.minimum === undefined ? `${name} must be a finite number` : `${name} must be >= ${rule.minimum}`,
          name,
        );
      }
    }
  }
  return Object.fromEntries(checked);
}
