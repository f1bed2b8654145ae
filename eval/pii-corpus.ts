// Detection on the project's generated contact-center corpus (scripts/pii-corpus/): recall, precision and F2 per
// kind, written and ASR form, on the test split (template families, name sources and seed never seen in training)
// and on the dev split (the one tuned on); wrongly masked words per 1,000 on the no-PII turns; the same with the
// statistical tagger off (the detector before it); and beside them the figures on presidio_generated_small
// (eval/pii.ts) and on hand-written turns never tuned on (eval/handwritten.ts). A prediction is right when it overlaps a gold span of its kind (a ZipCode inside an Address
// counts for the Address); a gold span is found when a prediction of its kind overlaps it.
//
//   npm run eval:corpus              (test and dev split; about a minute)
//   npm run eval:corpus -- --split dev   (one split only, no Presidio figures)
//   npm run eval:corpus -- --misses dev  (a split's Person/Address misses and false detections; read dev, not test;
//                                         --all-kinds: every kind's, the no-PII turns' wrong masks among them)
//   npm run eval:corpus -- --split dev --probe   (dev frames with names and streets from sources no split has:
//                                                 sources.ts's probe pool; -- --misses dev --probe reads its errors)
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generate, hasPii, type GoldSpan, type Utterance } from '../scripts/pii-corpus/generate.js';
import type { Split } from '../scripts/pii-corpus/sources.js';
import { detectText, detectWords, type Detection } from '../src/redact/detect.js';
import type { EntityKind } from '../src/redact/entityKinds.js';
import type { DetectOptions } from '../src/redact/types.js';
import { loadHandwritten } from './handwritten.js';
import { evaluate, fullSystem, loadPresidio } from './pii.js';

export interface KindScore {
  gold: number;
  found: number;
  predicted: number;
  right: number;
  recall: number;
  precision: number;
  f2: number;
}
export type Form = 'written' | 'asr';
export interface CorpusResult {
  kinds: Map<EntityKind, Record<Form, KindScore>>;
  micro: Record<Form, KindScore>;
  /** Words masked per 1,000 words of no-PII turns. */
  overMask: Record<Form, number>;
  noPiiTurns: number;
}

const same = (a: EntityKind, b: EntityKind) => a === b || (a === 'ZipCode' && b === 'Address') || (a === 'Address' && b === 'ZipCode');
const overlaps = (a: { start: number; end: number }, b: { start: number; end: number }) => a.start < b.end && b.start < a.end;

function finish(s: Omit<KindScore, 'recall' | 'precision' | 'f2'>): KindScore {
  const recall = s.gold ? s.found / s.gold : 1;
  const precision = s.predicted ? s.right / s.predicted : 1;
  const f2 = precision + recall ? (5 * precision * recall) / (4 * precision + recall) : 0;
  return { ...s, recall, precision, f2 };
}

interface Counts {
  gold: number;
  found: number;
  predicted: number;
  right: number;
}
const zero = (): Counts => ({ gold: 0, found: 0, predicted: 0, right: 0 });

/** Scores a detector on utterances: per kind and micro, both forms, and over-masking on the no-PII turns. */
export function scoreCorpus(utterances: readonly Utterance[], options: DetectOptions = { tagger: true }): CorpusResult {
  const counts = new Map<EntityKind, Record<Form, Counts>>();
  const get = (k: EntityKind) => counts.get(k) ?? (counts.set(k, { written: zero(), asr: zero() }), counts.get(k)!);
  const masked = { written: 0, asr: 0 };
  const words = { written: 0, asr: 0 };
  let noPiiTurns = 0;
  for (const u of utterances) {
    const forms: [Form, string, GoldSpan[], Detection[]][] = [
      ['written', u.written.text, u.written.gold, detectText(u.written.text, options)],
      ['asr', u.asr.words.join(' '), u.asr.gold, detectWords(u.asr.words, options)],
    ];
    if (!hasPii(u)) noPiiTurns++;
    for (const [form, text, gold, found] of forms) {
      if (!hasPii(u)) {
        // every word (letters or digits between spaces) that a detection touches
        for (const m of text.matchAll(/\S+/g)) {
          words[form]++;
          if (found.some((d) => overlaps(d, { start: m.index!, end: m.index! + m[0].length }))) masked[form]++;
        }
        continue;
      }
      for (const g of gold) {
        const c = get(g.kind)[form];
        c.gold++;
        if (found.some((d) => same(d.kind, g.kind) && overlaps(d, g))) c.found++;
      }
      for (const d of found) {
        const c = get(d.kind)[form];
        c.predicted++;
        if (gold.some((g) => same(d.kind, g.kind) && overlaps(d, g))) c.right++;
      }
    }
  }
  const kinds = new Map<EntityKind, Record<Form, KindScore>>();
  const micro = { written: zero(), asr: zero() };
  for (const [k, c] of counts) {
    kinds.set(k, { written: finish(c.written), asr: finish(c.asr) });
    for (const f of ['written', 'asr'] as const) for (const key of ['gold', 'found', 'predicted', 'right'] as const) micro[f][key] += c[f][key];
  }
  return {
    kinds,
    micro: { written: finish(micro.written), asr: finish(micro.asr) },
    overMask: { written: (1000 * masked.written) / Math.max(1, words.written), asr: (1000 * masked.asr) / Math.max(1, words.asr) },
    noPiiTurns,
  };
}

/** Test-split Person/Address misses and false detections (for reading, never for tuning on test). */
export function misses(split: Split, kinds?: readonly EntityKind[], probe = false): string[] {
  const wanted = (k: EntityKind) => !kinds || kinds.includes(k);
  const out: string[] = [];
  for (const u of generate(split, { probe })) {
    for (const [form, text, gold, found] of [
      ['written', u.written.text, u.written.gold, detectText(u.written.text)],
      ['asr', u.asr.words.join(' '), u.asr.gold, detectWords(u.asr.words)],
    ] as const) {
      for (const g of gold) if (wanted(g.kind) && !found.some((d) => same(d.kind, g.kind) && overlaps(d, g))) out.push(`MISS ${g.kind} ${form}: ${JSON.stringify(text.slice(g.start, g.end))} in ${JSON.stringify(text)}`);
      for (const d of found) if (wanted(d.kind) && !gold.some((g) => same(d.kind, g.kind) && overlaps(d, g))) out.push(`FP   ${d.kind} ${form}: ${JSON.stringify(d.text)} (${d.recognizer}) in ${JSON.stringify(text)}`);
    }
  }
  return out;
}

const pct = (x: number) => (x * 100).toFixed(1);

export function table(title: string, withTagger: CorpusResult, without: CorpusResult): string[] {
  const lines = [`### ${title}`, '', '| kind | n (written / ASR) | written R | P | F2 | ASR R | P | F2 | without tagger: written R / ASR R |', '|---|---:|---:|---:|---:|---:|---:|---:|---:|'];
  const kinds = [...withTagger.kinds.keys()].filter((k) => withTagger.kinds.get(k)!.written.gold > 0).sort();
  const row = (name: string, s: Record<Form, KindScore>, b: Record<Form, KindScore> | undefined) =>
    `| ${name} | ${s.written.gold} / ${s.asr.gold} | ${pct(s.written.recall)} | ${pct(s.written.precision)} | ${pct(s.written.f2)} | ${pct(s.asr.recall)} | ${pct(s.asr.precision)} | ${pct(s.asr.f2)} | ${b ? `${pct(b.written.recall)} / ${pct(b.asr.recall)}` : '-'} |`;
  for (const k of kinds) lines.push(row(k, withTagger.kinds.get(k)!, without.kinds.get(k)));
  lines.push(row('**micro**', withTagger.micro, without.micro));
  lines.push(
    '',
    `Over-masking on ${withTagger.noPiiTurns} no-PII turns: ${withTagger.overMask.written.toFixed(1)} (written) / ${withTagger.overMask.asr.toFixed(1)} (ASR) words per 1,000 masked; without the tagger ${without.overMask.written.toFixed(1)} / ${without.overMask.asr.toFixed(1)}.`,
    '',
  );
  return lines;
}

function main(): void {
  if (process.argv.includes('--misses')) {
    const split = (process.argv[process.argv.indexOf('--misses') + 1] as Split | undefined) ?? 'dev';
    // --all-kinds: every kind's misses and false detections, the no-PII turns' wrong masks among them
    const kinds = process.argv.includes('--all-kinds') ? undefined : (['Person', 'Address'] as const);
    for (const l of misses(split === 'test' || split === 'train' ? split : 'dev', kinds, process.argv.includes('--probe'))) console.log(l);
    return;
  }
  const out: string[] = ['## Detection on the generated contact-center corpus', ''];
  const only = process.argv.includes('--split') ? (process.argv[process.argv.indexOf('--split') + 1] as Split) : undefined;
  for (const split of only ? [only] : (['test', 'dev'] as const)) {
    const probe = process.argv.includes('--probe');
    const u = generate(split, { probe });
    const pii = u.filter(hasPii).length;
    out.push(...table(`${split} split${probe ? ', probe names and streets' : ''} (${pii} PII turns, ${u.length - pii} no-PII turns; P / R / F2 in %)`, scoreCorpus(u), scoreCorpus(u, { tagger: false })));
  }
  if (!only) {
    // Written apart from the generator, never tuned on (eval/handwritten-calls.txt).
    const u = loadHandwritten();
    const pii = u.filter(hasPii).length;
    out.push(...table(`hand-written turns (${pii} PII turns, ${u.length - pii} no-PII turns; never tuned on; P / R / F2 in %)`, scoreCorpus(u), scoreCorpus(u, { tagger: false })));
  }
  const samples = only ? null : loadPresidio();
  if (samples) {
    out.push(`### presidio_generated_small (${samples.length} texts; the set the rules were tuned on)`, '', '| system | kind | written P | R | F2 | ASR P | R | F2 |', '|---|---|---:|---:|---:|---:|---:|---:|');
    for (const [name, options] of [['with tagger', { tagger: true }], ['without tagger', { tagger: false }]] as const) {
      const { written, spoken } = evaluate(fullSystem(options), samples);
      for (const k of [...written.keys()].sort()) {
        const w = written.get(k)!;
        const a = spoken.get(k);
        if (!w.gold) continue;
        out.push(`| ${name} | ${k} | ${pct(w.precision)} | ${pct(w.recall)} | ${pct(w.f2)} | ${a ? pct(a.precision) : '-'} | ${a ? pct(a.recall) : '-'} | ${a ? pct(a.f2) : '-'} |`);
      }
      const micro = (m: typeof written) => {
        let tp = 0, fp = 0, fn = 0, gold = 0;
        for (const s of m.values()) ((tp += s.tp), (fp += s.fp), (fn += s.fn), (gold += s.gold));
        const p = tp / (tp + fp || 1);
        const r = (gold - fn) / (gold || 1);
        return `${pct(p)} | ${pct(r)} | ${pct((5 * p * r) / (4 * p + r || 1))}`;
      };
      out.push(`| ${name} | **micro** | ${micro(written)} | ${micro(spoken)} |`);
    }
  }
  console.log(out.join('\n'));
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
