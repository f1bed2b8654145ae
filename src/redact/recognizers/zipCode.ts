// ZIP and postal codes. US: a 5-digit run (or 9 for ZIP+4) after a cue ("zip", "zip code", "postal code"), after
// a state ("CA 90210", "california nine oh two one oh"), or before a city or a state ("It's 02906, Providence");
// 6 digits after a cue or India's "PIN code" ("PIN code 560034, Bangalore"). UK ("SW1A 1AA", "M1 1AE") and Canada
// ("K1A 0B1"): written in capitals anywhere, in any case after a cue, and spoken symbol by symbol after a cue
// ("postcode s w one a one a a", "k one a zero b one"); reported as ZipCode.
import { answerOnly, cuesBefore, digitRuns, isRepeat, repeatSplit } from './digitRuns.js';
import { fromChars, fromWords, wordsOverlapping, type Doc, type Recognizer } from './doc.js';
import { STATE_ABBR, STATE_NAMES, US_CITIES } from './places.js';
import { charsOf, ohAsZero, symbolRuns, symbolsByWord, type Symbol } from './symbols.js';
import type { Detection } from '../types.js';
import { normReader } from './normReader.js';

const UK_OUTWARD = '(?:[a-pr-uwyz](?:[0-9]{1,2}|[a-hk-y][0-9]{1,2}|[0-9][a-hjkps-uw]|[a-hk-y][0-9][abehmnprv-y])|gir)';
const UK_INWARD = '[0-9][abd-hjlnp-uw-z]{2}';
const CA_FIRST = '[abceghj-nprstvxy][0-9][abceghj-nprstv-z]';
const CA_SECOND = '[0-9][abceghj-nprstv-z][0-9]';
/** A whole postcode said symbol by symbol (lower case, no space). */
const SPOKEN_POSTCODE = new RegExp(`^(?:${UK_OUTWARD}${UK_INWARD}|${CA_FIRST}${CA_SECOND})$`);
/** Written postcodes on the normalized stream: capitals anywhere (case-insensitive after a cue, checked below). */
const WRITTEN_POSTCODE = new RegExp(`^(?:${UK_OUTWARD} ?${UK_INWARD}|${CA_FIRST}[ -]?${CA_SECOND})$`, 'iu');
/**
 * The UK and Canadian shapes with any letters where the real ones leave some out ("EH1 9VX", "BS4 0MA"): a postcode
 * misremembered or misheard is still one after a cue (redact more), never without one.
 */
const LOOSE_UK = '[a-z]{1,2}[0-9][a-z0-9]? ?[0-9][a-z]{2}';
const LOOSE_CA = '[a-z][0-9][a-z][ -]?[0-9][a-z][0-9]';
const LOOSE_POSTCODE = new RegExp(`(?<![\\p{L}\\p{N}])(?:${LOOSE_UK}|${LOOSE_CA}|gir ?0aa)(?![\\p{L}\\p{N}])`, 'giu');
const SPOKEN_LOOSE = new RegExp(`^(?:${LOOSE_UK}|${LOOSE_CA})$`);

function writtenPostcodes(doc: Doc, out: Detection[]): void {
  for (const m of doc.stream.text.matchAll(LOOSE_POSTCODE)) {
    const start = doc.stream.startOf(m.index!);
    const end = doc.stream.endOf(m.index! + m[0].length - 1);
    const valid = WRITTEN_POSTCODE.test(m[0]);
    const capitals = valid && m[0] === m[0].toUpperCase() && /\d/.test(m[0]);
    const at = wordsOverlapping(doc, start, end);
    const cue = at !== undefined && cuesBefore(doc, at.wordStart, 0, 6).has('zip');
    if (capitals && m[0].length >= 5) out.push(fromChars(doc, 'ZipCode', start, end, cue ? 0.9 : 0.7, 'postcode'));
    else if (cue) out.push(fromChars(doc, 'ZipCode', start, end, 0.85, 'postcode'));
  }
}

/** The symbol index after the longest whole postcode said from symbol i of a run, or -1; `loose`: after a cue. */
function spokenPostcodeEnd(s: readonly Symbol[], i: number, loose = false): number {
  if (s[i].kind !== 'letter') return -1;
  const shape = loose ? SPOKEN_LOOSE : SPOKEN_POSTCODE;
  let best = -1;
  for (let e = i + 1; e <= Math.min(s.length, i + 8); e++) {
    const chars = charsOf(s.slice(i, e));
    if (chars.length > 7) break;
    if (shape.test(chars) || shape.test(chars[0] + ohAsZero(chars.slice(1)))) best = e;
  }
  return best;
}

/** Postcodes read symbol by symbol after a cue: the longest whole postcode starting at each symbol. */
function spokenPostcodes(doc: Doc, out: Detection[]): void {
  for (const run of symbolRuns(doc)) {
    const s = run.symbols;
    for (let i = 0; i < s.length; i++) {
      if (s[i].kind !== 'letter' || !cuesBefore(doc, s[i].wordStart, 0, 6).has('zip')) continue;
      const best = spokenPostcodeEnd(s, i, true);
      if (best < 0) continue;
      out.push(fromWords(doc, 'ZipCode', s[i].wordStart, s[best - 1].wordEnd, 0.85, 'postcode'));
      i = best - 1;
    }
  }
}

const STICKY_POSTCODE = new RegExp(`(?:${UK_OUTWARD} ?${UK_INWARD}|${CA_FIRST}[ -]?${CA_SECOND})(?![\\p{L}\\p{N}])`, 'iuy');

/**
 * The word index after a UK or Canadian postcode starting at word i (written, or said symbol by symbol), with no
 * cue needed: for an address, whose last line it ends ("10 Downing Street, London SW1A 2AA").
 */
export function postcodeAt(doc: Doc, i: number): number | undefined {
  const word = doc.words[i];
  if (!word) return undefined;
  STICKY_POSTCODE.lastIndex = word.start;
  const m = STICKY_POSTCODE.exec(doc.text);
  if (m && (doc.spoken || /\d/.test(m[0]))) {
    const range = wordsOverlapping(doc, word.start, word.start + m[0].length);
    if (range) return range.wordEnd;
  }
  const at = symbolsByWord(doc).get(i);
  const end = at ? spokenPostcodeEnd(at.run.symbols, at.index) : -1;
  return end > 0 ? at!.run.symbols[end - 1].wordEnd : undefined;
}

/** "I'm in 97214", "we live in ...", "moved to ...": a place said as five digits. */
const IN_PLACE: ReadonlySet<string> = new Set(["i'm", 'im', "we're", 'were', 'live', 'living', 'lives', 'located', 'based', 'here', 'out', 'over', 'stay', 'staying', 'area', 'address', 'reside', 'moved', 'moving', 'move', 'relocated']);
function placeBefore(doc: Doc, wordStart: number): boolean {
  const prev = doc.words[wordStart - 1]?.norm;
  const before = doc.words[wordStart - 2]?.norm ?? '';
  return ((prev === 'in' || prev === 'to') && IN_PLACE.has(before)) || (prev === 'in' && doc.words[wordStart - 3]?.norm === 'live');
}
/** A city or a state named right after a run ending before word e: "02906, Providence", "... 05401 vermont". */
const placeAfter = (doc: Doc, e: number) => US_CITIES.has(doc.words[e]?.norm ?? '') || STATE_NAMES.has(doc.words[e]?.norm ?? '');

/** India's postcode is called a PIN code ("PIN code 560034", "pincode is ..."): before a 6-digit run at word i. */
function pinCodeBefore(doc: Doc, i: number): boolean {
  const w = normReader(doc);
  let k = i - 1;
  if (/^(is|its|it's|was)$/.test(w(k))) k--;
  return w(k) === 'pincode' || ((w(k) === 'code' || w(k) === "code's") && w(k - 1) === 'pin');
}

export const zipCodeRecognizer: Recognizer = (doc) => {
  const out: Detection[] = [];
  for (const r of digitRuns(doc)) {
    const n = r.digits.length;
    // a ZIP said twice to check it ("Zip's 02134, 0-2-1-3-4"): one run of 10 (or 18) digits, each saying a ZIP
    if (r.cues.has('zip') && isRepeat(r, [5, 9])) {
      const at = repeatSplit(doc, r, [5, 9]);
      if (at === undefined) out.push(fromWords(doc, 'ZipCode', r.wordStart, r.wordEnd, 0.9, 'zip-code'));
      else out.push(fromWords(doc, 'ZipCode', r.wordStart, at, 0.9, 'zip-code'), fromWords(doc, 'ZipCode', at, r.wordEnd, 0.9, 'zip-code'));
      continue;
    }
    // six digits: India's, China's, Singapore's, Russia's postcodes, after a postal cue or "PIN code"
    if (n === 6 && (r.cues.has('zip') || pinCodeBefore(doc, r.wordStart))) out.push(fromWords(doc, 'ZipCode', r.wordStart, r.wordEnd, 0.85, 'zip-code'));
    if (n !== 5 && n !== 9) continue;
    const prev = doc.words[r.wordStart - 1];
    const stateBefore = prev && (STATE_NAMES.has(prev.norm) || STATE_ABBR.has(prev.raw.replace(/[^A-Za-z]/g, '')) && /^[A-Z]{2},?$/.test(prev.raw));
    if (r.cues.has('zip')) out.push(fromWords(doc, 'ZipCode', r.wordStart, r.wordEnd, 0.9, 'zip-code'));
    else if (stateBefore && (n === 5 || /^\d{5}-\d{4}$/.test(r.formatted))) out.push(fromWords(doc, 'ZipCode', r.wordStart, r.wordEnd, 0.75, 'zip-code'));
    else if (n === 5 && r.cues.size === 0 && (placeBefore(doc, r.wordStart) || placeAfter(doc, r.wordEnd) || answerOnly(doc, [[r.wordStart, r.wordEnd]])))
      out.push(fromWords(doc, 'ZipCode', r.wordStart, r.wordEnd, 0.6, 'zip-code'));
  }
  // written ZIP+4 anywhere (its 5-4 grouping is no SSN's 3-2-4: it names the run unless an SSN's cue does)
  for (const m of doc.text.matchAll(/(?<![\w-])\d{5}-\d{4}(?![\w-])/g)) out.push(fromChars(doc, 'ZipCode', m.index!, m.index! + m[0].length, 0.7, 'zip-code'));
  writtenPostcodes(doc, out);
  spokenPostcodes(doc, out);
  return out;
};
