// Account security over HTTP: sign-up says nothing about who has an account, sign-in throttling
// slows attackers without locking owners out, weak passwords are refused with advice, and
// messages chosen by a query parameter come from the service's own lists only.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import Fastify, { type FastifyInstance } from 'fastify';
import { MemoryRateLimitStore, type RateLimitStore } from '../../src/platform/infra/rate-limit-store.js';
import { accountRoutes } from '../../src/families/portal.js';
import type { Database } from '../../src/platform/db/port.js';
import { CreditMeter } from '../../src/accounts/credits.js';
import { KeyVerifier } from '../../src/accounts/key-verifier.js';
import { UsageRecorder } from '../../src/accounts/usage.js';
import type { WebLimits } from '../../src/accounts/accounts.js';
import {
  describeNeeding,
  makeKey,
  needsRedis,
  testConfig,
  type Backend,
  type TestContext,
  describeOnOneStore,
  sharedRedisRateLimitStore,
} from '../helpers.js';
import { alertText, csrfOf, fieldError, PASSWORD, startWebApp, uniqueEmail, WebClient, type WebResponse } from './web-client.js';

const REDIS_URL = process.env.REDIS_URL;

/** A client address of its own: the limits keep state across runs on Redis. */
const freshIp = () => `198.18.${randomBytes(1)[0]}.${randomBytes(1)[0]}`;

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

async function timed<T>(run: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const started = performance.now();
  const result = await run();
  return { result, ms: performance.now() - started };
}

/** What a visitor can observe of a sign-up answer (cookie values are random, their names are not). */
const observable = (res: WebResponse) => ({
  status: res.statusCode,
  location: res.headers.location,
  cookies: res.cookies.map((c) => c.name).sort(),
  body: res.body,
});

/**
 * The stores sign-in limits live in: memory (one instance) and Redis (shared). The throttling tests
 * run against each explicitly, whichever database the run is on; without REDIS_URL the Redis ones
 * are reported as skipped.
 */
const LIMIT_STORES = [
  { name: 'memory', skip: false },
  { name: 'redis', skip: needsRedis },
] as const;
type LimitStoreName = (typeof LIMIT_STORES)[number]['name'];

/** The limits' store: memory, or Redis under a prefix of its own. */
async function limitStore(name: LimitStoreName): Promise<RateLimitStore> {
  if (name === 'memory') return new MemoryRateLimitStore();
  return (await sharedRedisRateLimitStore(REDIS_URL!)).store;
}

/** The account pages alone, with sign-in limits of the test's choosing. */
async function startLimitedApp(
  backend: Backend,
  store: LimitStoreName,
  limits: Partial<WebLimits>,
): Promise<{ app: FastifyInstance; db: Database; close(): Promise<void> }> {
  const db = await backend.openMigrated();
  const config = testConfig();
  const limitsStore = await limitStore(store);
  const services = {
    config,
    db,
    keys: new KeyVerifier(db, 1000),
    credits: new CreditMeter(db, config.credits),
    usage: new UsageRecorder(db, { error: () => undefined }),
    rateLimitStore: limitsStore,
  };
  const app = Fastify();
  await app.register((scope) => accountRoutes(scope, services, { sessionSecret: 'x'.repeat(32), limits }));
  await app.ready();
  return {
    app,
    db,
    async close() {
      await app.close();
      await limitsStore.close();
      await db.close();
    },
  };
}

// First: these are the tests of the rate-limit stores' own windows, so a bug there is named early.
describeOnOneStore('sign-in throttling with small limits', (backend) => {
  for (const store of LIMIT_STORES) {
    describeNeeding(`${store.name} store`, 'Redis', store.skip, () => {
      it('past the per-email ceiling attempts are slowed, never refused: the owner still signs in', async () => {
        const slowdownMs = 1500;
        const { app, close } = await startLimitedApp(backend, store.name, {
          loginsPerEmailBeforeSlowdown: 3,
          loginSlowdownMs: slowdownMs,
        });
        try {
          const email = uniqueEmail('ceiling');
          await new WebClient(app).signUp(email);
          for (let i = 0; i < 3; i++)
            assert.equal((await new WebClient(app, freshIp()).logIn(email, `guess ${i}`)).statusCode, 401);
          const slowGuess = await timed(() => new WebClient(app, freshIp()).logIn(email, 'one guess too many'));
          assert.equal(slowGuess.result.statusCode, 401);
          assert.ok(slowGuess.ms >= slowdownMs - 50, `answered after ${slowGuess.ms.toFixed(0)} ms`);
          const owner = await timed(() => new WebClient(app, freshIp()).logIn(email, PASSWORD));
          assert.equal(owner.result.statusCode, 303);
          assert.ok(owner.ms >= slowdownMs - 50, `answered after ${owner.ms.toFixed(0)} ms`);
        } finally {
          await close();
        }
      });

      it('the wait at one address grows: a short one first, then a long one', async () => {
        const shortMs = 2000;
        const { app, close } = await startLimitedApp(backend, store.name, {
          loginsPerEmailAndIp: [
            { limit: 2, windowMs: shortMs },
            { limit: 4, windowMs: 60 * 60 * 1000 },
          ],
        });
        try {
          const email = uniqueEmail('growing');
          await new WebClient(app).signUp(email);
          const ip = freshIp();
          /** Attempts sent together (forms fetched first), so they all fall in the short window. */
          const burst = async (passwords: string[]) => {
            const forms = await Promise.all(
              passwords.map(async (password) => {
                const web = new WebClient(app, ip);
                return { web, password, csrf: csrfOf((await web.get('/login')).body) };
              }),
            );
            const answers = await Promise.all(
              forms.map(({ web, password, csrf }) => web.post('/login', { _csrf: csrf, email, password })),
            );
            return answers.map((res) => `${res.statusCode} ${alertText(res.body) ?? ''}`.trim()).sort();
          };
          const shortWindowPassed = () => new Promise((resolve) => setTimeout(resolve, shortMs + 100));

          assert.deepEqual(await burst(['guess 1', 'guess 2', 'guess 3']), [
            '401 Incorrect email or password.',
            '401 Incorrect email or password.',
            '429 Too many sign-in attempts. Please try again in 1 minute.',
          ]);
          // Past the short window the long one fills up (the refused guess was not counted in it)...
          await shortWindowPassed();
          assert.deepEqual(await burst(['guess 4', 'guess 5']), [
            '401 Incorrect email or password.',
            '401 Incorrect email or password.',
          ]);
          // ...and then the wait is the long one, even for the right password.
          await shortWindowPassed();
          assert.deepEqual(await burst([PASSWORD]), ['429 Too many sign-in attempts. Please try again in 1 hour.']);
        } finally {
          await close();
        }
      });
    });
  }
});

describeOnOneStore('account security', (backend) => {
  let ctx: TestContext;
  before(async () => {
    // The app closes the store it is given.
    // As in production: Redis next to PostgreSQL when REDIS_URL is set.
    const store = backend.name === 'postgres' && REDIS_URL ? 'redis' : 'memory';
    ctx = await startWebApp(backend, {}, { rateLimitStore: await limitStore(store) });
  });
  after(() => ctx.close());

  const accountCount = async () => (await ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM accounts'))[0]!.n;
  const accountRow = async (email: string) =>
    (await ctx.db.query('SELECT id, password_hash, tier FROM accounts WHERE email = $1', [email.toLowerCase()]))[0];

  describe('sign-up answers new and existing emails alike', () => {
    it('same status, redirect, cookies and body; the existing account is untouched', async () => {
      const existing = uniqueEmail('taken');
      await new WebClient(ctx.app).signUp(existing);
      const before = await accountRow(existing);
      const count = await accountCount();

      const fresh = uniqueEmail('fresh');
      const forNew = await new WebClient(ctx.app).signUp(fresh, 'a different long passphrase');
      const forExisting = await new WebClient(ctx.app).signUp(existing.toUpperCase(), 'a different long passphrase');
      assert.deepEqual(observable(forExisting), observable(forNew));
      assert.equal(forNew.statusCode, 303);

      // The new email got its account; the existing one kept its password and nothing else was created.
      assert.equal(await accountCount(), count + 1);
      assert.deepEqual(await accountRow(existing), before);
      assert.equal((await new WebClient(ctx.app).logIn(existing, 'a different long passphrase')).statusCode, 401);
      assert.equal((await new WebClient(ctx.app).logIn(existing, PASSWORD)).statusCode, 303);
      assert.equal((await new WebClient(ctx.app).logIn(fresh, 'a different long passphrase')).statusCode, 303);
    });

    it('the page it leads to is the same for both, and says what to do next', async () => {
      const existing = uniqueEmail('taken-page');
      await new WebClient(ctx.app).signUp(existing);
      const pages: string[] = [];
      for (const email of [uniqueEmail('fresh-page'), existing]) {
        const web = new WebClient(ctx.app);
        const res = await web.signUp(email, 'yet another long passphrase');
        const next = await web.get(res.headers.location as string);
        assert.equal(next.statusCode, 200);
        assert.match(next.body, /action="\/login"/);
        // The sign-in form comes with the email just typed, new or not.
        assert.ok(
          next.body.includes(`name="email" type="email" autocomplete="username" required maxlength="254" value="${email}"`),
        );
        // The form's CSRF token differs per visitor, and the email is each one's own; everything else is the same.
        pages.push(next.body.replace(/name="_csrf" value="[^"]+"/, '').replace(`value="${email}"`, ''));
      }
      assert.equal(pages[0], pages[1]);
      assert.match(pages[0]!, /Sign in with your email and password/);
    });

    it('an email created with the CLI (no password) gets the same answer and is not taken over', async () => {
      const cli = await makeKey(ctx.db, 'enterprise', uniqueEmail('cli'));
      const forCli = await new WebClient(ctx.app).signUp(cli.email);
      const forNew = await new WebClient(ctx.app).signUp(uniqueEmail('fresh-cli'));
      assert.deepEqual(observable(forCli), observable(forNew));
      const [row] = await ctx.db.query('SELECT password_hash, tier FROM accounts WHERE id = $1', [cli.accountId]);
      assert.deepEqual(row, { password_hash: null, tier: 'enterprise' });
      assert.equal((await new WebClient(ctx.app).logIn(cli.email, PASSWORD)).statusCode, 401);
    });

    it('takes comparable time for new and existing emails (the same password hashing in both)', async () => {
      const existing = uniqueEmail('taken-time');
      await new WebClient(ctx.app).signUp(existing);
      const forNew: number[] = [];
      const forExisting: number[] = [];
      // Interleaved, each from its own address (the sign-up limit is per address), forms fetched
      // beforehand: only the POST is timed.
      for (let i = 0; i < 5; i++) {
        for (const [email, times] of [
          [uniqueEmail('fresh-time'), forNew],
          [existing, forExisting],
        ] as const) {
          const web = new WebClient(ctx.app);
          const csrf = csrfOf((await web.get('/signup')).body);
          const { result, ms } = await timed(() => web.post('/signup', { _csrf: csrf, email, password: PASSWORD }));
          assert.equal(result.statusCode, 303);
          times.push(ms);
        }
      }
      const [a, b] = [median(forNew), median(forExisting)];
      // Hashing dominates both (tens to hundreds of milliseconds); skipping it in one branch
      // makes that branch many times faster. A factor of 3 leaves room for a busy machine.
      assert.ok(Math.max(a, b) < 3 * Math.min(a, b), `median new ${a.toFixed(0)} ms, existing ${b.toFixed(0)} ms`);
    });
  });

  describe('sign-in throttling slows attackers without locking the owner out', () => {
    it('an attacker at one address is refused after a few guesses; the owner elsewhere signs in', async () => {
      const email = uniqueEmail('target');
      await new WebClient(ctx.app).signUp(email);
      const attackerIp = freshIp();
      const answers: number[] = [];
      for (let i = 0; i < 6; i++)
        answers.push((await new WebClient(ctx.app, attackerIp).logIn(email, `guess number ${i}`)).statusCode);
      assert.deepEqual(answers, [401, 401, 401, 401, 401, 429]);
      // Even the right password is refused at that address for now...
      const refused = await new WebClient(ctx.app, attackerIp).logIn(email, PASSWORD);
      assert.equal(refused.statusCode, 429);
      assert.match(alertText(refused.body) ?? '', /^Too many sign-in attempts\. Please try again in 1 minute\.$/);
      // ...but the owner, at their own address, signs in.
      assert.equal((await new WebClient(ctx.app, freshIp()).logIn(email, PASSWORD)).statusCode, 303);
      // And the attacker's address may still sign in to other accounts.
      const other = uniqueEmail('bystander');
      await new WebClient(ctx.app).signUp(other);
      assert.equal((await new WebClient(ctx.app, attackerIp).logIn(other, PASSWORD)).statusCode, 303);
    });

    it('guesses spread over many addresses do not lock the owner out', async () => {
      const email = uniqueEmail('spread');
      await new WebClient(ctx.app).signUp(email);
      for (let i = 0; i < 12; i++) {
        const res = await new WebClient(ctx.app, freshIp()).logIn(email, `distributed guess ${i}`);
        assert.equal(res.statusCode, 401, `guess ${i + 1}`);
      }
      assert.equal((await new WebClient(ctx.app, freshIp()).logIn(email, PASSWORD)).statusCode, 303);
    });
  });

  describe('weak passwords are refused with advice', () => {
    const weak: { name: string; password: string; advice: RegExp }[] = [
      { name: 'twelve spaces', password: ' '.repeat(12), advice: /Repeated characters/ },
      { name: 'one letter repeated', password: 'aaaaaaaaaaaa', advice: /Repeated characters/ },
      { name: 'a common password', password: 'password1234', advice: /commonly used password/ },
    ];
    for (const { name, password, advice } of weak) {
      it(`${name}: the form again with the estimator's advice, nothing created`, async () => {
        const before = await accountCount();
        const email = uniqueEmail('weak');
        const res = await new WebClient(ctx.app).signUp(email, password);
        assert.equal(res.statusCode, 422);
        const message = fieldError(res.body) ?? '';
        assert.match(message, /^This password is too easy to guess\./);
        assert.match(message, advice);
        assert.equal(await accountCount(), before);
        assert.equal(await accountRow(email), undefined);
      });
    }

    it('a password built from the email address is weak', async () => {
      const stem = `quillmarsh${randomBytes(2).toString('hex')}`;
      const email = `${stem}@example.com`;
      const res = await new WebClient(ctx.app).signUp(email, `${stem}2024`);
      assert.equal(res.statusCode, 422);
      assert.match(fieldError(res.body) ?? '', /too easy to guess/);
    });

    it('a long passphrase is welcome', async () => {
      const email = uniqueEmail('phrase');
      const passphrase = 'the quiet otter paints blue lighthouses at dawn';
      assert.equal((await new WebClient(ctx.app).signUp(email, passphrase)).statusCode, 303);
      assert.equal((await new WebClient(ctx.app).logIn(email, passphrase)).statusCode, 303);
    });
  });

  describe('notices come from the service own lists only', () => {
    const inherited = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'];

    it('the profile page: an inherited name is no notice', async () => {
      const web = new WebClient(ctx.app);
      await web.signUpAndIn(uniqueEmail('notice'));
      for (const notice of inherited) {
        const res = await web.get(`/account?notice=${notice}`);
        assert.equal(res.statusCode, 200, notice);
        assert.doesNotMatch(res.body, /class="alert/, notice);
        assert.doesNotMatch(res.body, /native code|\[object Object\]/, notice);
      }
      assert.match((await web.get('/account?notice=revoked')).body, /Key revoked\./);
    });

    it('the sign-in page: an inherited name is no reason', async () => {
      for (const reason of inherited) {
        const res = await new WebClient(ctx.app).get(`/login?reason=${reason}`);
        assert.equal(res.statusCode, 200, reason);
        assert.doesNotMatch(res.body, /class="alert/, reason);
        assert.doesNotMatch(res.body, /native code|\[object Object\]/, reason);
      }
      assert.match((await new WebClient(ctx.app).get('/login?reason=signed-out')).body, /You have signed out\./);
    });
  });
});
