// The statistical tagger as a recognizer (src/redact/tagger/): Person and Address wherever the trained model
// tags them, beside the rule-based recognizers (their detections are a union: the tagger only adds). The model is
// loaded once per thread, on first use.
import { gazetteerTags } from '../tagger/gazetteer.js';
import { taggerModel } from '../tagger/model.js';
import { EMITTED_KINDS, SequenceTagger } from '../tagger/tagger.js';
import type { Detection } from '../types.js';
import { fromWords, type Recognizer } from './doc.js';

let tagger: SequenceTagger | undefined;

/**
 * Below the rule-based recognizers' confidences: where a detection of theirs overlaps the tagger's, theirs names
 * what both cover (a phone number inside a run the tagger took for an address stays a phone number).
 */
const CONFIDENCE = 0.4;

/**
 * Whether a Person run can be a name: some word of it is on a name list or is not an ordinary word ("as a
 * contact" is not), and a run of single letters is a spelling of at least three.
 */
function nameLike(norms: string[]): boolean {
  if (norms.every((w) => /^\p{L}$/u.test(w))) return norms.length >= 3;
  return norms.some((w) => {
    const g = gazetteerTags(w);
    return g.includes('fn') || g.includes('ln') || g.includes('hn') || !(g.includes('cw') || g.includes('sw'));
  });
}

export const taggerRecognizer: Recognizer = (doc) => {
  if (doc.options.tagger === false || doc.words.length === 0) return [];
  tagger ??= new SequenceTagger(taggerModel());
  const out: Detection[] = [];
  const content = (i: number) => doc.words[i].end > doc.words[i].start;
  for (const run of tagger.runs(doc)) {
    if (!EMITTED_KINDS.has(run.kind)) continue;
    // A run starts and ends on a word with a letter or digit (not a lone "?" beside it).
    let { wordStart: s, wordEnd: e } = run;
    while (s < e && !content(s)) s++;
    while (e > s && !content(e - 1)) e--;
    if (e <= s || (run.kind === 'Person' && !nameLike(doc.words.slice(s, e).map((w) => w.norm)))) continue;
    out.push(fromWords(doc, run.kind, s, e, CONFIDENCE, 'tagger'));
  }
  return out;
};
