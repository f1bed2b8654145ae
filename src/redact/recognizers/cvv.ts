// Card verification codes: 3-4 digits after a cue ("security code", "cvv", "c i d", "the three digits on the back"),
// or the code said twice to check it ("509, 5-0-9": one run of 6 or 8 digits), each saying its own CVV; or after
// "the code is" with a card said before it. The back of something that is no card ("the code on the back of the
// gift receipt") names no card's code.
import { fromWords, type Recognizer } from './doc.js';
import { answerOnly, digitRuns, isRepeat, repeatSplit, type DigitRun } from './digitRuns.js';
import type { Doc } from './doc.js';
import { cardBefore } from './expirationDate.js';
import type { Detection } from '../types.js';
import { normReader } from './normReader.js';

const SIZES = [3, 4];

/** A turn about paying by card. */
const PAYING: ReadonlySet<string> = new Set(['payment', 'pay', 'paying', 'charge', 'charging', 'card', 'process', 'processing', 'checkout', 'transaction', 'billing']);
/** What follows an amount or a count, not a code. */
const UNIT = /^(dollars?|bucks|cents?|percent|minutes?|hours?|days?|months?|years?|times|people|items?|feet|miles|pounds|gigs?|gb|mb)$/;

/**
 * A code read back alone at the start of a turn about paying ("That's 714, thank you, I'll process the payment"): no
 * cue, 3-4 digits said one by one (written: plain digits, no "$"), no unit after; the question was the other party's.
 */
function codeReadBack(doc: Doc, r: DigitRun): boolean {
  if (r.cues.size > 0 || !SIZES.includes(r.digits.length) || !answerOnly(doc, [[r.wordStart, doc.words.length]])) return false;
  if (doc.spoken ? r.wordEnd - r.wordStart !== r.digits.length : !/^\d{3,4}$/.test(r.formatted) || doc.text[doc.words[r.wordStart].start - 1] === '$') return false;
  if (UNIT.test(doc.words[r.wordEnd]?.norm ?? '')) return false;
  return doc.words.some((w) => PAYING.has(w.norm));
}

/** Things with a back and a code on it that are no card. */
const NOT_CARD = /^(receipt|receipts|ticket|tickets|box|package|packaging|remote|router|modem|device|unit|machine|tag|label|coupon|voucher|form|letter|bill|statement|invoice|sticker|bottle|tv|fridge|appliance|book|envelope|certificate|slip|menu|flyer|console|controller|printer|laptop|charger|battery|lid|manual|door|gate)$/;
/** Words looked back over for "the back of the ..." (a cue's window). */
const BACK_WORDS = 12;

/** A card's code named as one (not by where it is): "CVV", "security code", "card code", "c v v". */
const CODE_NAME = /\b(cvv2?|cvc2?|csc|cid|c v v|c v c|c i d|c s c|security code|security number|verification code|verification number|verification value|card code)\b/;
const CARD_WORD = /^(card|cards|card's|visa|mastercard|amex|discover|debit|credit)$/;

/**
 * "... on the back of the gift receipt is 847": the back the code is on is a thing's, named before the run (after
 * `floor`, the previous run's end). Not when a card's code is named as one in those words ("CVV, it's on the back of
 * the letter ..., 551") or a card is said between that thing and the run ("the back of the unit... I mean the card:
 * 551"): then it is the card's code (never less: a misplaced back is no reason to leak one).
 */
function backOfThing(doc: Doc, r: DigitRun, floor: number): boolean {
  const w = normReader(doc);
  const from = Math.max(floor, r.wordStart - BACK_WORDS);
  if (CODE_NAME.test(doc.words.slice(from, r.wordStart).map((x) => x.norm).join(' '))) return false;
  for (let k = from; k < r.wordStart - 1; k++) {
    if (w(k) !== 'back' || w(k + 1) !== 'of') continue;
    // the owner's words: "the gift receipt", "my router's box"; a card word among them keeps it a card's code
    let thing = -1;
    for (let j = k + 2; j < Math.min(r.wordStart, k + 6); j++) {
      if (CARD_WORD.test(w(j))) return false;
      if (NOT_CARD.test(w(j).replace(/'s$/, ''))) thing = j;
    }
    if (thing < 0) continue;
    for (let j = thing + 1; j < r.wordStart; j++) if (CARD_WORD.test(w(j))) return false;
    return true;
  }
  return false;
}

/** Who may say "code" before a card's code: "the code is", "card code", not a "zip code" or a "gate code". */
const CODE_OWNER = /^(the|its|it's|that|card|card's|cards|her|his|my|your)$/;

/** "It's my sister's card, ..., the code is 915": "the code (is)" right before 3-4 digits, a card said before. */
function codeAfterCard(doc: Doc, r: DigitRun): boolean {
  if (!SIZES.includes(r.digits.length) || UNIT.test(doc.words[r.wordEnd]?.norm ?? '')) return false;
  const w = normReader(doc);
  let k = r.wordStart - 1;
  if (/^(is|was|it's|its)$/.test(w(k))) k--;
  if (!/^(code|code's|codes)$/.test(w(k)) || !CODE_OWNER.test(w(k - 1))) return false;
  return cardBefore(doc, k);
}

export const cvvRecognizer: Recognizer = (doc) => {
  const out: Detection[] = [];
  const runs = digitRuns(doc);
  runs.forEach((r, i) => {
    if (codeReadBack(doc, r)) out.push(fromWords(doc, 'CVV', r.wordStart, r.wordEnd, 0.6, 'cvv'));
    if (!r.cues.has('cvv') && codeAfterCard(doc, r)) out.push(fromWords(doc, 'CVV', r.wordStart, r.wordEnd, 0.8, 'cvv'));
    if (!r.cues.has('cvv') || backOfThing(doc, r, runs[i - 1]?.wordEnd ?? 0)) return;
    if (SIZES.includes(r.digits.length)) {
      out.push(fromWords(doc, 'CVV', r.wordStart, r.wordEnd, 0.9, 'cvv'));
    } else if (isRepeat(r, SIZES)) {
      const at = repeatSplit(doc, r, SIZES);
      if (at === undefined) out.push(fromWords(doc, 'CVV', r.wordStart, r.wordEnd, 0.9, 'cvv'));
      else out.push(fromWords(doc, 'CVV', r.wordStart, at, 0.9, 'cvv'), fromWords(doc, 'CVV', at, r.wordEnd, 0.9, 'cvv'));
    }
  });
  return out;
};
