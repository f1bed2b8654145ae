// The tagger's decoding, faster: the same tags as SequenceTagger.tag (tagger.ts; a test holds them equal on every
// corpus turn), with the features that depend on one word only added as one precomputed row of scores. Of a
// word's ~38 features, those read from one word alone (the word itself, its neighbours' words and lists, the words
// in the bag around it: about 22) are summed once per distinct word and role and remembered; the rest (previous
// tags, shapes, pairs of words) are looked up as before. Scores are integer thousandths: any order of adding them
// gives exactly the same sums, so the tags cannot differ.
import type { Doc } from '../recognizers/doc.js';
import { part, wordViews, type FeatureSink, type Part, type WordView } from './features.js';
import { ordinaryWord } from './model.js';
import { HashedWeights, type PerceptronModel } from './perceptron.js';
import { caseless, PERSON_BIAS, runsOf, TAG_PARTS, TAGS, type TaggedRun } from './tagger.js';

// The prefixes of features.ts's feature names (a feature is prefix + a + ("|" + b)).
const P = Object.fromEntries(
  ['b', 'w=', 'p3=', 's3=', 's2=', 'sh=', 'g=', 't1=', 't12=', 't1w=', 't1g=', 'w-1=', 'w-2=', 'w+1=', 'w+2=', 'w-21=', 'w-1w=', 'ww+1=', 'g-1=', 'g+1=', 'sh-1sh=', 'shsh+1=', 'len=', 'fsh=', 'fg=', 'L=', 'R=', 'gz=', 'gz+1=', 'gz-1='].map((x) => [x, part(x)]),
) as Record<string, Part>;
const ST_AHEAD = [1, 2, 3, 4, 5].map((k) => part(`st+${k}`));
const NUM_BEHIND = [1, 2, 3, 4].map((k) => part(`num-${k}`));
/** features.ts's padding beyond the words (what its one-word features read of it). */
const PAD = { norm: part('<s>'), g: part('-'), gaz: [] as Part[], shape: part('<s>') };
/** Bag-of-words reach, as in features.ts. */
const LEFT = 5;
const RIGHT = 4;

/** What one word adds in each role: itself, one and two before, one and two after, in the bag left and right. */
enum Role {
  Own,
  Before1,
  Before2,
  After1,
  After2,
  Left,
  Right,
}
const ROLES = 7;
type OneWord = Pick<WordView, 'norm' | 'p3' | 's3' | 's2' | 'g' | 'len' | 'gaz'>;

/**
 * One word's rows (ROLES x tags, integer thousandths) and which roles add anything (a bit per role): most words
 * are in few of the model's features (an unknown word is in no w-2, w+2, L or R feature), and a role that adds
 * nothing is not read (the rows of 10,000 words do not stay in the cache; fewer of them are touched per word).
 */
interface Rows {
  r: Int32Array;
  nz: number;
  /** Which sides of which word-pair features (PAIR_SIDES' bits) the model holds this word in. */
  pairs: number;
}

/**
 * The features of two words (or of a tag and a word), by the side the word takes in them. A pair is looked up only
 * when the model holds some feature of that prefix with each word on its side: most pairs are in no feature, and
 * a lookup that cannot hit (a probe of the weight table, a miss in the CPU cache) adds nothing. So the sums, and
 * the tags, are the same as with every lookup made.
 */
const PAIR_SIDES = [
  ['t1w=', 1],
  ['w-21=', 0],
  ['w-21=', 1],
  ['w-1w=', 0],
  ['w-1w=', 1],
  ['ww+1=', 0],
  ['ww+1=', 1],
] as const;
const T1W_WORD = 1 << 0;
const W21_FIRST = 1 << 1;
const W21_SECOND = 1 << 2;
const W1W_FIRST = 1 << 3;
const W1W_SECOND = 1 << 4;
const WW1_FIRST = 1 << 5;
const WW1_SECOND = 1 << 6;

/** Per PAIR_SIDES entry, every word the model's features of that prefix hold on that side (a name split at each "|": exact whatever a word holds). */
function pairWords(model: PerceptronModel): Set<string>[] {
  const sides = PAIR_SIDES.map(() => new Set<string>());
  for (const name of Object.keys(model.weights)) {
    PAIR_SIDES.forEach(([prefix, side], k) => {
      if (!name.startsWith(prefix)) return;
      const rest = name.slice(prefix.length);
      for (let bar = rest.indexOf('|'); bar >= 0; bar = rest.indexOf('|', bar + 1)) sides[k].add(side === 0 ? rest.slice(0, bar) : rest.slice(bar + 1));
    });
  }
  return sides;
}

function roleFeatures(sink: FeatureSink, w: OneWord, role: Role): void {
  switch (role) {
    case Role.Own:
      sink.add(P['b']);
      sink.add(P['w='], w.norm);
      sink.add(P['p3='], w.p3);
      sink.add(P['s3='], w.s3);
      sink.add(P['s2='], w.s2);
      sink.add(P['g='], w.g);
      sink.add(P['len='], w.len);
      for (const x of w.gaz) sink.add(P['gz='], x);
      return;
    case Role.Before1:
      sink.add(P['w-1='], w.norm);
      sink.add(P['g-1='], w.g);
      return;
    case Role.Before2:
      sink.add(P['w-2='], w.norm);
      return;
    case Role.After1:
      sink.add(P['w+1='], w.norm);
      sink.add(P['g+1='], w.g);
      for (const x of w.gaz) sink.add(P['gz+1='], x);
      return;
    case Role.After2:
      sink.add(P['w+2='], w.norm);
      return;
    case Role.Left:
      sink.add(P['L='], w.norm);
      return;
    case Role.Right:
      sink.add(P['R='], w.norm);
  }
}

/** Adds a word's row of one role to scores `s` (T tags); a role that adds nothing is not read. */
function addRow(s: Float64Array, x: Rows, role: Role, T: number): void {
  if (!(x.nz & (1 << role))) return;
  const r = x.r;
  const at = role * T;
  for (let t = 0; t < T; t++) s[t] += r[at + t];
}

/** Adds (sign 1) or takes away (sign -1) a word's row of one role from a running sum. */
function slide(sum: Float64Array, x: Rows, role: Role, sign: number, T: number): void {
  if (!(x.nz & (1 << role))) return;
  const r = x.r;
  const at = role * T;
  for (let t = 0; t < T; t++) sum[t] += sign * r[at + t];
}

/** Distinct words whose rows are remembered (7 rows of a score per tag each), per tagger. */
const ROWS_MAX = 10_000;

const B_PERSON = TAGS.indexOf('B-Person');
const I_PERSON = TAGS.indexOf('I-Person');
const nameEvidence = (v: WordView) => v.gazNames.some((g) => g === 'fn' || g === 'ln' || g === 'hn') && !ordinaryWord(v.norm.s);

export class FastTagger {
  private readonly weights: HashedWeights;
  private readonly tags: number;
  private readonly rows = new Map<string, Rows>();
  private readonly padRows: Rows;
  /** The previous two tags' features (t1=, t12=) summed, a row per pair (prev2 x tags + prev): two lookups fewer a word. */
  private readonly tagRows: Int32Array;

  /** pairWords of the model. */
  private readonly pairSides: Set<string>[];

  constructor(model: PerceptronModel) {
    this.weights = new HashedWeights(model);
    this.tags = model.tags.length;
    this.pairSides = pairWords(model);
    this.padRows = this.rowsOf(PAD as unknown as OneWord);
    const T = this.tags;
    this.tagRows = new Int32Array(T * T * T);
    for (let prev2 = 0; prev2 < T; prev2++) {
      for (let prev = 0; prev < T; prev++) {
        this.weights.reset();
        this.weights.add(P['t1='], TAG_PARTS[prev]);
        this.weights.add(P['t12='], TAG_PARTS[prev2], TAG_PARTS[prev]);
        this.tagRows.set(this.weights.scores, (prev2 * T + prev) * T);
      }
    }
  }

  /** Every role's row of one word, back to back (ROLES x tags), and the roles that are not all zero. */
  private rowsOf(w: OneWord): Rows {
    const T = this.tags;
    const r = new Int32Array(ROLES * T);
    let nz = 0;
    for (let role = 0; role < ROLES; role++) {
      this.weights.reset();
      roleFeatures(this.weights, w, role);
      const s = this.weights.scores;
      for (let t = 0; t < T; t++) {
        // integer thousandths, far inside 32 bits (a row is a few weights, each under 10^5)
        r[role * T + t] = s[t];
        if (s[t] !== 0) nz |= 1 << role;
      }
    }
    let pairs = 0;
    for (let k = 0; k < PAIR_SIDES.length; k++) if (this.pairSides[k].has(w.norm.s)) pairs |= 1 << k;
    return { r, nz, pairs };
  }

  private rowsFor(v: WordView): Rows {
    let hit = this.rows.get(v.norm.s);
    if (!hit) {
      hit = this.rowsOf(v);
      if (this.rows.size < ROWS_MAX) this.rows.set(v.norm.s, hit);
    }
    return hit;
  }

  /** Tag indices and margins of each word of the doc (as SequenceTagger.tag). */
  tag(doc: Doc): { tags: number[]; margins: number[] } {
    const lc = caseless(doc);
    const views = wordViews(doc, lc);
    const n = views.length;
    const rows = views.map((v) => this.rowsFor(v));
    const T = this.tags;
    const tags: number[] = [];
    const margins: number[] = [];
    const w = this.weights;
    const s = w.scores;
    const bias = lc ? PERSON_BIAS.caseless : PERSON_BIAS.written;
    const padRows = this.padRows;
    const tagRows = this.tagRows;
    const left = new Float64Array(T);
    const right = new Float64Array(T);
    for (let k = 1; k <= RIGHT && k < n; k++) slide(right, rows[k], Role.Right, 1, T);
    for (let i = 0; i < n; i++) {
      w.reset();
      const v = views[i];
      const p1 = i >= 1 ? views[i - 1] : PAD;
      const p2 = i >= 2 ? views[i - 2] : PAD;
      const n1 = i + 1 < n ? views[i + 1] : PAD;
      const prevTag = i >= 1 ? tags[i - 1] : 0;
      const prev2Tag = i >= 2 ? tags[i - 2] : 0;
      const prev = TAG_PARTS[prevTag];
      addRow(s, rows[i], Role.Own, T);
      addRow(s, i >= 1 ? rows[i - 1] : padRows, Role.Before1, T);
      addRow(s, i >= 2 ? rows[i - 2] : padRows, Role.Before2, T);
      addRow(s, i + 1 < n ? rows[i + 1] : padRows, Role.After1, T);
      addRow(s, i + 2 < n ? rows[i + 2] : padRows, Role.After2, T);
      // the bags left and right, kept as running sums (a word in, a word out per step)
      if (i > 0) slide(left, rows[i - 1], Role.Left, 1, T);
      if (i - 1 - LEFT >= 0) slide(left, rows[i - 1 - LEFT], Role.Left, -1, T);
      if (i > 0) slide(right, rows[i], Role.Right, -1, T);
      if (i + RIGHT < n && i > 0) slide(right, rows[i + RIGHT], Role.Right, 1, T);
      for (let t = 0; t < T; t++) s[t] += left[t] + right[t];
      // the features of two things at once, or of the previous tags, as features.ts makes them
      w.add(P['sh='], v.shape);
      const tr = (prev2Tag * T + prevTag) * T;
      for (let t = 0; t < T; t++) s[t] += tagRows[tr + t];
      // (a pair no feature holds is not looked up: PAIR_SIDES)
      const own = rows[i].pairs;
      const before1 = i >= 1 ? rows[i - 1].pairs : padRows.pairs;
      if ((own & T1W_WORD) !== 0) w.add(P['t1w='], prev, v.norm);
      w.add(P['t1g='], prev, v.g);
      if (((i >= 2 ? rows[i - 2].pairs : padRows.pairs) & W21_FIRST) !== 0 && (before1 & W21_SECOND) !== 0) w.add(P['w-21='], p2.norm, p1.norm);
      if ((before1 & W1W_FIRST) !== 0 && (own & W1W_SECOND) !== 0) w.add(P['w-1w='], p1.norm, v.norm);
      if ((own & WW1_FIRST) !== 0 && ((i + 1 < n ? rows[i + 1].pairs : padRows.pairs) & WW1_SECOND) !== 0) w.add(P['ww+1='], v.norm, n1.norm);
      w.add(P['sh-1sh='], p1.shape, v.shape);
      w.add(P['shsh+1='], v.shape, n1.shape);
      w.add(P['fsh='], v.first, v.shape);
      w.add(P['fg='], v.first, v.g);
      for (const x of p1.gaz) w.add(P['gz-1='], x, prev);
      for (let k = i + 1; k <= i + 5 && k < n; k++) {
        if (views[k].st) {
          w.add(ST_AHEAD[k - i - 1]);
          break;
        }
      }
      for (let k = i - 1; k >= i - 4 && k >= 0; k--) {
        if (views[k].num) {
          w.add(NUM_BEHIND[i - k - 1]);
          break;
        }
      }
      if (bias && (lc || v.shape.s.startsWith('X')) && nameEvidence(v)) {
        s[B_PERSON] += bias * 1000;
        s[I_PERSON] += bias * 1000;
      }
      const { tag, margin } = w.best();
      tags.push(tag);
      margins.push(margin);
    }
    return { tags, margins };
  }

  runs(doc: Doc): TaggedRun[] {
    const { tags, margins } = this.tag(doc);
    return runsOf(tags, margins);
  }
}
