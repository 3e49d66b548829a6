// The client cannot drift from the server: its committed types are what the routes' OpenAPI
// document generates now. After changing a route's schema, `npm run client:types` updates them.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { it } from 'node:test';
import { CLIENT_TYPES_FILE, generateClientTypes } from '../../scripts/client-types.js';

it('the committed client types are those the current routes generate (npm run client:types)', async () => {
  const committed = readFileSync(CLIENT_TYPES_FILE, 'utf8');
  const generated = await generateClientTypes();
  if (committed !== generated) {
    const at = [...committed].findIndex((char, i) => char !== generated[i]);
    const line = committed.slice(0, at).split('\n').length;
    assert.fail(
      `client/src/generated/openapi.ts is stale from line ${line}: run \`npm run client:types\` and commit the result\n` +
        `committed: ${JSON.stringify(committed.slice(Math.max(0, at - 80), at + 80))}\n` +
        `generated: ${JSON.stringify(generated.slice(Math.max(0, at - 80), at + 80))}`,
    );
  }
});
