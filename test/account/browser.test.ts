// The account pages end to end in real Chromium (the Debian package; no browser is downloaded):
// sign up, create a key, call the API with it, see usage and credits move, revoke it.
// Screenshots of the profile page go to test-output/screenshots/.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { it } from 'node:test';
import { chromium, type Page } from 'playwright-core';
import { buildApp } from '../../src/app.js';
import { testConfig, describeOnOneStore } from '../helpers.js';
import { insertInvestors, investorRecord } from '../fixtures.js';
import { PASSWORD, uniqueEmail } from './web-client.js';
import { CHROMIUM, CHROMIUM_ARGS, DESKTOP, PHONE, SCREENSHOTS, chromiumMissing } from './chromium.js';

const text = async (page: Page, selector: string) => (await page.locator(selector).innerText()).trim();

describeOnOneStore('account pages in Chromium', (backend) => {
  it(
    'sign up, create a key, call the API, see usage and credits change, revoke: 401',
    { skip: chromiumMissing, timeout: 120_000 },
    async () => {
      const db = await backend.openMigrated();
      await insertInvestors(
        db,
        Array.from({ length: 8 }, () => investorRecord()),
      );
      // Rate limits on, as in production (the test makes two API calls).
      const config = testConfig({ LOAD_SHED_EVENT_LOOP_DELAY_MS: '0', RATE_LIMITS: 'true' });
      const app = await buildApp({ config, db });
      await app.listen({ port: 0, host: '127.0.0.1' });
      const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
      // The public URL (shown in the quick start) is only known once the port is.
      config.publicUrl = base;
      const userDataDir = mkdtempSync(join(tmpdir(), 'dealsignal-chromium-'));
      mkdirSync(SCREENSHOTS, { recursive: true });
      const shot = (page: Page, name: string) =>
        page.screenshot({ path: join(SCREENSHOTS, `${backend.name}-${name}.png`), fullPage: true });
      const browser = await chromium.launchPersistentContext(userDataDir, {
        executablePath: CHROMIUM,
        headless: true,
        args: CHROMIUM_ARGS,
        viewport: DESKTOP,
      });
      const callApi = (key: string) =>
        fetch(`${base}/api/v2/signals/investors?limit=5`, { headers: { authorization: `Bearer ${key}` } });
      try {
        await browser.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
        const page = browser.pages()[0] ?? (await browser.newPage());

        await page.goto(`${base}/`);
        assert.equal(await page.title(), 'Funding, M&A and signals API · dealsignal');
        await shot(page, 'home');
        await page.getByRole('link', { name: 'Create a free account' }).click();
        await page.waitForURL(`${base}/signup`);
        const email = uniqueEmail('browser');
        await page.getByLabel('Work email').fill(email);
        await page.getByLabel('Password').fill(PASSWORD);
        await page.getByRole('button', { name: 'Create account' }).click();
        // Signing up leads to the sign-in form (the same answer for an email that has an account).
        await page.waitForURL(`${base}/login?reason=signed-up`);
        await page.getByLabel('Email').fill(email);
        await page.getByLabel('Password').fill(PASSWORD);
        await page.getByRole('button', { name: 'Sign in' }).click();
        await page.waitForURL(`${base}/account`);
        assert.equal(await text(page, '#credit-balance'), '100 of 100 left');
        assert.equal(await text(page, '#request-count'), '0');

        await page.getByLabel('Key name').fill('browser test');
        await page.getByRole('button', { name: 'Create key' }).click();
        const key = await page.locator('#new-key').inputValue();
        assert.match(key, /^ds_[0-9A-Za-z]{38}$/);
        // The copy button is there once the script has run, and copies the key.
        const copy = page.getByRole('button', { name: 'Copy key' });
        await copy.click();
        await page.getByRole('button', { name: 'Copied' }).waitFor();
        assert.equal(await page.evaluate(() => navigator.clipboard.readText()), key);
        await shot(page, 'new-key');

        const ok = await callApi(key);
        assert.equal(ok.status, 200);
        assert.equal((await ok.json()).meta.creditsRemaining, 99);

        await page.goto(`${base}/account`);
        assert.equal(await page.locator('#new-key').count(), 0, 'the key is never shown again');
        assert.equal(await text(page, '#request-count'), '1');
        assert.equal(await text(page, '#credit-balance'), '99 of 100 left');
        assert.match(await text(page, 'tr[data-key-id] td[data-label="Last used"]'), /just now/);
        await shot(page, 'account');
        await page.setViewportSize(PHONE);
        await shot(page, 'account-mobile');
        await page.setViewportSize(DESKTOP);

        await page.getByRole('link', { name: 'Revoke key browser test' }).click();
        await page.getByRole('button', { name: 'Revoke key' }).click();
        await page.waitForURL(`${base}/account?notice=revoked#keys`);
        assert.match(await text(page, '.alert--success'), /Key revoked/);
        assert.equal(await text(page, 'tr[data-key-id] td[data-label="Status"]'), 'Revoked');
        await shot(page, 'revoked');

        const refused = await callApi(key);
        assert.equal(refused.status, 401);
        assert.deepEqual(await refused.json(), { success: false, error: 'Invalid API key', code: 'invalid_api_key' });
      } finally {
        await browser.close();
        rmSync(userDataDir, { recursive: true, force: true });
        await app.close();
        await db.close();
      }
    },
  );
});
