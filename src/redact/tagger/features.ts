// The tagger's features for each word of a doc: the word itself (lower case), its shape (written text only; in
// caseless text every word looks alike), prefixes and suffixes, the word lists it is on (gazetteer.ts), and the
// same for the words around it, with the cues a few words back ("name is", "live at") and ahead (a street word).
import type { Doc } from '../recognizers/doc.js';
import { gazetteerTags } from './gazetteer.js';

export interface WordView {
  norm: string;
  shape: string;
  gaz: string[];
  /** gaz joined ("fn|hn"), "-" when empty. */
  g: string;
  /** First word of a sentence (written text: capital letters say less there). */
  first: boolean;
}

/** "Smith" -> "Xx", "O'Neil" -> "X'Xx", "4521" -> "d", "SW1A" -> "XdX"; non-ASCII letters marked. */
function shapeOf(raw: string): string {
  const core = raw.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
  let s = '';
  for (const ch of core) {
    const c = /\p{Lu}/u.test(ch) ? 'X' : /\p{Ll}/u.test(ch) ? 'x' : /\p{N}/u.test(ch) ? 'd' : ch;
    if (s[s.length - 1] !== c) s += c;
  }
  // a spelled word ("B-O-T-S-F-O-R-D") is one shape whatever its length
  if (/^(\p{L}-){2,}\p{L}$/u.test(core)) s = core === core.toUpperCase() ? 'X-X' : 'x-x';
  if (/[^\x00-\x7f]/.test(core)) s += '~';
  if (/[,.;:?!]$/.test(raw)) s += raw[raw.length - 1] === ',' ? ',' : '.';
  return s || '_';
}

/** Per-word views of a doc: lower-case form, shape ("lc" throughout caseless text) and list memberships. */
export function wordViews(doc: Doc, caseless: boolean): WordView[] {
  return doc.words.map((w, i) => {
    const shape = shapeOf(w.raw);
    const first = i === 0 || /[.?!:]["')]*$/.test(doc.words[i - 1].raw);
    const gaz = gazetteerTags(w.norm);
    return { norm: w.norm, shape: caseless ? (shape.endsWith('~') ? 'lc~' : 'lc') : shape, gaz, g: gaz.join('|') || '-', first };
  });
}

const PAD: WordView = { norm: '<s>', shape: '<s>', gaz: [], g: '-', first: false };
/** How far the bag-of-words context reaches: cues a few words back ("address on file is"), ahead ("spell your last name"). */
const LEFT = 5;
const RIGHT = 4;

/** Features of word i given the two previous tags (decoding is left to right). */
export function featuresAt(v: WordView[], i: number, prev: string, prev2: string): string[] {
  const w = v[i];
  const p1 = v[i - 1] ?? PAD;
  const p2 = v[i - 2] ?? PAD;
  const n1 = v[i + 1] ?? PAD;
  const n2 = v[i + 2] ?? PAD;
  const g = w.g;
  const f = [
    'b',
    `w=${w.norm}`,
    `p3=${w.norm.slice(0, 3)}`,
    `s3=${w.norm.slice(-3)}`,
    `s2=${w.norm.slice(-2)}`,
    `sh=${w.shape}`,
    `g=${g}`,
    `t1=${prev}`,
    `t12=${prev2}|${prev}`,
    `t1w=${prev}|${w.norm}`,
    `t1g=${prev}|${g}`,
    `w-1=${p1.norm}`,
    `w-2=${p2.norm}`,
    `w+1=${n1.norm}`,
    `w+2=${n2.norm}`,
    `w-21=${p2.norm}|${p1.norm}`,
    `w-1w=${p1.norm}|${w.norm}`,
    `ww+1=${w.norm}|${n1.norm}`,
    `g-1=${p1.g}`,
    `g+1=${n1.g}`,
    `sh-1sh=${p1.shape}|${w.shape}`,
    `shsh+1=${w.shape}|${n1.shape}`,
    `len=${Math.min(w.norm.length, 10)}`,
    `fsh=${w.first}|${w.shape}`,
    `fg=${w.first}|${g}`,
  ];
  for (let k = Math.max(0, i - LEFT); k < i; k++) f.push(`L=${v[k].norm}`);
  for (let k = i + 1; k <= i + RIGHT && k < v.length; k++) f.push(`R=${v[k].norm}`);
  for (const x of w.gaz) f.push(`gz=${x}`);
  for (const x of n1.gaz) f.push(`gz+1=${x}`);
  for (const x of p1.gaz) f.push(`gz-1=${x}|${prev}`);
  // a street word within five words ahead, a number within four behind
  for (let k = i + 1; k <= i + 5 && k < v.length; k++) {
    if (v[k].gaz.includes('st')) {
      f.push(`st+${k - i}`);
      break;
    }
  }
  for (let k = i - 1; k >= i - 4 && k >= 0; k--) {
    if (v[k].gaz.includes('num')) {
      f.push(`num-${i - k}`);
      break;
    }
  }
  return f;
}
