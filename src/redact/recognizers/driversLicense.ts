// US driver's license numbers: a cue ("driver's license", "license number", "dl") and an alphanumeric run, or the
// run and then the cue ("..., no wait, that's my license").
import { cuesAfter } from './digitRuns.js';
import { fromWords, type Doc, type Recognizer } from './doc.js';
import { idAfter, idPiece } from './idNumber.js';
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
  // named after it: "the reference is D123-4567... no wait, that's my license"
  for (const r of idRunsBefore(doc)) out.push(fromWords(doc, 'USDriversLicenseNumber', r.wordStart, r.wordEnd, 0.85, 'drivers-license'));
  return out;
};

/** Id-shaped runs (idNumber.ts's pieces) followed by "that's my license" (cuesAfter). */
function idRunsBefore(doc: Doc): { wordStart: number; wordEnd: number }[] {
  const out: { wordStart: number; wordEnd: number }[] = [];
  if (!/\b(license|licence)\b/i.test(doc.text)) return out;
  const t = doc.tokens;
  for (let i = 0; i < t.length; ) {
    let k = i;
    let chars = 0;
    let digits = 0;
    while (k < t.length && idPiece(t[k]) && k - i < 12) {
      chars += t[k].text.replace(/[^a-z0-9]/gi, '').length;
      digits += t[k].text.replace(/\D/g, '').length;
      k++;
    }
    if (k > i && chars >= 5 && chars <= 20 && digits >= 3 && cuesAfter(doc, t[k - 1].wordEnd).has('license')) out.push({ wordStart: t[i].wordStart, wordEnd: t[k - 1].wordEnd });
    i = Math.max(k, i + 1);
  }
  return out;
}
