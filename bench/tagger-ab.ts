// Detection throughput before (another git ref, main by default: eval/pii-turns.ts's copy of it) and after (this
// tree), in one process, rounds alternating so that a busy machine slows both alike; the generated dev split,
// written and ASR form, tagger on; the median round is reported.
//
//   npx tsx bench/tagger-ab.ts          (BENCH_ROUNDS=7, BENCH_ROUND_SECONDS=1; BEFORE_REF=<commit>)
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { generate } from '../scripts/pii-corpus/generate.js';
import * as after from '../src/redact/detect.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const SECONDS = Number(process.env.BENCH_ROUND_SECONDS ?? 1);
const ROOT = path.resolve(import.meta.dirname, '..');
// before: where this branch left main (main itself moves on while a branch is worked on)
const ref = process.env.BEFORE_REF ?? execFileSync('git', ['merge-base', 'HEAD', 'main'], { cwd: ROOT, encoding: 'utf8' }).trim().slice(0, 12);
const sha = execFileSync('git', ['rev-parse', ref], { cwd: ROOT, encoding: 'utf8' }).trim();
// the copy eval/pii-turns.ts makes (run it once first)
const dir = path.join(os.tmpdir(), `scrubline-before-${sha.slice(0, 12)}`);
const before = (await import(pathToFileURL(path.join(dir, 'src', 'redact', 'detect.ts')).href)) as typeof after;

const corpus = generate('dev');
const written = corpus.map((u) => u.written.text);
const spoken = corpus.map((u) => u.asr.words);
const wChars = written.reduce((n, x) => n + x.length, 0);
const aChars = spoken.reduce((n, w) => n + w.join(' ').length, 0);
const rate = (pass: () => number) => {
  let chars = 0;
  const t0 = performance.now();
  while (performance.now() - t0 < SECONDS * 1000) chars += pass();
  return chars / ((performance.now() - t0) / 1000);
};
const cases: Record<string, () => number> = {
  'written, before': () => (written.forEach((x) => before.detectText(x, { tagger: true })), wChars),
  'written, after': () => (written.forEach((x) => after.detectText(x, { tagger: true })), wChars),
  'ASR, before': () => (spoken.forEach((w) => before.detectWords(w, { tagger: true })), aChars),
  'ASR, after': () => (spoken.forEach((w) => after.detectWords(w, { tagger: true })), aChars),
};
for (const pass of Object.values(cases)) pass();
const results = new Map<string, number[]>(Object.keys(cases).map((k) => [k, []]));
for (let r = 0; r < ROUNDS; r++) for (const [k, pass] of Object.entries(cases)) results.get(k)!.push(rate(pass));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(`Detection throughput, ${ref} (${sha.slice(0, 7)}) vs this tree (${os.availableParallelism()} cores, node ${process.version}, ${corpus.length} dev-split turns; median of ${ROUNDS} alternating rounds of ${SECONDS} s)`);
for (const [k, xs] of results) console.log(`${k}: ${Math.round(median(xs)).toLocaleString('en')} chars/s`);
const ratio = (a: string, b: string) => ((median(results.get(a)!) / median(results.get(b)!)) * 100).toFixed(0);
console.log(`after / before: written ${ratio('written, after', 'written, before')}%, ASR ${ratio('ASR, after', 'ASR, before')}%`);
