// US Social Security numbers: every 9-digit run is at least a possible SSN (never let one through); SSA area
// rules, the 3-2-4 written format and a cue ("social", "ssn") raise confidence; another kind's cue lowers it so
// that recognizer's label wins the overlap. An order's, a parcel's, a case's number (referenceNumber.ts) is none.
// Four digits after "the last four", no other kind's cue, are an SSN's last four; after "the last four of the
// social", whatever else is asked beside it, too.
import { fromWords, type Doc, type Recognizer } from './doc.js';
import { CUE_WINDOW, digitRuns, lastFourOf, ssnValid, type DigitRun } from './digitRuns.js';
import { afterReferenceCue } from './referenceNumber.js';
import type { Detection } from '../types.js';

const OTHER = ['routing', 'account', 'license', 'passport', 'zip', 'phone', 'card'] as const;
/** Other kinds' cues a 3-2-4 grouping overrules: no card or phone is written so ("off the card... 318 40 2296"). */
const NOT_GROUPED_SO = new Set(['phone', 'card']);
/** Cues of the kinds whose last four digits are asked for too; without one, "the last four" are the SSN's. */
const LAST_FOUR_OF = ['card', 'account', 'phone', 'routing', 'license', 'passport', 'zip', 'cvv', 'exp', 'dob'] as const;
/** What "the last four" counts when it is no number's digits: "the last four years", "the last 4 payments". */
const COUNTED = /^(years?|months?|weeks?|days?|hours?|minutes?|times|calls|payments|bills|statements|orders|visits)$/;

/**
 * "it's just the last four you need, right? 3817": four digits after "the last four" with no other kind's cue
 * (the card, account or phone whose last four they would be): the SSN's (the call asked for it before).
 */
function lastFour(doc: Doc, run: DigitRun): boolean {
  if (run.digits.length !== 4 || !run.cues.has('ending') || run.cues.has('ssn') || LAST_FOUR_OF.some((c) => run.cues.has(c))) return false;
  for (let k = Math.max(0, run.wordStart - CUE_WINDOW); k < run.wordStart - 1; k++) {
    const next = doc.words[k + 2]?.norm ?? '';
    // "the last four years": what is counted is no number's digits ("the last four 3817" names the digits)
    if (doc.words[k].norm === 'last' && /^(four|4)$/.test(doc.words[k + 1].norm)) return k + 2 === run.wordStart || !COUNTED.test(next);
  }
  return false;
}

/**
 * Above an account's (0.8) and a date of birth's (0.85) reading of the same four digits: "the last four of the
 * social on the account? — 9031", "the last four of your social and your date of birth — 7205, ...".
 */
const LAST_FOUR_OF_SOCIAL = 0.9;

export const ssnRecognizer: Recognizer = (doc) => {
  const out: Detection[] = [];
  const runs = digitRuns(doc);
  for (const run of runs) {
    const n = run.digits.length;
    const cue = run.cues.has('ssn');
    if (n === 4 && lastFourOf(doc, run, runs) === 'ssn') {
      out.push(fromWords(doc, 'USSocialSecurityNumber', run.wordStart, run.wordEnd, LAST_FOUR_OF_SOCIAL, 'ssn'));
    } else if (n === 9) {
      // a parcel's, an order's, a case's number ("tracking number 1Z 999 AA1 ..."), no personal cue between
      if (!cue && afterReferenceCue(doc, run.wordStart, true, run.wordEnd)) continue;
      let c = 0.5;
      if (ssnValid(run.digits)) c += 0.15;
      const grouped = /^\d{3}[- ]\d{2}[- ]\d{4}$/.test(run.formatted);
      if (grouped) c += 0.15;
      if (cue) c += 0.3;
      else if (OTHER.some((o) => run.cues.has(o) && !(grouped && NOT_GROUPED_SO.has(o)))) c = 0.3;
      out.push(fromWords(doc, 'USSocialSecurityNumber', run.wordStart, run.wordEnd, c, 'ssn'));
    } else if (cue && n >= 4 && n <= 11) {
      // a misheard or partial SSN ("last four of your social") after an explicit cue
      out.push(fromWords(doc, 'USSocialSecurityNumber', run.wordStart, run.wordEnd, 0.75, 'ssn'));
    } else if (lastFour(doc, run)) {
      out.push(fromWords(doc, 'USSocialSecurityNumber', run.wordStart, run.wordEnd, 0.5, 'ssn'));
    }
  }
  return out;
};
