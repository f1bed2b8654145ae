// Finding a record's own values (literal phrases and regular expressions) in written text and in ASR words.
// Both sides are compared in one normalised form, so that "Acme-Corp, Inc." matches the spoken "acme corp
// inc" and "PIN 1234" matches "pin one two three four": lower case, punctuation dropped, words split at inner
// hyphens/slashes, and spoken or written numbers as digits with adjacent number words joined into one run
// ("4111 1111" and "four one one one one one one one" are both 41111111). Matches fall on whole normalised
// tokens (word boundaries) and are reported as word ranges of the doc.
//
// A client's regular expression runs on RE2, a linear-time engine: no pattern can make matching take more
// than time proportional to the text, whatever it nests. RE2 refuses what it cannot run in linear time
// (backreferences, lookarounds) when the pattern is compiled, and the record is then refused naming the rule.
import RE2 from 're2';
import { docFromText, type Doc } from './recognizers/doc.js';

export type Pattern = { literal: string[] } | { regex: RE2 };

/** A word range [wordStart, wordEnd) of a doc. */
export interface WordRange {
  wordStart: number;
  wordEnd: number;
}

interface MatchToken extends WordRange {
  text: string;
}

/** matchTokens of each doc looked at: every record phrase (values found elsewhere too) is looked for in each doc. */
const tokensOfDoc = new WeakMap<Doc, readonly MatchToken[]>();

/** The normalised tokens of a doc, each with the words it came from (read only: they are shared). */
function matchTokens(doc: Doc): readonly MatchToken[] {
  let tokens = tokensOfDoc.get(doc);
  if (!tokens) {
    tokens = buildMatchTokens(doc);
    tokensOfDoc.set(doc, tokens);
  }
  return tokens;
}

function buildMatchTokens(doc: Doc): MatchToken[] {
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
    // A word the doc cut with nothing between the pieces (one over MAX_WORD characters, letters met by digits)
    // compares whole, as it was written: its first part continues the token before.
    let glued = last !== undefined && t.wordStart > 0 && last.wordEnd === t.wordStart && doc.words[t.wordStart].start === doc.words[t.wordStart - 1].end;
    for (const part of t.text.toLowerCase().split(/[^\p{L}\p{N}@.']+/u)) {
      const text = part.replace(/^[.']+|[.']+$/g, '');
      if (!text) {
        glued = false;
        continue;
      }
      if (glued) {
        last!.text += text;
        last!.wordEnd = t.wordEnd;
      } else {
        out.push({ text, wordStart: t.wordStart, wordEnd: t.wordEnd });
      }
      glued = false;
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

/** Flags a client may write after the closing slash (g and y are dropped: every pattern is searched globally). */
const KNOWN_FLAGS = /^[dgimsuy]*$/;

/** Why RE2 refuses a pattern that JavaScript would take, said in the client's terms. */
function unsupportedHint(message: string): string {
  if (/invalid escape sequence: \\([1-9]|k)/.test(message)) return ' (backreferences cannot run in linear time and are not supported)';
  if (/invalid perl operator: \(\?<?[=!]/.test(message)) return ' (lookahead and lookbehind cannot run in linear time and are not supported)';
  return '';
}

/** The pattern compiled for matching (global, RE2), or why it cannot be. */
function compile(source: string, flags: string): { regex: RE2 } | { problem: string } {
  if (!source) return { problem: 'is an empty regular expression' };
  if (source.length > MAX_REGEX_SOURCE) return { problem: `is a regular expression longer than ${MAX_REGEX_SOURCE} characters` };
  if (!KNOWN_FLAGS.test(flags)) return { problem: `is a regular expression with unknown flags "${flags}" (d, i, m, s and u are accepted)` };
  // Multiline: ^ and $ hold at the ends of each line (utterance) of a conversation searched as one stream,
  // as they did when each field was searched alone.
  const wanted = [...new Set(`${flags.replace(/[gy]/g, '')}gm`)].join('');
  try {
    return { regex: new RE2(source, wanted) };
  } catch (error) {
    const message = (error as Error).message;
    return { problem: `is not a valid regular expression for RE2, the linear-time engine record rules run on: ${message}${unsupportedHint(message)}` };
  }
}

/**
 * Why a client's regular expression cannot be used, or undefined when it can: it must be short and compile on
 * RE2 (a record's rules run over every field of the record, so matching must stay linear in its length).
 */
export function regexProblem(source: string, flags: string): string | undefined {
  const compiled = compile(source, flags);
  return 'problem' in compiled ? compiled.problem : undefined;
}

/** A regular expression; undefined when it cannot be used (recordRuleIssues refuses such a record first). */
export function regexPattern(source: string, flags: string): Pattern | undefined {
  const compiled = compile(source, flags);
  return 'regex' in compiled ? compiled : undefined;
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

/** The doc's text with a line break before each line's first word (same length: the separator is replaced). */
function textByLines(doc: Doc, lineStarts: readonly number[]): string {
  let out = '';
  let at = 0;
  for (const w of [...lineStarts].sort((a, b) => a - b)) {
    const i = w > 0 && w < doc.words.length ? doc.words[w].start - 1 : -1;
    if (i < at || !/\s/.test(doc.text[i])) continue;
    out += `${doc.text.slice(at, i)}\n`;
    at = i + 1;
  }
  return at === 0 ? doc.text : out + doc.text.slice(at);
}

/**
 * Every occurrence of the pattern in the doc, as word ranges, sorted and without duplicates. `lineStarts`
 * (word indices) mark where lines (utterances) begin: a regular expression's ^ and $ hold there.
 */
export function findPattern(doc: Doc, pattern: Pattern, lineStarts: readonly number[] = []): WordRange[] {
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
    const lineStart = new Set(lineStarts);
    for (const m of (lineStarts.length > 0 ? textByLines(doc, lineStarts) : doc.text).matchAll(pattern.regex)) {
      const range = m[0] ? wordsAt(doc, m.index!, m.index! + m[0].length) : undefined;
      if (range) found.push(range);
    }
    let pos = 0;
    const spans = tokens.map((t) => {
      const span = { start: pos, end: pos + t.text.length, token: t };
      pos = span.end + 1;
      return span;
    });
    // Tokens of different lines are joined by a line break (a break in the text, or a line start).
    const normal = tokens
      .map((t, i) => {
        if (i === 0) return t.text;
        const gap = doc.text.slice(doc.words[tokens[i - 1].wordEnd - 1]?.end ?? 0, doc.words[t.wordStart]?.start ?? 0);
        return (gap.includes('\n') || (lineStart.has(t.wordStart) && tokens[i - 1].wordEnd <= t.wordStart) ? '\n' : ' ') + t.text;
      })
      .join('');
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
