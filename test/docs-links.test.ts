// Every link in the written documentation to a file of the repository resolves: the file exists,
// and a #fragment names a heading of that file (as GitHub spells its anchors) or an explicit
// <a id>. The documents link to each other a lot, and a moved section would otherwise leave
// links pointing nowhere.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

function markdownUnder(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return markdownUnder(path);
    return entry.name.endsWith('.md') ? [path] : [];
  });
}

const DOCUMENTS = ['README.md', 'bench/RESULTS.md', 'examples/README.md', 'client/README.md', ...markdownUnder('docs')];

/** GitHub's anchor for a heading: lower case, punctuation but hyphens and underscores dropped, spaces as hyphens. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/`/g, '')
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchorsOf(text: string): Set<string> {
  const outsideCode = text.replace(/^```[\s\S]*?^```/gm, '');
  const anchors = new Set<string>();
  for (const [, heading] of outsideCode.matchAll(/^#{1,6} (.+)$/gm)) anchors.add(anchorOf(heading!));
  for (const [, id] of outsideCode.matchAll(/<a id="([^"]+)"/g)) anchors.add(id!);
  return anchors;
}

/** The targets of [text](target) links that point into the repository. */
function localLinks(text: string): string[] {
  const outsideCode = text.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');
  return [...outsideCode.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!).filter((target) => !/^[a-z]+:/i.test(target));
}

describe('documentation links', () => {
  for (const document of DOCUMENTS) {
    it(`${document}: every link to the repository resolves`, () => {
      const text = readFileSync(join(ROOT, document), 'utf8');
      for (const target of localLinks(text)) {
        const [path, fragment] = target.split('#') as [string, string | undefined];
        const file = path === '' ? join(ROOT, document) : join(ROOT, dirname(document), path);
        assert.ok(existsSync(file), `${document} links to ${target}, which does not exist`);
        if (fragment === undefined) continue;
        assert.ok(statSync(file).isFile(), `${document} links to ${target}, a fragment of a folder`);
        const anchors = anchorsOf(readFileSync(file, 'utf8'));
        assert.ok(anchors.has(fragment), `${document} links to ${target}: ${relative(ROOT, file)} has no such heading`);
      }
    });
  }
});
