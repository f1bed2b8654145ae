// The insight expression language (README "Insight expressions"): what `expression` and `response` of an insight
// (resource 9) are written in. Parsed once into a tree (pure); evaluate.ts runs the tree over a conversation.
//
//   thank you for calling           bare words in a row: one phrase, said in that order within one utterance
//   "thank you for calling"         the same, quoted (a quoted phrase may hold AND/OR/NOT as words)
//   pay*  *ment  colo?r  *          wildcards inside a word: * any letters, ? one letter; * alone: any one word
//   #                               any number, said or written ("five hundred", "500")
//   500 dollars                     numbers match however they were said: "five hundred dollars" matches
//   a AND b   a OR b   NOT a         anywhere in the conversation (AND binds tighter than OR; NOT tightest)
//   a NEAR/5 b                      a and b at most 5 words apart (either order, across utterances)
//   agent:(...)  caller:(...)       said by that side (speaker0: / speaker1: ... on a mono recording)
//   "goodbye"[-60,]  hello[,30]     said within a time window: seconds from the start, negative from the end
//   ( ... )                         grouping
// Operators are upper case: "and", "or", "not" in lower case are words (ASR text is lower case).

export type Speaker = { role: 'agent' | 'caller' } | { speaker: number };

export type ExprNode =
  | { kind: 'phrase'; words: string[]; position: number }
  | { kind: 'and' | 'or'; left: ExprNode; right: ExprNode }
  | { kind: 'not'; operand: ExprNode }
  | { kind: 'near'; left: ExprNode; right: ExprNode; distance: number }
  | { kind: 'speaker'; who: Speaker; operand: ExprNode }
  | { kind: 'time'; from?: number; to?: number; operand: ExprNode };

/** A refusal naming the problem and where it is (0-based character position in the expression). */
export class ExpressionError extends Error {
  constructor(
    readonly problem: string,
    readonly position: number,
  ) {
    super(`${problem} at position ${position}`);
  }
}

export const MAX_EXPRESSION_CHARS = 2000;
export const MAX_NEAR_DISTANCE = 1000;
const MAX_DEPTH = 50;

type Token =
  | { type: 'word'; text: string; position: number }
  | { type: 'quoted'; words: string[]; position: number }
  | { type: '(' | ')' | 'AND' | 'OR' | 'NOT'; position: number }
  | { type: 'NEAR'; distance: number; position: number }
  | { type: 'speaker'; who: Speaker; position: number }
  | { type: 'time'; from?: number; to?: number; position: number };

const SPECIAL = /[\s()"[\]]/;

/** A word as matched: lower case, ASR-like (punctuation other than wildcards, # and digits' separators dropped). */
export function normalizeWord(word: string): string {
  return word
    .toLowerCase()
    .replace(/[^\p{L}\p{N}*?#'_\-[\]]/gu, '')
    .replace(/^'+|'+$/g, '');
}

function wordsOf(text: string): string[] {
  return text.split(/\s+/).map(normalizeWord).filter(Boolean);
}

function speakerOf(name: string): Speaker | undefined {
  const lower = name.toLowerCase();
  if (lower === 'agent') return { role: 'agent' };
  if (lower === 'caller' || lower === 'customer') return { role: 'caller' };
  const m = /^speaker(\d{1,3})$/.exec(lower);
  return m ? { speaker: Number(m[1]) } : undefined;
}

function timeBound(text: string, position: number): number | undefined {
  const t = text.trim();
  if (t === '') return undefined;
  if (!/^-?\d+(\.\d+)?$/.test(t)) throw new ExpressionError(`time bound "${t}" is not a number of seconds`, position);
  return Number(t);
}

function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < source.length) {
    const c = source[i];
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (c === '(' || c === ')') {
      tokens.push({ type: c, position: i });
      i++;
      continue;
    }
    if (c === '"') {
      const close = source.indexOf('"', i + 1);
      if (close < 0) throw new ExpressionError('unclosed quote', i);
      const words = wordsOf(source.slice(i + 1, close));
      if (words.length === 0) throw new ExpressionError('empty quoted phrase', i);
      tokens.push({ type: 'quoted', words, position: i });
      i = close + 1;
      continue;
    }
    if (c === '[') {
      const close = source.indexOf(']', i + 1);
      if (close < 0) throw new ExpressionError('unclosed time window "["', i);
      const inside = source.slice(i + 1, close);
      const parts = inside.split(',');
      if (parts.length !== 2) throw new ExpressionError('a time window is [from,to] in seconds (either may be left out)', i);
      const from = timeBound(parts[0], i + 1);
      const to = timeBound(parts[1], i + 2 + parts[0].length);
      if (from === undefined && to === undefined) throw new ExpressionError('a time window needs from or to', i);
      if (from !== undefined && to !== undefined && Math.sign(from) === Math.sign(to) && to < from) throw new ExpressionError('time window ends before it starts', i);
      tokens.push({ type: 'time', ...(from !== undefined && { from }), ...(to !== undefined && { to }), position: i });
      i = close + 1;
      continue;
    }
    if (c === ']') throw new ExpressionError('"]" without "["', i);
    let j = i;
    while (j < source.length && !SPECIAL.test(source[j])) j++;
    // A speaker prefix ends at its colon: agent:"..." and agent:word both start with it.
    const colon = source.slice(i, j).indexOf(':');
    if (colon > 0) j = i + colon + 1;
    const text = source.slice(i, j);
    if (text === 'AND' || text === 'OR' || text === 'NOT') tokens.push({ type: text, position: i });
    else if (text.startsWith('NEAR')) {
      const m = /^NEAR\/(\d+)$/.exec(text);
      if (!m) throw new ExpressionError('NEAR needs a word distance, as in NEAR/5', i);
      const distance = Number(m[1]);
      if (distance > MAX_NEAR_DISTANCE) throw new ExpressionError(`NEAR distance over ${MAX_NEAR_DISTANCE} words`, i);
      tokens.push({ type: 'NEAR', distance, position: i });
    } else if (text.endsWith(':')) {
      const who = speakerOf(text.slice(0, -1));
      if (!who) throw new ExpressionError(`unknown speaker "${text.slice(0, -1)}" (agent, caller, speaker0, speaker1, ...)`, i);
      tokens.push({ type: 'speaker', who, position: i });
    } else {
      const word = normalizeWord(text);
      if (!word) throw new ExpressionError(`"${text}" is not a word`, i);
      tokens.push({ type: 'word', text: word, position: i });
    }
    i = j;
  }
  return tokens;
}

class Parser {
  private at = 0;
  private depth = 0;
  constructor(
    private readonly tokens: Token[],
    private readonly length: number,
  ) {}

  private peek(): Token | undefined {
    return this.tokens[this.at];
  }

  private where(): number {
    return this.peek()?.position ?? this.length;
  }

  parse(): ExprNode {
    if (this.tokens.length === 0) throw new ExpressionError('empty expression', 0);
    const node = this.or();
    const rest = this.peek();
    if (rest) throw new ExpressionError(rest.type === ')' ? 'unbalanced ")"' : `expected AND, OR or NEAR/n before ${describe(rest)}`, rest.position);
    return node;
  }

  private or(): ExprNode {
    let left = this.and();
    while (this.peek()?.type === 'OR') {
      this.at++;
      left = { kind: 'or', left, right: this.and() };
    }
    return left;
  }

  private and(): ExprNode {
    let left = this.near();
    while (this.peek()?.type === 'AND') {
      this.at++;
      left = { kind: 'and', left, right: this.near() };
    }
    return left;
  }

  private near(): ExprNode {
    let left = this.unary();
    let t = this.peek();
    while (t?.type === 'NEAR') {
      this.at++;
      left = { kind: 'near', left, right: this.unary(), distance: t.distance };
      t = this.peek();
    }
    return left;
  }

  private unary(): ExprNode {
    const t = this.peek();
    if (!t) throw new ExpressionError('expression ends where a phrase was expected', this.length);
    if (++this.depth > MAX_DEPTH) throw new ExpressionError(`nested more than ${MAX_DEPTH} deep`, t.position);
    try {
      if (t.type === 'NOT') {
        this.at++;
        return { kind: 'not', operand: this.unary() };
      }
      if (t.type === 'speaker') {
        this.at++;
        return { kind: 'speaker', who: t.who, operand: this.unary() };
      }
      return this.timed(this.primary());
    } finally {
      this.depth--;
    }
  }

  private timed(node: ExprNode): ExprNode {
    let out = node;
    let t = this.peek();
    while (t?.type === 'time') {
      this.at++;
      out = { kind: 'time', ...(t.from !== undefined && { from: t.from }), ...(t.to !== undefined && { to: t.to }), operand: out };
      t = this.peek();
    }
    return out;
  }

  private primary(): ExprNode {
    const t = this.peek()!;
    if (t.type === '(') {
      this.at++;
      if (this.peek()?.type === ')') throw new ExpressionError('empty parentheses', t.position);
      const inner = this.or();
      if (this.peek()?.type !== ')') throw new ExpressionError('"(" is not closed', t.position);
      this.at++;
      return inner;
    }
    if (t.type === 'quoted') {
      this.at++;
      return { kind: 'phrase', words: t.words, position: t.position };
    }
    if (t.type === 'word') {
      const words: string[] = [];
      let w = this.peek();
      while (w?.type === 'word') {
        words.push(w.text);
        this.at++;
        w = this.peek();
      }
      return { kind: 'phrase', words, position: t.position };
    }
    throw new ExpressionError(`expected a phrase, "(", NOT or a speaker, found ${describe(t)}`, t.position);
  }
}

function describe(t: Token): string {
  switch (t.type) {
    case 'word':
      return `"${t.text}"`;
    case 'quoted':
      return 'a quoted phrase';
    case 'NEAR':
      return `NEAR/${t.distance}`;
    case 'speaker':
      return 'a speaker';
    case 'time':
      return 'a time window';
    default:
      return `"${t.type}"`;
  }
}

/** The tree of an expression; throws ExpressionError naming the problem and its position. */
export function parseExpression(source: string): ExprNode {
  if (source.length > MAX_EXPRESSION_CHARS) throw new ExpressionError(`expression longer than ${MAX_EXPRESSION_CHARS} characters`, MAX_EXPRESSION_CHARS);
  return new Parser(tokenize(source), source.length).parse();
}
