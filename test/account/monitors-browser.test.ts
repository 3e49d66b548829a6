// Monitors on the account page in real Chromium (the Debian package), against a real receiver on
// loopback: a refused create shows the service's message and creates nothing (nor does a post
// without the page's CSRF token); a monitor created with a webhook shows its secret once; targets
// are added pasted and from CSV files (a named column with a quoted field, and a file without a
// header), resolved ones with their company's name and pending ones marked; a new signal about a
// watched company reaches the receiver and shows as the target's last signal and in the monitor's
// last deliveries; rename (a blank name refused), pause and resume, delete.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { it } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { companyRecord, fundingRecord } from '../fixtures.js';
import { describeOnOneStore } from '../helpers.js';
import { ADMIN_TOKEN, importRecords } from '../ingest/support.js';
import { chromiumMissing, signUpAndIn, startPortalSession } from './chromium.js';

const ACME = companyRecord({
  name: 'Acme Robotics',
  website: 'https://www.acme-robotics.com',
  linkedinUrl: 'https://www.linkedin.com/company/acme-robotics',
  headquartersCountry: 'US',
});
const GLOBEX = companyRecord({
  name: 'Globex',
  website: 'https://globex.io',
  linkedinUrl: 'https://www.linkedin.com/company/globex',
  headquartersCountry: 'DE',
});

const text = async (locator: Locator) => (await locator.innerText()).replace(/\s+/g, ' ').trim();

/** The targets table of a monitor, as its rows read: value, status, company, last signal. */
async function targetRows(item: Locator): Promise<string[][]> {
  const rows = item.locator('[data-monitor-targets] tbody tr');
  const out: string[][] = [];
  for (const row of await rows.all()) out.push(await Promise.all((await row.locator('td').all()).map(text)));
  return out.sort((a, b) => a[0]!.localeCompare(b[0]!));
}

// On both stores: the monitors, their targets and the delivery log the card reads live in either.
describeOnOneStore('monitors on the account page in Chromium', (backend) => {
  it(
    'create (a refusal shown first), add targets pasted and from CSV files, see them resolve, rename, pause, delete',
    { skip: chromiumMissing, timeout: 90_000 },
    async () => {
      const session = await startPortalSession({ ADMIN_TOKEN }, backend);
      const dir = mkdtempSync(join(tmpdir(), 'dealsignal-monitors-browser-'));
      try {
        const { app, db, base, browser, receiver, shot } = session;
        await importRecords(app, 'companies', [ACME, GLOBEX]);
        const page: Page = browser.pages()[0] ?? (await browser.newPage());
        const email = await signUpAndIn(page, base, 'monitors-browser');
        const [account] = await db.query<{ id: number }>('SELECT id::int AS id FROM accounts WHERE email = $1', [email]);
        const monitorCount = async () =>
          (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM monitors WHERE account_id = $1', [account!.id]))[0]!.n;

        const card = page.locator('#monitors');
        const notice = card.locator('[data-monitors-notice]');
        await card.locator('[data-monitor-list] .empty').waitFor();
        assert.match(await text(card.locator('[data-monitor-list]')), /No monitors yet/);

        // No signal type chosen: said in the browser, nothing sent.
        const create = card.locator('#new-monitor');
        await page.getByLabel('Monitor name').fill('Target accounts');
        await page.getByRole('button', { name: 'Create monitor' }).click();
        const createError = create.locator('[data-monitor-error]');
        await createError.waitFor({ state: 'visible' });
        assert.equal(await text(createError), 'Choose at least one signal type.');
        // A private address: refused by the service, its message shown, nothing created.
        await create.getByLabel('Funding rounds').check();
        await create.getByLabel('Hiring').check();
        await page.getByLabel('Webhook URL').fill('http://10.0.0.1/hook');
        await page.getByRole('button', { name: 'Create monitor' }).click();
        await page.waitForFunction(() =>
          /webhook_url/.test(document.querySelector('#new-monitor [data-monitor-error]')?.textContent ?? ''),
        );
        assert.equal(await monitorCount(), 0);
        // The session's cookie without the page's CSRF token changes nothing.
        const forged = await page.request.post(`${base}/account/monitors`, {
          data: { _csrf: 'not-the-token', name: 'Forged', signal_types: ['hiring'] },
        });
        assert.equal(forged.status(), 403);
        assert.equal(((await forged.json()) as { error: string }).error, 'This page has expired: reload it and try again.');
        assert.equal(await monitorCount(), 0);
        await create.scrollIntoViewIfNeeded();
        await shot(page, 'monitors-refused');

        await page.getByLabel('Webhook URL').fill(receiver.url);
        await page.getByRole('button', { name: 'Create monitor' }).click();
        await notice.waitFor({ state: 'visible' });
        assert.equal(await text(notice), 'Monitor “Target accounts” created. Add the companies to watch to it.');
        assert.equal(await createError.isVisible(), false);
        // The webhook's secret, this once.
        const secret = card.locator('[data-monitor-secret]');
        assert.equal(await secret.isVisible(), true);
        assert.match(await card.locator('[data-monitor-secret-value]').inputValue(), /^whsec_/);
        assert.equal(await page.getByLabel('Monitor name').inputValue(), '', 'the form is cleared');

        const item = card.locator('.monitor-item');
        assert.equal(await item.count(), 1);
        assert.equal(await text(item.locator('[data-monitor-name]')), 'Target accounts');
        assert.equal(await text(item.locator('[data-monitor-state]')), 'Active');
        assert.deepEqual(await item.locator('.tag-list .tag').allInnerTexts(), ['Funding rounds', 'Hiring']);
        assert.equal(await text(item.locator('[data-monitor-destination]')), receiver.url);
        assert.equal(await text(item.locator('[data-monitor-count]')), '0 of 0 resolved');

        // Pasted: comma and line separated; one entry is no target.
        await item
          .getByLabel('Add targets', { exact: true })
          .fill('https://www.Acme-Robotics.com/about, unknown-startup.dev\nnot a domain\n');
        await item.getByRole('button', { name: 'Add targets' }).click();
        await page.waitForFunction(() => /^To /.test(document.querySelector('[data-monitors-notice]')?.textContent ?? ''));
        assert.equal(
          await text(notice),
          'To “Target accounts”: 2 targets added: 1 resolved, 1 pending. Not a domain or LinkedIn URL, left out: not a domain.',
        );
        assert.equal(await text(item.locator('[data-monitor-count]')), '1 of 2 resolved');

        // A CRM export: the Website column is the one read (a quoted field with a comma before it).
        const crm = join(dir, 'accounts.csv');
        writeFileSync(
          crm,
          '\ufeffCompany,Notes,Website\r\n' +
            'Globex,"Big, old",https://globex.io\r\n' +
            'Acme,dup,acme-robotics.com\r\n' +
            'New Co,,newco.example\r\n' +
            'No Site,,\r\n',
        );
        await item.locator('[data-monitor-file]').setInputFiles(crm);
        await page.waitForFunction(() =>
          /read from accounts\.csv/.test(document.querySelector('.monitor-item [data-monitor-outcome]')?.textContent ?? ''),
        );
        assert.equal(
          await text(item.locator('[data-monitor-outcome]')),
          '3 targets read from accounts.csv: check them, then add them.',
        );
        assert.equal(
          await item.getByLabel('Add targets', { exact: true }).inputValue(),
          'https://globex.io\nacme-robotics.com\nnewco.example',
        );
        await item.getByRole('button', { name: 'Add targets' }).click();
        await page.waitForFunction(() =>
          /already watched/.test(document.querySelector('[data-monitors-notice]')?.textContent ?? ''),
        );
        assert.equal(await text(notice), 'To “Target accounts”: 2 targets added: 1 resolved, 1 pending. 1 already watched.');

        // A file without a header: the first column, its first line a target too.
        const plain = join(dir, 'more.csv');
        writeFileSync(plain, 'linkedin.com/company/globex,Globex page\nnewco.example,again\n');
        await item.locator('[data-monitor-file]').setInputFiles(plain);
        await page.waitForFunction(() =>
          /read from more\.csv/.test(document.querySelector('.monitor-item [data-monitor-outcome]')?.textContent ?? ''),
        );
        await item.getByRole('button', { name: 'Add targets' }).click();
        await page.waitForFunction(() =>
          /1 target added/.test(document.querySelector('[data-monitors-notice]')?.textContent ?? ''),
        );
        assert.equal(await text(notice), 'To “Target accounts”: 1 target added: 1 resolved, 0 pending. 1 already watched.');
        assert.equal(await text(item.locator('[data-monitor-count]')), '3 of 5 resolved');

        // The targets: resolved ones with their company, pending ones marked.
        await item.locator('[data-monitor-details="targets"] summary').click();
        assert.deepEqual(await targetRows(item), [
          ['acme-robotics.com', 'Resolved', 'Acme Robotics', '—'],
          ['globex.io', 'Resolved', 'Globex', '—'],
          ['linkedin.com/company/globex', 'Resolved', 'Globex', '—'],
          ['newco.example', 'Pending', '—', '—'],
          ['unknown-startup.dev', 'Pending', '—', '—'],
        ]);
        await item.locator('[data-monitor-details="deliveries"] summary').click();
        assert.match(await text(item.locator('[data-monitor-details="deliveries"]')), /Nothing sent yet/);
        await item.scrollIntoViewIfNeeded();
        await shot(page, 'monitors-targets');

        // A funding round for Acme: sent to the receiver, then seen on the page.
        const announced = new Date().toISOString();
        await importRecords(app, 'funding', [
          fundingRecord({
            company_name: 'Acme Robotics',
            date_seen: announced,
            company_info: { ...fundingRecord().company_info, name: 'Acme Robotics', website: 'https://acme-robotics.com' },
            contact_info: [],
          }),
        ]);
        await receiver.waitFor(1, 20_000);
        const delivered = item.locator('[data-monitor-deliveries] tbody tr');
        for (const deadline = Date.now() + 10_000; ;) {
          await page.reload();
          await item.locator('[data-monitor-name]').waitFor();
          if ((await delivered.count()) > 0 && /Delivered/.test((await delivered.first().textContent()) ?? '')) break;
          assert.ok(Date.now() < deadline, 'the delivery shows as delivered');
          await page.waitForTimeout(200);
        }
        await item.locator('[data-monitor-details="deliveries"] summary').click();
        await item.locator('[data-monitor-details="targets"] summary').click();
        assert.match(await text(delivered.first()), /^monitor\.signal Delivered \w{3} \d{1,2}, \d{4}, \d\d:\d\d UTC$/);
        const acme = (await targetRows(item)).find((row) => row[0] === 'acme-robotics.com')!;
        assert.match(acme[3]!, /^Funding rounds, \w{3} \d{1,2}, \d{4}$/);
        assert.equal(await secret.isVisible(), false, 'the secret is not shown again');
        await item.locator('[data-monitor-details="deliveries"]').scrollIntoViewIfNeeded();
        await shot(page, 'monitors-delivered');

        // Rename.
        await item.getByLabel('New name for Target accounts').fill('Key accounts');
        await item.getByRole('button', { name: 'Rename' }).click();
        await page.waitForFunction(() => /renamed/.test(document.querySelector('[data-monitors-notice]')?.textContent ?? ''));
        assert.equal(await text(notice), 'Monitor renamed “Key accounts”.');
        assert.equal(await text(item.locator('[data-monitor-name]')), 'Key accounts');
        // A rename to nothing is refused with the page's message, and changes nothing.
        await item.getByLabel('New name for Key accounts').fill('   ');
        await item.getByRole('button', { name: 'Rename' }).click();
        await page.waitForFunction(() =>
          /Give the monitor a name/.test(document.querySelector('.monitor-item [data-monitor-error]')?.textContent ?? ''),
        );
        assert.equal(await text(item.locator('[data-monitor-name]')), 'Key accounts');

        // Pause and resume.
        await item.getByRole('button', { name: 'Pause Key accounts' }).click();
        await page.waitForFunction(() => /paused/.test(document.querySelector('[data-monitors-notice]')?.textContent ?? ''));
        assert.equal(await text(item.locator('[data-monitor-state]')), 'Paused');
        assert.equal(
          (await db.query<{ active: boolean }>('SELECT active FROM monitors WHERE account_id = $1', [account!.id]))[0]!.active,
          false,
        );
        await shot(page, 'monitors-paused');
        await item.getByRole('button', { name: 'Resume Key accounts' }).click();
        await page.waitForFunction(() => /resumed/.test(document.querySelector('[data-monitors-notice]')?.textContent ?? ''));
        assert.equal(await text(item.locator('[data-monitor-state]')), 'Active');

        // Delete, once confirmed.
        page.once('dialog', (dialog) => void dialog.accept());
        await item.getByRole('button', { name: 'Delete Key accounts' }).click();
        await page.waitForFunction(() => /deleted/.test(document.querySelector('[data-monitors-notice]')?.textContent ?? ''));
        assert.equal(await text(notice), 'Monitor “Key accounts” deleted.');
        assert.match(await text(card.locator('[data-monitor-list]')), /No monitors yet/);
        assert.equal(await monitorCount(), 0);
      } finally {
        rmSync(dir, { recursive: true, force: true });
        await session.close();
      }
    },
  );
});
