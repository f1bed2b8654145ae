// Proof that a change left detection as it was: detectText and detectWords (tagger on, and off) over the
// generated corpus (train, dev, test) and the hand-written turns (dev, dev2, heldout2), in the tree at BEFORE_REF
// (a copy under the temp folder: eval/beforeTree.ts) and in this tree, each in a process of its own on
// the same inputs (this tree's generator and turn files); every detection (kind, start, end, recognizer, and its
// text, confidence, word indices, floor) must be the same. Exits 1 and lists the first differences otherwise.
//
//   BEFORE_REF=<commit> npx tsx eval/detections-unchanged.ts      (default: the merge base with main)
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeRef, treeAt } from './beforeTree.js';

const ROOT = path.resolve(import.meta.dirname, '..');

if (process.argv[2] === '--child') {
  // One tree's detections, one line per input: "<set> <index> <form> <tagger>\t<detections as JSON>".
  const [tree, outFile] = process.argv.slice(3);
  const { generate } = await import('../scripts/pii-corpus/generate.js');
  const { loadTurns } = await import('./handwritten-turns.js');
  const det = (await import(pathToFileURL(path.join(tree, 'src', 'redact', 'detect.ts')).href)) as typeof import('../src/redact/detect.js');
  const sets: [string, { written: { text: string }; asr: { words: string[] } }[]][] = [
    ...(['train', 'dev', 'test'] as const).map((s) => [`generated-${s}`, generate(s)] as [string, ReturnType<typeof generate>]),
    ...(['dev', 'dev2', 'heldout2'] as const).map((h) => [`handwritten-${h}`, loadTurns(h)] as [string, ReturnType<typeof loadTurns>]),
  ];
  const fields = (d: import('../src/redact/types.js').Detection) =>
    [d.kind, d.start, d.end, d.recognizer, d.text, d.confidence, d.wordStart ?? null, d.wordEnd ?? null, d.floor ?? null];
  const lines: string[] = [];
  for (const [name, utterances] of sets) {
    utterances.forEach((u, i) => {
      for (const tagger of [true, false]) {
        lines.push(`${name} ${i} written ${tagger}\t${JSON.stringify(det.detectText(u.written.text, { tagger }).map(fields))}`);
        lines.push(`${name} ${i} asr ${tagger}\t${JSON.stringify(det.detectWords(u.asr.words, { tagger }).map(fields))}`);
      }
    });
  }
  fs.writeFileSync(outFile, lines.join('\n'));
} else {
  const ref = beforeRef();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'detections-unchanged-'));
  const out = { before: path.join(tmp, 'before'), after: path.join(tmp, 'after') };
  const trees = { before: treeAt(ref), after: ROOT };
  for (const name of ['before', 'after'] as const) {
    execFileSync(process.execPath, [...process.execArgv, import.meta.filename, '--child', trees[name], out[name]], { cwd: ROOT, stdio: 'inherit' });
  }
  const before = fs.readFileSync(out.before, 'utf8').split('\n');
  const after = fs.readFileSync(out.after, 'utf8').split('\n');
  fs.rmSync(tmp, { recursive: true, force: true });
  let inputs = 0;
  let detections = 0;
  const diffs: string[] = [];
  for (let i = 0; i < Math.max(before.length, after.length); i++) {
    inputs++;
    detections += (JSON.parse(after[i]?.split('\t')[1] ?? '[]') as unknown[]).length;
    if (before[i] !== after[i]) diffs.push(`before: ${before[i]}\nafter:  ${after[i]}`);
  }
  console.log(`Detections, ${ref} vs this tree: ${inputs} inputs (generated train/dev/test, hand-written dev/dev2/heldout2; written and ASR; tagger on and off), ${detections} detections after; ${diffs.length} inputs differ.`);
  for (const d of diffs.slice(0, 20)) console.log(d);
  if (diffs.length) process.exit(1);
}
