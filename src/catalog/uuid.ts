// Name-based identifiers (RFC 9562 UUID version 5): the same name in the same namespace always
// gives the same UUID, on any instance, after any restart or re-import.
import { createHash } from 'node:crypto';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The version 5 UUID of `name` (its UTF-8 bytes) in `namespace` (a UUID). */
export function uuidV5(namespace: string, name: string): string {
  if (!UUID.test(namespace)) throw new TypeError(`not a UUID: ${namespace}`);
  const hash = createHash('sha1')
    .update(Buffer.from(namespace.replace(/-/g, ''), 'hex'))
    .update(name, 'utf8')
    .digest();
  hash[6] = (hash[6]! & 0x0f) | 0x50; // version 5
  hash[8] = (hash[8]! & 0x3f) | 0x80; // RFC 9562 variant
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
