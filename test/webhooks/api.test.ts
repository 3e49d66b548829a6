// The webhooks management API as published (Signalbase 2.2): shapes, names in both cases, errors
// with their code, the 10-active limit, soft delete, secret rotation, the delivery log and retry.
import assert from 'node:assert/strict';
import { after, before, beforeEach, it } from 'node:test';
import { Value } from '@sinclair/typebox/value';
import { Webhook as WebhookSchema } from '../../src/webhooks/schemas.js';
import { describeEach, makeKey, startApp, type TestContext } from '../helpers.js';
import { verifyBoth, type TestReceiver } from './receiver.js';
import { webhookApi, webhookSuite, type WebhookApi } from './support.js';

describeEach('webhooks API', (backend) => {
  // No delivery worker: these tests are about management, test events and retries (sent at once).
  const suite = webhookSuite(backend, { WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8' }, { isolate: false });
  let ctx: TestContext;
  let receiver: TestReceiver;
  let api: WebhookApi;
  beforeEach(() => ({ ctx, receiver, api } = suite));

  it('creates with snake_case or camelCase, shows the secret once, then only its preview', async () => {
    const snake = await api.create({
      endpoint_url: receiver.url,
      event_types: ['funding.created', 'funding.created', 'job_change.created'],
      filters: { countries: 'US,GB' },
    });
    assert.equal(snake.status, 201);
    assert.match(snake.secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
    assert.deepEqual(snake.body.data.event_types, ['funding.created', 'job_change.created'], 'duplicates removed');
    assert.deepEqual(snake.body.meta, { endpoint: 'webhooks.create', creditsUsed: 0 });
    assert.ok(Value.Check(WebhookSchema, snake.body.data), 'matches the schema');
    assert.equal(snake.body.data.active, true);
    assert.equal(snake.body.data.last_modified_via, 'api');

    const camel = await api.create({ endpointUrl: receiver.url, eventTypes: ['investor.created'] });
    assert.equal(camel.status, 201);

    const list = await api.call('GET', '/api/v2/webhooks');
    assert.equal(list.status, 200);
    assert.deepEqual(list.body.pagination, { limit: 100, offset: 0, count: 2 });
    assert.deepEqual(
      list.body.data.map((w: { id: string }) => w.id),
      [camel.id, snake.id],
      'newest first',
    );
    for (const webhook of list.body.data) {
      assert.equal(webhook.secret, undefined);
      assert.match(webhook.secret_preview, /^\u2026.{4}$/);
    }
    const one = await api.call('GET', `/api/v2/webhooks/${snake.id}`);
    assert.equal(one.body.data.secret_preview, `\u2026${snake.secret.slice(-4)}`);
    assert.equal(one.body.meta.endpoint, 'webhooks.get');
    assert.equal((await api.call('GET', '/api/v2/webhooks?limit=1&offset=1')).body.data[0].id, snake.id);
  });

  it('refuses bad input with a 400 naming it, code bad_request', async () => {
    const cases: [unknown, RegExp, string | undefined][] = [
      [{ event_types: ['funding.created'] }, /endpoint_url is required/, 'endpoint_url'],
      [{ endpoint_url: receiver.url }, /event_types is required/, 'event_types'],
      [{ endpoint_url: 'ftp://example.com/x', event_types: ['funding.created'] }, /http or https/, 'endpoint_url'],
      [{ endpoint_url: 'not a url', event_types: ['funding.created'] }, /http or https/, 'endpoint_url'],
      [{ endpoint_url: `https://example.com/${'x'.repeat(500)}`, event_types: ['funding.created'] }, /500/, 'endpoint_url'],
      [{ endpoint_url: receiver.url, event_types: ['funding.deleted'] }, /unknown event type "funding.deleted"/, 'event_types'],
      [{ endpoint_url: receiver.url, event_types: [] }, /at least one/, 'event_types'],
      [
        { endpoint_url: receiver.url, event_types: ['funding.created'], filters: { countries: 7 } },
        /filters.countries must be a string/,
        'filters.countries',
      ],
      [
        { endpoint_url: receiver.url, event_types: ['acquisition.created'], filters: { countries: 'US,XX' } },
        /filters.countries/,
        'filters.countries',
      ],
      [
        { endpoint_url: receiver.url, event_types: ['acquisition.created'], filters: { dateFrom: '2026-13-01' } },
        /filters.dateFrom/,
        'filters.dateFrom',
      ],
      [
        {
          endpoint_url: receiver.url,
          event_types: ['job_change.created'],
          filters: { query: '/api/v2/signals/job-changes?positions=astronaut' },
        },
        /filters.query: .*positions/,
        'filters.query',
      ],
      [
        {
          endpoint_url: receiver.url,
          event_types: ['new_company.created'],
          filters: { query: '/api/v2/companies?countries=DE&has_signals=funding_round' },
        },
        /filters.query: a filter that reads other records .*narrows the list, not events/,
        'filters.query',
      ],
      [
        {
          endpoint_url: receiver.url,
          event_types: ['job_change.created'],
          filters: { query: '/api/v2/signals/job-changes?colour=red' },
        },
        /filters.query: .*colour/,
        'filters.query',
      ],
      [
        {
          endpoint_url: receiver.url,
          event_types: ['funding.created'],
          filters: { query: '/api/v2/signals/job-changes?positions=cto' },
        },
        /job_change.created/,
        'filters.query',
      ],
      [
        { endpoint_url: receiver.url, event_types: ['job_change.created'], filters: { query: '/api/v9/things' } },
        /list endpoint/,
        'filters.query',
      ],
      [
        {
          endpoint_url: receiver.url,
          event_types: ['job_change.created'],
          filters: { query: '/api/v2/signals/job-changes?page=2' },
        },
        /page/,
        'filters.query',
      ],
      [
        {
          endpoint_url: receiver.url,
          event_types: ['job_change.created'],
          filters: { query: '/api/v2/signals/job-changes', search: 'x' },
        },
        /cannot be combined/,
        'filters.query',
      ],
      [{ endpoint_url: 'http://10.1.2.3/hook', event_types: ['funding.created'] }, /private/, 'endpoint_url'],
      [
        { endpoint_url: 'http://169.254.169.254/latest/meta-data', event_types: ['funding.created'] },
        /metadata|link-local/,
        'endpoint_url',
      ],
      [[1, 2], /object/, undefined],
    ];
    for (const [payload, message, param] of cases) {
      const res = await api.call('POST', '/api/v2/webhooks', payload);
      assert.equal(res.status, 400, JSON.stringify(payload).slice(0, 120));
      assert.equal(res.body.success, false);
      assert.equal(res.body.code, 'bad_request');
      assert.match(res.body.error, message, JSON.stringify(payload).slice(0, 120));
      // The field at fault, as the rest of v2 names it (absent when the body as a whole is wrong).
      assert.equal(res.body.param, param, JSON.stringify(payload).slice(0, 120));
    }
    assert.equal((await api.call('GET', '/api/v2/webhooks')).body.data.length, 0, 'nothing was stored');
  });

  it('answers 401, 404 and unknown parameters in the published error shape', async () => {
    const anonymous = await ctx.app.inject({ method: 'GET', url: '/api/v2/webhooks' });
    assert.equal(anonymous.statusCode, 401);
    assert.equal(anonymous.json().code, 'invalid_api_key');
    const missing = await api.call('GET', '/api/v2/webhooks/3f9a1c7e-2b4d-4e6a-9f1b-8c2d3e4f5a6b');
    assert.deepEqual(missing.body, { success: false, error: 'Webhook not found', code: 'not_found' });
    assert.equal((await api.call('GET', '/api/v2/webhooks/not-a-uuid')).status, 404);
    const unknown = await api.call('GET', '/api/v2/webhooks?colour=red');
    assert.equal(unknown.status, 400);
    assert.equal(unknown.body.code, 'bad_request');
    assert.equal(unknown.body.param, 'colour');
  });

  it("keeps accounts apart: another account's webhook is a 404 for every action", async () => {
    const mine = await api.create({ endpoint_url: receiver.url, event_types: ['funding.created'] });
    const other = webhookApi(ctx.app, (await makeKey(ctx.db, 'pro')).key);
    for (const [method, path] of [
      ['GET', ''],
      ['PUT', ''],
      ['DELETE', ''],
      ['POST', '/test'],
      ['GET', '/deliveries'],
    ] as const) {
      const res = await other.call(
        method,
        `/api/v2/webhooks/${mine.id}${path}`,
        method === 'PUT' ? { active: false } : undefined,
      );
      assert.equal(res.status, 404, `${method} ${path}`);
    }
    assert.equal((await api.call('GET', `/api/v2/webhooks/${mine.id}`)).body.data.active, true);
    assert.equal(receiver.received.length, 0);
  });

  it('allows 10 webhooks per account, paused ones included; only a deleted one frees a place', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 10; i++)
      ids.push((await api.create({ endpoint_url: receiver.url, event_types: ['funding.created'] })).id);
    const eleventh = await api.create({ endpoint_url: receiver.url, event_types: ['funding.created'] });
    assert.equal(eleventh.status, 400);
    assert.match(eleventh.body.error, /at most 10 webhooks, paused ones included/);
    // A paused webhook still queues events: it keeps its place.
    assert.equal((await api.call('PUT', `/api/v2/webhooks/${ids[1]}`, { active: false })).body.data.active, false);
    assert.equal((await api.create({ endpoint_url: receiver.url, event_types: ['funding.created'] })).status, 400);
    // Turning a paused one on again is no new webhook.
    assert.equal((await api.call('PUT', `/api/v2/webhooks/${ids[1]}`, { active: true })).status, 200);
    assert.equal((await api.call('DELETE', `/api/v2/webhooks/${ids[0]}`)).status, 200);
    const tenth = await api.create({ endpoint_url: receiver.url, event_types: ['funding.created'] });
    assert.equal(tenth.status, 201);
    // Bringing the deleted one back would make 11.
    const revive = await api.call('PUT', `/api/v2/webhooks/${ids[0]}`, { active: true });
    assert.equal(revive.status, 400);
    assert.equal((await api.call('DELETE', `/api/v2/webhooks/${tenth.id}`)).status, 200);
    assert.equal((await api.call('PUT', `/api/v2/webhooks/${ids[0]}`, { active: true })).status, 200);
  });

  it('updates any subset, rotates the secret (shown once; the old one stops verifying), soft-deletes', async () => {
    const created = await api.create({ endpoint_url: receiver.url, event_types: ['funding.created'] });
    const updated = await api.call('PUT', `/api/v2/webhooks/${created.id}`, {
      eventTypes: ['funding.created', 'funding.updated'],
    });
    assert.equal(updated.status, 200);
    assert.deepEqual(updated.body.data.event_types, ['funding.created', 'funding.updated']);
    assert.equal(updated.body.data.endpoint_url, receiver.url, 'untouched fields stay');
    assert.equal(updated.body.data.secret, undefined);
    assert.equal(updated.body.meta.endpoint, 'webhooks.update');

    const rotated = await api.call('PUT', `/api/v2/webhooks/${created.id}`, { rotate_secret: true });
    const secret = rotated.body.data.secret as string;
    assert.match(secret, /^whsec_/);
    assert.notEqual(secret, created.secret);
    assert.equal((await api.call('POST', `/api/v2/webhooks/${created.id}/test`)).status, 200);
    const [delivery] = await receiver.waitFor(1);
    verifyBoth(secret, delivery!);
    assert.throws(() => verifyBoth(created.secret, delivery!));

    const deleted = await api.call('DELETE', `/api/v2/webhooks/${created.id}`);
    assert.deepEqual(deleted.body, {
      success: true,
      data: { success: true, id: created.id, active: false },
      meta: { endpoint: 'webhooks.delete', creditsUsed: 0 },
    });
    assert.equal((await api.call('GET', `/api/v2/webhooks/${created.id}`)).status, 404);
    assert.equal((await api.call('GET', '/api/v2/webhooks')).body.data.length, 0);
    assert.equal((await api.call('DELETE', `/api/v2/webhooks/${created.id}`)).status, 404);
    assert.equal((await api.call('PUT', `/api/v2/webhooks/${created.id}`, { event_types: ['funding.created'] })).status, 404);
    const back = await api.call('PUT', `/api/v2/webhooks/${created.id}`, { active: true });
    assert.equal(back.body.data.active, true);
    assert.equal((await api.call('GET', `/api/v2/webhooks/${created.id}`)).status, 200);
  });

  it('sends a signed system.test event, records it, free; the retry endpoint keeps the event id, free for a test event', async () => {
    const created = await api.create({ endpoint_url: receiver.url, event_types: ['funding.created'] });
    receiver.respond = (_r, response) => response.writeHead(503, { 'retry-after': '5' }).end('busy');
    const test = await api.call('POST', `/api/v2/webhooks/${created.id}/test`, { ignored: true });
    assert.equal(test.status, 200);
    assert.equal(test.body.data.success, false);
    assert.equal(test.body.data.response_status, 503);
    assert.equal(test.body.data.response_body, 'busy');
    assert.equal(test.body.data.event_type, 'system.test');
    assert.deepEqual(test.body.meta, { endpoint: 'webhooks.test', creditsUsed: 0 });
    const [first] = await receiver.waitFor(1);
    const payload = verifyBoth(created.secret, first!);
    assert.equal(payload.event_type, 'system.test');
    assert.equal(payload.event_id, test.body.data.event_id);
    assert.deepEqual(Object.keys(JSON.parse(first!.body)), ['data', 'event_id', 'event_type', 'timestamp']);

    // The balance as the API reports it (a count-mode request is free).
    const balance = async () =>
      Number((await api.call('GET', '/api/v2/signals/investors?count=true')).headers['x-credits-remaining']);
    const before = await balance();
    const failedRetry = await api.call('POST', `/api/v2/webhooks/${created.id}/deliveries/${test.body.data.delivery_id}/retry`);
    assert.equal(failedRetry.body.data.success, false);
    assert.equal(failedRetry.body.meta.creditsUsed, 0);
    assert.equal(await balance(), before, 'a test event carries no data: its retries are free');

    receiver.respond = (_r, response) => response.writeHead(200).end('thanks');
    const retry = await api.call('POST', `/api/v2/webhooks/${created.id}/deliveries/${failedRetry.body.data.delivery_id}/retry`);
    assert.equal(retry.status, 200);
    assert.equal(retry.body.data.success, true);
    assert.equal(retry.body.data.status, 'done');
    assert.equal(retry.body.data.previous_delivery_id, failedRetry.body.data.delivery_id);
    assert.equal(retry.body.data.attempt_count, 3);
    assert.deepEqual(retry.body.meta, { endpoint: 'webhooks.deliveries.retry', creditsUsed: 0 });
    assert.equal(await balance(), before);
    const third = (await receiver.waitFor(3))[2]!;
    assert.equal(verifyBoth(created.secret, third).event_id, payload.event_id, 'same event id');
    assert.equal(third.body, first!.body, 'same body');

    const again = await api.call('POST', `/api/v2/webhooks/${created.id}/deliveries/${retry.body.data.delivery_id}/retry`);
    assert.equal(again.status, 409);
    assert.equal(again.body.code, 'conflict');
    const nowhere = await api.call(
      'POST',
      `/api/v2/webhooks/${created.id}/deliveries/3f9a1c7e-2b4d-4e6a-9f1b-8c2d3e4f5a6b/retry`,
    );
    assert.equal(nowhere.status, 404);

    const stats = (await api.call('GET', `/api/v2/webhooks/${created.id}`)).body.data.stats;
    assert.equal(stats.total_deliveries, 3);
    assert.equal(stats.successful_deliveries, 1);
    assert.equal(stats.failed_deliveries, 2);
    assert.equal(stats.consecutive_failures, 0);
    assert.ok(stats.last_success_at && stats.last_failure_at);
  });

  it('lists deliveries newest first by cursor, filtered by status', async () => {
    const created = await api.create({ endpoint_url: receiver.url, event_types: ['funding.created'] });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      receiver.respond = (_r, response) => response.writeHead(i % 2 === 0 ? 200 : 500).end();
      ids.push((await api.call('POST', `/api/v2/webhooks/${created.id}/test`)).body.data.delivery_id);
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: Awaited<ReturnType<WebhookApi['call']>> = await api.call(
        'GET',
        `/api/v2/webhooks/${created.id}/deliveries?limit=2${cursor ? `&cursor=${cursor}` : ''}`,
      );
      assert.equal(page.body.pagination.limit, 2);
      seen.push(...page.body.data.map((d: { id: string }) => d.id));
      cursor = page.body.pagination.next_cursor;
    } while (cursor);
    assert.deepEqual(seen, [...ids].reverse());
    const failed = await api.call('GET', `/api/v2/webhooks/${created.id}/deliveries?status=failed`);
    assert.deepEqual(
      failed.body.data.map((d: { id: string }) => d.id),
      [ids[3], ids[1]],
    );
    assert.equal(failed.body.data[0].response_status, 500);
    assert.equal(failed.body.data[0].attempt_count, 1);
    assert.equal((await api.call('GET', `/api/v2/webhooks/${created.id}/deliveries?cursor=bogus`)).status, 400);
    assert.equal((await api.call('GET', `/api/v2/webhooks/${created.id}/deliveries?status=lost`)).status, 400);
    assert.equal((await api.call('GET', `/api/v2/webhooks/${created.id}/deliveries?limit=101`)).status, 400);
  });
});

describeEach('webhook targets without an operator allowance', (backend) => {
  let ctx: TestContext;
  before(async () => {
    ctx = await startApp(backend);
  });
  after(() => ctx.close());

  it('refuses loopback targets unless WEBHOOK_ALLOWED_NETWORKS allows them', async () => {
    const api = webhookApi(ctx.app, (await makeKey(ctx.db)).key);
    for (const url of ['http://127.0.0.1:9/hook', 'http://[::1]:9/hook', 'http://localhost:9/hook', 'http://0.0.0.0/']) {
      const res = await api.create({ endpoint_url: url, event_types: ['funding.created'] });
      assert.equal(res.status, 400, url);
      assert.match(res.body.error, /^endpoint_url: refused/, url);
    }
  });
});
