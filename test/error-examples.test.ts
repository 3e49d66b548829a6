// The v2 family's errors as documented, over HTTP on both stores: every documented error response
// of every v2 operation in /openapi.json carries an example of its own status and code that its
// schema accepts; the error table in docs/errors.md lists every code of the family, with the
// operations that answer it.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, it } from 'node:test';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import {
  ENRICHMENT_ERROR_CODES,
  enrichmentErrorCode,
  MONITOR_ERROR_CODES,
  monitorErrorCode,
  WEBHOOK_ERROR_CODES,
} from '../src/catalog/errors.js';
import { V2_ERROR_CODES } from '../src/catalog/schemas/v2-schemas.js';
import { describeEach, startApp, type TestContext } from './helpers.js';

const ERRORS_DOC = readFileSync(new URL('../docs/errors.md', import.meta.url), 'utf8');

interface Media {
  schema?: { $ref?: string };
  example?: { success?: unknown; error?: unknown; code?: unknown; param?: unknown };
}
interface Operation {
  operationId?: string;
  responses?: Record<string, { content?: Record<string, Media> }>;
}

describeEach('v2 error examples and the error table', (backend) => {
  let ctx: TestContext;
  let document: { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, object> } };

  before(async () => {
    ctx = await startApp(backend);
    const res = await ctx.app.inject('/openapi.json');
    assert.equal(res.statusCode, 200);
    document = res.json();
  });
  after(() => ctx?.close());

  /** Every documented error response of a v2 operation. */
  const errorResponses = () =>
    Object.entries(document.paths)
      .filter(([path]) => path.startsWith('/api/v2/'))
      .flatMap(([path, operations]) =>
        Object.entries(operations).flatMap(([method, operation]) =>
          Object.entries(operation.responses ?? {})
            .filter(([status]) => Number(status) >= 400)
            .map(([status, response]) => ({
              where: `${method.toUpperCase()} ${path} ${status}`,
              operationId: operation.operationId!,
              status: Number(status),
              media: response.content?.['application/json'],
            })),
        ),
      );

  it('each error response of each v2 operation has an example of its own status and code, valid against its schema', () => {
    const ajv = new Ajv2020.default({ strict: false });
    addFormats.default(ajv);
    for (const [name, schema] of Object.entries(document.components.schemas)) {
      ajv.addSchema(schema, `#/components/schemas/${name}`);
    }
    const responses = errorResponses();
    assert.ok(responses.length >= 80, `${responses.length} error responses`);
    const statuses = new Set<number>();
    for (const { where, status, media } of responses) {
      assert.ok(media?.schema && media.example, `${where}: a schema and an example`);
      const validate = ajv.compile(media.schema);
      assert.ok(validate(media.example), `${where}: ${JSON.stringify(validate.errors)}`);
      const { code } = media.example;
      assert.equal(typeof code, 'string', where);
      if (media.schema.$ref?.endsWith('/WebhookError')) {
        assert.equal(code, WEBHOOK_ERROR_CODES[status] ?? (status >= 500 ? 'internal_error' : 'bad_request'), where);
      } else if (media.schema.$ref?.endsWith('/Csv_ErrorResponse')) {
        assert.equal(code, enrichmentErrorCode(status), where);
      } else if (media.schema.$ref?.endsWith('/Monitor_ErrorResponse')) {
        assert.equal(code, monitorErrorCode(status), where);
      } else {
        assert.equal(V2_ERROR_CODES[code as keyof typeof V2_ERROR_CODES]?.status, status, `${where}: ${String(code)}`);
      }
      // The parameter at fault only where one is: a 400 (a field or parameter) or the 410 (since).
      if (media.example.param !== undefined) assert.ok(status === 400 || status === 410, where);
      statuses.add(status);
    }
    // The 401 no longer shows a parameter's 400.
    const unauthorized = responses.find((r) => r.operationId === 'getInvestors' && r.status === 401)!;
    assert.deepEqual(unauthorized.media!.example, { success: false, error: 'Invalid API key', code: 'invalid_api_key' });
    assert.deepEqual([...statuses].sort(), [400, 401, 402, 404, 409, 410, 413, 429, 500, 503]);
  });

  it('docs/errors.md lists every v2 error code, the operations that answer it, and what to do', () => {
    const rows = new Map<string, string[]>();
    for (const line of ERRORS_DOC.split('\n')) {
      const cells = line.split('|').map((cell) => cell.trim());
      const code = /^`([a-z_]+)`$/.exec(cells[1] ?? '')?.[1];
      if (code) rows.set(code, cells.slice(2, -1));
    }
    const webhookCodes = new Set([...Object.values(WEBHOOK_ERROR_CODES), 'bad_request', 'internal_error']);
    const enrichmentCodes = new Set([...Object.values(ENRICHMENT_ERROR_CODES), 'match_engine_unavailable']);
    const monitorCodes = new Set([...Object.values(MONITOR_ERROR_CODES), 'bad_request', 'internal_error']);
    for (const code of [...Object.keys(V2_ERROR_CODES), ...webhookCodes, ...enrichmentCodes, ...monitorCodes]) {
      const row = rows.get(code);
      assert.ok(row, `docs/errors.md has a row for ${code}`);
      assert.equal(row.length, 4, `${code}: status, operations, API and what to do`);
      assert.ok(
        row.every((cell) => cell !== ''),
        `${code}: every cell filled`,
      );
    }
    // Each operation the document names is one the document has, and each operation answering a
    // documented error is named in that code's row.
    const operationIds = new Set(errorResponses().map((r) => r.operationId));
    for (const { operationId, status, media } of errorResponses()) {
      const code = String(media!.example!.code);
      const row = rows.get(code)!;
      assert.ok(
        row[1]!.includes(`\`${operationId}\``) || row[1]!.startsWith('every'),
        `${code} (${status}): the row names ${operationId}`,
      );
    }
    for (const named of ERRORS_DOC.matchAll(
      /`((?:list|get|create|update|delete|test|retry|add|remove|replay)[A-Z][A-Za-z]+)`/g,
    )) {
      assert.ok(operationIds.has(named[1]!), `${named[1]} is an operation of the document`);
    }
  });
});
