// US driver's license numbers: a cue ("driver's license", "license number", "dl") and an alphanumeric run.
import { fromWords, type Recognizer } from './doc.js';
import { idAfter } from './idNumber.js';
import type { Detection } from '../types.js';

export const driversLicenseRecognizer: Recognizer = (doc) => {
  const out: Detection[] = [];
  doc.words.forEach((w, i) => {
    // "d l" is how ASR writes "DL"
    const said = w.norm === 'l' && doc.words[i - 1]?.norm === 'd';
    if (!said && !/^(license|licence|dl)$/.test(w.norm)) return;
    const d = idAfter(doc, i);
    if (d) out.push(fromWords(doc, 'USDriversLicenseNumber', d.wordStart, d.wordEnd, 0.85, 'drivers-license'));
  });
  return out;
};
