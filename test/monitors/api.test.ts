// The Monitoring API over HTTP on both stores, against its published shapes and codes: monitors
// created, listed, read, changed and deleted; targets added (normalised, de-duplicated, idempotent,
// resolved at once or pending), listed and removed; limits per tier; the monitor's webhook is a
// webhook of the webhooks API.
import assert from 'node:assert/strict';
import { after, before, beforeEach, it } from 'node:test';
import { companyRecord, jobChangeRecord } from '../fixtures.js';
import { clearData, describeEach, makeKey, startApp, type TestContext } from '../helpers.js';
import { ADMIN_TOKEN, importRecords } from '../ingest/support.js';

interface Monitor {
  id: string;
  name: string;
  signal_types: string[];
  active: boolean;
  webhook: { id: string; endpoint_url: string | null; secret?: string } | null;
  stats: { targets: number; resolved_targets: number; signals_30d: number; last_delivery_at: string | null };
  created_at: string;
  updated_at: string;
}

interface Target {
  id: string;
  monitor_id: string;
  type: string;
  value: string;
  status: string;
  company: { id: string; name: string | null; domain: string | null; country: string | null } | null;
  resolved_at: string | null;
  last_signal_type: string | null;
  last_signal_at: string | null;
  created_at: string;
}

const ACME = companyRecord({
  name: 'Acme Robotics',
  website: 'https://www.acme-robotics.com',
  linkedinUrl: 'https://www.linkedin.com/company/acme-robotics',
  headquartersCountry: 'US',
  industry: 'Robotics',
});
const GLOBEX = companyRecord({
  name: 'Globex',
  website: 'https://globex.io',
  linkedinUrl: 'https://www.linkedin.com/company/globex',
  headquartersCountry: 'DE',
});

const MONITOR_KEYS = ['id', 'name', 'signal_types', 'active', 'webhook', 'stats', 'created_at', 'updated_at'];
const TARGET_KEYS = [
  'id',
  'monitor_id',
  'type',
  'value',
  'status',
  'company',
  'resolved_at',
  'last_signal_type',
  'last_signal_at',
  'created_at',
];

describeEach('monitors API', (backend) => {
  let ctx: TestContext;
  let key: string;

  const call = async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown, bearer = key) => {
    const res = await ctx.app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${bearer}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
      ...(body !== undefined && { payload: JSON.stringify(body) }),
    });
    return {
      status: res.statusCode,
      body: res.json() as Record<string, unknown> & { data: never; meta: never; pagination: { total: number } },
    };
  };
  const importKind = (kind: string, records: object[]) => importRecords(ctx.app, kind, records);
  const expectError = (res: { status: number; body: Record<string, unknown> }, status: number, code: string) => {
    assert.equal(res.status, status, JSON.stringify(res.body));
    assert.equal(res.body.success, false);
    assert.equal(res.body.code, code);
    assert.equal(typeof res.body.error, 'string');
  };
  const create = async (body: object) => {
    const res = await call('POST', '/api/v2/monitors', body);
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body.data as Monitor;
  };

  before(async () => {
    ctx = await startApp(backend, {
      ADMIN_TOKEN,
      WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8',
      MONITORS_MAX_FREE: '2',
      MONITOR_TARGETS_MAX_FREE: '5',
    });
  });
  after(() => ctx.close());
  beforeEach(async () => {
    await clearData(ctx.db);
    key = (await makeKey(ctx.db, 'pro')).key;
    await importKind('companies', [ACME, GLOBEX]);
  });

  it('creates, lists, reads, changes and deletes a monitor, in the published shapes; every call free', async () => {
    const balance = async () =>
      (
        await ctx.db.query<{ n: number }>(`SELECT coalesce(sum(delta), 0)::int AS n FROM credit_ledger WHERE reason = 'request'`)
      )[0]!.n;
    const spent = await balance();
    const res = await call('POST', '/api/v2/monitors', {
      name: 'Targets Q3',
      signal_types: ['funding_round', 'hiring', 'funding_round'],
      webhook_url: 'http://127.0.0.1:9/hooks',
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.deepEqual(res.body.meta, { endpoint: 'monitors.create', creditsUsed: 0 });
    const created = res.body.data as Monitor;
    for (const k of MONITOR_KEYS) assert.ok(k in created, k);
    assert.equal(created.name, 'Targets Q3');
    assert.deepEqual(created.signal_types, ['funding_round', 'hiring']);
    assert.equal(created.active, true);
    assert.match(created.webhook!.secret!, /^whsec_/);
    assert.equal(created.webhook!.endpoint_url, 'http://127.0.0.1:9/hooks');
    assert.deepEqual(created.stats, { targets: 0, resolved_targets: 0, signals_30d: 0, last_delivery_at: null });
    assert.match(created.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

    // Read: the secret never again.
    const got = await call('GET', `/api/v2/monitors/${created.id}`);
    assert.deepEqual(got.body.meta, { endpoint: 'monitors.get', creditsUsed: 0 });
    const read = got.body.data as Monitor;
    assert.equal(read.webhook!.secret, undefined);
    assert.equal(read.webhook!.id, created.webhook!.id);

    // The webhook is one of the webhooks API: readable there, rotatable, but its URL is the monitor's to change.
    const hook = await call('GET', `/api/v2/webhooks/${created.webhook!.id}`);
    assert.equal(hook.status, 200, JSON.stringify(hook.body));
    const rotated = await call('PUT', `/api/v2/webhooks/${created.webhook!.id}`, { rotate_secret: true });
    assert.equal(rotated.status, 200, JSON.stringify(rotated.body));
    expectError(
      await call('PUT', `/api/v2/webhooks/${created.webhook!.id}`, { endpoint_url: 'http://127.0.0.1:8/x' }),
      400,
      'bad_request',
    );
    expectError(await call('DELETE', `/api/v2/webhooks/${created.webhook!.id}`), 400, 'bad_request');

    // An email-only monitor; the list is newest first.
    const mailed = await create({ name: 'Email only', signal_types: ['acquisition'] });
    assert.equal(mailed.webhook, null);
    const list = await call('GET', '/api/v2/monitors');
    assert.deepEqual(list.body.meta, { endpoint: 'monitors.list', creditsUsed: 0 });
    assert.deepEqual(
      (list.body.data as Monitor[]).map((m) => m.id),
      [mailed.id, created.id],
    );

    // Update: partial; the current URL changes nothing; a new one mints a secret; null detaches.
    const same = await call('PUT', `/api/v2/monitors/${created.id}`, {
      webhook_url: 'http://127.0.0.1:9/hooks',
      name: 'Renamed',
    });
    assert.equal(same.status, 200, JSON.stringify(same.body));
    assert.deepEqual(same.body.meta, { endpoint: 'monitors.update', creditsUsed: 0 });
    assert.equal((same.body.data as Monitor).name, 'Renamed');
    assert.equal((same.body.data as Monitor).webhook!.secret, undefined);
    const moved = (await call('PUT', `/api/v2/monitors/${created.id}`, { webhook_url: 'http://127.0.0.1:10/new' })).body
      .data as Monitor;
    assert.match(moved.webhook!.secret!, /^whsec_/);
    assert.notEqual(moved.webhook!.secret, created.webhook!.secret);
    assert.equal(moved.webhook!.id, created.webhook!.id);
    assert.equal(moved.webhook!.endpoint_url, 'http://127.0.0.1:10/new');
    const paused = (await call('PUT', `/api/v2/monitors/${created.id}`, { active: false, signal_types: ['job_change'] })).body
      .data as Monitor;
    assert.deepEqual([paused.active, paused.signal_types], [false, ['job_change']]);
    const detached = (await call('PUT', `/api/v2/monitors/${created.id}`, { webhook_url: null })).body.data as Monitor;
    assert.equal(detached.webhook, null);
    expectError(await call('GET', `/api/v2/webhooks/${created.webhook!.id}`), 404, 'not_found');
    const attached = (await call('PUT', `/api/v2/monitors/${mailed.id}`, { webhook_url: 'http://127.0.0.1:11/a' })).body
      .data as Monitor;
    assert.match(attached.webhook!.secret!, /^whsec_/);

    // Delete: gone, with its webhook.
    const deleted = await call('DELETE', `/api/v2/monitors/${mailed.id}`);
    assert.deepEqual(deleted.body, {
      success: true,
      data: { id: mailed.id, deleted: true },
      meta: { endpoint: 'monitors.delete', creditsUsed: 0 },
    });
    expectError(await call('GET', `/api/v2/monitors/${mailed.id}`), 404, 'not_found');
    expectError(await call('GET', `/api/v2/webhooks/${attached.webhook!.id}`), 404, 'not_found');
    assert.equal(await balance(), spent);
  });

  it('refuses bad input with the published codes, and changes nothing', async () => {
    const bad = await call('POST', '/api/v2/monitors', { name: 'x', signal_types: ['funding'] });
    expectError(bad, 400, 'bad_request');
    expectError(await call('POST', '/api/v2/monitors', { name: '', signal_types: ['hiring'] }), 400, 'bad_request');
    expectError(await call('POST', '/api/v2/monitors', { name: 'x', signal_types: [] }), 400, 'bad_request');
    expectError(
      await call('POST', '/api/v2/monitors', { name: 'x', signal_types: ['hiring'], webhook_url: 'http://10.0.0.1/hook' }),
      400,
      'bad_request',
    );
    expectError(
      await call('POST', '/api/v2/monitors', { name: 'x', signal_types: ['hiring'], backfill_days: 91 }),
      400,
      'bad_request',
    );
    expectError(await call('GET', '/api/v2/monitors', undefined, 'not-a-key'), 401, 'invalid_api_key');
    expectError(await call('GET', '/api/v2/monitors/00000000-0000-4000-8000-000000000000'), 404, 'not_found');
    expectError(await call('GET', '/api/v2/monitors/nope'), 404, 'not_found');
    const monitor = await create({ name: 'm', signal_types: ['hiring'] });
    expectError(await call('PUT', `/api/v2/monitors/${monitor.id}`, {}), 400, 'bad_request');
    expectError(await call('GET', `/api/v2/monitors/${monitor.id}/targets?limit=201`), 400, 'bad_request');
    expectError(
      await call('POST', `/api/v2/monitors/${monitor.id}/targets`, { targets: ['not a target', '???'] }),
      400,
      'bad_request',
    );
    // Another account's monitor is as good as absent.
    const other = (await makeKey(ctx.db, 'pro')).key;
    expectError(await call('GET', `/api/v2/monitors/${monitor.id}`, undefined, other), 404, 'not_found');
    expectError(await call('DELETE', `/api/v2/monitors/${monitor.id}`, undefined, other), 404, 'not_found');
    assert.equal(((await call('GET', '/api/v2/monitors')).body.data as unknown[]).length, 1);
    assert.equal((await call('GET', `/api/v2/monitors/${monitor.id}/targets`)).body.pagination.total, 0);
  });

  it('adds targets normalised, de-duplicated and idempotent, resolves known companies at once, lists and removes them', async () => {
    await importKind('job-changes', [
      jobChangeRecord({
        personLinkedinUrl: 'https://www.linkedin.com/in/jane-doe',
        companyName: 'Globex',
        companyLinkedinUrl: 'https://linkedin.com/company/globex',
      }),
    ]);
    const monitor = await create({ name: 'Accounts', signal_types: ['funding_round', 'job_change'] });
    const res = await call('POST', `/api/v2/monitors/${monitor.id}/targets`, {
      targets: [
        'https://www.Acme-Robotics.com/about',
        'acme-robotics.com',
        'linkedin.com/company/acme-robotics/',
        'https://uk.linkedin.com/in/Jane-Doe?trk=x',
        'unknown-startup.dev',
        'not a domain',
        'https://www.linkedin.com/school/some-school',
      ],
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.meta, { endpoint: 'monitors.targets.add', creditsUsed: 0 });
    const data = res.body.data as {
      added: Target[];
      skipped_existing: number;
      invalid: string[];
      pending: string[];
      resolved_companies: number;
    };
    assert.deepEqual(data.invalid, ['not a domain', 'https://www.linkedin.com/school/some-school']);
    assert.equal(data.skipped_existing, 0);
    assert.deepEqual(data.pending, ['unknown-startup.dev']);
    // Acme by domain and by page (one company), Globex through Jane's job change.
    assert.equal(data.resolved_companies, 2);
    const byValue = new Map(data.added.map((t) => [t.value, t]));
    assert.deepEqual([...byValue.keys()].sort(), [
      'acme-robotics.com',
      'linkedin.com/company/acme-robotics',
      'linkedin.com/in/jane-doe',
      'unknown-startup.dev',
    ]);
    for (const target of data.added) for (const k of TARGET_KEYS) assert.ok(k in target, k);
    const acme = byValue.get('acme-robotics.com')!;
    assert.deepEqual(
      [acme.type, acme.status, acme.company?.name, acme.company?.domain, acme.company?.country],
      ['domain', 'resolved', 'Acme Robotics', 'acme-robotics.com', 'US'],
    );
    assert.ok(acme.resolved_at);
    assert.equal(byValue.get('linkedin.com/company/acme-robotics')!.type, 'linkedin_company');
    const jane = byValue.get('linkedin.com/in/jane-doe')!;
    assert.deepEqual([jane.type, jane.status, jane.company?.name], ['linkedin_profile', 'resolved', 'Globex']);
    assert.equal(jane.last_signal_type, 'job_change');
    const pending = byValue.get('unknown-startup.dev')!;
    assert.deepEqual([pending.status, pending.company, pending.resolved_at], ['pending', null, null]);

    // Idempotent: again, nothing added.
    const again = (await call('POST', `/api/v2/monitors/${monitor.id}/targets`, { targets: ['ACME-robotics.com', 'globex.io'] }))
      .body.data as typeof data;
    assert.equal(again.skipped_existing, 1);
    assert.deepEqual(
      again.added.map((t) => t.value),
      ['globex.io'],
    );

    // Listing: newest first, by status, paged.
    const all = await call('GET', `/api/v2/monitors/${monitor.id}/targets`);
    assert.deepEqual(all.body.meta, { endpoint: 'monitors.targets.list', creditsUsed: 0 });
    assert.deepEqual(all.body.pagination, { limit: 100, offset: 0, count: 5, total: 5 });
    assert.equal((all.body.data as Target[])[0]!.value, 'globex.io');
    const onlyPending = await call('GET', `/api/v2/monitors/${monitor.id}/targets?status=pending`);
    assert.deepEqual(
      (onlyPending.body.data as Target[]).map((t) => t.value),
      ['unknown-startup.dev'],
    );
    const page = await call('GET', `/api/v2/monitors/${monitor.id}/targets?status=resolved&limit=2&offset=2`);
    assert.deepEqual(page.body.pagination, { limit: 2, offset: 2, count: 2, total: 4 });
    const stats = ((await call('GET', `/api/v2/monitors/${monitor.id}`)).body.data as Monitor).stats;
    assert.deepEqual([stats.targets, stats.resolved_targets], [5, 4]);

    // Remove one; a target of another monitor is not found in this one.
    const removed = await call('DELETE', `/api/v2/monitors/${monitor.id}/targets/${pending.id}`);
    assert.deepEqual(removed.body, {
      success: true,
      data: { id: pending.id, deleted: true },
      meta: { endpoint: 'monitors.targets.remove', creditsUsed: 0 },
    });
    expectError(await call('DELETE', `/api/v2/monitors/${monitor.id}/targets/${pending.id}`), 404, 'not_found');
    const second = await create({ name: 'Other', signal_types: ['hiring'] });
    expectError(await call('DELETE', `/api/v2/monitors/${second.id}/targets/${acme.id}`), 404, 'not_found');

    // Bulk: a LinkedIn company URL removes only the target added by it.
    const bulk = await call('POST', `/api/v2/monitors/${monitor.id}/targets/remove`, {
      ids: [jane.id, '00000000-0000-4000-8000-000000000000', 'junk'],
      targets: ['https://linkedin.com/company/acme-robotics', 'nobody.example', '%%%'],
    });
    assert.equal(bulk.status, 200, JSON.stringify(bulk.body));
    const bulkData = bulk.body.data as { removed: Target[]; not_found: string[]; invalid: string[]; resolved_companies: number };
    assert.deepEqual(bulkData.removed.map((t) => t.value).sort(), [
      'linkedin.com/company/acme-robotics',
      'linkedin.com/in/jane-doe',
    ]);
    assert.deepEqual(bulkData.not_found, ['00000000-0000-4000-8000-000000000000', 'nobody.example']);
    assert.deepEqual(bulkData.invalid, ['junk', '%%%']);
    // Acme (by domain) and Globex (by domain) are left.
    assert.equal(bulkData.resolved_companies, 2);
  });

  it('keeps the limits per tier: monitors and targets of an account, nothing added past them', async () => {
    key = (await makeKey(ctx.db, 'free')).key;
    const first = await create({ name: 'one', signal_types: ['hiring'] });
    await create({ name: 'two', signal_types: ['hiring'] });
    expectError(await call('POST', '/api/v2/monitors', { name: 'three', signal_types: ['hiring'] }), 400, 'bad_request');
    const ok = await call('POST', `/api/v2/monitors/${first.id}/targets`, { targets: ['a1.com', 'a2.com', 'a3.com'] });
    assert.equal(ok.status, 200);
    const over = await call('POST', `/api/v2/monitors/${first.id}/targets`, {
      targets: ['a3.com', 'a4.com', 'a5.com', 'a6.com'],
    });
    expectError(over, 400, 'bad_request');
    assert.match(String(over.body.error), /at most 5 targets/);
    assert.equal((await call('GET', `/api/v2/monitors/${first.id}/targets`)).body.pagination.total, 3);
    // Already there counts nothing: two new ones fit.
    const fits = await call('POST', `/api/v2/monitors/${first.id}/targets`, { targets: ['a3.com', 'a4.com', 'a5.com'] });
    assert.equal(fits.status, 200, JSON.stringify(fits.body));
  });
});
