// The account pages: home, sign-up, sign-in, sign-out, the profile page with key management,
// and their static assets. Server-rendered HTML; the only script is the copy button.
import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import { errorHandling, type ErrorShape } from '../platform/http/index.js';
import { loadPasswordEstimator } from '../accounts/index.js';
import { DEFAULT_WEB_LIMITS, type WebLimits } from '../accounts/index.js';
import { DEFAULT_ROLL_GRACE_MS } from '../accounts/index.js';
import { DEFAULT_SESSION_TTL_MS } from '../accounts/index.js';
import { loadAssets } from '../platform/web/index.js';
import { errorPage } from '../platform/web/index.js';
import { authRoutes } from '../accounts/portal/index.js';
import { pageContext, sendPage, type AccountServices, type WebDeps } from '../accounts/portal/index.js';
import { FlashCookie } from '../accounts/portal/index.js';
import { profileRoutes } from '../accounts/portal/index.js';
import { requestSession, type RequestSession } from '../accounts/portal/index.js';

export interface AccountRoutesOptions {
  /** Signs the session and form cookies; at least 32 characters, the same on every instance. */
  sessionSecret: string;
  /** How long a rolled key keeps working (default 24 h). */
  rollGraceMs?: number;
  /** Session lifetime from sign-in (default 7 days). */
  sessionTtlMs?: number;
  /** Sign-in and sign-up attempt limits (defaults in DEFAULT_WEB_LIMITS). */
  limits?: Partial<WebLimits>;
}

const MIN_SECRET_LENGTH = 32;

// Only our own origin; no inline script or style. Inline SVG needs no source of its own.
const CONTENT_SECURITY_POLICY = {
  useDefaults: false,
  directives: {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'"],
    scriptSrcAttr: ["'none'"],
    styleSrc: ["'self'"],
    imgSrc: ["'self'", 'data:'],
    fontSrc: ["'self'"],
    connectSrc: ["'self'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
    baseUri: ["'none'"],
    objectSrc: ["'none'"],
  },
};

const ASSET_CACHE = 'public, max-age=31536000, immutable';

/**
 * Registers the account pages in the calling (encapsulated) scope: cookies, form bodies and
 * security headers apply to these routes only, never to the API families.
 */
export async function accountRoutes(
  app: FastifyInstance,
  services: AccountServices,
  options: AccountRoutesOptions,
): Promise<void> {
  if (options.sessionSecret.length < MIN_SECRET_LENGTH) {
    throw new Error(`the account pages' session secret must be at least ${MIN_SECRET_LENGTH} characters`);
  }
  // Loaded now (buildApp has usually done it already), so no sign-up waits for the dictionaries.
  await loadPasswordEstimator();
  const deps: WebDeps = {
    services,
    assets: loadAssets(),
    rollGraceMs: options.rollGraceMs ?? DEFAULT_ROLL_GRACE_MS,
    sessionTtlMs: options.sessionTtlMs ?? DEFAULT_SESSION_TTL_MS,
    limits: { ...DEFAULT_WEB_LIMITS, ...options.limits },
    flash: new FlashCookie(options.sessionSecret),
  };

  // Pages are not part of the API: keep them out of the OpenAPI document.
  app.addHook('onRoute', (route) => {
    route.schema = { ...route.schema, hide: true };
  });
  await app.register(cookie, { secret: options.sessionSecret });
  await app.register(formbody);
  await app.register(helmet, {
    contentSecurityPolicy: CONTENT_SECURITY_POLICY,
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'same-origin' },
  });

  // Errors are pages too (their status's own wording, never the cause); unknown paths are left
  // to the app's not-found handler.
  const pageErrors: ErrorShape = {
    async send(request, reply, status) {
      // The nav shows who is signed in, unless the database is the problem.
      const session: RequestSession =
        status >= 500
          ? { status: 'none' }
          : await requestSession(request, services.db).catch(() => ({ status: 'none' as const }));
      return sendPage(reply, status, errorPage(pageContext(deps, request, session), status));
    },
    internalMessage: 'Something went wrong',
    unavailableMessage: 'Temporarily unavailable',
    notFoundMessage: 'Page not found',
  };
  await app.register(errorHandling, { shape: pageErrors, notFound: false });

  app.get<{ Params: { file: string } }>('/assets/:file', async (request, reply) => {
    const asset = deps.assets.byPath.get(`/assets/${request.params.file}`);
    if (!asset) return sendPage(reply, 404, errorPage(pageContext(deps, request, { status: 'none' }), 404));
    return reply.header('cache-control', ASSET_CACHE).type(asset.contentType).send(asset.body);
  });

  authRoutes(app, deps);
  profileRoutes(app, deps);
}
