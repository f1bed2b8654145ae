// The safety net under the SSN and card recognizers: every run of 9 or more digits, whatever characters surround
// it or separate its groups ("card:4111…", "4111_1111_…", "４１１１…", "4111 1111 1111 1111/27", two cards back to
// back), is a possible SSN, and of 13 or more a possible card. A currency sign opening a token starts another number
// ("$385,000, $5,000" is two amounts, not one run); one between digits ("123$45$6789") is a separator. Read on the
// normalized stream (written digits) and on the doc's digit runs (spoken digits joined by numtrans). Low confidence, so a recognizer's label wins where it found the same digits;
// but these detections are floors: no confidence threshold drops them.
import type { Detection } from '../types.js';
import { isDigitCode, isLetterAt } from '../normalize.js';
import { cuesBefore, digitRuns, luhn } from './digitRuns.js';
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
function reference(doc: Doc, words: { wordStart: number; wordEnd: number } | undefined, digits: string): boolean {
  if (words !== undefined && (subnetMask(doc, words) || cardLengthReference(doc, words.wordStart, digits) || imeiNumber(doc, words.wordStart, digits))) return true;
  if (words === undefined || (digits.length >= CARD_DIGITS && digits.length <= 19 && luhn(digits))) return false;
  return afterReferenceCue(doc, words.wordStart, true, words.wordEnd);
}

/** A written subnet mask named so ("the subnet mask is 255.255.255.0", ipAddress.ts): one word, no one's number. */
function subnetMask(doc: Doc, words: { wordStart: number; wordEnd: number }): boolean {
  if (words.wordEnd !== words.wordStart + 1) return false;
  const w = doc.words[words.wordStart].norm;
  return /^\d{1,3}(\.\d{1,3}){3}$/.test(w) && maskOnly(doc, words.wordStart, w.split('.').map(Number));
}

/** A code's length (digits after its letters): one digit more than an SSN, not yet a card's. */
const CODE_DIGITS = [10, 12] as const;
/** Personal numbers' cues that keep a code's digits an SSN's: "my social is HO-...", "license ...". */
const PERSONAL_CUES = ['ssn', 'card', 'account', 'routing', 'license', 'passport', 'dob', 'phone'] as const;
/**
 * Numbers of a person's own that may be an SSN with letters and a suffix (a member ID "XYZ078051120-01"): no code
 * read under them.
 */
const PERSON_IDS = /^(member|membership|id|pin|customer|employee|badge|patient|subscriber|insured|medicare|medicaid)$/;
/** Words looked back over for PERSON_IDS. */
const PERSON_ID_WINDOW = 6;

/**
 * A thing's code of letters then 10-12 digits ("policy number HO-5528-1934-07", "claim number c l m 2026 448 120"),
 * named by a thing's number's cue (referenceNumber.ts NOT_PHONE: a policy, a claim, a case ...), no personal cue
 * before it and no person's ID named: none of its readings is an SSN's nine digits, and the letters make it a code.
 * Written, its groups show it: two or more, none of nine digits, no 3-2-4 in them ("HO-078051120-01" keeps its SSN
 * reading; so does "CLM2026448120", ungrouped). `lengths`: the run's digit counts as read ("h o 5528..." may be
 * read with the "o" or without it).
 */
function letterCode(doc: Doc, words: { wordStart: number; wordEnd: number }, lengths: readonly number[], written?: string): boolean {
  if (!lengths.every((n) => n >= CODE_DIGITS[0] && n <= CODE_DIGITS[1])) return false;
  if (written !== undefined) {
    const groups = written.split(/\D+/).filter((g) => g.length > 0);
    if (groups.length < 2 || groups.some((g) => g.length === SSN_DIGITS) || /(^|\D)\d{3}\D{1,5}\d{2}\D{1,5}\d{4}(\D|$)/.test(written)) return false;
  }
  const cues = cuesBefore(doc, words.wordStart);
  if (PERSONAL_CUES.some((c) => cues.has(c))) return false;
  for (let k = Math.max(0, words.wordStart - PERSON_ID_WINDOW); k < words.wordStart; k++) if (PERSON_IDS.test(doc.words[k].norm)) return false;
  return afterReferenceCue(doc, words.wordStart, false, words.wordEnd);
}

/** Letters spelled one by one right before word i, none of them "a" or "i" alone ("h o", "c l m"): their count. */
function spelledLettersBefore(doc: Doc, i: number): number {
  let k = i - 1;
  while (k >= 0 && /^[a-z]$/.test(doc.words[k].norm)) k--;
  const n = i - 1 - k;
  return n === 1 && /^[ai]$/.test(doc.words[i - 1].norm) ? 0 : n;
}

/** Written letters glued on before word i's digits ("HO-5528...", "CLM2026..."): a word of letters, nothing or a hyphen between. */
function letteredWritten(doc: Doc, i: number): boolean {
  const w = doc.words[i];
  if (/^\p{L}+-?\d/u.test(w.raw)) return true;
  const before = doc.words[i - 1];
  return before !== undefined && /^\p{L}+$/u.test(before.norm) && /^-?$/.test(doc.text.slice(before.end, w.start));
}

/** The net's floors over one group of digits: an SSN's, and a card's too when it is long enough. */
function pushNet(doc: Doc, out: Detection[], digits: string, words: { wordStart: number; wordEnd: number } | undefined, make: (kind: Detection['kind'], confidence: number) => Detection): void {
  if (digits.length < SSN_DIGITS || reference(doc, words, digits)) return;
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
    // letters glued before the digits ("HO-5528-1934-07", "CLM2026448120"): a thing's code after its cue
    const lettered = from > 0 && (isLetterAt(s, from - 1) || (s[from - 1] === '-' && from > 1 && isLetterAt(s, from - 2)));
    if (at && lettered && letterCode(doc, at, [digits.length], s.slice(from, to))) continue;
    pushNet(doc, out, digits, at, (kind, c) => fromChars(doc, kind, start, end, c, DIGIT_NET));
  }

  // Spoken digits ("four one one one …"): numtrans runs, joined across fillers.
  for (const run of digitRuns(doc)) {
    // letters spelled before it ("h o five five two ...": the "o" may be a letter or a zero)
    // (written: letters glued on, "HO-5528-1934-07", as above)
    const first = doc.words[run.wordStart].norm;
    if (doc.spoken && spelledLettersBefore(doc, run.wordStart) > 0 && letterCode(doc, run, /^(o|oh)$/.test(first) ? [run.digits.length, run.digits.length - 1] : [run.digits.length])) continue;
    if (!doc.spoken && letteredWritten(doc, run.wordStart) && letterCode(doc, run, [run.digits.length], run.formatted)) continue;
    pushNet(doc, out, run.digits, run, (kind, c) => fromWords(doc, kind, run.wordStart, run.wordEnd, c, DIGIT_NET));
  }
  return out;
};
