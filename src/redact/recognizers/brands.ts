// Banks and card issuers named in a row ("Bank of America, Chase, Wells Fargo, I've had them all"; said "bank of
// america chase wells fargo"): many are names too ("Chase", "Wells", "Ally", "Discover"), and the name lists and
// the tagger read "Chase", "Wells Fargo", "chase wells" as people there. No package this project carries lists
// banks, so the list is kept here, small: the US's largest banks and card issuers. A bank's name is taken for the
// bank only where nothing could be a person: in a list of three brands or more, or of two with a multi-word bank's
// name whole among them ("Bank of America", "Wells Fargo"), with no person's cue in the sentence before it or just
// after it ("my kids are", "the signer is", "... are the co-signers"); and only brands no one is called are dropped
// (the whole "Wells Fargo", "Citibank"), never a name's word alone ("Chase", "Ally", "Sofi", "Webster" stay
// masked). Only a guess's reading is dropped (the tagger's, the name lists'): a name said after a cue stays.
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
/**
 * Brands whose whole phrase may be taken for the bank: multi-word banks with a word no one is called ("bank of
 * america", "wells fargo"; not "charles schwab", "goldman sachs", which are people's names too), and single words
 * that are no one's name ("citibank", "pnc"). Any other brand ("chase", "ally", "sofi", "frost", "webster") is a
 * name as often as a bank's and is never dropped.
 */
const NOT_NAMES = new Set(
  `bank of america|jpmorgan chase|jp morgan chase|wells fargo|capital one|us bank|u s bank|td bank|bank of the west|fifth third|
citizens bank|key bank|ally bank|american express|navy federal|cash app|first national bank|bb and t|m and t|credit karma|e trade|
apple card|bmo harris|first citizens|citibank|pnc|usaa|hsbc|amex|keybank|etrade|paypal|venmo|zelle|synchrony|truist|suntrust|
mastercard|rbc|cibc|scotiabank|natwest|comerica|revolut|robinhood|barclays|bb&t|m&t`
    .split('|')
    .map((b) => b.trim()),
);

/**
 * The brand at word i: its words [i, end) and whether it is a bank's name only (NOT_NAMES); undefined when none,
 * or when a listed name follows it in the same clause ("Wells Fargo Hale called": a person's name that begins like
 * a bank's).
 */
function brandAt(doc: Doc, i: number): { end: number; bank: boolean; multi: boolean } | undefined {
  for (const words of BY_FIRST.get(doc.words[i]?.norm ?? '') ?? []) {
    let ok = true;
    for (let j = 1; j < words.length && ok; j++) ok = doc.words[i + j]?.norm === words[j] && !endsClause(doc, i + j - 1);
    if (!ok) continue;
    const end = i + words.length;
    const next = doc.words[end]?.norm ?? '';
    if (!endsClause(doc, end - 1) && mayBeName(next) && !BY_FIRST.has(next)) return undefined;
    const bank = NOT_NAMES.has(words.join(' '));
    return { end, bank, multi: bank && words.length > 1 };
  }
  return undefined;
}

/** Words between brands of a list: a comma (written), "and", "or", nothing (said). */
const JOIN = /^(and|or|&)$/;

/**
 * A word that says the list is of people ("my kids are Chase and Sofi", "the signer is Ally Santander", "Frost and
 * Webster are the co-signers", "please call Sofi Webster back").
 */
const PERSON_CUE =
  /^(name|names|named|called|call|calling|callback|is|was|are|were|be|been|my|his|her|their|our|your|mr|mrs|ms|miss|dr|sir|maam|son|sons|daughter|daughters|kid|kids|child|children|twin|twins|grandkid|grandkids|grandson|grandsons|granddaughter|granddaughters|grandchild|grandchildren|baby|wife|husband|spouse|partner|fiance|fiancee|mom|mother|dad|father|parent|parents|brother|brothers|sister|sisters|sibling|siblings|aunt|uncle|cousin|nephew|niece|friend|friends|neighbor|boss|lawyer|attorney|agent|rep|representative|manager|supervisor|user|users|holder|holders|signer|signers|cosigner|cosigners|co-signer|co-signers|co|owner|owners|beneficiary|beneficiaries|executor|trustee|guardian|spoke|speak|speaking|talk|talked|talking|with|ask|asked|tell|told|said|says|say|opened|signed|he|she|him|who|whom|person|people|mister|spell|spelled|initials|by|for|to|from|dear|hi|hello|hey|thanks|thank|meet|met|know|knows|married)$/;

/** A written sentence's end (a word ending . ! ?); said, the whole turn is one. */
const endsSentence = (doc: Doc, i: number) => !doc.spoken && /[.!?]["')\]]*$/.test(doc.words[i]?.raw ?? '') && !/^(mr|mrs|ms|dr|st)\.$/i.test(doc.words[i]?.raw ?? '');

/** Whether a person's cue lies in the sentence before words [s, e) or within four words after them. */
function personCue(doc: Doc, s: number, e: number): boolean {
  for (let k = s - 1; k >= 0 && !endsSentence(doc, k); k--) if (PERSON_CUE.test(doc.words[k].norm)) return true;
  for (let k = s; k < e; k++) if (PERSON_CUE.test(doc.words[k].norm) && !JOIN.test(doc.words[k].norm)) return true;
  for (let k = e; k < Math.min(doc.words.length, e + 4) && !endsSentence(doc, k - 1); k++) if (PERSON_CUE.test(doc.words[k].norm)) return true;
  return false;
}

/**
 * The bank-only brands ([s, e) words, NOT_NAMES) of every list of banks: two brands or more in a row, with three or
 * more of them or a multi-word bank's name ("Bank of America", "Wells Fargo") whole among them, and no person's cue
 * in the sentence before it or just after it.
 */
function brandLists(doc: Doc): [number, number][] {
  const out: [number, number][] = [];
  for (let i = 0; i < doc.words.length; i++) {
    const first = brandAt(doc, i);
    if (!first) continue;
    const items: { s: number; e: number; bank: boolean; multi: boolean }[] = [{ s: i, e: first.end, bank: first.bank, multi: first.multi }];
    let end = first.end;
    for (;;) {
      let k = end;
      // said, brands follow one another with nothing between; written, a comma or "and" joins them
      if (!doc.spoken && !endsClause(doc, k - 1) && !JOIN.test(doc.words[k]?.norm ?? '')) break;
      if (JOIN.test(doc.words[k]?.norm ?? '')) k++;
      const next = brandAt(doc, k);
      if (!next) break;
      items.push({ s: k, e: next.end, bank: next.bank, multi: next.multi });
      end = next.end;
    }
    // (a name's word right before the first brand makes it a person's surname: "Jordan Chase, Wells Fargo, ...")
    const nameBefore = i > 0 && !endsClause(doc, i - 1) && mayBeName(doc.words[i - 1].norm);
    if (items.length >= 2 && (items.length >= 3 || items.some((t) => t.multi)) && !nameBefore && !personCue(doc, i, end))
      for (const t of items) if (t.bank) out.push([t.s, t.e]);
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
