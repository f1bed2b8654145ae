// Word error rate: (substitutions + deletions + insertions) / reference words, by word-level edit distance.
// Text is compared lower case with punctuation removed.

export function normalizeWords(text: string | string[]): string[] {
  const words = Array.isArray(text) ? text : text.split(/\s+/);
  return words
    .map((w) => w.toLowerCase().replace(/[^a-z0-9']+/g, ''))
    .filter((w) => w.length > 0);
}

export interface WerResult {
  /** Edits (substitutions + deletions + insertions). */
  errors: number;
  /** Words in the reference. */
  words: number;
  /** errors / words (0 when both are empty; 1 per inserted word when the reference is empty). */
  wer: number;
}

export function editDistance(ref: string[], hyp: string[]): number {
  let prev = Array.from({ length: hyp.length + 1 }, (_, j) => j);
  for (let i = 1; i <= ref.length; i++) {
    const cur = [i];
    for (let j = 1; j <= hyp.length; j++) {
      const sub = prev[j - 1] + (ref[i - 1] === hyp[j - 1] ? 0 : 1);
      cur[j] = Math.min(sub, prev[j] + 1, cur[j - 1] + 1);
    }
    prev = cur;
  }
  return prev[hyp.length];
}

export function wer(reference: string | string[], hypothesis: string | string[]): WerResult {
  const ref = normalizeWords(reference);
  const hyp = normalizeWords(hypothesis);
  const errors = editDistance(ref, hyp);
  return { errors, words: ref.length, wer: ref.length === 0 ? hyp.length : errors / ref.length };
}

/** Pooled WER over several files: total edits over total reference words. */
export function overallWer(results: WerResult[]): WerResult {
  const errors = results.reduce((n, r) => n + r.errors, 0);
  const words = results.reduce((n, r) => n + r.words, 0);
  return { errors, words, wer: words === 0 ? 0 : errors / words };
}
