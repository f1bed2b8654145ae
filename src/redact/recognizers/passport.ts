// US passport numbers: a cue ("passport", "passport number") and an alphanumeric run (9 characters in the US).
import { fromWords, type Recognizer } from './doc.js';
import { idAfter } from './idNumber.js';
import type { Detection } from '../types.js';

const PASSPORT = /^passport(?:'?s)?$/;

export const passportRecognizer: Recognizer = (doc) => {
  const out: Detection[] = [];
  doc.words.forEach((w, i) => {
    // "passport's", "passports" (said for "passport is") cue it as well
    if (!PASSPORT.test(w.norm)) return;
    const d = idAfter(doc, i);
    if (d) out.push(fromWords(doc, 'USPassportNumber', d.wordStart, d.wordEnd, d.chars === 9 ? 0.9 : 0.8, 'passport'));
  });
  return out;
};
