// ABA routing numbers: 9 digits; a routing cue labels them, the ABA checksum raises confidence. Without a cue a
// valid checksum alone stays below an SSN reading.
import { fromWords, type Recognizer } from './doc.js';
import { abaValid, digitRuns } from './digitRuns.js';
import { afterReferenceCue } from './referenceNumber.js';
import type { Detection } from '../types.js';

export const abaRoutingRecognizer: Recognizer = (doc) => {
  const out: Detection[] = [];
  for (const r of digitRuns(doc)) {
    if (r.digits.length !== 9) continue;
    const valid = abaValid(r.digits);
    if (r.cues.has('routing')) out.push(fromWords(doc, 'ABARoutingNumber', r.wordStart, r.wordEnd, valid ? 0.95 : 0.8, 'aba-routing'));
    else if (valid && r.cues.has('account')) out.push(fromWords(doc, 'ABARoutingNumber', r.wordStart, r.wordEnd, 0.6, 'aba-routing'));
    else if (valid && !afterReferenceCue(doc, r.wordStart, true)) out.push(fromWords(doc, 'ABARoutingNumber', r.wordStart, r.wordEnd, 0.4, 'aba-routing'));
  }
  return out;
};
