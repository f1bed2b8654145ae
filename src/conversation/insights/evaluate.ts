// An expression tree (expression.ts) run over a conversation: every place it matches (hits: line, words, time,
// speaker). Words are compared as normalizeWord gives them, after spoken numbers were turned into digits
// (transcript/numtrans.ts) on both sides, so "five hundred" and "500" are the same; digit words "five" and "5"
// too. Pure; linear in the conversation per phrase (wildcards run on RE2).
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
      return line;
    });
    this.duration = duration ?? conversation.utterances.reduce((m, u) => Math.max(m, u.end), 0);
  }
}

/** What a phrase's word matches. */
type WordTest = (key: string, isNumber: boolean) => boolean;

const testCache = new Map<string, WordTest>();

function wordTest(word: string): WordTest {
  const cached = testCache.get(word);
  if (cached) return cached;
  let test: WordTest;
  if (word === '*') test = () => true;
  else if (word === '#') test = (_k, isNumber) => isNumber;
  else if (/[*?]/.test(word)) {
    const source = word.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.');
    const re = new RE2(`^${source}$`, 'u');
    test = (k) => re.test(k);
  } else test = (k) => k === word;
  if (testCache.size > 10_000) testCache.clear();
  testCache.set(word, test);
  return test;
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
  const tests = phraseKeys(words).map(wordTest);
  const hits: Hit[] = [];
  for (const line of index.lines) {
    if (scope.lines && !scope.lines.has(line.utterance.line)) continue;
    if (scope.speaker && !scope.speaker(line.utterance)) continue;
    for (let i = 0; i + tests.length <= line.keys.length; i++) {
      let ok = true;
      for (let k = 0; k < tests.length && ok; k++) ok = tests[k](line.keys[i + k], line.numbers[i + k]);
      if (!ok) continue;
      const hit = hitOf(line, i, i + tests.length);
      if (scope.from !== undefined && hit.start < scope.from - 1e-9) continue;
      if (scope.to !== undefined && hit.end > scope.to + 1e-9) continue;
      hits.push(hit);
    }
  }
  return hits;
}

const position = (index: MatchIndex, hit: Hit) => index.lines[hit.line].offset;

function near(index: MatchIndex, a: Hit[], b: Hit[], distance: number): Hit[] {
  const used = new Set<Hit>();
  for (const x of a) {
    for (const y of b) {
      const xs = position(index, x) + x.from;
      const xe = position(index, x) + x.to;
      const ys = position(index, y) + y.from;
      const ye = position(index, y) + y.to;
      const gap = ys >= xe ? ys - xe : xs >= ye ? xs - ye : 0;
      if (gap <= distance) {
        used.add(x);
        used.add(y);
      }
    }
  }
  return [...used];
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
