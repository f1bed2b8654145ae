// Words of written text, cut on the normalized stream (normalize.ts): at white space, where letters meet digits
// ("card:4111…" → "card:" "4111…", "cc4111…" → "cc" "4111…", "id/123-45-6789" → "id/" "123-45-6789"), and at hard
// punctuation between letters ("name:John" → "name:" "John"), the punctuation staying with the word before (it is
// trimmed from that word's core). Digits keep their own punctuation ("123-45-6789", "(555)", "12/27/1986"),
// words their apostrophes, hyphens and dots ("o'brien", "john.smith"), and "2nd"/"21st" stay one word. A word longer than MAX_WORD is
// cut into pieces, so no recognizer ever works on an unbounded token.
import { isDigitCode, isLetterAt } from './normalize.js';

/** The longest word handed to recognizers (characters); longer tokens are cut (digit runs join again across pieces). */
export const MAX_WORD = 256;

export interface Segment {
  /** Offsets into the normalized text, end exclusive. */
  start: number;
  end: number;
}

const SPACE = /[\s\p{Z}\p{Cc}\p{Cf}]/u;
/** Punctuation that separates words even without a space ("name:John", "Smith,John", "a|b"); not ' - . @ _. */
const HARD = new Set([...':=/|;,!?()[]{}<>"*#~^']);

function isSpaceAt(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  if (c < 0x80) return c === 32 || (c >= 9 && c <= 13) || c < 32 || c === 127;
  return SPACE.test(text[i]);
}

/** "st", "nd", "rd", "th" ending a word at i (after digits: an ordinal, "2nd"). */
function ordinalAt(text: string, i: number): boolean {
  const two = text.slice(i, i + 2).toLowerCase();
  return (two === 'st' || two === 'nd' || two === 'rd' || two === 'th') && !(i + 2 < text.length && isLetterAt(text, i + 2));
}

export function segmentWords(text: string): Segment[] {
  const out: Segment[] = [];
  const n = text.length;
  let i = 0;
  while (i < n) {
    while (i < n && isSpaceAt(text, i)) i++;
    if (i >= n) break;
    let start = i;
    let last: 'letter' | 'digit' | undefined;
    let hard = false;
    while (i < n && !isSpaceAt(text, i)) {
      const cls = isDigitCode(text.charCodeAt(i)) ? 'digit' : isLetterAt(text, i) ? 'letter' : undefined;
      if (cls) {
        const classChange = last !== undefined && cls !== last && !(last === 'digit' && ordinalAt(text, i));
        const hardBreak = hard && !(last === 'digit' && cls === 'digit');
        if (last && i > start && (classChange || hardBreak)) {
          out.push({ start, end: i });
          start = i;
        }
        last = cls;
        hard = false;
      } else if (HARD.has(text[i])) {
        hard = true;
      }
      const highSurrogate = text.charCodeAt(i) >= 0xd800 && text.charCodeAt(i) <= 0xdbff;
      i++;
      if (i - start >= MAX_WORD && !highSurrogate) {
        out.push({ start, end: i });
        start = i;
      }
    }
    if (i > start) out.push({ start, end: i });
  }
  return out;
}
