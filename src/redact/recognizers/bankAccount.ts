// US bank account numbers: 4-17 digits after an account cue ("account number", "checking", "savings"). A short
// run in a range ("account summary period eleven oh one to eleven thirty", "from 9 to 5") is dates or times.
import { fromWords, type Doc, type Recognizer } from './doc.js';
import { digitRuns, type DigitRun } from './digitRuns.js';
import type { Detection } from '../types.js';

const RANGE = /^(to|through|thru|till|til|until)$/;
/** The most digits a date or time in a range has ("1101", "11/30" said "eleven thirty"). */
const RANGE_DIGITS = 4;

/** Whether runs a and b (a first) are the two ends of a range: short, one range word between. */
function range(doc: Doc, a: DigitRun | undefined, b: DigitRun | undefined): boolean {
  return !!a && !!b && a.digits.length <= RANGE_DIGITS && b.digits.length <= RANGE_DIGITS && b.wordStart === a.wordEnd + 1 && RANGE.test(doc.words[a.wordEnd].norm);
}

/** A year said after "since" ("had this account since 1967", "since nineteen sixty seven"): when, not a number. */
const sinceYear = (doc: Doc, r: DigitRun) =>
  r.digits.length === 4 && /^(19|20)\d\d$/.test(r.digits) && doc.words[r.wordStart - 1]?.norm === 'since' && !NAMED.test(doc.words[r.wordStart - 2]?.norm ?? '');
/** Words between "since <year>" and the account's number, at most: "is", "number is", ", the number's". */
const YEAR_GAP = 4;
/** What names the number said next ("account number is since ..." is a number misheard, not a year): no "since" then. */
const NAMED = /^(is|was|number|numbers|number's|no|#|its|it's)$/;

export const bankAccountRecognizer: Recognizer = (doc) => {
  const runs = digitRuns(doc);
  const out: Detection[] = [];
  runs.forEach((r, i) => {
    const n = r.digits.length;
    // "my account since 1982 is 4471 2290": the account's cue, heard before the year, names the number after it
    const p = runs[i - 1];
    const afterYear = p !== undefined && p.cues.has('account') && !p.cues.has('routing') && sinceYear(doc, p) && r.wordStart - p.wordEnd <= YEAR_GAP;
    if (!(r.cues.has('account') || afterYear) || r.cues.has('routing') || n < 4 || n > 17 || (r.cues.has('ending') && n === 4)) return;
    if (n <= RANGE_DIGITS && (range(doc, r, runs[i + 1]) || range(doc, runs[i - 1], r))) return;
    if (sinceYear(doc, r)) return;
    out.push(fromWords(doc, 'USBankAccountNumber', r.wordStart, r.wordEnd, r.cues.has('card') && n >= 13 ? 0.5 : 0.8, 'bank-account'));
  });
  return out;
};
