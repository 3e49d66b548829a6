import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import Fastify from 'fastify';
import { buildApp } from '../../src/app.js';
import { MemoryRateLimitStore } from '../../src/platform/infra/rate-limit-store.js';
import { accountRoutes } from '../../src/families/portal.js';
import { CreditMeter } from '../../src/accounts/credits.js';
import { KeyVerifier } from '../../src/accounts/key-verifier.js';
import { UsageRecorder } from '../../src/accounts/usage.js';
import { testConfig, type TestContext, describeOnOneStore } from '../helpers.js';
import { insertInvestors, investorRecord } from '../fixtures.js';
import { alertText, csrfOf, shownKey, startWebApp, uniqueEmail, WebClient } from './web-client.js';

const DAY_MS = 24 * 60 * 60 * 1000;

describeOnOneStore('account pages: API keys', (backend) => {
  let ctx: TestContext;
  before(async () => {
    ctx = await startWebApp(backend);
    await insertInvestors(ctx.db, [investorRecord()]);
  });
  after(() => ctx.close());

  const call = async (key: string) =>
    (await ctx.app.inject({ url: '/api/v2/signals/investors', headers: { authorization: `Bearer ${key}` } })).statusCode;
  const keyRow = async (id: string) => (await ctx.db.query('SELECT * FROM api_keys WHERE id = $1', [id]))[0];
  const keyIdOf = async (key: string) =>
    (
      await ctx.db.query<{ id: string }>('SELECT id FROM api_keys WHERE key_hash = $1', [
        createHash('sha256').update(key).digest('hex'),
      ])
    )[0]!.id;

  async function signedIn(label: string): Promise<WebClient> {
    const web = new WebClient(ctx.app);
    assert.equal((await web.signUpAndIn(uniqueEmail(label))).statusCode, 303);
    return web;
  }

  describe('create', () => {
    it('shows the full key once; the database keeps only its hash; the key works', async () => {
      const web = await signedIn('create');
      const { res, key } = await web.createKey('production');
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['cache-control'], 'no-store');
      assert.match(key, /^ds_[0-9A-Za-z]{38}$/);
      assert.match(res.body, /Your new key “production” is ready/);
      assert.ok(res.body.includes(`curl -H &#39;x-lot-api-key: ${key}&#39;`), 'quick start filled in with the new key');

      // Grep every stored column of every key row for the key: only its SHA-256 is there.
      const rows = await ctx.db.query('SELECT * FROM api_keys');
      assert.ok(!JSON.stringify(rows).includes(key));
      assert.ok(!JSON.stringify(rows).includes(key.slice(3)));
      const row = rows.find((r) => r.key_hash === createHash('sha256').update(key).digest('hex'));
      assert.ok(row, 'hash stored');
      assert.equal(row.name, 'production');
      assert.equal(row.prefix, key.slice(0, 7));
      assert.equal(row.last4, key.slice(-4));

      // Never again: the profile page shows only prefix…last 4.
      const again = await web.get('/account');
      assert.ok(!again.body.includes(key));
      assert.equal(shownKey(again.body), undefined);
      assert.ok(again.body.includes(`${key.slice(0, 7)}…${key.slice(-4)}`));
      assert.equal(await call(key), 200);
    });

    it('the keys table: name, prefix…last 4, created, last used, status', async () => {
      const web = await signedIn('table');
      const { key } = await web.createKey('ci runner');
      await call(key);
      const page = (await web.get('/account')).body;
      const row = new RegExp(
        `<td data-label="Name" class="cell-name">ci runner</td>\\s*<td data-label="Key"><code class="key-mask">${key.slice(0, 7)}…${key.slice(-4)}</code></td>\\s*` +
          `<td data-label="Created"><time [^>]+>[A-Z][a-z]{2} \\d{1,2}, \\d{4}</time></td>\\s*` +
          `<td data-label="Last used"><time [^>]+>just now</time></td>\\s*` +
          `<td data-label="Status"><span class="pill pill--ok">Active</span></td>`,
      );
      assert.match(page, row);
    });

    it('a blank name gets a default; an over-long name is refused with the form again', async () => {
      const web = await signedIn('names');
      const { res } = await web.createKey('   ');
      assert.match(res.body, /Your new key “Default key” is ready/);
      const count = (await ctx.db.query('SELECT count(*)::int AS n FROM api_keys'))[0]!.n;
      const long = await web.submit('/account', '/account/keys', { name: 'x'.repeat(61) });
      assert.equal(long.statusCode, 422);
      assert.match(long.body, /Key names are at most 60 characters\./);
      assert.equal(shownKey(long.body), undefined);
      assert.equal((await ctx.db.query('SELECT count(*)::int AS n FROM api_keys'))[0]!.n, count);
    });

    it('missing or wrong CSRF token: the page again with a message, no key created', async () => {
      const web = await signedIn('create-csrf');
      const count = (await ctx.db.query('SELECT count(*)::int AS n FROM api_keys'))[0]!.n;
      for (const form of [{ name: 'x' }, { name: 'x', _csrf: 'A'.repeat(43) }] as Record<string, string>[]) {
        const res = await web.post('/account/keys', form);
        assert.equal(res.statusCode, 403);
        assert.match(alertText(res.body) ?? '', /form has expired/);
        assert.equal(shownKey(res.body), undefined);
      }
      assert.equal((await ctx.db.query('SELECT count(*)::int AS n FROM api_keys'))[0]!.n, count);
    });
  });

  describe('post/redirect/get', () => {
    it('creating a key answers 303 to the keys section; the key is shown by that GET only, and a reload creates nothing', async () => {
      const web = await signedIn('prg');
      const form = await web.get('/account');
      const posted = await web.post('/account/keys', { _csrf: csrfOf(form.body), name: 'once' });
      assert.equal(posted.statusCode, 303);
      assert.equal(posted.headers.location, '/account#keys');
      assert.equal(shownKey(posted.body), undefined, 'the POST itself shows no key');
      const flash = posted.cookies.find((cookie) => cookie.name === 'ds_flash');
      assert.ok(flash, 'the one-time cookie');
      const shown = await web.get('/account');
      const key = shownKey(shown.body)!;
      assert.match(key, /^ds_[0-9A-Za-z]{38}$/);
      // Encrypted: the key is not readable in the browser's cookie store.
      assert.ok(!flash.value.includes(key.slice(3)) && !Buffer.from(flash.value, 'base64url').toString('latin1').includes(key));
      // Reloads show the page without the key, and no second key exists.
      for (let i = 0; i < 2; i++) {
        const again = await web.get('/account');
        assert.equal(shownKey(again.body), undefined);
        assert.equal(again.body.match(/<tr class="[^"]*" data-key-id=/g)?.length, 1);
      }
      // The same cookie replayed later shows nothing: it was cleared, and it is bound to its account.
      const other = await signedIn('prg-other');
      other.cookies.set('ds_flash', flash.value);
      assert.equal(shownKey((await other.get('/account')).body), undefined, "another account's flash is not shown");
    });

    it("GET on the forms' own URLs redirects to their section", async () => {
      const web = await signedIn('prg-get');
      for (const [url, location] of [
        ['/account/keys', '/account#keys'],
        ['/account/webhooks', '/account#webhooks'],
      ]) {
        const res = await web.get(url!);
        assert.equal(res.statusCode, 303, url);
        assert.equal(res.headers.location, location);
      }
    });
  });

  describe('roll', () => {
    it('a new key at once; both work during the grace period, the old one marked as expiring', async () => {
      const web = await signedIn('roll');
      const { key: oldKey } = await web.createKey('backend');
      const oldId = await keyIdOf(oldKey);
      const confirm = await web.get(`/account/keys/${oldId}/roll`);
      assert.equal(confirm.statusCode, 200);
      assert.match(confirm.body, /keeps working for <strong>24 hours<\/strong>/);
      const rolled = await web.post(`/account/keys/${oldId}/roll`, { _csrf: csrfOf(confirm.body) });
      assert.equal(rolled.statusCode, 303);
      assert.equal(rolled.headers.location, '/account#keys');
      const res = await web.follow(rolled);
      const newKey = shownKey(res.body)!;
      assert.ok(newKey && newKey !== oldKey);
      assert.match(res.body, /Your new key “backend” is ready/);
      assert.match(res.body, /The key it replaces keeps working until/);

      const expiresAt = Date.parse((await keyRow(oldId))!.expires_at);
      assert.ok(Math.abs(expiresAt - (Date.now() + DAY_MS)) < 60_000, 'expires in 24 h');
      assert.equal(await call(oldKey), 200);
      assert.equal(await call(newKey), 200);
      assert.match(
        (await web.get('/account')).body,
        /<span class="pill pill--warn" title="[^"]+">Expires in (23|24) hours<\/span>/,
      );
    });

    it('rolling without the CSRF token changes nothing', async () => {
      const web = await signedIn('roll-csrf');
      const { key } = await web.createKey();
      const id = await keyIdOf(key);
      const before = await ctx.db.query('SELECT * FROM api_keys ORDER BY id');
      const res = await web.post(`/account/keys/${id}/roll`, {});
      assert.equal(res.statusCode, 403);
      assert.match(alertText(res.body) ?? '', /form has expired/);
      assert.deepEqual(await ctx.db.query('SELECT * FROM api_keys ORDER BY id'), before);
    });

    it('a revoked key cannot be rolled', async () => {
      const web = await signedIn('roll-revoked');
      const { key } = await web.createKey();
      const id = await keyIdOf(key);
      await web.submit(`/account/keys/${id}/revoke`, `/account/keys/${id}/revoke`, {});
      const count = (await ctx.db.query('SELECT count(*)::int AS n FROM api_keys'))[0]!.n;
      const res = await web.post(`/account/keys/${id}/roll`, { _csrf: csrfOf((await web.get('/account')).body) });
      assert.equal(res.statusCode, 409);
      assert.match(res.body, /This key no longer works/);
      assert.equal((await ctx.db.query('SELECT count(*)::int AS n FROM api_keys'))[0]!.n, count);
    });
  });

  describe('revoke', () => {
    it('stops the key at once (no waiting for the key cache)', async () => {
      const web = await signedIn('revoke');
      const { key } = await web.createKey('temporary');
      const id = await keyIdOf(key);
      assert.equal(await call(key), 200); // now cached as valid
      const confirm = await web.get(`/account/keys/${id}/revoke`);
      assert.match(confirm.body, /refused <strong>immediately<\/strong>/);
      const res = await web.post(`/account/keys/${id}/revoke`, { _csrf: csrfOf(confirm.body) });
      assert.equal(res.statusCode, 303);
      assert.equal(res.headers.location, '/account?notice=revoked#keys');
      assert.equal(await call(key), 401);
      assert.ok((await keyRow(id))!.revoked_at);
      const page = (await web.get('/account?notice=revoked')).body;
      assert.match(page, /Key revoked\./);
      assert.match(page, /<span class="pill pill--off" title="[^"]+">Revoked<\/span>/);
    });

    it('revoking without the CSRF token changes nothing', async () => {
      const web = await signedIn('revoke-csrf');
      const { key } = await web.createKey();
      const id = await keyIdOf(key);
      const res = await web.post(`/account/keys/${id}/revoke`, { _csrf: 'forged' });
      assert.equal(res.statusCode, 403);
      assert.equal((await keyRow(id))!.revoked_at, null);
      assert.equal(await call(key), 200);
    });
  });

  describe("one account never sees or changes another account's keys", () => {
    it("B cannot roll or revoke A's key by id, by any route: 404, and A's key keeps working", async () => {
      const alice = await signedIn('alice');
      const { key: aliceKey } = await alice.createKey('alice prod');
      const aliceId = await keyIdOf(aliceKey);
      await call(aliceKey);
      // What a roll or revoke would change (last_used_at moves with Alice's own calls).
      const state = async () =>
        ctx.db.query('SELECT name, key_hash, revoked_at, expires_at FROM api_keys WHERE id = $1', [aliceId]);
      const before = await state();

      const bob = await signedIn('bob');
      await bob.createKey('bob key');
      const keysBefore = (await ctx.db.query('SELECT count(*)::int AS n FROM api_keys'))[0]!.n;
      const bobCsrf = csrfOf((await bob.get('/account')).body);
      for (const action of ['roll', 'revoke']) {
        const url = `/account/keys/${aliceId}/${action}`;
        const page = await bob.get(url);
        assert.equal(page.statusCode, 404, `GET ${url}`);
        assert.ok(!page.body.includes('alice prod'));
        for (const form of [{ _csrf: bobCsrf }, {}] as Record<string, string>[]) {
          const res = await bob.post(url, form);
          assert.equal(res.statusCode, 404, `POST ${url}`);
          assert.equal(shownKey(res.body), undefined);
        }
      }
      assert.deepEqual(await state(), before);
      assert.equal((await ctx.db.query('SELECT count(*)::int AS n FROM api_keys'))[0]!.n, keysBefore);
      assert.equal(await call(aliceKey), 200);

      // Nor does B's page show A's key or usage.
      const bobPage = (await bob.get('/account')).body;
      assert.ok(!bobPage.includes(aliceId));
      assert.ok(!bobPage.includes(`${aliceKey.slice(0, 7)}…${aliceKey.slice(-4)}`));
      assert.ok(!bobPage.includes('alice prod'));
      assert.match(bobPage, /<p class="stat-value" id="request-count">0<\/p>/);
      assert.match((await alice.get('/account')).body, /<p class="stat-value" id="request-count">[1-9]\d*<\/p>/);
    });
  });
});

describeOnOneStore('account pages: a rolled key stops after its grace period', (backend) => {
  it("with the default 24 h grace: past it (on the verifier's clock) the old key gets 401, the new one 200", async () => {
    const db = await backend.openMigrated();
    let now = Date.now();
    const app = await buildApp({
      config: testConfig({ LOAD_SHED_EVENT_LOOP_DELAY_MS: '0' }),
      db,
      services: { keys: new KeyVerifier(db, 1000, () => now) },
    });
    try {
      const web = new WebClient(app);
      await web.signUpAndIn(uniqueEmail('grace'));
      const { key: oldKey } = await web.createKey();
      const id = (await db.query<{ id: string }>('SELECT id FROM api_keys WHERE name = $1', ['test key']))[0]!.id;
      const rolled = await web.follow(await web.submit(`/account/keys/${id}/roll`, `/account/keys/${id}/roll`, {}));
      const newKey = shownKey(rolled.body)!;
      const call = async (key: string) =>
        (await app.inject({ url: '/api/v2/signals/investors?count=true', headers: { authorization: `Bearer ${key}` } }))
          .statusCode;
      now += DAY_MS - 60_000;
      assert.equal(await call(oldKey), 200, 'still inside the grace period');
      now += 2 * 60_000 + 1000; // past the grace period and the key cache
      assert.equal(await call(oldKey), 401);
      assert.equal(await call(newKey), 200);
    } finally {
      await app.close();
      await db.close();
    }
  });

  it('with rollGraceMs set to 300 ms: the old key stops 300 ms after the roll', async () => {
    const db = await backend.openMigrated();
    const config = testConfig();
    const keys = new KeyVerifier(db, 1000);
    const services = {
      config,
      db,
      keys,
      credits: new CreditMeter(db, config.credits),
      usage: new UsageRecorder(db, { error: () => undefined }),
      rateLimitStore: new MemoryRateLimitStore(),
    };
    const app = Fastify();
    await app.register((scope) => accountRoutes(scope, services, { sessionSecret: 'x'.repeat(32), rollGraceMs: 300 }));
    try {
      const web = new WebClient(app);
      await web.signUpAndIn(uniqueEmail('short-grace'));
      const { key: oldKey } = await web.createKey();
      assert.ok(await keys.verify(oldKey)); // cached as valid
      const id = (await db.query<{ id: string }>('SELECT id FROM api_keys'))[0]!.id;
      const confirm = await web.get(`/account/keys/${id}/roll`);
      assert.match(confirm.body, /keeps working for <strong>300 milliseconds<\/strong>/);
      const rolled = await web.follow(await web.post(`/account/keys/${id}/roll`, { _csrf: csrfOf(confirm.body) }));
      const newKey = shownKey(rolled.body)!;
      assert.ok(await keys.verify(oldKey), 'inside the grace period');
      await new Promise((resolve) => setTimeout(resolve, 400));
      assert.equal(await keys.verify(oldKey), null);
      assert.ok(await keys.verify(newKey));
    } finally {
      await app.close();
      await db.close();
    }
  });
});
