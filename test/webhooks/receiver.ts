// A webhook receiver for tests: a real HTTP server on loopback that records every request (headers
// and raw body) and answers as the test says, and the checks a receiver makes of both signatures.
import assert from 'node:assert/strict';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface Received {
  /** The path and query asked for. */
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
}

export type Responder = (request: Received, response: http.ServerResponse) => void;

export interface TestReceiver {
  url: string;
  received: Received[];
  /** What the next requests get (200 "ok" until changed). */
  respond: Responder;
  /** Resolves once at least n requests arrived (rejects after timeoutMs). */
  waitFor(n: number, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

export const ok: Responder = (_request, response) => response.writeHead(200).end('ok');

export async function startReceiver(path = '/hooks'): Promise<TestReceiver> {
  const waiters: { n: number; resolve: () => void }[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const received = {
        url: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
      };
      receiver.received.push(received);
      for (const waiter of waiters.filter((w) => receiver.received.length >= w.n)) waiter.resolve();
      receiver.respond(received, response);
    });
  });
  server.on('clientError', (_error, socket) => socket.destroy());
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  const receiver: TestReceiver = {
    url: `http://127.0.0.1:${port}${path}`,
    received: [],
    respond: ok,
    waitFor(n, timeoutMs = 15_000) {
      if (receiver.received.length >= n) return Promise.resolve(receiver.received);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`waited ${timeoutMs} ms for ${n} requests; got ${receiver.received.length}`)),
          timeoutMs,
        );
        waiters.push({
          n,
          resolve: () => {
            clearTimeout(timer);
            resolve(receiver.received);
          },
        });
      });
    },
    async close() {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
  return receiver;
}

/**
 * Checks a delivery as a receiver would, both ways: the published X-Webhook-Signature (hex
 * HMAC-SHA256 of the raw body keyed with the whole secret string) and Standard Webhooks, with the
 * standardwebhooks package. Returns the parsed body.
 */
export function verifyBoth(
  secret: string,
  received: Received,
): { data: unknown; event_id: string; event_type: string; timestamp: string } {
  const expected = createHmac('sha256', secret).update(received.body).digest();
  const given = Buffer.from(String(received.headers['x-webhook-signature']), 'hex');
  assert.ok(given.length === expected.length && timingSafeEqual(given, expected), 'X-Webhook-Signature verifies');
  const headers = {
    'webhook-id': String(received.headers['webhook-id']),
    'webhook-timestamp': String(received.headers['webhook-timestamp']),
    'webhook-signature': String(received.headers['webhook-signature']),
  };
  const payload = new Webhook(secret).verify(received.body, headers) as {
    data: unknown;
    event_id: string;
    event_type: string;
    timestamp: string;
  };
  assert.equal(received.headers['x-webhook-id'], payload.event_id);
  assert.equal(received.headers['webhook-id'], payload.event_id);
  assert.equal(received.headers['x-webhook-event'], payload.event_type);
  return payload;
}
