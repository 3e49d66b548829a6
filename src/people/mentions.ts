// The mentions of people, kept as numbers: one slot per mention (a person named by a row) in typed
// columns, chained per person and per row, with a free list for the slots of removed rows. Millions
// of mentions cost a few dozen bytes each and give the collector nothing to trace: no object per
// mention, and the strings a mention needs to be served are read again from its row when served.

/** A string table: each distinct string once, by a small number. */
export class Strings {
  readonly values: string[] = [];
  private readonly codes = new Map<string, number>();

  /** The code of a string (-1 for null). */
  code(value: string | null): number {
    if (value === null) return -1;
    let code = this.codes.get(value);
    if (code === undefined) {
      code = this.values.length;
      this.values.push(value);
      this.codes.set(value, code);
    }
    return code;
  }

  /** The string of a code (null for -1). */
  value(code: number): string | null {
    return code < 0 ? null : this.values[code]!;
  }

  clear(): void {
    this.values.length = 0;
    this.codes.clear();
  }
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

type Typed = Int32Array | Float64Array | Uint8Array;

function grow<T extends Typed>(array: T, capacity: number, fill?: number): T {
  const next = new (array.constructor as new (length: number) => T)(capacity);
  next.set(array);
  if (fill !== undefined) next.fill(fill, array.length);
  return next;
}
