import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { buildApp } from './app.js';
import { openOperatorChannel, type OperatorChannel } from './cli/index.js';
import type { Lifecycle } from './app-services.js';
import { closeListenerAndDrain, listeningDescriptor } from './platform/http/index.js';
import { gatherThreadScrapes } from './platform/infra/index.js';
import { startServingThreads } from './serving-threads.js';
import { SharedReadModel } from './read/index.js';
import type { ReadModel } from './read/index.js';
import { startInbox } from './ingest/index.js';
import { startChangeLogPruning } from './changes/index.js';
import { expireJobs } from './enrichment/index.js';
import { pruneFinishedDeliveries } from './webhooks/index.js';
import type { Config } from './config.js';
import { migrate } from './platform/db/index.js';
import { openDatabase } from './platform/db/index.js';
import type { Database } from './platform/db/index.js';
import { anyApiKeyExists } from './accounts/index.js';
import { createApiKey } from './accounts/index.js';
import { countDatasetRows, discardAbandonedStages } from './ingest/index.js';
import { KeyVerifier } from './accounts/index.js';

const DEMO_EMAIL = 'demo@dealsignal.local';

/**
 * The demo key is kept in the data directory (the database holds only its hash) so every
 * restart prints the same ready-to-paste curl.
 */
async function ensureDemoKey(db: Database, config: Config): Promise<string> {
  const file = join(config.dataDir, 'demo-key');
  let existing: string | undefined;
  try {
    existing = readFileSync(file, 'utf8').trim();
  } catch {
    existing = undefined;
  }
  if (existing && (await new KeyVerifier(db, 0).verify(existing))) return existing;
  const created = await createApiKey(db, { email: DEMO_EMAIL, tier: 'pro', name: 'demo' });
  writeFileSync(file, created.key + '\n', { mode: 0o600 });
  return created.key;
}

export interface ServeOptions {
  /**
   * Serving threads (worker_threads sharing the port and one filter index). Default: one per core
   * on PostgreSQL, 1 on the embedded store; 1 serves from the main thread.
   */
  workers?: number;
}

/** The embedded store keeps its own cookie-signing secret beside the data, made on first start. */
function embeddedSessionSecret(config: Config): string {
  const file = join(config.dataDir, 'session-secret');
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    const secret = randomBytes(32).toString('base64url');
    mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
    writeFileSync(file, secret + '\n', { mode: 0o600 });
    return secret;
  }
}

/** Forced exit if a graceful shutdown has not finished by then. */
const SHUTDOWN_DEADLINE_MS = 10_000;
/** How long a connection may stay idle once the listener is closed (see closeListenerAndDrain). */
const IDLE_GRACE_MS = 1000;

/**
 * Opens the store, migrates, seeds demo data when empty, then serves: in this process, or in
 * serving threads sharing the port and one filter index. Closes cleanly on SIGTERM/SIGINT.
 */
export async function serve(
  baseConfig: Config,
  options: ServeOptions = {},
  log: (line: string) => void = console.log,
): Promise<void> {
  // Before anything is created or seeded (a demo store takes a while), so a taken port costs nothing.
  await checkPortFree(baseConfig.host, baseConfig.port);
  // Workers only exist with DATABASE_URL, which requires SESSION_SECRET; the embedded store makes its own.
  const config = { ...baseConfig, sessionSecret: baseConfig.sessionSecret ?? embeddedSessionSecret(baseConfig) };
  const workers = options.workers ?? (config.databaseUrl ? availableParallelism() : 1);
  if (workers > 1 && !config.databaseUrl) {
    throw new Error('--workers > 1 needs DATABASE_URL: the embedded store belongs to a single process');
  }

  const db = await openDatabase(config, { log });
  const demoKey = await prepareStore(db, config, log);
  const nextSteps = await firstSteps(db, config);
  if (workers === 1) {
    await listenAndServe(config, db).catch(async (err: unknown) => {
      await db.close(); // frees the embedded store's lock for the next attempt
      throw err;
    });
  } else {
    // This thread builds the indexes and follows the change log; the serving threads read them.
    const shared = await SharedReadModel.open(db, {
      onError: (err) => console.error(`filter index rebuild failed: ${(err as Error).message ?? String(err)}`),
    });
    await startServingThreads(config, workers, shared, { db, onMetricsPorts: gatherThreadScrapes });
  }
  printBanner(config, db.kind, demoKey, workers, log);
  for (const line of nextSteps) log(line);
}

/**
 * What an operator starting on an empty database (PostgreSQL, where no demo data is loaded by
 * default) does next: without it, the server serves nothing and says nothing about why.
 */
async function firstSteps(db: Database, config: Config): Promise<string[]> {
  if (db.kind !== 'postgres') return [];
  const [counts, hasKeys] = await Promise.all([countDatasetRows(db), anyApiKeyExists(db)]);
  const empty = Object.values(counts).every((n) => n === 0);
  if (!empty && hasKeys) return [];
  const steps = ['The database is new. Next steps:'];
  if (!hasKeys) steps.push('  create a key:  dealsignal keys create --email you@example.com (DATABASE_URL set as here)');
  if (empty) {
    steps.push('  load data:     dealsignal import KIND FILE (KIND: funding, m-a, investors, job-changes, acquisitions),');
    steps.push('                 or dealsignal seed --scale demo, or restart with SEED_DEMO=true for the demo data set');
  }
  steps.push(`  then try:      curl -H 'Authorization: Bearer ds_…' '${config.publicUrl}/api/v2/signals/investors?limit=5'`);
  steps.push('');
  return steps;
}

/** One line saying why HOST:PORT cannot be listened on, and what to change. */
function listenProblem(err: unknown, host: string, port: number): Error {
  const code = (err as NodeJS.ErrnoException).code;
  const address = host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
  if (code === 'EADDRINUSE') return new Error(`port ${port} is in use (${address}); set PORT to another port`);
  if (code === 'EACCES')
    return new Error(`port ${port} needs privileges this process lacks (${address}); set PORT to another port`);
  if (code === 'EADDRNOTAVAIL') return new Error(`${host} is not an address of this machine; set HOST to one that is`);
  return new Error(`cannot listen on ${address} (${code ?? (err as Error).message})`);
}

/** Binds HOST:PORT for a moment and lets it go: fails the way listening would, in one line. */
async function checkPortFree(host: string, port: number): Promise<void> {
  if (port === 0) return; // any free port will do
  const probe = createServer();
  try {
    await new Promise<void>((resolve, reject) => {
      probe.once('error', reject);
      probe.listen({ host, port }, () => resolve());
    });
  } catch (err) {
    throw listenProblem(err, host, port);
  }
  await new Promise((resolve) => probe.close(resolve));
}

async function prepareStore(db: Database, config: Config, log: (line: string) => void): Promise<string | undefined> {
  const applied = await migrate(db);
  if (applied.length > 0) log(`migrations applied: ${applied.join(', ')}`);
  const abandoned = await discardAbandonedStages(db);
  if (abandoned > 0) log(`removed ${abandoned} staged records of imports interrupted by the last stop (never published)`);
  if (!config.seedDemo) return undefined;
  const counts = await countDatasetRows(db);
  if (Object.values(counts).some((n) => n === 0)) {
    log('loading the demo data set into the empty tables...');
    // Loaded only to seed: the generators bring faker, which a serving process never needs.
    const { DEMO_SEED, seedDatabase, startOfTodayUtc } = await import('./demo/index.js');
    await seedDatabase(db, { scale: 'demo', seed: DEMO_SEED, asOf: startOfTodayUtc(), onlyEmpty: true });
  }
  return db.kind === 'pglite' ? ensureDemoKey(db, config) : undefined;
}

function printBanner(
  config: Config,
  kind: Database['kind'],
  demoKey: string | undefined,
  workers: number,
  log: (line: string) => void,
) {
  const base = config.publicUrl;
  log('');
  log(
    `dealsignal is serving ${kind === 'pglite' ? `the embedded store in ${config.dataDir}` : 'PostgreSQL'}${workers > 1 ? ` with ${workers} workers` : ''}`,
  );
  log(`  base URL: ${base}`);
  log(`  docs:     ${base}/docs`);
  if (demoKey) {
    log('');
    log('Try it:');
    log(`  curl -H 'x-lot-api-key: ${demoKey}' '${base}/api/v1/funding?country=US'`);
    log(`  curl -H 'Authorization: Bearer ${demoKey}' '${base}/api/v2/signals/investors?countries=US&limit=5'`);
  }
  log('');
}

/** How a serving thread of `serve --workers N` listens and stops (see serving-threads.ts). */
export interface ServingThread {
  /** The copy of the shared read model this thread answers from. */
  readModel: ReadModel;
  /** The listening socket the first thread opened; absent in the first thread, which opens it. */
  listenFd?: number;
  /** Called once listening, with the socket's descriptor (for the other threads). */
  onListening(fd: number): void;
  /** Signals reach the main thread only: it relays a shutdown here. */
  onShutdown(listener: (signal: string) => void): void;
  /** Called instead of exiting: a thread never closes the socket the others accept on. */
  onStopped(code: number): void;
  /** The first thread watches the inbox and prunes the logs. */
  first: boolean;
}

/**
 * Builds the app on an open database and listens. On SIGTERM/SIGINT: readiness turns 503 and
 * answers carry Connection: close; after SHUTDOWN_DELAY_MS (time for load balancers to notice)
 * the listener closes, requests on open connections are still answered, then pools close and
 * the process exits 0 (or 1 past the deadline). In a serving thread the main thread relays the
 * signal, and the listening socket, shared with the other threads, stays open until the process ends.
 */
export async function listenAndServe(config: Config, db: Database, thread?: ServingThread): Promise<void> {
  const lifecycle: Lifecycle = { draining: false };
  const app = await buildApp({ config, db, lifecycle, ...(thread && { services: { readModel: thread.readModel } }) });
  app.server.maxConnections = config.maxConnections;
  let channel: OperatorChannel | undefined;
  let inbox: Awaited<ReturnType<typeof startInbox>> | undefined;
  let pruning: ReturnType<typeof startChangeLogPruning> | undefined;
  const exit = (code: number) => (thread ? thread.onStopped(code) : process.exit(code));

  const shutdown = async (signal: string) => {
    if (lifecycle.draining) return;
    lifecycle.draining = true;
    app.log.info({ signal }, 'shutting down: readiness is 503, finishing in-flight requests');
    const deadline = setTimeout(() => {
      app.log.error('graceful shutdown took too long; exiting');
      exit(1);
    }, SHUTDOWN_DEADLINE_MS);
    deadline.unref();
    try {
      // A signal during start-up waits for it, so everything started is also stopped.
      await started;
      // No new store commands; those under way finish before the store closes.
      const channelClosed = channel?.close();
      await new Promise((resolve) => setTimeout(resolve, config.shutdownDelayMs));
      // Every connection open by then is answered, never reset; only then does the app close.
      await closeListenerAndDrain(app.server, { idleGraceMs: IDLE_GRACE_MS, shared: thread !== undefined });
      await app.close();
      await channelClosed;
      await inbox?.stop();
      await pruning?.stop();
      await db.close();
      clearTimeout(deadline);
      exit(0);
    } catch (err) {
      app.log.error({ err }, 'error while shutting down');
      exit(1);
    }
  };
  // Installed before listening: a signal that arrives while the server starts is a clean shutdown too.
  if (thread) {
    thread.onShutdown((signal) => void shutdown(signal));
  } else {
    process.once('SIGTERM', () => void shutdown('SIGTERM'));
    process.once('SIGINT', () => void shutdown('SIGINT'));
  }

  const started = (async () => {
    try {
      if (thread?.listenFd !== undefined) {
        await app.ready();
        const fd = thread.listenFd;
        await new Promise<void>((resolve, reject) => {
          app.server.once('error', reject);
          app.server.listen({ fd }, () => {
            app.server.off('error', reject);
            resolve();
          });
        });
      } else {
        await app.listen({ port: config.port, host: config.host });
      }
    } catch (err) {
      await app.close();
      // Taken since the check at start (while the store was being prepared)
      throw listenProblem(err, config.host, config.port);
    }
    thread?.onListening(listeningDescriptor(app.server));
    // The embedded store opens in one process only: store commands run here while it serves.
    if (db.kind === 'pglite' && !thread) {
      channel = await openOperatorChannel(config, db, { info: (m) => app.log.info(m) }).catch((err: unknown) => {
        // Serving matters more; the commands then say the store is in use.
        app.log.warn({ err }, 'store commands cannot reach this server (operator channel not open)');
        return undefined;
      });
    }
    // One watcher per folder, one pruner per server: with threads, the first one runs them.
    const background = !thread || thread.first;
    inbox =
      background && config.inboxDir
        ? await startInbox(db, config.inboxDir, {
            info: (m) => app.log.info(m),
            warn: (m) => app.log.warn(m),
            error: (m) => app.log.error(m),
          })
        : undefined;
    pruning = background
      ? startChangeLogPruning(
          db,
          config.changeLogRetentionDays,
          { info: (m) => app.log.info(m), error: (m) => app.log.error(m) },
          undefined,
          async (log) => {
            await pruneFinishedDeliveries(db, config.webhooks.deliveryRetentionDays, log);
            const expired = await expireJobs(db);
            if (expired > 0) log.info(`enrichment: ${expired} finished jobs past their retention dropped their results`);
          },
        )
      : undefined;
  })();
  await started;
}
