// Asking another thread over a MessagePort and waiting for its answer: requests carry an id, the
// answer names it. Used by the serving threads for catch-ups of the shared read model and scrapes
// of the metrics.
import type { MessagePort } from 'node:worker_threads';

let requests = 0;

/**
 * Posts `{ type, id, ...payload }` on `port` and resolves with the first message of `answerType`
 * carrying that id; rejects after `timeoutMs` when given. Messages of other types or ids are left
 * to the port's other listeners.
 */
export function askPort<Answer extends { type: string; id: number }>(
  port: MessagePort,
  type: string,
  answerType: Answer['type'],
  timeoutMs?: number,
): Promise<Answer> {
  const id = ++requests;
  return new Promise<Answer>((resolve, reject) => {
    const timer =
      timeoutMs === undefined
        ? undefined
        : setTimeout(() => settle(new Error(`no answer to ${type} within ${timeoutMs} ms`)), timeoutMs);
    const listen = (message: { type?: unknown; id?: unknown }) => {
      if (message.type === answerType && message.id === id) settle(undefined, message as Answer);
    };
    const settle = (error: Error | undefined, answer?: Answer) => {
      clearTimeout(timer);
      port.off('message', listen);
      if (error) reject(error);
      else resolve(answer!);
    };
    port.on('message', listen);
    port.postMessage({ type, id });
  });
}

/**
 * Answers every request of `type` arriving on `port` with `{ type: answerType, id, ...answer }`,
 * the answer made by `respond` (an error becomes `{ error: message }`).
 */
export function answerPort(port: MessagePort, type: string, answerType: string, respond: () => Promise<object>): void {
  port.on('message', (message: { type?: unknown; id?: unknown }) => {
    if (message.type !== type) return;
    const reply = (answer: object) => port.postMessage({ type: answerType, id: message.id, ...answer });
    respond().then(reply, (error: unknown) => reply({ error: error instanceof Error ? error.message : String(error) }));
  });
}
