// US Social Security numbers: every 9-digit run is at least a possible SSN (never let one through); SSA area
// rules, the 3-2-4 written format and a cue ("social", "ssn") raise confidence; another kind's cue lowers it so
// that recognizer's label wins the overlap. An order's, a parcel's, a case's number (referenceNumber.ts) is none.
import { fromWords, type Recognizer } from './doc.js';
import { digitRuns, ssnValid } from './digitRuns.js';
import { afterReferenceCue } from './referenceNumber.js';
import type { Detection } from '../types.js';

const OTHER = ['routing', 'account', 'license', 'passport', 'zip', 'phone', 'card'] as const;

export const ssnRecognizer: Recognizer = (doc) => {
  const out: Detection[] = [];
  for (const run of digitRuns(doc)) {
    const n = run.digits.length;
    const cue = run.cues.has('ssn');
    if (n === 9) {
      // a parcel's, an order's, a case's number ("tracking number 1Z 999 AA1 ..."), no personal cue between
      if (!cue && afterReferenceCue(doc, run.wordStart, true)) continue;
      let c = 0.5;
      if (ssnValid(run.digits)) c += 0.15;
      if (/^\d{3}[- ]\d{2}[- ]\d{4}$/.test(run.formatted)) c += 0.15;
      if (cue) c += 0.3;
      else if (OTHER.some((o) => run.cues.has(o))) c = 0.3;
      out.push(fromWords(doc, 'USSocialSecurityNumber', run.wordStart, run.wordEnd, c, 'ssn'));
    } else if (cue && n >= 4 && n <= 11) {
      // a misheard or partial SSN ("last four of your social") after an explicit cue
      out.push(fromWords(doc, 'USSocialSecurityNumber', run.wordStart, run.wordEnd, 0.75, 'ssn'));
    }
  }
  return out;
};
