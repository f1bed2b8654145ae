// Card expiration dates: a cue ("expiration", "expires", "exp", "valid thru") and a month/year after it.
import { fromWords, type Recognizer } from './doc.js';
import { dateAfter } from './dateTokens.js';
import type { Detection } from '../types.js';

const CUE = /^(expiration|expiry|expires|expire|expiring|exp|thru|through)$/;

export const expirationDateRecognizer: Recognizer = (doc) => {
  const out: Detection[] = [];
  doc.words.forEach((w, i) => {
    if (!CUE.test(w.norm)) return;
    if ((w.norm === 'thru' || w.norm === 'through') && !/^(valid|good)$/.test(doc.words[i - 1]?.norm ?? '')) return;
    const d = dateAfter(doc, i);
    if (d) out.push(fromWords(doc, 'ExpirationDate', d.wordStart, d.wordEnd, 0.85, 'expiration-date'));
  });
  return out;
};
