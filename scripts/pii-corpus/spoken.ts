// How values are said on a call, as ASR writes them (lower case, no punctuation, numbers as words): digits one by
// one or in pairs, "oh" for zero, "double five", years said as pairs, emails with "at"/"dot"/"underscore"/"dash",
// names spelled letter by letter or "s as in sam".
import { chance, pick, type Rng } from './random.js';

const ONES = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve', 'thirteen', 'fourteen', 'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen'];
const TENS = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];
const ORD: Record<string, string> = { one: 'first', two: 'second', three: 'third', five: 'fifth', eight: 'eighth', nine: 'ninth', twelve: 'twelfth' };

/** 0..999999 as words: 42 -> "forty two", 1755 -> "one thousand seven hundred fifty five". */
export function cardinal(n: number): string {
  if (n < 20) return ONES[n];
  if (n < 100) return `${TENS[Math.floor(n / 10)]}${n % 10 ? ` ${ONES[n % 10]}` : ''}`;
  if (n < 1000) return `${ONES[Math.floor(n / 100)]} hundred${n % 100 ? ` ${cardinal(n % 100)}` : ''}`;
  return `${cardinal(Math.floor(n / 1000))} thousand${n % 1000 ? ` ${cardinal(n % 1000)}` : ''}`;
}

/** 1..31 as an ordinal: "first", "twenty third". */
export function ordinal(n: number): string {
  const words = cardinal(n).split(' ');
  const last = words.pop()!;
  const o = ORD[last] ?? (last.endsWith('y') ? `${last.slice(0, -1)}ieth` : `${last}th`);
  return [...words, o].join(' ');
}

/** A digit string said digit by digit, zero as "oh" or "zero", now and then "double"/pairs. */
export function digits(r: Rng, s: string, style: 'single' | 'mixed' = 'mixed'): string {
  const zero = chance(r, 0.6) ? 'oh' : 'zero';
  const out: string[] = [];
  for (let i = 0; i < s.length; i++) {
    const d = Number(s[i]);
    if (style === 'mixed' && i + 1 < s.length && s[i + 1] === s[i] && chance(r, 0.3)) {
      out.push('double', d === 0 ? zero : ONES[d]);
      i++;
    } else out.push(d === 0 ? zero : ONES[d]);
  }
  return out.join(' ');
}

/** A house number as said: "forty two", "seventeen fifty five", "one two three". */
export function houseNumber(r: Rng, n: number): string {
  if (n < 100 || chance(r, 0.3)) return n < 100 ? cardinal(n) : digits(r, String(n), 'single');
  if (n >= 1000 && n < 10000 && n % 100 !== 0 && chance(r, 0.7)) return `${cardinal(Math.floor(n / 100))} ${n % 100 < 10 ? `oh ${ONES[n % 100]}` : cardinal(n % 100)}`;
  return cardinal(n);
}

/** A year as said: 1987 -> "nineteen eighty seven", 2003 -> "two thousand three". */
export function year(n: number): string {
  if (n >= 2000 && n < 2010) return `two thousand${n % 10 ? ` ${ONES[n % 10]}` : ''}`;
  const lo = n % 100;
  return `${cardinal(Math.floor(n / 100))} ${lo === 0 ? 'hundred' : lo < 10 ? `oh ${ONES[lo]}` : cardinal(lo)}`;
}

const SYMBOL: Record<string, string> = { '@': 'at', '.': 'dot', _: 'underscore', '-': 'dash' };

/** An email said aloud: "john dot smith at gmail dot com"; digits as words. */
export function email(r: Rng, e: string): string {
  const out: string[] = [];
  for (const piece of e.toLowerCase().match(/[a-z]+|\d+|[@._-]/g) ?? []) {
    if (/^\d+$/.test(piece)) out.push(piece.length <= 2 && chance(r, 0.5) ? cardinal(Number(piece)) : digits(r, piece, 'single'));
    else out.push(SYMBOL[piece] ?? piece);
  }
  return out.join(' ');
}

const ALPHA: Record<string, string[]> = {
  a: ['apple', 'alpha'], b: ['boy', 'bravo'], c: ['cat', 'charlie'], d: ['david', 'delta', 'dog'], e: ['edward', 'echo'], f: ['frank', 'fox'],
  g: ['george', 'golf'], h: ['henry', 'hotel'], i: ['ida', 'india'], j: ['john', 'juliet'], k: ['king', 'kilo'], l: ['larry', 'lima'],
  m: ['mary', 'mike'], n: ['nancy', 'november'], o: ['oscar', 'ocean'], p: ['peter', 'papa'], q: ['queen', 'quebec'], r: ['robert', 'romeo'],
  s: ['sam', 'sierra', 'sugar'], t: ['tom', 'tango'], u: ['uniform', 'umbrella'], v: ['victor', 'victory'], w: ['william', 'whiskey'],
  x: ['x-ray'], y: ['yellow', 'yankee'], z: ['zebra', 'zulu'],
};

/** A name spelled: "s m i t h", or "s as in sam m as in mary ...", letters only (accents dropped). */
export function spell(r: Rng, name: string): string {
  const letters = name.normalize('NFD').replace(/[^A-Za-z]/g, '').toLowerCase().split('');
  if (chance(r, 0.25)) return letters.map((l) => (ALPHA[l] ? `${l} as in ${pick(r, ALPHA[l])}` : l)).join(' ');
  return letters.join(' ');
}

/** Written text to its ASR form: lower case, punctuation gone (apostrophes inside words kept), digits as words. */
export function asrForm(r: Rng, text: string): string {
  return text
    .replace(/\d+/g, (m) => (m.length <= 2 ? cardinal(Number(m)) : m.length === 4 && /^(19|20)/.test(m) ? year(Number(m)) : digits(r, m, 'single')))
    .replace(/%/g, ' percent')
    .replace(/\$/g, ' dollars ')
    .toLowerCase()
    .replace(/[^\p{L}\p{M}'\s-]+/gu, ' ')
    .replace(/(^|\s)['-]+|['-]+(?=\s|$)/g, ' ')
    .replace(/-/g, ' ')
    .split(/\s+/)
    .filter(Boolean)
    .join(' ');
}
