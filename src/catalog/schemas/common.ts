import { Kind, Type, TypeRegistry, type StringOptions, type TSchema } from '@sinclair/typebox';

export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/**
 * The calendar dates (UTC) the service stores and filters on, inclusive; query parameters and
 * ingested records are held to it alike. Every record is a business event of the modern era, so
 * nothing real falls outside, and four-digit years inside it read the same in JavaScript and
 * PostgreSQL: no year 0 (which PostgreSQL lacks) and no year 10000 (which the end of
 * 9999-12-31 would be, and which neither parses back). A mistyped year (9999 for 2025) is
 * refused instead of sorting a record above every other one.
 */
export const DATE_RANGE = { from: '1900-01-01', to: '2199-12-31' } as const;

/** A calendar date within DATE_RANGE. Its docs example is set relative to today when the document is built (src/platform/http/docs.ts). */
export const DateString = (description: string) =>
  Type.String({
    format: 'date',
    formatMinimum: DATE_RANGE.from,
    formatMaximum: DATE_RANGE.to,
    description: `${description} (YYYY-MM-DD, ${DATE_RANGE.from} to ${DATE_RANGE.to})`,
  });

/** The largest integer a JSON client can represent exactly. */
export const MAX_SAFE = Number.MAX_SAFE_INTEGER;

/** Page numbers are bounded so no request can ask the database to skip an absurd number of rows. */
export const MAX_PAGE = 1_000_000;

// The validator's check of a StringEnum (documents see a plain JSON Schema `enum`).
TypeRegistry.Set<{ enum: unknown[] }>('StringEnum', (schema, value) => typeof value === 'string' && schema.enum.includes(value));

/** A string enum as plain JSON Schema `enum`, so errors and docs list the allowed values. */
export const StringEnum = <T extends readonly string[]>(values: T, description: string) =>
  Type.Unsafe<T[number]>({ [Kind]: 'StringEnum', type: 'string', enum: [...values], description });

/**
 * Marks a query parameter that takes a list. HTTP libraries send a list as the key repeated
 * (`round=seed&round=series%20a`: Python requests, axios, URLSearchParams); such a parameter takes
 * that as its comma form (`round=seed,series a`), where a scalar sent twice is a 400
 * (src/catalog/validation.ts). The OpenAPI document says `style: form, explode: true` for it
 * (src/platform/http/docs.ts).
 */
export const LIST_PARAM = 'x-list';

/** A query parameter holding a list: comma-separated, or the key repeated. */
export const ListString = (options: StringOptions) => Type.String({ ...options, [LIST_PARAM]: true });

/** Whether a parameter's schema is a list (see LIST_PARAM). */
export const isListParam = (schema: unknown): boolean =>
  typeof schema === 'object' && schema !== null && (schema as Record<string, unknown>)[LIST_PARAM] === true;

/** The link fields of a served record that names a company (src/companies): its id and how it was found. */
export const linkId = (what: string) =>
  Type.Optional(
    Nullable(
      Type.String({
        format: 'uuid',
        description: `The id of ${what} (\`GET /api/v2/companies/{id}\`); null when the record names none. Absent on a record not resolved yet`,
      }),
    ),
  );
export const linkMatch = (what: string) =>
  Type.Optional(
    Type.Union([Type.Literal('exact'), Type.Literal('fuzzy'), Type.Literal('none')], {
      description:
        `How ${what} was resolved when the record was written: "exact" by its website domain or LinkedIn page, "fuzzy" by ` +
        'its normalised name (and country when the record gives one), "none" when the record names no company',
    }),
  );
