// Dates of birth: a cue ("date of birth", "born on", "birthday", "DOB", "d o b", "b-day") and a date after it, in
// any form people use: "3/4/1985", "1985-03-04", "04.03.1985", "March 4th, 1985", "the fourth of march eighty five",
// "oh three oh four eighty five", "twelve twenty seven eighty six", a year alone after "born in". The date may come a
// few words later, after the other party's acknowledgement ("date of birth please? sure, it's march fourth eighty
// five"): a date farther than the usual fillers must look like a full date (a month, or four digits or more).
// Without any cue, a full date whose year is a plausible birth year counts too (fullBirthDates).
import { fromWords, type Doc, type Recognizer } from './doc.js';
import { correctionAfter, dateAfter } from './dateTokens.js';
import type { Detection } from '../types.js';

const CUE = /^(birth|born|birthday|birthdays|birthday's|birthdate|birth-date|date-of-birth|dob|d\.o\.b|bday|b-day|b'day)$/;
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

const DAY_WORD = /^(first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|thirteenth|fourteenth|fifteenth|sixteenth|seventeenth|eighteenth|nineteenth|twentieth|thirtieth|\d{1,2}(st|nd|rd|th)?)$/;
/** Words allowed between a month (or its day) and the year: "march 3rd, 1984", "april 30th, year 1978". */
const BEFORE_YEAR = /^(,|of|in|year|the)$/;
const NUMERIC_DATE = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/;
/** Youngest birth year taken without a cue: a caller is rarely under 14, and recent years are dates of other things. */
const LATEST_BIRTH_YEAR = new Date().getUTCFullYear() - 14;

const tokenWord = (doc: Doc, t: number) => doc.tokens[t]?.text.toLowerCase().replace(/[,.]+$/, '');
const birthYear = (text: string | undefined) => text !== undefined && /^\d{4}$/.test(text) && Number(text) >= 1900 && Number(text) <= LATEST_BIRTH_YEAR;
const isDay = (text: string | undefined) => text !== undefined && DAY_WORD.test(text) && (!/^\d+$/.test(text) || (Number(text) >= 1 && Number(text) <= 31));

/** What a number after a date may count instead of a year: "march third, 45 minutes". */
const UNIT = /^(minutes?|mins?|hours?|hrs?|seconds?|days?|weeks?|months?|years?|dollars?|bucks|cents?|percent|times|people|pm|am|o'clock)$/;
/** A year said in two digits ("September 9th, '88", "september ninth eighty eight"): 30-99, a birth year of the 1900s. */
function shortYear(doc: Doc, t: number): boolean {
  const token = doc.tokens[t];
  if (!token?.isNumber || !/^\d{2}$/.test(token.text) || Number(token.text) < 30) return false;
  return !UNIT.test(tokenWord(doc, t + 1) ?? '');
}

/**
 * Dates of birth said without a cue (the cue was in the other party's turn, or never said): a full date (day, month
 * and year, the year a plausible birth year) — "March 3rd, 1984", "the 21st of November 1969", "07/14/1992". A
 * contract's or a payment's date is rarely that old; a date without a year or of a recent year is left alone.
 */
function fullBirthDates(doc: Doc): Detection[] {
  const out: Detection[] = [];
  const t = doc.tokens;
  for (let j = 0; j < t.length; j++) {
    const w = tokenWord(doc, j);
    const numeric = NUMERIC_DATE.exec(w);
    if (numeric && Number(numeric[1]) <= 31 && Number(numeric[2]) <= 31 && birthYear(numeric[3])) {
      out.push(fromWords(doc, 'DateOfBirth', t[j].wordStart, t[j].wordEnd, 0.6, 'birth-date'));
      continue;
    }
    if (!MONTH.test(w)) continue;
    let start = j;
    let day = false;
    if (isDay(tokenWord(doc, j - 1))) ((start = j - 1), (day = true));
    else if (tokenWord(doc, j - 1) === 'of' && isDay(tokenWord(doc, j - 2))) ((start = j - 2), (day = true));
    let k = j + 1;
    if (isDay(tokenWord(doc, k))) ((k += 1), (day = true));
    for (let n = 0; n < 2 && BEFORE_YEAR.test(tokenWord(doc, k) ?? ''); n++) k++;
    if (day && (birthYear(tokenWord(doc, k)) || shortYear(doc, k))) out.push(fromWords(doc, 'DateOfBirth', t[start].wordStart, t[k].wordEnd, 0.6, 'birth-date'));
  }
  return out;
}

export const dateOfBirthRecognizer: Recognizer = (doc) => {
  const out: Detection[] = fullBirthDates(doc);
  for (let i = 0; i < doc.words.length; i++) {
    if (!cueAt(doc, i)) continue;
    const d = dateAfter(doc, i, REACH, (w) => OTHER_CUE.test(w));
    if (!d) continue;
    const near = d.wordStart - i <= 5;
    if (!near && !fullDate(doc, d)) continue;
    out.push(fromWords(doc, 'DateOfBirth', d.wordStart, d.wordEnd, near ? 0.85 : 0.75, 'date-of-birth'));
    // corrected: "Birthday is 11/05/83, no, 11/15/83" (the new date is a birth date as the first was)
    const again = correctionAfter(doc, d.wordEnd);
    if (again) out.push(fromWords(doc, 'DateOfBirth', again.wordStart, again.wordEnd, 0.8, 'date-of-birth'));
  }
  return out;
};
