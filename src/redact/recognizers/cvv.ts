// Card verification codes: 3-4 digits after a cue ("security code", "cvv", "code on the back").
import { fromWords, type Recognizer } from './doc.js';
import { digitRuns } from './digitRuns.js';

export const cvvRecognizer: Recognizer = (doc) =>
  digitRuns(doc)
    .filter((r) => r.cues.has('cvv') && (r.digits.length === 3 || r.digits.length === 4))
    .map((r) => fromWords(doc, 'CVV', r.wordStart, r.wordEnd, 0.9, 'cvv'));
