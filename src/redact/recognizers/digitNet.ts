// The safety net under the SSN and card recognizers: every run of 9 or more digits, whatever characters surround
// it or separate its groups ("card:4111…", "4111_1111_…", "４１１１…", "4111 1111 1111 1111/27", two cards back to
// back), is a possible SSN, and of 13 or more a possible card. A currency sign opening a token starts another number
// ("$385,000, $5,000" is two amounts, not one run); one between digits ("123$45$6789") is a separator. Read on the
// normalized stream (written digits) and on the doc's digit runs (spoken digits joined by numtrans). Low confidence, so a recognizer's label wins where it found the same digits;
// but these detections are floors: no confidence threshold drops them.
import type { Detection } from '../types.js';
import { isDigitCode, isLetterAt } from '../normalize.js';
import { digitRuns, luhn } from './digitRuns.js';
import { fromChars, fromWords, wordsOverlapping, type Doc, type Recognizer } from './doc.js';
import { afterReferenceCue, cardLengthReference, imeiNumber } from './referenceNumber.js';
import { maskOnly } from './ipAddress.js';

export const DIGIT_NET = 'digit-net';
/** Digits of an SSN; of the shortest card. */
export const SSN_DIGITS = 9;
export const CARD_DIGITS = 13;
/** At most this many non-alphanumeric characters between two digit groups of one run. */
export const MAX_GAP = 5;

/** Currency signs: what an amount starts with. */
const CURRENCY = /\p{Sc}/u;
/** What comes before a currency sign that opens a token: a space, "(" ("$385,000, $5,000", "($5,000)"). */
const TOKEN_OPEN = /[\s(]/u;
/**
 * A currency sign at k that opens a new amount: after a space or "(" (or first in the text). One between digits or
 * glued to a separator ("123$45$6789", "123-45-€6789") is a separator: the run goes on.
 */
const opensAmount = (s: string, k: number): boolean => CURRENCY.test(s[k]) && (k === 0 || TOKEN_OPEN.test(s[k - 1]));

const SSN_CONFIDENCE = 0.3;
const CARD_CONFIDENCE = 0.35;

/**
 * An order's, a parcel's, a case's number (referenceNumber.ts: its cue, no personal cue between), of no card's
 * length and checksum: no SSN or card under it. A Luhn-valid 13-19 digit run stays a possible card.
 */
function reference(doc: Doc, words: { wordStart: number; wordEnd: number } | undefined, digits: string, written?: string): boolean {
  if (words !== undefined && (subnetMask(doc, words) || cardLengthReference(doc, words.wordStart, digits, written) || imeiNumber(doc, words.wordStart, digits))) return true;
  if (words === undefined || (digits.length >= CARD_DIGITS && digits.length <= 19 && luhn(digits))) return false;
  return afterReferenceCue(doc, words.wordStart, true, words.wordEnd);
}

/** A written subnet mask named so ("the subnet mask is 255.255.255.0", ipAddress.ts): one word, no one's number. */
function subnetMask(doc: Doc, words: { wordStart: number; wordEnd: number }): boolean {
  if (words.wordEnd !== words.wordStart + 1) return false;
  const w = doc.words[words.wordStart].norm;
  return /^\d{1,3}(\.\d{1,3}){3}$/.test(w) && maskOnly(doc, words.wordStart, w.split('.').map(Number));
}

/** The net's floors over one group of digits: an SSN's, and a card's too when it is long enough. */
function pushNet(doc: Doc, out: Detection[], digits: string, words: { wordStart: number; wordEnd: number } | undefined, written: string, make: (kind: Detection['kind'], confidence: number) => Detection): void {
  if (digits.length < SSN_DIGITS || reference(doc, words, digits, written)) return;
  out.push({ ...make('USSocialSecurityNumber', SSN_CONFIDENCE), floor: true });
  if (digits.length >= CARD_DIGITS) out.push({ ...make('CreditCardNumber', CARD_CONFIDENCE), floor: true });
}

export const digitNetRecognizer: Recognizer = (doc) => {
  const out: Detection[] = [];

  // Written digits on the normalized stream: groups joined across short runs of anything but letters and digits.
  const s = doc.stream.text;
  const n = s.length;
  let i = 0;
  while (i < n) {
    if (!isDigitCode(s.charCodeAt(i))) {
      i++;
      continue;
    }
    const from = i;
    let to = i;
    let digits = '';
    for (;;) {
      while (i < n && isDigitCode(s.charCodeAt(i))) {
        digits += s[i];
        i++;
      }
      to = i;
      let k = i;
      // a currency sign opening a token starts another amount ("$385,000, $5,000"): no group of this run after it
      while (k < n && k - i <= MAX_GAP && !isDigitCode(s.charCodeAt(k)) && !isLetterAt(s, k) && !opensAmount(s, k)) k++;
      if (k < n && k > i && k - i <= MAX_GAP && isDigitCode(s.charCodeAt(k))) {
        i = k;
        continue;
      }
      break;
    }
    const start = doc.stream.startOf(from);
    const end = doc.stream.endOf(to - 1);
    // the run's first word, looked up only for a run long enough to report (most text has none)
    const at = digits.length >= SSN_DIGITS ? wordsOverlapping(doc, start, end) : undefined;
    pushNet(doc, out, digits, at, doc.text.slice(start, end), (kind, c) => fromChars(doc, kind, start, end, c, DIGIT_NET));
  }

  // Spoken digits ("four one one one …"): numtrans runs, joined across fillers.
  for (const run of digitRuns(doc)) pushNet(doc, out, run.digits, run, run.formatted, (kind, c) => fromWords(doc, kind, run.wordStart, run.wordEnd, c, DIGIT_NET));
  return out;
};
