// The mentions of people, kept as numbers: one slot per mention (a person named by a row) in typed
// columns, chained per person and per row, with a free list for the slots of removed rows. Millions
// of mentions cost a few dozen bytes each and give the collector nothing to trace: no object per
// mention, and the strings a mention needs to be served are read again from its row when served.
import { Buffer } from 'node:buffer';

/**
 * A string table: each distinct string once, by its code (0, 1, 2, … in the order first seen), kept
 * as UTF-8 in one growing buffer with an open-addressing hash table of codes in typed arrays.
 * Millions of strings (people's identities, company ids) cost their bytes and about 16 bytes each,
 * and give the collector nothing to trace, where JavaScript strings in a Map cost several times
 * that and are traced on every full collection. A string read back (`value`) is made anew.
 */
export class Strings {
  private bytes = Buffer.allocUnsafe(1 << 16);
  private used = 0;
  /** String i is bytes [offsets[i], offsets[i + 1]). */
  private offsets = new Uint32Array(1025);
  private hashes = new Int32Array(1024);
  private count = 0;
  /** Codes by hash, -1 for an empty slot; kept at most half full. */
  private slots = new Int32Array(2048).fill(-1);
  /** The string being looked up, as UTF-8. */
  private scratch = Buffer.allocUnsafe(1024);

  /** Distinct strings in the table. */
  get size(): number {
    return this.count;
  }

  /** The code of a string, added when new (-1 for null). */
  code(value: string | null): number {
    if (value === null) return -1;
    const length = this.encode(value);
    const hash = fnv1a(this.scratch, length);
    const slot = this.probe(hash, length);
    const found = this.slots[slot]!;
    if (found >= 0) return found;
    const code = this.count++;
    this.store(code, hash, length);
    this.slots[slot] = code;
    if (this.count * 2 > this.slots.length) this.rehash(this.slots.length * 2);
    return code;
  }

  /** The code of a string in the table, -1 when it is not (or null). */
  find(value: string | null): number {
    if (value === null) return -1;
    const length = this.encode(value);
    return this.slots[this.probe(fnv1a(this.scratch, length), length)]!;
  }

  /** The string of a code (null for -1). */
  value(code: number): string | null {
    return code < 0 ? null : this.bytes.toString('utf8', this.offsets[code]!, this.offsets[code + 1]!);
  }

  clear(): void {
    this.used = 0;
    this.count = 0;
    this.slots.fill(-1);
  }

  /** Writes the value to the scratch buffer; returns its length in bytes. */
  private encode(value: string): number {
    if (value.length * 3 > this.scratch.length) this.scratch = Buffer.allocUnsafe(value.length * 3);
    return this.scratch.write(value, 0, 'utf8');
  }

  /** The slot holding the scratch string's code, or the empty slot where it goes. */
  private probe(hash: number, length: number): number {
    const { slots, hashes, offsets, bytes, scratch } = this;
    const mask = slots.length - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const code = slots[slot]!;
      if (code < 0) return slot;
      if (hashes[code] !== hash) continue;
      const start = offsets[code]!;
      if (offsets[code + 1]! - start !== length) continue;
      let same = true;
      for (let i = 0; i < length && same; i++) same = bytes[start + i] === scratch[i];
      if (same) return slot;
    }
  }

  /** Appends the scratch string as string `code`. */
  private store(code: number, hash: number, length: number): void {
    if (this.used + length > this.bytes.length) {
      const grown = Buffer.allocUnsafe(Math.max(this.bytes.length * 2, this.used + length));
      this.bytes.copy(grown, 0, 0, this.used);
      this.bytes = grown;
    }
    this.scratch.copy(this.bytes, this.used, 0, length);
    if (code + 2 > this.offsets.length) {
      this.offsets = grow(this.offsets, this.offsets.length * 2);
      this.hashes = grow(this.hashes, this.hashes.length * 2);
    }
    this.offsets[code] = this.used;
    this.used += length;
    this.offsets[code + 1] = this.used;
    this.hashes[code] = hash;
  }

  private rehash(capacity: number): void {
    const slots = new Int32Array(capacity).fill(-1);
    const mask = capacity - 1;
    for (let code = 0; code < this.count; code++) {
      let slot = this.hashes[code]! & mask;
      while (slots[slot]! >= 0) slot = (slot + 1) & mask;
      slots[slot] = code;
    }
    this.slots = slots;
  }
}

/** 32-bit FNV-1a of the first `length` bytes, as a signed integer (as an Int32Array keeps it). */
function fnv1a(bytes: Buffer, length: number): number {
  let hash = 0x811c9dc5 | 0;
  for (let i = 0; i < length; i++) hash = Math.imul(hash ^ bytes[i]!, 0x01000193);
  return hash;
}

/** What the directory keeps of one mention. */
export interface MentionFacts {
  person: number;
  /** The row (sourceOf). */
  source: number;
  /** When the row puts the person in this role (ms). */
  at: number;
  move: boolean;
  /** Codes in the directory's string tables (-1: none). */
  title: number;
  company: number;
  companyLinkedin: number;
}

const NONE = -1;

export class Mentions {
  private capacity = 0;
  private person = new Int32Array(0);
  private source = new Float64Array(0);
  private at = new Float64Array(0);
  private move = new Uint8Array(0);
  private title = new Int32Array(0);
  private company = new Int32Array(0);
  private companyLinkedin = new Int32Array(0);
  /** The next mention of the same person (insertion order), of the same row; -1 ends a chain. */
  private nextOfPerson = new Int32Array(0);
  private nextOfRow = new Int32Array(0);
  private used = 0;
  private freed: number[] = [];
  /** Per person: the first and last of their mentions. */
  private first = new Int32Array(0);
  private last = new Int32Array(0);
  /** Per row: its first mention. */
  private readonly byRow = new Map<number, number>();

  /** Adds a mention at the end of its person's and its row's chains. */
  add(facts: MentionFacts): void {
    const slot = this.freed.pop() ?? this.grown();
    this.person[slot] = facts.person;
    this.source[slot] = facts.source;
    this.at[slot] = facts.at;
    this.move[slot] = facts.move ? 1 : 0;
    this.title[slot] = facts.title;
    this.company[slot] = facts.company;
    this.companyLinkedin[slot] = facts.companyLinkedin;
    this.nextOfPerson[slot] = NONE;
    this.ensurePeople(facts.person + 1);
    const last = this.last[facts.person]!;
    if (last === NONE) this.first[facts.person] = slot;
    else this.nextOfPerson[last] = slot;
    this.last[facts.person] = slot;
    this.nextOfRow[slot] = this.byRow.get(facts.source) ?? NONE;
    this.byRow.set(facts.source, slot);
  }

  /** Takes out a row's mentions; returns the people they were of. */
  removeRow(source: number): number[] {
    const people: number[] = [];
    let slot = this.byRow.get(source) ?? NONE;
    this.byRow.delete(source);
    while (slot !== NONE) {
      const next = this.nextOfRow[slot]!;
      const person = this.person[slot]!;
      people.push(person);
      this.unlink(person, slot);
      this.freed.push(slot);
      slot = next;
    }
    return people;
  }

  /** A person's first mention (-1: none); then `next` walks them in the order they were added. */
  firstOf(person: number): number {
    return person < this.first.length ? this.first[person]! : NONE;
  }

  /** The person's mention after this one (-1: none). */
  next(slot: number): number {
    return this.nextOfPerson[slot]!;
  }

  sourceOf(slot: number): number {
    return this.source[slot]!;
  }
  atOf(slot: number): number {
    return this.at[slot]!;
  }
  isMove(slot: number): boolean {
    return this.move[slot] === 1;
  }
  titleOf(slot: number): number {
    return this.title[slot]!;
  }
  companyOf(slot: number): number {
    return this.company[slot]!;
  }
  companyLinkedinOf(slot: number): number {
    return this.companyLinkedin[slot]!;
  }

  private unlink(person: number, slot: number): void {
    let previous = NONE;
    for (let at = this.first[person]!; at !== NONE; previous = at, at = this.nextOfPerson[at]!) {
      if (at !== slot) continue;
      const next = this.nextOfPerson[at]!;
      if (previous === NONE) this.first[person] = next;
      else this.nextOfPerson[previous] = next;
      if (this.last[person] === slot) this.last[person] = previous;
      return;
    }
  }

  private grown(): number {
    if (this.used === this.capacity) {
      const capacity = Math.max(1024, this.capacity * 2);
      this.person = grow(this.person, capacity);
      this.source = grow(this.source, capacity);
      this.at = grow(this.at, capacity);
      this.move = grow(this.move, capacity);
      this.title = grow(this.title, capacity);
      this.company = grow(this.company, capacity);
      this.companyLinkedin = grow(this.companyLinkedin, capacity);
      this.nextOfPerson = grow(this.nextOfPerson, capacity);
      this.nextOfRow = grow(this.nextOfRow, capacity);
      this.capacity = capacity;
    }
    return this.used++;
  }

  private ensurePeople(count: number): void {
    if (count <= this.first.length) return;
    const capacity = Math.max(1024, this.first.length * 2, count);
    this.first = grow(this.first, capacity, NONE);
    this.last = grow(this.last, capacity, NONE);
  }
}

type Typed = Int32Array | Uint32Array | Float64Array | Uint8Array | Int8Array;

/** A copy of a typed array with room for `capacity` values, the new ones `fill` (or 0). */
export function grow<T extends Typed>(array: T, capacity: number, fill?: number): T {
  const next = new (array.constructor as new (length: number) => T)(capacity);
  next.set(array);
  if (fill !== undefined) next.fill(fill, array.length);
  return next;
}
