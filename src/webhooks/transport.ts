/**
 * How a webhook delivery leaves the process: one POST to a URL the webhook's owner chose, which makes it
 * a request forgery risk (SSRF) as much as a network call. So every send:
 *
 * 1. accepts only http: and https: URLs without credentials;
 * 2. resolves the host and refuses it if ANY of its addresses is not globally reachable (every such block
 *    of the IANA special-purpose registries, multicast, the cloud metadata address and the IPv6 forms
 *    embedding an IPv4 address: see address-ranges.ts), unless it lies in a network the operator allowed;
 * 3. connects to the very address it checked (a pinned `lookup`), so a DNS answer that changes between
 *    check and connect (DNS rebinding) is never used; SNI and Host still carry the hostname;
 * 4. never follows a redirect (a 3xx is a result like any other status: following it would reach a
 *    target nobody checked);
 * 5. bounds everything: one deadline for resolution, connection, headers and body, and at most
 *    maxBodyChars of the response kept.
 *
 * No failure of the target throws: it comes back as status 0 with a reason its owner may read.
 */
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import type { LookupFunction } from 'node:net';
import { embeddedIPv4, refusedRange } from './address-ranges.js';

export interface DeliveryRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

export interface DeliveryResult {
  /** HTTP status, or 0 when no response came (refused target, DNS failure, timeout, reset). */
  status: number;
  /** At most the first maxBodyChars (1,000) characters of the response body ('' when none). */
  body: string;
  latencyMs: number;
  /** From a Retry-After header (delta-seconds or HTTP-date), in ms, when present and valid. */
  retryAfterMs?: number;
  /** Why no response came, safe to show to the webhook's owner (e.g. 'timed out after 10000 ms', 'refused: 10.0.0.5 is a private address', 'connection reset'). */
  error?: string;
  /**
   * True once the whole request, body included, was written to the receiver's connection (the
   * request's 'finish'), whatever came back: what a delivery is billed on. False when it never left
   * (refused target, DNS failure, connection refused, a timeout before the body went).
   */
  bodySent: boolean;
}

export interface WebhookTransport {
  /** POSTs request.body to request.url; resolves (never rejects) with what came back. */
  send(request: DeliveryRequest): Promise<DeliveryResult>;
  close(): Promise<void>;
}

export interface HostResolver {
  /** Every address of hostname (a host with one internal address among public ones must be refused). */
  lookup(hostname: string): Promise<string[]>;
}

export const systemResolver: HostResolver = {
  async lookup(hostname) {
    const answers = await dns.promises.lookup(hostname, { all: true, verbatim: true });
    return answers.map((answer) => answer.address);
  },
};

export interface TargetPolicy {
  /** CIDRs allowed despite the blocklist, e.g. '127.0.0.0/8', '::1/128' (a receiver on this machine in development). */
  allowedNetworks: readonly string[];
  resolver: HostResolver;
}

export type TargetCheck = { ok: true; url: URL; address: string; family: 4 | 6 } | { ok: false; reason: string };

// --- Allowed networks -------------------------------------------------------------------------------

/** A BlockList of the allowed networks (parsed once per policy list; a bad CIDR is a configuration error). */
const allowedLists = new WeakMap<readonly string[], net.BlockList>();

function allowedList(networks: readonly string[]): net.BlockList {
  let list = allowedLists.get(networks);
  if (list) return list;
  list = new net.BlockList();
  for (const cidr of networks) {
    const [address = '', prefix, ...rest] = cidr.split('/');
    const family = net.isIP(address);
    const bits = prefix === undefined ? (family === 4 ? 32 : 128) : Number(prefix);
    const validPrefix = /^\d{1,3}$/.test(prefix ?? '0') && bits <= (family === 4 ? 32 : 128);
    if (family === 0 || rest.length > 0 || !validPrefix) throw new Error(`allowedNetworks: "${cidr}" is not a CIDR`);
    list.addSubnet(address, bits, family === 4 ? 'ipv4' : 'ipv6');
  }
  allowedLists.set(networks, list);
  return list;
}

/** Why address may not be reached, or undefined when it may. */
function refusal(address: string, family: 4 | 6, allowed: net.BlockList): string | undefined {
  if (allowed.check(address, family === 4 ? 'ipv4' : 'ipv6')) return undefined;
  // An IPv6 form of an allowed IPv4 address (::ffff:127.0.0.1 for 127.0.0.0/8) is allowed with it.
  const ipv4 = family === 6 ? embeddedIPv4(address) : undefined;
  if (ipv4 !== undefined && allowed.check(ipv4, 'ipv4')) return undefined;
  return refusedRange(address, family);
}

// --- The check ----------------------------------------------------------------------------------------

/**
 * Whether url may receive a delivery under policy, and the address to connect to. Resolves the host
 * (an IP literal is taken as is) and refuses it when any of its addresses is internal: a host answering
 * with one public and one private address could be steered to the private one.
 */
export async function checkTarget(url: string, policy: TargetPolicy): Promise<TargetCheck> {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return { ok: false, reason: 'not a valid URL' };
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') {
    return { ok: false, reason: `${target.protocol.slice(0, -1)} URLs are not allowed (only http and https)` };
  }
  if (target.username !== '' || target.password !== '') {
    return { ok: false, reason: 'credentials in the URL are not allowed' };
  }
  const allowed = allowedList(policy.allowedNetworks);
  const host = hostOf(target);
  const literal = net.isIP(host) !== 0;
  let addresses: string[];
  if (literal) {
    addresses = [host];
  } else {
    try {
      addresses = await policy.resolver.lookup(host);
    } catch (error) {
      return { ok: false, reason: `could not resolve ${host}${dnsProblem(error)}` };
    }
    if (addresses.length === 0) return { ok: false, reason: `could not resolve ${host}` };
  }
  for (const answer of addresses) {
    // A scoped link-local answer (fe80::1%eth0) is judged without its zone.
    const address = answer.split('%')[0]!;
    const family = net.isIP(address);
    const why = family === 0 ? 'not an IP address' : refusal(address, family === 4 ? 4 : 6, allowed);
    if (why)
      return { ok: false, reason: literal ? `refused: ${address} is ${why}` : `refused: ${host} resolves to ${address}, ${why}` };
  }
  const address = addresses[0]!;
  return { ok: true, url: target, address, family: net.isIP(address) === 6 ? 6 : 4 };
}

/** The hostname without the brackets of an IPv6 literal. */
function hostOf(url: URL): string {
  return url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
}

function dnsProblem(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'ENOTFOUND' || code === 'ENODATA') return ': no such host';
  if (typeof code === 'string') return ` (${code})`;
  return '';
}

// --- The transport ------------------------------------------------------------------------------------

export interface HttpWebhookTransportOptions {
  policy: TargetPolicy;
  /** One deadline for resolution, waiting for a socket, connecting, headers and body. */
  timeoutMs?: number;
  maxBodyChars?: number;
  /** Connections per receiver (host and port); more deliveries wait for one. */
  maxSockets?: number;
}

/** Below the 5 s keep-alive timeout most servers (Node's included) use, so an idle socket is closed by us first. */
const IDLE_SOCKET_MS = 4000;

export class HttpWebhookTransport implements WebhookTransport {
  private readonly policy: TargetPolicy;
  private readonly timeoutMs: number;
  private readonly maxBodyChars: number;
  private readonly httpAgent: http.Agent;
  private readonly httpsAgent: https.Agent;
  private closed = false;

  constructor(options: HttpWebhookTransportOptions) {
    this.policy = options.policy;
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.maxBodyChars = options.maxBodyChars ?? 1000;
    allowedList(this.policy.allowedNetworks); // a bad CIDR fails here, at start, not at the first delivery
    const maxSockets = options.maxSockets ?? 8;
    // Keep-alive: many deliveries to one receiver reuse a few connections instead of a handshake each.
    const agentOptions = {
      keepAlive: true,
      maxSockets,
      maxFreeSockets: maxSockets,
      timeout: IDLE_SOCKET_MS,
      scheduling: 'lifo' as const,
    };
    this.httpAgent = new http.Agent(agentOptions);
    this.httpsAgent = new https.Agent(agentOptions);
  }

  async send(request: DeliveryRequest): Promise<DeliveryResult> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    if (this.closed) return { status: 0, body: '', latencyMs: 0, error: 'the transport is closed', bodySent: false };

    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), this.timeoutMs);
    });
    const timedOut = (bodySent: boolean): DeliveryResult => ({
      status: 0,
      body: '',
      latencyMs: elapsed(),
      error: `timed out after ${this.timeoutMs} ms`,
      bodySent,
    });
    try {
      // A resolver that never answers cannot be cancelled, but it need not be waited for.
      const target = await Promise.race([checkTarget(request.url, this.policy), deadline]);
      if (target === 'timeout') return timedOut(false);
      if (!target.ok) return { status: 0, body: '', latencyMs: elapsed(), error: target.reason, bodySent: false };
      const exchange = this.exchange(request, target);
      const outcome = await Promise.race([exchange.result, deadline]);
      if (outcome === 'timeout') {
        exchange.abort();
        return timedOut(exchange.bodySent());
      }
      return { ...outcome, latencyMs: elapsed() };
    } finally {
      clearTimeout(timer);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }

  /**
   * One POST to the checked address. A socket reused from the pool may have been closed by the receiver
   * just as it was picked (its keep-alive timeout racing ours); a request that fails that way before any
   * response is sent again once, on a new connection, as Node's documentation advises.
   */
  private exchange(request: DeliveryRequest, target: Extract<TargetCheck, { ok: true }>) {
    let current: http.ClientRequest | undefined;
    let aborted = false;
    // Per attempt: a body written to a pooled socket the receiver had already closed never reached it.
    let sent = false;
    const attempt = (retried: boolean): Promise<Omit<DeliveryResult, 'latencyMs'>> =>
      new Promise((resolve) => {
        sent = false;
        try {
          const outgoing = this.post(
            request,
            target,
            (result) => resolve({ ...result, bodySent: sent }),
            (error) => {
              const code = (error as NodeJS.ErrnoException).code;
              if (!retried && !aborted && outgoing.reusedSocket && (code === 'ECONNRESET' || code === 'EPIPE')) {
                resolve(attempt(true));
              } else {
                resolve({ status: 0, body: '', error: connectionProblem(error), bodySent: sent });
              }
            },
          );
          outgoing.on('finish', () => {
            if (current === outgoing) sent = true;
          });
          current = outgoing;
        } catch (error) {
          // Node refuses a header it cannot send (a line break in a value) before any connection.
          const code = (error as NodeJS.ErrnoException).code ?? 'unknown error';
          resolve({ status: 0, body: '', error: `invalid request (${code})`, bodySent: false });
        }
      });
    return {
      result: attempt(false),
      bodySent: () => sent,
      abort: () => {
        aborted = true;
        current?.destroy(); // also destroys the socket, so a trickling receiver is cut off
      },
    };
  }

  private post(
    request: DeliveryRequest,
    target: Extract<TargetCheck, { ok: true }>,
    done: (result: Omit<DeliveryResult, 'latencyMs' | 'bodySent'>) => void,
    failed: (error: Error) => void,
  ): http.ClientRequest {
    const { url, address, family } = target;
    const secure = url.protocol === 'https:';
    const hostname = hostOf(url);
    // Only asked for when hostname is a name (an IP literal is connected to directly): answers with the
    // checked address whatever DNS says now.
    const pinned: LookupFunction = (_hostname, options, callback) => {
      if (options.all) callback(null, [{ address, family }]);
      else callback(null, address, family);
    };
    const outgoing = (secure ? https : http).request({
      method: 'POST',
      protocol: url.protocol,
      hostname,
      port: url.port === '' ? undefined : Number(url.port),
      path: url.pathname + url.search,
      headers: { ...request.headers, 'content-length': String(Buffer.byteLength(request.body)) },
      agent: secure ? this.httpsAgent : this.httpAgent,
      lookup: pinned,
      // SNI carries the name the certificate is checked against (an IP literal gets none, as TLS requires).
      ...(secure && net.isIP(hostname) === 0 ? { servername: hostname } : {}),
    });
    let responded = false;
    outgoing.on('error', (error) => {
      if (!responded) failed(error);
    });
    outgoing.on('response', (response) => {
      responded = true;
      const status = response.statusCode ?? 0;
      const retryAfterMs = parseRetryAfter(response.headers['retry-after']);
      let finished = false;
      const result = (body: string) => {
        if (finished) return;
        finished = true;
        done({ status, body, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) });
      };
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        body += chunk;
        if (body.length >= this.maxBodyChars) {
          // Enough kept: the rest is not read, and the connection, now mid-body, cannot be reused.
          response.destroy();
          result(truncate(body, this.maxBodyChars));
        }
      });
      response.on('end', () => result(body));
      // The receiver answered, then went away mid-body: the status stands, with what came of the body.
      response.on('close', () => result(body));
      response.on('error', () => undefined);
    });
    outgoing.end(request.body);
    return outgoing;
  }
}

/** At most max characters, without leaving half of a surrogate pair at the end. */
function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  const last = text.charCodeAt(max - 1);
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? max - 1 : max);
}

/** Retry-After as delta-seconds or an HTTP-date, in ms from now (a date in the past gives 0). */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // An HTTP-date names its weekday (IMF-fixdate, RFC 850 or asctime); anything else is not one.
  if (!/^[A-Za-z]{3}/.test(text)) return undefined;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

const CONNECTION_PROBLEMS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  EPIPE: 'connection reset',
  ECONNABORTED: 'connection aborted',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ETIMEDOUT: 'connection timed out',
  EAI_AGAIN: 'DNS lookup failed',
};

/** A short reason for a failed request, naming nothing about this side but the error code. */
function connectionProblem(error: Error): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === undefined) return 'request failed';
  const known = CONNECTION_PROBLEMS[code];
  if (known) return known;
  if (code.startsWith('HPE_')) return `invalid HTTP response (${code})`;
  if (code.includes('CERT') || code.startsWith('ERR_TLS') || code.startsWith('ERR_SSL'))
    return `TLS certificate problem (${code})`;
  return `request failed (${code})`;
}
