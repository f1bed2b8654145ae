// Card verification codes: 3-4 digits after a cue ("security code", "cvv", "c i d", "the three digits on the back"),
// or the code said twice to check it ("509, 5-0-9": one run of 6 or 8 digits), each saying its own CVV.
import { fromWords, type Recognizer } from './doc.js';
import { answerOnly, digitRuns, isRepeat, repeatSplit, type DigitRun } from './digitRuns.js';
import type { Doc } from './doc.js';
import type { Detection } from '../types.js';

const SIZES = [3, 4];

/** A turn about paying by card. */
const PAYING: ReadonlySet<string> = new Set(['payment', 'pay', 'paying', 'charge', 'charging', 'card', 'process', 'processing', 'checkout', 'transaction', 'billing']);
/** What follows an amount or a count, not a code. */
const UNIT = /^(dollars?|bucks|cents?|percent|minutes?|hours?|days?|months?|years?|times|people|items?|feet|miles|pounds|gigs?|gb|mb)$/;

/**
 * A code read back alone at the start of a turn about paying ("That's 714, thank you, I'll process the payment"): no
 * cue, 3-4 digits said one by one (written: plain digits, no "$"), no unit after; the question was the other party's.
 */
function codeReadBack(doc: Doc, r: DigitRun): boolean {
  if (r.cues.size > 0 || !SIZES.includes(r.digits.length) || !answerOnly(doc, [[r.wordStart, doc.words.length]])) return false;
  if (doc.spoken ? r.wordEnd - r.wordStart !== r.digits.length : !/^\d{3,4}$/.test(r.formatted) || doc.text[doc.words[r.wordStart].start - 1] === '$') return false;
  if (UNIT.test(doc.words[r.wordEnd]?.norm ?? '')) return false;
  return doc.words.some((w) => PAYING.has(w.norm));
}

export const cvvRecognizer: Recognizer = (doc) => {
  const out: Detection[] = [];
  for (const r of digitRuns(doc)) {
    if (codeReadBack(doc, r)) out.push(fromWords(doc, 'CVV', r.wordStart, r.wordEnd, 0.6, 'cvv'));
    if (!r.cues.has('cvv')) continue;
    if (SIZES.includes(r.digits.length)) {
      out.push(fromWords(doc, 'CVV', r.wordStart, r.wordEnd, 0.9, 'cvv'));
    } else if (isRepeat(r, SIZES)) {
      const at = repeatSplit(doc, r, SIZES);
      if (at === undefined) out.push(fromWords(doc, 'CVV', r.wordStart, r.wordEnd, 0.9, 'cvv'));
      else out.push(fromWords(doc, 'CVV', r.wordStart, at, 0.9, 'cvv'), fromWords(doc, 'CVV', at, r.wordEnd, 0.9, 'cvv'));
    }
  }
  return out;
};
