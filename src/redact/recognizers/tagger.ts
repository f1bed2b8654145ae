// The statistical tagger as a recognizer (src/redact/tagger/): Person and Address wherever the trained model
// tags them, beside the rule-based recognizers (their detections are a union: the tagger only adds). The model is
// loaded once per thread, on first use.
import { taggerModel } from '../tagger/model.js';
import { SequenceTagger } from '../tagger/tagger.js';
import type { Detection } from '../types.js';
import { fromWords, type Recognizer } from './doc.js';

let tagger: SequenceTagger | undefined;

export const taggerRecognizer: Recognizer = (doc) => {
  if (doc.options.tagger === false || doc.words.length === 0) return [];
  tagger ??= new SequenceTagger(taggerModel());
  const out: Detection[] = [];
  for (const run of tagger.runs(doc)) {
    // Words with no letter or digit (a lone dash) are not part of a name or street on their own.
    out.push(fromWords(doc, run.kind, run.wordStart, run.wordEnd, 0.55, 'tagger'));
  }
  return out;
};
