// A serving thread of `serve --workers N` (see serving-threads.ts): its own app and database pool,
// answering from a copy of the main thread's read model.
import { parentPort, workerData } from 'node:worker_threads';
import { openDatabase, openReplica } from './platform/db/index.js';
import { relayScrapesTo } from './platform/infra/index.js';
import { KEPT_ANSWER_IDS, readModelCopy } from './read/index.js';
import { listenAndServe } from './server.js';
import type { ServingThreadData, ThreadReport } from './serving-threads.js';

const data = workerData as ServingThreadData;
const report = (message: ThreadReport) => parentPort!.postMessage(message);

// An error nothing caught would end the thread, and with it the socket every thread accepts on:
// the main thread is told and stops the whole server in order instead.
process.on('uncaughtException', (err) => report({ type: 'failed', message: err.message }));
process.on('unhandledRejection', (err) => report({ type: 'failed', message: (err as Error)?.message ?? String(err) }));

relayScrapesTo(data.metricsPort);
const db = await openDatabase(data.config);
const replica = await openReplica(data.config);
const readModel = await readModelCopy(db, data.readPort, {
  // The caches are the server's: each thread keeps its share, so a thread added costs no more of them.
  documentCacheBytes: Math.floor(data.config.documentCacheBytes / data.threads),
  keptAnswerIds: Math.floor(KEPT_ANSWER_IDS / data.threads),
  ...(replica && { replica: { db: replica, waitMs: data.config.replicaWaitMs } }),
});
const shutdownListeners: ((signal: string) => void)[] = [];
parentPort!.on('message', (message: { type: string; signal: string }) => {
  if (message.type === 'shutdown') for (const listener of shutdownListeners) listener(message.signal);
});
await listenAndServe(data.config, db, {
  readModel,
  first: data.first,
  ...(data.listenFd !== undefined && { listenFd: data.listenFd }),
  onListening: (fd) => report({ type: 'listening', fd }),
  onShutdown: (listener) => shutdownListeners.push(listener),
  // The replica's pool is this thread's own (listenAndServe closes the primary's).
  onStopped: (code) =>
    void Promise.resolve(replica?.close())
      .catch(() => undefined)
      .then(() => report({ type: 'stopped', code })),
});
