// A card's date and code read straight after its number, no cue between: "Visa 4452-0876-2602-5169, 3/30, 551",
// said "... five one six nine three thirty five fifty one" (numtrans joins it all into one run). The date and the
// code get their own kinds; the card keeps its digits. Everything here was masked already (the card's run, the
// digit net): this names the parts.
import { fromWords, type Doc, type Recognizer } from './doc.js';
import { digitRuns, digitsOfWords, luhn, type DigitRun } from './digitRuns.js';
import { CARD_DATE_RUN, CARD_DATE_WRITTEN } from './expirationDate.js';
import type { Detection } from '../types.js';

/**
 * Above the card's own confidence (a Luhn-valid card after its cue is 0.95): these name their few digits inside a
 * card's run (the digit net stretches over them), the card keeps the rest.
 */
const CONFIDENCE = 0.96;
/** A card found only here, inside a run too long for a card (creditCard.ts reads 13-19 digits). */
const CARD_CONFIDENCE = 0.9;
/** Words of a spoken run looked at, at most (a card, a date and a code said digit by digit are under 30). */
const MAX_WORDS = 32;

/** The most digits a card has. */
const MAX_CARD = 19;
const codeSized = (digits: string) => digits.length === 3 || digits.length === 4;
const cardSized = (digits: string) => digits.length >= 13 && digits.length <= MAX_CARD;
/** A card's number: card-sized and Luhn-valid, or card-sized after a card's cue. */
const isCard = (r: DigitRun, digits: string) => cardSized(digits) && (luhn(digits) || r.cues.has('card'));

/** A tail's part named between the card and it: "4532... expires 03/29 code 551", "exp 03/29, cvv 551". */
const TAIL_CUE = /^(exp|expires|expiry|expiration|expiring|date|code|cvv|cvc|csc|security|and)$/;
/** Tail cue words skipped before a part, at most. */
const TAIL_CUE_WORDS = 2;
/** Word `at`, or the first word after at most TAIL_CUE_WORDS tail cue words from it. */
function pastTailCues(doc: Doc, at: number): number {
  let k = at;
  while (k - at < TAIL_CUE_WORDS && TAIL_CUE.test(doc.words[k]?.norm ?? '')) k++;
  return k;
}

/** Written: the card's run, then a card date word ("3/30"), then maybe a run of 3-4 digits; each maybe named first. */
function writtenTail(doc: Doc, r: DigitRun, next: DigitRun | undefined, out: Detection[]): void {
  const at = pastTailCues(doc, r.wordEnd);
  const token = doc.tokens[doc.tokenOfWord[at]];
  if (!token || token.isNumber || token.wordStart !== at || !CARD_DATE_WRITTEN.test(doc.words[at].norm)) return;
  out.push(fromWords(doc, 'ExpirationDate', at, token.wordEnd, CONFIDENCE, 'card-tail'));
  if (next && next.wordStart === pastTailCues(doc, token.wordEnd) && codeSized(next.digits)) out.push(fromWords(doc, 'CVV', next.wordStart, next.wordEnd, CONFIDENCE, 'card-tail'));
}

/** Where a spoken date ends in words [from, to): the whole rest, or a date then a code (three digits first), or -1. */
function dateEnd(doc: Doc, from: number, to: number): number {
  let cut = -1;
  for (let v = from + 1; v <= to; v++) {
    if (!CARD_DATE_RUN.test(digitsOfWords(doc, from, v))) continue;
    const code = v < to ? digitsOfWords(doc, v, to) : '';
    if ((v === to || codeSized(code)) && (cut < 0 || code.length === 3)) cut = v;
  }
  return cut;
}

/** Words between a said card and its tail said as a run of its own, at most: "... six six, card, oh three ...". */
const TAIL_GAP = 3;

/** Said: a card's run, then a few words ("card", "expires"), then a run of a date (MYY, MMYY) and maybe a code. */
function nextTail(doc: Doc, r: DigitRun, next: DigitRun | undefined, out: Detection[]): void {
  if (!next || next.wordStart - r.wordEnd > TAIL_GAP || next.digits.length < 3 || next.digits.length > 8) return;
  if (next.wordEnd - next.wordStart > MAX_WORDS) return;
  const cut = dateEnd(doc, next.wordStart, next.wordEnd);
  if (cut < 0) return;
  out.push(fromWords(doc, 'ExpirationDate', next.wordStart, cut, CONFIDENCE, 'card-tail'));
  if (cut < next.wordEnd) out.push(fromWords(doc, 'CVV', cut, next.wordEnd, CONFIDENCE, 'card-tail'));
}

/** How likely a card of n digits is: 16 (most cards), then 15 (Amex), then the rest. */
const cardRank = (n: number) => (n === 16 ? 0 : n === 15 ? 1 : 2);

/** Said: one run holding a card, then a date (MYY, MMYY), then maybe a code; each cut at a word boundary. */
function spokenTail(doc: Doc, r: DigitRun, out: Detection[]): void {
  if (r.wordEnd - r.wordStart > MAX_WORDS) return;
  let best: { at: number; cut: number; rank: number } | undefined;
  for (let w = r.wordStart + 1; w < r.wordEnd; w++) {
    const card = digitsOfWords(doc, r.wordStart, w);
    if (!isCard(r, card) || (best && best.rank <= cardRank(card.length))) continue;
    const cut = dateEnd(doc, w, r.wordEnd);
    if (cut > 0) best = { at: w, cut, rank: cardRank(card.length) };
  }
  if (!best) return;
  // the card too: a run this long is no card's length, and after an order's cue the digit net takes none of it
  out.push(fromWords(doc, 'CreditCardNumber', r.wordStart, best.at, CARD_CONFIDENCE, 'card-tail'));
  out.push(fromWords(doc, 'ExpirationDate', best.at, best.cut, CONFIDENCE, 'card-tail'));
  if (best.cut < r.wordEnd) out.push(fromWords(doc, 'CVV', best.cut, r.wordEnd, CONFIDENCE, 'card-tail'));
}

export const cardTailRecognizer: Recognizer = (doc) => {
  const out: Detection[] = [];
  const runs = digitRuns(doc);
  runs.forEach((r, i) => {
    const written = !doc.spoken && isCard(r, r.digits);
    if (doc.spoken && isCard(r, r.digits)) nextTail(doc, r, runs[i + 1], out);
    // said: longer than any card (a run of a card's length is the card, whatever its prefixes look like)
    if (!written && (r.digits.length <= MAX_CARD || r.digits.length > MAX_CARD + 8)) return;
    // no reference cue ("Order 4532015112830366, 03/29, 551") is looked at: isCard takes a card-sized run only when
    // Luhn-valid or after a card's cue, and a Luhn-valid card-length run is a card wherever it stands, its tail too
    if (written) writtenTail(doc, r, runs[i + 1], out);
    else spokenTail(doc, r, out);
  });
  return out;
};
