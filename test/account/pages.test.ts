import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { makeKey, type TestContext, describeOnOneStore } from '../helpers.js';
import { normalizeHtml, startWebApp, WebClient } from './web-client.js';

function cookieHeader(setCookie: string | string[] | undefined, name: string): string {
  const all = Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : [];
  const found = all.find((c) => c.startsWith(`${name}=`));
  assert.ok(found, `no ${name} cookie in ${JSON.stringify(all)}`);
  return found;
}

describeOnOneStore('account pages: rendering, headers, assets', (backend) => {
  let ctx: TestContext;
  before(async () => {
    ctx = await startWebApp(backend);
  });
  after(() => ctx.close());

  describe('each page renders', () => {
    it('home links to sign-up, sign-in and the docs', async () => {
      const res = await ctx.app.inject({ url: '/' });
      assert.equal(res.statusCode, 200);
      assert.match(String(res.headers['content-type']), /^text\/html; charset=utf-8/);
      for (const href of ['/signup', '/login', '/docs']) assert.match(res.body, new RegExp(`href="${href}"`));
      assert.match(res.body, /<h1>Funding rounds, M&amp;A and market signals/);
    });

    it('sign-up: email and password fields, a CSRF token and its cookie', async () => {
      const res = await ctx.app.inject({ url: '/signup' });
      assert.equal(res.statusCode, 200);
      const body = normalizeHtml(res.body);
      assert.match(body, /<form class="form" method="post" action="\/signup">/);
      assert.match(body, /name="email" type="email"/);
      assert.match(body, /name="password" type="password" autocomplete="new-password"[^>]*minlength="12"/);
      assert.match(body, /name="_csrf" value="[A-Za-z0-9_-]{43}"/);
      const cookie = cookieHeader(res.headers['set-cookie'], 'ds_csrf');
      assert.match(cookie, /HttpOnly/);
      assert.match(cookie, /SameSite=Lax/);
    });

    it('sign-in page', async () => {
      const res = await ctx.app.inject({ url: '/login' });
      assert.equal(res.statusCode, 200);
      assert.match(res.body, /action="\/login"/);
      assert.match(res.body, /autocomplete="current-password"/);
      assert.match(res.body, /href="\/signup"/);
    });

    it('the profile page needs a session: redirect to /login', async () => {
      const res = await ctx.app.inject({ url: '/account' });
      assert.equal(res.statusCode, 303);
      assert.equal(res.headers.location, '/login');
    });

    it('GET /logout without a session goes to sign-in; with one it asks (sign-out is a POST)', async () => {
      assert.equal((await ctx.app.inject({ url: '/logout' })).headers.location, '/login');
      const web = new WebClient(ctx.app);
      await web.signUpAndIn(`asks-${Date.now()}@example.com`);
      const res = await web.get('/logout');
      assert.equal(res.statusCode, 200);
      assert.match(res.body, /<form class="form" method="post" action="\/logout">/);
      assert.match(res.body, /name="_csrf"/);
    });

    it('an unknown key page is an HTML 404', async () => {
      const web = new WebClient(ctx.app);
      await web.signUpAndIn(`nokey-${Date.now()}@example.com`);
      for (const url of ['/account/keys/key_0000000000000000/roll', '/account/keys/not-a-key/revoke']) {
        const res = await web.get(url);
        assert.equal(res.statusCode, 404, url);
        assert.match(String(res.headers['content-type']), /^text\/html/);
        assert.match(res.body, /Page not found/);
      }
    });
  });

  describe('headers', () => {
    it('pages carry security headers and are never cached', async () => {
      for (const url of ['/', '/signup', '/login']) {
        const res = await ctx.app.inject({ url });
        const csp = String(res.headers['content-security-policy']);
        for (const directive of [
          "default-src 'self'",
          "script-src 'self'",
          "style-src 'self'",
          "frame-ancestors 'none'",
          "form-action 'self'",
          "object-src 'none'",
          "base-uri 'none'",
        ]) {
          assert.ok(csp.includes(directive), `${url}: ${directive} missing from ${csp}`);
        }
        assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);
        assert.equal(res.headers['x-frame-options'], 'DENY');
        assert.equal(res.headers['x-content-type-options'], 'nosniff');
        assert.equal(res.headers['referrer-policy'], 'same-origin');
        assert.equal(res.headers['cache-control'], 'no-store');
      }
    });

    it('the API keeps its own headers: no page CSP, keyed data kept only privately and revalidated', async () => {
      const { key } = await makeKey(ctx.db, 'pro');
      const api = await ctx.app.inject({ url: '/api/v2/signals/investors', headers: { authorization: `Bearer ${key}` } });
      assert.equal(api.statusCode, 200);
      assert.equal(api.headers['cache-control'], 'private, no-cache');
      assert.equal(api.headers['content-security-policy'], undefined);
      assert.equal(api.headers['set-cookie'], undefined);
      const openapi = await ctx.app.inject({ url: '/openapi.json' });
      assert.equal(openapi.headers['content-security-policy'], undefined);
    });

    it('the pages are not part of the OpenAPI document', async () => {
      const paths = Object.keys((await ctx.app.inject({ url: '/openapi.json' })).json().paths);
      assert.ok(paths.length > 0);
      assert.deepEqual(
        paths.filter((p) => !p.startsWith('/api/')),
        [],
      );
    });

    it('cookies: HttpOnly, SameSite=Lax, not Secure over plain HTTP (X-Forwarded-Proto is not trusted)', async () => {
      const res = await ctx.app.inject({ url: '/signup', headers: { 'x-forwarded-proto': 'https' } });
      const cookie = cookieHeader(res.headers['set-cookie'], 'ds_csrf');
      assert.match(cookie, /HttpOnly/);
      assert.match(cookie, /SameSite=Lax/);
      assert.match(cookie, /Path=\//);
      assert.doesNotMatch(cookie, /Secure/);
    });
  });

  describe('assets', () => {
    it('the stylesheet and script are served by the app with a long cache; the pages link them', async () => {
      const home = (await ctx.app.inject({ url: '/' })).body;
      const css = /href="(\/assets\/app\.[0-9a-f]{12}\.css)"/.exec(home)?.[1];
      const js = /src="(\/assets\/app\.[0-9a-f]{12}\.js)"/.exec(home)?.[1];
      assert.ok(css && js, 'assets linked');
      const cssRes = await ctx.app.inject({ url: css });
      assert.equal(cssRes.statusCode, 200);
      assert.match(String(cssRes.headers['content-type']), /^text\/css/);
      assert.equal(cssRes.headers['cache-control'], 'public, max-age=31536000, immutable');
      const jsRes = await ctx.app.inject({ url: js });
      assert.equal(jsRes.statusCode, 200);
      assert.match(String(jsRes.headers['content-type']), /^text\/javascript/);
      assert.match(jsRes.body, /navigator\.clipboard/);
      // No inline script anywhere: the CSP forbids it.
      assert.doesNotMatch(home, /<script>|<script(?![^>]*\bsrc=)[^>]*>/);
    });

    it('an unknown asset is a 404', async () => {
      const res = await ctx.app.inject({ url: '/assets/app.000000000000.css' });
      assert.equal(res.statusCode, 404);
    });
  });
});

describeOnOneStore('account pages behind HTTPS (PUBLIC_URL https)', (backend) => {
  let ctx: TestContext;
  before(async () => {
    ctx = await startWebApp(backend, { PUBLIC_URL: 'https://api.dealsignal.example' });
  });
  after(() => ctx.close());

  it('cookies are Secure', async () => {
    const web = new WebClient(ctx.app);
    const res = await web.signUpAndIn(`secure-${Date.now()}@example.com`);
    assert.equal(res.statusCode, 303);
    const session = cookieHeader(res.headers['set-cookie'], 'ds_session');
    assert.match(session, /; Secure/);
    assert.match(session, /HttpOnly/);
    assert.match(session, /SameSite=Lax/);
  });

  it('the quick start uses the public base URL', async () => {
    const web = new WebClient(ctx.app);
    await web.signUpAndIn(`quick-${Date.now()}@example.com`);
    const page = (await web.get('/account')).raw;
    assert.match(
      page,
      /curl -H &#39;x-lot-api-key: YOUR_API_KEY&#39; \\\n {2}&#39;https:\/\/api\.dealsignal\.example\/api\/v1\/funding\?country=US&#39;/,
    );
    assert.match(page, /https:\/\/api\.dealsignal\.example\/api\/v2\/signals\/investors\?countries=US&amp;limit=5/);
  });
});
