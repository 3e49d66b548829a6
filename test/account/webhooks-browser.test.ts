// Webhooks on the account pages end to end in real Chromium (the Debian package; no browser is
// downloaded), against a real receiver on loopback: create a webhook from the profile page, see its
// secret, send a test event, see a delivery of a new record arrive in the log, redeliver a failing
// one, pause and resume, delete. Screenshots go to test-output/screenshots/. The embedded store
// only: the pages and the service are the same on PostgreSQL, which the HTTP suite covers.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { fundingRecord, insertFunding } from '../fixtures.js';
import { ok, verifyBoth } from '../webhooks/receiver.js';
import { DESKTOP, PHONE, chromiumMissing, startPortalSession, PORTAL_STORE, signUpAndIn } from './chromium.js';

const text = async (locator: Locator) => (await locator.innerText()).trim();

/** Reloads the page until the locator finds something (the delivery worker runs on its own), at most timeoutMs. */
async function reloadUntil(page: Page, locator: Locator, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if ((await locator.count()) > 0) return;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
    await page.reload();
  }
}

describe(`webhooks on the account pages in Chromium [${PORTAL_STORE.name}]`, () => {
  it(
    'create from the page, see the secret, test, see a delivery, redeliver a failure, pause, resume, delete',
    { skip: chromiumMissing, timeout: 180_000 },
    async () => {
      const {
        db,
        base,
        receiver,
        browser,
        shot: anyShot,
        close,
      } = await startPortalSession({
        // The failing delivery waits for the redelivery the test makes, not for an automatic retry.
        WEBHOOK_RETRY_DELAYS: '600',
      });
      const shot = (page: Page, name: string) => anyShot(page, name, true);
      try {
        await browser.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
        const page = browser.pages()[0] ?? (await browser.newPage());

        await signUpAndIn(page, base, 'webhooks-browser');

        // Create, from the profile page's form.
        const webhooks = page.locator('#webhooks');
        assert.match(await text(webhooks.locator('.empty')), /No webhooks yet/);
        await page.getByLabel('Endpoint URL').fill(receiver.url);
        await page.getByRole('checkbox', { name: /^funding\.created\b/ }).check();
        await page.getByLabel('Countries').fill('US');
        await shot(page, 'webhook-form');
        await page.getByRole('button', { name: 'Create webhook' }).click();
        // Post/redirect/get: the browser lands on the new webhook's page, which shows the secret once.
        await page.waitForURL(new RegExp(`^${base}/account/webhooks/[0-9a-f-]{36}$`));
        const secret = await page.locator('#new-secret').inputValue();
        assert.match(secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
        await page.getByRole('button', { name: 'Copy secret' }).click();
        await page.getByRole('button', { name: 'Copied' }).waitFor();
        assert.equal(await page.evaluate(() => navigator.clipboard.readText()), secret);
        assert.match(
          await text(page.locator('.callout-note')),
          /X-Webhook-Signature.*webhook-signature.*webhooks guide \(docs\/api\/webhooks.md\)/s,
        );
        await shot(page, 'webhook-created');
        const settingsUrl = await page.getByRole('link', { name: 'Cancel' }).getAttribute('href');
        assert.match(settingsUrl ?? '', /^\/account\/webhooks\/[0-9a-f-]{36}$/);
        const webhookUrl = `${base}${settingsUrl}`;

        // A test event: sent at once, the outcome shown, both signatures check out.
        await page.getByRole('button', { name: 'Send test event' }).click();
        await page.waitForURL(webhookUrl);
        const test = page.locator('#test-outcome');
        assert.equal(await test.getAttribute('data-outcome'), 'success');
        assert.match(await text(test), /Test event delivered[^]*HTTP 200/);
        assert.equal(await page.locator('#new-secret').count(), 0, 'the secret is never shown again');
        assert.equal(verifyBoth(secret, receiver.received.at(-1)!).event_type, 'system.test');
        await shot(page, 'webhook-test-event');

        // A matching record arrives: its delivery shows up in the log.
        await insertFunding(db, [fundingRecord({ company_name: 'Browser Hooks Inc' })]);
        await page.goto(webhookUrl);
        const delivered = page.locator('tr[data-status="done"]', { has: page.locator('.tag', { hasText: 'funding.created' }) });
        await reloadUntil(page, delivered, 'the funding.created delivery in the log');
        assert.equal(await text(delivered.locator('td[data-label="Response"]')), '200');
        assert.equal(await text(delivered.locator('td[data-label="Attempts"]')), '1');
        const event = receiver.received
          .map((received) => verifyBoth(secret, received))
          .find((e) => e.event_type === 'funding.created');
        assert.equal((event?.data as { company_name?: string } | undefined)?.company_name, 'Browser Hooks Inc');
        assert.equal(await text(delivered.locator('.event-id')), event!.event_id);
        await shot(page, 'webhook-delivered');

        // The receiver fails: the next delivery waits for a retry; redelivering it shows the failure.
        receiver.respond = (_request, response) => response.writeHead(500).end('receiver is down');
        await insertFunding(db, [fundingRecord({ company_name: 'Failing Hooks Inc' })]);
        const retrying = page.locator('tr[data-status="pending"]', {
          has: page.locator('td[data-label="Response"]', { hasText: '500' }),
        });
        await reloadUntil(page, retrying, 'the failed delivery waiting for its retry');
        assert.equal(await text(retrying.locator('td[data-label="Status"]')), 'Retrying');
        assert.match(await text(retrying.locator('td[data-label="Last error"]')), /receiver is down/);
        await retrying.getByRole('button', { name: /^Redeliver/ }).click();
        const redelivery = page.locator('#redelivery-outcome');
        await redelivery.waitFor();
        assert.equal(await redelivery.getAttribute('data-outcome'), 'failure');
        assert.match(await text(redelivery), /Redelivery failed[^]*HTTP 500[^]*attempt 2/);
        // A failed redelivery leaves the queued delivery as it was: still waiting for its retry.
        assert.ok((await page.locator('tr[data-status="failed"]').count()) >= 1, 'the redelivery, failed');
        assert.ok((await retrying.count()) >= 1, 'the queued delivery, still pending');
        await shot(page, 'webhook-redelivery-failed');
        await page.setViewportSize(PHONE);
        await shot(page, 'webhook-mobile');
        await page.setViewportSize(DESKTOP);

        // Fixed: redelivered.
        receiver.respond = ok;
        await page
          .locator('tr[data-status="failed"]')
          .first()
          .getByRole('button', { name: /^Redeliver/ })
          .click();
        await page.locator('#redelivery-outcome').waitFor();
        assert.equal(await page.locator('#redelivery-outcome').getAttribute('data-outcome'), 'success');
        assert.match(await text(page.locator('#redelivery-outcome')), /Redelivered[^]*HTTP 200/);

        // Pause and resume.
        await page.goto(webhookUrl);
        await page.getByRole('button', { name: 'Pause', exact: true }).click();
        await page.waitForURL(`${webhookUrl}?notice=paused`);
        assert.equal(await text(page.locator('#webhook-status')), 'Paused');
        assert.match(await text(page.locator('.alert--success')), /Webhook paused/);
        await page.getByRole('button', { name: 'Resume', exact: true }).click();
        await page.waitForURL(`${webhookUrl}?notice=resumed`);
        assert.equal(await text(page.locator('#webhook-status')), 'Active');

        // Paused by the service after a run of failures: the profile page says why.
        const reason = 'Paused after 8 failed attempts in a row: the last attempt got HTTP 500.';
        await db.query('UPDATE webhooks SET active = false, paused_reason = $1, consecutive_failures = 8', [reason]);
        await page.goto(`${base}/account`);
        assert.equal(await text(page.locator('#webhooks .paused-reason')), reason);
        assert.equal(await text(page.locator('#webhooks .webhook-item .pill')), 'Paused after failures');
        await shot(page, 'account-webhooks-paused');
        await page.setViewportSize(PHONE);
        await shot(page, 'account-webhooks-mobile');
        await page.setViewportSize(DESKTOP);
        await page.locator('#webhooks .webhook-url').click();
        await page.waitForURL(webhookUrl);
        await page.getByRole('button', { name: 'Resume deliveries' }).click();
        await page.waitForURL(`${webhookUrl}?notice=resumed`);
        assert.equal(await page.locator('[data-paused-reason]').count(), 0);

        // Delete, after its confirmation.
        await page.getByRole('link', { name: 'Delete', exact: true }).click();
        await page.waitForURL(`${webhookUrl}/delete`);
        await shot(page, 'webhook-delete-confirm');
        await page.getByRole('button', { name: 'Delete webhook' }).click();
        await page.waitForURL(`${base}/account?notice=webhook-deleted`);
        assert.match(await text(page.locator('.alert--success')), /Webhook deleted/);
        assert.equal(await page.locator('#webhooks .webhook-item').count(), 0);
        assert.match(await text(webhooks.locator('.empty')), /No webhooks yet/);
        const gone = await page.goto(webhookUrl);
        assert.equal(gone?.status(), 404);
      } finally {
        await close();
      }
    },
  );
});
