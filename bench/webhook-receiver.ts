// The receiving end of bench/webhooks.ts: an HTTP server on loopback that answers every delivery 200
// at once (keep-alive, empty body) and records, per webhook and record, when it arrived and how often,
// and per event id how many times it was answered 2xx. Also the /proc readings the part reports
// (CPU time of the server's processes and of the PostgreSQL backends).
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/** What one webhook got of one record: the first 2xx-answered arrival and how many arrived. */
export interface PairArrivals {
  firstAt: number;
  count: number;
}

/** Deliveries are posted to /hooks/<index>: the path says which of the bench's webhooks sent it. */
const HOOK_PATH = /^\/hooks\/(\d+)$/;

export class WebhookReceiver {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  /** Per record key (the company name the bench put in it), per webhook index. */
  readonly byKey = new Map<string, Map<number, PairArrivals>>();
  /**
   * 2xx answers per webhook and event id (an event's id is the same for every webhook it goes to):
   * more than one is a delivery sent again after it had succeeded.
   */
  private readonly answeredEvents = new Map<string, number>();
  /** Every arrival answered 2xx, in order (performance.now()). */
  arrivals: number[] = [];
  /** Answers other than 2xx (a body the bench cannot read): should stay 0. */
  refused = 0;

  constructor(readonly port: number) {}

  get listening(): boolean {
    return this.server !== undefined;
  }

  /** Listens on 127.0.0.1:port (the same port after a stop). */
  start(): Promise<void> {
    if (this.server) return Promise.resolve();
    const server = createServer({ keepAlive: true }, (request, response) => this.handle(request, response));
    server.on('connection', (socket: Socket) => {
      this.sockets.add(socket);
      socket.once('close', () => this.sockets.delete(socket));
    });
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => {
        server.off('error', reject);
        this.server = server;
        resolve();
      });
    });
  }

  /**
   * Stops listening (the port refuses connections from now on) and closes every connection once the
   * answer it is writing has gone out: an arrival counted as answered was answered.
   */
  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    const deadline = Date.now() + 5000;
    while (this.sockets.size > 0 && Date.now() < deadline) {
      server.closeIdleConnections();
      await sleep(5);
    }
    server.closeAllConnections();
    await closed;
  }

  /** Forgets what arrived (between workloads). */
  reset(): void {
    this.byKey.clear();
    this.answeredEvents.clear();
    this.arrivals = [];
    this.refused = 0;
  }

  /** Deliveries (webhook, event id) answered 2xx more than once, and the extra sends. */
  resentAfterSuccess(): { events: number; extraSends: number } {
    let events = 0;
    let extraSends = 0;
    for (const n of this.answeredEvents.values()) {
      if (n > 1) {
        events++;
        extraSends += n - 1;
      }
    }
    return { events, extraSends };
  }

  private handle(request: IncomingMessage, response: ServerResponse): void {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const at = performance.now();
      const hook = Number(HOOK_PATH.exec(request.url ?? '')?.[1] ?? Number.NaN);
      let key: unknown;
      let eventId: unknown;
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
          event_id?: unknown;
          data?: { company_name?: unknown };
        };
        key = body.data?.company_name;
        eventId = body.event_id;
      } catch {
        // answered 400 below
      }
      if (!Number.isInteger(hook) || typeof key !== 'string' || typeof eventId !== 'string') {
        this.refused++;
        response.writeHead(400, { 'content-length': '0' }).end();
        return;
      }
      // Counted once the answer has been handed to the connection: a delivery cut off before it
      // was answered is one the sender must send again.
      response.once('finish', () => this.answered(hook, key as string, eventId as string, at));
      response.writeHead(200, { 'content-length': '0' }).end();
    });
  }

  private answered(hook: number, key: string, eventId: string, at: number): void {
    this.arrivals.push(at);
    const delivery = `${hook}:${eventId}`;
    this.answeredEvents.set(delivery, (this.answeredEvents.get(delivery) ?? 0) + 1);
    let hooks = this.byKey.get(key);
    if (!hooks) this.byKey.set(key, (hooks = new Map()));
    const pair = hooks.get(hook);
    if (pair) pair.count++;
    else hooks.set(hook, { firstAt: at, count: 1 });
  }
}

// ---------- /proc readings (Linux; undefined elsewhere) ----------

const CLOCK_TICKS_PER_SECOND = 100;

function statFields(pid: number): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return [stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')), ...stat.slice(stat.lastIndexOf(')') + 2).split(' ')];
  } catch {
    return undefined;
  }
}

/** User + system CPU time of a process in ms. */
export function cpuMsOf(pid: number): number | undefined {
  const fields = statFields(pid);
  // After the name: state, ppid, …; utime and stime are the 14th and 15th fields of the whole line.
  return fields ? ((Number(fields[12]) + Number(fields[13])) * 1000) / CLOCK_TICKS_PER_SECOND : undefined;
}

/** A process and its descendants (a server's cluster workers). */
export function processTree(root: number): number[] {
  const children = new Map<number, number[]>();
  let entries: string[];
  try {
    entries = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return [root];
  }
  for (const name of entries) {
    const ppid = Number(statFields(Number(name))?.[2]);
    if (!Number.isFinite(ppid)) continue;
    const list = children.get(ppid) ?? [];
    list.push(Number(name));
    children.set(ppid, list);
  }
  const tree: number[] = [];
  const visit = (pid: number) => {
    tree.push(pid);
    for (const child of children.get(pid) ?? []) visit(child);
  };
  visit(root);
  return tree;
}

/** CPU time per pid now, for the pids given. */
export function cpuSnapshot(pids: readonly number[]): Map<number, number> {
  const snapshot = new Map<number, number>();
  for (const pid of pids) {
    const ms = cpuMsOf(pid);
    if (ms !== undefined) snapshot.set(pid, ms);
  }
  return snapshot;
}

/** CPU ms spent between two snapshots (a pid absent from the first counts from 0: it started in between). */
export function cpuSpent(before: ReadonlyMap<number, number>, after: ReadonlyMap<number, number>): number {
  let total = 0;
  for (const [pid, ms] of after) total += ms - (before.get(pid) ?? 0);
  return total;
}
