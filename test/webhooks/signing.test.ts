import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import {
  canonicalJson,
  eventBody,
  newWebhookSecret,
  secretPreview,
  signDelivery,
  verifyPublishedSignature,
} from '../../src/webhooks/signing.js';
// Bounded property runs and failing assertions that report at once (also when run alone).
import '../setup.js';

/** What a receiver following our published documentation computes. */
const publishedCheck = (secret: string, body: string, headers: Record<string, string>) =>
  createHmac('sha256', secret).update(body).digest('hex') === headers['x-webhook-signature'];

/** What a receiver using the standardwebhooks package does (it throws on a bad signature). */
const standardCheck = (secret: string, body: string, headers: Record<string, string>) => {
  try {
    new Webhook(secret).verify(body, headers);
    return true;
  } catch {
    return false;
  }
};

function signedEvent(secret: string) {
  const event = {
    eventId: 'evt_01J9Z6Q3',
    eventType: 'funding.created',
    timestamp: new Date(),
    data: { company: 'Acme — Ünïcode', amount: 12_000_000, tags: ['b', 'a'] },
  };
  const body = eventBody(event);
  return { event, body, headers: signDelivery(secret, { ...event, body }) };
}

describe('webhook secrets', () => {
  it('are whsec_ + base64 of 32 random bytes, different every time', () => {
    const secret = newWebhookSecret();
    assert.match(secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
    assert.equal(Buffer.from(secret.slice('whsec_'.length), 'base64').length, 32);
    assert.notEqual(newWebhookSecret(), secret);
  });

  it('are previewed by their last 4 characters', () => {
    assert.equal(secretPreview('whsec_abcdefgh1234'), '\u20261234');
  });
});

describe('canonicalJson', () => {
  it('sorts keys at every depth, keeps array order and writes no whitespace', () => {
    const value = { b: 1, a: { z: [3, { y: 1, x: 2 }], c: null }, 10: 'ten', 9: 'nine' };
    assert.equal(canonicalJson(value), '{"10":"ten","9":"nine","a":{"c":null,"z":[3,{"x":2,"y":1}]},"b":1}');
  });

  it('follows JSON.stringify for dates, undefined members and non-finite numbers', () => {
    const value = { when: new Date('2026-01-02T03:04:05.000Z'), gone: undefined, list: [undefined, NaN] };
    assert.equal(canonicalJson(value), '{"list":[null,null],"when":"2026-01-02T03:04:05.000Z"}');
  });

  it('refuses a circular value', () => {
    const value: Record<string, unknown> = {};
    value.self = value;
    assert.throws(() => canonicalJson(value), TypeError);
  });
});

describe('eventBody', () => {
  it('is the canonical JSON of data, event_id, event_type and an ISO 8601 timestamp', () => {
    const body = eventBody({
      eventId: 'evt_1',
      eventType: 'deal.updated',
      timestamp: new Date(Date.UTC(2026, 0, 2, 3, 4, 5)),
      data: { z: 1, a: 2 },
    });
    assert.equal(
      body,
      '{"data":{"a":2,"z":1},"event_id":"evt_1","event_type":"deal.updated","timestamp":"2026-01-02T03:04:05.000Z"}',
    );
  });
});

describe('signDelivery', () => {
  it('sends the published and the Standard Webhooks headers', () => {
    const secret = newWebhookSecret();
    const { event, headers } = signedEvent(secret);
    const seconds = String(Math.floor(event.timestamp.getTime() / 1000));
    assert.equal(headers['content-type'], 'application/json');
    assert.equal(headers['user-agent'], 'dealsignal-webhooks/1');
    assert.equal(headers['x-webhook-event'], 'funding.created');
    assert.equal(headers['x-webhook-id'], event.eventId);
    assert.equal(headers['x-webhook-timestamp'], seconds);
    assert.match(headers['x-webhook-signature']!, /^[0-9a-f]{64}$/);
    assert.equal(headers['webhook-id'], event.eventId);
    assert.equal(headers['webhook-timestamp'], seconds);
    assert.match(headers['webhook-signature']!, /^v1,[A-Za-z0-9+/]{43}=$/);
  });

  it('verifies with the standardwebhooks package and with a plain HMAC of the whole secret', () => {
    const secret = newWebhookSecret();
    const { body, headers } = signedEvent(secret);
    assert.ok(standardCheck(secret, body, headers));
    assert.deepEqual(new Webhook(secret).verify(body, headers), JSON.parse(body));
    assert.ok(publishedCheck(secret, body, headers));
    assert.ok(verifyPublishedSignature(secret, body, headers['x-webhook-signature']!));
  });

  it('fails both checks for a tampered body', () => {
    const secret = newWebhookSecret();
    const { body, headers } = signedEvent(secret);
    const tampered = body.replace('12000000', '92000000');
    assert.notEqual(tampered, body);
    assert.equal(standardCheck(secret, tampered, headers), false);
    assert.equal(publishedCheck(secret, tampered, headers), false);
    assert.equal(verifyPublishedSignature(secret, tampered, headers['x-webhook-signature']!), false);
  });

  it('fails both checks under another secret', () => {
    const { body, headers } = signedEvent(newWebhookSecret());
    const other = newWebhookSecret();
    assert.equal(standardCheck(other, body, headers), false);
    assert.equal(publishedCheck(other, body, headers), false);
    assert.equal(verifyPublishedSignature(other, body, headers['x-webhook-signature']!), false);
  });

  it('fails the Standard Webhooks check when the id or timestamp is changed', () => {
    const secret = newWebhookSecret();
    const { body, headers } = signedEvent(secret);
    assert.equal(standardCheck(secret, body, { ...headers, 'webhook-id': 'evt_other' }), false);
    const later = String(Number(headers['webhook-timestamp']) + 1);
    assert.equal(standardCheck(secret, body, { ...headers, 'webhook-timestamp': later }), false);
  });

  it('refuses a secret that is not whsec_ + base64', () => {
    const message = { eventId: 'evt_1', eventType: 't', timestamp: new Date(), body: '{}' };
    assert.throws(() => signDelivery('not-a-secret', message), TypeError);
    assert.throws(() => signDelivery('whsec_not base64!', message), TypeError);
  });
});

describe('verifyPublishedSignature', () => {
  it('refuses anything but 64 hex characters', () => {
    const secret = newWebhookSecret();
    const good = createHmac('sha256', secret).update('{}').digest('hex');
    assert.ok(verifyPublishedSignature(secret, '{}', good));
    assert.ok(verifyPublishedSignature(secret, '{}', good.toUpperCase()));
    assert.equal(verifyPublishedSignature(secret, '{}', good.slice(0, 63)), false);
    assert.equal(verifyPublishedSignature(secret, '{}', ''), false);
    assert.equal(verifyPublishedSignature(secret, '{}', `${good.slice(0, 62)}zz`), false);
  });
});
