// Digit runs: consecutive number tokens (written digits or spoken numbers joined by numtrans), joined across
// fillers ("uh", "um") and spoken separators ("dash"), with the conversational cues that precede them.
import { numtrans } from '../../transcript/numtrans.js';
import type { Doc } from './doc.js';
import { amountStarts, isAmount, moneyNear } from './spokenAmounts.js';
import { normReader } from './normReader.js';

export interface DigitRun {
  digits: string;
  /** Word indices, end exclusive. */
  wordStart: number;
  wordEnd: number;
  /** The written form (text slice), for format checks like 123-45-6789. */
  formatted: string;
  /** Cue kinds found in the words before the run (back to the previous run, at most CUE_WINDOW words). */
  cues: Set<Cue>;
}

export type Cue = 'ssn' | 'card' | 'phone' | 'account' | 'routing' | 'cvv' | 'exp' | 'zip' | 'license' | 'passport' | 'dob' | 'ending';

const FILLERS = new Set(['uh', 'um', 'uhm', 'umm', 'er', 'erm', 'ah', 'hmm', 'mm', 'dash', 'hyphen']);
export const CUE_WINDOW = 8;
const DIGIT_WORDS: Record<string, string> = { zero: '0', oh: '0', o: '0', one: '1', two: '2', three: '3', four: '4', five: '5', six: '6', seven: '7', eight: '8', nine: '9' };

const DIGIT_WORD_MAX = Math.max(...Object.keys(DIGIT_WORDS).map((k) => k.length));

/** The digits of a token: a number token's text, or a lone digit word numtrans left as a word ("one"). */
export function digitsOf(token: { text: string; isNumber: boolean } | undefined, allowOh = true): string | undefined {
  if (!token) return undefined;
  if (token.isNumber) return token.text;
  // (no digit word is longer: a longer word is none, lower-cased or not)
  if (token.text.length > DIGIT_WORD_MAX) return undefined;
  const w = token.text.toLowerCase();
  if (!allowOh && (w === 'oh' || w === 'o')) return undefined;
  return Object.hasOwn(DIGIT_WORDS, w) ? DIGIT_WORDS[w] : undefined;
}

const CUE_PHRASES: [RegExp, Cue][] = [
  [/\b(social|ssn|s s n|ss number|socials|social security)\b/, 'ssn'],
  // a card's code by name, written or spelled out ("c v v", "c i d"), or by where it is ("the three digits on the back")
  [/\b(cvv2?|cvc2?|csc|cid|c v v|c v c|c i d|c s c|security code|security number|verification code|verification number|verification value|card code|three digits?|3 digits?|three numbers|three-digit|four digit code|four-digit code|four digits on the front|back of the card|code on the back|digits on the back|numbers on the back|number on the back|on the back|the back is|back's|backs)\b/, 'cvv'],
  [/\b(expiration|expiry|expirys|expires|expire|expired|exp|valid thru|valid through|good thru|valid until|good until|expiring)\b/, 'exp'],
  [/\b(routing|aba|a b a|transit number|transit|rtn|r t n|first nine (digits |numbers )?(on|of) (the|my|a) (check|cheque))\b/, 'routing'],
  [/\b(account|acct|checking|savings)\b/, 'account'],
  [/\b(card|visa|mastercard|amex|american express|credit|debit)\b/, 'card'],
  [/\b(ending in|ends in|last four|last 4)\b/, 'ending'],
  [/\b(phone|cell|mobile|telephone|call|reach|callback|fax|landline|extension|text me|dial|tel)\b/, 'phone'],
  [/\b(zip|zips|zipcode|postal|postcode|post code)\b/, 'zip'],
  [/\b(license|licence|dl|d l|driver's|drivers)\b/, 'license'],
  [/\b(passports?)\b/, 'passport'],
  [/\b(birth|born|birthday|dob|birthdate)\b/, 'dob'],
];

/**
 * Every cue's phrases in one pattern: most texts looked at hold no cue, and one scan says so (it matches where one of
 * CUE_PHRASES would: the same alternatives, each between its own word boundaries); at the start of a text only.
 */
const ANY_CUE = new RegExp(CUE_PHRASES.map(([re]) => re.source).join('|'));
const CUE_AT_START = new RegExp(`^(?:${CUE_PHRASES.map(([re]) => re.source).join('|')})`);

/**
 * Cues whose words name nothing but their kind, heard further back than CUE_WINDOW: "the routing number on the
 * bottom of the check is ...", "the three digit code on the back of the card is ...".
 */
const FAR_CUES: ReadonlySet<Cue> = new Set(['routing', 'cvv', 'ssn']);
export const FAR_CUE_WINDOW = 12;
/** Whether `text` (normalised words joined by spaces) starts with a number's cue ("ssn", "phone is"). */
export function startsWithCue(text: string): boolean {
  // (a cue's first match at 0: a match at 0)
  return CUE_AT_START.test(text);
}

/** The cues in `text` (normalised words joined by spaces). */
export function cuesIn(text: string): Set<Cue> {
  const cues = new Set<Cue>();
  for (const [re, cue] of CUE_PHRASES) if (re.test(text)) cues.add(cue);
  return cues;
}

/** The cue `text` (normalised words joined by spaces) starts with ("social on the account" is 'ssn'), if any. */
export function cueStarting(text: string): Cue | undefined {
  return CUE_PHRASES.find(([re]) => re.exec(text)?.index === 0)?.[1];
}

/** Words looked back from a run for the "last four of ..." question it answers. */
const LAST_FOUR_REACH = 16;
/** What may come between "last four" and the thing whose digits they are: "last four digits of your", "last 4 on the". */
const LAST_FOUR_BETWEEN = /^(digits|numbers|of|on|from|for|the|your|my|his|her|their|our|that|this)$/;

/**
 * The kind of the number whose last four digits a 4-digit run answers: "can you verify the last 4 of the Social on
 * the account? — Yeah, 9031" is 'ssn' (not the account: "of the social" names whose digits they are), "just the last
 * four of your social and your date of birth — 7205, ..." too (the first answer to the first thing asked). Looked for
 * up to LAST_FOUR_REACH words back, no other run between (a second run answers what was asked next).
 */
export function lastFourOf(doc: Doc, run: DigitRun, runs: readonly DigitRun[]): Cue | undefined {
  if (run.digits.length !== 4) return undefined;
  // the run before it, not counting the "4" of a written "last 4"
  let i = runs.indexOf(run) - 1;
  while (i >= 0 && runs[i].wordEnd - runs[i].wordStart === 1 && runs[i].digits === '4' && doc.words[runs[i].wordStart - 1]?.norm === 'last') i--;
  const floor = Math.max(0, run.wordStart - LAST_FOUR_REACH, i >= 0 ? runs[i].wordEnd : 0);
  for (let k = run.wordStart - 2; k >= floor; k--) {
    if (doc.words[k].norm !== 'last' || !/^(four|4)$/.test(doc.words[k + 1].norm)) continue;
    let j = k + 2;
    while (j < run.wordStart && j - k < 6 && LAST_FOUR_BETWEEN.test(doc.words[j].norm)) j++;
    if (j === k + 2 || j >= run.wordStart) return undefined;
    return cueStarting(doc.words.slice(j, Math.min(run.wordStart, j + 3)).map((w) => w.norm).join(' '));
  }
  return undefined;
}

export function cuesBefore(doc: Doc, wordIndex: number, floor = 0, window = CUE_WINDOW): Set<Cue> {
  const from = Math.max(floor, wordIndex - window);
  const text = doc.words.slice(from, wordIndex).map((w) => w.norm).join(' ');
  const cues = new Set<Cue>();
  if (ANY_CUE.test(text)) for (const [re, cue] of CUE_PHRASES) if (re.test(text)) cues.add(cue);
  // the kind-naming cues a few words further back (only in the default window: callers that narrow it mean it)
  const farFrom = Math.max(floor, wordIndex - FAR_CUE_WINDOW);
  if (window === CUE_WINDOW && farFrom < from) {
    const far = doc.words.slice(farFrom, from).map((w) => w.norm).join(' ') + ' ' + text;
    if (ANY_CUE.test(far)) for (const [re, cue] of CUE_PHRASES) if (FAR_CUES.has(cue) && !cues.has(cue) && re.test(far)) cues.add(cue);
  }
  return cues;
}

/** Said between a number and a cue after it: "no wait", "sorry", ",". */
const AFTER_FILLERS = /^(no|wait|sorry|actually|oh|uh|um|yeah|and|so)$/;
const AFTER_THAT = /^(that's|thats|that|this|which|is|it's|its|as)$/;
const AFTER_OWNER = /^(my|the|our|your|his|her|their)$/;

/**
 * The cue named right after a number ("D123-4567, no wait, that's my license", "5551184 is my cell", "Payroll has
 * 312395759 as the routing"): "that's my ...", "is the ...", "which is my ...", "as the ...", a few fillers first;
 * up to `limit` (the next run). Words only.
 */
export function cuesAfter(doc: Doc, wordEnd: number, limit = doc.words.length): Set<Cue> {
  const w = normReader(doc, limit);
  let k = wordEnd;
  while (AFTER_FILLERS.test(w(k)) && k - wordEnd < 3) k++;
  if (!AFTER_THAT.test(w(k))) return new Set();
  k++;
  if (w(k) === 'is') k++;
  if (!AFTER_OWNER.test(w(k))) return new Set();
  const text = doc.words.slice(k + 1, Math.min(limit, k + 4)).map((x) => x.norm).join(' ');
  const cues = new Set<Cue>();
  if (CUE_AT_START.test(text)) for (const [re, cue] of CUE_PHRASES) if (re.exec(text)?.index === 0) cues.add(cue);
  return cues;
}

/** A number's name said near it: "number", "#" (an amount is rarely called one). */
const NUMBER_WORD = /^(number|numbers|number's|no|num|#)$/;
/** Words after a number looked at for a personal number's cue: "... two thousand, that's my cell". */
const PERSONAL_AFTER = 4;

/**
 * Whether the number token in words [start, end) may be amounts said one after another: money talked about near it,
 * and no number's cue (card, phone, social, account, "number" ...) before it (CUE_WINDOW, its far cues) or right
 * after it. Otherwise its magnitude words are a personal number read in groups ("phone is six one seven two thousand
 * three thousand"): one run.
 */
function amountsSaid(doc: Doc, start: number, end: number): boolean {
  if (!moneyNear(doc, start, end)) return false;
  const after = Math.min(doc.words.length, end + PERSONAL_AFTER);
  if (cuesBefore(doc, start).size > 0 || cuesBefore(doc, after, end, after - end).size > 0) return false;
  for (let k = Math.max(0, start - CUE_WINDOW); k < after; k++) if ((k < start || k >= end) && NUMBER_WORD.test(doc.words[k].norm)) return false;
  return true;
}

const cache = new WeakMap<Doc, DigitRun[]>();
/** Words between a number and its repetition or correction, at most. */
const AGAIN_GAP = 8;
/** Words that correct a number just said. */
export const CORRECTION: ReadonlySet<string> = new Set(['no', 'sorry', 'actually', 'wait', 'mean', 'correction', 'scratch', 'oops', 'rather', 'instead', 'nope']);

/** One doc's digitRuns pass: what its steps share (module functions, not closures made per doc). */
interface RunsPass {
  doc: Doc;
  t: Doc['tokens'];
  runs: DigitRun[];
  previousEnd: number;
  /** Where amounts said one after another split each number token (empty: not amounts). */
  amountCuts: Map<number, number[]>;
}

/** The number token after fillers from token j ("uh", "dash"), or undefined. */
function afterFiller(p: RunsPass, j: number): number | undefined {
  const t = p.t;
  let k = j;
  while (k < t.length && !t[k].isNumber && FILLERS.has(t[k].text.toLowerCase()) && k - j < 2) k++;
  return k > j && digitsOf(t[k]) !== undefined && !amounts(p, k) ? k : undefined;
}

function pushRun(p: RunsPass, digits: string, wordStart: number, wordEnd: number): void {
  const doc = p.doc;
  const formatted = doc.text.slice(doc.words[wordStart].start, doc.words[wordEnd - 1].end);
  p.runs.push({ digits, wordStart, wordEnd, formatted, cues: cuesBefore(doc, wordStart, p.previousEnd) });
  p.previousEnd = wordEnd;
}

// amounts said one after another (spokenAmounts.ts) where money is talked about: each its own run, joined to nothing
function amounts(p: RunsPass, k: number): boolean {
  const t = p.t;
  if (!t[k].isNumber || t[k].wordEnd - t[k].wordStart < 2) return false;
  if (!p.amountCuts.has(k)) p.amountCuts.set(k, amountsSaid(p.doc, t[k].wordStart, t[k].wordEnd) ? amountStarts(p.doc, t[k]) : []);
  return p.amountCuts.get(k)!.length > 0;
}

// two amount tokens one after another ("forty thousand, fifteen thousand") are two numbers, where money is talked of
const twoAmounts = (p: RunsPass, a: number, b: number): boolean => isAmount(p.doc, p.t[a]) && isAmount(p.doc, p.t[b]) && amountsSaid(p.doc, p.t[a].wordStart, p.t[b].wordEnd);

export function digitRuns(doc: Doc): DigitRun[] {
  const hit = cache.get(doc);
  if (hit) return hit;
  const t = doc.tokens;
  const p: RunsPass = { doc, t, runs: [], previousEnd: 0, amountCuts: new Map() };
  const runs = p.runs;
  const amountCuts = p.amountCuts;
  let i = 0;
  while (i < t.length) {
    if (amounts(p, i)) {
      const bounds = [t[i].wordStart, ...amountCuts.get(i)!, t[i].wordEnd];
      for (let b = 0; b + 1 < bounds.length; b++) pushRun(p, digitsOfWords(doc, bounds[b], bounds[b + 1]), bounds[b], bounds[b + 1]);
      i++;
      continue;
    }
    // a run starts at a number token, or at a lone digit word followed by a filler and more digits
    if (!t[i].isNumber && !(digitsOf(t[i], false) !== undefined && afterFiller(p, i + 1) !== undefined)) {
      i++;
      continue;
    }
    let digits = digitsOf(t[i])!;
    let j = i + 1;
    let last = i;
    for (;;) {
      if (j < t.length && t[j].isNumber && !amounts(p, j) && !twoAmounts(p, last, j)) {
        digits += t[j].text;
        last = j;
        j++;
        continue;
      }
      const k = afterFiller(p, j);
      if (k !== undefined) {
        digits += digitsOf(t[k])!;
        last = k;
        j = k + 1;
        continue;
      }
      break;
    }
    pushRun(p, digits, t[i].wordStart, t[last].wordEnd);
    i = last + 1;
  }
  // a cue said right after a run names it too (up to the next run)
  runs.forEach((r, i) => {
    for (const c of cuesAfter(doc, r.wordEnd, runs[i + 1]?.wordStart)) r.cues.add(c);
  });
  // a number said again to check it ("zip is 02139, so 0-2-1-3-9"), or corrected ("75201... no, sorry, home is
  // 75214": as many digits, a correction between) is of the kind the first was: it takes that run's cues
  for (let i = 1; i < runs.length; i++) {
    const r = runs[i];
    const p = runs[i - 1];
    if (r.wordStart - p.wordEnd > AGAIN_GAP || p.cues.size === 0) continue;
    const again = r.digits === p.digits;
    const corrected = !again && r.digits.length === p.digits.length && doc.words.slice(p.wordEnd, r.wordStart).some((w) => CORRECTION.has(w.norm));
    if (again || corrected) for (const c of p.cues) if (c !== 'ending') r.cues.add(c);
  }
  cache.set(doc, runs);
  return runs;
}

/** The digits words [from, to) read as, on their own. */
export function digitsOfWords(doc: Doc, from: number, to: number): string {
  return numtrans(doc.words.slice(from, to).map((w) => w.norm))
    .tokens.map((t) => (t.isNumber && /^\d+$/.test(t.text) ? t.text : (digitsOf({ text: t.text, isNumber: false }) ?? '')))
    .join('');
}

/**
 * A number said twice in a row, for the caller to check it ("02134, 0-2-1-3-4", "five oh nine five oh nine"): one
 * run of twice the digits. The word index where the second saying starts, or undefined when the run is no such
 * repeat or no word boundary splits it so (then the run stands whole). Only for runs of `sizes` digits once.
 */
export function repeatSplit(doc: Doc, run: DigitRun, sizes: readonly number[]): number | undefined {
  const n = run.digits.length;
  if (n % 2 !== 0 || !sizes.includes(n / 2)) return undefined;
  const half = run.digits.slice(0, n / 2);
  if (run.digits.slice(n / 2) !== half) return undefined;
  for (let w = run.wordStart + 1; w < run.wordEnd; w++) {
    if (digitsOfWords(doc, run.wordStart, w) === half && digitsOfWords(doc, w, run.wordEnd) === half) return w;
  }
  return undefined;
}

/** Whether a run is a number said twice in a row (repeatSplit), split or not. */
export const isRepeat = (run: DigitRun, sizes: readonly number[]): boolean =>
  run.digits.length % 2 === 0 && sizes.includes(run.digits.length / 2) && run.digits.slice(0, run.digits.length / 2) === run.digits.slice(run.digits.length / 2);

export function luhn(digits: string): boolean {
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = digits.charCodeAt(i) - 48;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return digits.length > 0 && sum % 10 === 0;
}

/** SSA rules: area not 000, 666 or 9xx; group not 00; serial not 0000. */
export function ssnValid(digits: string): boolean {
  if (!/^\d{9}$/.test(digits)) return false;
  const area = digits.slice(0, 3);
  return area !== '000' && area !== '666' && area[0] !== '9' && digits.slice(3, 5) !== '00' && digits.slice(5) !== '0000';
}

/** ABA routing checksum: 3(d1+d4+d7) + 7(d2+d5+d8) + (d3+d6+d9) ≡ 0 mod 10. */
export function abaValid(digits: string): boolean {
  if (!/^\d{9}$/.test(digits) || digits === '000000000') return false;
  const d = [...digits].map(Number);
  return (3 * (d[0] + d[3] + d[6]) + 7 * (d[1] + d[4] + d[7]) + (d[2] + d[5] + d[8])) % 10 === 0;
}

/** What a turn that answers a question with numbers alone may hold besides them: "yeah, 30318", "it's 30318". */
const ANSWER: ReadonlySet<string> = new Set(['yeah', 'yes', 'yep', 'yup', 'sure', 'ok', 'okay', 'uh', 'um', 'er', 'so', "it's", 'its', 'it', 'is', "that's", 'thats', 'that', 'and', 'oh', 'right', 'alright', 'mhm', 'sorry', 'of', 'course', 'there', 'here', 'you', 'go', 'hmm', 'like', 'i', 'think', 'believe', 'should', 'be', 'then']);
/** Most other words a turn of numbers alone may hold. */
const ANSWER_WORDS = 8;

/**
 * Whether every word outside `spans` ([from, to) word ranges) is an answer's filler: numbers said alone, in answer
 * to the other party's question (the cue was in their turn).
 */
export function answerOnly(doc: Doc, spans: readonly (readonly [number, number])[]): boolean {
  const inside = spans.reduce((n, [a, b]) => n + (b - a), 0);
  if (doc.words.length - inside > ANSWER_WORDS) return false;
  for (let k = 0; k < doc.words.length; k++) {
    const span = spans.find(([a, b]) => k >= a && k < b);
    if (span) k = span[1] - 1;
    else if (!ANSWER.has(doc.words[k].norm)) return false;
  }
  return true;
}
