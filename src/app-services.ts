// What the routes and the cross-cutting plugins are given: built once per app by buildApp and
// passed down as plugin options, so no route module imports the app that registers it.
import type { Config } from './config.js';
import type { Database } from './platform/db/index.js';
import type { EntityTags } from './platform/http/index.js';
import type { Metrics } from './platform/infra/index.js';
import type { RateLimitStore } from './platform/infra/index.js';
import type { CreditMeter } from './accounts/index.js';
import type { KeyVerifier } from './accounts/index.js';
import type { ReadModel } from './read/index.js';
import type { AuthFailureLimiter, RateLimiter } from './accounts/index.js';
import type { UsageRecorder } from './accounts/index.js';
import type { WebhookService } from './webhooks/index.js';
import type { EnrichmentService } from './enrichment/index.js';
import type { MonitorService } from './monitors/index.js';
import type { PeopleDirectory } from './people/index.js';

/** Lifecycle state the server changes and the readiness probe reports. */
export interface Lifecycle {
  draining: boolean;
}

/** What the routes need, built once per app. */
export interface AppServices {
  config: Config;
  db: Database;
  keys: KeyVerifier;
  /** Answers list requests: the in-memory filter index, kept current from the change log. */
  readModel: ReadModel;
  credits: CreditMeter;
  /** Undefined when rate limits are switched off. */
  limiter: RateLimiter | undefined;
  /** Undefined when the failed-authentication limit is switched off. */
  authFailures: AuthFailureLimiter | undefined;
  /** Where windows live (Redis shared, or memory); also used for login-attempt limits. */
  rateLimitStore: RateLimitStore;
  usage: UsageRecorder;
  /** Webhook subscriptions, their test events, delivery log and retries. */
  webhooks: WebhookService;
  /** Enrichment jobs: created, waited for and read (worked on by the EnrichmentWorker). */
  enrichment: EnrichmentService;
  /** Monitors and their targets (the monitor pass, run with webhook delivery, sends what they watch). */
  monitors: MonitorService;
  /** The people the records name, for GET /api/v2/people: built on first use (or at the server's start), kept current. */
  people: PeopleDirectory;
  metrics: Metrics;
  /** The list pages' ETags, keyed with the server's secret. */
  entityTags: EntityTags;
  lifecycle: Lifecycle;
  /** The time now: what relative dates in queries (v2 `date_preset`) count from; tests fix it. */
  now: () => Date;
}
