// Card expiration dates: a cue ("expiration", "expires", "exp", "valid thru", "runs out" after a card, its name or
// its digits read out) and a month/year after it; or a card's month/year named only "date" after a card ("the new
// card came with a different date, 09/31").
import { endsClause, fromWords, type Doc, type Recognizer } from './doc.js';
import { dateAfter } from './dateTokens.js';
import { answerOnly, digitRuns, digitsOfWords, luhn } from './digitRuns.js';
import type { Detection } from '../types.js';

/** "expiry's", "expiration's" and their ASR forms "expirys", "expirations" ("expiry is") too; "thru", "through", "until", "till" after valid/good. */
const CUE = /^(expiration|expiration's|expirations|expiry|expiry's|expirys|expires|expire|expiring|exp|thru|through|until|till|til|to|out)$/;
/** A card's date as digits: "05/28", "5/2028", "05-28"; spoken or written run "0528", "528" (month 1-12, year 20-45). */
export const CARD_DATE_WRITTEN = /^(0?[1-9]|1[0-2])[/.-](2\d|3\d|4[0-5]|20[2-4]\d)$/;
export const CARD_DATE_RUN = /^(0?[1-9]|1[0-2])(2\d|3\d|4[0-5])$/;

const MONTH = /^(january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec)$/;
/** How far after a cued date its repetition is still taken. */
const AGAIN_WORDS = 10;

/** A month and year said within AGAIN_WORDS words after a cued date ends at word `from` (its first repetition). */
function repeatAfter(doc: Doc, from: number): { wordStart: number; wordEnd: number } | undefined {
  for (let k = from; k < Math.min(doc.words.length, from + AGAIN_WORDS); k++) {
    // or as digits ("the fifth month of 2028, so, 05/28", "... so oh five twenty eight")
    const t = doc.tokens[doc.tokenOfWord[k]];
    if (t.wordStart === k && (t.isNumber ? CARD_DATE_RUN.test(t.text) : CARD_DATE_WRITTEN.test(doc.words[k].norm))) return { wordStart: k, wordEnd: t.wordEnd };
    if (!MONTH.test(doc.words[k].norm) || k === 0) continue;
    const d = dateAfter(doc, k - 1);
    // the month and something after it (a year): a month alone ("in March") is no date of a card
    if (d && d.wordStart === k && d.wordEnd > k + 1) return d;
  }
  return undefined;
}

const CARD = /^((card|visa|mastercard|amex|discover|debit|credit)('s|s)?|cvv|cvc)$/;
/** How far back a card is looked for before "good until". */
const CARD_WORDS = 25;
export function cardBefore(doc: Doc, i: number): boolean {
  for (let k = Math.max(0, i - CARD_WORDS); k < i; k++) if (CARD.test(doc.words[k].norm)) return true;
  // a card's number read out (13-19 digits, Luhn-valid) ending within CARD_WORDS words: said digit by digit, the card
  // is 15-16 words itself and its name may be further back ("it's an amex three seven nine ... it runs out ...")
  return digitRuns(doc).some((r) => r.wordEnd <= i && i - r.wordEnd <= CARD_WORDS && r.digits.length >= 13 && r.digits.length <= 19 && luhn(r.digits));
}

const DOCUMENT = /^(passport|passport's|passports|license|licence|license's|licence's|id|permit|membership|subscription|warranty|lease|policy|registration|contract)$/;
function documentBefore(doc: Doc, i: number): boolean {
  for (let k = Math.max(0, i - CARD_WORDS); k < i; k++) if (DOCUMENT.test(doc.words[k].norm)) return true;
  return false;
}
/** What has an end date and is no card: an offer, a quote, a coupon ("the payoff quote good through 11/30"). */
const OFFER = /^(quote|quotes|quote's|offer|offers|coupon|coupons|coupon's|promo|promotion|deal|price|sale|discount|voucher|rebate|estimate|bid|special|trial|payoff|lock)$/;
/** What may come between an offer and its end's cue: "the coupon says expires", "the quote is good through". */
const OFFER_VERB = /^(says|said|say|is|was|it's|its|good|valid|still|only|that|which|will|would|should|be|runs|run)$/;
/** Words between them, at most. */
const OFFER_WORDS = 3;
/**
 * An offer named as the subject of the cue at word i, and no card in the turn before it. The offer's word has a word
 * before it in its clause ("the coupon", "payoff quote"): a bare one opening the text ("Special expires 05/29") may be
 * a clipped line about anything, the date is kept.
 */
function offerBefore(doc: Doc, i: number): boolean {
  let k = i - 1;
  while (k >= 0 && i - 1 - k < OFFER_WORDS && OFFER_VERB.test(doc.words[k].norm) && !endsClause(doc, k)) k--;
  return k >= 1 && !endsClause(doc, k) && !endsClause(doc, k - 1) && OFFER.test(doc.words[k].norm) && !cardBefore(doc, i);
}

/** An offer's terms: "20% off", "was $214,906", "twenty percent off", "... dollars". */
const TERMS = /^(off|percent|dollar|dollars|bucks|cents|free|discount|rebate|apr)$/;
const TERMS_SIGN = /[$%€£]/;
/** Words looked at for an offer's terms, before the cue and after the date. */
const TERMS_WORDS = 10;
/**
 * An offer's terms said near its date (words [from, to) looked at): "The coupon says expires 12/31, 20% off". Without
 * them an offer's word is no proof ("the offer expires oh four twenty eight" may be a misheard card's): the date kept.
 */
function offerTerms(doc: Doc, cue: number, end: number): boolean {
  const at = (k: number) => TERMS.test(doc.words[k].norm) || TERMS_SIGN.test(doc.words[k].raw);
  for (let k = Math.max(0, cue - TERMS_WORDS); k < cue; k++) if (at(k)) return true;
  for (let k = end; k < Math.min(doc.words.length, end + TERMS_WORDS); k++) if (at(k)) return true;
  return false;
}

/** How far after a date a card is looked for: "Payoff expires 12/30 on my Mastercard". */
const CARD_AFTER_WORDS = 6;
/** A date said in words, at most: "oh four twenty eight", "March of twenty twenty eight". */
const DATE_WORDS = 5;
/** A card named within `window` words after word `end` (a date's end, exclusive). */
function cardAfter(doc: Doc, end: number, window = CARD_AFTER_WORDS): boolean {
  for (let k = end; k < Math.min(doc.words.length, end + window); k++) if (CARD.test(doc.words[k].norm)) return true;
  return false;
}
/** A card said before the cue at word i, or just after the date that follows it ("good until 04/28 on the Visa"). */
const cardNear = (doc: Doc, i: number): boolean => cardBefore(doc, i) || cardAfter(doc, i + 1, DATE_WORDS + CARD_AFTER_WORDS);

/** A date phrase that is a year alone ("2031", "twenty thirty one"). */
function yearOnly(doc: Doc, d: { wordStart: number; wordEnd: number }): boolean {
  const first = doc.tokens[doc.tokenOfWord[d.wordStart]];
  return first.isNumber && first.wordStart === d.wordStart && first.wordEnd === d.wordEnd && /^(19|20)\d\d$/.test(first.text);
}

/**
 * A card's date and its code said alone, in answer to the agent ("10/27. 330.", "ten twenty seven three three oh"):
 * the turn holds nothing else but fillers. Written: a month/year then 3-4 digits; said: one run, a month and year
 * (MMYY or MYY) then 3-4 digits.
 */
const codeSized = (n: number) => n === 3 || n === 4;

function dateAndCode(doc: Doc, out: Detection[]): void {
  const runs = digitRuns(doc);
  // a turn of a few words only: nothing to look at in a longer one
  if (doc.words.length > 16) return;
  for (let k = 0; k < doc.words.length; k++) {
    const t = doc.tokens[doc.tokenOfWord[k]];
    if (t.wordStart !== k || t.isNumber || !CARD_DATE_WRITTEN.test(doc.words[k].norm)) continue;
    const code = runs.find((r) => r.wordStart >= t.wordEnd && r.wordStart - t.wordEnd <= 2 && codeSized(r.digits.length));
    if (!code || !answerOnly(doc, [[k, t.wordEnd], [code.wordStart, code.wordEnd]])) continue;
    out.push(fromWords(doc, 'ExpirationDate', k, t.wordEnd, 0.7, 'expiration-date'), fromWords(doc, 'CVV', code.wordStart, code.wordEnd, 0.7, 'expiration-date'));
  }
  for (const r of runs) {
    if (r.digits.length < 6 || r.digits.length > 8 || !answerOnly(doc, [[r.wordStart, r.wordEnd]])) continue;
    // where the date ends: a three-digit code taken before a four-digit one ("six twenty nine | eight five two")
    let at = -1;
    for (let w = r.wordStart + 1; w < r.wordEnd; w++) {
      const code = digitsOfWords(doc, w, r.wordEnd).length;
      if (!CARD_DATE_RUN.test(digitsOfWords(doc, r.wordStart, w)) || !codeSized(code)) continue;
      if (at < 0 || code === 3) at = w;
    }
    if (at > 0) out.push(fromWords(doc, 'ExpirationDate', r.wordStart, at, 0.7, 'expiration-date'), fromWords(doc, 'CVV', at, r.wordEnd, 0.7, 'expiration-date'));
  }
}

/** A date that is not a card's, named by the word before "date": "the due date", "the statement date". */
const OTHER_DATE = /^(due|payment|statement|closing|billing|start|delivery|shipping|ship|effective|install|installation|appointment|service|renewal|close|cycle|posting|post|transaction|purchase|charge|return|issue|issued|release|court|hearing|move|birth|end|deadline|travel|departure|arrival|check-in|checkout|filing|trial)$/;
/** Said between "date" and the card's date: "the date, 09/31", "date on it is 09/31", "a different date, oh nine thirty one". */
const CARD_DATE_LEAD = /^(is|it's|its|on|it|says|of|reads|shows|printed|was|now)$/;

/**
 * A card's date named only "date", a card said before it: "The new card came with a different date, 09/31". The
 * date must look like a card's (month and year: 09/31, 0931, "september thirty one"), not a due date's, not "date of
 * birth"; a few words between at most.
 */
function cardDateNamed(doc: Doc, out: Detection[]): void {
  doc.words.forEach((w, i) => {
    if (!/^(date|dates|date's)$/.test(w.norm) || OTHER_DATE.test(doc.words[i - 1]?.norm ?? '') || !cardBefore(doc, i)) return;
    let k = i + 1;
    while (k - i <= 3 && CARD_DATE_LEAD.test(doc.words[k]?.norm ?? '')) k++;
    if (k >= doc.words.length || doc.words[k - 1].norm === 'of' || /^(of|birth)$/.test(doc.words[i + 1]?.norm ?? '')) return;
    const t = doc.tokens[doc.tokenOfWord[k]];
    if (t.wordStart !== k) return;
    if (t.isNumber ? CARD_DATE_RUN.test(t.text) : CARD_DATE_WRITTEN.test(doc.words[k].norm)) {
      out.push(fromWords(doc, 'ExpirationDate', k, t.wordEnd, 0.75, 'expiration-date'));
      return;
    }
    const d = MONTH.test(doc.words[k].norm) ? dateAfter(doc, k - 1) : undefined;
    if (d && d.wordStart === k && d.wordEnd > k + 1) out.push(fromWords(doc, 'ExpirationDate', d.wordStart, d.wordEnd, 0.75, 'expiration-date'));
  });
}

export const expirationDateRecognizer: Recognizer = (doc) => {
  const out: Detection[] = [];
  dateAndCode(doc, out);
  cardDateNamed(doc, out);
  doc.words.forEach((w, i) => {
    if (!CUE.test(w.norm)) return;
    if (/^(thru|through|until|till|til|to)$/.test(w.norm) && !/^(valid|good)$/.test(doc.words[i - 1]?.norm ?? '')) return;
    // "valid to 09/28" names a card's date only when a card was said ("the offer is good to the end of May" is none)
    if (w.norm === 'to' && !cardNear(doc, i)) return;
    // "the Visa ... runs out 07/27": a card's date when a card was said before it (a warranty "ran out 03/26" is none)
    if (w.norm === 'out' && (!/^(runs|run|ran|running)$/.test(doc.words[i - 1]?.norm ?? '') || !cardNear(doc, i))) return;
    // "good until March 31" is an offer's end: a card's "good through" has the card said before it in the turn
    if (/^(until|till|til)$/.test(w.norm) && !cardNear(doc, i)) return;
    const d = dateAfter(doc, i);
    if (!d) return;
    // "the coupon says expires 12/31, 20% off": an offer's end, its terms said, not a card's (a card said before, or
    // just after, keeps it one)
    if (offerBefore(doc, i) && offerTerms(doc, i, d.wordEnd) && !cardAfter(doc, d.wordEnd)) return;
    // "passport number is ..., expires 2031": a document's year, no card's date (a card's has its month)
    if (yearOnly(doc, d) && !cardBefore(doc, i) && documentBefore(doc, i)) return;
    out.push(fromWords(doc, 'ExpirationDate', d.wordStart, d.wordEnd, 0.85, 'expiration-date'));
    // said again a few words on, checked on the card ("March 2027, I think, let me flip it over, yeah, March '27")
    const again = repeatAfter(doc, d.wordEnd);
    if (again) out.push(fromWords(doc, 'ExpirationDate', again.wordStart, again.wordEnd, 0.8, 'expiration-date'));
  });
  return out;
};
