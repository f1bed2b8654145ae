// Detection throughput before (another git ref) and after (this tree), each in a process of its own, rounds
// alternating, CPU time of the process (not wall time: a machine shared with other work slows the clock, not the
// CPU seconds used). bench/tagger-ab.ts runs both in one process, where which tree is loaded first moves the
// figures by 10-15 % (the shared packages are compiled for the first tree's calls); here neither sees the other.
// The generated dev split, written and ASR form, tagger on; the median round is reported.
//
//   npx tsx bench/tagger-ab-isolated.ts      (BENCH_ROUNDS=3, BENCH_ROUND_SECONDS=1.5; BEFORE_REF=<commit>)
//   (the before tree is eval/beforeTree.ts's copy, shared with eval/pii-turns.ts, its tagger model built there)
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const ROOT = path.resolve(import.meta.dirname, '..');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_ROUND_SECONDS ?? 1.5);

if (process.argv[2] === '--child') {
  const { generate } = await import('../scripts/pii-corpus/generate.js');
  const det = (await import(pathToFileURL(path.join(process.argv[3], 'src', 'redact', 'detect.ts')).href)) as typeof import('../src/redact/detect.js');
  const corpus = generate('dev');
  const written = corpus.map((u) => u.written.text);
  const spoken = corpus.map((u) => u.asr.words);
  const wChars = written.reduce((n, x) => n + x.length, 0);
  const aChars = spoken.reduce((n, w) => n + w.join(' ').length, 0);
  const cpu = () => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1e6;
  };
  const rate = (pass: () => number) => {
    let chars = 0;
    const t0 = cpu();
    while (cpu() - t0 < SECONDS) chars += pass();
    return chars / (cpu() - t0);
  };
  const W = () => (written.forEach((x) => det.detectText(x, { tagger: true })), wChars);
  const A = () => (spoken.forEach((w) => det.detectWords(w, { tagger: true })), aChars);
  W();
  A();
  process.stdout.write(JSON.stringify({ written: rate(W), asr: rate(A) }));
} else {
  const { beforeRef, treeAt } = await import('../eval/beforeTree.js');
  const ref = beforeRef();
  const trees = { before: treeAt(ref), after: ROOT };
  const runs: Record<string, { written: number; asr: number }[]> = { before: [], after: [] };
  for (let r = 0; r < ROUNDS; r++) {
    for (const name of (r % 2 ? ['after', 'before'] : ['before', 'after']) as (keyof typeof trees)[]) {
      const out = execFileSync(process.execPath, [...process.execArgv, import.meta.filename, '--child', trees[name]], { cwd: ROOT, encoding: 'utf8' });
      runs[name].push(JSON.parse(out) as { written: number; asr: number });
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
  const fmt = (x: number) => Math.round(x).toLocaleString('en-US');
  console.log(`Detection throughput, ${ref} vs this tree, each in its own process (CPU time; ${os.cpus().length} cores, node ${process.version}; median of ${ROUNDS} alternating rounds of ${SECONDS} s)`);
  const m = (name: string, form: 'written' | 'asr') => median(runs[name].map((x) => x[form]));
  for (const form of ['written', 'asr'] as const) console.log(`${form}: before ${fmt(m('before', form))} chars/s, after ${fmt(m('after', form))} chars/s (${Math.round((m('after', form) / m('before', form)) * 100)}%)`);
}
