// US driver's license numbers: a cue ("driver's license", "license number", "dl") and an alphanumeric run, the state
// that issued it maybe between ("License is New York, 718 402 559"), or the run and then the cue ("..., no wait,
// that's my license").
import { cuesAfter } from './digitRuns.js';
import { STATE_NAMES } from './places.js';
import { fromWords, type Doc, type Recognizer } from './doc.js';
import { idAfter, idPiece } from './idNumber.js';
import type { Detection } from '../types.js';
import { normReader } from './normReader.js';

export const driversLicenseRecognizer: Recognizer = (doc) => {
  const out: Detection[] = [];
  doc.words.forEach((w, i) => {
    // "d l" is how ASR writes "DL"
    const said = w.norm === 'l' && doc.words[i - 1]?.norm === 'd';
    if (!said && !/^(license|licence|dl)$/.test(w.norm)) return;
    const d = idAfter(doc, i) ?? idAfter(doc, stateAfter(doc, i));
    if (d) out.push(fromWords(doc, 'USDriversLicenseNumber', d.wordStart, d.wordEnd, 0.85, 'drivers-license'));
  });
  // named after it: "the reference is D123-4567... no wait, that's my license"
  for (const r of idRunsBefore(doc)) out.push(fromWords(doc, 'USDriversLicenseNumber', r.wordStart, r.wordEnd, 0.85, 'drivers-license'));
  return out;
};

/** The first word of a two-word state's name ("new york", "north dakota", "rhode island", "west virginia"). */
const STATE_FIRST = /^(new|north|south|west|rhode|district)$/;

/**
 * The last word of a state's name said right after the cue at word i ("license is New York, ...", "dl from Ohio"),
 * or i when none is: the id may follow the state.
 */
function stateAfter(doc: Doc, i: number): number {
  const w = normReader(doc);
  let k = i + 1;
  if (/^(is|it's|its|was|number|from|in|out|of)$/.test(w(k))) k++;
  if (/^(from|in|of|the)$/.test(w(k))) k++;
  if (STATE_FIRST.test(w(k)) && (STATE_NAMES.has(w(k + 1)) || w(k + 1) === 'island')) return k + 1;
  return STATE_NAMES.has(w(k)) ? k : i;
}

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
