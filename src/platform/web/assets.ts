import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// The stylesheet, the scripts and the icon ship as plain files next to this module's
// source. tsc does not copy them into dist/, so they are read from the package root, which is
// three levels up from both src/platform/web/ and dist/platform/web/.
const ASSETS_DIR = fileURLToPath(new URL('../../../src/platform/web/assets/', import.meta.url));

export interface Asset {
  /** Content-addressed path, so it can be cached for a year and still change with a release. */
  path: string;
  contentType: string;
  body: Buffer;
}

function load(file: string, contentType: string): Asset {
  const body = readFileSync(ASSETS_DIR + file);
  const hash = createHash('sha256').update(body).digest('hex').slice(0, 12);
  const dot = file.lastIndexOf('.');
  return { path: `/assets/${file.slice(0, dot)}.${hash}${file.slice(dot)}`, contentType, body };
}

export interface Assets {
  css: Asset;
  js: Asset;
  /** The profile page's enrichment card: reads a CSV file, runs the job, builds the downloads. */
  enrichment: Asset;
  /** The profile page's monitors card: sends its forms, reads a CSV file of targets, refreshes the list. */
  monitors: Asset;
  icon: Asset;
  byPath: Map<string, Asset>;
}

/** The reference page's stylesheet and script (/docs), served by the docs plugin as its theme. */
export function loadDocsAssets(): { css: Buffer; js: Buffer } {
  return { css: readFileSync(ASSETS_DIR + 'docs.css'), js: readFileSync(ASSETS_DIR + 'docs.js') };
}

/** Reads the assets once (at plugin registration). */
export function loadAssets(): Assets {
  const css = load('app.css', 'text/css; charset=utf-8');
  const js = load('app.js', 'text/javascript; charset=utf-8');
  const enrichment = load('enrichment.js', 'text/javascript; charset=utf-8');
  const monitors = load('monitors.js', 'text/javascript; charset=utf-8');
  const icon = load('icon.svg', 'image/svg+xml');
  const all = [css, js, enrichment, monitors, icon];
  return { css, js, enrichment, monitors, icon, byPath: new Map(all.map((asset) => [asset.path, asset])) };
}
