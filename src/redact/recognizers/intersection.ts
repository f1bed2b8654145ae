// Intersections as addresses (issue #32: "the corner of A and B" left the second street): "the corner of Maple and
// Seventh", "at Fifth and Pine", "corner of elm and fourth". After "corner of" any two short street names; after
// "at"/"on"/"near" only where one of them is a numbered street ("Fifth", "5th") or a street type follows, so that
// "at work and home" is not one. Written, the street words must be capitalised (or numbered).
import { endsClause, fromWords, type Doc, type Recognizer } from './doc.js';
import { STREET_SUFFIX, STREET_TYPES_MORE } from './places.js';
import { STOP } from './stopwords.js';
import type { Detection } from '../types.js';
import { caseless } from './caseless.js';
import { normReader } from './normReader.js';

const ORDINAL = /^(\d+(st|nd|rd|th)|first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|thirteenth|fourteenth|fifteenth|sixteenth|seventeenth|eighteenth|nineteenth|twentieth)$/;
const STREET_WORD: ReadonlySet<string> = new Set([...STREET_SUFFIX, ...STREET_TYPES_MORE]);

/** Word i may be part of a street's name. */
function streetWord(doc: Doc, i: number): boolean {
  const w = doc.words[i];
  if (!w || !/^[\p{L}\d][\p{L}\d'.-]*$/u.test(w.norm) || (STOP.has(w.norm) && !STREET_WORD.has(w.norm))) return false;
  return caseless(doc) || ORDINAL.test(w.norm) || /^\p{Lu}/u.test(w.raw) || STREET_WORD.has(w.norm);
}

/** A street name of one or two words (and a street type) from word i: its end, or i when none. */
function streetFrom(doc: Doc, i: number): number {
  let k = i;
  while (k < doc.words.length && k - i < 3 && streetWord(doc, k) && doc.words[k].norm !== 'and' && !(k > i && endsClause(doc, k - 1))) {
    k++;
    if (endsClause(doc, k - 1)) break;
    // said, a second word joins only when it is a street type ("maple avenue and ..."): "pine right by" stops
    if (caseless(doc) && !STREET_WORD.has(doc.words[k]?.norm ?? '')) break;
  }
  return k;
}

/** An intersection is said with "and" or "&": one test a doc. */
const ANY_AND = /\b(and)\b|&/i;

export const intersectionRecognizer: Recognizer = (doc) => {
  const out: Detection[] = [];
  if (!ANY_AND.test(doc.text)) return out;
  const w = normReader(doc);
  for (let i = 0; i < doc.words.length; i++) {
    const corner = w(i) === 'corner' && w(i + 1) === 'of';
    const at = /^(at|on|near|by)$/.test(w(i)) && !endsClause(doc, i);
    if (!corner && !at) continue;
    const a = corner ? i + 2 : i + 1;
    const aEnd = streetFrom(doc, a);
    if (aEnd === a || endsClause(doc, aEnd - 1) || !/^(and|&)$/.test(w(aEnd))) continue;
    const b = aEnd + 1;
    const bEnd = streetFrom(doc, b);
    if (bEnd === b) continue;
    const numbered = [a, aEnd - 1, b, bEnd - 1].some((k) => ORDINAL.test(w(k)) || STREET_WORD.has(w(k)));
    if (!corner && !numbered) continue;
    out.push(fromWords(doc, 'Address', a, bEnd, 0.6, 'intersection'));
    i = bEnd - 1;
  }
  return out;
};
