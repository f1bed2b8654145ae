// Dates of birth: a cue ("date of birth", "born on", "birthday", "DOB", "d o b", "b-day") and a date after it, in
// any form people use: "3/4/1985", "1985-03-04", "04.03.1985", "March 4th, 1985", "the fourth of march eighty five",
// "oh three oh four eighty five", "twelve twenty seven eighty six", a year alone after "born in". The date may come a
// few words later, after the other party's acknowledgement ("date of birth please? sure, it's march fourth eighty
// five"): a date farther than the usual fillers must look like a full date (a month, or four digits or more).
import { fromWords, type Doc, type Recognizer } from './doc.js';
import { dateAfter } from './dateTokens.js';
import type { Detection } from '../types.js';

const CUE = /^(birth|born|birthday|birthdate|birth-date|date-of-birth|dob|d\.o\.b|bday|b-day|b'day)$/;
/** Words after which the date asked for is not the one that follows (another value is asked or given). */
const OTHER_CUE = /^(card|social|ssn|zip|postcode|phone|number|account|routing|expiration|expiry|expires|address|cvv|code|license|passport|email)$/;
const MONTH = /^(january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec)$/;
/** How many words may come between a cue and its date (beyond fillers). */
const REACH = 10;

/** Word index of the cue's last word at i, when a cue ends there ("d o b" spelled counts too). */
function cueAt(doc: Doc, i: number): boolean {
  const w = doc.words[i].norm;
  if (CUE.test(w)) return true;
  return w === 'b' && doc.words[i - 1]?.norm === 'o' && doc.words[i - 2]?.norm === 'd';
}

/** A date said in full enough to be taken far from its cue. */
function fullDate(doc: Doc, r: { wordStart: number; wordEnd: number }): boolean {
  const words = doc.words.slice(r.wordStart, r.wordEnd);
  if (words.some((w) => MONTH.test(w.norm))) return true;
  let digits = 0;
  for (let t = doc.tokenOfWord[r.wordStart]; t <= doc.tokenOfWord[r.wordEnd - 1]; t++) digits += doc.tokens[t].text.replace(/\D/g, '').length;
  return digits >= 4;
}

export const dateOfBirthRecognizer: Recognizer = (doc) => {
  const out: Detection[] = [];
  for (let i = 0; i < doc.words.length; i++) {
    if (!cueAt(doc, i)) continue;
    const d = dateAfter(doc, i, REACH, (w) => OTHER_CUE.test(w));
    if (!d) continue;
    const near = d.wordStart - i <= 5;
    if (near || fullDate(doc, d)) out.push(fromWords(doc, 'DateOfBirth', d.wordStart, d.wordEnd, near ? 0.85 : 0.75, 'date-of-birth'));
  }
  return out;
};
