// Amounts said one after another ("the appraisal came in at three hundred eighty five thousand, five thousand under
// contract"): numtrans joins them into one number token ("3850005000"), which read as a digit string looks like a
// phone or an SSN. Within one amount a magnitude word (thousand, million, billion) is never followed by one as
// large or larger ("two hundred thousand" yes, "five thousand five thousand" no): where one is, a new amount starts.
// Only where money is talked about (moneyNear) and no personal number is (digitRuns.ts): "my card number is four
// thousand one thousand ..." is a card's digits read in groups, and stays one run (never less).
import type { Doc, Token } from './doc.js';

const SCALE: Readonly<Record<string, number>> = { thousand: 1, thousands: 1, million: 2, millions: 2, billion: 3, billions: 3, trillion: 4 };
const scaleOf = (word: string | undefined): number => (word !== undefined && Object.hasOwn(SCALE, word) ? SCALE[word] : 0);

/** Whether a number token holds a magnitude word of thousand or more: an amount, not digits said one by one. */
export function isAmount(doc: Doc, token: Token): boolean {
  if (!token.isNumber) return false;
  for (let w = token.wordStart; w < token.wordEnd; w++) if (scaleOf(doc.words[w].norm) > 0) return true;
  return false;
}

/**
 * The word indices inside a number token where a new amount starts (after a magnitude word that a later one as large
 * or larger follows), in order; empty for a token of one amount. Linear in the token's words.
 */
export function amountStarts(doc: Doc, token: Token): number[] {
  if (!token.isNumber || token.wordEnd - token.wordStart < 2) return [];
  const starts: number[] = [];
  let largestAfter = 0;
  for (let w = token.wordEnd - 1; w >= token.wordStart; w--) {
    const s = scaleOf(doc.words[w].norm);
    if (s > 0 && largestAfter >= s && w + 1 < token.wordEnd) starts.push(w + 1);
    largestAfter = Math.max(largestAfter, s);
  }
  return starts.reverse();
}

/** Money said near a number: its unit, what it prices ("the appraisal came in at", "I paid", "the balance is"). */
const MONEY = /^(dollar|dollars|bucks|cents?|grand|price|priced|prices|cost|costs|costed|paid|pay|paying|payment|payments|owe|owed|owes|owing|balance|appraisal|appraised|fee|fees|amount|total|charge|charged|refund|refunded|deposit|salary|income|loan|mortgage|rent|worth|budget|offer|offered|sold|sale|value|valued|contract|asking|bid|quote|quoted|estimate|spent|spend|earned|came|tax|taxes|payoff)$/;
/** Words looked at for money before a number, and after it. */
const MONEY_BEFORE = 8;
const MONEY_AFTER = 4;

/** Whether a money word is said within MONEY_BEFORE words before word `start` or MONEY_AFTER after word `end`. */
export function moneyNear(doc: Doc, start: number, end: number): boolean {
  for (let k = Math.max(0, start - MONEY_BEFORE); k < start; k++) if (MONEY.test(doc.words[k].norm)) return true;
  for (let k = end; k < Math.min(doc.words.length, end + MONEY_AFTER); k++) if (MONEY.test(doc.words[k].norm)) return true;
  return false;
}
