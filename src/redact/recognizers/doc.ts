// The shared view every recognizer reads: the text, its words (with character spans and a normalised form) and
// the numtrans tokens over those words (spoken numbers joined into digits, each with the words it came from).
import { numtrans } from '../../transcript/numtrans.js';
import type { EntityKind } from '../entityKinds.js';
import type { Detection, DetectOptions } from '../types.js';

export interface Word {
  /** The word as given. */
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
  text: string;
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
const NUMBER_LIKE = /^\+?[\d().-]*\d[\d().-]*$/;

function normWord(raw: string): { norm: string; lead: number; trail: number } {
  const m = /^[^\p{L}\p{N}]*(.*?)[^\p{L}\p{N}]*$/su.exec(raw)!;
  const core = m[1];
  const lead = raw.indexOf(core);
  let norm = core.toLowerCase();
  if (NUMBER_LIKE.test(norm) && !IP_LIKE.test(norm) && !/^\d{4}-\d{2}-\d{2}$/.test(norm)) norm = norm.replace(/\D/g, '');
  return { norm, lead: core ? lead : 0, trail: core ? raw.length - lead - core.length : raw.length };
}

function build(text: string, spans: { raw: string; start: number }[], spoken: boolean, options: DetectOptions): Doc {
  const words: Word[] = spans.map(({ raw, start }) => {
    const { norm, lead, trail } = normWord(raw);
    return { raw, norm, start: start + lead, end: start + raw.length - trail };
  });
  const nt = numtrans(words.map((w) => w.norm));
  const tokenOfWord = new Array<number>(words.length).fill(0);
  const tokens: Token[] = nt.tokens.map((t, ti) => {
    const wordStart = t.wordIndices[0];
    const wordEnd = t.wordIndices[t.wordIndices.length - 1] + 1;
    for (let w = wordStart; w < wordEnd; w++) tokenOfWord[w] = ti;
    return { text: t.text, isNumber: t.isNumber && /^\d+$/.test(t.text), wordStart, wordEnd };
  });
  return { text, words, tokens, tokenOfWord, spoken, options };
}

export function docFromText(text: string, options: DetectOptions = {}): Doc {
  const spans = [...text.matchAll(/\S+/g)].map((m) => ({ raw: m[0], start: m.index! }));
  return build(text, spans, false, options);
}

export function docFromWords(words: readonly string[], options: DetectOptions = {}): Doc {
  const spans: { raw: string; start: number }[] = [];
  let pos = 0;
  for (const w of words) {
    spans.push({ raw: w, start: pos });
    pos += w.length + 1;
  }
  return build(words.join(' '), spans, true, options);
}

/** A detection covering words [wordStart, wordEnd). */
export function fromWords(doc: Doc, kind: EntityKind, wordStart: number, wordEnd: number, confidence: number, recognizer: string): Detection {
  const start = doc.words[wordStart].start;
  const end = Math.max(start, doc.words[wordEnd - 1].end);
  return { kind, text: doc.text.slice(start, end), start, end, wordStart, wordEnd, confidence: clamp(confidence), recognizer };
}

/** A detection covering characters [start, end); word indices are those of the words it overlaps. */
export function fromChars(doc: Doc, kind: EntityKind, start: number, end: number, confidence: number, recognizer: string): Detection {
  let wordStart = -1;
  let wordEnd = -1;
  doc.words.forEach((w, i) => {
    const ws = Math.min(w.start, w.end);
    if (ws < end && Math.max(w.end, ws + 1) > start) {
      if (wordStart < 0) wordStart = i;
      wordEnd = i + 1;
    }
  });
  const d: Detection = { kind, text: doc.text.slice(start, end), start, end, confidence: clamp(confidence), recognizer };
  if (wordStart >= 0) {
    d.wordStart = wordStart;
    d.wordEnd = wordEnd;
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
