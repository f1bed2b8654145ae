// Phone numbers: written formats ((555) 123-4567, +1-944-435-4352x04732, 986.291.2294, 027 896 92 86), international
// numbers of any country ("+44 20 7946 0958", "+49 30 123456", "+33 1 42 68 53 00", "+91 98765 43210", "0044 ...")
// checked against libphonenumber's numbering plans, and digit runs: 10 digits (11 starting with 1) anywhere, 7-15
// digits after a phone cue, a run after "plus" ("plus four four two zero ...") or starting with "00" that is a valid
// international number, and national numbers starting with 0 valid in a country callers often call from.
import { isValidPhoneNumber, parsePhoneNumberFromString } from 'libphonenumber-js';
import { fromChars, fromWords, wordsOverlapping, type Recognizer } from './doc.js';
import { cuesBefore, digitRuns } from './digitRuns.js';
import { afterReferenceCue, NOT_PHONE } from './referenceNumber.js';
import type { Detection } from '../types.js';
import { normReader } from './normReader.js';

const WRITTEN = /(?<![\w.+-])(?:\+\d{1,3}[\s.-]?)?(?:\(\d{1,4}\)[\s.-]?)?\d{2,4}(?:[\s.-]\d{2,4}){1,4}(?:\s?(?:x|ext\.?)\s?\d{1,6})?(?![\w-]|\.\d)/gi;
/** "+44 20 7946 0958", "+49 (0)30 123456", "0049-30-123456": a country code and groups of any length. */
const INTERNATIONAL = /(?<![\w+])(?:\+|00)[\s.-]?[1-9]\d{0,2}(?:[\s.-]?(?:\(0\)|\(\d{1,5}\)|\d{1,6})){1,7}(?![\w-]|\.\d)/g;
/** Countries whose national numbers (leading 0) are taken without a cue. */
const NATIONAL = ['GB', 'DE', 'FR', 'IN', 'IE', 'AU', 'IT', 'ES', 'NL'] as const;

/** The international number in `digits` (country code first): valid, possible only, or not one. */
function international(digits: string): 'valid' | 'possible' | undefined {
  if (digits.length < 8 || digits.length > 15) return undefined;
  const p = parsePhoneNumberFromString(`+${digits}`);
  if (!p) return undefined;
  if (p.isValid()) return 'valid';
  return p.isPossible() ? 'possible' : undefined;
}

/** A national number (0 first, 11 or 12 digits: a 10-digit one is a phone anyway) valid in one of NATIONAL. */
const nationalValid = (digits: string) => digits[0] === '0' && (digits.length === 11 || digits.length === 12) && NATIONAL.some((c) => isValidPhoneNumber(digits, c));

/** What a number is called that is someone's phone: "my number is", "home number", "my number's", "the best number". */
const OWNER = /^(my|your|his|her|our|their|home|work|local|house|best|contact|direct|new|other|number|numbers|number's)$/;

/**
 * A 7-8 digit local number with no area code, said after "my number (is)", "home number", "my number's" ("my local
 * number is five five five zero one four two"): a phone; "order number 7731..." is not.
 */
function localNumberCue(doc: Parameters<Recognizer>[0], start: number): boolean {
  // (what was said before "my number is" does not unmake it: "i work in transit, my number is 555 1184"; another
  // number's own noun right before it does: "my order number is ...")
  const w = normReader(doc);
  let k = start - 1;
  if (w(k) === 'is' || w(k) === 'its' || w(k) === "it's") k--;
  const noun = w(k);
  if (noun !== 'number' && noun !== 'numbers' && noun !== "number's") return false;
  return OWNER.test(w(k - 1)) && !NOT_PHONE.test(w(k - 1)) && !NOT_PHONE.test(w(k - 2));
}

/** A second number's label after a first phone: "my cell is ..., home is ...", "..., or work, ...". */
const LABEL = /^(home|work|office|house|landline|cell|mobile|daytime|evening|night|alternate|alternative|alt|backup|other|second|spouse's|wife's|husband's)$/;
const BETWEEN_PHONES = /^(and|or|my|the|her|his|our|is|it's|its|number|numbers|number's|phone|line|then|also|too|one|uh|um)$/;

/** Words (from, to) between a phone and the next run name another phone: "home is", "and my work number is". */
function anotherPhone(doc: Parameters<Recognizer>[0], from: number, to: number): boolean {
  if (to - from > 5 || to <= from) return false;
  let label = false;
  for (let k = from; k < to; k++) {
    const w = doc.words[k].norm;
    if (LABEL.test(w)) label = true;
    else if (!BETWEEN_PHONES.test(w)) return false;
  }
  return label;
}

export const phoneRecognizer: Recognizer = (doc) => {
  const out: Detection[] = [];
  for (const m of doc.text.matchAll(WRITTEN)) {
    const s = m[0];
    const digits = s.replace(/(?:x|ext\.?)\s?\d+$/i, '').replace(/\D/g, '');
    if (digits.length < 7 || digits.length > 15) continue;
    if (/^\d{4}-\d{2}-\d{2}/.test(s) || /^\d{1,3}(\.\d{1,3}){3}$/.test(s)) continue;
    const seps = (s.match(/[\s.-]/g) ?? []).length + (s.includes('(') ? 1 : 0);
    if (seps < 1) continue;
    let c = 0.6;
    if (/^\(?\d{3}\)?[\s.-]?\d{3}[.-]\d{4}$/.test(s) || /^\+|\(|x|ext/i.test(s)) c = 0.85;
    else if (seps >= 3) c = 0.7;
    const start = m.index!;
    const at = wordsOverlapping(doc, start, start + s.length);
    if (at && cuesBefore(doc, at.wordStart).has('phone')) c += 0.1;
    out.push(fromChars(doc, 'PhoneNumber', start, start + s.length, c, 'phone'));
  }
  for (const m of doc.stream.text.matchAll(INTERNATIONAL)) {
    // The longest prefix (whole groups) that is a number of the country: a count after it ("+44 20 7946 0958
    // 2 adults") is not part of it.
    const groups = [...m[0].matchAll(/\(0\)|\d+/g)];
    for (let g = groups.length; g >= 1; g--) {
      const last = groups[g - 1];
      const piece = m[0].slice(0, last.index! + last[0].length);
      const digits = piece.replace(/\(0\)/, '').replace(/\D/g, '').replace(/^00/, '');
      const found = international(digits);
      if (!found) continue;
      const start = doc.stream.startOf(m.index!);
      const end = doc.stream.endOf(m.index! + piece.length - 1);
      out.push(fromChars(doc, 'PhoneNumber', start, end, found === 'valid' ? 0.9 : 0.75, 'phone'));
      break;
    }
  }
  const runs = digitRuns(doc);
  const runAt = new Map(runs.map((r) => [r.wordStart, r]));
  let lastPhoneEnd = -1;
  for (const run of runs) {
    const n = run.digits.length;
    const found = out.length;
    const cue = run.cues.has('phone');
    const ext = /^(x|ext|extension)$/.test(doc.words[run.wordEnd]?.norm ?? '') ? runAt.get(run.wordEnd + 1) : undefined;
    const plus = doc.words[run.wordStart - 1]?.norm === 'plus';
    const abroad = plus ? international(run.digits) : run.digits.startsWith('00') ? international(run.digits.slice(2)) : undefined;
    if (ext && n >= 7 && n <= 15) {
      out.push(fromWords(doc, 'PhoneNumber', run.wordStart, ext.wordEnd, 0.9, 'phone'));
    } else if (abroad) {
      out.push(fromWords(doc, 'PhoneNumber', plus ? run.wordStart - 1 : run.wordStart, run.wordEnd, abroad === 'valid' || cue ? 0.9 : 0.75, 'phone'));
    } else if (n === 10 || (n === 11 && run.digits[0] === '1')) {
      out.push(fromWords(doc, 'PhoneNumber', run.wordStart, run.wordEnd, cue ? 0.9 : 0.7, 'phone'));
    } else if (cue && n >= 7 && n <= 15) {
      out.push(fromWords(doc, 'PhoneNumber', run.wordStart, run.wordEnd, 0.8, 'phone'));
    } else if (n >= 7 && n <= 12 && localNumberCue(doc, run.wordStart)) {
      // "my number's 646 550 908": a number called the caller's own is a phone, whatever its length (an SSN reading
      // of 9 digits stays, below it)
      out.push(fromWords(doc, 'PhoneNumber', run.wordStart, run.wordEnd, 0.75, 'phone'));
    } else if (n >= 7 && n <= 12 && lastPhoneEnd >= 0 && anotherPhone(doc, lastPhoneEnd, run.wordStart)) {
      // a second phone after the first, named by its label only ("my cell is ..., home is 555 11 84")
      out.push(fromWords(doc, 'PhoneNumber', run.wordStart, run.wordEnd, 0.8, 'phone'));
    } else if (nationalValid(run.digits)) {
      out.push(fromWords(doc, 'PhoneNumber', run.wordStart, run.wordEnd, 0.65, 'phone'));
    }
    if (out.length > found) lastPhoneEnd = run.wordEnd;
  }
  // a ticket's, a parcel's, an order's number is no phone number
  return out.filter((d) => d.wordStart === undefined || !afterReferenceCue(doc, d.wordStart, false, d.wordEnd));
};
