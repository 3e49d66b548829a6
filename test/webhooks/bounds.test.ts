// Every stored webhook field is bounded: unknown filter keys are refused (400 naming the key), each
// field has a length or count bound in the schema (and so in OpenAPI), a body over the webhooks
// API's limit is a 413 with its own code, endpoint URLs are stored normalised (the URL stored is
// the one checked and called), list answers and the profile page stay small, and rows stored
// before the bounds are brought within them by migration 015.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, beforeEach, it } from 'node:test';
import { describeEach, makeKey, type TestContext } from '../helpers.js';
import { startWebApp, uniqueEmail, WebClient } from '../account/web-client.js';
import { startReceiver, type TestReceiver } from './receiver.js';
import { webhookApi, type WebhookApi } from './support.js';

const MIGRATION_015 = readFileSync(new URL('../../migrations/015_webhook_field_bounds.sql', import.meta.url), 'utf8');

/**
 * Filters with values at their bound and the most characters allowed in all (4,096), for a webhook
 * of system.test (sent only by the test endpoint), which no key narrows, so any text is a valid value.
 */
const FULL_FILTERS = {
  teamSize: 'x'.repeat(1000),
  roundFlavor: 'y'.repeat(1000),
  healthScore: 'z'.repeat(1000),
  search: 'w'.repeat(1000),
  categories: 'v'.repeat(96),
};

describeEach('webhook field bounds', (backend) => {
  let ctx: TestContext;
  let receiver: TestReceiver;
  let api: WebhookApi;
  let key: string;

  before(async () => {
    // Room for more webhooks than the profile page lists.
    ctx = await startWebApp(backend, { WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8', WEBHOOK_MAX_PER_ACCOUNT: '25' });
    receiver = await startReceiver();
  });
  after(async () => {
    await ctx.close();
    await receiver.close();
  });
  beforeEach(async () => {
    key = (await makeKey(ctx.db, 'pro')).key;
    api = webhookApi(ctx.app, key);
    receiver.received.length = 0;
  });

  const count = async () => (await api.call('GET', '/api/v2/webhooks')).body.data.length as number;

  it('refuses an unknown filter key with a 400 naming it, on create and on update, and stores nothing', async () => {
    const created = await api.create({
      endpoint_url: receiver.url,
      event_types: ['funding.created'],
      filters: { countries: 'US', colour: 'red' },
    });
    assert.equal(created.status, 400, JSON.stringify(created.body));
    assert.equal(created.body.success, false);
    assert.equal(created.body.code, 'bad_request');
    assert.match(created.body.error, /^filters: unknown key "colour"; allowed keys: countries, categories, search/);
    assert.equal(await count(), 0, 'nothing stored');

    // camelCase bodies are held to the same rule.
    const camel = await api.create({ endpointUrl: receiver.url, eventTypes: ['funding.created'], filters: { round: 'seed' } });
    assert.equal(camel.status, 400);
    assert.match(camel.body.error, /unknown key "round"/);

    const ok = await api.create({ endpoint_url: receiver.url, event_types: ['funding.created'], filters: { teamSize: '11-50' } });
    assert.equal(ok.status, 201, JSON.stringify(ok.body));
    assert.deepEqual(ok.body.data.filters, { teamSize: '11-50' }, 'the other published keys are accepted and kept');
    const updated = await api.call('PUT', `/api/v2/webhooks/${ok.id}`, { filters: { countries: 'US', ['x'.repeat(5000)]: '1' } });
    assert.equal(updated.status, 400);
    assert.match(updated.body.error, /^filters: unknown key "x{56}\.\.\.; allowed keys: /, 'a long key is quoted short');
    assert.deepEqual((await api.call('GET', `/api/v2/webhooks/${ok.id}`)).body.data.filters, { teamSize: '11-50' });
  });

  it('holds every field to its bound: 400 naming the field', async () => {
    const base = { endpoint_url: receiver.url, event_types: ['funding.created'] };
    const cases: [unknown, RegExp][] = [
      [{ ...base, endpoint_url: `${receiver.url}/${'a'.repeat(500)}` }, /^endpoint_url must be at most 500 characters$/],
      // Within 500 as sent, over it once normalised (each space becomes %20).
      [
        { ...base, endpoint_url: `${receiver.url}/${' x'.repeat(200)}` },
        /^endpoint_url must be at most 500 characters once normalised/,
      ],
      [{ ...base, event_types: Array(101).fill('funding.created') }, /^event_types must hold at most 100 items$/],
      [{ ...base, filters: { countries: 'US,'.repeat(334) } }, /^filters\.countries must be at most 1000 characters$/],
      [
        { ...base, filters: { query: `/api/v1/funding?country=${'x'.repeat(4096)}` } },
        /^filters\.query must be at most 4096 characters$/,
      ],
      [
        { ...base, filters: { ...FULL_FILTERS, categories: 'v'.repeat(97) } },
        /^filters must hold at most 4096 characters of values in all \(got 4097\)$/,
      ],
    ];
    for (const [body, message] of cases) {
      const res = await api.create(body);
      assert.equal(res.status, 400, JSON.stringify(res.body).slice(0, 300));
      assert.equal(res.body.code, 'bad_request');
      assert.match(res.body.error, message);
    }
    assert.equal(await count(), 0);
    const full = await api.create({ ...base, event_types: ['system.test'], filters: FULL_FILTERS });
    assert.equal(full.status, 201, JSON.stringify(full.body).slice(0, 300));
  });

  it('documents the bounds in the OpenAPI document', async () => {
    const doc = (await ctx.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const webhook = doc.components.schemas.Webhook.properties;
    assert.equal(webhook.endpoint_url.maxLength, 500);
    assert.equal(webhook.event_types.maxItems, 16);
    assert.equal(webhook.filters.additionalProperties, false);
    assert.equal(webhook.filters.properties.countries.maxLength, 1000);
    assert.equal(webhook.filters.properties.query.maxLength, 4096);
    assert.match(webhook.filters.description, /4096 characters in all/);
    assert.match(webhook.endpoint_url.description, /new URL\(url\)\.href/);
    const create = doc.paths['/api/v2/webhooks'].post;
    assert.ok(create.responses['413'], 'createWebhook documents its 413');
    assert.ok(doc.components.schemas.WebhookError.properties.code.enum.includes('payload_too_large'));
  });

  it('a body over 64 KiB is a 413 with code payload_too_large, and nothing is stored', async () => {
    const big = { endpoint_url: receiver.url, event_types: ['funding.created'], filters: { search: 'a'.repeat(70 * 1024) } };
    const res = await api.create(big);
    assert.equal(res.status, 413);
    assert.deepEqual(res.body, {
      success: false,
      error: "The body is larger than 64 KiB (a webhook's fields at their bounds take a few KiB)",
      code: 'payload_too_large',
    });
    assert.equal(await count(), 0);
    const created = await api.create({ endpoint_url: receiver.url, event_types: ['funding.created'] });
    const put = await api.call('PUT', `/api/v2/webhooks/${created.id}`, { filters: { search: 'a'.repeat(2 * 1024 * 1024) } });
    assert.equal(put.status, 413);
    assert.equal(put.body.code, 'payload_too_large');
  });

  it('stores the endpoint URL normalised (WHATWG), and checks and calls that URL', async () => {
    const port = new URL(receiver.url).port;
    const cases: [string, string][] = [
      [`HTTP://127.0.0.1:${port}/hooks`, `http://127.0.0.1:${port}/hooks`],
      [`http:/127.0.0.1:${port}/hooks`, `http://127.0.0.1:${port}/hooks`],
      [`http:\\\\127.0.0.1:${port}\\hooks\\a`, `http://127.0.0.1:${port}/hooks/a`],
      [`  http://127.0.0.1:${port}/hooks/b c?x=1#frag`, `http://127.0.0.1:${port}/hooks/b%20c?x=1#frag`],
      [`HTTP://127.0.0.1:80/x`, `http://127.0.0.1/x`],
    ];
    for (const [sent, stored] of cases) {
      const res = await api.create({ endpoint_url: sent, event_types: ['funding.created'] });
      assert.equal(res.status, 201, `${sent}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.data.endpoint_url, stored, sent);
      const [row] = await ctx.db.query<{ endpoint_url: string }>('SELECT endpoint_url FROM webhooks WHERE id = $1', [res.id]);
      assert.equal(row!.endpoint_url, stored, 'stored as shown');
      if (stored.includes(`:${port}/`)) {
        const test = await api.call('POST', `/api/v2/webhooks/${res.id}/test`);
        assert.equal(test.body.data.success, true, JSON.stringify(test.body));
        assert.equal(
          receiver.received.at(-1)!.url,
          new URL(stored).pathname + new URL(stored).search,
          'called at the stored URL',
        );
      }
      await api.call('DELETE', `/api/v2/webhooks/${res.id}`);
    }
    // An update is normalised the same way.
    const created = await api.create({ endpoint_url: receiver.url, event_types: ['funding.created'] });
    const put = await api.call('PUT', `/api/v2/webhooks/${created.id}`, { endpointUrl: `HTTP://127.0.0.1:${port}\\hooks` });
    assert.equal(put.body.data.endpoint_url, `http://127.0.0.1:${port}/hooks`);
    // Schemes other than http(s) are still refused.
    for (const url of ['ftp://127.0.0.1/x', 'javascript:alert(1)', 'http//127.0.0.1/x']) {
      assert.equal((await api.create({ endpoint_url: url, event_types: ['funding.created'] })).status, 400, url);
    }
  });

  it('keeps the list answer and the stored rows small with every webhook at its bounds', async () => {
    const longest = `${receiver.url}?${'q'.repeat(500 - receiver.url.length - 1)}`;
    for (let i = 0; i < 25; i += 1) {
      const res = await api.create({ endpoint_url: longest, event_types: ['system.test'], filters: FULL_FILTERS });
      assert.equal(res.status, 201, JSON.stringify(res.body).slice(0, 300));
    }
    const [stored] = await ctx.db.query<{ bytes: number }>(
      `SELECT max(length(endpoint_url) + length(array_to_string(event_types, ',')) + length(filters::text))::int AS bytes
         FROM webhooks`,
    );
    assert.ok(stored!.bytes < 5000, `at most ~4.7 KB of fields per webhook, got ${stored!.bytes}`);
    const list = await ctx.app.inject({ method: 'GET', url: '/api/v2/webhooks', headers: { authorization: `Bearer ${key}` } });
    assert.equal(list.json().data.length, 25);
    assert.ok(list.body.length < 25 * 6000, `list of 25: ${list.body.length} bytes`);
    console.log(`per webhook at the bounds: ${stored!.bytes} characters stored; list of 25: ${list.body.length} bytes`);
  });

  it('the profile page lists the newest 20 webhooks and points to the API for the rest', async () => {
    const web = new WebClient(ctx.app);
    const email = uniqueEmail('bounds');
    await web.signUpAndIn(email);
    const { key: pageKey } = await web.createKey();
    const pageApi = webhookApi(ctx.app, pageKey);
    const ids: string[] = [];
    for (let i = 0; i < 22; i += 1) {
      const res = await pageApi.create({ endpoint_url: `${receiver.url}/${i}`, event_types: ['funding.created'] });
      assert.equal(res.status, 201);
      ids.push(res.id);
    }
    const page = await web.get('/account');
    const shown = [...page.body.matchAll(/class="webhook-item" data-webhook-id="([^"]+)"/g)].map((m) => m[1]);
    assert.deepEqual(shown, ids.slice(2).reverse(), 'the newest 20, newest first');
    assert.match(page.body, /data-webhooks-more/);
    assert.match(page.body, /GET \/api\/v2\/webhooks\?offset=20/);
    // The others keep their own pages.
    assert.equal((await web.get(`/account/webhooks/${ids[0]}`)).statusCode, 200);
  });

  it('migration 015 drops unknown keys and pauses a webhook whose filters break a bound, saying why', async () => {
    const a = await api.create({ endpoint_url: receiver.url, event_types: ['funding.created'], filters: { countries: 'US' } });
    const b = await api.create({ endpoint_url: receiver.url, event_types: ['funding.created'], filters: { countries: 'GB' } });
    const c = await api.create({ endpoint_url: receiver.url, event_types: ['funding.created'], filters: { countries: 'DE' } });
    // As rows stored before the bounds could be.
    await ctx.db.query(`UPDATE webhooks SET filters = $2::jsonb WHERE id = $1`, [
      a.id,
      JSON.stringify({ countries: 'US', colour: 'red', junk: 'j'.repeat(100_000) }),
    ]);
    await ctx.db.query(`UPDATE webhooks SET filters = $2::jsonb WHERE id = $1`, [
      b.id,
      JSON.stringify({ countries: 'GB', search: 's'.repeat(1001), other: 'x' }),
    ]);
    await ctx.db.exec(MIGRATION_015);
    const get = async (id: string) => (await api.call('GET', `/api/v2/webhooks/${id}`)).body.data;
    const first = await get(a.id);
    assert.deepEqual(first.filters, { countries: 'US' });
    assert.equal(first.active, true, 'dropping ignored keys changes nothing it matches');
    const second = await get(b.id);
    assert.deepEqual(second.filters, { countries: 'GB' });
    assert.equal(second.active, false);
    assert.match(second.paused_reason, /these were removed: filters\.search\. Without them it would match more events/);
    const third = await get(c.id);
    assert.deepEqual(
      [third.filters, third.active, third.paused_reason],
      [{ countries: 'DE' }, true, null],
      'within bounds: untouched',
    );
  });
});
