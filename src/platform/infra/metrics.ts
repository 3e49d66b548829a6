import { getHeapStatistics } from 'node:v8';
import { threadId, type MessagePort } from 'node:worker_threads';
import client from 'prom-client';
import type { Database } from '../db/index.js';
import { answerPort, askPort } from './port-requests.js';

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
  watchIndex(stats: () => IndexStats): void {
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
    outcomeCounter(
      this.registry,
      'dealsignal_full_text_pieces_total',
      'Words and phrases of full-text questions (description searches) by where their matches came from: kept ' +
        "(in memory at the index's version), shared (another request's read under way) or read (from the database)",
      () => stats().fullTextPieces,
    );
    if (stats().replicaReads === undefined) return;
    outcomeCounter(
      this.registry,
      'dealsignal_replica_page_reads_total',
      "List pages' document reads from the replica: current (it had replayed up to the index's position), " +
        'waited (it caught up within REPLICA_WAIT_MS) or primary (still behind: read from the primary)',
      () => stats().replicaReads!,
    );
  }
}

/** A counter by `outcome` whose counts the read model keeps since start: set from them at each scrape. */
function outcomeCounter(
  registry: client.Registry,
  name: string,
  help: string,
  counts: () => Readonly<Record<string, number>>,
): void {
  new client.Counter({
    name,
    help,
    labelNames: ['outcome'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const [outcome, count] of Object.entries(counts())) this.inc({ outcome }, count);
    },
  });
}

/** What the read model reports (src/read): the figures of its indexes, and of its replica reads when it has a replica. */
export interface IndexStats {
  position: { seq: number };
  datasets: Record<string, { records: number; bytes: number }>;
  replicaReads?: Record<string, number>;
  fullTextPieces: Record<string, number>;
}

/** How long the main thread waits for each thread's figures, and a thread for the main thread's answer. */
const GATHER_WAIT_MS = 5000;
const SCRAPE_WAIT_MS = 6000;

type MetricList = client.MetricObjectWithValues<client.MetricValue<string>>[];

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

/**
 * Makes this serving thread's scrapes cover the whole server: a scrape asks the main thread
 * (gatherThreadScrapes at the other end of `port`), which sums every thread's registry with its
 * own process figures. Called before the app's Metrics are made.
 */
export function relayScrapesTo(port: MessagePort): void {
  threadRelay = port;
  answerPort(port, 'collect', 'collected', async () => {
    const lists = await Promise.all(threadRegistries.map((registry) => registry.getMetricsAsJSON()));
    return { metrics: lists.flat() };
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
  if (threadRelay === undefined) return { contentType, text: await metrics.registry.metrics() };
  const answer = await askPort<{ type: 'scraped'; id: number; text?: string; error?: string }>(
    threadRelay,
    'scrape',
    'scraped',
    SCRAPE_WAIT_MS,
  );
  if (answer.error !== undefined) throw new Error(answer.error);
  return { contentType, text: answer.text ?? '' };
}

/** In the main thread: answers a thread's scrape with every thread's metrics and the process's, aggregated. */
export function gatherThreadScrapes(ports: readonly MessagePort[]): void {
  const processRegistry = new client.Registry();
  client.collectDefaultMetrics({ register: processRegistry, prefix: 'dealsignal_' });
  heapGauge(processRegistry, 'main');
  // A thread that does not answer in time is left out of this scrape.
  const collect = (port: MessagePort) =>
    askPort<{ type: 'collected'; id: number; metrics?: MetricList }>(port, 'collect', 'collected', GATHER_WAIT_MS).then(
      (answer) => answer.metrics ?? [],
      () => [],
    );
  for (const port of ports) {
    answerPort(port, 'scrape', 'scraped', async () => {
      const lists = await Promise.all([processRegistry.getMetricsAsJSON(), ...ports.map(collect)]);
      return { text: await client.AggregatorRegistry.aggregate(lists).metrics() };
    });
  }
}
