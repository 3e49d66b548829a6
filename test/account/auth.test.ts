import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type TestContext, describeOnOneStore } from '../helpers.js';
import { alertText, csrfOf, fieldError, PASSWORD, startWebApp, uniqueEmail, WebClient } from './web-client.js';

describeOnOneStore('account pages: sign-up, sign-in, sign-out', (backend) => {
  let ctx: TestContext;
  before(async () => {
    ctx = await startWebApp(backend);
  });
  after(() => ctx.close());

  const accountCount = async () => (await ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM accounts'))[0]!.n;
  const sessionCount = async () => (await ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM web_sessions'))[0]!.n;

  describe('sign-up', () => {
    it('creates the account and sends the visitor to sign in, which lands on the profile page', async () => {
      const web = new WebClient(ctx.app);
      const email = uniqueEmail('new');
      const res = await web.signUp(email.toUpperCase());
      assert.equal(res.statusCode, 303);
      assert.equal(res.headers.location, '/login?reason=signed-up');
      assert.equal(web.cookies.has('ds_session'), false, 'signing up does not sign in');
      const login = (await web.get('/login?reason=signed-up')).body;
      assert.match(login, /Thanks for signing up\./);
      // The sign-in form has the email as typed, and the password field has the focus.
      assert.ok(login.includes(`autocomplete="username" required maxlength="254" value="${email.toUpperCase()}">`), login);
      assert.match(login, /name="password" type="password" autocomplete="current-password" required maxlength="\d+" autofocus>/);
      // Kept until signing in: a reload of the sign-in page still has it.
      assert.ok((await web.get('/login')).body.includes(`value="${email.toUpperCase()}"`));
      const signedIn = await web.logIn(email);
      assert.equal(web.cookies.has('ds_flash'), false, 'signing in clears it');
      assert.equal(signedIn.headers.location, '/account');
      const page = await web.get('/account');
      assert.equal(page.statusCode, 200);
      assert.match(page.body, new RegExp(`id="account-email">${email.replace('.', '\\.')}<`));
      const [row] = await ctx.db.query<{ password_hash: string; tier: string }>(
        'SELECT password_hash, tier FROM accounts WHERE email = $1',
        [email],
      );
      assert.equal(row!.tier, 'free');
      // scrypt, cost in the string, a 16-byte salt and a 32-byte hash; never the password.
      assert.match(row!.password_hash, /^scrypt\$32768\$8\$1\$[A-Za-z0-9+/]{22}==\$[A-Za-z0-9+/]{43}=$/);
      assert.ok(!row!.password_hash.includes(PASSWORD));
    });

    it('two accounts with the same password get different hashes (per-user salt)', async () => {
      const [a, b] = [uniqueEmail('salt'), uniqueEmail('salt')];
      await new WebClient(ctx.app).signUp(a);
      await new WebClient(ctx.app).signUp(b);
      const rows = await ctx.db.query<{ password_hash: string }>('SELECT password_hash FROM accounts WHERE email = ANY($1)', [
        [a, b],
      ]);
      assert.equal(rows.length, 2);
      assert.notEqual(rows[0]!.password_hash, rows[1]!.password_hash);
    });

    const badInputs: { name: string; email: () => string; password: string; status: number; message: RegExp }[] = [
      {
        name: 'invalid email',
        email: () => 'not-an-email',
        password: PASSWORD,
        status: 422,
        message: /Enter a valid email address/,
      },
      { name: 'empty email', email: () => '', password: PASSWORD, status: 422, message: /Enter your email address/ },
      {
        name: 'short password',
        email: () => uniqueEmail('short'),
        password: 'elevenchars',
        status: 422,
        message: /at least 12 characters/,
      },
      {
        name: 'too long password',
        email: () => uniqueEmail('long'),
        password: 'x'.repeat(201),
        status: 422,
        message: /at most 200 characters/,
      },
    ];
    for (const bad of badInputs) {
      it(`${bad.name}: the form again with a clear message, nothing created`, async () => {
        const before = await accountCount();
        const web = new WebClient(ctx.app);
        const email = bad.email();
        const res = await web.signUp(email, bad.password);
        assert.equal(res.statusCode, bad.status);
        assert.match(res.body, /action="\/signup"/);
        assert.match(fieldError(res.body) ?? '', bad.message);
        assert.match(res.body, new RegExp(`name="email" type="email"[^>]*value="${email}"`), 'email kept');
        assert.ok(!res.body.includes(bad.password), 'password never echoed');
        assert.equal(await accountCount(), before);
        assert.equal(web.cookies.has('ds_session'), false);
      });
    }

    it('missing CSRF token: the form again, nothing created', async () => {
      const before = await accountCount();
      const web = new WebClient(ctx.app);
      await web.get('/signup');
      const res = await web.post('/signup', { email: uniqueEmail('nocsrf'), password: PASSWORD });
      assert.equal(res.statusCode, 403);
      assert.match(alertText(res.body) ?? '', /form has expired/);
      assert.match(res.body, /action="\/signup"/);
      assert.equal(await accountCount(), before);
    });

    it('a CSRF token that does not match the cookie (or no cookie at all): refused, nothing created', async () => {
      const before = await accountCount();
      const victim = new WebClient(ctx.app);
      const attacker = new WebClient(ctx.app);
      const attackerToken = csrfOf((await attacker.get('/signup')).body);
      await victim.get('/signup');
      const forged = await victim.post('/signup', { _csrf: attackerToken, email: uniqueEmail('forged'), password: PASSWORD });
      assert.equal(forged.statusCode, 403);
      const cookieless = await new WebClient(ctx.app).post('/signup', {
        _csrf: attackerToken,
        email: uniqueEmail('x'),
        password: PASSWORD,
      });
      assert.equal(cookieless.statusCode, 403);
      assert.equal(await accountCount(), before);
    });

    it('escapes what it echoes', async () => {
      const res = await new WebClient(ctx.app).signUp('"><script>alert(1)</script>', PASSWORD);
      assert.equal(res.statusCode, 422);
      assert.ok(!res.body.includes('<script>alert(1)</script>'));
      assert.match(res.body, /value="&quot;&gt;&lt;script&gt;alert\(1\)&lt;\/script&gt;"/);
    });

    it('a signed-in visitor is sent from /signup and /login to the profile page', async () => {
      const web = new WebClient(ctx.app);
      await web.signUpAndIn(uniqueEmail('in'));
      assert.equal((await web.get('/signup')).headers.location, '/account');
      assert.equal((await web.get('/login')).headers.location, '/account');
    });
  });

  describe('sign-in', () => {
    it('the right password signs in (a new session); the profile page opens', async () => {
      const email = uniqueEmail('login');
      await new WebClient(ctx.app).signUp(email);
      const web = new WebClient(ctx.app);
      const sessions = await sessionCount();
      const res = await web.logIn(email.toUpperCase());
      assert.equal(res.statusCode, 303);
      assert.equal(res.headers.location, '/account');
      assert.equal(await sessionCount(), sessions + 1);
      assert.equal((await web.get('/account')).statusCode, 200);
    });

    it('a wrong password and an unknown email get the same answer', async () => {
      const email = uniqueEmail('same');
      await new WebClient(ctx.app).signUp(email);
      const wrongPassword = await new WebClient(ctx.app).logIn(email, 'not the right password');
      const unknownEmail = await new WebClient(ctx.app).logIn(uniqueEmail('nobody'), PASSWORD);
      assert.equal(wrongPassword.statusCode, 401);
      assert.equal(unknownEmail.statusCode, 401);
      assert.equal(alertText(wrongPassword.body), 'Incorrect email or password.');
      assert.equal(alertText(unknownEmail.body), alertText(wrongPassword.body));
      assert.equal(fieldError(wrongPassword.body), undefined, 'no field singled out');
    });

    it('missing CSRF token: the form again, no session', async () => {
      const email = uniqueEmail('login-csrf');
      await new WebClient(ctx.app).signUp(email);
      const sessions = await sessionCount();
      const web = new WebClient(ctx.app);
      await web.get('/login');
      const res = await web.post('/login', { email, password: PASSWORD });
      assert.equal(res.statusCode, 403);
      assert.match(alertText(res.body) ?? '', /form has expired/);
      assert.equal(await sessionCount(), sessions);
      assert.equal(web.cookies.has('ds_session'), false);
    });

    it('per IP: 30 attempts from one address, then refused; other addresses unaffected', async () => {
      const email = uniqueEmail('ip');
      await new WebClient(ctx.app).signUp(email);
      const ip = '192.0.2.77';
      for (let i = 0; i < 30; i++) {
        const res = await new WebClient(ctx.app, ip).logIn(uniqueEmail('guess'), 'some wrong password');
        assert.equal(res.statusCode, 401, `attempt ${i + 1}`);
      }
      const refused = await new WebClient(ctx.app, ip).logIn(email);
      assert.equal(refused.statusCode, 429);
      assert.match(alertText(refused.body) ?? '', /^Too many sign-in attempts\. Please try again in \d+ minutes\.$/);
      assert.equal((await new WebClient(ctx.app, '192.0.2.78').logIn(email)).statusCode, 303);
    });
  });

  describe('sessions', () => {
    it('sign-out ends the session: the old cookie no longer works', async () => {
      const web = new WebClient(ctx.app);
      await web.signUpAndIn(uniqueEmail('out'));
      const oldCookies = new Map(web.cookies);
      const page = await web.get('/account');
      const res = await web.post('/logout', { _csrf: csrfOf(page.body) });
      assert.equal(res.statusCode, 303);
      assert.equal(res.headers.location, '/login?reason=signed-out');
      assert.match(String(res.headers['set-cookie']), /ds_session=;.*Expires=Thu, 01 Jan 1970/);
      assert.match((await web.get('/login?reason=signed-out')).body, /You have signed out\./);
      // Replaying the old cookie: no session.
      const replay = new WebClient(ctx.app);
      for (const [name, value] of oldCookies) replay.cookies.set(name, value);
      const account = await replay.get('/account');
      assert.equal(account.statusCode, 303);
      assert.equal(account.headers.location, '/login');
    });

    it('sign-out without the CSRF token changes nothing', async () => {
      const web = new WebClient(ctx.app);
      await web.signUpAndIn(uniqueEmail('stay'));
      const res = await web.post('/logout', {});
      assert.equal(res.statusCode, 403);
      assert.match(alertText(res.body) ?? '', /form has expired/);
      assert.equal((await web.get('/account')).statusCode, 200);
    });

    it('an expired session: a form post gets the sign-in form saying so, and changes nothing', async () => {
      const web = new WebClient(ctx.app);
      const email = uniqueEmail('expired');
      await web.signUpAndIn(email);
      const csrf = csrfOf((await web.get('/account')).body);
      const [account] = await ctx.db.query<{ id: number }>('SELECT id::int FROM accounts WHERE email = $1', [email]);
      await ctx.db.query("UPDATE web_sessions SET expires_at = now() - interval '1 second' WHERE account_id = $1", [account!.id]);
      const keysBefore = await ctx.db.query('SELECT * FROM api_keys WHERE account_id = $1', [account!.id]);

      const post = await web.post('/account/keys', { _csrf: csrf, name: 'after expiry' });
      assert.equal(post.statusCode, 401);
      assert.match(post.body, /action="\/login"/);
      assert.match(post.body, /Your session has expired\. Please sign in again\./);
      assert.deepEqual(await ctx.db.query('SELECT * FROM api_keys WHERE account_id = $1', [account!.id]), keysBefore);
      assert.equal(web.cookies.has('ds_session'), false, 'the dead cookie is cleared');
    });

    it('an expired session cookie on a page redirects to sign-in with the reason', async () => {
      const web = new WebClient(ctx.app);
      const email = uniqueEmail('expired-get');
      await web.signUpAndIn(email);
      await ctx.db.query(
        "UPDATE web_sessions SET expires_at = now() - interval '1 second' WHERE account_id = (SELECT id FROM accounts WHERE email = $1)",
        [email],
      );
      const res = await web.get('/account');
      assert.equal(res.statusCode, 303);
      assert.equal(res.headers.location, '/login?reason=expired');
      assert.match((await web.get('/login?reason=expired')).body, /Your session has expired/);
    });

    it('a session cookie with a bad signature is no session', async () => {
      const web = new WebClient(ctx.app);
      await web.signUpAndIn(uniqueEmail('tamper'));
      const value = web.cookies.get('ds_session')!;
      web.cookies.set('ds_session', value.slice(0, -2) + (value.endsWith('AA') ? 'BB' : 'AA'));
      assert.equal((await web.get('/account')).headers.location, '/login');
    });
  });

  describe('sign-up limit', () => {
    it('20 sign-ups an hour from one address, then refused with nothing created', async () => {
      const ip = '198.51.100.9';
      for (let i = 0; i < 20; i++) assert.equal((await new WebClient(ctx.app, ip).signUp(uniqueEmail('farm'))).statusCode, 303);
      const before = await accountCount();
      const refused = await new WebClient(ctx.app, ip).signUp(uniqueEmail('farm'));
      assert.equal(refused.statusCode, 429);
      assert.match(alertText(refused.body) ?? '', /Too many sign-ups from your network/);
      assert.equal(await accountCount(), before);
    });
  });
});
