// The shared view every recognizer reads: the text, its normalized character stream, its words (with character
// spans into the original text and a normalised form) and the numtrans tokens over those words (spoken numbers
// joined into digits, each with the words it came from).
import { numtrans } from '../../transcript/numtrans.js';
import type { EntityKind } from '../entityKinds.js';
import { isDigitCode, isLetterAt, normalizeText, type NormalizedText } from '../normalize.js';
import { segmentWords } from '../segment.js';
import type { Detection, DetectOptions } from '../types.js';

export interface Word {
  /** The word as read on the normalized stream (NFKC, ASCII digits). */
  raw: string;
  /** Lower case, surrounding punctuation removed; digits only for a written number ("123-45-6789", "(555)"). */
  norm: string;
  /** Character span of the word's core (surrounding punctuation excluded) in doc.text. */
  start: number;
  end: number;
}

export interface Token {
  text: string;
  isNumber: boolean;
  /** Word indices, end exclusive. */
  wordStart: number;
  wordEnd: number;
}

export interface Doc {
  /** The text as given (masks replace its characters). */
  text: string;
  /** The same text normalized (NFKC, ASCII digits), each character mapped back to `text`. */
  stream: NormalizedText;
  words: Word[];
  tokens: Token[];
  /** Token index of each word. */
  tokenOfWord: number[];
  /** Input was a word array (ASR output). */
  spoken: boolean;
  options: DetectOptions;
}

export type Recognizer = (doc: Doc) => Detection[];

const IP_LIKE = /^\d{1,3}(\.\d{1,3}){3}$/;
const NUMBER_CHARS = /^\+?[\d().-]+$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

const isAlnum = (s: string, i: number) => isDigitCode(s.charCodeAt(i)) || isLetterAt(s, i);

/** The core of a word (surrounding punctuation trimmed, as [from, to) of `raw`) and its normalised form. */
function normWord(raw: string): { norm: string; from: number; to: number } {
  // Plain loops, not a regex: a lazy pattern between two trims is quadratic on a long word.
  let from = 0;
  let to = raw.length;
  while (from < to && !isAlnum(raw, from)) from++;
  while (to > from && !isAlnum(raw, to - 1)) to--;
  let norm = raw.slice(from, to).toLowerCase();
  if (NUMBER_CHARS.test(norm) && /\d/.test(norm) && !IP_LIKE.test(norm) && !ISO_DATE.test(norm)) norm = norm.replace(/\D/g, '');
  return { norm, from, to };
}

/**
 * A word from [from, to) of a normalized stream: raw and norm are read on the stream, start/end are the original
 * characters of its core (offset added), so masks replace what was given.
 */
function wordAt(stream: NormalizedText, from: number, to: number, offset: number): Word {
  const raw = stream.text.slice(from, to);
  const core = normWord(raw);
  if (core.to <= core.from) {
    const at = offset + stream.startOf(from);
    return { raw, norm: core.norm, start: at, end: at };
  }
  return { raw, norm: core.norm, start: offset + stream.startOf(from + core.from), end: offset + stream.endOf(from + core.to - 1) };
}

function build(text: string, stream: NormalizedText, words: Word[], spoken: boolean, options: DetectOptions): Doc {
  const nt = numtrans(words.map((w) => w.norm));
  const tokenOfWord = new Array<number>(words.length).fill(0);
  const tokens: Token[] = nt.tokens.map((t, ti) => {
    const wordStart = t.wordIndices[0];
    const wordEnd = t.wordIndices[t.wordIndices.length - 1] + 1;
    for (let w = wordStart; w < wordEnd; w++) tokenOfWord[w] = ti;
    return { text: t.text, isNumber: t.isNumber && /^\d+$/.test(t.text), wordStart, wordEnd };
  });
  return { text, stream, words, tokens, tokenOfWord, spoken, options };
}

/** Written text: words cut on the normalized stream (segment.ts), offsets into `text`. */
export function docFromText(text: string, options: DetectOptions = {}): Doc {
  const stream = normalizeText(text);
  const words = segmentWords(stream.text).map((s) => wordAt(stream, s.start, s.end, 0));
  return build(text, stream, words, false, options);
}

/** ASR words, one doc word per word given (word indices are the caller's); offsets index `words.join(' ')`. */
export function docFromWords(words: readonly string[], options: DetectOptions = {}): Doc {
  const out: Word[] = [];
  let pos = 0;
  for (const w of words) {
    const stream = normalizeText(w);
    out.push(wordAt(stream, 0, stream.text.length, pos));
    pos += w.length + 1;
  }
  const text = words.join(' ');
  return build(text, normalizeText(text), out, true, options);
}

/** Index of the first word whose span reaches past `start` (words are in order). */
function firstWordAfter(doc: Doc, start: number): number {
  let lo = 0;
  let hi = doc.words.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    const w = doc.words[mid];
    if (Math.max(w.end, w.start + 1) > start) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** Words [wordStart, wordEnd) overlapping characters [start, end), or undefined when none does. */
export function wordsOverlapping(doc: Doc, start: number, end: number): { wordStart: number; wordEnd: number } | undefined {
  const wordStart = firstWordAfter(doc, start);
  let wordEnd = wordStart;
  while (wordEnd < doc.words.length && doc.words[wordEnd].start < end) wordEnd++;
  return wordEnd > wordStart ? { wordStart, wordEnd } : undefined;
}

/** A detection covering words [wordStart, wordEnd). */
export function fromWords(doc: Doc, kind: EntityKind, wordStart: number, wordEnd: number, confidence: number, recognizer: string): Detection {
  const start = doc.words[wordStart].start;
  const end = Math.max(start, doc.words[wordEnd - 1].end);
  return { kind, text: doc.text.slice(start, end), start, end, wordStart, wordEnd, confidence: clamp(confidence), recognizer };
}

/** A detection covering characters [start, end); word indices are those of the words it overlaps (binary search). */
export function fromChars(doc: Doc, kind: EntityKind, start: number, end: number, confidence: number, recognizer: string): Detection {
  const d: Detection = { kind, text: doc.text.slice(start, end), start, end, confidence: clamp(confidence), recognizer };
  const range = wordsOverlapping(doc, start, end);
  if (range) {
    d.wordStart = range.wordStart;
    d.wordEnd = range.wordEnd;
  }
  return d;
}

export const clamp = (c: number): number => Math.max(0, Math.min(1, Math.round(c * 1000) / 1000));

/** Lower-case norms of words [from, to) joined by spaces. */
export function phrase(doc: Doc, from: number, to: number): string {
  return doc.words.slice(Math.max(0, from), Math.max(0, to)).map((w) => w.norm).join(' ');
}

/** True when word i ends a sentence in written text (the raw word ends with . ! ? ; or :). */
export function endsClause(doc: Doc, i: number): boolean {
  return !doc.spoken && /[.!?;:,]["')\]]*$/.test(doc.words[i]?.raw ?? '') && !/^(mr|mrs|ms|dr|st|apt|no)\.$/i.test(doc.words[i]?.raw ?? '');
}
