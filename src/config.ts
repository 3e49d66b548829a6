// The one place that reads the environment. Everything else receives a Config.
import { isIP } from 'node:net';

export type Tier = 'free' | 'pro' | 'enterprise';
export const TIERS: readonly Tier[] = ['free', 'pro', 'enterprise'];

export interface Config {
  port: number;
  host: string;
  /** Public base URL printed in docs and curl examples. */
  publicUrl: string;
  dataDir: string;
  /** PostgreSQL connection string; undefined selects the embedded PGlite store in dataDir. */
  databaseUrl: string | undefined;
  databasePoolSize: number;
  /**
   * A streaming replica of DATABASE_URL (DATABASE_REPLICA_URL): list pages and lookups read their
   * documents there once it has replayed up to the index's position; everything else stays on the primary.
   */
  databaseReplicaUrl: string | undefined;
  /** How long a page waits for the replica to reach the index's position before reading the primary instead. */
  replicaWaitMs: number;
  /** PostgreSQL cancels statements running longer; the client gets a 503. */
  statementTimeoutMs: number;
  redisUrl: string | undefined;
  /** Put before every Redis key this deployment writes, so deployments can share one Redis (REDIS_KEY_PREFIX). */
  redisKeyPrefix: string;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** How long a verified API key is trusted from the in-memory cache. */
  keyCacheMs: number;
  /** Memory for served documents kept by id, dropped when the change log says they changed; 0 disables. */
  documentCacheBytes: number;
  /**
   * Old-generation limit of each serving thread's V8 heap (`serve --workers N`, N > 1); 0 leaves V8's
   * own. Below 1 GiB V8 also grows a heap by a smaller factor before collecting it, so a thread holds
   * closer to what it uses.
   */
  threadHeapMb: number;
  /** Seed demo data and a demo key when the store is empty (embedded store only by default). */
  seedDemo: boolean;
  /** Record every keyed request (the account page's usage chart); off only to measure its cost. */
  usageRecording: boolean;
  /** Monthly v2 credit allowance per tier. */
  credits: Record<Tier, number>;
  /**
   * Signs session cookies of the account pages; the same on every instance. Required with
   * DATABASE_URL; on the embedded store the server keeps a generated one in DATA_DIR.
   */
  sessionSecret: string | undefined;
  /**
   * Seals webhook signing secrets at rest (AES-256-GCM, 32 bytes; SECRETS_KEY, the same on every
   * instance). Undefined: a key derived from sessionSecret (HKDF) seals them.
   */
  secretsKey: Buffer | undefined;
  /** The key before a rotation (SECRETS_KEY_PREVIOUS): what it sealed is still read, and re-sealed with the current key. */
  secretsKeyPrevious: Buffer | undefined;
  /** Bearer token of the ingestion routes (/admin/ingest/KIND); the routes are off when unset. */
  adminToken: string | undefined;
  /** Folder watched for files to ingest while serving. */
  inboxDir: string | undefined;
  /** Days the change log keeps an entry; a reader further behind must reload. */
  changeLogRetentionDays: number;
  /** Bearer token protecting /metrics; may be unset (open) only when listening on a loopback address. */
  metricsToken: string | undefined;
  loadShedding: { maxEventLoopDelayMs: number; maxEventLoopUtilization: number };
  /** Open connections a process accepts at most. */
  maxConnections: number;
  /** Seconds between readiness turning 503 and the server closing, so load balancers notice. */
  shutdownDelayMs: number;
  webhooks: {
    /** Run the dispatcher and the delivery worker in this process (every instance may; they share the queue). */
    delivery: boolean;
    /**
     * Networks a webhook may target although they are not globally reachable (loopback, private, link-local
     * or another special-purpose block; CIDRs; WEBHOOK_ALLOWED_NETWORKS). Empty in production: deliveries to
     * them are refused.
     */
    allowedNetworks: string[];
    /** Longest one delivery may take (connect, response and body). */
    timeoutMs: number;
    /** Waits before each automatic retry, in ms: the last one failing fails the delivery. */
    retryDelaysMs: number[];
    /** Webhooks this process delivers to at once. */
    concurrency: number;
    /** How often the change log is read for new events, and due deliveries looked for. */
    pollMs: number;
    /** How long a claimed webhook stays this process's before another may take it over (crash recovery). */
    leaseMs: number;
    /** Webhooks per account, paused ones included (deleted ones aside). */
    maxPerAccount: number;
    /** How long deliveries of an account with no credits left wait before its balance is read again. */
    creditsRecheckMs: number;
    /** Pending deliveries a paused webhook keeps, at most (the oldest; later events are dropped and counted). */
    pausedBacklog: number;
    /** Days the delivery log keeps a finished delivery. */
    deliveryRetentionDays: number;
    /**
     * Deliveries one dispatch transaction queues, at most (plus those of the change that reaches it):
     * short transactions, so readers get the store in between a large import's.
     */
    dispatchBatch: number;
  };
  enrichment: {
    /** Work on enrichment jobs in this process (every instance may; jobs are claimed under a lease). */
    worker: boolean;
    /** How often the queue is looked at for jobs (a job created here is started at once). */
    pollMs: number;
    /** How long a claimed job stays this process's without progress before another may take it over. */
    leaseMs: number;
    /** Days a finished job's results are kept; after that the job answers 410 job_expired. */
    retentionDays: number;
    /** Newest signals of each type in a result (the rest are counted). */
    signalsPerType: number;
  };
  monitors: {
    /** Monitors an account may have, by tier (published: 20). */
    maxMonitors: Record<Tier, number>;
    /** Targets an account may have over all its monitors, by tier (published: 1,000). */
    maxTargets: Record<Tier, number>;
    /** Signals one target's backfill sends, at most. */
    backfillMax: number;
    /** Events one replay sends again, at most. */
    replayMax: number;
    /** Change log entries one monitor pass transaction reads. */
    passBatch: number;
    /** Where digests of monitors without a webhook are mailed through (smtp:// or smtps://); none: no mail. */
    smtpUrl: string | undefined;
    /** The digests' sender address. */
    mailFrom: string;
    /** A monitor's digest goes out at most this often, in minutes. */
    digestMinutes: number;
    /** How often monitors due a digest are looked for. */
    mailPollMs: number;
  };
  rateLimits: {
    enabled: boolean;
    windowMs: number;
    /** v1 requests per window and account, unless the account has its own. */
    v1: number;
    /** v2 requests per window and account, by tier. */
    v2: Record<Tier, number>;
    /**
     * Conditional list requests (If-None-Match) per window and account, as a multiple of the plan's
     * limit: a 304 is not counted against that limit, so this bounds the pages they make the server build.
     */
    conditionalMultiplier: number;
    /**
     * Limit failed authentications per client IP. A setting of its own, on by default: switching
     * account limits off (RATE_LIMITS=false, a benchmark's baseline) must not open the door to key guessing.
     */
    authFailuresEnabled: boolean;
    /** Failed authentications per window and client IP before 429s. */
    authFailures: number;
    /** Longest a request may wait on Redis before the in-memory fallback answers. */
    redisTimeoutMs: number;
  };
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n  - ${problems.join('\n  - ')}`);
  }
}

type Env = Record<string, string | undefined>;

/** THREAD_HEAP_MB: 0 (V8's own limit) or at least what a serving thread needs to start and serve. */
function threadHeapVar(env: Env, problems: string[]): number {
  const value = intVar(env, 'THREAD_HEAP_MB', 160, 0, 65_536, problems);
  if (value > 0 && value < 64) problems.push(`THREAD_HEAP_MB=${value} must be 0 or at least 64`);
  return value;
}

function intVar(env: Env, name: string, fallback: number, min: number, max: number, problems: string[]): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw.trim())) {
    problems.push(`${name}=${JSON.stringify(raw)} is not a whole number`);
    return fallback;
  }
  const value = Number(raw);
  if (value < min || value > max) problems.push(`${name}=${raw} must be between ${min} and ${max}`);
  return value;
}

function boolVar(env: Env, name: string, fallback: boolean, problems: string[]): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (/^(1|true|yes|on)$/i.test(raw)) return true;
  if (/^(0|false|no|off)$/i.test(raw)) return false;
  problems.push(`${name}=${JSON.stringify(raw)} must be true or false`);
  return fallback;
}

function urlVar(env: Env, name: string, protocols: string[], problems: string[]): string | undefined {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return undefined;
  try {
    const url = new URL(raw);
    if (!protocols.includes(url.protocol)) {
      problems.push(`${name} must use ${protocols.join(' or ')} (got ${url.protocol})`);
    }
  } catch {
    problems.push(`${name} is not a valid URL`);
  }
  return raw.trim();
}

/**
 * Waits before the automatic retries of a webhook delivery: 5 s, 30 s, 2 min, 5 min, 10 min,
 * 30 min, 1 h, 2 h, 4 h, 6 h, 10 h; about 24 hours from the first attempt to the last.
 */
const DEFAULT_RETRY_DELAYS = [5, 30, 120, 300, 600, 1800, 3600, 7200, 14_400, 21_600, 36_000];

/** A comma-separated list of waits in seconds (fractions allowed), as ms. */
function secondsListVar(env: Env, name: string, fallback: number[], problems: string[]): number[] {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback.map((s) => s * 1000);
  const values = raw.split(',').map((part) => part.trim());
  if (values.some((v) => !/^\d+(\.\d+)?$/.test(v) || Number(v) > 7 * 86_400)) {
    problems.push(`${name}=${JSON.stringify(raw)} must be a comma-separated list of seconds (each at most a week)`);
    return fallback.map((s) => s * 1000);
  }
  return values.map((v) => Math.round(Number(v) * 1000));
}

/** A comma-separated list of CIDR blocks (a bare address is one host). */
function cidrListVar(env: Env, name: string, problems: string[]): string[] {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return [];
  const blocks = raw
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  for (const block of blocks) {
    const [address, bits, ...rest] = block.split('/');
    const family = isIP(address ?? '');
    const max = family === 6 ? 128 : 32;
    if (family === 0 || rest.length > 0 || (bits !== undefined && !(/^\d+$/.test(bits) && Number(bits) <= max))) {
      problems.push(`${name}: ${JSON.stringify(block)} is not an address or CIDR block`);
    }
  }
  return blocks;
}

/** A 32-byte key given as 64 hex characters or base64 (base64url too, padding optional). */
function keyVar(env: Env, name: string, problems: string[]): Buffer | undefined {
  const raw = env[name]?.trim();
  if (!raw) return undefined;
  if (/^[0-9a-f]{64}$/i.test(raw)) return Buffer.from(raw, 'hex');
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(raw)) return Buffer.from(raw, 'base64');
  problems.push(`${name} must be 32 bytes written as 64 hex characters or base64 (make one with: openssl rand -hex 32)`);
  return undefined;
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** 127.0.0.0/8, ::1 and localhost: addresses only this machine can reach. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.toLowerCase().replace(/^\[|\]$/g, '');
  return bare === 'localhost' || bare === '::1' || /^(::ffff:)?127(\.\d{1,3}){3}$/.test(bare);
}

/** Parses the environment once; throws ConfigError naming every bad variable. */
export function loadConfig(env: Env = process.env): Config {
  const problems: string[] = [];
  const port = intVar(env, 'PORT', 3000, 0, 65535, problems);
  const host = env.HOST?.trim() || '127.0.0.1';
  const logLevelRaw = (env.LOG_LEVEL?.trim() || 'info').toLowerCase();
  if (!(LOG_LEVELS as readonly string[]).includes(logLevelRaw)) {
    problems.push(`LOG_LEVEL=${JSON.stringify(env.LOG_LEVEL)} must be one of ${LOG_LEVELS.join(', ')}`);
  }
  const databaseUrl = urlVar(env, 'DATABASE_URL', ['postgres:', 'postgresql:'], problems);
  const databaseReplicaUrl = urlVar(env, 'DATABASE_REPLICA_URL', ['postgres:', 'postgresql:'], problems);
  if (databaseReplicaUrl !== undefined && databaseUrl === undefined) {
    problems.push('DATABASE_REPLICA_URL needs DATABASE_URL: it is a replica of that primary');
  }
  const redisUrl = urlVar(env, 'REDIS_URL', ['redis:', 'rediss:'], problems);
  const publicUrlRaw = urlVar(env, 'PUBLIC_URL', ['http:', 'https:'], problems);
  const displayHost = host === '0.0.0.0' || host === '::' ? 'localhost' : host;
  const config: Config = {
    port,
    host,
    publicUrl: (publicUrlRaw ?? `http://${displayHost}:${port}`).replace(/\/+$/, ''),
    dataDir: env.DATA_DIR?.trim() || './data',
    databaseUrl,
    databasePoolSize: intVar(env, 'DATABASE_POOL_SIZE', 8, 1, 200, problems),
    statementTimeoutMs: intVar(env, 'STATEMENT_TIMEOUT_MS', 5000, 0, 600_000, problems),
    databaseReplicaUrl,
    replicaWaitMs: intVar(env, 'REPLICA_WAIT_MS', 1000, 0, 60_000, problems),
    redisUrl,
    redisKeyPrefix: env.REDIS_KEY_PREFIX?.trim() || 'dealsignal:',
    logLevel: (LOG_LEVELS as readonly string[]).includes(logLevelRaw) ? (logLevelRaw as Config['logLevel']) : 'info',
    keyCacheMs: intVar(env, 'KEY_CACHE_MS', 1000, 0, 60_000, problems),
    documentCacheBytes: intVar(env, 'DOCUMENT_CACHE_MB', 32, 0, 16_384, problems) * 1024 * 1024,
    threadHeapMb: threadHeapVar(env, problems),
    seedDemo: boolVar(env, 'SEED_DEMO', databaseUrl === undefined, problems),
    usageRecording: boolVar(env, 'USAGE_RECORDING', true, problems),
    credits: {
      free: intVar(env, 'CREDITS_FREE', 100, 0, 1e12, problems),
      pro: intVar(env, 'CREDITS_PRO', 10_000, 0, 1e12, problems),
      enterprise: intVar(env, 'CREDITS_ENTERPRISE', 1_000_000, 0, 1e12, problems),
    },
    sessionSecret: env.SESSION_SECRET?.trim() || undefined,
    secretsKey: keyVar(env, 'SECRETS_KEY', problems),
    secretsKeyPrevious: keyVar(env, 'SECRETS_KEY_PREVIOUS', problems),
    adminToken: env.ADMIN_TOKEN?.trim() || undefined,
    inboxDir: env.INBOX_DIR?.trim() || undefined,
    changeLogRetentionDays: intVar(env, 'CHANGE_LOG_RETENTION_DAYS', 7, 1, 3650, problems),
    metricsToken: env.METRICS_TOKEN?.trim() || undefined,
    loadShedding: {
      maxEventLoopDelayMs: intVar(env, 'LOAD_SHED_EVENT_LOOP_DELAY_MS', 1000, 0, 60_000, problems),
      maxEventLoopUtilization: intVar(env, 'LOAD_SHED_EVENT_LOOP_UTILIZATION_PCT', 0, 0, 100, problems) / 100,
    },
    maxConnections: intVar(env, 'MAX_CONNECTIONS', 10_000, 1, 1_000_000, problems),
    shutdownDelayMs: intVar(env, 'SHUTDOWN_DELAY_MS', 1000, 0, 8000, problems),
    webhooks: {
      delivery: boolVar(env, 'WEBHOOK_DELIVERY', true, problems),
      allowedNetworks: cidrListVar(env, 'WEBHOOK_ALLOWED_NETWORKS', problems),
      timeoutMs: intVar(env, 'WEBHOOK_TIMEOUT_MS', 10_000, 100, 60_000, problems),
      retryDelaysMs: secondsListVar(env, 'WEBHOOK_RETRY_DELAYS', DEFAULT_RETRY_DELAYS, problems),
      concurrency: intVar(env, 'WEBHOOK_CONCURRENCY', 64, 1, 1000, problems),
      pollMs: intVar(env, 'WEBHOOK_POLL_MS', 200, 10, 60_000, problems),
      leaseMs: intVar(env, 'WEBHOOK_LEASE_SECONDS', 60, 1, 3600, problems) * 1000,
      maxPerAccount: intVar(env, 'WEBHOOK_MAX_PER_ACCOUNT', 10, 1, 1000, problems),
      creditsRecheckMs: intVar(env, 'WEBHOOK_CREDITS_RECHECK_MS', 30_000, 10, 3_600_000, problems),
      pausedBacklog: intVar(env, 'WEBHOOK_PAUSED_BACKLOG', 1000, 0, 100_000, problems),
      deliveryRetentionDays: intVar(env, 'WEBHOOK_DELIVERY_RETENTION_DAYS', 30, 1, 3650, problems),
      dispatchBatch: intVar(env, 'WEBHOOK_DISPATCH_BATCH', 1000, 1, 100_000, problems),
    },
    enrichment: {
      worker: boolVar(env, 'ENRICHMENT_WORKER', true, problems),
      pollMs: intVar(env, 'ENRICHMENT_POLL_MS', 1000, 10, 60_000, problems),
      leaseMs: intVar(env, 'ENRICHMENT_LEASE_SECONDS', 30, 1, 3600, problems) * 1000,
      retentionDays: intVar(env, 'ENRICHMENT_RETENTION_DAYS', 7, 1, 365, problems),
      signalsPerType: intVar(env, 'ENRICHMENT_SIGNALS_PER_TYPE', 5, 1, 50, problems),
    },
    monitors: {
      maxMonitors: {
        free: intVar(env, 'MONITORS_MAX_FREE', 20, 0, 100_000, problems),
        pro: intVar(env, 'MONITORS_MAX_PRO', 20, 0, 100_000, problems),
        enterprise: intVar(env, 'MONITORS_MAX_ENTERPRISE', 20, 0, 100_000, problems),
      },
      maxTargets: {
        free: intVar(env, 'MONITOR_TARGETS_MAX_FREE', 1000, 0, 10_000_000, problems),
        pro: intVar(env, 'MONITOR_TARGETS_MAX_PRO', 1000, 0, 10_000_000, problems),
        enterprise: intVar(env, 'MONITOR_TARGETS_MAX_ENTERPRISE', 1000, 0, 10_000_000, problems),
      },
      backfillMax: intVar(env, 'MONITOR_BACKFILL_MAX', 1000, 1, 100_000, problems),
      replayMax: intVar(env, 'MONITOR_REPLAY_MAX', 10_000, 1, 1_000_000, problems),
      passBatch: intVar(env, 'MONITOR_PASS_BATCH', 1000, 1, 100_000, problems),
      smtpUrl: urlVar(env, 'SMTP_URL', ['smtp:', 'smtps:'], problems),
      mailFrom: env.MAIL_FROM?.trim() || 'dealsignal <alerts@dealsignal.localhost>',
      digestMinutes: intVar(env, 'MONITOR_DIGEST_MINUTES', 60, 1, 10_080, problems),
      mailPollMs: intVar(env, 'MONITOR_MAIL_POLL_MS', 30_000, 10, 3_600_000, problems),
    },
    rateLimits: {
      enabled: boolVar(env, 'RATE_LIMITS', true, problems),
      windowMs: intVar(env, 'RATE_LIMIT_WINDOW_MS', 60_000, 100, 3_600_000, problems),
      v1: intVar(env, 'RATE_LIMIT_V1', 60, 1, 1_000_000, problems),
      v2: {
        free: intVar(env, 'RATE_LIMIT_FREE', 10, 1, 1_000_000, problems),
        pro: intVar(env, 'RATE_LIMIT_PRO', 60, 1, 1_000_000, problems),
        enterprise: intVar(env, 'RATE_LIMIT_ENTERPRISE', 600, 1, 1_000_000, problems),
      },
      conditionalMultiplier: intVar(env, 'RATE_LIMIT_CONDITIONAL_MULTIPLIER', 10, 1, 1000, problems),
      authFailuresEnabled: boolVar(env, 'AUTH_FAILURE_LIMITS', true, problems),
      authFailures: intVar(env, 'AUTH_FAILURE_LIMIT', 30, 1, 1_000_000, problems),
      redisTimeoutMs: intVar(env, 'REDIS_TIMEOUT_MS', 250, 10, 10_000, problems),
    },
  };
  if (config.sessionSecret !== undefined && config.sessionSecret.length < 32) {
    problems.push('SESSION_SECRET must be at least 32 characters');
  } else if (config.sessionSecret === undefined && databaseUrl !== undefined) {
    problems.push('SESSION_SECRET is required with DATABASE_URL (at least 32 characters, the same on every instance)');
  }
  if (config.adminToken !== undefined && config.adminToken.length < 24)
    problems.push('ADMIN_TOKEN must be at least 24 characters');
  // /metrics shows versions, routes and pool state: open only to this machine.
  if (config.metricsToken === undefined && !isLoopbackHost(host)) {
    problems.push(
      `METRICS_TOKEN is required when HOST=${host} is not a loopback address (it protects /metrics); set one, or listen on 127.0.0.1`,
    );
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}
