import { existsSync, readFileSync } from 'node:fs';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

const REFERENCE_DIR = new URL('../../../shared/reference/signals-openapi-2026-01/', import.meta.url);

/** The published files live beside the project (../shared); a checkout without them skips, and says so. */
export const publishedSchemasMissing: string | false = existsSync(REFERENCE_DIR)
  ? false
  : `the published OpenAPI files are not at ${REFERENCE_DIR.pathname}`;

/** OpenAPI 3.0 `nullable: true` as JSON Schema 2020 type unions; the spec's limit of 100 replaces 50. */
function toJsonSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(toJsonSchema);
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) {
    if (k === 'nullable' || k === 'example') continue;
    out[k] = toJsonSchema(v);
  }
  const source = node as Record<string, unknown>;
  if (source.nullable === true) {
    if (typeof out.type === 'string') out.type = [out.type, 'null'];
    if (Array.isArray(out.enum)) out.enum = [...out.enum, null];
  }
  return out;
}

/** A validator for the 200 body of a published endpoint, e.g. ('investors', 'InvestorsResponse'). */
export function publishedValidator(file: string, responseSchema: string) {
  return documentValidator(new URL(`${file}.openapi.json`, REFERENCE_DIR), responseSchema);
}

/** A validator for one of the component schemas of a published OpenAPI document. */
export function documentValidator(document: URL, responseSchema: string) {
  const doc = JSON.parse(readFileSync(document, 'utf8'));
  const ajv = new Ajv2020.default({ strict: false, allErrors: true });
  addFormats.default(ajv);
  const components = toJsonSchema(doc.components.schemas) as Record<string, object>;
  for (const [name, schema] of Object.entries(components)) ajv.addSchema(schema, `#/components/schemas/${name}`);
  return ajv.getSchema(`#/components/schemas/${responseSchema}`)!;
}
