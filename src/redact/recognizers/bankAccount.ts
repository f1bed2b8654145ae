// US bank account numbers: 4-17 digits after an account cue ("account number", "checking", "savings").
import { fromWords, type Recognizer } from './doc.js';
import { digitRuns } from './digitRuns.js';

export const bankAccountRecognizer: Recognizer = (doc) =>
  digitRuns(doc)
    .filter((r) => r.cues.has('account') && !r.cues.has('routing') && r.digits.length >= 4 && r.digits.length <= 17 && !(r.cues.has('ending') && r.digits.length === 4))
    .map((r) => fromWords(doc, 'USBankAccountNumber', r.wordStart, r.wordEnd, r.cues.has('card') && r.digits.length >= 13 ? 0.5 : 0.8, 'bank-account'));
