// US driver's license numbers: a cue ("driver's license", "license number", "dl") and an alphanumeric run, the state
// that issued it maybe between ("License is New York, 718 402 559"), a few words on when the cue was a request ("the
// driver's license number works. — Okay, D4829173"), or the run and then the cue ("..., no wait, that's my license",
// "..., it's a California license").
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
    // far only after the word "license" ("d l four oh two" may be a flight's)
    else if (!said && w.norm !== 'dl') {
      const far = farId(doc, i);
      if (far) out.push(fromWords(doc, 'USDriversLicenseNumber', far.wordStart, far.wordEnd, FAR_CONFIDENCE, 'drivers-license'));
    }
  });
  // named after it: "the reference is D123-4567... no wait, that's my license"
  for (const r of idRunsBefore(doc)) out.push(fromWords(doc, 'USDriversLicenseNumber', r.wordStart, r.wordEnd, 0.85, 'drivers-license'));
  return out;
};

/**
 * How many words after the cue a license-shaped id is still taken: the request, then the answer ("the driver's
 * license number works. — Okay, D4829173").
 */
const REACH = 10;
/** Below a cue's own kind said nearer the id (a card's, a phone's 0.85-0.95), above the digit net and an SSN with no cue. */
const FAR_CONFIDENCE = 0.7;
/** Words that open another value, or a plate's number: no license's id after them. */
const OTHER_VALUE = /^(card|social|ssn|phone|cell|account|routing|zip|postcode|passport|email|plate|plates|birth|born|dob|expiration|expires|expiry|policy|claim|order|ticket|case|reference|confirmation|member|vin|serial|model|tag|flight|key|software)$/;

/**
 * An id said a few more words after a license's cue (the agent's request, then the caller's answer): its first word
 * within REACH words, nothing opening another value between, at least five digits ("Okay, D4829173", "d four eight
 * two nine one seven three").
 */
function farId(doc: Doc, i: number): { wordStart: number; wordEnd: number } | undefined {
  for (let k = i + 1; k < Math.min(doc.words.length - 1, i + REACH); k++) {
    if (OTHER_VALUE.test(doc.words[k].norm)) return undefined;
    const far = idAfter(doc, k);
    if (far && far.wordStart === k + 1 && far.digits >= 5) return far;
  }
  return undefined;
}

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
    if (k > i && chars >= 5 && chars <= 20 && digits >= 3 && (cuesAfter(doc, t[k - 1].wordEnd).has('license') || stateLicenseAfter(doc, t[k - 1].wordEnd)))
      out.push({ wordStart: t[i].wordStart, wordEnd: t[k - 1].wordEnd });
    i = Math.max(k, i + 1);
  }
  return out;
}

/** Said between an id and the state's license it is: "D4829173, it's a California license", "that's an Ohio DL". */
const STATE_LICENSE_LEAD = /^(it's|its|it|is|that's|thats|that|a|an|my|the|from|out|of)$/;

/** "..., it's a California license": a state's name and then "license" (or "DL") said right after the id ending at `end`. */
function stateLicenseAfter(doc: Doc, end: number): boolean {
  const w = (k: number) => doc.words[k]?.norm ?? '';
  let k = end;
  while (k - end < 3 && STATE_LICENSE_LEAD.test(w(k))) k++;
  if (STATE_FIRST.test(w(k)) && (STATE_NAMES.has(w(k + 1)) || w(k + 1) === 'island')) k += 2;
  else if (STATE_NAMES.has(w(k))) k++;
  else return false;
  if (/^(drivers|driver's)$/.test(w(k))) k++;
  return /^(license|licence|dl)$/.test(w(k)) || (w(k) === 'd' && w(k + 1) === 'l');
}
