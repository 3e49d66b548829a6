// How the browser tests run Chromium: the Debian package (no browser is downloaded), headless, no
// background traffic; their screenshots and window sizes.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const CHROMIUM = '/usr/bin/chromium';
/** A reason to skip, or false when Chromium is installed. */
export const chromiumMissing: string | false = existsSync(CHROMIUM) ? false : `Chromium is not installed at ${CHROMIUM}`;
export const SCREENSHOTS = fileURLToPath(new URL('../../test-output/screenshots/', import.meta.url));
export const CHROMIUM_ARGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
export const DESKTOP = { width: 1280, height: 900 };
export const PHONE = { width: 390, height: 844 };
