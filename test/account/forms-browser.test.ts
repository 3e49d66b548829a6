// The account pages' forms in real Chromium, as a user meets them: sign-in after sign-up comes with
// the email filled in; every form follows post/redirect/get, so reloading the page an action led to
// repeats nothing (no second key, webhook or test event) and a key or a secret is shown once; a
// refused form shows its error at the top and next to the field, which has the focus, in view.
// Screenshots go to test-output/screenshots/.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { PASSWORD, uniqueEmail } from './web-client.js';
import { chromiumMissing, startPortalSession, PORTAL_STORE } from './chromium.js';

const text = async (locator: Locator) => (await locator.innerText()).trim();

/** Whether the element's box lies inside the window as it is scrolled now. */
const inViewport = (locator: Locator) =>
  locator.evaluate((element) => {
    const box = element.getBoundingClientRect();
    return box.height > 0 && box.top >= 0 && box.bottom <= window.innerHeight;
  });

const focusedId = (page: Page) => page.evaluate(() => document.activeElement?.id ?? null);

// One store (PostgreSQL when DATABASE_URL is set): these are the pages' own behaviour, the same on
// both stores, whose storage the data suites cover.
describe(`account forms in Chromium [${PORTAL_STORE.name}]`, () => {
  it(
    'sign-in pre-filled after sign-up; reloads repeat no action; a refused form shows its error in view, focused',
    { skip: chromiumMissing, timeout: 180_000 },
    async () => {
      const { db, base, receiver, browser, shot, close } = await startPortalSession();
      const count = async (sql: string, params: unknown[]) => (await db.query<{ n: number }>(sql, params))[0]!.n;
      try {
        const page = browser.pages()[0] ?? (await browser.newPage());

        // Sign up: the sign-in form that follows has the email, and the password field has the focus.
        const email = uniqueEmail('forms-browser');
        await page.goto(`${base}/signup`);
        await page.getByLabel('Work email').fill(email);
        await page.getByLabel('Password').fill(PASSWORD);
        await page.getByRole('button', { name: 'Create account' }).click();
        await page.waitForURL(`${base}/login?reason=signed-up`);
        assert.equal(await page.getByLabel('Email').inputValue(), email);
        assert.equal(await focusedId(page), 'field-password');
        await shot(page, 'login-prefilled');
        await page.getByLabel('Password').fill(PASSWORD);
        await page.getByRole('button', { name: 'Sign in' }).click();
        await page.waitForURL(`${base}/account`);
        const [{ id: accountId }] = (await db.query<{ id: number }>('SELECT id::int FROM accounts WHERE email = $1', [
          email,
        ])) as [{ id: number }];
        const keysOfAccount = () => count('SELECT count(*)::int AS n FROM api_keys WHERE account_id = $1', [accountId]);
        const webhooksOfAccount = () => count('SELECT count(*)::int AS n FROM webhooks WHERE account_id = $1', [accountId]);

        // Create a key: the browser is sent to the keys section, which shows the key once.
        await page.getByLabel('Key name').fill('reload test');
        await page.getByRole('button', { name: 'Create key' }).click();
        await page.waitForURL(`${base}/account#keys`);
        assert.match(await page.locator('#new-key').inputValue(), /^ds_[0-9A-Za-z]{38}$/);
        await shot(page, 'prg-new-key');
        for (let i = 0; i < 2; i++) {
          await page.reload();
          assert.equal(await page.locator('#new-key').count(), 0, 'the key is shown once');
          assert.equal(await page.locator('tr[data-key-id]').count(), 1, 'a reload creates no second key');
        }
        assert.equal(await keysOfAccount(), 1);

        // Roll it: one new key, shown once; reloading rolls nothing.
        await page.getByRole('link', { name: 'Roll key reload test' }).click();
        await page.getByRole('button', { name: 'Roll key' }).click();
        await page.waitForURL(`${base}/account#keys`);
        assert.equal(await page.locator('#new-key').count(), 1);
        await page.reload();
        assert.equal(await page.locator('#new-key').count(), 0);
        assert.equal(await page.locator('tr[data-key-id]').count(), 2, 'the rolled key and its successor');
        assert.equal(await keysOfAccount(), 2);

        // The form's URL itself answers: a GET goes to its section.
        await page.goto(`${base}/account/keys`);
        assert.equal(page.url(), `${base}/account#keys`);
        await page.goto(`${base}/account/webhooks`);
        assert.equal(page.url(), `${base}/account#webhooks`);

        // A refused webhook (far down the page): the error is at the top of the page and next to the
        // field, the field has the focus, and the window shows it.
        await page.getByLabel('Endpoint URL').fill(receiver.url);
        await page.getByRole('checkbox', { name: /^funding\.created\b/ }).check();
        await page.getByLabel('Countries').fill('Atlantis');
        await page.getByRole('button', { name: 'Create webhook' }).click();
        await page.waitForURL(`${base}/account/webhooks`);
        const fieldError = page.locator('#new-webhook-countries-error');
        assert.match(await text(fieldError), /countries/);
        assert.equal(await focusedId(page), 'new-webhook-countries');
        assert.ok(await inViewport(fieldError), 'the error next to the field is in view');
        assert.ok(await inViewport(page.locator('#new-webhook-countries')), 'the field is in view');
        const summary = page.locator('main .alert--error').first();
        assert.match(await text(summary), /countries/);
        assert.ok(
          await summary.evaluate((element) => element.getBoundingClientRect().top + window.scrollY < window.innerHeight),
          'the error at the top of the page is within the first screen',
        );
        assert.equal(await webhooksOfAccount(), 0);
        await shot(page, 'refused-webhook');
        // Its link leads back to the field.
        await page.evaluate(() => window.scrollTo(0, 0));
        await shot(page, 'refused-webhook-top');
        await summary.getByRole('link', { name: 'Go to the form' }).click();
        await page.waitForURL(`${base}/account/webhooks#new-webhook-countries`);

        // Fixed: created. The webhook's page shows the secret once; reloads create nothing more.
        await page.getByLabel('Countries').fill('US');
        await page.getByRole('button', { name: 'Create webhook' }).click();
        await page.waitForURL(new RegExp(`^${base}/account/webhooks/[0-9a-f-]{36}$`));
        const webhookUrl = page.url();
        assert.match(await page.locator('#new-secret').inputValue(), /^whsec_/);
        await page.reload();
        assert.equal(await page.locator('#new-secret').count(), 0, 'the secret is shown once');
        await page.goto(`${base}/account`);
        assert.equal(await page.locator('.webhook-item').count(), 1);
        assert.equal(await webhooksOfAccount(), 1);

        // A test event, then reloads: one event reached the receiver.
        await page.goto(webhookUrl);
        const before = receiver.received.length;
        await page.getByRole('button', { name: 'Send test event' }).click();
        await page.locator('#test-outcome').waitFor();
        assert.equal(page.url(), webhookUrl);
        await page.reload();
        await page.reload();
        assert.equal(await page.locator('#test-outcome').count(), 0, 'the outcome is shown once');
        assert.equal(receiver.received.length, before + 1, 'a reload sends no second test event');

        // A refused edit on the webhook's page: error at the top and at the field, focused, in view.
        await page.locator('#edit-webhook-url').fill('ftp://example.com/hook');
        // type=url accepts ftp: the browser sends it, the service refuses it.
        await page.getByRole('button', { name: 'Save changes' }).click();
        await page.waitForURL(webhookUrl);
        // The refused page has the same URL as the one it replaces: wait for the page itself.
        await page.locator('#edit-webhook-url-error').waitFor();
        await page
          .waitForFunction(() => document.activeElement?.id === 'edit-webhook-url', undefined, { timeout: 5000 })
          .catch(() => undefined);
        assert.equal(await focusedId(page), 'edit-webhook-url');
        assert.ok(await inViewport(page.locator('#edit-webhook-url-error')));
        assert.match(await text(page.locator('main .alert--error').first()), /endpoint_url/);
      } finally {
        await close();
      }
    },
  );
});
