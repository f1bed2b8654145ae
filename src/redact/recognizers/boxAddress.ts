// Box, route and military addresses (issue #32: unit/box/APO/FPO/DPO forms leaked): "Box 14, Route 2, Harlan",
// "PSC 1234 Box 5678, APO AE 09012", "Unit 500 Box 12, FPO AP 96350", "DPO AA 34002", "Rural Route 3", "RR 2",
// written or said ("p s c one two three four box five six seven eight a p o a e"). The run of such parts is one
// address, extended past it like a street (city, state, postcode: address.ts).
import { extendAddress } from './address.js';
import { formBox, roadSpot } from './addressContext.js';
import { digitRuns } from './digitRuns.js';
import { fromWords, type Doc, type Recognizer } from './doc.js';
import { PROVINCE_ABBR, PROVINCE_NAMES, STATE_ABBR, STATE_NAMES, US_CITIES } from './places.js';
import { postcodeAt } from './zipCode.js';
import type { Detection } from '../types.js';
import { normReader } from './normReader.js';

/** Military post offices and their "states": APO/FPO/DPO and AA/AE/AP, written or spelled. */
const MILITARY = /^(apo|fpo|dpo)$/;
const MIL_REGION = /^(aa|ae|ap)$/;
/** Words that, with a number after them, are a part of a box or route address. */
const PART = /^(box|psc|cmr|route|rr|hc|unit)$/;

/** The word index after one part starting at word i, or i when there is none. */
function partAt(doc: Doc, i: number, runEnd: Map<number, number>): number {
  const w = normReader(doc);
  // spelled letters as one word: "p s c", "a p o", "r r"
  const letters = (k: number, n: number) => Array.from({ length: n }, (_, j) => w(k + j)).join('');
  let k = i;
  let word = w(k);
  if (doc.spoken && /^[a-z]$/.test(word)) {
    for (const n of [3, 2]) if (PART.test(letters(k, n)) || MILITARY.test(letters(k, n))) ((word = letters(k, n)), (k += n - 1));
  } else if (word === 'rural' && w(k + 1) === 'route') ((word = 'route'), k++);
  k++;
  if (MILITARY.test(word)) {
    // the region: "AE", "a e"
    if (MIL_REGION.test(w(k))) return k + 1;
    if (doc.spoken && MIL_REGION.test(letters(k, 2))) return k + 2;
    return k;
  }
  if (!PART.test(word)) return i;
  const end = runEnd.get(k);
  return end !== undefined ? end : i;
}

/** Word i names a town, a state or a province, or is a postcode: "Phoenix", "AZ", "arizona", "85001", "eight five oh oh one". */
function placeOrPostcode(doc: Doc, i: number): boolean {
  const w = doc.words[i];
  const t = doc.tokens[doc.tokenOfWord[i]];
  const caps = w.raw.replace(/[^\p{L}]/gu, '');
  if (US_CITIES.has(w.norm) || STATE_NAMES.has(w.norm) || PROVINCE_NAMES.has(w.norm) || STATE_ABBR.has(caps) || PROVINCE_ABBR.has(caps)) return true;
  return (t?.isNumber === true && /^\d{5}(\d{4})?$/.test(t.text)) || postcodeAt(doc, i) !== undefined;
}

/**
 * A box's town, state or postcode right after it ("Form: Box 1234, Phoenix AZ 85001"): the last line of a post office
 * box's address, which no tax form's box has. Read over the words the address would extend to (extendAddress).
 */
function mailingLineAfter(doc: Doc, k: number): boolean {
  // (a town right after it, written in lower case too: "form box 1234 phoenix az 85001")
  if (k < doc.words.length && placeOrPostcode(doc, k)) return true;
  const end = extendAddress(doc, k);
  for (let i = k; i < end; i++) if (placeOrPostcode(doc, i)) return true;
  return false;
}

/** Whether the military office starting at word i and ending before word k was said with its region ("APO AE", "a p o a e"). */
function militaryRegion(doc: Doc, i: number, k: number): boolean {
  for (let j = i; j < k; j++) if (MIL_REGION.test(doc.words[j].norm)) return true;
  // (said: the region's letters are the last two words of the part)
  return doc.spoken && k - i >= 5 && MIL_REGION.test(doc.words[k - 2].norm + doc.words[k - 1].norm);
}

/** Whether the text may hold such an address at all: one test a doc, most have none. */
const ANY_PART = /\b(box|route|rr|hc|psc|cmr|apo|fpo|dpo|unit|a p o|f p o|d p o|p s c|c m r|r r)\b/i;

export const boxAddressRecognizer: Recognizer = (doc) => {
  const out: Detection[] = [];
  if (!ANY_PART.test(doc.text)) return out;
  const runEnd = new Map(digitRuns(doc).map((r) => [r.wordStart, r.wordEnd]));
  // a written number is one word: its run is itself
  doc.words.forEach((x, k) => /^\d+[a-z]?$/.test(x.norm) && !runEnd.has(k) && runEnd.set(k, k + 1));
  for (let i = 0; i < doc.words.length; i++) {
    let k = partAt(doc, i, runEnd);
    if (k === i) continue;
    const start = i;
    let parts = 1;
    let military = MILITARY.test(doc.words[i].norm) || (doc.spoken && MILITARY.test(doc.words.slice(i, i + 3).map((x) => x.norm).join('')));
    for (;;) {
      const next = partAt(doc, k, runEnd);
      if (next === k) break;
      military ||= MILITARY.test(doc.words[k].norm) || (doc.spoken && MILITARY.test(doc.words.slice(k, k + 3).map((x) => x.norm).join('')));
      k = next;
      parts++;
    }
    // a military office named alone, no region, no number, nothing of an address after it ("shipping to APO
    // addresses takes ten days", "does FPO count"): the kind of address, no one's ("APO AE 09012", "APO box 12" stay)
    if (parts < 2 && military && !militaryRegion(doc, start, k) && extendAddress(doc, k) === k) continue;
    // a lone "unit 4" or "box 3" is the unit rule's, or a count ("box 3 of 5"); two parts or a military office are an address
    if (parts < 2 && !military && !/^(box|route|rr)$/.test(doc.words[start].norm)) continue;
    if (parts < 2 && !military && doc.words[start - 1]?.norm === 'the') continue;
    // a lone box on a form ("the W-2, box 1 says"), a lone route where something happened ("Route 9 near mile marker 44")
    // (a box with its town or postcode after it is a post office box's, even after "form": "Form: Box 1234, Phoenix AZ 85001")
    if (parts < 2 && !military && (doc.words[start].norm === 'box' ? formBox(doc, start, k) && !mailingLineAfter(doc, k) : roadSpot(doc, start, k))) continue;
    out.push(fromWords(doc, 'Address', start, extendAddress(doc, k), parts >= 2 || military ? 0.85 : 0.7, 'address-box'));
    i = k - 1;
  }
  return out;
};
