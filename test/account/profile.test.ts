import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { setAccountTier, setV1RateLimit } from '../../src/accounts/account-queries.js';
import { nextRefill } from '../../src/accounts/accounts.js';
import { niceScale } from '../../src/accounts/portal/usage-chart.js';
import { formatDate } from '../../src/platform/web/format.js';
import { type TestContext, describeOnOneStore } from '../helpers.js';
import { fundingRecord, insertFunding, insertInvestors, investorRecord } from '../fixtures.js';
import { startReceiver, type TestReceiver } from '../webhooks/receiver.js';
import { csrfOf, startWebApp, uniqueEmail, WebClient } from './web-client.js';

const factRow = (label: string, value: string) => new RegExp(`<dt>${label}</dt><dd>${value}</dd>`);

describeOnOneStore('account pages: the profile page', (backend) => {
  let ctx: TestContext;
  before(async () => {
    ctx = await startWebApp(backend, { RATE_LIMIT_PRO: '75', RATE_LIMIT_V1: '45', CREDITS_PRO: '5000' });
    await insertInvestors(ctx.db, [investorRecord(), investorRecord()]);
  });
  after(() => ctx.close());

  it('shows the tier and its limits, following set-tier and an own v1 limit', async () => {
    const web = new WebClient(ctx.app);
    const email = uniqueEmail('plan');
    await web.signUpAndIn(email);
    let page = (await web.get('/account')).body;
    assert.match(page, /<span class="badge badge--free">Free<\/span>/);
    assert.match(page, factRow('Signals \\(v2\\)', '10 requests / min'));
    assert.match(page, factRow('Funding &amp; M&amp;A \\(v1\\)', '45 requests / min'));
    assert.match(page, factRow('Monthly credits', '100'));

    await setAccountTier(ctx.db, email, 'pro');
    await setV1RateLimit(ctx.db, email, 1200);
    page = (await web.get('/account')).body;
    assert.match(page, /<span class="badge badge--pro">Pro<\/span>/);
    assert.match(page, factRow('Signals \\(v2\\)', '75 requests / min'));
    assert.match(page, factRow('Funding &amp; M&amp;A \\(v1\\)', '1,200 requests / min'));
    assert.match(page, factRow('Monthly credits', '5,000'));
  });

  it('shows the credit balance and the next refill date, and both move with use', async () => {
    const web = new WebClient(ctx.app);
    await web.signUpAndIn(uniqueEmail('credits'));
    let page = (await web.get('/account')).body;
    assert.match(page, /<p class="stat-value" id="credit-balance"> ?100<span class="stat-unit"> of 100 left<\/span><\/p>/);
    const refill = nextRefill(new Date());
    assert.equal(refill.getUTCDate(), 1);
    assert.match(
      page,
      new RegExp(
        `<dt>Next refill</dt><dd><time datetime="${refill.toISOString().slice(0, 10)}">${formatDate(refill)}</time></dd>`,
      ),
    );

    const { key } = await web.createKey();
    for (let i = 0; i < 3; i++) {
      const res = await ctx.app.inject({ url: '/api/v2/signals/investors', headers: { authorization: `Bearer ${key}` } });
      assert.equal(res.statusCode, 200);
    }
    await ctx.app.inject({ url: '/api/v1/funding', headers: { 'x-lot-api-key': key } });
    page = (await web.get('/account')).body;
    assert.match(page, /id="credit-balance"> ?97</);
    assert.match(page, /<p class="stat-value" id="request-count">4<\/p>/);
    assert.match(page, /<dt><span class="swatch swatch--v1"><\/span>v1<\/dt><dd>1<\/dd>/);
    assert.match(page, /<dt><span class="swatch swatch--v2"><\/span>v2<\/dt><dd>3<\/dd>/);
    assert.match(page, /<dt><span class="swatch swatch--credits"><\/span>Credits used<\/dt><dd>3<\/dd>/);
  });

  it('draws the usage of the last 30 days as inline SVG, with a data table', async () => {
    const web = new WebClient(ctx.app);
    const email = uniqueEmail('chart');
    await web.signUpAndIn(email);
    const { key } = await web.createKey();
    const [account] = await ctx.db.query<{ id: number }>('SELECT id::int FROM accounts WHERE email = $1', [email]);
    const [keyRow] = await ctx.db.query<{ id: string }>('SELECT id FROM api_keys WHERE account_id = $1', [account!.id]);
    // Recorded usage 3 days ago (a v1 call and two charged v2 calls) and 40 days ago (outside the chart).
    await ctx.db.query(
      `INSERT INTO usage_events (account_id, key_id, family, endpoint, status, credits, created_at) VALUES
         ($1, $2, 'v1', '/api/v1/funding', 200, 0, now() - interval '3 days'),
         ($1, $2, 'v2', '/api/v2/signals/investors', 200, 1, now() - interval '3 days'),
         ($1, $2, 'v2', '/api/v2/signals/investors', 200, 1, now() - interval '3 days'),
         ($1, $2, 'v2', '/api/v2/signals/investors', 200, 1, now() - interval '40 days')`,
      [account!.id, keyRow!.id],
    );
    // Credits used come from the ledger: the two charged calls 3 days ago, and the one 40 days ago.
    await ctx.db.query(
      `INSERT INTO credit_ledger (account_id, key_id, delta, balance_after, reason, endpoint, created_at) VALUES
         ($1, $2, -1, 99, 'request', 'investors', now() - interval '3 days'),
         ($1, $2, -1, 98, 'request', 'investors', now() - interval '3 days'),
         ($1, $2, -1, 97, 'request', 'investors', now() - interval '40 days')`,
      [account!.id, keyRow!.id],
    );
    await ctx.app.inject({ url: '/api/v2/signals/investors', headers: { authorization: `Bearer ${key}` } });
    const page = (await web.get('/account')).body;

    const svgs = page.match(/<svg class="chart"[^]*?<\/svg>/g) ?? [];
    assert.equal(svgs.length, 4, 'requests and credits charts, wide and narrow');
    const requests = svgs[0]!;
    assert.match(requests, /role="img" aria-labelledby="requests-wide-title requests-wide-desc"/);
    assert.match(requests, /<title id="requests-wide-title">API requests per day, last 30 days<\/title>/);
    assert.match(requests, /<desc id="requests-wide-desc"> ?1 v1 request and 3 v2 requests from/);
    assert.equal(requests.match(/<g class="chart-day">/g)?.length, 30);
    assert.equal(requests.match(/class="bar-v1"/g)?.length, 1);
    assert.equal(requests.match(/class="bar-v2"/g)?.length, 2);
    const threeDaysAgo = new Date(Date.now() - 3 * 86_400_000);
    const label = threeDaysAgo.toLocaleDateString('en-US', { timeZone: 'UTC', month: 'short', day: 'numeric' });
    assert.match(requests, new RegExp(`<title> ?${label}: 1 v1 request, 2 v2 requests ?</title>`));
    assert.match(svgs[1]!, /class="chart-tick"/, 'axis labels');
    assert.match(svgs[2]!, /<desc id="credits-wide-desc"> ?3 credits used in the last 30 days\. ?<\/desc>/);
    assert.match(svgs[2]!, /class="credits-line"/);
    assert.match(page, /class="legend"/);
    assert.match(page, new RegExp(`<tr><th scope="row">${label}</th><td>1</td><td>2</td><td>2</td></tr>`));
  });

  it('an account without usage gets an empty chart that says so', async () => {
    const web = new WebClient(ctx.app);
    await web.signUpAndIn(uniqueEmail('empty'));
    const page = (await web.get('/account')).body;
    assert.match(page, /No requests in the last 30 days/);
    assert.match(page, /No API keys yet/);
  });

  it("the quick start has ready-to-run curls for v1 and v2 on the service's base URL", async () => {
    const web = new WebClient(ctx.app);
    await web.signUpAndIn(uniqueEmail('quick'));
    const { body: page, raw } = await web.get('/account');
    const base = ctx.config.publicUrl;
    // The commands exactly as they are copied: one line break, a two-space indent.
    assert.ok(
      raw.includes(
        `<code id="curl-v1">curl -H &#39;x-lot-api-key: YOUR_API_KEY&#39; \\\n  &#39;${base}/api/v1/funding?country=US&#39;</code>`,
      ),
    );
    assert.ok(
      raw.includes(
        `<code id="curl-v2">curl -H &#39;Authorization: Bearer YOUR_API_KEY&#39; \\\n  &#39;${base}/api/v2/signals/investors?countries=US&amp;limit=5&#39;</code>`,
      ),
    );
    assert.match(page, /data-copy="curl-v1" hidden>Copy</);
  });
});

describeOnOneStore('account pages: credits used, by use, as the ledger has them', (backend) => {
  let ctx: TestContext;
  let receiver: TestReceiver;
  before(async () => {
    ctx = await startWebApp(backend, {
      WEBHOOK_DELIVERY: 'true',
      WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8',
      WEBHOOK_POLL_MS: '50',
    });
    receiver = await startReceiver();
    await insertInvestors(ctx.db, [investorRecord(), investorRecord()]);
  });
  after(async () => {
    await ctx.close();
    await receiver.close();
  });

  it('API pages, feed pages and webhook deliveries each count, and add up to every credit the ledger took', async () => {
    const web = new WebClient(ctx.app);
    const email = uniqueEmail('uses');
    await web.signUpAndIn(email);
    const [account] = await ctx.db.query<{ id: number }>('SELECT id::int FROM accounts WHERE email = $1', [email]);
    const { key } = await web.createKey();
    const get = async (url: string) => {
      const res = await ctx.app.inject({ url, headers: { authorization: `Bearer ${key}` } });
      assert.equal(res.statusCode, 200, `${url}: ${res.body}`);
    };
    for (let i = 0; i < 3; i++) await get('/api/v2/signals/investors?limit=1');
    await get('/api/v2/signals/investors?count=true'); // free
    for (let i = 0; i < 2; i++) await get('/api/v2/changes?limit=1');

    // A webhook, and a matching record: its delivery costs 1 credit.
    const page = await web.get('/account');
    const created = await web.postPairs('/account/webhooks', [
      ['_csrf', csrfOf(page.body)],
      ['endpoint_url', receiver.url],
      ['event_types', 'funding.created'],
    ]);
    assert.equal(created.statusCode, 303);
    await insertFunding(ctx.db, [fundingRecord({ company_name: 'Ledger Hooks Inc' })]);
    await receiver.waitFor(1);
    const ledger = async () =>
      ctx.db.query<{ reason: string; endpoint: string | null; delta: number }>(
        `SELECT reason, endpoint, delta::int FROM credit_ledger
          WHERE account_id = $1 AND reason NOT IN ('refill', 'grant', 'set') ORDER BY id`,
        [account!.id],
      );
    // The delivery's debit is written with its attempt; wait for it (the worker runs on its own).
    for (let i = 0; i < 100 && !(await ledger()).some((row) => row.reason === 'webhook'); i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const rows = await ledger();
    const spent = rows.reduce((sum, row) => sum - row.delta, 0);
    assert.equal(spent, 6, JSON.stringify(rows));

    const profile = (await web.get('/account')).body;
    const use = (name: string) => new RegExp(`<div data-use="${name}"><dt>[^<]+</dt><dd>(\\d+)</dd></div>`).exec(profile)?.[1];
    assert.match(profile, /<dt>API pages<\/dt><dd>3<\/dd>/);
    assert.match(profile, /<dt>Feed pages<\/dt><dd>2<\/dd>/);
    assert.match(profile, /<dt>Webhook deliveries<\/dt><dd>1<\/dd>/);
    const shown = ['api', 'feed', 'webhook'].map((name) => Number(use(name)));
    assert.equal(
      shown.reduce((a, b) => a + b, 0),
      spent,
      'the uses add up to the ledger',
    );
    assert.match(profile, new RegExp(`<dt><span class="swatch swatch--credits"></span>Credits used</dt><dd>${spent}</dd>`));
    assert.match(profile, new RegExp(`id="credit-balance"> ?${100 - spent}<`));
    // The chart's credits are the ledger's too.
    assert.match(profile, new RegExp(`<desc id="credits-wide-desc"> ?${spent} credits used in the last 30 days\\. ?</desc>`));
  });
});

it('chart axis: round maxima in whole steps', () => {
  assert.deepEqual(niceScale(0), { max: 4, step: 1 });
  assert.deepEqual(niceScale(1), { max: 4, step: 1 });
  assert.deepEqual(niceScale(5), { max: 6, step: 2 });
  assert.deepEqual(niceScale(49), { max: 60, step: 20 });
  assert.deepEqual(niceScale(100), { max: 100, step: 25 });
  assert.deepEqual(niceScale(7, 2), { max: 10, step: 5 });
});
