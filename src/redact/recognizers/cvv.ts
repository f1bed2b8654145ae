// Card verification codes: 3-4 digits after a cue ("security code", "cvv", "c i d", "the three digits on the back"),
// or the code said twice to check it ("509, 5-0-9": one run of 6 or 8 digits), each saying its own CVV.
import { fromWords, type Recognizer } from './doc.js';
import { digitRuns, isRepeat, repeatSplit } from './digitRuns.js';
import type { Detection } from '../types.js';

const SIZES = [3, 4];

export const cvvRecognizer: Recognizer = (doc) => {
  const out: Detection[] = [];
  for (const r of digitRuns(doc)) {
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
