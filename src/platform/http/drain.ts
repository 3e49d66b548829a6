import type { Server } from 'node:http';
import { Server as NetServer } from 'node:net';

export interface DrainOptions {
  /**
   * How long after the listener closes a connection may stay idle before it is closed: a client
   * that connected just before the close sends its request within this time and is answered.
   */
  idleGraceMs: number;
  /**
   * The listening socket is shared with other threads (serve --workers N): it is left open for
   * them and closes with the process. This thread only stops serving on it once drained; until
   * then a connection it accepts is answered like any other (with Connection: close).
   */
  shared?: boolean;
}

/**
 * Stops accepting connections and resolves once every open one has closed, without resetting any.
 *
 * http.Server.close() also destroys at once every connection with no request in progress, which
 * includes one accepted a moment ago whose request is still on its way: its client gets a reset.
 * Here only the listener closes; requests keep being answered on the open connections (while
 * draining every answer carries Connection: close, so each socket closes after its answer), and
 * connections still idle after the grace period are closed then.
 */
export async function closeListenerAndDrain(server: Server, options: DrainOptions): Promise<void> {
  if (!server.listening) return;
  const drained = new Promise<void>((resolve) => server.once('close', () => resolve()));
  // Close from the check phase, right after the poll phase has accepted every connection already
  // queued: a connection the kernel completed but we never accepted would be reset by the close.
  await new Promise((resolve) => setImmediate(resolve));
  // A shared socket's handle is let go of rather than closed: closing it would close the
  // descriptor the other threads accept on. close() then only waits for the connections.
  if (options.shared) (server as unknown as { _handle: unknown })._handle = null;
  NetServer.prototype.close.call(server);
  const closedAt = performance.now();
  const reaper = setInterval(() => {
    if (performance.now() - closedAt < options.idleGraceMs) return;
    // From the check phase, after the poll phase has read whatever arrived while the loop was
    // busy: a request already received is never mistaken for an idle connection.
    setImmediate(() => server.closeIdleConnections());
  }, 100);
  try {
    await drained;
  } finally {
    clearInterval(reaper);
  }
}

/**
 * The descriptor of a listening server's socket, for other threads to listen on (serve --workers N).
 * Node keeps it on the server's handle, as it keeps the handle `closeListenerAndDrain` lets go of.
 */
export function listeningDescriptor(server: NetServer): number {
  const handle = (server as unknown as { _handle?: { fd?: number } })._handle;
  return handle?.fd ?? -1;
}
