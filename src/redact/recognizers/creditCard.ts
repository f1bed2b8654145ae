// Payment card numbers: every run of 13-19 digits is at least a possible card (never let one through); Luhn and
// a card cue raise confidence. Longer runs are redacted as cards too; "ending in 4432" after a card cue is a
// partial card number.
import { fromWords, type Recognizer } from './doc.js';
import { digitRuns, luhn } from './digitRuns.js';
import { afterReferenceCue, cardLengthReference, imeiNumber } from './referenceNumber.js';
import type { Detection } from '../types.js';

export const creditCardRecognizer: Recognizer = (doc) => {
  const out: Detection[] = [];
  for (const run of digitRuns(doc)) {
    const n = run.digits.length;
    const cue = run.cues.has('card');
    // an order's or a parcel's number, no card cue between (a Luhn-valid card-length run stays a card: redact more)
    if (n >= 10 && !cue && !(n <= 19 && luhn(run.digits)) && afterReferenceCue(doc, run.wordStart, true, run.wordEnd)) continue;
    // a reference of a card's length that fails Luhn, a phone's IMEI, named so right before, no card in the turn
    if (!cue && (cardLengthReference(doc, run.wordStart, run.digits, run.formatted) || imeiNumber(doc, run.wordStart, run.digits))) continue;
    if (n >= 13 && n <= 19) {
      let c = 0.55;
      if (luhn(run.digits)) c += 0.3;
      if (cue) c += 0.1;
      if (!cue && (run.cues.has('account') || run.cues.has('phone'))) c = 0.4;
      out.push(fromWords(doc, 'CreditCardNumber', run.wordStart, run.wordEnd, c, 'credit-card'));
    } else if (n > 19) {
      out.push(fromWords(doc, 'CreditCardNumber', run.wordStart, run.wordEnd, 0.5, 'credit-card'));
    } else if (cue && n >= 10 && n <= 12 && !run.cues.has('phone')) {
      out.push(fromWords(doc, 'CreditCardNumber', run.wordStart, run.wordEnd, 0.6, 'credit-card'));
    } else if (n === 4 && run.cues.has('ending') && (cue || run.cues.has('account'))) {
      out.push(fromWords(doc, run.cues.has('account') && !cue ? 'USBankAccountNumber' : 'CreditCardNumber', run.wordStart, run.wordEnd, 0.6, 'credit-card'));
    }
  }
  return out;
};
