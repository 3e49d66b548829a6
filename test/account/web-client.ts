// A cookie-keeping client over app.inject, for the account pages' HTTP tests.
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { AppOptions } from '../../src/app.js';
import { startApp, type Backend, type TestContext } from '../helpers.js';

/**
 * startApp for the page tests. Opening and migrating the embedded store holds the event loop
 * for seconds, and the load shedder's first sample after that would refuse the next requests
 * with 503s; these tests are not about load shedding, so it is off.
 */
export function startWebApp(
  backend: Backend,
  env: Record<string, string> = {},
  options: Partial<AppOptions> = {},
): Promise<TestContext> {
  return startApp(backend, { LOAD_SHED_EVENT_LOOP_DELAY_MS: '0', ...env }, options);
}

export const PASSWORD = 'correct horse battery staple';

export function uniqueEmail(label = 'user'): string {
  return `${label}-${randomBytes(4).toString('hex')}@example.com`;
}

/**
 * The page with runs of whitespace collapsed to one space and none between two tags, so tests
 * match markup whatever the templates' line breaks and indentation.
 */
export function normalizeHtml(html: string): string {
  return html.replace(/\s+/g, ' ').replace(/> </g, '><').replace(/ \/?>/g, '>');
}

/** What the client sees of a response; body normalised (normalizeHtml). */
export interface WebResponse {
  statusCode: number;
  headers: LightMyRequestResponse['headers'];
  cookies: { name: string; value: string }[];
  body: string;
  /** The body as sent. */
  raw: string;
}

/** The CSRF token of the (first) form on a page. */
export function csrfOf(html: string): string {
  const match = /name="_csrf" value="([^"]+)"/.exec(html);
  if (!match) throw new Error(`no CSRF field on the page: ${html.slice(0, 200)}`);
  return match[1]!;
}

/** The key shown once on the page, if any. */
export function shownKey(html: string): string | undefined {
  return /id="new-key"[^>]*value="(ds_[0-9A-Za-z]+)"/.exec(html)?.[1];
}

/** The text of the page's error alert, if any. */
export function alertText(html: string): string | undefined {
  return /class="alert alert--error" role="alert">([^<]*)</.exec(html)?.[1];
}

/** The text of a field's error message, if any. */
export function fieldError(html: string): string | undefined {
  return /class="field-error" id="[^"]+">([^<]*)</.exec(html)?.[1];
}

export class WebClient {
  readonly cookies = new Map<string, string>();

  constructor(
    private readonly app: FastifyInstance,
    /** The client's address, as the rate limits see it. */
    readonly ip = `10.0.${randomBytes(1)[0]}.${randomBytes(1)[0]}`,
  ) {}

  private cookieHeader(): Record<string, string> {
    if (this.cookies.size === 0) return {};
    return { cookie: [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ') };
  }

  private keep(res: LightMyRequestResponse): WebResponse {
    const cookies = res.cookies as { name: string; value: string; maxAge?: number; expires?: Date }[];
    for (const cookie of cookies) {
      const cleared = cookie.value === '' || cookie.maxAge === 0 || (cookie.expires && cookie.expires.getTime() <= Date.now());
      if (cleared) this.cookies.delete(cookie.name);
      else this.cookies.set(cookie.name, cookie.value);
    }
    return { statusCode: res.statusCode, headers: res.headers, cookies, body: normalizeHtml(res.body), raw: res.body };
  }

  async get(url: string, headers: Record<string, string> = {}): Promise<WebResponse> {
    const res = await this.app.inject({
      method: 'GET',
      url,
      headers: { ...this.cookieHeader(), ...headers },
      remoteAddress: this.ip,
    });
    return this.keep(res);
  }

  post(url: string, form: Record<string, string>): Promise<WebResponse> {
    return this.postPairs(url, Object.entries(form));
  }

  /** A form whose fields may repeat (checkboxes). */
  async postPairs(url: string, pairs: [string, string][]): Promise<WebResponse> {
    const res = await this.app.inject({
      method: 'POST',
      url,
      headers: { ...this.cookieHeader(), 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams(pairs).toString(),
      remoteAddress: this.ip,
    });
    return this.keep(res);
  }

  /** The page a form's 303 sends the browser to (post/redirect/get), as the browser opens it. */
  async follow(res: WebResponse): Promise<WebResponse> {
    if (res.statusCode !== 303) throw new Error(`expected a 303 redirect, got ${res.statusCode}: ${alertText(res.body) ?? ''}`);
    return this.get(String(res.headers.location).split('#')[0]!);
  }

  /** Opens the form at formUrl and posts it with its CSRF token plus the fields given. */
  async submit(formUrl: string, action: string, fields: Record<string, string>): Promise<WebResponse> {
    const page = await this.get(formUrl);
    return this.post(action, { _csrf: csrfOf(page.body), ...fields });
  }

  /** Posts the sign-up form; signing up never signs in. */
  signUp(email: string, password = PASSWORD) {
    return this.submit('/signup', '/signup', { email, password });
  }

  /** A new account, signed in: sign up, then sign in as any user would. */
  async signUpAndIn(email: string, password = PASSWORD): Promise<WebResponse> {
    const signedUp = await this.signUp(email, password);
    if (signedUp.statusCode !== 303) throw new Error(`sign-up refused (status ${signedUp.statusCode})`);
    return this.logIn(email, password);
  }

  logIn(email: string, password = PASSWORD) {
    return this.submit('/login', '/login', { email, password });
  }

  /** Creates a key from the profile page; returns the page the form redirects to and the key it shows once. */
  async createKey(name = 'test key'): Promise<{ res: WebResponse; key: string }> {
    const posted = await this.submit('/account', '/account/keys', { name });
    const res = await this.follow(posted);
    const key = shownKey(res.body);
    if (!key) throw new Error(`no key shown (status ${res.statusCode})`);
    return { res, key };
  }
}
