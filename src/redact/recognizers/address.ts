// Street addresses: a house number, a street name and a street word ("42 oak street", "forty two oak street
// springfield", "1755 Nelson Mandela Drive, Apt 4"), prefix streets ("48 rue Descartes"), foreign street names
// ("Nassaustraat 123"), and whatever follows a cue ("i live at", "my address is") starting with a number.
import { endsClause, fromWords, type Doc, type Recognizer } from './doc.js';
import { capitalised } from './caseless.js';
import { COUNTRIES, DIRECTIONS, FOREIGN_STREET, PROVINCE_ABBR, PROVINCE_NAMES, STATE_ABBR, STATE_NAMES, STREET_PREFIX, STREET_SUFFIX, UNIT_WORDS, US_CITIES } from './places.js';
import { STOP } from './stopwords.js';
import { englishWord } from './englishWords.js';
import { ordinaryWord } from '../tagger/model.js';
import type { Detection } from '../types.js';
import { digitsOf } from './digitRuns.js';
import { postcodeAt } from './zipCode.js';
import { residenceAfter, storageUnitAt } from './addressContext.js';
import { labelledNumber } from './addressTalk.js';

const STREET_STOP = new Set([...STOP].filter((w) => !['street', 'avenue', 'road', 'lane', 'drive', 'court', 'boulevard', 'first', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'].includes(w)));
const isNum = (doc: Doc, i: number) => {
  const t = doc.tokens[doc.tokenOfWord[i]];
  return (t?.isNumber ?? false) || digitsOf(t, false) !== undefined || /^\d+[a-z]?$/.test(doc.words[i]?.norm ?? '');
};
const isCap = capitalised;
const plain = (doc: Doc, i: number) => {
  const w = doc.words[i];
  return w !== undefined && /^[\p{L}\d][\p{L}\d'.-]*$/u.test(w.norm) && !STREET_STOP.has(w.norm);
};

/** A US ZIP (5 or 9 digits) or a 4-6 digit postcode at word i. */
function isPostcode(doc: Doc, i: number): boolean {
  const t = doc.tokens[doc.tokenOfWord[i]];
  return i < doc.words.length && t !== undefined && t.isNumber && t.wordStart === i && (t.text.length === 5 || t.text.length === 9 || (t.text.length >= 4 && t.text.length <= 6 && !doc.spoken));
}

/** Extend an address past its street: direction, unit, city, state, zip (also for boxAddress.ts). */
export function extendAddress(doc: Doc, k: number): number {
  const w = doc.words;
  let end = k;
  if (!endsClause(doc, end - 1) && DIRECTIONS.has(w[end]?.norm ?? '')) end++;
  // unit: "apt 4", "suite 771", "# 12"
  for (let guard = 0; guard < 2; guard++) {
    if (UNIT_WORDS.has(w[end]?.norm ?? '') && !(w[end].norm === 'number' && !isNum(doc, end + 1)) && (isNum(doc, end + 1) || /^[a-z]$/.test(w[end + 1]?.norm ?? ''))) {
      const t = doc.tokens[doc.tokenOfWord[end + 1]];
      end = Math.max(end + 2, t?.wordEnd ?? end + 2);
    } else if (/^#\w+$/.test(w[end]?.raw ?? '')) end++;
  }
  // city (up to 3 words), state, zip
  let city = 0;
  while (end < w.length && city < 3) {
    const capOk = doc.spoken ? plain(doc, end) && !isNum(doc, end) : isCap(doc, end) && plain(doc, end);
    if (!capOk || postcodeAt(doc, end) !== undefined) break;
    if (doc.spoken && city >= 1 && !STATE_NAMES.has(w[end].norm) && !COUNTRIES.has(w[end].norm)) break;
    if (doc.spoken && city === 0 && !US_CITIES.has(w[end].norm) && !STATE_NAMES.has(w[end].norm) && !COUNTRIES.has(w[end].norm) && !isPostcode(doc, end + 1)) {
      // an unknown lower-case word after a spoken street joins only when a state, country or postcode follows
      if (!STATE_NAMES.has(w[end + 1]?.norm ?? '') && !COUNTRIES.has(w[end + 1]?.norm ?? '')) break;
    }
    end++;
    city++;
    if (endsClause(doc, end - 1) && !/,$/.test(w[end - 1].raw)) return end;
  }
  const region = w[end]?.raw.replace(/[,.]$/, '') ?? '';
  if (STATE_NAMES.has(w[end]?.norm ?? '') || STATE_ABBR.has(region) || PROVINCE_ABBR.has(region) || PROVINCE_NAMES.has(w[end]?.norm ?? '')) end++;
  else if (COUNTRIES.has(w[end]?.norm ?? '') && !endsClause(doc, end - 1 < 0 ? 0 : end - 1)) end++;
  if (isPostcode(doc, end)) end = doc.tokens[doc.tokenOfWord[end]].wordEnd;
  else end = postcodeAt(doc, end) ?? end;
  return end;
}

/**
 * Businesses and public places located by the street they are on: "the store on Grand Avenue", "the pharmacy on
 * Main Street" locate a shop, not where someone lives (a street with no house number after "on" is taken only
 * written, as an address, and not after one of these).
 */
export const BUSINESS = new Set(`store stores shop shops pharmacy branch branches office location locations restaurant cafe bank mall
clinic hospital dealership dealer library gym station outlet supermarket market garage salon bakery bar pub hotel
church school`.split(/\s+/));

/** Verbs that send something to a place: "ship it to the office on Maple Avenue" is an address after all. */
const SENDING = /^(ship|shipping|shipped|send|sending|sent|deliver|delivering|delivered|delivery|mail|mailing|mailed|post|forward|bring|drop)$/;
/** A sending verb in the six words before word i (not across a clause's end). */
export function sentThere(doc: Doc, i: number): boolean {
  for (let k = i - 1; k >= Math.max(0, i - 6) && !endsClause(doc, k); k--) if (SENDING.test(doc.words[k].norm)) return true;
  return false;
}

/** Words that stop the look back for a shop: someone's home ("my mom's, the one on ...", "the house, the one on ..."). */
const HOME_WORDS = /^(home|house|place|apartment|flat|condo|parents|mom|dad|mother|father|sister|brother|aunt|uncle|grandma|grandmother|friend|live|lives|lived|living)$|'s$/;
/** Words that say someone lives, or something is sent, at the place named after them, however near a shop is named. */
const RESIDENCE_CUE = /^(live|lives|lived|living|reside|resides|home|address|addresses|stay|staying|ship|shipped|shipping|send|sending|sent|deliver|delivered|delivering|delivery|mail|mailed|mailing)$/;
/** How far back the look for a shop goes, in words (within one sentence). */
const SHOP_WINDOW = 12;
/**
 * "on" at word j locates a shop, not a home: "the store on Main Street", or "the one on Grant Avenue" with a shop
 * named in the twelve words before it, within one sentence and with no home named between ("the store number is
 * 2290, the one on Grant Avenue"; not "I went to the bank, then my sister's, the one on Grant Avenue"). A residence
 * or sending cue anywhere in that window keeps it an address: "I live at the shop, the one on Elm Street", "I live
 * above the store on Elm Street", "Send it to the store, the one on Elm Street".
 */
export function shopOn(doc: Doc, j: number): boolean {
  const before = doc.words[j - 1]?.norm ?? '';
  const reference = before === 'one' || before === 'ones';
  if (!BUSINESS.has(before) && !reference) return false;
  let shop = !reference;
  let home = false;
  for (let k = j - 2; k >= Math.max(0, j - SHOP_WINDOW - 2) && !sentenceEnds(doc, k); k--) {
    const w = doc.words[k].norm;
    if (RESIDENCE_CUE.test(w)) return false;
    // the nearest of a home and a shop names what "the one" is
    if (!shop && !home && HOME_WORDS.test(w)) home = true;
    if (!shop && !home && BUSINESS.has(w)) shop = true;
  }
  return shop;
}
/** Word i ends a written sentence (a comma does not). */
const sentenceEnds = (doc: Doc, i: number) => !doc.spoken && /[.!?]["')\]]*$/.test(doc.words[i].raw);

/** Money words after an amount: "eighty nine dollars". */
const MONEY = /^(dollars?|bucks|cents?|euros?|pounds?|quid)$/;
/** The number at word j is an amount, not a house number: "$89", "eighty nine dollars". */
function money(doc: Doc, j: number): boolean {
  const t = doc.tokens[doc.tokenOfWord[j]];
  return /^[$€£]/.test(doc.words[t?.wordStart ?? j].raw) || MONEY.test(doc.words[t?.wordEnd ?? j + 1]?.norm ?? '');
}

/** Street types that are hardly anything else after a name ("Oak Street", "Pine Rd"; not "way", "row": "$75 each way"). */
const CLEAR_STREET_TYPE = /^(street|st|avenue|ave|road|rd|lane|ln|drive|dr|boulevard|blvd|crescent|terrace|parkway|pkwy|highway|hwy)$/;
/** Words a place is given after: "I'm at $12 oak street", "send it to ...". */
const PLACING = /^(at|to|on)$/;
/**
 * Words [from, k) are a street's name before its type at word k, after a number at word `num`: a word of two letters
 * or more among them, and the name and type in capitals, written ("$12 Oak Street", "$75 Ridge Way"), or a clear
 * street type, said ("model twelve oak street is my address") or written after "at", "to", "on" or before an address
 * cue ("i'm at $12 oak street"; not "a $30 test drive"). Then the number is a house number though an amount or a
 * label reads it: a house number read as one is masked, never left.
 */
function namedStreet(doc: Doc, num: number, from: number, k: number): boolean {
  if (from >= k || !doc.words.slice(from, k).some((x) => /^\p{L}{2,}$/u.test(x.norm))) return false;
  let caps = !doc.spoken && isCap(doc, k);
  for (let i = from; i < k && caps; i++) caps = isCap(doc, i);
  if (caps) return true;
  if (!CLEAR_STREET_TYPE.test(doc.words[k].norm)) return false;
  return doc.spoken || PLACING.test(doc.words[num - 1]?.norm ?? '') || residenceAfter(doc, k + 1, 6);
}

/** The last word of every cue of "cue + number" below ("live at", "address is", "moved to", "address"). */
const CUE_ENDS = new Set(['at', 'is', 'to', 'on', 'address', 'addresses']);

export const addressRecognizer: Recognizer = (doc) => {
  const out: Detection[] = [];
  const w = doc.words;
  for (let k = 1; k < w.length; k++) {
    const norm = w[k].norm;
    // number + name + suffix
    if (STREET_SUFFIX.has(norm)) {
      for (let j = k - 1; j >= Math.max(0, k - 5); j--) {
        if (!isNum(doc, j)) {
          if (!plain(doc, j) && !/^\d+(st|nd|rd|th)$/.test(w[j].norm)) break;
          // a street's name runs into its type with no clause's end between: "seat 14C, row 14" is none
          if (endsClause(doc, j)) break;
          continue;
        }
        if (j === k - 1 && !/^\d+(st|nd|rd|th)$/.test(doc.tokens[doc.tokenOfWord[j]].text)) break; // "5 street"
        // "the fare was $89 each way", "seat fourteen c row ...": no house number, unless a street is named after it
        const named = namedStreet(doc, doc.tokens[doc.tokenOfWord[j]].wordStart, doc.tokens[doc.tokenOfWord[j]].wordEnd, k);
        if (money(doc, j) && !named) break;
        if (labelledNumber(doc, doc.tokens[doc.tokenOfWord[j]].wordStart) && !named) break;
        const start = doc.tokens[doc.tokenOfWord[j]].wordStart;
        const cue = /\b(live|lives|living|address|located|moved|moving|ship|deliver|at)\b/.test(w.slice(Math.max(0, start - 4), start).map((x) => x.norm).join(' '));
        out.push(fromWords(doc, 'Address', start, extendAddress(doc, k + 1), cue ? 0.9 : 0.8, 'address'));
        break;
      }
    }
    // number + prefix street word + name: "48 rue Descartes"
    if (STREET_PREFIX.has(norm) && isNum(doc, k - 1) && plain(doc, k + 1)) {
      let e = k + 2;
      while (e < k + 4 && plain(doc, e) && (doc.spoken || isCap(doc, e)) && !endsClause(doc, e - 1)) e++;
      out.push(fromWords(doc, 'Address', doc.tokens[doc.tokenOfWord[k - 1]].wordStart, extendAddress(doc, e), 0.75, 'address'));
    }
    // foreign street name + number: "Nassaustraat 123"
    // (not an English word that ends like one: "spring twenty five" is a promo code, "string 4" a setting)
    if (norm.length >= 6 && FOREIGN_STREET.test(norm) && isNum(doc, k + 1) && !englishWord(norm) && !ordinaryWord(norm)) {
      const start = isNum(doc, k - 1) ? doc.tokens[doc.tokenOfWord[k - 1]].wordStart : k;
      out.push(fromWords(doc, 'Address', start, extendAddress(doc, doc.tokens[doc.tokenOfWord[k + 1]].wordEnd), 0.7, 'address'));
    }
  }
  // P.O. boxes: "PO Box 4471", "P.O. Box 12", "p o box four four seven one", "post office box 9"
  for (let i = 0; i + 1 < w.length; i++) {
    if (w[i].norm !== 'box' || !isNum(doc, i + 1)) continue;
    const a = w[i - 1]?.norm ?? '';
    let start = -1;
    if (/^(po|p\.o|pob)$/.test(a)) start = i - 1;
    else if (a === 'o' && w[i - 2]?.norm === 'p') start = i - 2;
    else if (a === 'office' && w[i - 2]?.norm === 'post') start = i - 2;
    if (start < 0) continue;
    out.push(fromWords(doc, 'Address', start, extendAddress(doc, doc.tokens[doc.tokenOfWord[i + 1]].wordEnd), 0.85, 'address-pobox'));
  }
  // a street with no house number after a cue: "I live on Birchwood Avenue", "we moved to oak street"
  for (let k = 1; k < w.length; k++) {
    if (!STREET_SUFFIX.has(w[k].norm) || w[k].norm.length < 3) continue;
    let j = k - 1;
    while (j >= Math.max(0, k - 3) && plain(doc, j) && !isNum(doc, j) && (doc.spoken || isCap(doc, j)) && !endsClause(doc, j)) j--;
    // j < 0: the street starts the text, with no word before it to be a cue ("oak street ...").
    if (j === k - 1 || j < 0 || isNum(doc, j)) continue;
    if (!doc.spoken && !isCap(doc, k)) continue;
    const cue = `${w[j - 1]?.norm ?? ''} ${w[j].norm}`;
    if (!/(live|lives|lived|living|located|moved|moving|move|reside|resides|stay|staying) (on|to|at)$/.test(cue) && !(/^(on|at)$/.test(w[j].norm) && !doc.spoken && (!shopOn(doc, j) || sentThere(doc, j)))) continue;
    out.push(fromWords(doc, 'Address', j + 1, extendAddress(doc, k + 1), doc.spoken ? 0.6 : 0.65, 'address-street'));
  }
  // the last line of an address block: a country and its postcode ("Denmark 15838", "rwanda oh two four three eight")
  for (let i = 0; i + 1 < w.length; i++) {
    if (!COUNTRIES.has(w[i].norm) || !isPostcode(doc, i + 1)) continue;
    const t = doc.tokens[doc.tokenOfWord[i + 1]];
    if (t.text.length === 4 && /^(19|20)\d\d$/.test(t.text)) continue; // a year
    out.push(fromWords(doc, 'Address', i, t.wordEnd, 0.6, 'address-postcode'));
  }
  // a unit on its own: "Apt. 614", "suite seven seven one"
  for (let i = 0; i + 1 < w.length; i++) {
    // (not a storage unit's: "the storage unit 118")
    if (/^(apt|apartment|suite|ste|unit)$/.test(w[i].norm) && isNum(doc, i + 1) && !storageUnitAt(doc, i)) out.push(fromWords(doc, 'Address', i, doc.tokens[doc.tokenOfWord[i + 1]].wordEnd, 0.7, 'address-unit'));
  }
  // cue + number ...: "i live at 12 ...", "my address is 4 ..."
  for (let i = 0; i < w.length; i++) {
    // only these words end a cue (the two words are built and tested for them alone, not for every word)
    if (!CUE_ENDS.has(w[i].norm)) continue;
    const two = `${w[i - 1]?.norm ?? ''} ${w[i].norm}`;
    if (!/^(live at|lives at|living at|address is|located at|move to|moving to|moved to|live on|address:?)$/.test(two) && !/^(address|addresses)$/.test(w[i].norm)) continue;
    let s = i + 1;
    while (s < w.length && /^(is|it's|its|it|um|uh|to|at|with|here|they|are|was|now|new|be|will)$/.test(w[s].norm) && s - i < 5) s++;
    if (!isNum(doc, s)) continue;
    let e = doc.tokens[doc.tokenOfWord[s]].wordEnd;
    let n = 0;
    while (e < w.length && n < 7 && (plain(doc, e) || isNum(doc, e)) && !endsClause(doc, e - 1)) {
      e++;
      n++;
    }
    if (e - s >= 2) out.push(fromWords(doc, 'Address', s, e, 0.7, 'address-cue'));
  }
  return out;
};
