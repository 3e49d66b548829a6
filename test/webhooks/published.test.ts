// Every webhooks API answer checked against the published Signalbase 2.2 document's schemas
// (../shared/reference/signals-openapi-2026-07/openapi.json): a client written for it reads ours.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, before, it } from 'node:test';
import { describeEach, makeKey, startApp, type TestContext } from '../helpers.js';
import { documentValidator } from '../v2/published-schemas.js';
import { startReceiver, type TestReceiver } from './receiver.js';
import { webhookApi } from './support.js';

const DOCUMENT = new URL('../../../shared/reference/signals-openapi-2026-07/openapi.json', import.meta.url);
const missing = existsSync(DOCUMENT) ? false : `the published document is not at ${DOCUMENT.pathname}`;

describeEach('webhooks API against the published schemas', (backend) => {
  let ctx: TestContext;
  let receiver: TestReceiver;
  before(async () => {
    ctx = await startApp(backend, { WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8' });
    receiver = await startReceiver();
  });
  after(async () => {
    await ctx.close();
    await receiver.close();
  });

  it('every answer validates', { skip: missing }, async () => {
    const api = webhookApi(ctx.app, (await makeKey(ctx.db)).key);
    const check = (schema: string, body: unknown) => {
      const validate = documentValidator(DOCUMENT, schema);
      assert.ok(validate(body), `${schema}: ${JSON.stringify(validate.errors)}\n${JSON.stringify(body).slice(0, 400)}`);
    };
    const created = await api.create({
      endpoint_url: receiver.url,
      event_types: ['funding.created'],
      filters: { countries: 'US,GB' },
    });
    check('Webhook_WebhookCreateResponse', created.body);
    check('Webhook_WebhookListResponse', (await api.call('GET', '/api/v2/webhooks')).body);
    check('Webhook_WebhookGetResponse', (await api.call('GET', `/api/v2/webhooks/${created.id}`)).body);
    check('Webhook_WebhookUpdateResponse', (await api.call('PUT', `/api/v2/webhooks/${created.id}`, { active: false })).body);
    check(
      'Webhook_WebhookUpdateResponse',
      (await api.call('PUT', `/api/v2/webhooks/${created.id}`, { rotate_secret: true })).body,
    );
    receiver.respond = (_r, response) => response.writeHead(500).end('no');
    const test = await api.call('POST', `/api/v2/webhooks/${created.id}/test`);
    check('Webhook_WebhookTestResponse', test.body);
    receiver.respond = (_r, response) => response.writeHead(200).end('ok');
    const retry = await api.call('POST', `/api/v2/webhooks/${created.id}/deliveries/${test.body.data.delivery_id}/retry`);
    check('Webhook_WebhookRetryResponse', retry.body);
    check('Webhook_WebhookDeliveriesResponse', (await api.call('GET', `/api/v2/webhooks/${created.id}/deliveries`)).body);
    const conflict = await api.call('POST', `/api/v2/webhooks/${created.id}/deliveries/${retry.body.data.delivery_id}/retry`);
    assert.equal(conflict.status, 409);
    check('Webhook_ErrorResponse', conflict.body);
    check('Webhook_ErrorResponse', (await api.call('POST', '/api/v2/webhooks', { event_types: ['x'] })).body);
    check('Webhook_ErrorResponse', (await api.call('GET', '/api/v2/webhooks/00000000-0000-4000-8000-000000000000')).body);
    check('Webhook_ErrorResponse', (await ctx.app.inject({ url: '/api/v2/webhooks' })).json());
    check('Webhook_WebhookDeleteResponse', (await api.call('DELETE', `/api/v2/webhooks/${created.id}`)).body);
  });
});
