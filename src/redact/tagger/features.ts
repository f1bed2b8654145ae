// The tagger's features for each word of a doc: the word itself (lower case), its shape (written text only; in
// caseless text every word looks alike), prefixes and suffixes, the word lists it is on (gazetteer.ts), and the
// same for the words around it, with the cues a few words back ("name is", "live at") and ahead (a street word).
//
// A feature is a string ("w=smith", "t1w=B-Person|smith") made of a prefix and up to two parts joined by "|".
// Training reads the strings; decoding never builds them: every part carries two polynomial hashes of its text,
// and the hashes of prefix + parts combine in constant time into the hash of the whole string (hashOf gives the
// same for a model's feature names). Building and looking up feature strings was most of the tagger's cost.
import type { Doc } from '../recognizers/doc.js';
import { gazetteerTags } from './gazetteer.js';

/** A piece of a feature string with its hashes and the hash bases raised to its length (to append after it). */
export interface Part {
  s: string;
  h1: number;
  h2: number;
  p1: number;
  p2: number;
}

// Two independent odd bases, arithmetic mod 2^32: the pair is a 64-bit check against collisions.
const B1 = 0x01000193;
const B2 = 0x5bd1e995;

export function part(s: string): Part {
  let h1 = 0;
  let h2 = 0;
  let p1 = 1;
  let p2 = 1;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    h1 = (Math.imul(h1, B1) + c) | 0;
    h2 = (Math.imul(h2, B2) + c) | 0;
    p1 = Math.imul(p1, B1);
    p2 = Math.imul(p2, B2);
  }
  return { s, h1, h2, p1, p2 };
}

/** The hashes of a whole feature string: what a feature made of parts hashes to. */
export function hashOf(feature: string): [number, number] {
  const p = part(feature);
  return [p.h1, p.h2];
}

/** Receives each feature of a word as prefix + a + ("|" + b). */
export interface FeatureSink {
  add(prefix: Part, a?: Part, b?: Part): void;
}

export const BAR = part('|');

export interface WordView {
  norm: Part;
  p3: Part;
  s3: Part;
  s2: Part;
  len: Part;
  shape: Part;
  /** The lists the word is on (feature names: "fn", "st"...), as parts and as names. */
  gaz: Part[];
  gazNames: string[];
  /** gaz joined ("fn|hn"), "-" when empty. */
  g: Part;
  /** First word of a sentence (written text: capital letters say less there). */
  first: Part;
  /** A street word of any list (the "street word ahead" feature). */
  st: boolean;
  num: boolean;
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

const LEN = Array.from({ length: 11 }, (_, k) => part(String(k)));
const TRUE = part('true');
const FALSE = part('false');
const NONE = part('-');

interface NormParts {
  norm: Part;
  p3: Part;
  s3: Part;
  s2: Part;
  len: Part;
  gaz: Part[];
  gazNames: string[];
  g: Part;
  st: boolean;
  num: boolean;
}

// Remembered per thread for the commonest words and shapes (bounded): a word's parts are the same in every doc.
const MEMO_MAX = 50_000;
const normMemo = new Map<string, NormParts>();
const shapeMemo = new Map<string, Part>();
const gazParts = new Map<string, Part>();

function normParts(norm: string): NormParts {
  let hit = normMemo.get(norm);
  if (hit) return hit;
  const gazNames = gazetteerTags(norm);
  const gaz = gazNames.map((x) => gazParts.get(x) ?? (gazParts.set(x, part(x)), gazParts.get(x)!));
  hit = {
    norm: part(norm),
    p3: part(norm.slice(0, 3)),
    s3: part(norm.slice(-3)),
    s2: part(norm.slice(-2)),
    len: LEN[Math.min(norm.length, 10)],
    gaz,
    gazNames,
    g: gazNames.length ? part(gazNames.join('|')) : NONE,
    st: gazNames.includes('st') || gazNames.includes('stx') || gazNames.includes('fst'),
    num: gazNames.includes('num'),
  };
  if (normMemo.size < MEMO_MAX) normMemo.set(norm, hit);
  return hit;
}

const LC = part('lc');
const LC_WIDE = part('lc~');

function shapePart(raw: string, caseless: boolean): Part {
  if (caseless) return /[^\x00-\x7f]/.test(raw) ? LC_WIDE : LC;
  // keyed by the raw word, not the shape: shapeOf tests every character against Unicode classes, and the same
  // words come back in every doc
  let hit = shapeMemo.get(raw);
  if (!hit) {
    hit = part(shapeOf(raw));
    if (shapeMemo.size < MEMO_MAX) shapeMemo.set(raw, hit);
  }
  return hit;
}

/** Per-word views of a doc: lower-case form, shape ("lc" throughout caseless text) and list memberships. */
export function wordViews(doc: Doc, caseless: boolean): WordView[] {
  return doc.words.map((w, i) => {
    const first = i === 0 || /[.?!:]["')]*$/.test(doc.words[i - 1].raw);
    // caseless: only whether the word's core has a non-ASCII letter matters ("lc~")
    const shape = shapePart(caseless ? w.norm : w.raw, caseless);
    return { ...normParts(w.norm), shape, first: first ? TRUE : FALSE };
  });
}

const PAD: WordView = { ...normParts('<s>'), gaz: [], gazNames: [], g: NONE, st: false, num: false, shape: part('<s>'), first: FALSE };
/** How far the bag-of-words context reaches: cues a few words back ("address on file is"), ahead ("spell your last name"). */
const LEFT = 5;
const RIGHT = 4;

const P = Object.fromEntries(
  ['b', 'w=', 'p3=', 's3=', 's2=', 'sh=', 'g=', 't1=', 't12=', 't1w=', 't1g=', 'w-1=', 'w-2=', 'w+1=', 'w+2=', 'w-21=', 'w-1w=', 'ww+1=', 'g-1=', 'g+1=', 'sh-1sh=', 'shsh+1=', 'len=', 'fsh=', 'fg=', 'L=', 'R=', 'gz=', 'gz+1=', 'gz-1='].map((x) => [x, part(x)]),
) as Record<string, Part>;
const ST_AHEAD = [1, 2, 3, 4, 5].map((k) => part(`st+${k}`));
const NUM_BEHIND = [1, 2, 3, 4].map((k) => part(`num-${k}`));

/** Features of word i given the two previous tags (decoding is left to right), each given to `sink`. */
export function featuresInto(sink: FeatureSink, v: WordView[], i: number, prev: Part, prev2: Part): void {
  const w = v[i];
  const p1 = v[i - 1] ?? PAD;
  const p2 = v[i - 2] ?? PAD;
  const n1 = v[i + 1] ?? PAD;
  const n2 = v[i + 2] ?? PAD;
  const g = w.g;
  sink.add(P['b']);
  sink.add(P['w='], w.norm);
  sink.add(P['p3='], w.p3);
  sink.add(P['s3='], w.s3);
  sink.add(P['s2='], w.s2);
  sink.add(P['sh='], w.shape);
  sink.add(P['g='], g);
  sink.add(P['t1='], prev);
  sink.add(P['t12='], prev2, prev);
  sink.add(P['t1w='], prev, w.norm);
  sink.add(P['t1g='], prev, g);
  sink.add(P['w-1='], p1.norm);
  sink.add(P['w-2='], p2.norm);
  sink.add(P['w+1='], n1.norm);
  sink.add(P['w+2='], n2.norm);
  sink.add(P['w-21='], p2.norm, p1.norm);
  sink.add(P['w-1w='], p1.norm, w.norm);
  sink.add(P['ww+1='], w.norm, n1.norm);
  sink.add(P['g-1='], p1.g);
  sink.add(P['g+1='], n1.g);
  sink.add(P['sh-1sh='], p1.shape, w.shape);
  sink.add(P['shsh+1='], w.shape, n1.shape);
  sink.add(P['len='], w.len);
  sink.add(P['fsh='], w.first, w.shape);
  sink.add(P['fg='], w.first, g);
  for (let k = Math.max(0, i - LEFT); k < i; k++) sink.add(P['L='], v[k].norm);
  for (let k = i + 1; k <= i + RIGHT && k < v.length; k++) sink.add(P['R='], v[k].norm);
  for (const x of w.gaz) sink.add(P['gz='], x);
  for (const x of n1.gaz) sink.add(P['gz+1='], x);
  for (const x of p1.gaz) sink.add(P['gz-1='], x, prev);
  // a street word within five words ahead, a number within four behind
  for (let k = i + 1; k <= i + 5 && k < v.length; k++) {
    if (v[k].st) {
      sink.add(ST_AHEAD[k - i - 1]);
      break;
    }
  }
  for (let k = i - 1; k >= i - 4 && k >= 0; k--) {
    if (v[k].num) {
      sink.add(NUM_BEHIND[i - k - 1]);
      break;
    }
  }
}

/** The features of word i as strings (training; the model's feature names). */
export function featuresAt(v: WordView[], i: number, prev: Part, prev2: Part): string[] {
  const out: string[] = [];
  featuresInto({ add: (pre, a, b) => out.push(pre.s + (a ? a.s : '') + (b ? `|${b.s}` : '')) }, v, i, prev, prev2);
  return out;
}
