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

/** What names a paper check (a noun, not "let me check"): "the check", "a voided check", "of my cheque". */
const CHECK = /^(check|checks|check's|cheque|cheques)$/;
const CHECK_BEFORE = /^(the|a|my|your|his|her|their|our|voided|void|blank|personal|paper|business|of)$/;
const checkAt = (doc: Doc, k: number) => CHECK.test(doc.words[k].norm) && CHECK_BEFORE.test(doc.words[k - 1]?.norm ?? '');

/** A bank word (or a paper check) within BANK_WORDS words of the run, no SSN's cue before it. */
function bankBeside(doc: Doc, r: DigitRun): boolean {
  if (r.cues.has('ssn')) return false;
  const from = Math.max(0, r.wordStart - BANK_WORDS);
  const to = Math.min(doc.words.length, r.wordEnd + BANK_WORDS);
  for (let k = from; k < to; k++) if ((k < r.wordStart || k >= r.wordEnd) && (BANK.test(doc.words[k].norm) || checkAt(doc, k))) return true;
  return false;
}

/** How sure run r is a routing number (the ABA reading's confidence), or undefined when it is none. */
export function routingConfidence(doc: Doc, r: DigitRun): number | undefined {
  if (r.digits.length !== 9) return undefined;
  const valid = abaValid(r.digits);
  if (r.cues.has('routing')) return valid ? 0.95 : 0.8;
  if (!valid) return undefined;
  if (r.cues.has('account')) return 0.6;
  // above an SSN reading with no cue (0.65), below one written 3-2-4 (0.8) or after "social" (0.95)
  if (bankBeside(doc, r)) return 0.7;
  if (!afterReferenceCue(doc, r.wordStart, true, r.wordEnd)) return 0.4;
  return undefined;
}

export const abaRoutingRecognizer: Recognizer = (doc) => {
  const out: Detection[] = [];
  for (const r of digitRuns(doc)) {
    const c = routingConfidence(doc, r);
    if (c !== undefined) out.push(fromWords(doc, 'ABARoutingNumber', r.wordStart, r.wordEnd, c, 'aba-routing'));
  }
  return out;
};
