// Dates of birth: a cue ("date of birth", "born on", "birthday", "dob") and a date after it.
import { fromWords, type Recognizer } from './doc.js';
import { dateAfter } from './dateTokens.js';
import type { Detection } from '../types.js';

const CUE = /^(birth|born|birthday|dob|birthdate|d\.o\.b)$/;

export const dateOfBirthRecognizer: Recognizer = (doc) => {
  const out: Detection[] = [];
  doc.words.forEach((w, i) => {
    if (!CUE.test(w.norm)) return;
    const d = dateAfter(doc, i);
    if (d && d.wordStart - i <= 5) out.push(fromWords(doc, 'DateOfBirth', d.wordStart, d.wordEnd, 0.85, 'date-of-birth'));
  });
  return out;
};
