// Shared by the driver's license and passport recognizers: an alphanumeric run after a cue, written
// ("D1234567", "A12-345-678") or spoken ("a one two three four five six seven", "d as in david ...").
import type { Doc } from './doc.js';

const SKIP = new Set(['number', 'numbers', 'no', 'num', 'is', "it's", 'its', 'it', 'my', 'the', 'id', 'uh', 'um', 'er', 'card', 'license', 'licence', 'passport', 'of', 'that', "that's", 'thats', 'be', 'would', 'will', 'and', 'so', 'ok', 'okay', 'yes', 'sure', 'a']);

/** A piece of an id: a number, a single letter, letters and digits mixed ("d123", "a12-345"). */
export function idPiece(token: { text: string; isNumber: boolean } | undefined): boolean {
  const s = token?.text.toLowerCase().replace(/[.,]$/, '') ?? '';
  return !!token && (token.isNumber || /^[a-z]$/.test(s) || (/\d/.test(s) && /^[a-z0-9-]+$/.test(s)));
}

export function idAfter(doc: Doc, after: number): { wordStart: number; wordEnd: number; chars: number; digits: number } | undefined {
  const t = doc.tokens;
  let i = doc.tokenOfWord[after] + 1;
  let skipped = 0;
  const piece = (k: number) => idPiece(t[k]);
  while (i < t.length && skipped < 4) {
    const s = t[i].text.toLowerCase();
    // a lone "a" may start an id ("a one two three"): take it when a number follows
    if (s === 'a' && t[i + 1]?.isNumber) break;
    // a dash between the parties' lines, a colon: no word ("your license. — It's S530-4182-7719")
    if (!/[\p{L}\p{N}]/u.test(s)) {
      i++;
      continue;
    }
    if (!SKIP.has(s)) break;
    i++;
    skipped++;
  }
  let k = i;
  let chars = 0;
  let digits = 0;
  while (k < t.length && piece(k) && k - i < 12) {
    chars += t[k].text.replace(/[^a-z0-9]/gi, '').length;
    digits += t[k].text.replace(/\D/g, '').length;
    k++;
  }
  if (k === i || chars < 5 || chars > 20 || digits < 3) return undefined;
  return { wordStart: t[i].wordStart, wordEnd: t[k - 1].wordEnd, chars, digits };
}
