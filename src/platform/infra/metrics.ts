import { getHeapStatistics } from 'node:v8';
import { threadId, type MessagePort } from 'node:worker_threads';
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
    // In a serving thread the process's own figures (memory, CPU, handles) come from the main thread once.
    if (threadRelay === undefined) client.collectDefaultMetrics({ register: this.registry, prefix: 'dealsignal_' });
    else {
      threadRegistries.push(this.registry);
      heapGauge(this.registry, `serving-${threadId}`);
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
      // Serving threads read one index: each reports the same figure.
      aggregator: 'first',
      registers: [this.registry],
      collect() {
        for (const [dataset, figures] of Object.entries(stats().datasets)) this.set({ dataset }, figures.records);
      },
    });
    new client.Gauge({
      name: 'dealsignal_index_bytes',
      help: 'Estimated memory of the in-memory filter index, per dataset',
      labelNames: ['dataset'] as const,
      aggregator: 'first',
      registers: [this.registry],
      collect() {
        for (const [dataset, figures] of Object.entries(stats().datasets)) this.set({ dataset }, figures.bytes);
      },
    });
    new client.Gauge({
      name: 'dealsignal_index_change_seq',
      help: 'Commit sequence number of the newest change log transaction the filter index has applied',
      // The thread furthest behind.
      aggregator: 'min',
      registers: [this.registry],
      collect() {
        this.set(stats().position.seq);
      },
    });
  }
}

/** prom-client's aggregation of a worker's figures; the asking thread waits a little longer than the gathering. */
const GATHER_WAIT_MS = 5000;
const SCRAPE_WAIT_MS = 6000;

type ThreadScrapeMessage =
  | { type: 'scrape'; id: number }
  | { type: 'scraped'; id: number; text?: string; error?: string }
  | { type: 'collect'; id: number }
  | { type: 'collected'; id: number; metrics: client.MetricObjectWithValues<client.MetricValue<string>>[] };

/**
 * Each thread's own V8 heap (the process figures cover the process, not its threads): what a
 * serving thread costs beside the index it shares.
 */
function heapGauge(registry: client.Registry, thread: string): void {
  new client.Gauge({
    name: 'dealsignal_thread_heap_bytes',
    help: 'V8 heap of each thread of the server (serving threads and the main thread, which holds the index), used and reserved',
    labelNames: ['thread', 'kind'] as const,
    registers: [registry],
    collect() {
      const heap = getHeapStatistics();
      this.set({ thread, kind: 'used' }, heap.used_heap_size);
      this.set({ thread, kind: 'total' }, heap.total_heap_size);
    },
  });
}

/** In a serving thread: the port to the main thread, which gathers every thread's figures for a scrape. */
let threadRelay: MessagePort | undefined;
/** In a serving thread: the registries its apps made (one in production). */
const threadRegistries: client.Registry[] = [];
let scrapes = 0;

/**
 * Makes this serving thread's scrapes cover the whole server: a scrape asks the main thread
 * (gatherThreadScrapes at the other end of `port`), which sums every thread's registry with its
 * own process figures. Called before the app's Metrics are made.
 */
export function relayScrapesTo(port: MessagePort): void {
  threadRelay = port;
  port.on('message', (message: ThreadScrapeMessage) => {
    if (message.type !== 'collect') return;
    Promise.all(threadRegistries.map((registry) => registry.getMetricsAsJSON())).then(
      (lists) => port.postMessage({ type: 'collected', id: message.id, metrics: lists.flat() } satisfies ThreadScrapeMessage),
      () => port.postMessage({ type: 'collected', id: message.id, metrics: [] } satisfies ThreadScrapeMessage),
    );
  });
}

/**
 * The exposition text of the whole server. Alone, a process's own registry. In a serving thread,
 * whichever thread the scrape lands on asks the main thread, which gathers every thread's registry
 * and sums them (prom-client's aggregation): one scrape covers the server, with the series a
 * single process has, rather than one thread's share.
 */
export async function scrape(metrics: Metrics): Promise<{ contentType: string; text: string }> {
  const contentType = metrics.registry.contentType;
  const relay = threadRelay;
  if (relay === undefined) return { contentType, text: await metrics.registry.metrics() };
  const id = ++scrapes;
  const text = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => settle(new Error('the main thread did not answer in time')), SCRAPE_WAIT_MS);
    const listen = (message: ThreadScrapeMessage) => {
      if (message.type !== 'scraped' || message.id !== id) return;
      settle(message.error === undefined ? undefined : new Error(message.error), message.text);
    };
    const settle = (err: Error | undefined, value?: string) => {
      clearTimeout(timer);
      relay.off('message', listen);
      if (err) reject(err);
      else resolve(value ?? '');
    };
    relay.on('message', listen);
    relay.postMessage({ type: 'scrape', id } satisfies ThreadScrapeMessage);
  });
  return { contentType, text };
}

/** In the main thread: answers a thread's scrape with every thread's metrics and the process's, aggregated. */
export function gatherThreadScrapes(ports: readonly MessagePort[]): void {
  const processRegistry = new client.Registry();
  client.collectDefaultMetrics({ register: processRegistry, prefix: 'dealsignal_' });
  heapGauge(processRegistry, 'main');
  let collections = 0;
  const collect = (port: MessagePort) =>
    new Promise<client.MetricObjectWithValues<client.MetricValue<string>>[]>((resolve) => {
      const id = ++collections;
      const timer = setTimeout(() => settle([]), GATHER_WAIT_MS);
      const listen = (message: ThreadScrapeMessage) => {
        if (message.type === 'collected' && message.id === id) settle(message.metrics);
      };
      const settle = (metrics: client.MetricObjectWithValues<client.MetricValue<string>>[]) => {
        clearTimeout(timer);
        port.off('message', listen);
        resolve(metrics);
      };
      port.on('message', listen);
      port.postMessage({ type: 'collect', id } satisfies ThreadScrapeMessage);
    });
  for (const port of ports) {
    port.on('message', (message: ThreadScrapeMessage) => {
      if (message.type !== 'scrape') return;
      const reply = (answer: { text?: string; error?: string }) =>
        port.postMessage({ type: 'scraped', id: message.id, ...answer } satisfies ThreadScrapeMessage);
      Promise.all([processRegistry.getMetricsAsJSON(), ...ports.map(collect)])
        .then((lists) => client.AggregatorRegistry.aggregate(lists).metrics())
        .then(
          (text) => reply({ text }),
          (err: unknown) => reply({ error: err instanceof Error ? err.message : String(err) }),
        );
    });
  }
}
