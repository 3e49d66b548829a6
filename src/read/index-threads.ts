// One filter index per machine. The thread that opens the read model builds the indexes (their
// arrays in SharedArrayBuffers) and alone follows the change log; every HTTP worker thread holds a
// copy that reads the same arrays and keeps only its own small parts (tombstones, the records
// changed since the last rebuild, scratch space, kept documents). What the model publishes reaches
// each copy over a MessagePort in order, so a copy is always the model as of some moment.
import type { MessagePort } from 'node:worker_threads';
import type { Database } from '../platform/db/index.js';
import { ReadModel, type IndexMessage, type ReadModelOptions } from './read-model.js';

/** A copy asks the model to catch up; the answer comes after every change that catch-up applied. */
type CopyRequest = { readonly type: 'catchUp'; readonly id: number };
type CopyAnswer = { readonly type: 'caughtUp'; readonly id: number; readonly error?: string };

/** The read model of the thread that builds the indexes, and the ports of its copies. */
export class SharedReadModel {
  private readonly ports = new Set<MessagePort>();

  private constructor(private modelOrNull: ReadModel | null) {}

  /** Builds the indexes from the tables, shared, and follows the change log from there. */
  static async open(db: Database, options: Omit<ReadModelOptions, 'publish'> = {}): Promise<SharedReadModel> {
    const shared = new SharedReadModel(null);
    // The documents are read by the copies; this thread serves no page.
    shared.modelOrNull = await ReadModel.open(db, {
      ...options,
      documentCacheBytes: 0,
      publish: (message) => shared.broadcast(message),
    });
    return shared;
  }

  get model(): ReadModel {
    return this.modelOrNull!;
  }

  /** Serves a copy at the other end of `port` (readModelCopy): its state first, then everything published. */
  connect(port: MessagePort): void {
    port.postMessage(this.model.state());
    this.ports.add(port);
    port.on('message', (request: CopyRequest) => {
      if (request.type !== 'catchUp') return;
      this.model.catchUp().then(
        () => port.postMessage({ type: 'caughtUp', id: request.id } satisfies CopyAnswer),
        (error: unknown) =>
          port.postMessage({
            type: 'caughtUp',
            id: request.id,
            error: (error as Error).message ?? String(error),
          } satisfies CopyAnswer),
      );
    });
    port.on('close', () => this.ports.delete(port));
  }

  private broadcast(message: IndexMessage): void {
    // Before open() resolves there is no copy yet: the first state reaches them through connect().
    for (const port of this.ports) port.postMessage(message);
  }
}

/**
 * A copy of the read model served at the other end of `port` (SharedReadModel.connect): resolves
 * once its state has arrived. Its catch-ups are the model's: the answer arrives after the changes
 * it applied, so the copy has them when the promise resolves.
 */
export function readModelCopy(
  db: Database,
  port: MessagePort,
  options: Pick<ReadModelOptions, 'documentCacheBytes'> = {},
): Promise<ReadModel> {
  return new Promise((resolve) => {
    let model: ReadModel | undefined;
    let requests = 0;
    const waiting = new Map<number, { resolve: () => void; reject: (error: Error) => void }>();
    const catchUp = () =>
      new Promise<void>((resolve, reject) => {
        const id = ++requests;
        waiting.set(id, { resolve, reject });
        port.postMessage({ type: 'catchUp', id } satisfies CopyRequest);
      });
    port.on('message', (message: IndexMessage | CopyAnswer) => {
      if (message.type === 'caughtUp') {
        const request = waiting.get(message.id);
        waiting.delete(message.id);
        if (message.error === undefined) request?.resolve();
        else request?.reject(new Error(message.error));
      } else if (model !== undefined) {
        model.receive(message);
      } else if (message.type === 'state') {
        model = ReadModel.copy(db, message, { ...options, catchUp });
        resolve(model);
      }
    });
  });
}
