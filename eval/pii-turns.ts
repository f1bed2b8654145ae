// Issue #32's evaluation: per-kind recall and precision (written and ASR form) and wrong masks per 1,000 words on
// the turns without personal data, on the hand-written turns (eval/handwritten-turns.ts; dev and held-out halves
// apart) and on the generated corpus's test split, each apart; BEFORE (the detector at another git ref, by default
// where this branch left main, from a temporary copy of that commit) and AFTER (this tree), in one run. Scoring is eval/pii-corpus.ts's
// (a prediction is right when it overlaps a gold span of its kind; a ZipCode and an Address count for each other).
//
//   npx tsx eval/pii-turns.ts                 (dev half + generated test split)
//   npx tsx eval/pii-turns.ts --heldout       (the held-out sets as well: run once, at the end)
//   npx tsx eval/pii-turns.ts --misses        (misses and wrong masks, after, on the sets read while tuning: dev, dev2,
//                                             heldout2, heldout3, heldout4, heldout5; never on heldout or heldout6)
//   BEFORE_REF=<commit> npx tsx eval/pii-turns.ts
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { generate, hasPii, type Utterance } from '../scripts/pii-corpus/generate.js';
import { detectText, detectWords } from '../src/redact/detect.js';
import type { EntityKind } from '../src/redact/entityKinds.js';
import { beforeRef, treeAt } from './beforeTree.js';
import { loadTurns, turnsFile } from './handwritten-turns.js';
import { scoreCorpus, type CorpusResult, type KindScore } from './pii-corpus.js';

type Scorer = (u: readonly Utterance[]) => CorpusResult;

const pct = (x: number) => (x * 100).toFixed(1);

function report(title: string, before: CorpusResult, after: CorpusResult): string[] {
  const kinds = [...new Set([...before.kinds.keys(), ...after.kinds.keys()])].filter((k) => (after.kinds.get(k)?.written.gold ?? 0) > 0).sort();
  const cell = (s: KindScore | undefined) => (s ? `${pct(s.recall)} / ${pct(s.precision)}` : '-');
  const lines = [`### ${title}`, '', '| kind | n | written R / P before | after | ASR R / P before | after |', '|---|---:|---:|---:|---:|---:|'];
  for (const k of kinds) {
    const b = before.kinds.get(k as EntityKind);
    const a = after.kinds.get(k as EntityKind)!;
    lines.push(`| ${k} | ${a.written.gold} | ${cell(b?.written)} | ${cell(a.written)} | ${cell(b?.asr)} | ${cell(a.asr)} |`);
  }
  lines.push(`| **micro** | ${after.micro.written.gold} | ${cell(before.micro.written)} | ${cell(after.micro.written)} | ${cell(before.micro.asr)} | ${cell(after.micro.asr)} |`);
  const om = (r: CorpusResult) => `${r.overMask.written.toFixed(1)} written / ${r.overMask.asr.toFixed(1)} ASR`;
  lines.push('', `Wrong masks per 1,000 words on ${after.noPiiTurns} no-PII turns: before ${om(before)}; after ${om(after)}.`, '');
  return lines;
}

/** The dev half's misses and wrong masks (after), one line each. */
function misses(u: readonly Utterance[]): string[] {
  const out: string[] = [];
  const overlaps = (a: { start: number; end: number }, b: { start: number; end: number }) => a.start < b.end && b.start < a.end;
  const same = (a: EntityKind, b: EntityKind) => a === b || (a === 'ZipCode' && b === 'Address') || (a === 'Address' && b === 'ZipCode');
  for (const x of u) {
    for (const [form, text, gold, found] of [
      ['written', x.written.text, x.written.gold, detectText(x.written.text)],
      ['asr', x.asr.words.join(' '), x.asr.gold, detectWords(x.asr.words)],
    ] as const) {
      for (const g of gold) if (!found.some((d) => same(d.kind, g.kind) && overlaps(d, g))) out.push(`MISS ${g.kind} ${form}: ${JSON.stringify(text.slice(g.start, g.end))} in ${JSON.stringify(text)}`);
      for (const d of found) if (!gold.some((g) => same(d.kind, g.kind) && overlaps(d, g))) out.push(`FP   ${d.kind} ${form}: ${JSON.stringify(d.text)} (${d.recognizer}) in ${JSON.stringify(text)}`);
    }
  }
  return out;
}

async function main(): Promise<void> {
  const dev = loadTurns('dev');
  const dev2 = fs.existsSync(turnsFile('dev2')) ? loadTurns('dev2') : [];
  if (process.argv.includes('--misses')) {
    for (const l of misses(dev)) console.log(l);
    if (dev2.length) for (const l of misses(dev2)) console.log(`dev2 ${l}`);
    for (const l of misses(loadTurns('heldout2'))) console.log(`heldout2 ${l}`);
    for (const l of misses(loadTurns('heldout3'))) console.log(`heldout3 ${l}`);
    for (const l of misses(loadTurns('heldout4'))) console.log(`heldout4 ${l}`);
    for (const l of misses(loadTurns('heldout5'))) console.log(`heldout5 ${l}`);
    return;
  }
  // before: where this branch left main (main itself moves on while a branch is worked on)
  const ref = beforeRef();
  const beforeDir = treeAt(ref);
  const beforeMod = (await import(pathToFileURL(path.join(beforeDir, 'eval', 'pii-corpus.ts')).href)) as { scoreCorpus: Scorer };
  const before: Scorer = (u) => beforeMod.scoreCorpus(u, { tagger: true });
  const after: Scorer = (u) => scoreCorpus(u, { tagger: true });
  const sets: [string, Utterance[]][] = [[`hand-written turns, dev half (read while tuning)`, dev]];
  if (dev2.length) sets.push([`hand-written turns, dev2 (another author's, read while tuning)`, dev2]);
  // heldout2 was run once blind (the eighth session), heldout3 and heldout4 (the ninth), heldout5 (the tenth); all are
  // read while tuning since
  sets.push([`hand-written turns, heldout2 (another author's; run blind once, read while tuning since)`, loadTurns('heldout2')]);
  sets.push([`hand-written turns, heldout3 (a third author's; run blind once, read while tuning since)`, loadTurns('heldout3')]);
  sets.push([`hand-written turns, heldout4 (a fourth author's; run blind once, read while tuning since)`, loadTurns('heldout4')]);
  sets.push([`hand-written turns, heldout5 (a fifth author's; run blind once, read while tuning since)`, loadTurns('heldout5')]);
  if (process.argv.includes('--heldout')) {
    sets.push([`hand-written turns, held-out half (read once before)`, loadTurns('heldout')]);
    if (fs.existsSync(turnsFile('heldout6'))) sets.push([`hand-written turns, heldout6 (a sixth author's, written blind, run once)`, loadTurns('heldout6')]);
  }
  if (!process.argv.includes('--no-generated')) sets.push([`generated corpus, test split`, generate('test')]);
  const out = [`## PII detection before (${ref}) and after (this tree); R / P in %`, ''];
  for (const [name, u] of sets) {
    const pii = u.filter(hasPii).length;
    out.push(...report(`${name}: ${pii} PII turns, ${u.length - pii} no-PII turns`, before(u), after(u)));
  }
  console.log(out.join('\n'));
}

await main();
