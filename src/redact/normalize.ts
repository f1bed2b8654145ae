// The character stream recognizers read: every code point folded by NFKC (full-width "４" → "4", "ｃａｒｄ" → "card",
// ligatures, superscripts) and every other decimal digit (Arabic-Indic, Devanagari, ...) mapped to its ASCII digit,
// with each normalized character's span in the original text, so that what is found in the stream masks the
// original characters. Linear in the input: ASCII text is its own stream.
// Then digit look-alikes are folded inside digit-dominated tokens only (confusables.ts): "4532О151l283O366"
// (Cyrillic О, Latin l and O), "S36-22-8741", "5362287I4I" read as the numbers they stand for, while a word
// with one letter that is no look-alike ("COVID-19", "B2B", "1990s") is left as it is. Each look-alike is one
// character for one digit, so the offsets into the original stay as they are.
import { foldConfusables } from './confusables.js';

export interface NormalizedText {
  /** The normalized text. */
  text: string;
  /** Original offset where normalized character i comes from. */
  startOf(i: number): number;
  /** Original offset (exclusive) where normalized character i's source ends. */
  endOf(i: number): number;
}

const ASCII_ONLY = /^[\x00-\x7f]*$/;
const DECIMAL = /^\p{Nd}$/u;

/** The value of a decimal digit code point: its distance from the zero of its block (blocks are runs of ten). */
function digitValue(cp: number): number {
  let zero = cp;
  while (cp - zero < 60 && DECIMAL.test(String.fromCodePoint(zero - 1))) zero--;
  return (cp - zero) % 10;
}

/** One code point, NFKC-folded, with non-ASCII decimal digits as ASCII. */
function fold(cp: number): string {
  const folded = String.fromCodePoint(cp).normalize('NFKC');
  let out = '';
  for (const ch of folded) {
    const c = ch.codePointAt(0)!;
    out += c >= 0x80 && DECIMAL.test(ch) ? String(digitValue(c)) : ch;
  }
  return out;
}

/** ASCII text is its own stream. */
class Identity implements NormalizedText {
  constructor(readonly text: string) {}
  startOf(i: number): number {
    return i;
  }
  endOf(i: number): number {
    return i + 1;
  }
}

/** A folded stream with each character's source span. */
class Mapped implements NormalizedText {
  constructor(
    readonly text: string,
    private readonly starts: number[],
    private readonly ends: number[],
    private readonly sourceLength: number,
  ) {}
  startOf(i: number): number {
    return i < this.starts.length ? this.starts[i] : this.sourceLength;
  }
  endOf(i: number): number {
    return i < this.ends.length ? this.ends[i] : this.sourceLength;
  }
}

export function normalizeText(text: string): NormalizedText {
  if (ASCII_ONLY.test(text)) return new Identity(foldConfusables(text));
  const parts: string[] = [];
  const starts: number[] = [];
  const ends: number[] = [];
  for (let i = 0; i < text.length; ) {
    const cp = text.codePointAt(i)!;
    const width = cp > 0xffff ? 2 : 1;
    const piece = cp < 0x80 ? text[i] : fold(cp);
    for (let k = 0; k < piece.length; k++) {
      starts.push(i);
      ends.push(i + width);
    }
    parts.push(piece);
    i += width;
  }
  return new Mapped(foldConfusables(parts.join('')), starts, ends, text.length);
}

const CODE_0 = 48;
const CODE_9 = 57;
const LETTER = /\p{L}/u;

/** Character classes of the stream: ASCII digit, letter, or anything else (space, punctuation, marks, symbols). */
export function isDigitCode(code: number): boolean {
  return code >= CODE_0 && code <= CODE_9;
}

export function isLetterAt(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  if (c < 0x80) return (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
  // A surrogate pair: test the whole code point (its low half alone is no letter).
  if (c >= 0xdc00 && c <= 0xdfff && i > 0) {
    const hi = text.charCodeAt(i - 1);
    if (hi >= 0xd800 && hi <= 0xdbff) return LETTER.test(text.slice(i - 1, i + 1));
  }
  if (c >= 0xd800 && c <= 0xdbff) return LETTER.test(text.slice(i, i + 2));
  return LETTER.test(text[i]);
}
