// Banks and card issuers named in a row ("Bank of America, Chase, Wells Fargo, I've had them all"; said "bank of
// america chase wells fargo"): many are names too ("Chase", "Wells", "Ally", "Discover"), and the name lists and
// the tagger read "Chase", "Wells Fargo", "chase wells" as people there. No package this project carries lists
// banks, so the list is kept here, small: the US's largest banks and card issuers. A bank's name is taken for the
// bank only inside a list of two or more of them, one of which no one is called ("Bank of America", "Citibank",
// "Wells Fargo" hold a name's word but not only names), so "my kids are Chase and Ally", "Chase Wells called",
// "my name is Chase Wells" keep their names; and only a guess's reading is dropped (the tagger's, the name
// lists'): a name said after a cue ("my son is Will Fargo") stays.
import { endsClause, type Doc } from './doc.js';
import { FIRST_NAMES, LAST_NAMES } from './nameData.js';
import type { Detection } from '../types.js';
import { gazetteerTags } from '../tagger/gazetteer.js';
import { ordinaryWord } from '../tagger/model.js';
import { englishWord } from './englishWords.js';

/** Banks and card issuers, lower case, in words. */
const BRANDS: readonly string[] = `
bank of america|chase|jpmorgan chase|jp morgan chase|wells fargo|citibank|citi|capital one|us bank|u s bank|pnc|truist|td bank|
bank of the west|fifth third|citizens bank|keybank|key bank|huntington|regions|m and t|m&t|bmo|bmo harris|santander|
ally|ally bank|discover|american express|amex|synchrony|barclays|hsbc|navy federal|usaa|charles schwab|schwab|
goldman sachs|sofi|chime|varo|paypal|venmo|cash app|zelle|first national bank|suntrust|bb and t|bb&t|
credit karma|fidelity|vanguard|e trade|etrade|robinhood|citizens|comerica|first citizens|frost|zions|webster|
mastercard|visa|apple card|rbc|td|scotiabank|bmo|cibc|lloyds|natwest|halifax|nationwide|monzo|revolut
`
  .split('|')
  .map((b) => b.trim())
  .filter(Boolean);

/** The brands by their first word, longest first. */
const BY_FIRST = new Map<string, string[][]>();
for (const b of BRANDS) {
  const words = b.split(/\s+/);
  const list = BY_FIRST.get(words[0]) ?? [];
  list.push(words);
  list.sort((x, y) => y.length - x.length);
  BY_FIRST.set(words[0], list);
}

/** A word that may be a name: on a name list, or a word of letters no list calls ordinary ("hale", "okafor"). */
const mayBeName = (w: string) =>
  FIRST_NAMES.has(w) || LAST_NAMES.has(w) || gazetteerTags(w).some((g) => g === 'fn' || g === 'ln') || (/^\p{L}[\p{L}'-]+$/u.test(w) && !ordinaryWord(w) && !englishWord(w));
/** Whether a brand's words are all a name's ("chase", "ally", "regions"?): such a brand alone proves no list. */
const allNames = (words: readonly string[]) => words.every((w) => FIRST_NAMES.has(w) || LAST_NAMES.has(w));

/**
 * The brand at word i: its end, and whether it is only names' words; undefined when none, or when a listed name
 * follows it in the same clause ("Wells Fargo Hale called": a person's name that begins like a bank's).
 */
function brandAt(doc: Doc, i: number): { end: number; named: boolean } | undefined {
  for (const words of BY_FIRST.get(doc.words[i]?.norm ?? '') ?? []) {
    let ok = true;
    for (let j = 1; j < words.length && ok; j++) ok = doc.words[i + j]?.norm === words[j] && !endsClause(doc, i + j - 1);
    if (!ok) continue;
    const end = i + words.length;
    const next = doc.words[end]?.norm ?? '';
    if (!endsClause(doc, end - 1) && mayBeName(next) && !BY_FIRST.has(next)) return undefined;
    return { end, named: allNames(words) };
  }
  return undefined;
}

/** Words between brands of a list: a comma (written), "and", "or", nothing (said). */
const JOIN = /^(and|or|&)$/;

/** Words [s, e) of every list of two brands or more with a brand no one is called in it. */
function brandLists(doc: Doc): [number, number][] {
  const out: [number, number][] = [];
  for (let i = 0; i < doc.words.length; i++) {
    const first = brandAt(doc, i);
    if (!first) continue;
    let end = first.end;
    let count = 1;
    let nameless = !first.named;
    for (;;) {
      let k = end;
      // said, brands follow one another with nothing between; written, a comma or "and" joins them
      if (!doc.spoken && !endsClause(doc, k - 1) && !JOIN.test(doc.words[k]?.norm ?? '')) break;
      if (JOIN.test(doc.words[k]?.norm ?? '')) k++;
      const next = brandAt(doc, k);
      if (!next) break;
      [end, count, nameless] = [next.end, count + 1, nameless || !next.named];
    }
    if (count >= 2 && nameless) out.push([i, end]);
    i = end - 1;
  }
  return out;
}

/** Recognizers that guess a name from the word alone (lists, the tagger), not from a cue. */
const GUESS = /^(tagger|person-list|person-compromise)$/;

/** The detections less every guessed Person that lies inside a list of banks ("Bank of America, Chase, Wells Fargo"). */
export function brandsNotNames(doc: Doc, detections: readonly Detection[]): Detection[] {
  if (!detections.some((d) => d.kind === 'Person' && GUESS.test(d.recognizer) && d.wordStart !== undefined)) return [...detections];
  const lists = brandLists(doc);
  if (lists.length === 0) return [...detections];
  return detections.filter((d) => !(d.kind === 'Person' && GUESS.test(d.recognizer) && d.wordStart !== undefined && lists.some(([s, e]) => s <= d.wordStart! && d.wordEnd! <= e)));
}
