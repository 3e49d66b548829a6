// Webhooks on the account pages over HTTP: create (the secret shown once), refused forms
// re-rendered with the service's message, edit, pause and resume, rotation, confirmed delete,
// test events, the delivery log with its cursor and redelivery; another account's webhook is a
// 404 and a form without its CSRF token changes nothing.
import assert from 'node:assert/strict';
import type { WebhookRow } from '../../src/webhooks/subscription-queries.js';
import { randomUUID } from 'node:crypto';
import { after, afterEach, before, describe, it } from 'node:test';
import { MemoryRateLimitStore, type RateLimitStore } from '../../src/platform/infra/rate-limit-store.js';
import { fundingRecord, insertFunding } from '../fixtures.js';
import { type TestContext, describeOnOneStore, sharedRedisRateLimitStore } from '../helpers.js';
import { eventually, openedSecret } from '../webhooks/support.js';
import { ok, startReceiver, verifyBoth, type TestReceiver } from '../webhooks/receiver.js';
import { alertText, csrfOf, fieldError, startWebApp, uniqueEmail, WebClient, type WebResponse } from './web-client.js';

interface WebhookForm {
  url: string;
  types: string[];
  filters?: Record<string, string>;
}

type StoredWebhook = Pick<
  WebhookRow,
  | 'id'
  | 'endpoint_url'
  | 'event_types'
  | 'filters'
  | 'secret'
  | 'active'
  | 'deleted_at'
  | 'paused_reason'
  | 'last_modified_by'
  | 'last_modified_via'
>;

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

/** The secret shown once on the page, if any. */
const shownSecret = (html: string) => /id="new-secret"[^>]*value="(whsec_[^"]+)"/.exec(html)?.[1];

/** The webhook whose page this is (its test form's action). */
const pageWebhookId = (html: string) => new RegExp(`action="/account/webhooks/(${UUID})/test"`).exec(html)?.[1];

/** The delivery log's rows: id, status and the row's markup. */
function deliveryRows(html: string): { id: string; status: string; row: string }[] {
  const rows = html.match(/<tr data-delivery-id="[^"]+" data-status="[^"]+">.*?<\/tr>/g) ?? [];
  return rows.map((row) => {
    const [, id, status] = /data-delivery-id="([^"]+)" data-status="([^"]+)"/.exec(row)!;
    return { id: id!, status: status!, row };
  });
}

const cell = (row: string, label: string) =>
  (new RegExp(`<td data-label="${label}"[^>]*>(.*?)</td>`).exec(row)?.[1] ?? '').trim();

describeOnOneStore('account pages: webhooks', (backend) => {
  let ctx: TestContext;
  let receiver: TestReceiver;
  before(async () => {
    ctx = await startWebApp(backend, {
      WEBHOOK_DELIVERY: 'true',
      WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8',
      WEBHOOK_POLL_MS: '50',
      // Automatic retries far enough away that only the redeliveries of the test touch a failed delivery.
      WEBHOOK_RETRY_DELAYS: '600,600',
    });
    receiver = await startReceiver();
  });
  afterEach(() => {
    receiver.respond = ok;
  });
  after(async () => {
    await ctx.close();
    await receiver.close();
  });

  async function signedIn(label: string): Promise<{ web: WebClient; accountId: number }> {
    const web = new WebClient(ctx.app);
    const email = uniqueEmail(label);
    assert.equal((await web.signUpAndIn(email)).statusCode, 303);
    const [account] = await ctx.db.query<{ id: number }>('SELECT id::int AS id FROM accounts WHERE email = $1', [email]);
    return { web, accountId: account!.id };
  }

  /** Posts a form whose fields may repeat (checkboxes), with the client's cookies. */
  function postPairs(web: WebClient, url: string, pairs: [string, string][]): Promise<WebResponse> {
    return web.postPairs(url, pairs);
  }

  function formPairs(csrf: string | null, form: WebhookForm): [string, string][] {
    const pairs: [string, string][] = csrf === null ? [] : [['_csrf', csrf]];
    pairs.push(['endpoint_url', form.url]);
    for (const type of form.types) pairs.push(['event_types', type]);
    for (const [key, value] of Object.entries(form.filters ?? {})) pairs.push([`filter_${key}`, value]);
    return pairs;
  }

  async function submitCreate(web: WebClient, form: WebhookForm): Promise<WebResponse> {
    const page = await web.get('/account');
    return postPairs(web, '/account/webhooks', formPairs(csrfOf(page.body), form));
  }

  async function createWebhook(web: WebClient, form: Partial<WebhookForm> = {}) {
    const posted = await submitCreate(web, { url: receiver.url, types: ['funding.created'], ...form });
    assert.equal(posted.statusCode, 303, alertText(posted.body));
    const res = await web.follow(posted);
    const id = pageWebhookId(res.body);
    const secret = shownSecret(res.body);
    assert.ok(id && secret, 'the new webhook page, with its secret');
    return { res, id, secret };
  }

  /** Posts one of the webhook page's button forms (test, pause, redeliver, …) with the page's token. */
  async function press(web: WebClient, pageUrl: string, action: string): Promise<WebResponse> {
    const page = await web.get(pageUrl);
    const res = await web.post(action, { _csrf: csrfOf(page.body) });
    // A test event and a redelivery redirect to the webhook's page, which shows their outcome once.
    return res.statusCode === 303 && res.headers.location === pageUrl ? web.follow(res) : res;
  }

  const stored = async (id: string) => (await ctx.db.query<StoredWebhook>('SELECT * FROM webhooks WHERE id = $1', [id]))[0]!;
  const webhookCount = async (accountId: number) =>
    (await ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM webhooks WHERE account_id = $1', [accountId]))[0]!.n;

  describe('create', () => {
    it('offers every event type and the filters; shows the secret once, then never again', async () => {
      const { web, accountId } = await signedIn('create');
      const account = await web.get('/account');
      assert.match(account.body, /<h2 id="webhooks-title">Webhooks<\/h2>/);
      assert.match(account.body, /No webhooks yet/);
      const offered = [...account.body.matchAll(/name="event_types" value="([^"]+)"/g)].map((m) => m[1]).sort();
      assert.deepEqual(offered, [
        'acquisition.created',
        'acquisition.updated',
        'company.updated',
        'deal.created',
        'deal.updated',
        'enrichment.completed',
        'funding.created',
        'funding.updated',
        'hiring.created',
        'hiring.updated',
        'investor.created',
        'investor.updated',
        'job_change.created',
        'job_change.updated',
        'new_company.created',
        'system.test',
      ]);
      for (const key of ['countries', 'categories', 'search', 'dateFrom', 'dateTo', 'query']) {
        assert.match(account.body, new RegExp(`name="filter_${key}"`), key);
      }
      assert.match(account.body, /e\.g\. \/api\/v2\/signals\/job-changes\?positions=cto/);

      const { res, id, secret } = await createWebhook(web, {
        types: ['funding.created', 'investor.created'],
        filters: { countries: ' US ', search: '', categories: '   ' },
      });
      assert.equal(res.headers['cache-control'], 'no-store');
      assert.match(secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
      assert.match(res.body, /<strong>it will not be shown again<\/strong>/);
      assert.match(res.body, /<code>X-Webhook-Signature<\/code>/);
      assert.match(res.body, /<code>webhook-signature<\/code>/);
      assert.match(res.body, /webhooks guide \(docs\/api\/webhooks.md\)/);

      const row = await stored(id);
      assert.ok(!row.secret.includes(secret.slice('whsec_'.length)), 'the secret is stored sealed');
      assert.equal(await openedSecret(ctx.db, ctx.config, id), secret);
      assert.equal(row.endpoint_url, receiver.url);
      assert.deepEqual([...row.event_types].sort(), ['funding.created', 'investor.created']);
      assert.deepEqual(row.filters, { countries: 'US' }, 'values trimmed, empty fields left out');
      assert.equal(row.last_modified_via, 'dashboard');
      assert.equal(row.last_modified_by, `account:${accountId}`);

      const again = await web.get(`/account/webhooks/${id}`);
      assert.equal(again.statusCode, 200);
      assert.equal(shownSecret(again.body), undefined);
      assert.ok(!again.raw.includes(secret), 'the secret is never on the page again');
      assert.ok(again.body.includes(`<code>…${secret.slice(-4)}</code>`), 'its preview is');

      const list = await web.get('/account');
      assert.ok(!list.raw.includes(secret));
      const item = new RegExp(`<li class="webhook-item" data-webhook-id="${id}">.*?</dl></li>`).exec(list.body)?.[0] ?? '';
      assert.ok(item.includes(`<a class="webhook-url" href="/account/webhooks/${id}">${receiver.url}</a>`));
      assert.match(item, /<span class="pill pill--ok">Active<\/span>/);
      assert.match(item, /<span class="tag">funding\.created<\/span>/);
      assert.match(item, /<span class="tag">investor\.created<\/span>/);
      assert.match(item, /<code>countries=US<\/code>/);
      assert.match(item, /<dt>Pending<\/dt><dd data-stat="pending">0<\/dd>/);
      assert.match(item, /<dt>Last success<\/dt><dd data-stat="last-success"><span class="muted">Never<\/span><\/dd>/);
    });

    it('refuses bad input with the service message, keeps what was typed, creates nothing', async () => {
      const { web, accountId } = await signedIn('invalid');
      const cases: { form: WebhookForm; message: RegExp }[] = [
        {
          form: { url: 'ftp://example.com/hook', types: ['funding.created'] },
          message: /endpoint_url must be a valid http or https URL/,
        },
        {
          form: { url: receiver.url, types: ['acquisition.created'], filters: { countries: 'US,ZZ' } },
          message: /filters\.countries: .*ZZ/,
        },
        { form: { url: receiver.url, types: [] }, message: /event_types must name at least one event type/ },
        { form: { url: 'http://10.1.2.3/hook', types: ['funding.created'] }, message: /endpoint_url: refused: 10\.1\.2\.3/ },
        {
          form: {
            url: receiver.url,
            types: ['job_change.created'],
            filters: { query: '/api/v2/signals/job-changes?positions=cto', search: 'x' },
          },
          message: /filters\.query cannot be combined with filters\.search/,
        },
        {
          form: {
            url: receiver.url,
            types: ['job_change.created'],
            filters: { query: '/api/v2/signals/job-changes?colour=red' },
          },
          message: /filters\.query: .*colour/,
        },
      ];
      for (const { form, message } of cases) {
        const res = await submitCreate(web, form);
        assert.equal(res.statusCode, 422, form.url);
        assert.match(alertText(res.body) ?? '', message);
        // At the top of the page (before the stats), and again next to the field it is about, which has the focus.
        assert.ok(res.body.indexOf('role="alert"') < res.body.indexOf('class="grid grid-3 stats"'), 'the error is at the top');
        assert.match(fieldError(res.body) ?? '', message);
        assert.equal(res.body.match(/ autofocus/g)?.length, 1, 'one field is focused');
        assert.ok(res.body.includes(`id="new-webhook-url" name="endpoint_url"`));
        assert.ok(res.body.includes(`value="${form.url}"`), 'the URL as typed');
        for (const type of form.types) assert.ok(res.body.includes(`name="event_types" value="${type}" checked`), type);
        for (const [key, value] of Object.entries(form.filters ?? {})) {
          assert.ok(
            res.body.includes(`name="filter_${key}" type="text" maxlength="1000"`) && res.body.includes(`value="${value}"`),
          );
        }
        assert.equal(shownSecret(res.body), undefined);
      }
      assert.equal(await webhookCount(accountId), 0);
    });
  });

  it('edit: changes endpoint, event types and filters; a refused edit is re-rendered as typed', async () => {
    const { web } = await signedIn('edit');
    const { id } = await createWebhook(web, { filters: { countries: 'US' } });
    // A key the form has no field for (set through the API) survives an edit from the page.
    await ctx.db.query(`UPDATE webhooks SET filters = filters || '{"teamSize": "11-50"}'::jsonb WHERE id = $1`, [id]);
    const page = `/account/webhooks/${id}`;
    const edited = `${receiver.url}/v2`;
    let res = await postPairs(
      web,
      page,
      formPairs(csrfOf((await web.get(page)).body), {
        url: edited,
        types: ['acquisition.created', 'acquisition.updated'],
        filters: { categories: 'fintech', dateFrom: '2026-01-01', countries: '' },
      }),
    );
    assert.equal(res.statusCode, 303);
    assert.equal(res.headers.location, `${page}?notice=updated`);
    const row = await stored(id);
    assert.equal(row.endpoint_url, edited);
    assert.deepEqual([...row.event_types].sort(), ['acquisition.created', 'acquisition.updated']);
    assert.deepEqual(row.filters, { categories: 'fintech', dateFrom: '2026-01-01', teamSize: '11-50' });
    res = await web.get(`${page}?notice=updated`);
    assert.match(res.body, /class="alert alert--success" role="status">Webhook saved\./);
    assert.ok(res.body.includes(`<code class="webhook-endpoint">${edited}</code>`));
    assert.ok(res.body.includes('name="event_types" value="acquisition.updated" checked'));
    assert.ok(!res.body.includes('name="event_types" value="funding.created" checked'));

    res = await postPairs(
      web,
      page,
      formPairs(csrfOf(res.body), { url: edited, types: ['acquisition.created'], filters: { dateFrom: '2026-02-30' } }),
    );
    assert.equal(res.statusCode, 422);
    assert.match(alertText(res.body) ?? '', /filters\.dateFrom/);
    assert.ok(res.body.includes('value="2026-02-30"'), 'the edit form as typed');
    assert.deepEqual((await stored(id)).filters, { categories: 'fintech', dateFrom: '2026-01-01', teamSize: '11-50' });
  });

  it('pause and resume; a webhook the service paused says why, prominently, until resumed', async () => {
    const { web } = await signedIn('pause');
    const { id } = await createWebhook(web);
    const page = `/account/webhooks/${id}`;
    let res = await press(web, page, `${page}/pause`);
    assert.equal(res.statusCode, 303);
    assert.equal(res.headers.location, `${page}?notice=paused`);
    assert.equal((await stored(id)).active, false);
    res = await web.get(`${page}?notice=paused`);
    assert.match(res.body, /Webhook paused\./);
    assert.match(res.body, /<dd id="webhook-status"><span class="pill pill--off">Paused<\/span><\/dd>/);
    assert.ok(res.body.includes(`action="${page}/resume"`));
    assert.ok(!res.body.includes('data-paused-reason'), 'paused by its owner: no reason to show');

    res = await press(web, page, `${page}/resume`);
    assert.equal(res.headers.location, `${page}?notice=resumed`);
    assert.equal((await stored(id)).active, true);

    const reason = 'Paused after 8 failed attempts in a row: the last attempt got HTTP 500.';
    await ctx.db.query('UPDATE webhooks SET active = false, paused_reason = $2, consecutive_failures = 8 WHERE id = $1', [
      id,
      reason,
    ]);
    for (const url of ['/account', page]) {
      res = await web.get(url);
      assert.match(res.body, /<p class="paused-title">Deliveries stopped: dealsignal paused this webhook<\/p>/, url);
      assert.ok(res.body.includes(`<p class="paused-reason">${reason}</p>`), url);
      assert.match(res.body, /<span class="pill pill--bad">Paused after failures<\/span>/);
      assert.match(res.body, /data-stat="consecutive-failures" class="stat-bad"> ?8 ?</);
    }
    assert.match(res.body, /Resume deliveries<\/button>/);
    res = await press(web, page, `${page}/resume`);
    assert.equal(res.statusCode, 303);
    const row = await stored(id);
    assert.equal(row.active, true);
    assert.equal(row.paused_reason, null);
    assert.ok(!(await web.get('/account')).body.includes('data-paused-reason'));
  });

  it('rotate: confirmed, shows the new secret once, and deliveries are signed with it', async () => {
    const { web } = await signedIn('rotate');
    const { id, secret } = await createWebhook(web);
    const page = `/account/webhooks/${id}`;
    const confirm = await web.get(`${page}/rotate`);
    assert.equal(confirm.statusCode, 200);
    assert.match(confirm.body, /<h1 id="confirm-title">Rotate the signing secret\?<\/h1>/);
    assert.equal(await openedSecret(ctx.db, ctx.config, id), secret, 'nothing changes before the confirmation');

    const posted = await web.post(`${page}/rotate`, { _csrf: csrfOf(confirm.body) });
    assert.equal(posted.statusCode, 303);
    const res = await web.follow(posted);
    assert.equal(res.statusCode, 200);
    const rotated = shownSecret(res.body);
    assert.ok(rotated && rotated !== secret);
    assert.match(res.body, /Your new signing secret/);
    assert.equal(await openedSecret(ctx.db, ctx.config, id), rotated);
    assert.equal(shownSecret((await web.get(page)).body), undefined);

    const before = receiver.received.length;
    const tested = await press(web, page, `${page}/test`);
    assert.match(tested.body, /Test event delivered/);
    const [received] = (await receiver.waitFor(before + 1)).slice(before);
    assert.equal(verifyBoth(rotated, received!).event_type, 'system.test');
  });

  it('delete: a confirmation first, then gone from the list and its page', async () => {
    const { web } = await signedIn('delete');
    const { id } = await createWebhook(web);
    const page = `/account/webhooks/${id}`;
    const confirm = await web.get(`${page}/delete`);
    assert.equal(confirm.statusCode, 200);
    assert.match(confirm.body, /<h1 id="confirm-title">Delete this webhook\?<\/h1>/);
    assert.match(confirm.body, /<button class="btn btn-danger" type="submit"> ?Delete webhook ?<\/button>/);
    assert.equal((await stored(id)).deleted_at, null, 'nothing changes before the confirmation');

    const res = await web.post(`${page}/delete`, { _csrf: csrfOf(confirm.body) });
    assert.equal(res.statusCode, 303);
    assert.equal(res.headers.location, '/account?notice=webhook-deleted');
    const row = await stored(id);
    assert.ok(row.deleted_at);
    assert.equal(row.active, false);
    const account = await web.get('/account?notice=webhook-deleted');
    assert.match(account.body, /Webhook deleted\./);
    assert.ok(!account.body.includes(`data-webhook-id="${id}"`));
    assert.equal((await web.get(page)).statusCode, 404);
  });

  it("another account's webhook (and an unknown id) is a 404 everywhere, and nothing changes", async () => {
    const owner = await signedIn('owner');
    const { id, secret } = await createWebhook(owner.web);
    const before = JSON.stringify(await stored(id));
    const received = receiver.received.length;
    const { web: other } = await signedIn('other');
    const csrf = csrfOf((await other.get('/account')).body);
    const otherDelivery = randomUUID();
    for (const target of [id, randomUUID(), 'not-a-uuid']) {
      const page = `/account/webhooks/${target}`;
      for (const url of [page, `${page}/delete`, `${page}/rotate`]) {
        const res = await other.get(url);
        assert.equal(res.statusCode, 404, url);
        assert.ok(!res.raw.includes(receiver.url) && !res.raw.includes(secret), url);
      }
      for (const url of [`${page}/pause`, `${page}/resume`, `${page}/delete`, `${page}/rotate`, `${page}/test`]) {
        assert.equal((await other.post(url, { _csrf: csrf })).statusCode, 404, url);
      }
      assert.equal((await other.post(`${page}/deliveries/${otherDelivery}/redeliver`, { _csrf: csrf })).statusCode, 404);
      const edit = await postPairs(other, page, formPairs(csrf, { url: 'http://127.0.0.1:9/x', types: ['deal.created'] }));
      assert.equal(edit.statusCode, 404);
    }
    assert.equal(JSON.stringify(await stored(id)), before);
    assert.equal(receiver.received.length, received, 'no test event sent');
  });

  it('a form without its CSRF token is refused and changes nothing', async () => {
    const { web, accountId } = await signedIn('csrf');
    const refused = await postPairs(web, '/account/webhooks', formPairs(null, { url: receiver.url, types: ['funding.created'] }));
    assert.equal(refused.statusCode, 403);
    assert.match(alertText(refused.body) ?? '', /This form has expired/);
    assert.equal(await webhookCount(accountId), 0);

    const { id, secret } = await createWebhook(web);
    const before = JSON.stringify(await stored(id));
    const received = receiver.received.length;
    const page = `/account/webhooks/${id}`;
    for (const url of [`${page}/pause`, `${page}/delete`, `${page}/rotate`, `${page}/test`]) {
      for (const form of [{}, { _csrf: 'forged' }] as Record<string, string>[]) {
        const res = await web.post(url, form);
        assert.equal(res.statusCode, 403, url);
        assert.match(alertText(res.body) ?? '', /This form has expired/, url);
      }
    }
    const edit = await postPairs(web, page, formPairs(null, { url: 'http://127.0.0.1:9/x', types: ['deal.created'] }));
    assert.equal(edit.statusCode, 403);
    assert.equal(JSON.stringify(await stored(id)), before);
    assert.equal(await openedSecret(ctx.db, ctx.config, id), secret);
    assert.equal(receiver.received.length, received, 'no test event sent');
  });

  it('test event: the outcome is shown (success, status, body), and lands in the delivery log', async () => {
    const { web } = await signedIn('test-event');
    const { id, secret } = await createWebhook(web);
    const page = `/account/webhooks/${id}`;
    const before = receiver.received.length;
    let res = await press(web, page, `${page}/test`);
    assert.equal(res.statusCode, 200);
    assert.match(res.body, /id="test-outcome" data-outcome="success"/);
    assert.match(res.body, /Test event delivered/);
    assert.match(res.body, /Your endpoint answered <strong>HTTP 200<\/strong>/);
    assert.match(res.body, /<summary>Response body<\/summary><pre>ok<\/pre>/);
    const [received] = (await receiver.waitFor(before + 1)).slice(before);
    const payload = verifyBoth(secret, received!);
    assert.equal(payload.event_type, 'system.test');
    let [row] = deliveryRows(res.body);
    assert.equal(row!.status, 'done');
    assert.match(row!.row, /<span class="tag">system\.test<\/span>/);
    assert.ok(row!.row.includes(payload.event_id));
    assert.equal(cell(row!.row, 'Response'), '<code>200</code>');
    assert.ok(!row!.row.includes('Redeliver'), 'nothing to redeliver');

    receiver.respond = (_request, response) => response.writeHead(503).end('down for maintenance');
    res = await press(web, page, `${page}/test`);
    assert.equal(res.statusCode, 200);
    assert.match(res.body, /id="test-outcome" data-outcome="failure"/);
    assert.match(res.body, /Test event not delivered/);
    assert.match(res.body, /<strong>HTTP 503<\/strong>/);
    assert.match(res.body, /<pre>down for maintenance<\/pre>/);
    [row] = deliveryRows(res.body);
    assert.equal(row!.status, 'failed');

    // No one listening: the reason is shown.
    const { id: deadId } = await createWebhook(web, { url: 'http://127.0.0.1:9/nothing-here' });
    res = await press(web, `/account/webhooks/${deadId}`, `/account/webhooks/${deadId}/test`);
    assert.match(res.body, /data-outcome="failure"/);
    assert.match(res.body, /<strong>no response \([^)]+\)<\/strong>/);
  });

  it('the delivery log lists deliveries; redeliver works, says 409 and 402 plainly', async (t) => {
    // A receiver of its own: the other tests' webhooks hear of the records this one inserts.
    const receiver = await startReceiver();
    t.after(() => receiver.close());
    const { web, accountId } = await signedIn('log');
    const { id, secret } = await createWebhook(web, {
      url: receiver.url,
      types: ['funding.created'],
      filters: { countries: 'US' },
    });
    const page = `/account/webhooks/${id}`;
    const name = `Hooked ${randomUUID().slice(0, 8)}`;
    const received = receiver.received.length;
    await insertFunding(ctx.db, [fundingRecord({ company_name: name })]);
    const [delivered] = (await receiver.waitFor(received + 1)).slice(received);
    const event = verifyBoth(secret, delivered!);
    assert.equal(event.event_type, 'funding.created');
    const done = await eventually(
      async () => deliveryRows((await web.get(page)).body).find((row) => row.status === 'done'),
      10_000,
      'the delivery in the log',
    );
    assert.match(done.row, /<span class="tag">funding\.created<\/span>/);
    assert.ok(done.row.includes(event.event_id));
    assert.equal(cell(done.row, 'Response'), '<code>200</code>');
    assert.match(cell(done.row, 'Latency'), /^\d[\d,]* ms$/);
    assert.equal(cell(done.row, 'Attempts'), '1');
    assert.match(
      cell(done.row, 'Outcome'),
      /^<span>Delivered <time datetime="[^"]+" title="[^"]+ UTC">[A-Z][a-z]{2} \d+, \d{4}, \d\d:\d\d UTC<\/time><\/span>$/,
    );

    // A receiver that fails: the delivery waits for its retry; redelivering it fails too, and says so.
    receiver.respond = (_request, response) => response.writeHead(500).end('boom');
    await insertFunding(ctx.db, [fundingRecord()]);
    const pending = await eventually(
      async () =>
        deliveryRows((await web.get(page)).body).find((row) => row.status === 'pending' && cell(row.row, 'Attempts') === '1'),
      10_000,
      'a delivery waiting for its retry',
    );
    assert.match(pending.row, /<span class="pill pill--warn">Retrying<\/span>/);
    assert.equal(cell(pending.row, 'Response'), '<code>500</code>');
    assert.match(cell(pending.row, 'Outcome'), /^<span>Next attempt <time/);
    assert.match(cell(pending.row, 'Last error'), /boom/);
    const redeliverUrl = (deliveryId: string) => `${page}/deliveries/${deliveryId}/redeliver`;
    let res = await press(web, page, redeliverUrl(pending.id));
    assert.equal(res.statusCode, 200);
    assert.match(res.body, /id="redelivery-outcome" data-outcome="failure"/);
    assert.match(res.body, /Redelivery failed/);
    // Its first attempt reached the endpoint, so the event is paid for: redelivering it is free.
    assert.match(res.body, /<strong>HTTP 500<\/strong> \(attempt 2\); nothing was charged/);
    let rows = deliveryRows(res.body);
    assert.equal(rows.find((row) => row.id === pending.id)?.status, 'pending', 'still queued: a failed retry skips nothing');
    const retried = rows[0]!;
    assert.equal(retried.status, 'failed');

    // Fixed: redelivered, with the same event id; nothing more to pay.
    receiver.respond = ok;
    const credits = async () =>
      (await ctx.db.query<{ n: number }>('SELECT credits_remaining::int AS n FROM accounts WHERE id = $1', [accountId]))[0]!.n;
    const balance = await credits();
    const count = receiver.received.length;
    res = await press(web, page, redeliverUrl(retried.id));
    assert.match(res.body, /id="redelivery-outcome" data-outcome="success"/);
    assert.match(res.body, /<strong>HTTP 200<\/strong> \(attempt 3\); nothing was charged/);
    const [again] = (await receiver.waitFor(count + 1)).slice(count);
    const eventId = (row: string) => /<code class="event-id" title="Event id">([^<]+)</.exec(row)?.[1];
    assert.equal(again!.headers['x-webhook-id'], eventId(pending.row), 'the same event id');
    assert.equal(await credits(), balance);
    rows = deliveryRows(res.body);
    assert.equal(rows[0]!.status, 'done');

    // Already delivered: 409, nothing sent.
    res = await press(web, page, redeliverUrl(rows[0]!.id));
    assert.equal(res.statusCode, 409);
    assert.equal(alertText(res.body), 'This delivery was already delivered, so it was not sent again.');
    // No credits: a new event waits, and redelivering it is a 402 with nothing sent.
    await ctx.db.query('UPDATE accounts SET credits_remaining = 0 WHERE id = $1', [accountId]);
    await insertFunding(ctx.db, [fundingRecord()]);
    const unpaid = await eventually(
      async () => deliveryRows((await web.get(page)).body).find((row) => row.status === 'pending' && row.id !== pending.id),
      10_000,
      'a delivery waiting for credits',
    );
    const sent = receiver.received.length;
    res = await press(web, page, redeliverUrl(unpaid.id));
    assert.equal(res.statusCode, 402);
    assert.match(alertText(res.body) ?? '', /^No credits left, so nothing was sent\. .*refill on [A-Z][a-z]{2} 1, \d{4}\.$/);
    assert.equal(receiver.received.length, sent);
    // A delivery id that is not this webhook's: 404.
    assert.equal((await press(web, page, redeliverUrl(randomUUID()))).statusCode, 404);
  });

  it('pages through a long delivery log with the cursor; a forged cursor is a 400', async () => {
    const { web } = await signedIn('pages');
    const { id } = await createWebhook(web);
    const page = `/account/webhooks/${id}`;
    const csrf = csrfOf((await web.get(page)).body);
    for (let i = 0; i < 21; i++) assert.equal((await web.post(`${page}/test`, { _csrf: csrf })).statusCode, 303);
    const first = await web.get(page);
    const newest = deliveryRows(first.body);
    assert.equal(newest.length, 20);
    assert.ok(!first.body.includes('>Newest</a>'));
    const next = /href="(\/account\/webhooks\/[^"?]+\?cursor=[^"#]+)#deliveries">Older deliveries<\/a>/.exec(first.body)?.[1];
    assert.ok(next, 'a link to older deliveries');
    const second = await web.get(next.replace(/&amp;/g, '&'));
    assert.equal(second.statusCode, 200);
    const older = deliveryRows(second.body);
    assert.equal(older.length, 1);
    assert.ok(!newest.some((row) => row.id === older[0]!.id));
    assert.match(second.body, />Newest<\/a>/);
    assert.ok(!second.body.includes('Older deliveries'));
    assert.equal((await web.get(`${page}?cursor=forged`)).statusCode, 400);
  });
});

describeOnOneStore('account pages: webhook actions count against the v2 rate limit', (backend) => {
  const LIMIT = 5;
  let ctx: TestContext;
  let receiver: TestReceiver;
  let store: RateLimitStore;
  before(async () => {
    // The store instances share (Redis, under a prefix of this run's own, when REDIS_URL is set).
    if (process.env.REDIS_URL) {
      store = (await sharedRedisRateLimitStore(process.env.REDIS_URL)).store;
    } else {
      store = new MemoryRateLimitStore();
    }
    ctx = await startWebApp(
      backend,
      {
        WEBHOOK_DELIVERY: 'true',
        WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8',
        RATE_LIMITS: 'true',
        RATE_LIMIT_FREE: String(LIMIT),
        // An hour: nothing the test counts leaves the window while it runs.
        RATE_LIMIT_WINDOW_MS: '3600000',
      },
      { rateLimitStore: store },
    );
    receiver = await startReceiver();
  });
  after(async () => {
    await ctx.close();
    await receiver.close();
  });

  it('past the limit every action is a 429 page saying when to try again, and nothing is done', async () => {
    const web = new WebClient(ctx.app);
    assert.equal((await web.signUpAndIn(uniqueEmail('metered'))).statusCode, 303);
    const { key } = await web.createKey();
    const remaining = async () => {
      const res = await ctx.app.inject({
        url: '/api/v2/signals/investors?count=true',
        headers: { authorization: `Bearer ${key}` },
      });
      return { status: res.statusCode, remaining: res.headers['x-ratelimit-remaining'] };
    };

    // Creating the webhook is the first action in the window the account's keys use.
    const page = await web.get('/account');
    const created = await web.post('/account/webhooks', {
      _csrf: csrfOf(page.body),
      endpoint_url: receiver.url,
      event_types: 'funding.created',
    });
    assert.equal(created.statusCode, 303, alertText(created.body));
    const id = pageWebhookId((await web.follow(created)).body)!;
    const webhookPage = `/account/webhooks/${id}`;
    assert.deepEqual(await remaining(), { status: 200, remaining: String(LIMIT - 2) }, 'one action, one API call');

    // A forged post (no CSRF token) is refused before it is counted.
    assert.equal((await web.post(`${webhookPage}/test`, {})).statusCode, 403);

    const csrf = csrfOf((await web.get(webhookPage)).body);
    const tests: WebResponse[] = [];
    for (let i = 0; i < 3 * LIMIT; i++) tests.push(await web.post(`${webhookPage}/test`, { _csrf: csrf }));
    const statuses = tests.map((res) => res.statusCode);
    assert.deepEqual(statuses, [...Array(LIMIT - 2).fill(303), ...Array(2 * LIMIT + 2).fill(429)]);
    assert.equal(receiver.received.length, LIMIT - 2, 'only the admitted test events were sent');

    const refused = tests.at(-1)!;
    const message = alertText(refused.body) ?? '';
    assert.match(
      message,
      new RegExp(
        `^Too many requests: your plan allows ${LIMIT} per 3600 seconds, API calls and webhook actions on these pages ` +
          'together, so nothing was done\\. Try again in \\d+ seconds\\.$',
      ),
    );
    const wait = Number(refused.headers['retry-after']);
    assert.ok(wait >= 1 && wait <= 3600, String(refused.headers['retry-after']));
    assert.ok(message.endsWith(`Try again in ${wait} seconds.`), message);
    assert.equal(refused.headers['x-ratelimit-limit'], String(LIMIT));
    assert.equal(refused.headers['x-ratelimit-remaining'], '0');
    assert.match(String(refused.headers['content-type']), /^text\/html/);
    assert.match(refused.body, /id="test-outcome"|<h1/, 'the webhook page itself');

    // The API's keys share the window: it is full for them too.
    assert.equal((await remaining()).status, 429);

    // Every other action is refused the same way, and changes nothing.
    const deliveryId = deliveryRows((await web.get(webhookPage)).body)[0]!.id;
    const actions: [string, Record<string, string>][] = [
      ['/account/webhooks', { endpoint_url: receiver.url, event_types: 'deal.created' }],
      [webhookPage, { endpoint_url: 'http://127.0.0.1:9/elsewhere', event_types: 'deal.created' }],
      [`${webhookPage}/pause`, {}],
      [`${webhookPage}/rotate`, {}],
      [`${webhookPage}/delete`, {}],
      [`${webhookPage}/deliveries/${deliveryId}/redeliver`, {}],
    ];
    const storedBefore = await ctx.db.query('SELECT * FROM webhooks WHERE id = $1', [id]);
    for (const [action, fields] of actions) {
      const res = await web.post(action, { _csrf: csrf, ...fields });
      assert.equal(res.statusCode, 429, `${action}: ${alertText(res.body) ?? res.body.slice(0, 200)}`);
      assert.match(res.body, /Too many requests: your plan allows 5 per 3600 seconds/, action);
      assert.ok(Number(res.headers['retry-after']) >= 1, action);
    }
    assert.deepEqual(await ctx.db.query('SELECT * FROM webhooks WHERE id = $1', [id]), storedBefore);
    assert.equal((await ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM webhooks')).at(0)!.n, 1, 'no second webhook');
    assert.equal(receiver.received.length, LIMIT - 2, 'nothing more was sent');
  });
});
