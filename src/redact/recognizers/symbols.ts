// Letters and digits said one by one, as callers read out codes, names and postcodes: single letters ("s m i t h"),
// the NATO alphabet ("sierra mike"), "s as in sam" / "s for sam" / "s like sam", "double l", digit words and
// spoken numbers (numtrans tokens: "eighty two" is 82). Runs of such symbols are read over the doc's tokens, across
// fillers ("uh", "dash", "space"), each symbol keeping the words it came from. Shared by the spelled-name,
// postcode and IBAN recognizers; computed once per doc.
import type { Doc } from './doc.js';
import { digitsOf } from './digitRuns.js';

export interface Symbol {
  /** Lower-case letters or digits. */
  chars: string;
  kind: 'letter' | 'digit';
  /** How the letter was said: a single letter, a NATO word, "x as in y", a letter name. */
  how: 'single' | 'nato' | 'as-in' | 'double';
  wordStart: number;
  wordEnd: number;
}

export interface SymbolRun {
  symbols: Symbol[];
  wordStart: number;
  wordEnd: number;
}

export const NATO: Record<string, string> = {
  alpha: 'a', alfa: 'a', bravo: 'b', charlie: 'c', delta: 'd', echo: 'e', foxtrot: 'f', golf: 'g', hotel: 'h',
  india: 'i', juliet: 'j', juliett: 'j', kilo: 'k', lima: 'l', mike: 'm', november: 'n', oscar: 'o', papa: 'p',
  quebec: 'q', romeo: 'r', sierra: 's', tango: 't', uniform: 'u', victor: 'v', whiskey: 'w', whisky: 'w', 'x-ray': 'x',
  xray: 'x', yankee: 'y', zulu: 'z',
};
/** Words between symbols that do not end a run. */
const FILLERS = new Set(['uh', 'um', 'er', 'erm', 'ah', 'dash', 'hyphen', 'space', 'then']);
const AS_IN = new Set(['as', 'for', 'like']);

/** Every word of more than one letter that can say a symbol. */
const SYMBOL_WORDS = new Set([...Object.keys(NATO), 'double', 'triple', 'zero', 'oh', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine']);

const single = (w: string | undefined) => w !== undefined && /^[a-z]$/.test(w);

/** What makes a symbol of token `tok` ending before token `end` (a function made per call, not a closure named per call). */
function symbolMaker(doc: Doc, tok: Doc['tokens'][number]): (chars: string, kind: Symbol['kind'], how: Symbol['how'], end: number) => Symbol {
  return (chars, kind, how, end) => ({ chars, kind, how, wordStart: tok.wordStart, wordEnd: doc.tokens[end - 1].wordEnd });
}

/** The symbol (or symbols, for "double x") starting at token index t, and the token index after it. */
function symbolAt(doc: Doc, t: number): { symbols: Symbol[]; next: number } | undefined {
  const tok = doc.tokens[t];
  if (!tok) return undefined;
  // Fast path: most tokens are words that say no symbol.
  if (!tok.isNumber && tok.text.length > 1 && !SYMBOL_WORDS.has(tok.text) && !SYMBOL_WORDS.has(tok.text.toLowerCase())) return undefined;
  const w = tok.text.toLowerCase();
  const at = symbolMaker(doc, tok);
  if (tok.isNumber) return { symbols: [at(tok.text, 'digit', 'single', t + 1)], next: t + 1 };
  // "o" is read as the letter (a spelled name); consumers that want a digit there accept it (see ohAsZero)
  const digit = w === 'o' ? undefined : digitsOf(tok, true);
  if (digit !== undefined) return { symbols: [at(digit, 'digit', 'single', t + 1)], next: t + 1 };
  if (w === 'double' || w === 'triple') {
    const inner = symbolAt(doc, t + 1);
    const s = inner?.symbols[0];
    if (!s || inner.symbols.length !== 1 || s.chars.length !== 1) return undefined;
    const n = w === 'double' ? 2 : 3;
    return { symbols: [at(s.chars.repeat(n), s.kind, 'double', inner.next)], next: inner.next };
  }
  if (single(w)) {
    // "s as in sam", "s for sam", "s like sam": the example word must start with the letter
    const link = doc.tokens[t + 1]?.text.toLowerCase();
    if (link && AS_IN.has(link)) {
      const k = link === 'as' && doc.tokens[t + 2]?.text.toLowerCase() === 'in' ? t + 3 : t + 2;
      const example = doc.tokens[k]?.text.toLowerCase() ?? '';
      if (example.length > 1 && example[0] === w && /^\p{L}+$/u.test(example)) return { symbols: [at(w, 'letter', 'as-in', k + 1)], next: k + 1 };
    }
    return { symbols: [at(w, 'letter', 'single', t + 1)], next: t + 1 };
  }
  if (Object.hasOwn(NATO, w)) return { symbols: [at(NATO[w], 'letter', 'nato', t + 1)], next: t + 1 };
  return undefined;
}

const cache = new WeakMap<Doc, SymbolRun[]>();

/** Every run of two or more symbols (one alone is too common a word to read as a code). */
export function symbolRuns(doc: Doc): SymbolRun[] {
  const hit = cache.get(doc);
  if (hit) return hit;
  const runs: SymbolRun[] = [];
  let t = 0;
  while (t < doc.tokens.length) {
    const first = symbolAt(doc, t);
    if (!first) {
      t++;
      continue;
    }
    const symbols = [...first.symbols];
    let next = first.next;
    for (;;) {
      let k = next;
      while (k < doc.tokens.length && FILLERS.has(doc.tokens[k].text.toLowerCase()) && k - next < 2) k++;
      const s = symbolAt(doc, k);
      if (!s) break;
      symbols.push(...s.symbols);
      next = s.next;
    }
    if (symbols.length >= 2) runs.push({ symbols, wordStart: symbols[0].wordStart, wordEnd: symbols[symbols.length - 1].wordEnd });
    t = next;
  }
  cache.set(doc, runs);
  return runs;
}

/** The symbols' characters joined ("sw1a1aa"). */
export const charsOf = (symbols: readonly Symbol[]): string => symbols.map((s) => s.chars).join('');

/** The same characters with every letter o read as a zero (said "o" where a digit belongs). */
export const ohAsZero = (chars: string): string => chars.replace(/o/g, '0');

const byWord = new WeakMap<Doc, Map<number, { run: SymbolRun; index: number }>>();

/** The symbol that starts at each word index (its run and place in it), for lookups by word. */
export function symbolsByWord(doc: Doc): Map<number, { run: SymbolRun; index: number }> {
  let map = byWord.get(doc);
  if (!map) {
    map = new Map();
    for (const run of symbolRuns(doc)) run.symbols.forEach((s, index) => map!.has(s.wordStart) || map!.set(s.wordStart, { run, index }));
    byWord.set(doc, map);
  }
  return map;
}
