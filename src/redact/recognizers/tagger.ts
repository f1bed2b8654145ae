// The statistical tagger as a recognizer (src/redact/tagger/): Person and Address wherever the trained model
// tags them, beside the rule-based recognizers (their detections are a union: the tagger only adds). The model is
// loaded once per thread, on first use.
import { gazetteerTags } from '../tagger/gazetteer.js';
import { taggerModel } from '../tagger/model.js';
import { EMITTED_KINDS, SequenceTagger } from '../tagger/tagger.js';
import type { Detection } from '../types.js';
import { fromWords, type Recognizer } from './doc.js';
import { AMBIGUOUS } from './nameData.js';

let tagger: SequenceTagger | undefined;

/**
 * Below the rule-based recognizers' confidences: where a detection of theirs overlaps the tagger's, theirs names
 * what both cover (a phone number inside a run the tagger took for an address stays a phone number).
 */
const CONFIDENCE = 0.4;

/**
 * Whether a Person run can be a name: some word of it is on the project's name lists or is not an ordinary word
 * ("as a contact", "jealous" are not; humannames alone does not vouch, it holds many ordinary words), and a run of
 * single letters is a spelling of at least three; a lone name that is also an ordinary word is not taken.
 */
function nameLike(norms: string[]): boolean {
  if (norms.every((w) => /^\p{L}$/u.test(w))) return norms.length >= 3;
  // a name that is also an ordinary word ("Mark it as paid", "will") is left to the cue rules when it stands alone
  if (norms.length === 1 && AMBIGUOUS.has(norms[0])) return false;
  return norms.some((w) => {
    const g = gazetteerTags(w);
    return g.includes('fn') || g.includes('ln') || !(g.includes('cw') || g.includes('sw') || g.includes('mon'));
  });
}

/**
 * Longest word a tagged run may hold: no name or street word is longer, and a run over a long token (a pasted
 * hash, a 1 MiB word) is not an address or a name; the rule recognizers still look at it.
 */
const MAX_WORD_CHARS = 40;

/** Single letters beside a number ("seven g a w k seven six three") spell a code, not a name (as spelled.ts reads them). */
function lettersInCode(doc: Parameters<Recognizer>[0], s: number, e: number): boolean {
  if (!doc.words.slice(s, e).every((w) => /^\p{L}$/u.test(w.norm))) return false;
  const numeric = (i: number) => i >= 0 && i < doc.words.length && (/\d/.test(doc.words[i].norm) || gazetteerTags(doc.words[i].norm).includes('num'));
  return numeric(s - 1) || numeric(e);
}

const wordy = (w: string) => /\p{L}/u.test(w) && !gazetteerTags(w).some((g) => g === 'num' || g === 'mon' || g === 'sw');

export const taggerRecognizer: Recognizer = (doc) => {
  // Off unless asked for: merged with the rule recognizers it let a name leak from a post-call record (the leak
  // matrix, 2026-11-25), so it stays out of every redaction path until that is understood and tested.
  if (doc.options.tagger !== true || doc.words.length === 0) return [];
  tagger ??= new SequenceTagger(taggerModel());
  const out: Detection[] = [];
  const content = (i: number) => doc.words[i].end > doc.words[i].start;
  for (const run of tagger.runs(doc)) {
    if (!EMITTED_KINDS.has(run.kind)) continue;
    // A run starts and ends on a word with a letter or digit (not a lone "?" beside it).
    let { wordStart: s, wordEnd: e } = run;
    while (s < e && !content(s)) s++;
    while (e > s && !content(e - 1)) e--;
    const norms = doc.words.slice(s, e).map((w) => w.norm);
    // An Address run needs a word that is not a number, a month or a function word ("at 3 pm": "3" is none); no
    // more: a gate on street words and numbers (tried) cost recall on streets of unseen formats far more than it
    // saved in precision.
    if (e <= s || norms.some((w) => w.length > MAX_WORD_CHARS)) continue;
    if (run.kind === 'Person' ? !nameLike(norms) || lettersInCode(doc, s, e) : !norms.some(wordy)) continue;
    out.push({ ...fromWords(doc, run.kind, s, e, CONFIDENCE, 'tagger'), additive: true });
  }
  return out;
};
