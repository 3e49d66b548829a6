// How text and keys are reduced before they are indexed or looked up.

const COMBINING_MARKS = /\p{M}+/gu;
const NOT_LETTER_OR_DIGIT = /[^\p{L}\p{N}]+/u;

/**
 * The words of a text as search sees them: compatibility-decomposed (NFKD) with combining marks
 * removed, so accents do not matter ("Zürich" -> "zurich", "ﬁnance" -> "finance"), lower case,
 * split on every character that is not a letter or a digit ("e-commerce" -> "e", "commerce").
 * Lower-casing runs before the decomposition ("İ" lower-cases to "i" plus a combining dot) and after
 * it (a decomposition can yield capitals: "㎒" -> "MHz"), so the result is stable when applied twice.
 * A query word matches a record when each of its words is the start of some word of the record.
 */
export function searchWords(text: string): string[] {
  const words = text.toLowerCase().normalize('NFKD').replace(COMBINING_MARKS, '').toLowerCase().split(NOT_LETTER_OR_DIGIT);
  return words.filter((word) => word !== '');
}

/**
 * What a `text` column orders by: the text reduced as searchWords reduces it (compatibility-
 * decomposed, combining marks removed, lower case) with its runs of white space made one space and
 * trimmed, punctuation kept; keys compare by UTF-16 code units. "Émile", "emile" and " EMILE " are
 * equal (their records then go by id); "O'Brien" sorts before "Oak" ("'" is below "a").
 */
export function collationKey(text: string): string {
  const lower = text.toLowerCase();
  // ASCII text (most names) has nothing to decompose: a third of the time of the full reduction.
  if (isAscii(lower)) return lower.replace(WHITE_SPACE, ' ').trim();
  return lower.normalize('NFKD').replace(COMBINING_MARKS, '').toLowerCase().replace(WHITE_SPACE, ' ').trim();
}

const WHITE_SPACE = /\s+/gu;

function isAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0x7f) return false;
  return true;
}

/**
 * A 53-bit hash of a key (cyrb53: two 32-bit multiply-xorshift lanes), exact in a double.
 * Key columns keep only these hashes, so a lookup of a key that is not stored returns a record
 * whose key merely has the same hash with probability about K / 2^53 for K distinct stored keys:
 * 2.2e-10 per lookup with 2 million keys, one wrong answer in some four billion lookups.
 */
export function keyHash(key: string): number {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < key.length; i++) {
    const ch = key.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507);
  h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507);
  h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}
