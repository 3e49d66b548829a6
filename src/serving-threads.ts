// `serve --workers N` on PostgreSQL: one process, N serving threads (worker_threads) accepting on
// one listening socket and answering from one filter index. The main thread builds the indexes
// in SharedArrayBuffers and follows the change log (SharedReadModel); each serving thread holds
// a copy reading the same memory, its own app, database pool and kept documents. Processes would
// each need their own index (Node shares memory between threads only).
//
// The first thread listens; the others listen on its socket's descriptor (Node 20 has no
// SO_REUSEPORT), so none may close it while another serves: a thread never exits on its own, the
// process ends once every thread has drained. A thread that fails stops the server (exit 1) for
// its supervisor to restart, rather than being replaced alone.
import { MessageChannel, Worker, type MessagePort, type WorkerOptions } from 'node:worker_threads';
import type { Config } from './config.js';
import type { Database } from './platform/db/index.js';
import type { SharedReadModel } from './read/index.js';

/** Forced exit if a graceful shutdown has not finished by then (each thread has its own, shorter deadline). */
const SHUTDOWN_DEADLINE_MS = 12_000;

/**
 * A thread running the module beside this one. Run from source (the tests, `tsx`), the thread
 * registers tsx's loader first: Node 20 does not run the parent's `--import` in worker threads.
 */
function newThread(options: WorkerOptions): Worker {
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL('./serving-thread.js', import.meta.url), options);
  const entry = new URL('./serving-thread.ts', import.meta.url).href;
  const loader = import.meta.resolve('tsx/esm/api');
  const code = `import(${JSON.stringify(loader)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); });`;
  return new Worker(code, { ...options, eval: true });
}

/** What a serving thread is started with (see serving-thread.ts). */
export interface ServingThreadData {
  config: Config;
  /** How many serving threads the server runs (they share DOCUMENT_CACHE_MB out). */
  threads: number;
  first: boolean;
  listenFd?: number;
  readPort: MessagePort;
  metricsPort: MessagePort;
}

/** From a serving thread to the main thread. */
export type ThreadReport =
  { type: 'listening'; fd: number } | { type: 'stopped'; code: number } | { type: 'failed'; message: string };

/** Starts the serving threads; resolves once all of them listen. Handles SIGTERM/SIGINT for the process. */
export async function startServingThreads(
  config: Config,
  count: number,
  shared: SharedReadModel,
  options: { db: Database; onMetricsPorts: (ports: MessagePort[]) => void },
): Promise<void> {
  const threads: Worker[] = [];
  const metricsPorts: MessagePort[] = [];
  const stopped = new Map<Worker, number>();
  let stopping = false;
  let exitCode = 0;

  const stop = (signal: string, code: number) => {
    exitCode = Math.max(exitCode, code);
    if (stopping) return;
    stopping = true;
    for (const thread of threads) thread.postMessage({ type: 'shutdown', signal });
    setTimeout(() => process.exit(1), SHUTDOWN_DEADLINE_MS).unref();
  };
  const finish = async () => {
    await options.db.close().catch(() => undefined);
    process.exit(exitCode);
  };

  const start = (first: boolean, listenFd?: number) =>
    new Promise<number>((resolve, reject) => {
      const read = new MessageChannel();
      const metrics = new MessageChannel();
      shared.connect(read.port1);
      metricsPorts.push(metrics.port1);
      const data: ServingThreadData = {
        config,
        threads: count,
        first,
        listenFd,
        readPort: read.port2,
        metricsPort: metrics.port2,
      };
      const thread = newThread({
        workerData: data,
        transferList: [read.port2, metrics.port2],
        ...(config.threadHeapMb > 0 && { resourceLimits: { maxOldGenerationSizeMb: config.threadHeapMb } }),
      });
      threads.push(thread);
      let listening = false;
      thread.on('message', (report: ThreadReport) => {
        if (report.type === 'listening') {
          listening = true;
          resolve(report.fd);
        } else if (report.type === 'failed') {
          console.error(`a serving thread failed (${report.message}); stopping the server`);
          stop('failure', 1);
        } else if (report.type === 'stopped') {
          stopped.set(thread, report.code);
          exitCode = Math.max(exitCode, report.code);
          if (stopped.size === threads.length) void finish();
        }
      });
      thread.on('error', (err) => {
        if (!listening) reject(err);
        else console.error(`a serving thread failed (${err.message}); stopping the server`);
      });
      thread.on('exit', (code) => {
        if (!listening) return reject(new Error(`a serving thread exited with code ${code} before listening`));
        if (stopped.has(thread)) return;
        // Its end closed the socket the others accept on: the server cannot go on.
        console.error(`a serving thread exited (${code}); stopping the server`);
        process.exit(1);
      });
    });

  process.once('SIGTERM', () => stop('SIGTERM', 0));
  process.once('SIGINT', () => stop('SIGINT', 0));
  const fd = await start(true);
  await Promise.all(Array.from({ length: count - 1 }, () => start(false, fd)));
  options.onMetricsPorts(metricsPorts);
}
