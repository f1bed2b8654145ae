// The fast decoder (src/redact/tagger/decode.ts) gives exactly SequenceTagger's tags and margins: every turn of the
// generated dev split in both forms, and edge cases (no word, one word, punctuation only, a long turn).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { generate } from '../../scripts/pii-corpus/generate.js';
import { docFromText, docFromWords, type Doc } from '../../src/redact/recognizers/doc.js';
import { FastTagger } from '../../src/redact/tagger/decode.js';
import { taggerModel } from '../../src/redact/tagger/model.js';
import { SequenceTagger } from '../../src/redact/tagger/tagger.js';

const reference = new SequenceTagger(taggerModel());
const fast = new FastTagger(taggerModel());
const same = (doc: Doc) => assert.deepEqual(fast.tag(doc), reference.tag(doc), doc.text);

test('the fast decoder tags every dev-split turn as SequenceTagger does (written and said)', () => {
  for (const u of generate('dev')) {
    same(docFromText(u.written.text, {}));
    same(docFromWords(u.asr.words, {}));
  }
});

test('the fast decoder agrees on edge cases: no word, one word, punctuation, a long turn, names and numbers', () => {
  const long = Array.from({ length: 300 }, (_, k) => ['my', 'name', 'is', 'Okonkwo', 'at', String(k), 'Elm', 'Street,', 'Dana', 'Reyes.'][k % 10]).join(' ');
  for (const text of ['', 'Hi', '?!', 'Olamide', 'Call 555-201-4477 or write to 12 Oak St, Leeds LS1 4AB.', long]) same(docFromText(text, {}));
  for (const words of [[], ['leo'], ['my', 'son', 'leo', 'lives', 'at', 'twelve', 'oak', 'street']]) same(docFromWords(words, {}));
});
