// An expression tree (expression.ts) run over a conversation: every place it matches (hits: line, words, time,
// speaker). Words are compared as normalizeWord gives them, after spoken numbers were turned into digits
// (transcript/numtrans.ts) on both sides, so "five hundred" and "500" are the same; digit words "five" and "5"
// too. Pure; linear in the conversation per phrase word (a wildcard is tried once per distinct word, on RE2);
// NEAR is a sort and a binary search per hit, never a pass over pairs of hits.
import RE2 from 're2';
import { numtrans } from '../../transcript/numtrans.js';
import type { Conversation, ConversationUtterance } from '../types.js';
import { normalizeWord, type ExprNode } from './expression.js';

export interface Hit {
  line: number;
  speaker: number;
  /** Token positions in the line (to exclusive). */
  from: number;
  to: number;
  start: number;
  end: number;
  /** The words matched, as the (redacted) conversation has them. */
  text: string;
}

export interface Outcome {
  matched: boolean;
  hits: Hit[];
}

interface LineTokens {
  utterance: ConversationUtterance;
  keys: string[];
  numbers: boolean[];
  /** Per token, the first and last index in utterance.words. */
  firstWord: number[];
  lastWord: number[];
  /** Position of the line's first token in the whole conversation (NEAR distances cross utterances). */
  offset: number;
}

const DIGITS: Record<string, string> = { zero: '0', one: '1', two: '2', three: '3', four: '4', five: '5', six: '6', seven: '7', eight: '8', nine: '9' };
const key = (text: string) => DIGITS[text] ?? text;

/** A conversation prepared for matching: its tokens per line. Build once, evaluate many expressions. */
export class MatchIndex {
  readonly lines: LineTokens[];
  readonly duration: number;
  /** Every word of the conversation once (as keyed): what a wildcard is tried against. */
  readonly distinctKeys = new Set<string>();
  /** Wildcard terms made so far (termOf). */
  readonly terms = new Map<string, Term>();

  constructor(readonly conversation: Conversation, duration?: number) {
    let offset = 0;
    this.lines = conversation.utterances.map((utterance) => {
      const flat: { word: string; index: number }[] = [];
      utterance.words.forEach((w, index) => {
        for (const part of w.text.split(/\s+/)) {
          const word = normalizeWord(part);
          if (word) flat.push({ word, index });
        }
      });
      const tokens = numtrans(flat.map((f) => f.word)).tokens;
      const line: LineTokens = {
        utterance,
        keys: tokens.map((t) => key(t.text)),
        numbers: tokens.map((t) => t.isNumber || /^\d+$/.test(t.text)),
        firstWord: tokens.map((t) => flat[t.wordIndices[0]].index),
        lastWord: tokens.map((t) => flat[t.wordIndices[t.wordIndices.length - 1]].index),
        offset,
      };
      offset += tokens.length;
      for (const k of line.keys) this.distinctKeys.add(k);
      return line;
    });
    this.duration = duration ?? conversation.utterances.reduce((m, u) => Math.max(m, u.end), 0);
  }
}

/** What a phrase's word matches: every word, numbers, or the words (keys) of the conversation it matches. */
type Term = { any: true } | { number: true } | { keys: ReadonlySet<string> } | { key: string };

/**
 * A phrase's word as a term of this conversation, made once per index: a wildcard is tried once against each
 * distinct word of the conversation (never once per word said, nor per pair of words).
 */
function termOf(index: MatchIndex, word: string): Term {
  if (word === '*') return { any: true };
  if (word === '#') return { number: true };
  if (!/[*?]/.test(word)) return { key: word };
  const known = index.terms.get(word);
  if (known) return known;
  const source = word.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.');
  const re = new RE2(`^${source}$`, 'u');
  const keys = new Set<string>();
  for (const k of index.distinctKeys) if (re.test(k)) keys.add(k);
  const term = { keys };
  index.terms.set(word, term);
  return term;
}

function matches(term: Term, line: LineTokens, i: number): boolean {
  if ('key' in term) return line.keys[i] === term.key;
  if ('keys' in term) return term.keys.has(line.keys[i]);
  if ('number' in term) return line.numbers[i];
  return true;
}

/** A phrase's words as the conversation's tokens are keyed: spoken numbers to digits, wildcards kept. */
function phraseKeys(words: readonly string[]): string[] {
  return numtrans(words).tokens.map((t) => key(t.text));
}

export interface Scope {
  /** Lines the search may look at (undefined: all). */
  lines?: ReadonlySet<number>;
  speaker?: (u: ConversationUtterance) => boolean;
  from?: number;
  to?: number;
}

function hitOf(line: LineTokens, from: number, to: number): Hit {
  const words = line.utterance.words.slice(line.firstWord[from], line.lastWord[to - 1] + 1);
  return {
    line: line.utterance.line,
    speaker: line.utterance.speaker,
    from,
    to,
    start: words[0].start,
    end: words.reduce((m, w) => Math.max(m, w.end), words[0].end),
    text: words.map((w) => w.text).join(' '),
  };
}

function phrase(index: MatchIndex, words: readonly string[], scope: Scope): Hit[] {
  const terms = phraseKeys(words).map((w) => termOf(index, w));
  const hits: Hit[] = [];
  // A line scope (a response's few lines) is walked itself, not found among all the lines.
  const lines = scope.lines ? [...scope.lines].sort((a, b) => a - b).flatMap((l) => index.lines[l] ?? []) : index.lines;
  for (const line of lines) {
    if (scope.speaker && !scope.speaker(line.utterance)) continue;
    for (let i = 0; i + terms.length <= line.keys.length; i++) {
      let ok = true;
      for (let k = 0; k < terms.length && ok; k++) ok = matches(terms[k], line, i + k);
      if (!ok) continue;
      const hit = hitOf(line, i, i + terms.length);
      if (scope.from !== undefined && hit.start < scope.from - 1e-9) continue;
      if (scope.to !== undefined && hit.end > scope.to + 1e-9) continue;
      hits.push(hit);
    }
  }
  return hits;
}

/** A hit's token span in the whole conversation (NEAR counts words across utterances). */
const span = (index: MatchIndex, hit: Hit) => {
  const offset = index.lines[hit.line].offset;
  return { start: offset + hit.from, end: offset + hit.to };
};

/**
 * The hits of `a` within `distance` words of some hit of `b`: b sorted by start once, with the furthest end
 * reached so far, then one binary search per hit of a. O((a + b) log b), whatever the distance and however
 * many hits each side has (a `*` has one per word).
 */
function touching(index: MatchIndex, a: readonly Hit[], b: readonly Hit[], distance: number): Hit[] {
  const others = b.map((h) => span(index, h)).sort((x, y) => x.start - y.start);
  const furthest: number[] = [];
  for (const o of others) furthest.push(Math.max(o.end, furthest.at(-1) ?? -Infinity));
  return a.filter((hit) => {
    const x = span(index, hit);
    // Gap within distance <=> y.start - x.end <= distance and x.start - y.end <= distance.
    let lo = 0;
    let hi = others.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (others[mid].start - x.end <= distance) lo = mid + 1;
      else hi = mid;
    }
    return lo > 0 && x.start - furthest[lo - 1] <= distance;
  });
}

/** Hits of either side with a hit of the other side within `distance` words (either order). */
function near(index: MatchIndex, a: Hit[], b: Hit[], distance: number): Hit[] {
  return [...new Set([...touching(index, a, b, distance), ...touching(index, b, a, distance)])];
}

const narrowTime = (scope: Scope, from: number | undefined, to: number | undefined, duration: number): Scope => {
  const abs = (t: number) => (t < 0 ? duration + t : t);
  const f = from === undefined ? undefined : abs(from);
  const t = to === undefined ? undefined : abs(to);
  return { ...scope, from: f === undefined ? scope.from : Math.max(f, scope.from ?? f), to: t === undefined ? scope.to : Math.min(t, scope.to ?? t) };
};

export function evaluate(node: ExprNode, index: MatchIndex, scope: Scope = {}): Outcome {
  switch (node.kind) {
    case 'phrase': {
      const hits = phrase(index, node.words, scope);
      return { matched: hits.length > 0, hits };
    }
    case 'and': {
      const l = evaluate(node.left, index, scope);
      if (!l.matched) return { matched: false, hits: [] };
      const r = evaluate(node.right, index, scope);
      return r.matched ? { matched: true, hits: [...l.hits, ...r.hits] } : { matched: false, hits: [] };
    }
    case 'or': {
      const l = evaluate(node.left, index, scope);
      const r = evaluate(node.right, index, scope);
      return { matched: l.matched || r.matched, hits: [...l.hits, ...r.hits] };
    }
    case 'not':
      return { matched: !evaluate(node.operand, index, scope).matched, hits: [] };
    case 'near': {
      const l = evaluate(node.left, index, scope);
      const r = evaluate(node.right, index, scope);
      const hits = l.matched && r.matched ? near(index, l.hits, r.hits, node.distance) : [];
      return { matched: hits.length > 0, hits };
    }
    case 'speaker': {
      const who = node.who;
      const test = (u: ConversationUtterance) => ('role' in who ? u.role === who.role : u.speaker === who.speaker);
      const outer = scope.speaker;
      return evaluate(node.operand, index, { ...scope, speaker: outer ? (u) => outer(u) && test(u) : test });
    }
    case 'time':
      return evaluate(node.operand, index, narrowTime(scope, node.from, node.to, index.duration));
  }
}

/** Distinct hits in conversation order (a hit found by two branches counted once). */
export function distinctHits(hits: readonly Hit[]): Hit[] {
  const seen = new Map<string, Hit>();
  for (const h of hits) seen.set(`${h.line}:${h.from}:${h.to}`, h);
  return [...seen.values()].sort((a, b) => a.start - b.start || a.line - b.line || a.from - b.from);
}

export { narrowTime };
