// Card expiration dates: a cue ("expiration", "expires", "exp", "valid thru") and a month/year after it.
import { fromWords, type Doc, type Recognizer } from './doc.js';
import { dateAfter } from './dateTokens.js';
import type { Detection } from '../types.js';

/** "expiry's" and its ASR form "expirys" ("expiry is") too. */
const CUE = /^(expiration|expiry|expiry's|expirys|expires|expire|expiring|exp|thru|through)$/;

const MONTH = /^(january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec)$/;
/** How far after a cued date its repetition is still taken. */
const AGAIN_WORDS = 10;

/** A month and year said within AGAIN_WORDS words after a cued date ends at word `from` (its first repetition). */
function repeatAfter(doc: Doc, from: number): { wordStart: number; wordEnd: number } | undefined {
  for (let k = from; k < Math.min(doc.words.length, from + AGAIN_WORDS); k++) {
    if (!MONTH.test(doc.words[k].norm) || k === 0) continue;
    const d = dateAfter(doc, k - 1);
    // the month and something after it (a year): a month alone ("in March") is no date of a card
    if (d && d.wordStart === k && d.wordEnd > k + 1) return d;
  }
  return undefined;
}

export const expirationDateRecognizer: Recognizer = (doc) => {
  const out: Detection[] = [];
  doc.words.forEach((w, i) => {
    if (!CUE.test(w.norm)) return;
    if ((w.norm === 'thru' || w.norm === 'through') && !/^(valid|good)$/.test(doc.words[i - 1]?.norm ?? '')) return;
    const d = dateAfter(doc, i);
    if (!d) return;
    out.push(fromWords(doc, 'ExpirationDate', d.wordStart, d.wordEnd, 0.85, 'expiration-date'));
    // said again a few words on, checked on the card ("March 2027, I think, let me flip it over, yeah, March '27")
    const again = repeatAfter(doc, d.wordEnd);
    if (again) out.push(fromWords(doc, 'ExpirationDate', again.wordStart, again.wordEnd, 0.8, 'expiration-date'));
  });
  return out;
};
