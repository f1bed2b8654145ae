// US bank account numbers: 4-17 digits after an account cue ("account number", "checking", "savings"), right after
// a routing number (a check's bottom line read out), or the second of two answers to "your social and the account
// number?". A short run in a range ("account summary period eleven oh one to eleven thirty", "from 9 to 5") is dates
// or times; a year after "since" ("had this account since 1967") is a year.
import { fromWords, type Doc, type Recognizer } from './doc.js';
import { CUE_WINDOW, digitRuns, type DigitRun } from './digitRuns.js';
import { routingConfidence } from './abaRouting.js';
import type { Detection } from '../types.js';

const RANGE = /^(to|through|thru|till|til|until)$/;
/** The most digits a date or time in a range has ("1101", "11/30" said "eleven thirty"). */
const RANGE_DIGITS = 4;

/** Whether runs a and b (a first) are the two ends of a range: short, one range word between. */
function range(doc: Doc, a: DigitRun | undefined, b: DigitRun | undefined): boolean {
  return !!a && !!b && a.digits.length <= RANGE_DIGITS && b.digits.length <= RANGE_DIGITS && b.wordStart === a.wordEnd + 1 && RANGE.test(doc.words[a.wordEnd].norm);
}

/** Words between "since <year>" and the account's number, at most: "is", "number is", ", the number's". */
const YEAR_GAP = 4;
/** Said between a routing number and the account after it: "071921341 then 5582019944", "119177662 and 3309 1184 27". */
const BETWEEN = /^(then|and|account|the|is|its|it's|number|,)$/;
/** Other kinds' cues: a run named so is no account after a routing number. */
const OTHER_CUES = ['ssn', 'card', 'phone', 'zip', 'license', 'passport', 'dob', 'cvv', 'exp', 'routing'] as const;
/** Above a phone's reading of ten digits with no cue (0.7), as sure as an account's cue. */
const AFTER_ROUTING = 0.8;

/**
 * A check's bottom line read out, or a routing number and then its account: "the bottom of the check says 071921341
 * then 5582019944", "Payroll has 119177662 and 3309 1184 27": a run of an account's length right after a run read as
 * a routing number (routingConfidence 0.7 or more: its cue, or valid beside a bank's word), a few joining words
 * between, no other kind's cue, is the account.
 */
function afterRouting(doc: Doc, runs: readonly DigitRun[], i: number): boolean {
  const r = runs[i];
  const p = runs[i - 1];
  if (!p || r.digits.length < 4 || r.digits.length > 17 || r.wordStart - p.wordEnd > 3 || OTHER_CUES.some((c) => r.cues.has(c))) return false;
  for (let k = p.wordEnd; k < r.wordStart; k++) if (!BETWEEN.test(doc.words[k].norm)) return false;
  return (routingConfidence(doc, p) ?? 0) >= 0.7;
}

/** Words that say a year follows: "had this account since 1967", "opened it back in 2003". */
const YEAR_BEFORE = /^(since|in|from|until|till|before|after|around|circa)$/;
/** Years an account talk names: 1900-2099, said "nineteen sixty seven", "two thousand three", written 1967. */
const YEAR = /^(19|20)\d\d$/;
/** The latest year taken for when an account was opened or had: later ones ("my account? in 2045") may be its number. */
const LAST_YEAR = 2029;
/** "in"/"from" names a place as often as a time ("my account in 2045", "the one from 2031"): a time word must be near. */
const TIME_WORD = /^(opened|open|opening|had|have|since|back|year|years|been|customer|member|started|joined|ago)$/;
/** "ending in 1972", "ended in", "ends up in": the account's last digits, never a year. */
const ENDING = /^(ending|ends|end|ended)$/;

/**
 * Four digits of a year's shape right after a year's word ("since", "in", "from" ...), however said (digit by digit
 * too): what a year said after an account's cue looks like, whether or not it is one. The number after it ("my
 * account since 1982 is 4471 2290") is the account's.
 */
function yearShaped(doc: Doc, r: DigitRun): boolean {
  return YEAR.test(r.digits) && YEAR_BEFORE.test(doc.words[r.wordStart - 1]?.norm ?? '');
}

/**
 * The run before `i` is a year's shape after an account's cue, or a range's second year after one ("savings since 1990
 * to 2005 was 2045 7781"): the number after is the account's.
 */
function afterYearShaped(doc: Doc, runs: readonly DigitRun[], i: number): boolean {
  const p = runs[i - 1];
  if (!p || runs[i].wordStart - p.wordEnd > YEAR_GAP) return false;
  if (p.cues.has('account') && yearShaped(doc, p)) return true;
  const q = runs[i - 2];
  return !!q && q.cues.has('account') && yearShaped(doc, q) && YEAR.test(p.digits) && p.wordStart === q.wordEnd + 1 && RANGE.test(doc.words[q.wordEnd].norm);
}

/**
 * A year, not an account's number: four digits of a year (1900-2029) right after "since", "until" ... ("I've had
 * this account since 1967"), or after "in"/"from" with a time word near ("opened in 1999", "back in 2003", "from 1999
 * to 2004"), said as one number (not digit by digit: "since one nine six seven" may be read out), with no "number"
 * between the cue and it ("the account number in 1967 ..." is left to the account) and no "ending in".
 */
function yearSince(doc: Doc, r: DigitRun): boolean {
  if (!yearShaped(doc, r) || Number(r.digits) > LAST_YEAR) return false;
  const before = doc.words[r.wordStart - 1].norm;
  const w2 = doc.words[r.wordStart - 2]?.norm ?? '';
  if (before === 'in' && (ENDING.test(w2) || (w2 === 'up' && ENDING.test(doc.words[r.wordStart - 3]?.norm ?? '')))) return false;
  if (before === 'in' || before === 'from') {
    let timed = /^(to|through|thru|until|till)$/.test(doc.words[r.wordEnd]?.norm ?? '');
    for (let k = Math.max(0, r.wordStart - CUE_WINDOW); k < r.wordStart - 1 && !timed; k++) timed = TIME_WORD.test(doc.words[k].norm);
    if (!timed) return false;
  }
  // digit by digit ("one nine six seven") is read out, not a year said
  if (doc.spoken && r.wordEnd - r.wordStart >= 4) return false;
  for (let k = Math.max(0, r.wordStart - CUE_WINDOW); k < r.wordStart; k++) if (/^(number|numbers|no|#|acct)$/.test(doc.words[k].norm)) return false;
  return true;
}

/** Kinds asked for beside an account, which the first of two answers takes: "your social and the account number?". */
const ASKED_FIRST = ['ssn', 'card', 'routing', 'phone', 'dob', 'zip'] as const;

/**
 * The second of two answers to a question that asked for another number and the account: "the last four of your
 * social and the account number? 9031 and 55120487". The run before it had both cues (it answers the first thing),
 * this one none of its own, "and" (or "then") between: the account's.
 */
function secondAnswer(doc: Doc, runs: readonly DigitRun[], i: number): boolean {
  const r = runs[i];
  const p = runs[i - 1];
  if (!p || r.digits.length < 5 || r.digits.length > 17 || r.cues.size > 0 || r.wordStart - p.wordEnd > 2) return false;
  if (!p.cues.has('account') || !ASKED_FIRST.some((c) => p.cues.has(c))) return false;
  for (let k = p.wordEnd; k < r.wordStart; k++) if (!/^(and|then|also)$/.test(doc.words[k].norm)) return false;
  return r.wordStart > p.wordEnd;
}

export const bankAccountRecognizer: Recognizer = (doc) => {
  const runs = digitRuns(doc);
  const out: Detection[] = [];
  runs.forEach((r, i) => {
    const n = r.digits.length;
    if (afterRouting(doc, runs, i) || secondAnswer(doc, runs, i)) {
      out.push(fromWords(doc, 'USBankAccountNumber', r.wordStart, r.wordEnd, AFTER_ROUTING, 'bank-account'));
      return;
    }
    // "my account since 1982 is 4471 2290": the account's cue, heard before the year, names the number after it. On the
    // year's shape alone (a year or the account itself, whatever yearSince decides): both masked when unsure.
    const afterYear = afterYearShaped(doc, runs, i);
    if (!(r.cues.has('account') || afterYear) || r.cues.has('routing') || n < 4 || n > 17 || (r.cues.has('ending') && n === 4)) return;
    if (n <= RANGE_DIGITS && (range(doc, r, runs[i + 1]) || range(doc, runs[i - 1], r))) return;
    if (yearSince(doc, r)) return;
    out.push(fromWords(doc, 'USBankAccountNumber', r.wordStart, r.wordEnd, r.cues.has('card') && n >= 13 ? 0.5 : 0.8, 'bank-account'));
  });
  return out;
};
