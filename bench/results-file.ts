import { readFileSync, writeFileSync } from 'node:fs';
import { RESULTS_FILE } from './options.js';

/** Replaces the section that starts with `heading` in RESULTS.md (or appends it), leaving the others. */
export function replaceSection(heading: string, section: string): void {
  let text: string;
  try {
    text = readFileSync(RESULTS_FILE, 'utf8');
  } catch {
    text = '# Benchmark results\n';
  }
  const start = text.indexOf(`\n${heading}\n`);
  if (start >= 0) {
    const next = text.indexOf('\n## ', start + 1);
    text = text.slice(0, start) + (next >= 0 ? text.slice(next) : '');
  }
  writeFileSync(RESULTS_FILE, `${text.trimEnd()}\n\n${section.trim()}\n`);
}
