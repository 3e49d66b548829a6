// Cursors: a position in the change log as clients see it. Opaque (base64url), versioned so the
// position's form can change without breaking stored cursors, and strict: anything but a
// cursor this code produced is rejected (the feed answers 400), never read as another position.
import type { ChangePosition } from './change-log-queries.js';

const VERSION = 'v1';
const MAX_LENGTH = 64;
const PAYLOAD = /^v1\.(0|[1-9]\d{0,15})\.(0|[1-9]\d{0,15})$/;

export function encodeCursor(position: ChangePosition): string {
  return Buffer.from(`${VERSION}.${position.seq}.${position.changeId}`, 'utf8').toString('base64url');
}

/** The position a cursor stands for, or undefined when the text is not a valid cursor. */
export function parseCursor(text: string): ChangePosition | undefined {
  if (text.length === 0 || text.length > MAX_LENGTH || !/^[A-Za-z0-9_-]+$/.test(text)) return undefined;
  const match = PAYLOAD.exec(Buffer.from(text, 'base64url').toString('utf8'));
  if (!match) return undefined;
  const position = { seq: Number(match[1]), changeId: Number(match[2]) };
  if (!Number.isSafeInteger(position.seq) || !Number.isSafeInteger(position.changeId)) return undefined;
  // Base64 has several spellings of the same bytes (unused low bits of the last character);
  // only the one encodeCursor writes is accepted, so one position has one cursor.
  return encodeCursor(position) === text ? position : undefined;
}
