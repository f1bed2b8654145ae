// International bank account numbers (IBAN): written ("GB82 WEST 1234 5698 7654 32", "DE89370400440532013000") and
// read out symbol by symbol ("g b eight two w e s t one two three four ..."). The country code fixes the length
// (ibantools' country table); the ISO 13616 mod-97 check digits and the country's BBAN format make a match sure
// without a cue. A number of the right shape whose check fails is still taken after an "IBAN" cue (misheard or
// mistyped, it is still someone's account).
import { countrySpecs, isValidIBAN } from 'ibantools';
import { fromChars, fromWords, wordsOverlapping, type Doc, type Recognizer } from './doc.js';
import { ohAsZero, symbolRuns } from './symbols.js';
import type { Detection } from '../types.js';

const CUE = /\b(iban|i b a n|international bank account)\b/;
const WRITTEN = /(?<![\p{L}\p{N}])[A-Za-z]{2}[0-9]{2}(?:[ -]?[A-Za-z0-9]){8,32}/gu;

/** The IBAN length of a country code ("gb" 22); undefined where the country has no IBAN. */
function lengthOf(country: string): number | undefined {
  const spec = (countrySpecs as Record<string, { chars: number | null } | undefined>)[country.toUpperCase()];
  return spec?.chars ?? undefined;
}

const cueBefore = (doc: Doc, wordIndex: number) => CUE.test(doc.words.slice(Math.max(0, wordIndex - 8), wordIndex).map((w) => w.norm).join(' '));

function written(doc: Doc, out: Detection[]): void {
  const s = doc.stream.text;
  for (const m of s.matchAll(WRITTEN)) {
    const n = lengthOf(m[0].slice(0, 2));
    if (!n) continue;
    // Exactly n letters and digits from the start, separators skipped.
    let taken = 0;
    let k = 0;
    while (k < m[0].length && taken < n) if (/[A-Za-z0-9]/.test(m[0][k++])) taken++;
    if (taken < n || /[A-Za-z0-9]/.test(s[m.index! + k] ?? '')) continue;
    const iban = m[0].slice(0, k).replace(/[^A-Za-z0-9]/g, '').toUpperCase();
    const start = doc.stream.startOf(m.index!);
    const end = doc.stream.endOf(m.index! + k - 1);
    const at = wordsOverlapping(doc, start, end);
    const cue = at !== undefined && cueBefore(doc, at.wordStart);
    if (isValidIBAN(iban)) out.push(fromChars(doc, 'IBAN', start, end, cue ? 0.98 : 0.95, 'iban'));
    else if (cue) out.push(fromChars(doc, 'IBAN', start, end, 0.75, 'iban'));
  }
}

/** Zeros of the account part tried as the letter O, at most this many ("r a b o nine three": numtrans joined "o nine three" into a number). */
const MAX_OS = 4;

/** Whether some zeros of the account part (after the check digits) read as the letter O make a valid IBAN. */
function validWithOs(iban: string): boolean {
  const zeros: number[] = [];
  for (let k = 4; k < iban.length && zeros.length < MAX_OS; k++) if (iban[k] === '0') zeros.push(k);
  for (let mask = 1; mask < 1 << zeros.length; mask++) {
    const chars = [...iban];
    zeros.forEach((k, b) => {
      if (mask & (1 << b)) chars[k] = 'O';
    });
    if (isValidIBAN(chars.join(''))) return true;
  }
  return false;
}

function spoken(doc: Doc, out: Detection[]): void {
  for (const run of symbolRuns(doc)) {
    const sy = run.symbols;
    for (let i = 0; i + 2 < sy.length; i++) {
      if (sy[i].kind !== 'letter' || sy[i + 1].kind !== 'letter' || sy[i].chars.length !== 1) continue;
      const n = lengthOf(sy[i].chars + sy[i + 1].chars);
      if (!n) continue;
      let chars = '';
      let e = i;
      while (e < sy.length && chars.length < n) chars += sy[e++].chars;
      if (chars.length !== n) continue;
      const iban = (chars.slice(0, 2) + ohAsZero(chars.slice(2, 4)) + chars.slice(4)).toUpperCase();
      const cue = cueBefore(doc, sy[i].wordStart);
      const valid = isValidIBAN(iban) || isValidIBAN(chars.slice(0, 2).toUpperCase() + ohAsZero(chars.slice(2)).toUpperCase()) || validWithOs(iban);
      if (!valid && !cue) continue;
      out.push(fromWords(doc, 'IBAN', sy[i].wordStart, sy[e - 1].wordEnd, valid ? 0.92 : 0.75, 'iban'));
      i = e - 1;
    }
  }
}

export const ibanRecognizer: Recognizer = (doc) => {
  const out: Detection[] = [];
  written(doc, out);
  spoken(doc, out);
  return out;
};

/** Whether the letters and digits of a value form a valid IBAN (for tests and tools). */
export const validIban = (value: string): boolean => isValidIBAN(value.replace(/[^A-Za-z0-9]/g, '').toUpperCase());
