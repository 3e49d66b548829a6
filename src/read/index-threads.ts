// One filter index per machine. The thread that opens the read model builds the indexes (their
// arrays in SharedArrayBuffers) and alone follows the change log; every HTTP worker thread holds a
// copy that reads the same arrays and keeps only its own small parts (tombstones, the records
// changed since the last rebuild, scratch space, kept documents). What the model publishes reaches
// each copy over a MessagePort in order, so a copy is always the model as of some moment.
import type { MessagePort } from 'node:worker_threads';
import type { Database } from '../platform/db/index.js';
import { answerPort, askPort } from '../platform/infra/index.js';
import { ReadModel, type IndexMessage, type ReadModelOptions } from './read-model.js';

/** A copy asks the model to catch up; the answer comes after every change that catch-up applied. */
type CaughtUp = { readonly type: 'caughtUp'; readonly id: number; readonly error?: string };

/** The read model of the thread that builds the indexes, and the ports of its copies. */
export class SharedReadModel {
  private constructor(
    readonly model: ReadModel,
    private readonly ports: Set<MessagePort>,
  ) {}

  /** Builds the indexes from the tables, shared, and follows the change log from there. */
  static async open(db: Database, options: Omit<ReadModelOptions, 'publish'> = {}): Promise<SharedReadModel> {
    // Empty until open() resolves: the first state reaches each copy through connect().
    const ports = new Set<MessagePort>();
    const model = await ReadModel.open(db, {
      ...options,
      // The documents are read by the copies; this thread serves no page.
      documentCacheBytes: 0,
      publish: (message) => {
        for (const port of ports) port.postMessage(message);
      },
    });
    return new SharedReadModel(model, ports);
  }

  /** Serves a copy at the other end of `port` (readModelCopy): its state first, then everything published. */
  connect(port: MessagePort): void {
    port.postMessage(this.model.state());
    this.ports.add(port);
    answerPort(port, 'catchUp', 'caughtUp', async () => {
      await this.model.catchUp();
      return {};
    });
    port.on('close', () => this.ports.delete(port));
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
  options: Pick<ReadModelOptions, 'documentCacheBytes' | 'keptAnswerIds' | 'replica'> = {},
): Promise<ReadModel> {
  const catchUp = async () => {
    const answer = await askPort<CaughtUp>(port, 'catchUp', 'caughtUp');
    if (answer.error !== undefined) throw new Error(answer.error);
  };
  return new Promise((resolve) => {
    let model: ReadModel | undefined;
    port.on('message', (message: IndexMessage | CaughtUp) => {
      if (message.type === 'caughtUp') return;
      if (model !== undefined) model.receive(message);
      else if (message.type === 'state') resolve((model = ReadModel.copy(db, message, { ...options, catchUp })));
    });
  });
}
