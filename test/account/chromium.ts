// How the browser tests run Chromium: the Debian package (no browser is downloaded), headless, no
// background traffic; their screenshots and window sizes; the app, receiver and browser they share.
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { buildApp } from '../../src/app.js';
import type { Database } from '../../src/platform/db/port.js';
import { testConfig, oneStore, type Backend } from '../helpers.js';
import { startReceiver, type TestReceiver } from '../webhooks/receiver.js';
import { PASSWORD, uniqueEmail } from './web-client.js';

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

/** The store the portal sessions run on: the one store of the HTTP surfaces' suites (helpers.ts oneStore). */
export const PORTAL_STORE = oneStore().find((backend) => !backend.skip)!;

/** An app with webhook delivery to loopback, a receiver, and Chromium on a desktop window. */
export interface PortalSession {
  db: Database;
  app: FastifyInstance;
  /** The app's own origin, also its PUBLIC_URL. */
  base: string;
  receiver: TestReceiver;
  browser: BrowserContext;
  /** A screenshot under test-output/screenshots/, named after the store. */
  shot(page: Page, name: string, fullPage?: boolean): Promise<Buffer>;
  close(): Promise<void>;
}

/** Starts a PortalSession; env adds to (or replaces) the delivery settings. */
export async function startPortalSession(
  env: Record<string, string> = {},
  store: Backend = PORTAL_STORE,
): Promise<PortalSession> {
  const db = await store.openMigrated();
  const config = testConfig({
    LOAD_SHED_EVENT_LOOP_DELAY_MS: '0',
    WEBHOOK_DELIVERY: 'true',
    WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8',
    WEBHOOK_POLL_MS: '50',
    ...env,
  });
  const app = await buildApp({ config, db });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  config.publicUrl = base;
  const receiver = await startReceiver();
  const userDataDir = mkdtempSync(join(tmpdir(), 'dealsignal-chromium-'));
  mkdirSync(SCREENSHOTS, { recursive: true });
  const browser = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: DESKTOP,
  });
  return {
    db,
    app,
    base,
    receiver,
    browser,
    shot: (page, name, fullPage = false) => page.screenshot({ path: join(SCREENSHOTS, `${store.name}-${name}.png`), fullPage }),
    async close() {
      await browser.close();
      rmSync(userDataDir, { recursive: true, force: true });
      await receiver.close();
      await app.close();
      await db.close();
    },
  };
}

/** Signs up a new account in the browser, signs in, and lands on /account; its email. */
export async function signUpAndIn(page: Page, base: string, label: string): Promise<string> {
  const email = uniqueEmail(label);
  await page.goto(`${base}/signup`);
  await page.getByLabel('Work email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.waitForURL(`${base}/login?reason=signed-up`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`${base}/account`);
  return email;
}
