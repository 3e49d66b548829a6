/**
 * Signing of outgoing webhooks. Every delivery carries two signatures made from the one secret, so a
 * receiver can check whichever it prefers:
 *
 * - The published scheme (`X-Webhook-Signature`): hex HMAC-SHA256 of the raw request body, keyed with the
 *   UTF-8 bytes of the WHOLE secret string, `whsec_` prefix included. A receiver needs nothing but
 *   `createHmac('sha256', secret).update(rawBody).digest('hex')`.
 * - Standard Webhooks 1.0 (`webhook-signature`): base64 HMAC-SHA256 of `${id}.${timestamp}.${body}`, keyed
 *   with the base64-DECODED bytes of the part after `whsec_` — what the `standardwebhooks` libraries do
 *   with a `whsec_` secret, so `new Webhook(secret).verify(body, headers)` accepts it.
 *
 * The two schemes use different key bytes from the same string; neither may be "simplified" into the
 * other without breaking receivers that already verify it.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

const SECRET_PREFIX = 'whsec_';
/** 32 bytes (256 bits): the HMAC-SHA256 block size would allow more, nothing is gained past the hash size. */
const SECRET_BYTES = 32;
// Strict standard base64 (with padding): the standardwebhooks libraries decode strictly, while
// Buffer.from(…, 'base64') would silently skip stray characters and sign with a key they never derive.
const SECRET_PATTERN = /^whsec_(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{4})$/;

export const WEBHOOK_USER_AGENT = 'dealsignal-webhooks/1';

/** A new signing secret: `whsec_` + base64 of 32 random bytes. */
export function newWebhookSecret(): string {
  return SECRET_PREFIX + randomBytes(SECRET_BYTES).toString('base64');
}

/** What a secret is shown as once it has been handed out: its last 4 characters. */
export function secretPreview(secret: string): string {
  return '\u2026' + secret.slice(-4);
}

/**
 * JSON with every object's keys sorted (by UTF-16 code units, as RFC 8785 does) at every depth, arrays in
 * their order, no whitespace: the same value always gives the same bytes, so a body can be signed,
 * stored and re-sent identically. Otherwise it follows JSON.stringify (toJSON, undefined members dropped,
 * non-finite numbers as null).
 */
export function canonicalJson(value: unknown): string {
  const text = serialise(value, '', new Set());
  if (text === undefined) throw new TypeError('canonicalJson: the value has no JSON form');
  return text;
}

function serialise(input: unknown, key: string, ancestors: Set<object>): string | undefined {
  let value = input;
  // Sorting by rebuilding objects would not work: JavaScript orders integer-like keys first whatever
  // their insertion order, so the text is written here.
  if (value !== null && typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    value = (value as { toJSON: (key: string) => unknown }).toJSON(key);
  }
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (ancestors.has(value)) throw new TypeError('canonicalJson: the value is circular');
  ancestors.add(value);
  let text: string;
  if (Array.isArray(value)) {
    text = `[${value.map((item, index) => serialise(item, String(index), ancestors) ?? 'null').join(',')}]`;
  } else {
    const record = value as Record<string, unknown>;
    const members: string[] = [];
    for (const name of Object.keys(record).sort()) {
      const member = serialise(record[name], name, ancestors);
      if (member !== undefined) members.push(`${JSON.stringify(name)}:${member}`);
    }
    text = `{${members.join(',')}}`;
  }
  ancestors.delete(value);
  return text;
}

export interface WebhookEvent {
  eventId: string;
  eventType: string;
  timestamp: Date;
  data: unknown;
}

/** The request body of an event: `{"data":…,"event_id":…,"event_type":…,"timestamp":"<ISO 8601>"}`. */
export function eventBody(event: WebhookEvent): string {
  return canonicalJson({
    data: event.data,
    event_id: event.eventId,
    event_type: event.eventType,
    timestamp: event.timestamp.toISOString(),
  });
}

export interface SignedMessage {
  eventId: string;
  eventType: string;
  timestamp: Date;
  /** The exact bytes sent (as a string); both signatures cover it unchanged. */
  body: string;
}

/**
 * The request headers of one delivery (names in lower case; HTTP header names are case-insensitive):
 *
 * - `Content-Type: application/json`, `User-Agent: dealsignal-webhooks/1`
 * - published scheme: `X-Webhook-Event: <eventType>`, `X-Webhook-ID: <eventId>`,
 *   `X-Webhook-Timestamp: <unix seconds>`, `X-Webhook-Signature: <hex HMAC-SHA256(utf8(secret), body)>`
 * - Standard Webhooks 1.0: `webhook-id: <eventId>`, `webhook-timestamp: <unix seconds>`,
 *   `webhook-signature: v1,<base64 HMAC-SHA256(base64decode(secret without whsec_), "id.timestamp.body")>`
 *
 * Throws when the secret is not `whsec_` + base64 (one made by newWebhookSecret always is).
 */
export function signDelivery(secret: string, message: SignedMessage): Record<string, string> {
  const timestamp = String(Math.floor(message.timestamp.getTime() / 1000));
  const standardSignature = createHmac('sha256', standardWebhooksKey(secret))
    .update(`${message.eventId}.${timestamp}.${message.body}`)
    .digest('base64');
  return {
    'content-type': 'application/json',
    'user-agent': WEBHOOK_USER_AGENT,
    'x-webhook-event': message.eventType,
    'x-webhook-id': message.eventId,
    'x-webhook-timestamp': timestamp,
    'x-webhook-signature': publishedSignature(secret, message.body),
    'webhook-id': message.eventId,
    'webhook-timestamp': timestamp,
    'webhook-signature': `v1,${standardSignature}`,
  };
}

/**
 * Whether signatureHex is the published-scheme signature of body under secret; compared in constant
 * time so a receiver's answer time does not reveal how much of a forged signature was right.
 */
export function verifyPublishedSignature(secret: string, body: string, signatureHex: string): boolean {
  if (!/^[0-9a-fA-F]{64}$/.test(signatureHex)) return false;
  const expected = createHmac('sha256', secret).update(body).digest();
  return timingSafeEqual(expected, Buffer.from(signatureHex, 'hex'));
}

function publishedSignature(secret: string, body: string): string {
  // A string key is used as its UTF-8 bytes: the whole secret, prefix included.
  return createHmac('sha256', secret).update(body).digest('hex');
}

function standardWebhooksKey(secret: string): Buffer {
  if (!SECRET_PATTERN.test(secret)) throw new TypeError('not a webhook secret: expected whsec_ followed by base64');
  return Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
}
