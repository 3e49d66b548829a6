import Fastify, { type FastifyInstance } from 'fastify';
import type { Config } from './config.js';
import { openReplica, type Database } from './platform/db/index.js';
import { V1_SHARED_SCHEMAS, V1Error } from './catalog/index.js';
import { ReadModel } from './read/index.js';
import { KeyVerifier } from './accounts/index.js';
import { v1Routes } from './families/index.js';
import { v2Routes } from './families/index.js';
import { accountRoutes } from './families/index.js';
import { adminRoutes } from './ingest/index.js';
import { V2_SHARED_SCHEMAS } from './catalog/index.js';
import { WEBHOOK_SHARED_SCHEMAS } from './webhooks/index.js';
import { CreditMeter } from './accounts/index.js';
import { MemoryRateLimitStore, type RateLimitStore } from './platform/infra/index.js';
import { createRedisClient, RedisRateLimitStore } from './platform/infra/index.js';
import { ResilientRateLimitStore, type FallbackLogger } from './platform/infra/index.js';
import { AuthFailureLimiter, RateLimiter } from './accounts/index.js';
import { UsageRecorder } from './accounts/index.js';
import { loadPasswordEstimator } from './accounts/index.js';
import { Metrics } from './platform/infra/index.js';
import { operations, requestId } from './platform/http/index.js';
import type { AppServices, Lifecycle } from './app-services.js';
import { clientErrorHandler, errorShapeFor, frameworkErrors, notFoundHandler } from './platform/http/index.js';
import { registerDocs } from './platform/http/index.js';
import { EntityTags } from './platform/http/index.js';
import { validatorCompiler } from './platform/http/index.js';
import { HttpWebhookTransport, systemResolver, type HostResolver } from './webhooks/index.js';
import { WebhookDelivery } from './webhooks/index.js';
import { WebhookService } from './webhooks/index.js';
import { keyringOf } from './platform/infra/index.js';
import { WebhookSecrets } from './webhooks/index.js';
import { completedEvent, ENRICHMENT_SHARED_SCHEMAS, EnrichmentService, EnrichmentWorker } from './enrichment/index.js';
import { DigestTimer, MonitorDigests, MONITOR_SHARED_SCHEMAS, MonitorPass, MonitorService } from './monitors/index.js';
import { unsubscribeRoutes } from './monitors/index.js';
import { PeopleDirectory, PEOPLE_SHARED_SCHEMAS } from './people/index.js';
import { SmtpMailSender } from './platform/mail/index.js';

export interface AppOptions {
  config: Config;
  db: Database;
  /** Overrides for tests (e.g. a key verifier with a fake clock). */
  services?: Partial<Pick<AppServices, 'keys' | 'readModel'>>;
  /** Where rate-limit windows live; by default Redis (REDIS_URL) with a memory fallback, else memory. */
  rateLimitStore?: RateLimitStore;
  /** Shared with the server, which marks it draining on shutdown. */
  lifecycle?: Lifecycle;
  /** How webhook targets are resolved (tests answer names themselves); the system's DNS by default. */
  webhookResolver?: HostResolver;
  /** The clock relative dates in queries (v2 `date_preset`) count from; the system's by default (tests fix it). */
  now?: () => Date;
  /** pino destination (tests capture logs); defaults to stdout. */
  logStream?: NodeJS.WritableStream;
}

// Headers are not logged by the request serializer below; these paths guard any log call that adds them.
const REDACTED_PATHS = [
  'req.headers["x-lot-api-key"]',
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  'password',
  '*.password',
  '*.adminToken',
  '*.token',
];

const SECRET_PARAMS = /([?&](?:api[_-]?key|key|token|access_token|password|x-lot-api-key)=)[^&]*/gi;

/** The URL as logged: credential-looking query parameters are blanked (keys are never accepted there anyway). */
export function redactUrl(url: string): string {
  return url.replace(SECRET_PARAMS, '$1[redacted]');
}

function defaultRateLimitStore(config: Config, log: FallbackLogger): RateLimitStore {
  if (!config.redisUrl) return new MemoryRateLimitStore();
  const redis = createRedisClient({
    url: config.redisUrl,
    commandTimeoutMs: config.rateLimits.redisTimeoutMs,
    keyPrefix: config.redisKeyPrefix,
  });
  // Connection errors surface through failed commands (and the fallback); don't let them crash the process.
  redis.on('error', () => undefined);
  return new ResilientRateLimitStore(
    new RedisRateLimitStore(redis),
    new MemoryRateLimitStore(),
    log,
    config.rateLimits.redisTimeoutMs,
  );
}

/**
 * Seals the webhook secrets not yet sealed under the current key (plaintext ones from before
 * secrets were encrypted, ones under SECRETS_KEY_PREVIOUS) and says what it did and what is left.
 */
async function sealStoredSecrets(secrets: WebhookSecrets, log: FastifyInstance['log']): Promise<void> {
  const report = await secrets.sealStored();
  if (report.sealed + report.resealed > 0) {
    log.info(report, `webhook secrets: ${report.sealed} sealed, ${report.resealed} re-sealed with the current key`);
  }
  if (report.unreadable > 0) {
    log.error(
      report,
      `webhook secrets: ${report.unreadable} cannot be opened with SECRETS_KEY or SECRETS_KEY_PREVIOUS; ` +
        'their webhooks are not delivered until the key that sealed them is configured or their owners rotate them',
    );
  }
}

/** Builds the whole HTTP app without listening: used by the server, the tests and the benchmark. */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { config, db } = options;
  // Half a second of CPU: spent before the load shedder starts measuring the event loop, so it
  // is never read as overload.
  await loadPasswordEstimator();
  const app = Fastify({
    logger: {
      level: config.logLevel,
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      serializers: {
        req: (req: { method: string; url: string; ip?: string; socket?: { remoteAddress?: string } }) => ({
          method: req.method,
          url: redactUrl(req.url),
          remoteAddress: req.ip ?? req.socket?.remoteAddress,
        }),
      },
      ...(options.logStream ? { stream: options.logStream } : {}),
    },
    // Bounds on what a client can make us hold: header and URL sizes are limited by Node's parser.
    routerOptions: { maxParamLength: 200 },
    bodyLimit: 1024 * 1024,
    trustProxy: false,
    // The framework never cuts connections on close: the server's shutdown drains them first
    // (closeListenerAndDrain), answering every request that arrives on one.
    forceCloseConnections: false,
    // A request id on every log line and in X-Request-Id.
    genReqId: requestId,
    // What the router refuses before any route sees it answers in the family's shape too,
    frameworkErrors,
    // and so does what Node's HTTP parser refuses before the framework sees it (431, 414, 400).
    clientErrorHandler,
  });
  // Requests are checked by the validator ingested records go through (src/catalog/validation.ts).
  app.setValidatorCompiler(validatorCompiler);
  app.decorateRequest('principal', null);
  app.decorateRequest('creditsCharged', 0);

  const rateLimitStore = options.rateLimitStore ?? defaultRateLimitStore(config, app.log);
  // Signs the account pages' cookies and keys the list pages' ETags.
  if (!config.sessionSecret) throw new Error('SESSION_SECRET is not set');
  const sessionSecret = config.sessionSecret;
  const credits = new CreditMeter(db, config.credits);
  const webhookPolicy = { allowedNetworks: config.webhooks.allowedNetworks, resolver: options.webhookResolver ?? systemResolver };
  const webhookTransport = new HttpWebhookTransport({ policy: webhookPolicy, timeoutMs: config.webhooks.timeoutMs });
  const webhookSecrets = new WebhookSecrets(db, keyringOf(config), app.log);
  await sealStoredSecrets(webhookSecrets, app.log);
  // Only an app building its own read model reads the replica here (a serving thread's copy brings its own).
  const replica = options.services?.readModel
    ? undefined
    : await openReplica(config, { onError: (err) => app.log.warn({ err }, 'replica connection error') });
  // Created below, once the services it reads exist; a job created before then waits for its first poll.
  let enrichmentWorker: EnrichmentWorker | undefined;
  // The webhook sender, created below: monitors wake it when they have work.
  let wakeDelivery = () => undefined as void;
  const webhooks = new WebhookService(db, webhookTransport, credits, {
    policy: webhookPolicy,
    maxPerAccount: config.webhooks.maxPerAccount,
    pausedBacklog: config.webhooks.pausedBacklog,
    // An attempt takes at most the timeout; twice that leaves time to record it.
    retryHoldMs: 2 * config.webhooks.timeoutMs,
    secrets: webhookSecrets,
  });
  const services: AppServices = {
    config,
    db,
    keys: options.services?.keys ?? new KeyVerifier(db, config.keyCacheMs),
    readModel:
      options.services?.readModel ??
      (await ReadModel.open(db, {
        documentCacheBytes: config.documentCacheBytes,
        onError: (err) => app.log.error({ err }, 'filter index rebuild failed'),
        ...(replica && { replica: { db: replica, waitMs: config.replicaWaitMs } }),
      })),
    credits,
    limiter: config.rateLimits.enabled ? new RateLimiter(rateLimitStore, config.rateLimits) : undefined,
    authFailures: config.rateLimits.authFailuresEnabled ? new AuthFailureLimiter(rateLimitStore, config.rateLimits) : undefined,
    rateLimitStore,
    usage: new UsageRecorder(db, app.log),
    webhooks,
    enrichment: new EnrichmentService(db, credits, () => enrichmentWorker?.wake()),
    monitors: new MonitorService(
      db,
      webhooks,
      credits,
      { monitors: config.monitors.maxMonitors, targets: config.monitors.maxTargets, replayMax: config.monitors.replayMax },
      () => wakeDelivery(),
      options.now,
    ),
    people: new PeopleDirectory(db),
    metrics: new Metrics(db),
    // The one secret every instance shares (required with PostgreSQL; kept in DATA_DIR on the embedded store).
    entityTags: new EntityTags(config.sessionSecret),
    lifecycle: options.lifecycle ?? { draining: false },
    now: options.now ?? (() => new Date()),
  };
  services.metrics.watchIndex(() => services.readModel.stats());
  // Deliveries leave through one transport; every process may dispatch and send (they share the queue).
  const delivery = config.webhooks.delivery
    ? new WebhookDelivery(
        db,
        webhookTransport,
        services.credits,
        webhookSecrets,
        config.webhooks,
        app.log,
        (outcome, latencyMs) => {
          services.metrics.webhookAttempts.inc({ outcome });
          services.metrics.webhookDeliveryLatency.observe(latencyMs / 1000);
        },
        () => services.lifecycle.draining,
      )
    : undefined;
  services.webhooks.onChange(() => delivery?.wake());
  wakeDelivery = () => delivery?.wake();
  // Monitors are sent what they watch by the same processes, in turns with the webhook dispatcher.
  delivery?.addPass(
    new MonitorPass(db, services.webhooks, app.log, {
      batchSize: config.monitors.passBatch,
      backfillMax: config.monitors.backfillMax,
      retentionMs: config.changeLogRetentionDays * 86_400_000,
    }),
  );
  // Enrichment jobs are worked on by every process that runs a worker (they are claimed under a lease).
  if (config.enrichment.worker) {
    enrichmentWorker = new EnrichmentWorker(
      db,
      services.readModel,
      {
        pollMs: config.enrichment.pollMs,
        leaseMs: config.enrichment.leaseMs,
        retentionMs: config.enrichment.retentionDays * 86_400_000,
        signalsPerType: config.enrichment.signalsPerType,
      },
      app.log,
      {
        progress: (jobId) => services.enrichment.touched(jobId),
        finished: async (job) => {
          services.enrichment.touched(job.id);
          await services.webhooks.queueAccountEvent(job.account_id, 'enrichment.completed', completedEvent(job));
        },
      },
    );
  }
  // Digests of monitors without a webhook, mailed through the operator's SMTP server (none without one).
  const mail = config.monitors.smtpUrl ? new SmtpMailSender(config.monitors.smtpUrl, config.monitors.mailFrom) : undefined;
  const digests = mail
    ? new DigestTimer(
        new MonitorDigests(db, mail, {
          minutes: config.monitors.digestMinutes,
          publicUrl: config.publicUrl,
          secret: sessionSecret,
        }),
        config.monitors.mailPollMs,
        app.log,
      )
    : undefined;
  app.addHook('onReady', async () => {
    delivery?.start();
    digests?.start();
    enrichmentWorker?.start();
  });
  app.addHook('onClose', async () => {
    await digests?.stop();
    mail?.close();
    await enrichmentWorker?.stop();
    await delivery?.stop();
    await webhookTransport.close();
    await services.usage.flush();
    await services.rateLimitStore.close();
    await replica?.close();
  });

  await app.register(operations, { services, lifecycle: services.lifecycle });

  for (const schema of [
    ...V1_SHARED_SCHEMAS,
    V1Error,
    ...V2_SHARED_SCHEMAS,
    ...WEBHOOK_SHARED_SCHEMAS,
    ...ENRICHMENT_SHARED_SCHEMAS,
    ...MONITOR_SHARED_SCHEMAS,
    ...PEOPLE_SHARED_SCHEMAS,
  ]) {
    app.addSchema(schema);
  }

  await registerDocs(app, config);
  // The home page, sign-up/sign-in and the profile page (HTML, in a scope of their own).
  await app.register((scope) => accountRoutes(scope, services, { sessionSecret }));
  await app.register((scope) => unsubscribeRoutes(scope, { db, secret: sessionSecret }));

  await app.register((scope) => v1Routes(scope, services), { prefix: '/api/v1' });
  await app.register((scope) => v2Routes(scope, services), { prefix: '/api/v2' });
  if (config.adminToken) {
    const adminToken = config.adminToken;
    await app.register((scope) => adminRoutes(scope, services, { adminToken }), { prefix: '/admin' });
  }

  // Paths outside every route (including ones that normalise above /api/v1, like /api/v1/..).
  app.setNotFoundHandler(notFoundHandler((request) => errorShapeFor(request.url)));
  return app;
}
