// The layout of src/ (one folder per capability over a pure catalog) is enforced by `npm run lint`:
// an import past another folder's index.ts or pointing back up, SQL outside the query modules, a
// capability mounting routes, or a cast that hides a type mismatch fails the lint. Checked here on
// small sources placed in each folder.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ESLint } from 'eslint';

const eslint = new ESLint();

/** The rules a source placed at path breaks. */
async function brokenRules(path: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath: path });
  return [...new Set(result!.messages.map((m) => m.ruleId ?? m.message))];
}

describe('layering', () => {
  const refused: [path: string, source: string][] = [
    // The catalog imports only TypeBox and itself.
    ['src/catalog/example.ts', "import type { Database } from '../platform/db/index.js';\nexport type D = Database;\n"],
    ['src/catalog/datasets/example.ts', "import { ReadModel } from '../../read/index.js';\nexport const r = ReadModel;\n"],
    ['src/catalog/example.ts', "import { faker } from '@faker-js/faker';\nexport const f = faker;\n"],
    // The platform carries the capabilities and imports none of them.
    [
      'src/platform/db/example.ts',
      "import { WebhookService } from '../../webhooks/index.js';\nexport const w = WebhookService;\n",
    ],
    ['src/platform/http/example.ts', "import { buildApp } from '../../app.js';\nexport const b = buildApp;\n"],
    // A capability reaches another folder through its index.ts only, and never the shells, the CLI or the demo data.
    ['src/webhooks/example.ts', "import { ReadModel } from '../read/read-model.js';\nexport const r = ReadModel;\n"],
    [
      'src/accounts/portal/example.ts',
      "import { V1Error } from '../../catalog/schemas/v1-schemas.js';\nexport const e = V1Error;\n",
    ],
    ['src/webhooks/example.ts', "import { v2Routes } from '../families/index.js';\nexport const r = v2Routes;\n"],
    ['src/read/example.ts', "import { seedDatabase } from '../demo/index.js';\nexport const s = seedDatabase;\n"],
    ['src/ingest/example.ts', "import { main } from '../cli/main.js';\nexport const m = main;\n"],
    // So does the composition root.
    ['src/example.ts', "import { WebhookService } from './webhooks/service.js';\nexport const w = WebhookService;\n"],
  ];
  for (const [path, source] of refused) {
    it(`refuses ${source.split('\n')[0]} in ${path}`, async () => {
      assert.deepEqual(await brokenRules(path, source), ['no-restricted-imports']);
    });
  }

  it("keeps SQL in a capability's queries and in src/platform/db/", async () => {
    const sql =
      'import type { Queryable } from "../platform/db/index.js";\nexport const f = (db: Queryable) => db.query(`VACUUM ANALYZE ${"t"}`);\n';
    assert.deepEqual(await brokenRules('src/webhooks/service-example.ts', sql), ['no-restricted-syntax']);
    assert.deepEqual(await brokenRules('src/families/example.ts', "export const q = 'SELECT 1';\n"), ['no-restricted-syntax']);
    assert.deepEqual(await brokenRules('src/catalog/example.ts', "export const q = 'SELECT 1';\n"), ['no-restricted-syntax']);
    assert.deepEqual(await brokenRules('src/webhooks/queries.ts', sql), []);
    assert.deepEqual(await brokenRules('src/accounts/example-queries.ts', sql), []);
    assert.deepEqual(await brokenRules('src/platform/db/example.ts', "export const q = 'SELECT 1';\n"), []);
  });

  it('lets only the app and the family shells mount route plugins', async () => {
    const mount =
      "import type { FastifyInstance } from 'fastify';\nexport const f = (app: FastifyInstance) => app.register((scope) => scope.get('/x', () => 1));\n";
    const mountNamed =
      "import type { FastifyInstance } from 'fastify';\ndeclare const lookupRoutes: (app: FastifyInstance) => void;\nexport const f = (app: FastifyInstance) => app.register(lookupRoutes);\n";
    assert.deepEqual(await brokenRules('src/webhooks/routes.ts', mount), ['no-restricted-syntax']);
    assert.deepEqual(await brokenRules('src/read/example.ts', mountNamed), ['no-restricted-syntax']);
    assert.deepEqual(await brokenRules('src/families/example.ts', mount), []);
    assert.deepEqual(await brokenRules('src/app.ts', mountNamed), []);
  });

  const casts: [path: string, source: string][] = [
    ['src/webhooks/example.ts', 'export const hidden = JSON.parse("1") as never;\n'],
    [
      'src/read/routes.ts',
      "import type { FundingQuery } from '../catalog/index.js';\nexport const q = (query: unknown) => query as FundingQuery;\n",
    ],
  ];
  for (const [path, source] of casts) {
    it(`refuses the cast in ${source.split('\n').at(-2)} in ${path}`, async () => {
      assert.deepEqual(await brokenRules(path, source), ['no-restricted-syntax']);
    });
  }

  const accepted: [path: string, source: string][] = [
    ['src/webhooks/example.ts', "import { ApiError } from '../catalog/index.js';\nexport const E = ApiError;\n"],
    ['src/webhooks/example.ts', "import type { Queryable } from '../platform/db/index.js';\nexport type Q = Queryable;\n"],
    ['src/webhooks/example.ts', "import { ReadModel } from '../read/index.js';\nexport const r = ReadModel;\n"],
    ['src/read/routes.ts', "import type { AppServices } from '../app-services.js';\nexport type S = AppServices;\n"],
    ['src/platform/http/example.ts', "import { ApiError } from '../../catalog/index.js';\nexport const E = ApiError;\n"],
    [
      'src/catalog/schemas/example.ts',
      "import { Type } from '@sinclair/typebox';\nimport { DateString } from './common.js';\nexport const T = [Type, DateString];\n",
    ],
    ['src/families/example.ts', "import { webhookRoutes } from '../webhooks/index.js';\nexport const r = webhookRoutes;\n"],
    ['src/cli/example.ts', "import { seedDatabase } from '../demo/index.js';\nexport const s = seedDatabase;\n"],
  ];
  for (const [path, source] of accepted) {
    it(`accepts ${source.split('\n')[0]} in ${path}`, async () => {
      assert.deepEqual(await brokenRules(path, source), []);
    });
  }
});
