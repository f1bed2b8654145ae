// Postal codes the US/UK/Canadian shapes miss, right after a postal cue: short codes of 3-4 characters, letters
// allowed ("zip is D02", "zip code 4051", "postcode t five k"), and dashed 5-8 digit codes ("1234-567", "00-950",
// "123-4567") after "zip"/"postal"/"postcode" or "code". Written or said symbol by symbol; reported as ZipCode, above
// the phone recognizer's confidence for a dashed 7-digit run (which took "1234-567" for a phone).
import { fromWords, type Doc, type Recognizer } from './doc.js';
import { digitRuns } from './digitRuns.js';
import { charsOf, symbolsByWord } from './symbols.js';
import type { Detection } from '../types.js';
import { normReader } from './normReader.js';

const POSTAL = /^(zip|zipcode|postal|postcode|post|eircode)$/;
/** Words between the cue and the code: "zip code is", "postal code's", "the code on the letter is". */
const BETWEEN = /^(code|codes|code's|is|its|it's|was|number|uh|um|there|here|on|the|letter|card|envelope|they|gave|me|sent|of)$/;
/** A code that is something else: a card's security code, a verification or promo code. */
const NOT_POSTAL = /^(security|verification|promo|discount|coupon|access|confirmation|pin|area|country|error|reason|tax|product|activation|gift|reset|one-time|otp)$/;
/** Written: a short code with a digit, or a dashed code. */
const WRITTEN_SHORT = /^(?=[A-Za-z0-9]*\d)[A-Za-z0-9]{3,4}$/;
const WRITTEN_DASHED = /^\d{2,4}-\d{3,4}$/;

/** The word index where a postal code may start after a cue ending before word i, looking back at most 6 words. */
function cueKind(doc: Doc, at: number): 'postal' | 'code' | undefined {
  const w = normReader(doc);
  let k = at - 1;
  let steps = 0;
  while (k >= 0 && steps < 6) {
    const x = w(k).replace(/[:,]$/, '');
    if (POSTAL.test(x)) return 'postal';
    if (x === 'code' || x === 'codes' || x === "code's") return POSTAL.test(w(k - 1)) ? 'postal' : NOT_POSTAL.test(w(k - 1)) ? undefined : 'code';
    if (!BETWEEN.test(x)) return undefined;
    k--;
    steps++;
  }
  return undefined;
}

/** Whether the text has a cue at all: one test a doc, most have none. */
const ANY_CUE = /\b(zip|zipcode|postal|postcode|post|eircode|code|codes)\b/i;

export const shortPostcodeRecognizer: Recognizer = (doc) => {
  const out: Detection[] = [];
  if (!ANY_CUE.test(doc.text)) return out;
  const symbols = symbolsByWord(doc);
  const runAt = new Map(digitRuns(doc).map((r) => [r.wordStart, r]));
  for (let i = 1; i < doc.words.length; i++) {
    const kind = cueKind(doc, i);
    if (!kind) continue;
    const raw = doc.words[i].raw.replace(/[.,;:!?]+$/, '');
    if (!doc.spoken && (WRITTEN_DASHED.test(raw) || (kind === 'postal' && WRITTEN_SHORT.test(raw)))) {
      out.push(fromWords(doc, 'ZipCode', i, i + 1, 0.9, 'postcode-short'));
      continue;
    }
    // said: digits only (a number run), or letters and digits symbol by symbol to the end of their run; 3-4 with
    // a digit after a postal cue, 7-8 digits after either, 5-6 after a postal cue
    const run = runAt.get(i);
    if (run) {
      const d = run.digits.length;
      if ((kind === 'postal' && d >= 3 && d <= 8 && d !== 5) || d === 7 || d === 8) out.push(fromWords(doc, 'ZipCode', run.wordStart, run.wordEnd, 0.85, 'postcode-short'));
      continue;
    }
    const at = symbols.get(i);
    if (!at) continue;
    const rest = at.run.symbols.slice(at.index);
    const chars = charsOf(rest);
    const short = kind === 'postal' && chars.length >= 3 && chars.length <= 4 && /\d/.test(chars);
    const dashed = /^\d{7,8}$/.test(chars) || (kind === 'postal' && /^\d{5,8}$/.test(chars));
    if (!short && !dashed) continue;
    out.push(fromWords(doc, 'ZipCode', rest[0].wordStart, rest[rest.length - 1].wordEnd, 0.85, 'postcode-short'));
    i = rest[rest.length - 1].wordEnd - 1;
  }
  return out;
};
