// A street said twice with its house number corrected ("its five twelve birchwood no wait its five twenty one
// birchwood court", "It's 512 Birchwood, no, 521 Birchwood Court"): the address rules find the one said in full,
// with its street type; the first try, a house number and the street's own name, is as much the caller's address
// (one of the two numbers is), and is masked as Address too. Coverage only grows.
import { gazetteerTags } from '../tagger/gazetteer.js';
import { SPOKEN_NUMBER } from './addressTalk.js';
import { endsClause, fromWords, type Doc } from './doc.js';
import { STOP } from './stopwords.js';
import type { Detection } from '../types.js';

/** How far back, in words, the first try may be from the address said in full. */
const WINDOW = 16;
/** Lists whose words are a street's type, a unit, a direction, not its own name. */
const NOT_OWN_NAME = ['st', 'stx', 'unit', 'dir', 'num'];

/** Words that open a correction, or what is said after a first try: "no wait", "sorry", "i mean", "or". */
const CORRECTION = /^(no|nope|wait|sorry|i|actually|or|oh|um|uh|its|it's|not|hang|hold|scratch|make|rather|correction)$/;
const houseWord = (doc: Doc, i: number) => {
  const w = doc.words[i]?.norm ?? '';
  return doc.spoken ? SPOKEN_NUMBER.test(w) : /^\d{1,5}[a-z]?$/.test(w);
};

/** The detections with every earlier try at an address's street, by its number and its name, added. */
export function streetsRepeated(doc: Doc, detections: readonly Detection[]): Detection[] {
  const streets = detections.filter((d) => d.kind === 'Address' && d.wordStart !== undefined && d.wordEnd !== undefined && d.wordEnd - d.wordStart >= 2);
  if (streets.length === 0) return [...detections];
  const covered = new Uint8Array(doc.words.length);
  for (const d of detections) if (d.wordStart !== undefined) for (let i = d.wordStart; i < d.wordEnd! && i < covered.length; i++) covered[i] = 1;
  const out = [...detections];
  for (const d of streets) {
    const s = d.wordStart!;
    // the street's own name: the first word of letters after its house number ("birchwood" in "521 Birchwood Court")
    let k = s;
    while (k < d.wordEnd! && houseWord(doc, k)) k++;
    if (k === s || k >= d.wordEnd! - 1) continue;
    const name = doc.words[k].norm;
    if (!/^\p{L}{3,}$/u.test(name) || STOP.has(name) || gazetteerTags(name).some((g) => NOT_OWN_NAME.includes(g))) continue;
    // the same name earlier, uncovered, right after a house number of its own
    for (let j = s - 1; j >= Math.max(1, s - WINDOW); j--) {
      if (doc.words[j].norm !== name || covered[j] || !houseWord(doc, j - 1) || endsClause(doc, j - 1)) continue;
      // a correction or the clause's end after it ("... birchwood no wait", "512 Birchwood, no"): "three birchwood chairs" is none
      if (!endsClause(doc, j) && !CORRECTION.test(doc.words[j + 1]?.norm ?? '')) continue;
      let from = j - 1;
      while (from > 0 && from > j - 4 && houseWord(doc, from - 1) && !endsClause(doc, from - 1) && !covered[from - 1]) from--;
      if (covered[from]) continue;
      out.push(fromWords(doc, 'Address', from, j + 1, 0.6, 'address-repeated'));
      for (let i = from; i <= j; i++) covered[i] = 1;
      break;
    }
  }
  return out;
}
