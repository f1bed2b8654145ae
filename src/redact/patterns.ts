// Finding a record's own values (literal phrases and regular expressions) in written text and in ASR words.
// Both sides are compared in one normalised form, so that "Acme-Corp, Inc." matches the spoken "acme corp
// inc" and "PIN 1234" matches "pin one two three four": lower case, punctuation dropped, words split at inner
// hyphens/slashes, and spoken or written numbers as digits with adjacent number words joined into one run
// ("4111 1111" and "four one one one one one one one" are both 41111111). Matches fall on whole normalised
// tokens (word boundaries) and are reported as word ranges of the doc.
import safeRegex from 'safe-regex2';
import { docFromText, type Doc } from './recognizers/doc.js';

export type Pattern = { literal: string[] } | { regex: RegExp };

/** A word range [wordStart, wordEnd) of a doc. */
export interface WordRange {
  wordStart: number;
  wordEnd: number;
}

interface MatchToken extends WordRange {
  text: string;
}

/** The normalised tokens of a doc, each with the words it came from. */
function matchTokens(doc: Doc): MatchToken[] {
  const out: MatchToken[] = [];
  for (const t of doc.tokens) {
    const last = out[out.length - 1];
    if (t.isNumber) {
      // Digit runs spoken or written in pieces compare as one number.
      if (last && /^\d+$/.test(last.text) && last.wordEnd === t.wordStart) {
        last.text += t.text;
        last.wordEnd = t.wordEnd;
      } else {
        out.push({ text: t.text, wordStart: t.wordStart, wordEnd: t.wordEnd });
      }
      continue;
    }
    for (const part of t.text.toLowerCase().split(/[^\p{L}\p{N}@.']+/u)) {
      const text = part.replace(/^[.']+|[.']+$/g, '');
      if (text) out.push({ text, wordStart: t.wordStart, wordEnd: t.wordEnd });
    }
  }
  return out;
}

/** A literal phrase; undefined when nothing is left of it once normalised. */
export function literalPattern(value: string): Pattern | undefined {
  const literal = matchTokens(docFromText(value)).map((t) => t.text);
  return literal.length ? { literal } : undefined;
}

/** Longest pattern source accepted: a record's rule is a value or a shape, not a program. */
export const MAX_REGEX_SOURCE = 500;

/** A regular expression; undefined when it does not compile (the rule is skipped, not the record). */
/**
 * Why a client's regular expression cannot be used, or undefined when it can: it must compile, stay short, and
 * not be able to take exponential time (nested quantifiers, checked with safe-regex2, the check Fastify's
 * router uses) — it runs on the service's main thread over every field of a record.
 */
export function regexProblem(source: string, flags: string): string | undefined {
  if (!source) return 'is an empty regular expression';
  if (source.length > MAX_REGEX_SOURCE) return `is a regular expression longer than ${MAX_REGEX_SOURCE} characters`;
  let regex: RegExp;
  try {
    regex = new RegExp(source, [...new Set(`${flags.replace(/[gy]/g, '')}g`)].join(''));
  } catch (error) {
    return `is not a valid regular expression (${(error as Error).message})`;
  }
  if (!safeRegex(regex)) return 'is a regular expression that can take exponential time (nested quantifiers such as (a+)+); rewrite it without them';
  return undefined;
}

export function regexPattern(source: string, flags: string): Pattern | undefined {
  if (regexProblem(source, flags)) return undefined;
  const wanted = [...new Set(`${flags.replace(/[gy]/g, '')}g`)].join('');
  try {
    return { regex: new RegExp(source, wanted) };
  } catch {
    return undefined;
  }
}

/** The first index of a sorted list whose end is past `start` (binary search: a regex may match thousands of times). */
function firstEndingAfter<T>(items: readonly T[], endOf: (item: T) => number, start: number): number {
  let lo = 0;
  let hi = items.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (endOf(items[mid]) > start) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** Word range of the words overlapping characters [start, end) of the doc's text (its words are in order). */
function wordsAt(doc: Doc, start: number, end: number): WordRange | undefined {
  const wordStart = firstEndingAfter(doc.words, (w) => Math.max(w.end, w.start + 1), start);
  let wordEnd = wordStart;
  while (wordEnd < doc.words.length && doc.words[wordEnd].start < end) wordEnd++;
  return wordEnd > wordStart ? { wordStart, wordEnd } : undefined;
}

/** Every occurrence of the pattern in the doc, as word ranges, sorted and without duplicates. */
export function findPattern(doc: Doc, pattern: Pattern): WordRange[] {
  const found: WordRange[] = [];
  const tokens = matchTokens(doc);
  if ('literal' in pattern) {
    const n = pattern.literal.length;
    for (let i = 0; i + n <= tokens.length; i++) {
      let k = 0;
      while (k < n && tokens[i + k].text === pattern.literal[k]) k++;
      if (k === n) found.push({ wordStart: tokens[i].wordStart, wordEnd: tokens[i + n - 1].wordEnd });
    }
  } else {
    // The written form (offsets of doc.text) and the normalised form (spoken numbers as digits).
    for (const m of doc.text.matchAll(pattern.regex)) {
      const range = m[0] ? wordsAt(doc, m.index!, m.index! + m[0].length) : undefined;
      if (range) found.push(range);
    }
    let pos = 0;
    const spans = tokens.map((t) => {
      const span = { start: pos, end: pos + t.text.length, token: t };
      pos = span.end + 1;
      return span;
    });
    const normal = tokens.map((t) => t.text).join(' ');
    for (const m of normal.matchAll(pattern.regex)) {
      if (!m[0]) continue;
      const start = m.index!;
      const end = start + m[0].length;
      const hit: typeof spans = [];
      for (let i = firstEndingAfter(spans, (s) => s.end, start); i < spans.length && spans[i].start < end; i++) hit.push(spans[i]);
      if (hit.length) found.push({ wordStart: hit[0].token.wordStart, wordEnd: hit[hit.length - 1].token.wordEnd });
    }
  }
  const seen = new Set<string>();
  return found
    .filter((r) => !seen.has(`${r.wordStart}:${r.wordEnd}`) && seen.add(`${r.wordStart}:${r.wordEnd}`))
    .sort((a, b) => a.wordStart - b.wordStart || a.wordEnd - b.wordEnd);
}
