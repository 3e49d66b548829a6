// Enriching a list on the account page in real Chromium (the Debian package): upload a CSV file (a
// BOM, semicolons, a quoted field with the delimiter and a quote in it), see the columns guessed and
// correct one, watch the job finish, download the enriched CSV (the file's own columns first, then
// the company's and each signal type's count, latest date and summary) and the JSON; a malformed
// file is refused with a message naming its line, and nothing is charged for it.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { it } from 'node:test';
import type { Page } from 'playwright-core';
import { companyRecord, hiringRecord, insertCompanies } from '../fixtures.js';
import { ingest } from '../../src/ingest/importer.js';
import { chromiumMissing, startPortalSession, signUpAndIn } from './chromium.js';
import { describeOnOneStore } from '../helpers.js';

const ACME = companyRecord({
  name: 'Acme Robotics',
  website: 'https://www.acme-robotics.com',
  linkedinUrl: null,
  headquartersCountry: 'US',
});
const TWIN_US = companyRecord({
  name: 'Twin Labs',
  website: 'https://twinlabs.us',
  linkedinUrl: null,
  headquartersCountry: 'US',
});
const TWIN_GB = companyRecord({
  name: 'Twin Labs',
  website: 'https://twinlabs.co.uk',
  linkedinUrl: null,
  headquartersCountry: 'GB',
});

/** A CSV the way a spreadsheet writes it, parsed back by a minimal RFC 4180 reader (the test's own). */
function readCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') {
        quoted = false;
      } else {
        field += c;
      }
    } else if (c === '"') {
      quoted = true;
    } else if (c === ',' || c === '\n') {
      row.push(field);
      field = '';
      if (c === '\n') {
        rows.push(row);
        row = [];
      }
    } else if (c !== '\r') {
      field += c;
    }
  }
  return rows;
}

// On both stores: the jobs, their worker and the page's routes run on each.
describeOnOneStore('enriching a list on the account page in Chromium', (backend) => {
  it(
    'upload, map, enrich, download the CSV and the JSON; a malformed file names its line',
    { skip: chromiumMissing, timeout: 120_000 },
    async () => {
      const session = await startPortalSession({ ENRICHMENT_WORKER: 'true', ENRICHMENT_POLL_MS: '50' }, backend);
      const dir = mkdtempSync(join(tmpdir(), 'dealsignal-enrich-browser-'));
      try {
        const { db, base, browser, shot } = session;
        await insertCompanies(db, [ACME, TWIN_US, TWIN_GB]);
        const posting = hiringRecord({
          title: 'Robotics Engineer',
          location: 'Boston, MA',
          companyName: 'Acme',
          companyWebsite: 'https://acme-robotics.com',
        });
        await ingest(db, 'hiring', [Buffer.from(`${JSON.stringify(posting)}\n`)], { skipInvalid: false });
        const page: Page = browser.pages()[0] ?? (await browser.newPage());

        const email = await signUpAndIn(page, base, 'enrich-browser');
        const [account] = await db.query<{ id: number }>('SELECT id::int AS id FROM accounts WHERE email = $1', [email]);
        const charged = async () =>
          (
            await db.query<{ n: number }>(
              `SELECT coalesce(-sum(delta), 0)::int AS n FROM credit_ledger WHERE account_id = $1 AND endpoint = 'csv.enrichment'`,
              [account!.id],
            )
          )[0]!.n;

        // A malformed file: a quote never closed, on line 3.
        const broken = join(dir, 'broken.csv');
        writeFileSync(broken, 'Company,Website\nAcme,acme-robotics.com\n"Twin Labs,twinlabs.us\nOther,other.example\n');
        await page.locator('#enrich-file').setInputFiles(broken);
        const error = page.locator('[data-enrich-error]');
        await error.waitFor({ state: 'visible' });
        assert.match(await error.innerText(), /^broken\.csv: Line 3: a quoted field is not closed/);
        assert.equal(await page.locator('[data-enrich-mapping]').isVisible(), false);
        // More fields than the header names, on line 2.
        const wide = join(dir, 'wide.csv');
        writeFileSync(wide, 'Company,Website\nAcme,acme-robotics.com,extra\n');
        await page.locator('#enrich-file').setInputFiles(wide);
        await page.waitForFunction(() =>
          /^wide\.csv: Line 2: 3 fields, but the header names 2 columns/.test(
            document.querySelector('[data-enrich-error]')?.textContent ?? '',
          ),
        );
        await shot(page, 'enrichment-malformed');
        assert.equal(await charged(), 0);

        // The list: a BOM, semicolons, a quoted field holding a semicolon and a quote.
        const file = join(dir, 'targets.csv');
        writeFileSync(
          file,
          '\ufeffAccount Name;Website;HQ;Notes\r\n' +
            'Acme;https://www.acme-robotics.com/;US;"Met at ""RoboCon""; follow up"\r\n' +
            'Twin Labs;;GB;\r\n' +
            'Nobody Knows;nobody.example;;cold\r\n',
        );
        await page.locator('#enrich-file').setInputFiles(file);
        await page.locator('[data-enrich-mapping]').waitFor({ state: 'visible' });
        assert.equal(await page.locator('[data-enrich-error]').isVisible(), false);
        // Guessed from the headers: the name and the website; the country is chosen by hand.
        assert.equal(await page.getByLabel('Company name').locator('option:checked').innerText(), 'Account Name');
        assert.equal(await page.getByLabel('Website or domain').locator('option:checked').innerText(), 'Website');
        assert.equal(await page.getByLabel('Country').locator('option:checked').innerText(), '(none)');
        await page.getByLabel('Country').selectOption({ label: 'HQ' });
        assert.match(await page.locator('[data-enrich-rows]').innerText(), /^3 companies in targets\.csv/);
        await page.getByRole('button', { name: 'Enrich' }).click();
        await page.locator('[data-enrich-downloads]').waitFor({ state: 'visible', timeout: 30_000 });
        assert.match(await page.locator('[data-enrich-status]').innerText(), /^Done: 2 of 3 matched\./);
        await shot(page, 'enrichment-done');
        assert.equal(await charged(), 1);

        const [csvDownload] = await Promise.all([
          page.waitForEvent('download'),
          page.getByRole('link', { name: 'Download enriched CSV' }).click(),
        ]);
        assert.equal(csvDownload.suggestedFilename(), 'targets-enriched.csv');
        const csvText = readFileSync((await csvDownload.path())!, 'utf8');
        assert.equal(csvText.charCodeAt(0), 0xfeff, 'a BOM, for spreadsheets');
        const [header, acme, twin, nobody] = readCsv(csvText.slice(1));
        assert.deepEqual(header!.slice(0, 6), [
          'Account Name',
          'Website',
          'HQ',
          'Notes',
          'dealsignal_matched',
          'dealsignal_match_confidence',
        ]);
        for (const type of ['funding', 'acquisition', 'hiring', 'job_change', 'investors']) {
          assert.ok(header!.includes(`${type}_count`) && header!.includes(`${type}_latest_summary`), type);
        }
        const column = (row: string[], name: string) => row[header!.indexOf(name)];
        // The file's own cells as they were, the quoted one included.
        assert.deepEqual(acme!.slice(0, 4), ['Acme', 'https://www.acme-robotics.com/', 'US', 'Met at "RoboCon"; follow up']);
        assert.deepEqual(
          [
            'dealsignal_matched',
            'dealsignal_match_confidence',
            'dealsignal_company_id',
            'dealsignal_company_name',
            'hiring_count',
            'hiring_latest_summary',
          ].map((name) => column(acme!, name)),
          ['yes', 'exact', ACME.id, 'Acme Robotics', '1', 'Robotics Engineer (Boston, MA)'],
        );
        // Twin Labs by name, the GB one chosen by the country column.
        assert.deepEqual(
          [column(twin!, 'dealsignal_company_id'), column(twin!, 'dealsignal_match_confidence')],
          [TWIN_GB.id, 'fuzzy'],
        );
        assert.deepEqual([column(nobody!, 'dealsignal_matched'), column(nobody!, 'Notes')], ['no', 'cold']);

        const [jsonDownload] = await Promise.all([
          page.waitForEvent('download'),
          page.getByRole('link', { name: 'Download JSON' }).click(),
        ]);
        const json = JSON.parse(readFileSync((await jsonDownload.path())!, 'utf8')) as {
          summary: { totalInputs: number; matched: number };
          results: { companyId: string | null; input: Record<string, string> }[];
        };
        assert.deepEqual([json.summary.totalInputs, json.summary.matched], [3, 2]);
        assert.deepEqual(
          json.results.map((result) => result.companyId),
          [ACME.id, TWIN_GB.id, null],
        );
        assert.equal(json.results[0]!.input.Notes, 'Met at "RoboCon"; follow up');
      } finally {
        rmSync(dir, { recursive: true, force: true });
        await session.close();
      }
    },
  );
});
