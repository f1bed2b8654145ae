// Digit look-alikes (typed chat and OCR write "4532О151l283O366", "S36-22-8741", "5362287I4I"), folded to the digits
// they stand for inside digit-dominated tokens only, on the normalized stream (normalize.ts: NFKC and every
// Unicode decimal digit are ASCII digits by then). A token is a run of letters and digits, with single "-", ".",
// "/" and inner "|" in it (one written number with its separators). It is folded when every letter in it is a look-alike
// and its digits outnumber its look-alikes and are at least MIN_DIGITS: an ordinary word ("COVID-19", "B2B",
// "1990s", "ISO") keeps its letters. Each look-alike is one UTF-16 unit and so is its digit: lengths are kept.

/** Look-alike → digit. Upper-case S/Z/B only: a lower-case "s" after digits is a plural ("1990s"), "b" a unit. */
const DIGIT_OF: Readonly<Record<string, string>> = {
  // 0: Latin, Cyrillic, Greek O.
  O: '0', o: '0', '\u041E': '0', '\u043E': '0', '\u039F': '0', '\u03BF': '0',
  // 1: Latin l and I, the bar, Cyrillic і/І/ӏ, dotless ı, Greek Iota, the click letter ǀ.
  l: '1', I: '1', '|': '1', '\u0456': '1', '\u0406': '1', '\u04CF': '1', '\u0131': '1', '\u0399': '1', '\u01C0': '1',
  // 2, 5, 8: Latin Z, S (and Cyrillic Ѕ), B (and Greek Beta, Cyrillic Ve).
  Z: '2', S: '5', '\u0405': '5', B: '8', '\u0392': '8', '\u0412': '8',
};

/** A token needs this many real digits to be read as a number (a postal code's "0B1" is not one). */
const MIN_DIGITS = 3;

// "|" only inside a token: at an edge it is a delimiter ("|98.85.59.159|" stays an address).
const TOKEN = /[\p{L}\p{Nd}]+(?:(?:[-./]|\|+)?[\p{L}\p{Nd}]+)*/gu;
const HAS_DIGIT = /[0-9]/;
const LOOKALIKE = /[OolI|\u041E\u043E\u039F\u03BF\u0456\u0406\u04CF\u0131\u0399\u01C0ZS\u0405B\u0392\u0412]/;

/** `text` with the look-alikes of its digit-dominated tokens as digits (same length, same offsets). */
export function foldConfusables(text: string): string {
  if (!HAS_DIGIT.test(text) || !LOOKALIKE.test(text)) return text;
  let out = '';
  let at = 0;
  for (const match of text.matchAll(TOKEN)) {
    const token = match[0];
    let digits = 0;
    let lookalikes = 0;
    let other = false;
    for (const ch of token) {
      if (ch >= '0' && ch <= '9') digits++;
      else if (DIGIT_OF[ch] !== undefined) lookalikes++;
      else if (ch !== '-' && ch !== '.' && ch !== '/') {
        other = true;
        break;
      }
    }
    if (other || lookalikes === 0 || digits < MIN_DIGITS || digits <= lookalikes) continue;
    let folded = '';
    for (const ch of token) folded += DIGIT_OF[ch] ?? ch;
    out += text.slice(at, match.index) + folded;
    at = match.index + token.length;
  }
  return at === 0 ? text : out + text.slice(at);
}
