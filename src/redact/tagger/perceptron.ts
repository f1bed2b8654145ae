// An averaged perceptron sequence tagger (Collins 2002), decoded greedily left to right with the previous tags as
// features: weights per (feature, tag), averaged over every step of training (lazy totals), pruned to the features
// that matter, and stored as integers (thousandths) in a JSON model. Training works on feature strings
// (Perceptron); decoding on their hashes (HashedWeights: features.ts hands over the hashes, no string is built).
import { BAR, hashOf, type FeatureSink, type Part } from './features.js';

const BAR_H = BAR.h1; // '|' is one character: both hashes equal its code
const BAR_P1 = BAR.p1;
const BAR_P2 = BAR.p2;

export interface PerceptronModel {
  tags: string[];
  /** feature -> weight per tag, in thousandths; absent features weigh nothing. */
  weights: Record<string, number[]>;
}

export class Perceptron {
  readonly tags: string[];
  private readonly w = new Map<string, Float64Array>();
  private readonly totals = new Map<string, Float64Array>();
  private readonly stamps = new Map<string, Float64Array>();
  private step = 0;

  constructor(tags: string[], model?: PerceptronModel) {
    this.tags = tags;
    if (model) for (const [f, ws] of Object.entries(model.weights)) this.w.set(f, Float64Array.from(ws, (x) => x / 1000));
  }

  /** Scores of every tag for these features. */
  scores(features: readonly string[]): Float64Array {
    const s = new Float64Array(this.tags.length);
    for (const f of features) {
      const ws = this.w.get(f);
      if (!ws) continue;
      for (let t = 0; t < ws.length; t++) s[t] += ws[t];
    }
    return s;
  }

  best(features: readonly string[]): { tag: number; margin: number } {
    const s = this.scores(features);
    let tag = 0;
    for (let t = 1; t < s.length; t++) if (s[t] > s[tag]) tag = t;
    let second = -Infinity;
    for (let t = 0; t < s.length; t++) if (t !== tag && s[t] > second) second = s[t];
    return { tag, margin: s[tag] - second };
  }

  /** One training step: when the guess is wrong, the truth's weights go up and the guess's down. */
  update(features: readonly string[], truth: number, guess: number): void {
    this.step++;
    if (truth === guess) return;
    for (const f of features) {
      let ws = this.w.get(f);
      if (!ws) {
        ws = new Float64Array(this.tags.length);
        this.w.set(f, ws);
        this.totals.set(f, new Float64Array(this.tags.length));
        this.stamps.set(f, new Float64Array(this.tags.length));
      }
      const tot = this.totals.get(f)!;
      const st = this.stamps.get(f)!;
      for (const [t, d] of [[truth, 1], [guess, -1]] as const) {
        tot[t] += (this.step - st[t]) * ws[t];
        st[t] = this.step;
        ws[t] += d;
      }
    }
  }

  /** Weights replaced by their averages over all steps. */
  average(): void {
    for (const [f, ws] of this.w) {
      const tot = this.totals.get(f)!;
      const st = this.stamps.get(f)!;
      for (let t = 0; t < ws.length; t++) ws[t] = (tot[t] + (this.step - st[t]) * ws[t]) / Math.max(1, this.step);
    }
  }

  /** The model, weights below `minWeight` (in thousandths) dropped and features left with none removed. */
  toModel(minWeight: number): PerceptronModel {
    const weights: Record<string, number[]> = {};
    for (const f of [...this.w.keys()].sort()) {
      const ws = Array.from(this.w.get(f)!, (x) => Math.round(x * 1000));
      const kept = ws.map((x) => (Math.abs(x) < minWeight ? 0 : x));
      if (kept.some((x) => x !== 0)) weights[f] = kept;
    }
    return { tags: this.tags, weights };
  }
}

/** 32-bit finalizer (murmur3): the polynomial hashes' low bits are weak, the table index needs them mixed. */
function mix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/**
 * A model's weights in an open-addressing table keyed by the two hashes of each feature name, and a FeatureSink
 * that adds a feature's weights to the current scores. A feature absent from the model weighs nothing; one whose
 * two hashes both match another's (odds about 2^-64 per lookup) would be read as that one. Small for the cache:
 * a slot is three integers (both hashes, the row + 1; 0 is empty), the rows are the model's integer weights
 * (thousandths) packed one after another, and scores add up in thousandths, exactly.
 */
export class HashedWeights implements FeatureSink {
  readonly tags: number;
  private readonly mask: number;
  private readonly slots: Int32Array;
  private readonly w: Int32Array;
  /** Scores of the word being decoded, in thousandths; reset() before its features. */
  readonly scores: Float64Array;

  constructor(model: PerceptronModel) {
    this.tags = model.tags.length;
    const entries = Object.entries(model.weights);
    let size = 1024;
    while (size < entries.length * 2) size *= 2;
    this.mask = size - 1;
    this.slots = new Int32Array(size * 3);
    this.w = new Int32Array(entries.length * this.tags);
    this.scores = new Float64Array(this.tags);
    entries.forEach(([f, ws], row) => {
      const [h1, h2] = hashOf(f);
      let at = mix(h1) & this.mask;
      while (this.slots[at * 3 + 2]) {
        // two names with the same pair of hashes: the model cannot be read exactly, so it is not read at all
        if (this.slots[at * 3] === h1 && this.slots[at * 3 + 1] === h2) throw new Error(`tagger model: features collide on ${JSON.stringify(f)}`);
        at = (at + 1) & this.mask;
      }
      this.slots[at * 3] = h1;
      this.slots[at * 3 + 1] = h2;
      this.slots[at * 3 + 2] = row + 1;
      for (let t = 0; t < this.tags; t++) this.w[row * this.tags + t] = ws[t];
    });
  }

  reset(): void {
    this.scores.fill(0);
  }

  add(prefix: Part, a?: Part, b?: Part): void {
    let h1 = prefix.h1;
    let h2 = prefix.h2;
    if (a) {
      h1 = (Math.imul(h1, a.p1) + a.h1) | 0;
      h2 = (Math.imul(h2, a.p2) + a.h2) | 0;
    }
    if (b) {
      h1 = (Math.imul(h1, BAR_P1) + BAR_H) | 0;
      h2 = (Math.imul(h2, BAR_P2) + BAR_H) | 0;
      h1 = (Math.imul(h1, b.p1) + b.h1) | 0;
      h2 = (Math.imul(h2, b.p2) + b.h2) | 0;
    }
    const slots = this.slots;
    let at = (mix(h1) & this.mask) * 3;
    let row: number;
    while ((row = slots[at + 2])) {
      if (slots[at] === h1 && slots[at + 1] === h2) {
        const base = (row - 1) * this.tags;
        for (let t = 0; t < this.tags; t++) this.scores[t] += this.w[base + t];
        return;
      }
      at += 3;
      if (at === slots.length) at = 0;
    }
  }

  /** The best tag of the current scores and its margin over the second (in units, not thousandths). */
  best(): { tag: number; margin: number } {
    const s = this.scores;
    let tag = 0;
    for (let t = 1; t < s.length; t++) if (s[t] > s[tag]) tag = t;
    let second = -Infinity;
    for (let t = 0; t < s.length; t++) if (t !== tag && s[t] > second) second = s[t];
    return { tag, margin: (s[tag] - second) / 1000 };
  }
}
