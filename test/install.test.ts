import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { it } from 'node:test';
import semver from 'semver';

const read = (file: string) => JSON.parse(readFileSync(new URL(`../${file}`, import.meta.url), 'utf8'));

// npm warns EBADENGINE for every locked package whose engines exclude the running Node; the README
// promises the oldest Node that package.json names, so every package locked must run on it.
it('every locked package supports the oldest Node the package names (npm install is clean on it)', () => {
  const oldest = semver.minVersion(read('package.json').engines.node)!.version;
  const lock: { packages: Record<string, { engines?: { node?: string } | string[] }> } = read('package-lock.json');
  const refused = Object.entries(lock.packages)
    .map(([path, entry]) => [path, Array.isArray(entry.engines) ? undefined : entry.engines?.node] as const)
    .filter(([, range]) => range !== undefined && !semver.satisfies(oldest, range))
    .map(([path, range]) => `${path} needs node ${range}`);
  assert.deepEqual(refused, [], `Node ${oldest}`);
});
