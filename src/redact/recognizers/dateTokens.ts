// Date phrases after a cue, over numtrans tokens: "12/27/1986", "march third nineteen eighty five",
// "oh four twenty six", "04/26", "the fifth of june 1990".
import type { Doc } from './doc.js';
import { CORRECTION } from './digitRuns.js';

const MONTHS = new Set([
  'january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december',
  'jan', 'feb', 'mar', 'apr', 'jun', 'jul', 'aug', 'sep', 'sept', 'oct', 'nov', 'dec',
]);
const ORDINALS = new Set(['first', 'second', 'third', 'fourth', 'fifth', 'sixth', 'seventh', 'eighth', 'ninth', 'tenth', 'eleventh', 'twelfth', 'thirteenth', 'fourteenth', 'fifteenth', 'sixteenth', 'seventeenth', 'eighteenth', 'nineteenth', 'twentieth', 'thirtieth']);
const DIGIT_WORDS = new Set(['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'oh', 'zero']);
const SKIP = new Set(['is', 'was', 'it', "it's", 'its', 'on', 'date', 'my', 'the', 'of', 'in', 'um', 'uh', 'er', 'at', 'number', 'day', 'be', 'would', 'will', 'and', 'that', "that's", 'thats', 'be', 'ah', 'so', 'a', 'birth', 'birthday', 'expiration', 'expiry', 'exp', "date's", 'dates', 'out']);
const WRITTEN_DATE = /^(\d{1,4}[/.-]\d{1,2}([/.-]\d{1,4})?|\d{1,2}[/.-]\d{4}|\d{1,2}(st|nd|rd|th))$/;
/** A format hint between a cue and its date: "(MM/DD/YYYY)", "dd-mm-yy", or punctuation alone ("-", ":"). */
const HINT = /^(\(?(mm|dd|yyyy|yy|m|d)([/.-](mm|dd|yyyy|yy|m|d))*\)?:?|[^\p{L}\p{N}]*)$/u;

function dateish(text: string, isNumber: boolean): boolean {
  return (isNumber && text.length <= 8) || MONTHS.has(text) || ORDINALS.has(text) || DIGIT_WORDS.has(text) || WRITTEN_DATE.test(text);
}

/**
 * Token k is a percentage ("20%", "20 percent"), no part of a date before it ("expires 12/31, 20% off"). One word
 * only: numtrans joins a spoken percentage to the date before it ("twelve thirty one twenty"), kept whole then.
 */
function percentage(doc: Doc, k: number): boolean {
  const t = doc.tokens[k];
  return t.isNumber && t.wordEnd - t.wordStart === 1 && (/%$/.test(doc.words[t.wordEnd - 1].raw) || /^(percent|%)$/.test(doc.words[t.wordEnd]?.norm ?? doc.words[t.wordEnd]?.raw ?? ''));
}

/**
 * Words [wordStart, wordEnd) of the date phrase starting within a few words after word index `after`. `reach`
 * tokens of anything (not only fillers) may come first when the caller says so ("date of birth please, sure,
 * it's march fourth"); `stop` ends the search at a word that opens something else (another cue).
 */
export function dateAfter(doc: Doc, after: number, reach = 0, stop?: (word: string) => boolean): { wordStart: number; wordEnd: number } | undefined {
  const t = doc.tokens;
  let i = doc.tokenOfWord[after] + 1;
  let skipped = 0;
  for (;;) {
    if (i >= t.length) break;
    const w = t[i].text.toLowerCase();
    if (dateish(w, t[i].isNumber)) break;
    if (HINT.test(w) && !t[i].isNumber) {
      i++;
      continue;
    }
    if (stop?.(w)) return undefined;
    if (!(SKIP.has(w) && skipped < 4) && !(skipped < reach)) break;
    i++;
    skipped++;
  }
  const first = i;
  let last = -1;
  let k = i;
  while (k < t.length && k - first < 8) {
    const w = t[k].text.toLowerCase().replace(/[,.]$/, '');
    if (percentage(doc, k)) break;
    if (dateish(w, t[k].isNumber)) last = k;
    // "the fifth month of 2028": a month said by its number
    else if (!(w === 'of' || w === 'the' || w === 'uh' || w === 'um' || w === 'slash' || w === 'dash' || (w === 'month' && k > first))) break;
    k++;
  }
  if (last < first) return undefined;
  return { wordStart: t[first].wordStart, wordEnd: t[last].wordEnd };
}

/** Words between a date and its correction, at most: "11/05/83, no, 11/15/83", "oh five eighty three sorry i mean". */
const CORRECTION_GAP = 4;

/**
 * The date that corrects the one ending at word `end`: a correction word ("no", "sorry", "I mean", "actually") within
 * a few words, then a date (dateAfter) right after it: "Birthday is 11/05/83, no, 11/15/83". It is of the kind the
 * corrected date was.
 */
export function correctionAfter(doc: Doc, end: number): { wordStart: number; wordEnd: number } | undefined {
  for (let k = end; k < Math.min(doc.words.length, end + CORRECTION_GAP); k++) {
    if (!CORRECTION.has(doc.words[k].norm)) continue;
    // the last correction word before the date: "no, sorry, 11/15/83"
    let c = k;
    while (c + 1 < doc.words.length && c + 1 - k < CORRECTION_GAP && (CORRECTION.has(doc.words[c + 1].norm) || doc.words[c + 1].norm === 'i')) c++;
    const d = dateAfter(doc, c);
    return d && d.wordStart - c <= 3 ? d : undefined;
  }
  return undefined;
}
