// An averaged perceptron sequence tagger (Collins 2002), decoded greedily left to right with the previous tags as
// features: weights per (feature, tag), averaged over every step of training (lazy totals), pruned to the features
// that matter, and stored as integers (thousandths) in a JSON model.
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
