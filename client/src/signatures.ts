// Verifying a webhook delivery in the receiver, with Web Crypto (Node 20+, browsers, edge runtimes).

export type HeaderSource = Headers | Record<string, string | string[] | undefined>;

export interface VerifyOptions {
  /** Deliveries signed longer ago (or further ahead) than this are refused, in seconds (default 300). */
  toleranceSeconds?: number;
  /** The time to check against, in ms (default now). */
  now?: number;
}

const encoder = new TextEncoder();

function header(headers: HeaderSource, name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const key = Object.keys(headers).find((candidate) => candidate.toLowerCase() === name);
  const value = key === undefined ? undefined : headers[key];
  return Array.isArray(value) ? value[0] : value;
}

async function hmac(key: Uint8Array<ArrayBuffer>, message: string): Promise<Uint8Array> {
  const cryptoKey = await crypto.subtle.importKey('raw', key, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return new Uint8Array(await crypto.subtle.sign('HMAC', cryptoKey, encoder.encode(message)));
}

/** Equal in time independent of where they differ. */
function same(a: Uint8Array, b: Uint8Array): boolean {
  let diff = a.length ^ b.length;
  for (let i = 0; i < Math.max(a.length, b.length); i++) diff |= (a[i] ?? 0) ^ (b[i] ?? 0);
  return diff === 0;
}

const hexBytes = (hex: string) =>
  /^(?:[0-9a-f]{2})*$/i.test(hex) ? Uint8Array.from(hex.match(/../g) ?? [], (h) => parseInt(h, 16)) : undefined;
const base64Bytes = (text: string) => {
  try {
    return Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
  } catch {
    return undefined;
  }
};

/**
 * Whether a webhook delivery is genuine: signed with the webhook's secret (`whsec_…`) and recent.
 * `body` is the raw request body as received (verify before parsing it). Checks the Standard Webhooks
 * signature (`webhook-id`, `webhook-timestamp`, `webhook-signature`) when present, else the
 * `X-Webhook-Signature` header (hex HMAC-SHA256 of the body keyed with the whole secret) and
 * `X-Webhook-Timestamp`.
 */
export async function verifyWebhook(
  secret: string,
  body: string,
  headers: HeaderSource,
  options: VerifyOptions = {},
): Promise<boolean> {
  const tolerance = options.toleranceSeconds ?? 300;
  const now = (options.now ?? Date.now()) / 1000;
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp') ?? header(headers, 'x-webhook-timestamp');
  if (timestamp === undefined || !/^\d+$/.test(timestamp) || Math.abs(now - Number(timestamp)) > tolerance) return false;
  const standard = header(headers, 'webhook-signature');
  if (id !== undefined && standard !== undefined) {
    const key = base64Bytes(secret.replace(/^whsec_/, ''));
    if (!key) return false;
    const expected = await hmac(key, `${id}.${timestamp}.${body}`);
    // The header may list several signatures (during a secret rotation), space-separated.
    return standard.split(' ').some((entry) => {
      const [version, signature] = entry.split(',', 2);
      const given = version === 'v1' && signature ? base64Bytes(signature) : undefined;
      return given !== undefined && same(given, expected);
    });
  }
  const published = header(headers, 'x-webhook-signature');
  const given = published === undefined ? undefined : hexBytes(published);
  return given !== undefined && same(given, await hmac(encoder.encode(secret), body));
}
