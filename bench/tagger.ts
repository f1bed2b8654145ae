// Detection throughput (characters per second) with the statistical tagger against detection without it (the
// detector as it was before the tagger: same code, the tagger switched off, compromise's people() on as it then
// was), and against the tagger with compromise's people() as well (detection before people() was left to the
// tagger-off path), in the same run, on the same text:
// the generated corpus's dev split, written (detectText) and ASR form (detectWords). Rounds alternate between the
// two so that a busy machine slows both alike; the median round is reported. Also: the tagger alone, and what
// loading the model and the name list costs once per thread (time, heap).
//
//   npx tsx bench/tagger.ts            (BENCH_ROUNDS=5, BENCH_ROUND_SECONDS=2)
import os from 'node:os';
import { generate } from '../scripts/pii-corpus/generate.js';
import { docFromText } from '../src/redact/recognizers/doc.js';
import { detectText, detectWords } from '../src/redact/detect.js';
import { humanNames } from '../src/redact/tagger/gazetteer.js';
import { taggerModel } from '../src/redact/tagger/model.js';
import { SequenceTagger } from '../src/redact/tagger/tagger.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const SECONDS = Number(process.env.BENCH_ROUND_SECONDS ?? 2);

const heap0 = process.memoryUsage().heapUsed;
let t = performance.now();
humanNames();
const tagger = new SequenceTagger(taggerModel());
const loadMs = performance.now() - t;
const heapMb = (process.memoryUsage().heapUsed - heap0) / 1e6;

const corpus = generate('dev');
const written = corpus.map((u) => u.written.text);
const spoken = corpus.map((u) => u.asr.words);
const writtenChars = written.reduce((n, x) => n + x.length, 0);
const spokenChars = spoken.reduce((n, w) => n + w.join(' ').length, 0);

/** Characters per second of `pass` (one pass over the corpus) over about SECONDS. */
function rate(pass: () => number): number {
  let chars = 0;
  const t0 = performance.now();
  let elapsed = 0;
  while (elapsed < SECONDS * 1000) {
    chars += pass();
    elapsed = performance.now() - t0;
  }
  return chars / (elapsed / 1000);
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const cases = {
  'written, with tagger': () => (written.forEach((x) => detectText(x, { tagger: true })), writtenChars),
  'written, without tagger': () => (written.forEach((x) => detectText(x, { tagger: false })), writtenChars),
  'ASR, with tagger': () => (spoken.forEach((w) => detectWords(w, { tagger: true })), spokenChars),
  'ASR, without tagger': () => (spoken.forEach((w) => detectWords(w, { tagger: false })), spokenChars),
  // the detector before compromise's people() was left to the tagger-off path: the tagger and compromise both
  'written, tagger + compromise (before)': () => (written.forEach((x) => detectText(x, { tagger: true, personSources: { compromise: true } })), writtenChars),
  'ASR, tagger + compromise (before)': () => (spoken.forEach((w) => detectWords(w, { tagger: true, personSources: { compromise: true } })), spokenChars),
  'tagger alone (written)': () => (written.forEach((x) => tagger.runs(docFromText(x))), writtenChars),
};
for (const pass of Object.values(cases)) pass(); // warm up (JIT, compromise's lazy setup)
const results = new Map<string, number[]>(Object.keys(cases).map((k) => [k, []]));
for (let r = 0; r < ROUNDS; r++) for (const [name, pass] of Object.entries(cases)) results.get(name)!.push(rate(pass));

const fmt = (x: number) => Math.round(x).toLocaleString('en');
console.log(`Tagger benchmark (${os.availableParallelism()} cores, node ${process.version}; ${corpus.length} dev-split turns, ${fmt(writtenChars)} written / ${fmt(spokenChars)} ASR characters; median of ${ROUNDS} rounds of ${SECONDS} s)`);
console.log(`model + name list load: ${loadMs.toFixed(0)} ms, heap +${heapMb.toFixed(1)} MB (once per thread)`);
for (const [name, xs] of results) console.log(`${name}: ${fmt(median(xs))} chars/s`);
const ratio = (a: string, b: string) => ((median(results.get(a)!) / median(results.get(b)!)) * 100).toFixed(0);
console.log(`with / without tagger: written ${ratio('written, with tagger', 'written, without tagger')}%, ASR ${ratio('ASR, with tagger', 'ASR, without tagger')}%`);
console.log(`with tagger / tagger + compromise (before): written ${ratio('written, with tagger', 'written, tagger + compromise (before)')}%, ASR ${ratio('ASR, with tagger', 'ASR, tagger + compromise (before)')}%`);
