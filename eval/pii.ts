// PII recognizers on Presidio's generated sample: precision, recall and F2 per entity kind, as written and in ASR
// form (lower case, punctuation dropped, digits spoken as words, emails and IPs spoken with "at"/"dot"), for the
// full detector, for person-source combinations, and for an NLP-library-only baseline (compromise people() and
// places()); plus text redaction throughput. Matching is by character overlap with a gold span of the same kind.
//
//   npx tsx eval/pii.ts
//   npx tsx eval/pii.ts --misses     (Person/Address misses and false detections, written and ASR form)
//   SCRUBLINE_DEV_DATA=/path/to/dev npx tsx eval/pii.ts
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import nlp from 'compromise';
import { detectText, detectWords, type Detection } from '../src/redact/detect.js';
import type { EntityKind } from '../src/redact/entityKinds.js';
import type { DetectOptions } from '../src/redact/types.js';
import { devDataDir } from '../test/helpers/devData.js';
import { heldoutSpoken, heldoutWritten } from '../test/redact/heldout.data.js';

export const PII_FILE = path.join(devDataDir(), 'pii', 'presidio_generated_small.json');

export interface GoldSpan {
  kind: EntityKind;
  start: number;
  end: number;
}
export interface Sample {
  text: string;
  gold: GoldSpan[];
  /** Presidio types with no kind of ours, for the report. */
  unmapped: string[];
}
export interface AsrSample {
  words: string[];
  gold: GoldSpan[];
}
interface Span {
  kind: EntityKind;
  start: number;
  end: number;
}

const TYPE_MAP: Record<string, EntityKind> = {
  PERSON: 'Person',
  ADDRESS: 'Address',
  STREET_ADDRESS: 'Address',
  US_SSN: 'USSocialSecurityNumber',
  PHONE_NUMBER: 'PhoneNumber',
  EMAIL_ADDRESS: 'Email',
  CREDIT_CARD: 'CreditCardNumber',
  IP_ADDRESS: 'IPAddress',
  US_DRIVER_LICENSE: 'USDriversLicenseNumber',
  US_PASSPORT: 'USPassportNumber',
  US_BANK_NUMBER: 'USBankAccountNumber',
  ABA_ROUTING_NUMBER: 'ABARoutingNumber',
  ZIP_CODE: 'ZipCode',
};

/** Our kinds scored as another (Presidio labels ZIP codes as part of ADDRESS). */
const SCORE_AS: Partial<Record<EntityKind, EntityKind>> = { ZipCode: 'Address' };

export function loadPresidio(file = PII_FILE): Sample[] | null {
  if (!fs.existsSync(file)) return null;
  const raw = JSON.parse(fs.readFileSync(file, 'utf8')) as { full_text: string; spans: { entity_type: string; start_position: number; end_position: number }[] }[];
  return raw.map((r) => {
    const gold: GoldSpan[] = [];
    const unmapped: string[] = [];
    for (const s of r.spans) {
      let kind = TYPE_MAP[s.entity_type];
      if (!kind && s.entity_type === 'DATE_TIME' && /born|birth|dob/i.test(r.full_text.slice(Math.max(0, s.start_position - 25), s.start_position))) kind = 'DateOfBirth';
      if (kind) gold.push({ kind, start: s.start_position, end: s.end_position });
      else unmapped.push(s.entity_type);
    }
    return { text: r.full_text, gold, unmapped };
  });
}

const DIGIT = ['oh', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'];
const SPOKEN_SYMBOL: Record<string, string> = { '@': 'at', '.': 'dot', _: 'underscore', '-': 'dash' };

/** Written text to what ASR would write: lower case, no punctuation, every digit a word, emails/IPs spoken. */
export function toAsr(text: string, gold: GoldSpan[]): AsrSample {
  const out: { word: string; start: number; end: number }[] = [];
  const re = /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}|\d{1,3}(?:\.\d{1,3}){3}(?!\d)|\d|[\p{L}\p{M}]+(?:'[\p{L}\p{M}]+)*/gu;
  for (const m of text.matchAll(re)) {
    const start = m.index!;
    const end = start + m[0].length;
    if (/@|^\d{1,3}(\.\d{1,3}){3}$/.test(m[0])) {
      for (const piece of m[0].toLowerCase().match(/[a-z]+|\d|[@._-]/g) ?? []) {
        const word = /\d/.test(piece) ? DIGIT[Number(piece)] : SPOKEN_SYMBOL[piece] ?? piece;
        out.push({ word, start, end });
      }
    } else if (/^\d$/.test(m[0])) out.push({ word: DIGIT[Number(m[0])], start, end });
    else out.push({ word: m[0].toLowerCase(), start, end });
  }
  const offsets: number[] = [];
  let pos = 0;
  for (const w of out) {
    offsets.push(pos);
    pos += w.word.length + 1;
  }
  const mapped: GoldSpan[] = [];
  for (const g of gold) {
    const idx = out.map((w, i) => (w.start < g.end && g.start < w.end ? i : -1)).filter((i) => i >= 0);
    if (idx.length === 0) continue;
    const a = idx[0];
    const b = idx[idx.length - 1];
    mapped.push({ kind: g.kind, start: offsets[a], end: offsets[b] + out[b].word.length });
  }
  return { words: out.map((w) => w.word), gold: mapped };
}

export interface Score {
  tp: number;
  fp: number;
  fn: number;
  gold: number;
  predicted: number;
  precision: number;
  recall: number;
  f2: number;
}

export type Scores = Map<EntityKind, Score>;

/** Character-overlap scoring: a prediction is right when it overlaps a gold span of its kind; a gold span is found when a prediction of its kind overlaps it. */
export function score(items: { gold: GoldSpan[]; predicted: Span[] }[]): Scores {
  const acc = new Map<EntityKind, { tp: number; fp: number; fn: number; gold: number; predicted: number }>();
  const get = (k: EntityKind) => acc.get(k) ?? (acc.set(k, { tp: 0, fp: 0, fn: 0, gold: 0, predicted: 0 }), acc.get(k)!);
  for (const { gold, predicted } of items) {
    const preds = predicted.map((p) => ({ ...p, kind: SCORE_AS[p.kind] ?? p.kind }));
    for (const p of preds) {
      const s = get(p.kind);
      s.predicted++;
      if (gold.some((g) => g.kind === p.kind && g.start < p.end && p.start < g.end)) s.tp++;
      else s.fp++;
    }
    for (const g of gold) {
      const s = get(g.kind);
      s.gold++;
      if (!preds.some((p) => p.kind === g.kind && g.start < p.end && p.start < g.end)) s.fn++;
    }
  }
  const out: Scores = new Map();
  for (const [k, s] of acc) {
    const precision = s.predicted ? s.tp / s.predicted : s.gold ? 0 : 1;
    const recall = s.gold ? (s.gold - s.fn) / s.gold : 1;
    const f2 = precision + recall ? (5 * precision * recall) / (4 * precision + recall) : 0;
    out.set(k, { ...s, precision, recall, f2 });
  }
  return out;
}

export type System = { name: string; written: (text: string) => Span[]; spoken: (words: string[]) => Span[] };

export const fullSystem = (options: DetectOptions = {}, name = 'scrubline'): System => ({
  name,
  written: (text) => detectText(text, options),
  spoken: (words) => detectWords(words, options),
});

function compromiseSpans(text: string): Span[] {
  const doc = nlp(text);
  const spans: Span[] = [];
  for (const [kind, view] of [['Person', doc.people()], ['Address', doc.places()]] as const) {
    for (const m of view.json({ offset: true }) as { offset: { start: number; length: number } }[]) spans.push({ kind, start: m.offset.start, end: m.offset.start + m.offset.length });
  }
  return spans;
}

export const baselineSystem: System = { name: 'compromise only', written: compromiseSpans, spoken: (words) => compromiseSpans(words.join(' ')) };

export function evaluate(system: System, samples: Sample[]): { written: Scores; spoken: Scores } {
  const written = score(samples.map((s) => ({ gold: s.gold, predicted: system.written(s.text) })));
  const spoken = score(
    samples.map((s) => {
      const a = toAsr(s.text, s.gold);
      return { gold: a.gold, predicted: system.spoken(a.words) };
    }),
  );
  return { written, spoken };
}

/** The hand-written held-out sentences (test/redact/heldout.data.ts), written and spoken, scored like the dev file. */
export function evaluateHeldout(system: System = fullSystem()): { written: Scores; spoken: Scores } {
  return {
    written: score(heldoutWritten().map((s) => ({ gold: s.gold, predicted: system.written(s.text) }))),
    spoken: score(heldoutSpoken().map((s) => ({ gold: s.gold, predicted: system.spoken(s.words!) }))),
  };
}

function throughput(fn: () => number): number {
  for (let i = 0; i < 10; i++) fn(); // warm up (JIT, compromise's lazy setup)
  let chars = 0;
  const t0 = performance.now();
  let elapsed = 0;
  while (elapsed < 3000) {
    chars += fn();
    elapsed = performance.now() - t0;
  }
  return chars / (elapsed / 1000);
}

const pct = (x: number) => (x * 100).toFixed(0);

/** Person/Address misses and false detections of the full detector, written and ASR form (`--misses`). */
export function listMisses(samples: Sample[], kinds: readonly EntityKind[] = ['Person', 'Address'], options: DetectOptions = {}, asGiven = false): string[] {
  const lines: string[] = [];
  const show = (form: string, text: string, gold: GoldSpan[], predicted: Span[]) => {
    for (const kind of kinds) {
      const g = gold.filter((x) => x.kind === kind);
      const p = predicted.filter((x) => (SCORE_AS[x.kind] ?? x.kind) === kind);
      for (const x of g) if (!p.some((y) => y.start < x.end && x.start < y.end)) lines.push(`MISS ${kind} ${form}: ${JSON.stringify(text.slice(x.start, x.end))} in ${JSON.stringify(text.slice(Math.max(0, x.start - 60), x.end + 40))}`);
      for (const y of p) if (!g.some((x) => y.start < x.end && x.start < y.end)) lines.push(`FP   ${kind} ${form}: ${JSON.stringify(text.slice(y.start, y.end))} (${(y as Detection).recognizer ?? '?'}) in ${JSON.stringify(text.slice(Math.max(0, y.start - 60), y.end + 40))}`);
    }
  };
  for (const s of samples) {
    if (asGiven) {
      // held-out: a lower-case sentence is spoken form (words), anything else written
      if (s.text === s.text.toLowerCase() && !/[.,?!]/.test(s.text)) show('asr', s.text, s.gold, detectWords(s.text.split(' '), options));
      else show('written', s.text, s.gold, detectText(s.text, options));
      continue;
    }
    show('written', s.text, s.gold, detectText(s.text, options));
    const a = toAsr(s.text, s.gold);
    show('asr', a.words.join(' '), a.gold, detectWords(a.words, options));
  }
  return lines;
}

function main(): void {
  const samples = loadPresidio();
  if (!samples) {
    console.error(`no ${PII_FILE}`);
    process.exit(1);
  }
  if (process.argv.includes('--misses')) {
    for (const l of listMisses(samples)) console.log(l);
    const h = [...heldoutWritten().map((s) => ({ text: s.text, gold: s.gold, unmapped: [] })), ...heldoutSpoken().map((s) => ({ text: s.text, gold: s.gold, unmapped: [] }))];
    for (const l of listMisses(h, ['Person', 'Address'], {}, true)) console.log(`held-out ${l}`);
    return;
  }
  const unmapped = new Map<string, number>();
  for (const s of samples) for (const u of s.unmapped) unmapped.set(u, (unmapped.get(u) ?? 0) + 1);
  const systems = [
    fullSystem(),
    fullSystem({ personSources: { compromise: false } }, 'cues+list (no compromise)'),
    fullSystem({ personSources: { nameList: false } }, 'cues+compromise (no list)'),
    fullSystem({ personSources: { cues: false } }, 'list+compromise (no cues)'),
    baselineSystem,
  ];
  const results = systems.map((s) => ({ system: s, ...evaluate(s, samples) }));
  const kinds = [...new Set(results.flatMap((r) => [...r.written.keys(), ...r.spoken.keys()]))];
  console.log(`## PII recognizers on ${path.basename(PII_FILE)} (${samples.length} texts)\n`);
  console.log('Per kind, full detector vs compromise-only baseline (P / R / F2 in %, n = gold spans):\n');
  console.log('| kind | n | written P | R | F2 | ASR P | R | F2 | baseline written F2 | baseline ASR F2 |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  const full = results[0];
  const base = results[results.length - 1];
  for (const k of kinds) {
    const w = full.written.get(k);
    const a = full.spoken.get(k);
    const bw = base.written.get(k);
    const ba = base.spoken.get(k);
    const f = (s: Score | undefined, key: 'precision' | 'recall' | 'f2') => (s && (s.gold || s.predicted) ? pct(s[key]) : '-');
    console.log(`| ${k} | ${w?.gold ?? 0} | ${f(w, 'precision')} | ${f(w, 'recall')} | ${f(w, 'f2')} | ${f(a, 'precision')} | ${f(a, 'recall')} | ${f(a, 'f2')} | ${bw && bw.predicted ? pct(bw.f2) : '-'} | ${ba && ba.predicted ? pct(ba.f2) : '-'} |`);
  }
  console.log('\nPerson and Address by source combination (F2 %, written / ASR; P and R in brackets):\n');
  console.log('| system | Person written | Person ASR | Address written | Address ASR |');
  console.log('|---|---|---|---|---|');
  const cell = (s: Score | undefined) => (s ? `${pct(s.f2)} (${pct(s.precision)}/${pct(s.recall)})` : '-');
  for (const r of results) console.log(`| ${r.system.name} | ${cell(r.written.get('Person'))} | ${cell(r.spoken.get('Person'))} | ${cell(r.written.get('Address'))} | ${cell(r.spoken.get('Address'))} |`);
  const micro = (m: Scores) => {
    let tp = 0, fp = 0, fn = 0, gold = 0;
    for (const s of m.values()) ((tp += s.tp), (fp += s.fp), (fn += s.fn), (gold += s.gold));
    const p = tp / (tp + fp || 1);
    const r = (gold - fn) / (gold || 1);
    return `${pct((5 * p * r) / (4 * p + r || 1))} (${pct(p)}/${pct(r)})`;
  };
  console.log('\nAll kinds (micro F2, P/R):\n');
  for (const r of results) console.log(`- ${r.system.name}: written ${micro(r.written)}, ASR ${micro(r.spoken)}`);
  console.log('\nHeld-out hand-written sentences (test/redact/heldout.data.ts; P / R / F2 in %):\n');
  console.log('| system | Person written | Person ASR | Address written | Address ASR |');
  console.log('|---|---|---|---|---|');
  const pr = (s: Score | undefined) => (s ? `${pct(s.precision)} / ${pct(s.recall)} / ${pct(s.f2)}` : '-');
  for (const r of results) {
    const h = evaluateHeldout(r.system);
    console.log(`| ${r.system.name} | ${pr(h.written.get('Person'))} | ${pr(h.spoken.get('Person'))} | ${pr(h.written.get('Address'))} | ${pr(h.spoken.get('Address'))} |`);
  }
  console.log(`\nUnmapped Presidio types (not scored): ${[...unmapped].map(([k, n]) => `${k} ${n}`).join(', ')}. ZipCode detections are scored as Address (Presidio labels ZIP codes ADDRESS); DATE_TIME counts as DateOfBirth only after "born"/"birth".`);
  const texts = samples.map((s) => s.text);
  const asr = samples.map((s) => toAsr(s.text, s.gold).words);
  const totalW = texts.reduce((n, t) => n + t.length, 0);
  const totalA = asr.reduce((n, w) => n + w.join(' ').length, 0);
  const tw = throughput(() => (texts.forEach((t) => detectText(t)), totalW));
  const ta = throughput(() => (asr.forEach((w) => detectWords(w)), totalA));
  const tnc = throughput(() => (texts.forEach((t) => detectText(t, { personSources: { compromise: false } })), totalW));
  const tb = throughput(() => (texts.forEach((t) => compromiseSpans(t)), totalW));
  console.log(`\nThroughput (one core, ${process.version}): detectText ${Math.round(tw).toLocaleString('en')} chars/s, detectWords (ASR form) ${Math.round(ta).toLocaleString('en')} chars/s, detectText without compromise ${Math.round(tnc).toLocaleString('en')} chars/s; compromise people+places alone ${Math.round(tb).toLocaleString('en')} chars/s.`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
