// ZIP codes: a 5-digit run (or 9 for ZIP+4) after a cue ("zip", "zip code", "postal code"), or after a state
// ("CA 90210", "california nine oh two one oh").
import { fromChars, fromWords, type Recognizer } from './doc.js';
import { digitRuns } from './digitRuns.js';
import { STATE_ABBR, STATE_NAMES } from './places.js';
import type { Detection } from '../types.js';

export const zipCodeRecognizer: Recognizer = (doc) => {
  const out: Detection[] = [];
  for (const r of digitRuns(doc)) {
    const n = r.digits.length;
    if (n !== 5 && n !== 9) continue;
    const prev = doc.words[r.wordStart - 1];
    const stateBefore = prev && (STATE_NAMES.has(prev.norm) || STATE_ABBR.has(prev.raw.replace(/[^A-Za-z]/g, '')) && /^[A-Z]{2},?$/.test(prev.raw));
    if (r.cues.has('zip')) out.push(fromWords(doc, 'ZipCode', r.wordStart, r.wordEnd, 0.9, 'zip-code'));
    else if (stateBefore && (n === 5 || /^\d{5}-\d{4}$/.test(r.formatted))) out.push(fromWords(doc, 'ZipCode', r.wordStart, r.wordEnd, 0.75, 'zip-code'));
  }
  // written ZIP+4 anywhere
  for (const m of doc.text.matchAll(/(?<![\w-])\d{5}-\d{4}(?![\w-])/g)) out.push(fromChars(doc, 'ZipCode', m.index!, m.index! + m[0].length, 0.6, 'zip-code'));
  return out;
};
