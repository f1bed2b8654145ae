// US passport numbers: a cue ("passport", "passport number") and an alphanumeric run (9 characters in the US).
import { fromWords, type Recognizer } from './doc.js';
import { idAfter } from './idNumber.js';
import type { Detection } from '../types.js';

const PASSPORT = /^passport(?:'?s)?$/;
/** How many words after the cue a passport-shaped id is still taken. */
const REACH = 8;

export const passportRecognizer: Recognizer = (doc) => {
  const out: Detection[] = [];
  doc.words.forEach((w, i) => {
    // "passport's", "passports" (said for "passport is") cue it as well
    if (!PASSPORT.test(w.norm)) return;
    const d = idAfter(doc, i);
    if (d) out.push(fromWords(doc, 'USPassportNumber', d.wordStart, d.wordEnd, d.chars === 9 ? 0.9 : 0.8, 'passport'));
    // more words between ("the passport on the booking as C07734182"): a passport's shape only, 8-10 characters,
    // mostly digits, within REACH words; after a shorter id too ("passport — a 12 34, no, C07734182")
    if (!d || d.chars < 8) {
      for (let k = d ? d.wordEnd - 1 : i + 1; k < Math.min(doc.words.length - 1, i + REACH); k++) {
        const far = idAfter(doc, k);
        if (far && far.wordStart === k + 1 && far.chars >= 8 && far.chars <= 10 && far.digits >= 6) {
          out.push(fromWords(doc, 'USPassportNumber', far.wordStart, far.wordEnd, 0.75, 'passport'));
          break;
        }
      }
    }
  });
  return out;
};
