import { Type, type TSchema } from '@sinclair/typebox';

export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** A calendar date. Its docs example is set relative to today when the document is built (src/http/docs.ts). */
export const DateString = (description: string) => Type.String({ format: 'date', description: `${description} (YYYY-MM-DD)` });

/** The largest integer a JSON client can represent exactly. */
export const MAX_SAFE = Number.MAX_SAFE_INTEGER;

/** Page numbers are bounded so no request can ask the database to skip an absurd number of rows. */
export const MAX_PAGE = 1_000_000;

/** A string enum as plain JSON Schema `enum`, so errors and docs list the allowed values. */
export const StringEnum = <T extends readonly string[]>(values: T, description: string) =>
  Type.Unsafe<T[number]>({ type: 'string', enum: [...values], description });
