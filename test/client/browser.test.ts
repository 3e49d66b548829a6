// The built client runs in a browser: its ES modules are loaded by Chromium into a page on the API's
// origin (so no CORS is involved) and call the server with the browser's own fetch and Web Crypto.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS, chromiumMissing } from '../account/chromium.js';
import { startDemoApp } from '../demo-store.js';
import { backends, makeKey, type TestContext } from '../helpers.js';

const CLIENT_DIST = fileURLToPath(new URL('../../client/dist/', import.meta.url));
/** Where the page and the client's modules are served from, on the API's origin. */
const PREFIX = '/__client-under-test/';

describe('typed client in Chromium', { skip: chromiumMissing }, () => {
  let ctx: TestContext;
  let baseUrl: string;
  let browser: Browser;
  let apiKey: string;

  before(async () => {
    ctx = await startDemoApp(backends()[0]!);
    ({ key: apiKey } = await makeKey(ctx.db, 'pro'));
    baseUrl = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  });
  after(async () => {
    await browser?.close();
    await ctx?.close();
  });

  it('lists, walks pages, reports a typed error and verifies a signature with browser APIs only', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.route(`${baseUrl}${PREFIX}**`, (route) => {
      const name = new URL(route.request().url()).pathname.slice(PREFIX.length);
      if (name === 'index.html') return route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>client</title>' });
      return route.fulfill({ contentType: 'text/javascript', body: readFileSync(`${CLIENT_DIST}${name}`) });
    });
    await page.goto(`${baseUrl}${PREFIX}index.html`);
    const result = await page.evaluate(
      async ({ moduleUrl, apiKey, baseUrl }) => {
        const { DealSignal, DealSignalError, verifyWebhook } = await import(moduleUrl);
        const ds = new DealSignal({ apiKey, baseUrl });
        const first = await ds.v1.funding.list({ country: 'DE' });
        let walked = 0;
        for await (const investor of ds.v2.investors.all({ countries: 'DE', limit: 20 })) walked += investor.id ? 1 : 0;
        const { pagination } = await ds.v2.investors.list({ countries: 'DE', count: true });
        const error = await ds.v2.investors.list({ limit: 0 }).catch((err: unknown) => err);
        const secret = `whsec_${btoa(String.fromCharCode(...new Uint8Array(32).fill(7)))}`;
        const key = await crypto.subtle.importKey(
          'raw',
          new TextEncoder().encode(secret),
          { name: 'HMAC', hash: 'SHA-256' },
          false,
          ['sign'],
        );
        const body = '{"event_type":"system.test"}';
        const signature = Array.from(new Uint8Array(await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(body))), (b) =>
          b.toString(16).padStart(2, '0'),
        ).join('');
        const timestamp = String(Math.floor(Date.now() / 1000));
        return {
          v1Total: first.total,
          v1Records: first.data.length,
          walked,
          totalCount: pagination.totalCount,
          typedError: error instanceof DealSignalError,
          status: error.status,
          code: error.code,
          verified: await verifyWebhook(secret, body, { 'x-webhook-signature': signature, 'x-webhook-timestamp': timestamp }),
          forged: await verifyWebhook(secret, `${body} `, { 'x-webhook-signature': signature, 'x-webhook-timestamp': timestamp }),
        };
      },
      { moduleUrl: `${baseUrl}${PREFIX}index.js`, apiKey, baseUrl },
    );
    assert.deepEqual(errors, []);
    assert.ok(result.v1Total > 20 && result.v1Records === 20, JSON.stringify(result));
    assert.ok(result.totalCount > 40, JSON.stringify(result));
    assert.equal(result.walked, result.totalCount);
    assert.deepEqual(
      {
        typedError: result.typedError,
        status: result.status,
        code: result.code,
        verified: result.verified,
        forged: result.forged,
      },
      { typedError: true, status: 400, code: 'invalid_parameter', verified: true, forged: false },
    );
  });
});
