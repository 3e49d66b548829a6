// What monitors are sent, over HTTP on both stores with a real receiver: each new signal about a
// watched company, once per monitor, signed both ways and billed as a webhook delivery; nothing
// while paused; a pending target resolved in the pass that reads the import that brings its company
// (and that import's signals delivered); backfill and replay exactly once per request.
import assert from 'node:assert/strict';
import { after, before, beforeEach, it } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { companyRecord, fundingRecord, jobChangeRecord, maRecord } from '../fixtures.js';
import { clearData, describeEach, makeKey, startApp, type TestContext } from '../helpers.js';
import { ADMIN_TOKEN, importRecords } from '../ingest/support.js';
import { eventually } from '../webhooks/support.js';
import { startReceiver, verifyBoth, type TestReceiver } from '../webhooks/receiver.js';

interface MonitorSignal {
  monitor_id: string;
  monitor_name: string;
  signal_type: string;
  target_ids: string[];
  company_ids: string[];
  source: string;
  backfill: boolean;
  signal: Record<string, unknown>;
}

const ACME = companyRecord({
  name: 'Acme Robotics',
  website: 'https://www.acme-robotics.com',
  linkedinUrl: 'https://www.linkedin.com/company/acme-robotics',
  headquartersCountry: 'US',
});
const GLOBEX = companyRecord({ name: 'Globex', website: 'https://globex.io', linkedinUrl: null, headquartersCountry: 'DE' });
const DAY = 86_400_000;
const daysAgo = (n: number) => new Date(Date.now() - n * DAY).toISOString();

const roundOf = (name: string, website: string, dateSeen = new Date().toISOString()) =>
  fundingRecord({
    company_name: name,
    date_seen: dateSeen,
    company_info: { ...fundingRecord().company_info, name, website },
    contact_info: [],
  });

describeEach('monitor deliveries', (backend) => {
  let ctx: TestContext;
  let key: string;
  let accountId: number;
  let receiver: TestReceiver;

  const call = async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown) => {
    const res = await ctx.app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${key}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
      ...(body !== undefined && { payload: JSON.stringify(body) }),
    });
    assert.ok(res.statusCode < 300, `${method} ${url}: ${res.statusCode} ${res.body}`);
    return res.json() as { data: never; meta: never };
  };
  const importKind = (kind: string, records: object[]) => importRecords(ctx.app, kind, records);
  const webhookDebits = async () =>
    (
      await ctx.db.query<{ n: number }>(
        `SELECT coalesce(-sum(delta), 0)::int AS n FROM credit_ledger WHERE account_id = $1 AND reason = 'webhook'`,
        [accountId],
      )
    )[0]!.n;
  /** The events received for a path, verified with the secret. */
  const eventsAt = (path: string, secret: string) =>
    receiver.received
      .filter((r) => r.url === path)
      .map((r) => verifyBoth(secret, r) as { event_id: string; event_type: string; data: MonitorSignal });
  const waitUntil = (what: string, check: () => boolean | Promise<boolean>) => eventually(async () => check(), 10_000, what);
  const createMonitor = async (path: string, body: object) => {
    const monitor = (await call('POST', '/api/v2/monitors', { webhook_url: `${receiver.url}${path}`, ...body })).data as {
      id: string;
      webhook: { id: string; secret: string };
    };
    return monitor;
  };
  const addTargets = async (monitorId: string, targets: string[], extra: object = {}) =>
    (await call('POST', `/api/v2/monitors/${monitorId}/targets`, { targets, ...extra })).data as {
      added: { id: string; value: string; status: string }[];
    };

  before(async () => {
    receiver = await startReceiver('');
    ctx = await startApp(backend, {
      ADMIN_TOKEN,
      WEBHOOK_DELIVERY: 'true',
      WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8',
      WEBHOOK_POLL_MS: '50',
      WEBHOOK_RETRY_DELAYS: '1',
    });
  });
  after(async () => {
    await ctx.close();
    await receiver.close();
  });
  beforeEach(async () => {
    await clearData(ctx.db);
    ({ key, accountId } = await makeKey(ctx.db, 'enterprise'));
    await importKind('companies', [ACME, GLOBEX]);
  });

  it('sends each new signal about a watched company once per monitor, signed and billed; nothing while paused', async () => {
    const monitor = await createMonitor('/a', { name: 'Acme watch', signal_types: ['funding_round', 'acquisition'] });
    const other = await createMonitor('/b', { name: 'Hiring only', signal_types: ['hiring'] });
    const added = await addTargets(monitor.id, ['acme-robotics.com', 'https://linkedin.com/company/acme-robotics']);
    await addTargets(other.id, ['acme-robotics.com']);
    const targetIds = added.added.map((t) => t.id).sort();
    const debits = await webhookDebits();

    await importKind('funding', [
      roundOf('Acme Robotics', 'https://acme-robotics.com'),
      roundOf('Elsewhere', 'https://elsewhere.dev'),
    ]);
    await importKind('job-changes', [
      jobChangeRecord({ companyName: 'Acme', companyLinkedinUrl: 'https://linkedin.com/company/acme-robotics' }),
    ]);
    // Acme as the acquirer of a deal.
    await importKind('m-a', [
      maRecord({
        acquired_by: 'Acme Robotics',
        acquired_by_linkedin_url: 'https://www.linkedin.com/company/acme-robotics',
        date_seen: new Date().toISOString(),
      }),
    ]);
    await waitUntil('two events', () => eventsAt('/a', monitor.webhook.secret).length >= 2);
    await delay(500);
    const events = eventsAt('/a', monitor.webhook.secret);
    assert.deepEqual(
      events.map((e) => e.data.signal_type),
      ['funding_round', 'acquisition'],
    );
    assert.equal(eventsAt('/b', other.webhook.secret).length, 0, 'the hiring monitor hears of none of these');
    const [funding, deal] = events;
    assert.equal(funding!.event_type, 'monitor.signal');
    assert.deepEqual(
      {
        monitor_id: funding!.data.monitor_id,
        monitor_name: funding!.data.monitor_name,
        target_ids: funding!.data.target_ids,
        backfill: funding!.data.backfill,
        source: funding!.data.source,
      },
      {
        monitor_id: monitor.id,
        monitor_name: 'Acme watch',
        target_ids: targetIds,
        backfill: false,
        source: '/api/v2/signals/funding',
      },
    );
    assert.equal(funding!.data.signal.companyName, 'Acme Robotics');
    assert.equal(funding!.data.signal.companyId, funding!.data.company_ids[0]);
    assert.equal(deal!.data.source, '/api/v1/m-a');
    assert.equal(deal!.data.signal.acquirerCompanyId ?? deal!.data.company_ids[0], funding!.data.company_ids[0]);
    await waitUntil('the charges', async () => (await webhookDebits()) === debits + 2);
    // The delivery log of the Webhooks API shows them.
    await waitUntil('both in the delivery log', async () => {
      const log = (await call('GET', `/api/v2/webhooks/${monitor.webhook.id}/deliveries`)) as unknown as { data: unknown[] };
      return log.data.length === 2;
    });
    const read = (await call('GET', `/api/v2/monitors/${monitor.id}`)).data as {
      stats: { last_delivery_at: string | null; signals_30d: number };
    };
    assert.ok(read.stats.last_delivery_at);
    assert.equal(read.stats.signals_30d, 2);

    // Paused: nothing more, and the targets stay.
    await call('PUT', `/api/v2/monitors/${monitor.id}`, { active: false });
    await importKind('funding', [roundOf('Acme Robotics', 'https://acme-robotics.com', daysAgo(0.5))]);
    await delay(800);
    assert.equal(eventsAt('/a', monitor.webhook.secret).length, 2);
    const targets = (await call('GET', `/api/v2/monitors/${monitor.id}/targets`)) as unknown as { pagination: { total: number } };
    assert.equal(targets.pagination.total, 2);

    // The Webhooks API's test and retry reach the monitor's webhook.
    const tested = (await call('POST', `/api/v2/webhooks/${monitor.webhook.id}/test`)) as unknown as { success: boolean };
    assert.equal(tested.success, true);
    await waitUntil('the test event', () => eventsAt('/a', monitor.webhook.secret).some((e) => e.event_type === 'system.test'));
    const log = (await call('GET', `/api/v2/webhooks/${monitor.webhook.id}/deliveries`)) as unknown as {
      data: { id: string; event_type: string }[];
    };
    // A retry reaches the monitor's delivery (one that succeeded has nothing to retry: the published 409).
    const signal = log.data.find((d) => d.event_type === 'monitor.signal')!;
    const retry = await ctx.app.inject({
      method: 'POST',
      url: `/api/v2/webhooks/${monitor.webhook.id}/deliveries/${signal.id}/retry`,
      headers: { authorization: `Bearer ${key}` },
    });
    assert.deepEqual([retry.statusCode, (retry.json() as { code: string }).code], [409, 'conflict']);
  });

  it("resolves a pending target in the pass that reads the import bringing its company, and sends that import's signals", async () => {
    const monitor = await createMonitor('/p', { name: 'New names', signal_types: ['funding_round'] });
    const added = await addTargets(monitor.id, ['newco.ai', 'https://www.laterco.io/about']);
    assert.deepEqual(
      added.added.map((t) => t.status),
      ['pending', 'pending'],
    );
    // A companies import resolves newco.ai.
    await importKind('companies', [companyRecord({ name: 'NewCo', website: 'https://newco.ai', linkedinUrl: null })]);
    await waitUntil('newco.ai resolved', async () => {
      const page = (await call('GET', `/api/v2/monitors/${monitor.id}/targets?status=resolved`)) as unknown as {
        data: { value: string; resolved_at: string | null; company: { name: string } | null }[];
      };
      return page.data.some((t) => t.value === 'newco.ai' && t.resolved_at !== null && t.company?.name === 'NewCo');
    });
    // A funding round of a company no one imported makes it from the record: the target resolves
    // and the round is sent, in one pass.
    await importKind('funding', [roundOf('LaterCo', 'https://laterco.io')]);
    await waitUntil('the round', () => eventsAt('/p', monitor.webhook.secret).length >= 1);
    await delay(300);
    const events = eventsAt('/p', monitor.webhook.secret);
    assert.equal(events.length, 1);
    assert.equal(events[0]!.data.signal.companyName, 'LaterCo');
    const stats = ((await call('GET', `/api/v2/monitors/${monitor.id}`)).data as { stats: { resolved_targets: number } }).stats;
    assert.equal(stats.resolved_targets, 2);
  });

  it('backfills a newly resolved target once, in date order, and replays with the original ids, billed', async () => {
    await importKind('funding', [
      roundOf('Acme Robotics', 'https://acme-robotics.com', daysAgo(40)),
      roundOf('Acme Robotics', 'https://acme-robotics.com', daysAgo(5)),
      roundOf('Acme Robotics', 'https://acme-robotics.com', daysAgo(10)),
    ]);
    const monitor = await createMonitor('/f', { name: 'Backfilled', signal_types: ['funding_round'], backfill_days: 30 });
    const added = await addTargets(monitor.id, ['acme-robotics.com']);
    await waitUntil('the backfill', () => eventsAt('/f', monitor.webhook.secret).length >= 2);
    await delay(500);
    const backfilled = eventsAt('/f', monitor.webhook.secret);
    assert.equal(backfilled.length, 2, 'the 40-day-old round is outside the window');
    assert.ok(backfilled.every((e) => e.data.backfill));
    const dates = backfilled.map((e) => String(e.data.signal.lastUpdated ?? e.data.signal.announcedDate));
    assert.deepEqual([...dates].sort(), dates, 'oldest first');

    // Removed and added again: the same records are not sent twice.
    await call('DELETE', `/api/v2/monitors/${monitor.id}/targets/${added.added[0]!.id}`);
    await addTargets(monitor.id, ['acme-robotics.com']);
    await delay(800);
    assert.equal(eventsAt('/f', monitor.webhook.secret).length, 2);

    // Replay: the same events again (ids and bodies), 1 credit each, debited at once.
    const before = receiver.received.length;
    const replay = (await call('POST', `/api/v2/monitors/${monitor.id}/replay`, { since: daysAgo(1) })) as unknown as {
      data: { events: number; webhook_id: string };
      meta: { endpoint: string; creditsUsed: number };
    };
    assert.deepEqual([replay.data.events, replay.data.webhook_id], [2, monitor.webhook.id]);
    assert.deepEqual([replay.meta.endpoint, replay.meta.creditsUsed], ['monitors.replay', 2]);
    await receiver.waitFor(before + 2);
    const replayed = receiver.received.slice(before).map((r) => verifyBoth(monitor.webhook.secret, r));
    assert.deepEqual(
      replayed.map((e) => e.event_id),
      backfilled.map((e) => e.event_id),
    );
    assert.deepEqual(
      receiver.received.slice(before).map((r) => r.body),
      receiver.received
        .filter((r) => r.url === '/f')
        .slice(0, 2)
        .map((r) => r.body),
    );
    const replayCharge = await ctx.db.query<{ n: number }>(
      `SELECT coalesce(-sum(delta), 0)::int AS n FROM credit_ledger WHERE account_id = $1 AND endpoint = 'monitors.replay'`,
      [accountId],
    );
    assert.equal(replayCharge[0]!.n, 2);
  });
});
