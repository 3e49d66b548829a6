// The layering of src/ is enforced by `npm run lint`: an import pointing back up, or a cast
// that hides a type mismatch, fails the lint. Checked here on small sources placed in each folder.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ESLint } from 'eslint';

const eslint = new ESLint();

/** The rules a source placed at path breaks. */
async function brokenRules(path: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath: path });
  return result!.messages.map((m) => m.ruleId ?? m.message);
}

describe('layering', () => {
  const upward: [path: string, source: string][] = [
    ['src/db/queries/example.ts', "import { urlKey } from '../../services/normalize.js';\nexport const k = urlKey;\n"],
    ['src/db/example.ts', "import { funding } from '../datasets/funding.js';\nexport const d = funding;\n"],
    ['src/db/example.ts', "import type { AppServices } from '../dependencies.js';\nexport type S = AppServices;\n"],
    ['src/services/example.ts', "import { bearerKey } from '../http/auth.js';\nexport const k = bearerKey;\n"],
    ['src/services/example.ts', "import type { AppServices } from '../app.js';\nexport type S = AppServices;\n"],
    ['src/datasets/example.ts', "import { v1Routes } from '../routes/v1/index.js';\nexport const r = v1Routes;\n"],
    ['src/routes/v1/example.ts', "import type { AppServices } from '../../app.js';\nexport type S = AppServices;\n"],
    ['src/http/example.ts', "import { v2Routes } from '../routes/v2/index.js';\nexport const r = v2Routes;\n"],
    ['src/schemas/example.ts', "import { countryName } from '../services/countries.js';\nexport const c = countryName;\n"],
  ];
  for (const [path, source] of upward) {
    it(`refuses ${source.split('\n')[0]} in ${path}`, async () => {
      assert.deepEqual(await brokenRules(path, source), ['no-restricted-imports']);
    });
  }

  it('keeps SQL in src/db/', async () => {
    const sql =
      'import type { Queryable } from "../db/port.js";\nexport const f = (db: Queryable) => db.query(`VACUUM ANALYZE ${"t"}`);\n';
    assert.deepEqual(await brokenRules('src/services/example.ts', sql), ['no-restricted-syntax']);
    assert.deepEqual(await brokenRules('src/routes/v1/example.ts', "export const q = 'SELECT 1';\n"), ['no-restricted-syntax']);
    assert.deepEqual(await brokenRules('src/db/queries/example.ts', "export const q = 'SELECT 1';\n"), []);
  });

  const casts: [path: string, source: string][] = [
    ['src/services/example.ts', 'export const hidden = JSON.parse("1") as never;\n'],
    [
      'src/routes/v1/example.ts',
      "import type { FundingQuery } from '../../schemas/v1.js';\nexport const q = (query: unknown) => query as FundingQuery;\n",
    ],
  ];
  for (const [path, source] of casts) {
    it(`refuses the cast in ${source.split('\n').at(-2)} in ${path}`, async () => {
      assert.deepEqual(await brokenRules(path, source), ['no-restricted-syntax']);
    });
  }

  const downward: [path: string, source: string][] = [
    ['src/services/example.ts', "import type { Queryable } from '../db/port.js';\nexport type Q = Queryable;\n"],
    ['src/routes/v1/example.ts', "import type { AppServices } from '../../dependencies.js';\nexport type S = AppServices;\n"],
    [
      'src/schemas/example.ts',
      "import { Type } from '@sinclair/typebox';\nimport { DateString } from './common.js';\nexport const T = [Type, DateString];\n",
    ],
    ['src/http/example.ts', "import { ApiError } from '../services/errors.js';\nexport const E = ApiError;\n"],
  ];
  for (const [path, source] of downward) {
    it(`accepts ${source.split('\n')[0]} in ${path}`, async () => {
      assert.deepEqual(await brokenRules(path, source), []);
    });
  }
});
