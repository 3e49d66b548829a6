// A full-text question as the database normalises it (websearch_to_tsquery's tsquery, as text), taken
// apart into the pieces the database answers one at a time (a word, a phrase) and the boolean tree
// that joins them, which is evaluated here over sets of record ids. A piece's ids are read once per
// index version and serve every question that uses it: "kubernetes terraform" and "kubernetes -intern"
// read the rows of 'kubernet' once. A phrase is a piece of its own: only the database knows where
// in a text a word stands.

/** A normalised full-text question: a piece the database answers, or pieces joined as tsquery joins them. */
export type QueryTree =
  | { readonly op: 'piece'; readonly text: string }
  | { readonly op: 'and' | 'or'; readonly args: readonly QueryTree[] }
  | { readonly op: 'not'; readonly arg: QueryTree };

/** The piece standing for every row: what a question without a positive word (`-intern`) is taken from. */
export const EVERY_ROW = '';

class Tokens {
  private at = 0;
  constructor(private readonly text: string) {}

  private skipSpace(): void {
    while (this.at < this.text.length && this.text[this.at] === ' ') this.at++;
  }

  peek(): string | undefined {
    this.skipSpace();
    if (this.at >= this.text.length) return undefined;
    const ch = this.text[this.at]!;
    if (ch === '<') return this.text.slice(this.at, this.text.indexOf('>', this.at) + 1);
    return ch;
  }

  take(token: string): void {
    if (this.peek() !== token) throw new SyntaxError(`tsquery ${JSON.stringify(this.text)}: expected ${token} at ${this.at}`);
    this.at += token.length;
  }

  /** A quoted lexeme with its suffix (`:*`, weights), as written: it is given back to the database as is. */
  lexeme(): string {
    this.skipSpace();
    const start = this.at;
    if (this.text[this.at] !== "'") throw new SyntaxError(`tsquery ${JSON.stringify(this.text)}: expected a lexeme at ${start}`);
    this.at++;
    for (;;) {
      const quote = this.text.indexOf("'", this.at);
      if (quote < 0) throw new SyntaxError(`tsquery ${JSON.stringify(this.text)}: unterminated lexeme at ${start}`);
      this.at = quote + 1;
      if (this.text[this.at] === "'") this.at++;
      else break;
    }
    if (this.text[this.at] === ':') while (this.at < this.text.length && /[:*A-Da-d]/.test(this.text[this.at]!)) this.at++;
    return this.text.slice(start, this.at);
  }
}

/**
 * The tree of a tsquery as PostgreSQL prints it. Precedence, tightest first: `!`, the phrase
 * operators (`<->`, `<N>`), `&`, `|`. A phrase, with whatever it holds, is one piece, printed back
 * fully parenthesised.
 */
export function parseTsQuery(text: string): QueryTree | null {
  const tokens = new Tokens(text);
  if (tokens.peek() === undefined) return null;
  const tree = parseOr(tokens);
  if (tokens.peek() !== undefined) throw new SyntaxError(`tsquery ${JSON.stringify(text)}: unexpected ${tokens.peek()}`);
  return tree;
}

function parseOr(tokens: Tokens): QueryTree {
  return parseJoined(tokens, '|', 'or', parseAnd);
}

function parseAnd(tokens: Tokens): QueryTree {
  return parseJoined(tokens, '&', 'and', parsePhrase);
}

/** Operands joined by one operator (`|` or `&`): one node for the run, or the operand alone. */
function parseJoined(tokens: Tokens, token: string, op: 'and' | 'or', operand: (tokens: Tokens) => QueryTree): QueryTree {
  const args = [operand(tokens)];
  while (tokens.peek() === token) {
    tokens.take(token);
    args.push(operand(tokens));
  }
  return args.length === 1 ? args[0]! : { op, args };
}

/** A phrase (operands joined by `<->` or `<N>`) is one piece: its text, parenthesised as it binds. */
function parsePhrase(tokens: Tokens): QueryTree {
  const first = parseUnary(tokens);
  let text: string | null = null;
  for (let next = tokens.peek(); next !== undefined && next.startsWith('<'); next = tokens.peek()) {
    tokens.take(next);
    const operand = parseUnary(tokens);
    text = `( ${text ?? pieceText(first)} ${next} ${pieceText(operand)} )`;
  }
  return text === null ? first : { op: 'piece', text };
}

function parseUnary(tokens: Tokens): QueryTree {
  const next = tokens.peek();
  if (next === '!') {
    tokens.take('!');
    return { op: 'not', arg: parseUnary(tokens) };
  }
  if (next === '(') {
    tokens.take('(');
    const inner = parseOr(tokens);
    tokens.take(')');
    return inner;
  }
  return { op: 'piece', text: tokens.lexeme() };
}

/** A tree as tsquery text, fully parenthesised: how an operand of a phrase is given to the database. */
function pieceText(tree: QueryTree): string {
  switch (tree.op) {
    case 'piece':
      return tree.text;
    case 'not':
      return `!${pieceText(tree.arg)}`;
    default:
      return `( ${tree.args.map(pieceText).join(tree.op === 'and' ? ' & ' : ' | ')} )`;
  }
}

/** The pieces the tree needs read, each once; EVERY_ROW when some part of it is a negation standing alone. */
export function piecesOf(tree: QueryTree): string[] {
  const pieces = new Set<string>();
  const visit = (node: QueryTree, positiveSibling: boolean): void => {
    switch (node.op) {
      case 'piece':
        pieces.add(node.text);
        break;
      case 'not':
        if (!positiveSibling) pieces.add(EVERY_ROW);
        visit(node.arg, false);
        break;
      case 'or':
        for (const arg of node.args) visit(arg, false);
        break;
      case 'and': {
        const positive = node.args.some((arg) => arg.op !== 'not');
        for (const arg of node.args) visit(arg, positive);
        break;
      }
    }
  };
  visit(tree, false);
  return [...pieces];
}

/** Bit `id` set for each id: a set of record ids, as the filter index's `ids` term takes it. */
export type IdSet = Uint32Array;

/**
 * A piece's ids as kept between questions: a bitset, or the ids themselves (ascending, 4 bytes
 * each) when fewer than one in 32 of the bitset's range are set, as for most words of job
 * descriptions (a place, a tool), so that many more pieces fit in the same memory.
 */
export type KeptIds = { readonly bits: IdSet } | { readonly list: Uint32Array };

/**
 * The ids of a comma-separated list of decimal ids (string_agg's output; null for no rows), as
 * kept. Read by hand: a common word lists a few hundred thousand ids.
 */
export function keptIdsOfList(list: string | null): KeptIds {
  if (list === null || list === '') return { list: new Uint32Array(0) };
  const ids: number[] = [];
  let max = 0;
  let value = 0;
  for (let i = 0; i <= list.length; i++) {
    const code = i < list.length ? list.charCodeAt(i) : 44;
    if (code === 44) {
      ids.push(value);
      if (value > max) max = value;
      value = 0;
    } else value = value * 10 + (code - 48);
  }
  if (max >= 2 ** 32) throw new RangeError(`record id ${max} is past what an id set holds (2^32)`);
  const words = (max >>> 5) + 1;
  if (ids.length < words) return { list: Uint32Array.from(ids).sort() };
  const bits = new Uint32Array(words);
  for (const id of ids) bits[id >>> 5]! |= 1 << (id & 31);
  return { bits };
}

/** What a kept piece takes in memory. */
export const keptBytes = (kept: KeptIds): number => ('bits' in kept ? kept.bits.byteLength : kept.list.byteLength);

/** A kept piece as a bitset. */
export function bitsOf(kept: KeptIds): IdSet {
  if ('bits' in kept) return kept.bits;
  const { list } = kept;
  const bits = new Uint32Array(list.length === 0 ? 0 : (list[list.length - 1]! >>> 5) + 1);
  for (const id of list) bits[id >>> 5]! |= 1 << (id & 31);
  return bits;
}

function and(a: IdSet, b: IdSet): IdSet {
  const out = new Uint32Array(Math.min(a.length, b.length));
  for (let i = 0; i < out.length; i++) out[i] = a[i]! & b[i]!;
  return out;
}

function or(a: IdSet, b: IdSet): IdSet {
  const [long, short] = a.length >= b.length ? [a, b] : [b, a];
  const out = long.slice();
  for (let i = 0; i < short.length; i++) out[i]! |= short[i]!;
  return out;
}

function andNot(a: IdSet, b: IdSet): IdSet {
  const out = a.slice();
  for (let i = 0; i < Math.min(a.length, b.length); i++) out[i]! &= ~b[i]!;
  return out;
}

/**
 * The ids the tree holds for, from each piece's ids (`pieces`, with EVERY_ROW when piecesOf asked
 * for it). `a & !b` is a's rows without b's; a negation standing alone is every row without its own.
 */
export function evaluate(tree: QueryTree, pieces: ReadonlyMap<string, IdSet>): IdSet {
  const of = (text: string): IdSet => {
    const set = pieces.get(text);
    if (set === undefined) throw new Error(`full-text piece ${JSON.stringify(text)} not read`);
    return set;
  };
  const visit = (node: QueryTree): IdSet => {
    switch (node.op) {
      case 'piece':
        return of(node.text);
      case 'not':
        return andNot(of(EVERY_ROW), visit(node.arg));
      case 'or':
        return node.args.map(visit).reduce(or);
      case 'and': {
        const positive = node.args.filter((arg) => arg.op !== 'not');
        if (positive.length === 0) return node.args.map(visit).reduce(and);
        const kept = positive.map(visit).reduce(and);
        const dropped = node.args.flatMap((arg) => (arg.op === 'not' ? [visit(arg.arg)] : []));
        return dropped.reduce(andNot, kept);
      }
    }
  };
  return visit(tree);
}
