import assert from 'node:assert/strict';
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import {
  checkTarget,
  HttpWebhookTransport,
  parseRetryAfter,
  type DeliveryRequest,
  type HostResolver,
  type TargetPolicy,
} from '../../src/webhooks/transport.js';

/** A real HTTP receiver on a local port that counts what reaches it. */
interface Receiver {
  url: string;
  port: number;
  requests: { host: string | undefined; body: string }[];
  connections: number;
  close(): Promise<void>;
}

async function startReceiver(
  handler: (request: http.IncomingMessage, response: http.ServerResponse) => void,
  host = '127.0.0.1',
): Promise<Receiver> {
  const server = http.createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      receiver.requests.push({ host: request.headers.host, body });
      handler(request, response);
    });
  });
  server.on('connection', () => receiver.connections++);
  // A receiver cut off mid-answer sees its writes fail; that is the point of those tests.
  server.on('clientError', (_error, socket) => socket.destroy());
  server.listen(0, host);
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  const receiver: Receiver = {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}/hooks`,
    port,
    requests: [],
    connections: 0,
    async close() {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
  return receiver;
}

const answer = (status: number, body = '', headers: Record<string, string> = {}) => {
  return (_request: http.IncomingMessage, response: http.ServerResponse) => {
    response.writeHead(status, headers);
    response.end(body);
  };
};

/** An in-test resolver: a fixed answer per hostname, and a count of the questions. */
function fakeResolver(answers: Record<string, string[]>): HostResolver & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    async lookup(hostname) {
      asked.push(hostname);
      const addresses = answers[hostname];
      if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
      return addresses;
    },
  };
}

const delivery = (url: string, body = '{"event":"test"}'): DeliveryRequest => ({
  url,
  headers: { 'content-type': 'application/json', 'x-webhook-id': 'evt_1' },
  body,
});

const LOCAL: TargetPolicy = { allowedNetworks: ['127.0.0.0/8'], resolver: fakeResolver({}) };

describe('HttpWebhookTransport with a local receiver', () => {
  const transport = new HttpWebhookTransport({ policy: LOCAL });
  const receivers: Receiver[] = [];
  const receiver = async (...args: Parameters<typeof startReceiver>) => {
    const started = await startReceiver(...args);
    receivers.push(started);
    return started;
  };

  after(async () => {
    await transport.close();
    await Promise.all(receivers.map((r) => r.close()));
  });

  it('POSTs the body and headers and returns a 2xx with its body cut to 1,000 characters (of a 1 MB answer)', async () => {
    let seen: http.IncomingHttpHeaders = {};
    const target = await receiver((request, response) => {
      seen = request.headers;
      assert.equal(request.method, 'POST');
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.end('x'.repeat(1024 * 1024));
    });
    const result = await transport.send(delivery(target.url));
    assert.equal(result.status, 200);
    assert.equal(result.body, 'x'.repeat(1000));
    assert.equal(result.error, undefined);
    assert.ok(result.latencyMs >= 0 && result.latencyMs < 5000);
    assert.equal(target.requests[0]?.body, '{"event":"test"}');
    assert.equal(seen['x-webhook-id'], 'evt_1');
    assert.equal(seen['content-length'], '16');
  });

  it('returns a short body whole', async () => {
    const target = await receiver(answer(202, 'queued'));
    const result = await transport.send(delivery(target.url));
    assert.deepEqual({ ...result, latencyMs: 0 }, { status: 202, body: 'queued', latencyMs: 0, bodySent: true });
  });

  it('returns a 500 as it is', async () => {
    const target = await receiver(answer(500, 'boom'));
    const result = await transport.send(delivery(target.url));
    assert.equal(result.status, 500);
    assert.equal(result.body, 'boom');
    assert.equal(result.error, undefined);
  });

  it('reads Retry-After in delta-seconds from a 429', async () => {
    const target = await receiver(answer(429, 'slow down', { 'retry-after': '7' }));
    const result = await transport.send(delivery(target.url));
    assert.equal(result.status, 429);
    assert.equal(result.retryAfterMs, 7000);
  });

  it('reads Retry-After as an HTTP-date', async () => {
    const at = new Date(Date.now() + 120_000);
    const target = await receiver(answer(429, '', { 'retry-after': at.toUTCString() }));
    const result = await transport.send(delivery(target.url));
    assert.equal(result.status, 429);
    assert.ok(
      result.retryAfterMs !== undefined && result.retryAfterMs > 117_000 && result.retryAfterMs <= 120_000,
      String(result.retryAfterMs),
    );
  });

  it('gives up on a receiver that never answers, at the deadline', async () => {
    const quick = new HttpWebhookTransport({ policy: LOCAL, timeoutMs: 300 });
    let closed = false;
    const target = await receiver((request) => request.socket.on('close', () => (closed = true)));
    const started = Date.now();
    const result = await quick.send(delivery(target.url));
    const took = Date.now() - started;
    await quick.close();
    assert.equal(result.status, 0);
    assert.equal(result.error, 'timed out after 300 ms');
    assert.ok(took >= 290 && took < 1000, `took ${took} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.ok(closed, 'the connection was destroyed');
  });

  it('gives up on a receiver that trickles its body, at the same deadline', async () => {
    const quick = new HttpWebhookTransport({ policy: LOCAL, timeoutMs: 300 });
    const target = await receiver((_request, response) => {
      response.writeHead(200);
      const drip = setInterval(() => response.write('.'), 20);
      response.on('close', () => clearInterval(drip));
    });
    const started = Date.now();
    const result = await quick.send(delivery(target.url));
    await quick.close();
    assert.equal(result.status, 0);
    assert.equal(result.error, 'timed out after 300 ms');
    assert.ok(Date.now() - started < 1000);
  });

  it('reports a connection reset', async () => {
    const target = await receiver((request) => request.socket.destroy());
    const result = await transport.send(delivery(target.url));
    assert.equal(result.status, 0);
    assert.equal(result.error, 'connection reset');
  });

  it('sends again once, on a new connection, when a kept-alive connection turns out closed', async () => {
    // Stands for a receiver closing an idle connection just as it is reused: the second request on
    // any connection is cut off.
    const served = new WeakMap<object, number>();
    const target = await receiver((request, response) => {
      const count = (served.get(request.socket) ?? 0) + 1;
      served.set(request.socket, count);
      if (count > 1) request.socket.destroy();
      else answer(200, 'ok')(request, response);
    });
    assert.equal((await transport.send(delivery(target.url))).status, 200);
    const result = await transport.send(delivery(target.url));
    assert.equal(result.status, 200);
    assert.equal(target.requests.length, 3);
    assert.equal(target.connections, 2);
  });

  it('returns a redirect without following it', async () => {
    const target = await receiver(answer(302, '', { location: 'http://169.254.169.254/latest/meta-data/' }));
    const result = await transport.send(delivery(target.url));
    assert.equal(result.status, 302);
    assert.equal(target.requests.length, 1);
  });

  it('reports a refused connection', async () => {
    const closed = await startReceiver(answer(200));
    await closed.close();
    const result = await transport.send(delivery(closed.url));
    assert.equal(result.status, 0);
    assert.equal(result.error, 'connection refused');
  });

  it('connects to the address it checked, with the hostname as Host, and checks again at every send', async () => {
    const target = await receiver(answer(204));
    const resolver = fakeResolver({ 'hooks.customer.test': ['127.0.0.1'] });
    const named = new HttpWebhookTransport({ policy: { allowedNetworks: ['127.0.0.1/32'], resolver } });
    const url = `http://hooks.customer.test:${target.port}/hooks`;
    assert.equal((await named.send(delivery(url))).status, 204);
    assert.equal((await named.send(delivery(url))).status, 204);
    await named.close();
    assert.deepEqual(resolver.asked, ['hooks.customer.test', 'hooks.customer.test']);
    assert.deepEqual(
      target.requests.map((r) => r.host),
      [`hooks.customer.test:${target.port}`, `hooks.customer.test:${target.port}`],
    );
  });

  // (How many deliveries a second that makes is measured by `npm run bench`, not here.)
  it('reuses a few kept-alive connections for many deliveries', async () => {
    const target = await receiver(answer(200, 'ok'));
    const results = await Promise.all(Array.from({ length: 1000 }, () => transport.send(delivery(target.url))));
    assert.ok(results.every((r) => r.status === 200));
    assert.ok(target.connections <= 8, `${target.connections} connections`);
  });

  it('answers status 0 for a header Node cannot send, without connecting', async () => {
    const target = await receiver(answer(200));
    const result = await transport.send({ ...delivery(target.url), headers: { 'x-webhook-event': 'a\r\nx-injected: 1' } });
    assert.equal(result.status, 0);
    assert.equal(result.error, 'invalid request (ERR_INVALID_CHAR)');
    assert.equal(target.connections, 0);
  });

  it('answers status 0 once closed', async () => {
    const closing = new HttpWebhookTransport({ policy: LOCAL });
    await closing.close();
    const result = await closing.send(delivery('http://127.0.0.1:9/'));
    assert.equal(result.status, 0);
    assert.equal(result.error, 'the transport is closed');
  });
});

describe('HttpWebhookTransport refuses internal targets (no allowed networks)', () => {
  const resolver = fakeResolver({
    'internal.customer.test': ['10.0.0.7'],
    'mixed.customer.test': ['93.184.215.14', '10.0.0.7'],
    'local.customer.test': ['127.0.0.1'],
  });
  const transport = new HttpWebhookTransport({ policy: { allowedNetworks: [], resolver } });
  const receivers: Receiver[] = [];
  let port = 0;

  before(async () => {
    receivers.push(await startReceiver(answer(200)));
    port = receivers[0]!.port;
    // The same port on ::1 too where this machine has IPv6, so a delivery let through would be seen.
    try {
      receivers.push(await startReceiver(answer(200), '::1'));
    } catch {
      // no IPv6 loopback here
    }
  });

  after(async () => {
    await transport.close();
    await Promise.all(receivers.map((r) => r.close()));
  });

  const refused: [url: () => string, reason: RegExp][] = [
    [() => `http://127.0.0.1:${port}/`, /^refused: 127\.0\.0\.1 is a loopback address$/],
    [() => `http://[::1]:${receivers[1]?.port ?? port}/`, /^refused: ::1 is a loopback address$/],
    [() => `http://10.1.2.3:${port}/`, /^refused: 10\.1\.2\.3 is a private address$/],
    [() => 'http://169.254.169.254/latest/meta-data/', /^refused: 169\.254\.169\.254 is the cloud metadata address$/],
    [() => `http://192.168.1.1:${port}/`, /^refused: 192\.168\.1\.1 is a private address$/],
    [() => `http://[::ffff:127.0.0.1]:${port}/`, /^refused: ::ffff:7f00:1 is a loopback address$/],
    [() => `http://2130706433:${port}/`, /^refused: 127\.0\.0\.1 is a loopback address$/],
    [() => `http://[64:ff9b::a00:7]:${port}/`, /is a private address$/],
    [() => `http://[2002:c0a8:101::1]:${port}/`, /is a 6to4 address$/],
    [() => `http://[fd00::1]:${port}/`, /is a private address$/],
    [() => `http://[fe80::1]:${port}/`, /is a link-local address$/],
    [() => `http://100.64.0.1:${port}/`, /is a carrier-grade NAT address$/],
    [() => `http://224.0.0.1:${port}/`, /is a multicast address$/],
    [() => `http://0.0.0.0:${port}/`, /is an unspecified address$/],
    [
      () => `http://internal.customer.test:${port}/`,
      /^refused: internal\.customer\.test resolves to 10\.0\.0\.7, a private address$/,
    ],
    [() => `http://mixed.customer.test:${port}/`, /^refused: mixed\.customer\.test resolves to 10\.0\.0\.7, a private address$/],
    [() => `http://local.customer.test:${port}/`, /resolves to 127\.0\.0\.1, a loopback address$/],
    [() => `http://nowhere.customer.test:${port}/`, /^could not resolve nowhere\.customer\.test: no such host$/],
    [() => `ftp://127.0.0.1:${port}/`, /^ftp URLs are not allowed/],
    [() => `http://user:pw@93.184.215.14:${port}/`, /^credentials in the URL are not allowed$/],
    [() => 'not a url', /^not a valid URL$/],
  ];
  for (const [url, reason] of refused) {
    it(`refuses ${url().replace(/:\d+\//, ':PORT/')}`, async () => {
      const result = await transport.send(delivery(url()));
      assert.equal(result.status, 0);
      assert.match(result.error ?? '', reason);
      assert.equal(
        receivers.reduce((sum, r) => sum + r.requests.length + r.connections, 0),
        0,
        'nothing reached a receiver',
      );
    });
  }

  it('lets through a public address (checked, not sent)', async () => {
    const check = await checkTarget('https://93.184.215.14/hooks?x=1', { allowedNetworks: [], resolver });
    assert.deepEqual(check.ok && { address: check.address, family: check.family, path: check.url.pathname + check.url.search }, {
      address: '93.184.215.14',
      family: 4,
      path: '/hooks?x=1',
    });
    const mapped = await checkTarget('http://[::ffff:93.184.215.14]/', { allowedNetworks: [], resolver });
    assert.equal(mapped.ok, true);
  });

  it('refuses a bad allowed network when the transport is made', () => {
    assert.throws(() => new HttpWebhookTransport({ policy: { allowedNetworks: ['10.0.0.0/33'], resolver } }), /not a CIDR/);
    assert.throws(() => new HttpWebhookTransport({ policy: { allowedNetworks: ['intranet'], resolver } }), /not a CIDR/);
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');
  it('takes delta-seconds and HTTP-dates, and nothing else', () => {
    assert.equal(parseRetryAfter('0', now), 0);
    assert.equal(parseRetryAfter(' 120 ', now), 120_000);
    assert.equal(parseRetryAfter('Thu, 01 Jan 2026 00:00:30 GMT', now), 30_000);
    assert.equal(parseRetryAfter('Wed, 31 Dec 2025 23:00:00 GMT', now), 0);
    assert.equal(parseRetryAfter(undefined, now), undefined);
    assert.equal(parseRetryAfter('-5', now), undefined);
    assert.equal(parseRetryAfter('1.5', now), undefined);
    assert.equal(parseRetryAfter('2026-01-01', now), undefined);
    assert.equal(parseRetryAfter('soon', now), undefined);
  });
});
