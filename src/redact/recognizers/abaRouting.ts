// ABA routing numbers: 9 digits; a routing cue labels them, the ABA checksum raises confidence. Without a cue a
// valid checksum alone stays below an SSN reading, unless a bank is named around it ("It's 110786201, that's the
// Texas one, not the Oklahoma branch").
import { fromWords, type Doc, type Recognizer } from './doc.js';
import { abaValid, digitRuns, type DigitRun } from './digitRuns.js';
import { afterReferenceCue } from './referenceNumber.js';
import type { Detection } from '../types.js';

/** A bank's words: what a routing number is said beside. */
const BANK = /^(bank|banks|bank's|branch|branches|branch's|union|unions|union's|wire|ach|payroll|deposit|transit)$/;
/** Words looked at on each side of the number. */
const BANK_WORDS = 10;

/** A bank word within BANK_WORDS words of the run, no SSN's cue before it. */
function bankBeside(doc: Doc, r: DigitRun): boolean {
  if (r.cues.has('ssn')) return false;
  const from = Math.max(0, r.wordStart - BANK_WORDS);
  const to = Math.min(doc.words.length, r.wordEnd + BANK_WORDS);
  for (let k = from; k < to; k++) if ((k < r.wordStart || k >= r.wordEnd) && BANK.test(doc.words[k].norm)) return true;
  return false;
}

export const abaRoutingRecognizer: Recognizer = (doc) => {
  const out: Detection[] = [];
  for (const r of digitRuns(doc)) {
    if (r.digits.length !== 9) continue;
    const valid = abaValid(r.digits);
    if (r.cues.has('routing')) out.push(fromWords(doc, 'ABARoutingNumber', r.wordStart, r.wordEnd, valid ? 0.95 : 0.8, 'aba-routing'));
    else if (valid && r.cues.has('account')) out.push(fromWords(doc, 'ABARoutingNumber', r.wordStart, r.wordEnd, 0.6, 'aba-routing'));
    // above an SSN reading with no cue (0.65), below one written 3-2-4 (0.8) or after "social" (0.95)
    else if (valid && bankBeside(doc, r)) out.push(fromWords(doc, 'ABARoutingNumber', r.wordStart, r.wordEnd, 0.7, 'aba-routing'));
    else if (valid && !afterReferenceCue(doc, r.wordStart, true, r.wordEnd)) out.push(fromWords(doc, 'ABARoutingNumber', r.wordStart, r.wordEnd, 0.4, 'aba-routing'));
  }
  return out;
};
