import cluster from 'node:cluster';
import client from 'prom-client';
import type { Database } from '../db/index.js';

/** The service's Prometheus metrics, in a registry of its own (several apps may share a process in tests). */
export class Metrics {
  readonly registry = new client.Registry();

  readonly requests = new client.Counter({
    name: 'dealsignal_http_requests_total',
    help: 'HTTP requests by route, method and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  });

  readonly duration = new client.Histogram({
    name: 'dealsignal_http_request_duration_seconds',
    help: 'HTTP request latency by route, method and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [this.registry],
  });

  readonly rateLimitRejections = new client.Counter({
    name: 'dealsignal_rate_limit_rejections_total',
    help: 'Requests refused with 429, by family and reason',
    labelNames: ['family', 'reason'] as const,
    registers: [this.registry],
  });

  readonly creditsCharged = new client.Counter({
    name: 'dealsignal_credits_charged_total',
    help: 'v2 credits charged, by endpoint',
    labelNames: ['endpoint'] as const,
    registers: [this.registry],
  });

  readonly ingestRecords = new client.Counter({
    name: 'dealsignal_ingest_records_total',
    help: 'Records received by ingestion, by kind and outcome (inserted, updated, unchanged, rejected)',
    labelNames: ['kind', 'outcome'] as const,
    registers: [this.registry],
  });

  readonly webhookAttempts = new client.Counter({
    name: 'dealsignal_webhook_attempts_total',
    help: 'Webhook delivery attempts by this process, by outcome (delivered, retrying, failed)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  readonly webhookDeliveryLatency = new client.Histogram({
    name: 'dealsignal_webhook_attempt_seconds',
    help: "Duration of webhook delivery attempts (the receiver's answer included)",
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });

  constructor(db: Database) {
    client.collectDefaultMetrics({ register: this.registry, prefix: 'dealsignal_' });
    if (cluster.isWorker) {
      // The primary's aggregation (answerWorkerScrapes) reads this registry in every worker.
      client.AggregatorRegistry.setRegistries([this.registry]);
      new client.AggregatorRegistry(); // installs this worker's answer to the primary's requests
    }
    const stats = db.poolStats?.bind(db);
    if (stats) {
      new client.Gauge({
        name: 'dealsignal_db_pool_connections',
        help: 'PostgreSQL pool connections by state',
        labelNames: ['state'] as const,
        registers: [this.registry],
        collect() {
          const s = stats();
          this.set({ state: 'total' }, s.total);
          this.set({ state: 'idle' }, s.idle);
          this.set({ state: 'waiting' }, s.waiting);
        },
      });
    }
  }

  /** Gauges of the in-memory filter index: records and estimated bytes per dataset, and how far it follows the log. */
  watchIndex(stats: () => { position: { seq: number }; datasets: Record<string, { records: number; bytes: number }> }): void {
    new client.Gauge({
      name: 'dealsignal_index_records',
      help: 'Records in the in-memory filter index, per dataset',
      labelNames: ['dataset'] as const,
      registers: [this.registry],
      collect() {
        for (const [dataset, figures] of Object.entries(stats().datasets)) this.set({ dataset }, figures.records);
      },
    });
    new client.Gauge({
      name: 'dealsignal_index_bytes',
      help: 'Estimated memory of the in-memory filter index, per dataset',
      labelNames: ['dataset'] as const,
      registers: [this.registry],
      collect() {
        for (const [dataset, figures] of Object.entries(stats().datasets)) this.set({ dataset }, figures.bytes);
      },
    });
    new client.Gauge({
      name: 'dealsignal_index_change_seq',
      help: 'Commit sequence number of the newest change log transaction the filter index has applied',
      registers: [this.registry],
      collect() {
        this.set(stats().position.seq);
      },
    });
  }
}

const SCRAPE_REQUEST = 'dealsignal:scrape-request';
const SCRAPE_ANSWER = 'dealsignal:scrape-answer';
/** prom-client gives up on a worker after 5 s; the asking worker waits a little longer for the primary's answer. */
const SCRAPE_WAIT_MS = 6000;

interface ScrapeAnswer {
  type: typeof SCRAPE_ANSWER;
  id: number;
  text?: string;
  error?: string;
}

let scrapes = 0;

/**
 * The exposition text of the whole server. Alone, a process's own registry. In a worker, whichever
 * worker the scrape lands on asks the primary, which gathers every worker's registry and sums them
 * (prom-client's cluster aggregation): one scrape covers the server, with the series a single
 * process has, rather than one worker's share chosen by the load balancer.
 */
export async function scrape(metrics: Metrics): Promise<{ contentType: string; text: string }> {
  const contentType = metrics.registry.contentType;
  if (!cluster.isWorker || !process.send) return { contentType, text: await metrics.registry.metrics() };
  const id = ++scrapes;
  const text = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => settle(new Error('the primary did not answer in time')), SCRAPE_WAIT_MS);
    const listen = (message: unknown) => {
      const answer = message as Partial<ScrapeAnswer> | null;
      if (answer?.type !== SCRAPE_ANSWER || answer.id !== id) return;
      settle(answer.error === undefined ? undefined : new Error(answer.error), answer.text);
    };
    const settle = (err: Error | undefined, value?: string) => {
      clearTimeout(timer);
      process.off('message', listen);
      if (err) reject(err);
      else resolve(value ?? '');
    };
    process.on('message', listen);
    process.send!({ type: SCRAPE_REQUEST, id });
  });
  return { contentType, text };
}

/** In the primary: answers a worker's scrape with every worker's metrics, aggregated. */
export function answerWorkerScrapes(): void {
  const aggregator = new client.AggregatorRegistry();
  cluster.on('message', (worker, message: { type?: unknown; id?: unknown } | null) => {
    if (message?.type !== SCRAPE_REQUEST || typeof message.id !== 'number') return;
    const id = message.id;
    const reply = (answer: Omit<ScrapeAnswer, 'type' | 'id'>) => {
      if (worker.isConnected()) worker.send({ type: SCRAPE_ANSWER, id, ...answer });
    };
    aggregator.clusterMetrics().then(
      (text) => reply({ text }),
      (err: unknown) => reply({ error: err instanceof Error ? err.message : String(err) }),
    );
  });
}
