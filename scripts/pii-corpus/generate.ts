// The generated contact-center corpus: utterances in written form and in ASR form (lower case, no punctuation,
// numbers spoken), with gold spans per kind, split into train / dev / test by template family (templates.ts), by
// name source (sources.ts) and by seed; and the no-PII corpus (ordinary dialogue, over-masking measured on it).
// Deterministic: the same seed gives the same corpus.
import type { EntityKind } from '../../src/redact/entityKinds.js';
import { chance, pick, rng, type Rng } from './random.js';
import { buildPools, type Split } from './sources.js';
import { asrForm } from './spoken.js';
import { FAMILIES, NO_PII, NO_PII_PARTS } from './templates.js';
import { Values } from './values.js';

export interface GoldSpan {
  kind: EntityKind;
  start: number;
  end: number;
}
export interface Utterance {
  split: Split;
  /** Template family (intent and index), or "no-pii". */
  family: string;
  written: { text: string; gold: GoldSpan[] };
  asr: { words: string[]; gold: GoldSpan[] };
}

/** The seed each split is generated from (a split's utterances never share a random stream with another's). */
export const SPLIT_SEEDS: Record<Split, number> = { train: 1001, dev: 2002, test: 3003 };
export const SIZES: Record<Split, { pii: number; noPii: number }> = {
  train: { pii: 9000, noPii: 3000 },
  dev: { pii: 1200, noPii: 1200 },
  test: { pii: 1500, noPii: 2400 },
};

/** One template rendered in both forms, gold spans tracked through the concatenation. */
function render(r: Rng, values: Values, template: string): { written: Utterance['written']; asr: Utterance['asr'] } {
  let written = '';
  const wGold: GoldSpan[] = [];
  const words: string[] = [];
  const aGold: GoldSpan[] = [];
  let asrLen = () => words.join(' ').length;
  for (const part of template.split(/(\{\w+\})/)) {
    if (!part) continue;
    const slot = /^\{(\w+)\}$/.exec(part)?.[1];
    if (!slot) {
      written += part;
      words.push(...asrForm(r, part).split(' ').filter(Boolean));
      continue;
    }
    const v = values.fill(slot);
    const w0 = written.length;
    written += v.written;
    const spokenWords = v.spoken.split(' ').filter(Boolean);
    const a0 = words.length ? asrLen() + 1 : 0;
    words.push(...spokenWords);
    if (v.kind) {
      const [ws, we] = v.goldWritten ?? [0, v.written.length];
      wGold.push({ kind: v.kind, start: w0 + ws, end: w0 + we });
      const [as, ae] = v.goldSpoken ?? [0, v.spoken.length];
      aGold.push({ kind: v.kind, start: a0 + as, end: a0 + ae });
    }
  }
  asrLen = () => 0;
  return { written: { text: written, gold: wGold }, asr: { words, gold: aGold } };
}

/** Two utterances said in one turn: the second's spans shifted. */
function join(a: ReturnType<typeof render>, b: ReturnType<typeof render>): ReturnType<typeof render> {
  const wShift = a.written.text.length + 1;
  const aShift = a.asr.words.join(' ').length + (a.asr.words.length ? 1 : 0);
  return {
    written: { text: `${a.written.text} ${b.written.text}`, gold: [...a.written.gold, ...b.written.gold.map((g) => ({ ...g, start: g.start + wShift, end: g.end + wShift }))] },
    asr: { words: [...a.asr.words, ...b.asr.words], gold: [...a.asr.gold, ...b.asr.gold.map((g) => ({ ...g, start: g.start + aShift, end: g.end + aShift }))] },
  };
}

/** The no-PII sentence frames of a split (same i % 5 rule as the PII families). */
function noPiiFrames(split: Split): { fixed: string[]; body: string[] } {
  const mine = (_: unknown, i: number) => (split === 'train' ? i % 5 < 3 : split === 'dev' ? i % 5 === 3 : i % 5 === 4);
  return { fixed: NO_PII.filter(mine), body: NO_PII_PARTS.body.filter(mine) };
}

function noPiiTemplate(r: Rng, frames: { fixed: string[]; body: string[] }): string {
  if (chance(r, 0.4)) return pick(r, frames.fixed);
  const open = pick(r, NO_PII_PARTS.open);
  const close = pick(r, NO_PII_PARTS.close);
  let body = pick(r, frames.body);
  if (chance(r, 0.3)) body += `, and ${pick(r, frames.body)}`;
  return `${open}, ${body}${close ? `, ${close}` : ''}.`;
}

const cache = new Map<string, Utterance[]>();
let pools: ReturnType<typeof buildPools> | undefined;
/** The name and place pools (one seed for all splits: which source a value comes from decides its split). */
export const namePools = () => (pools ??= buildPools(7));

/** The utterances of one split: PII turns (some with a no-PII sentence before or after, some with two PII sentences) and no-PII turns. */
export function generate(split: Split, options: { pii?: number; noPii?: number; seed?: number; fresh?: boolean; probe?: boolean } = {}): Utterance[] {
  const key = `${split}:${options.pii}:${options.noPii}:${options.seed}:${options.probe}`;
  const hit = options.fresh ? undefined : cache.get(key);
  if (hit) return hit;
  const seed = options.seed ?? SPLIT_SEEDS[split];
  // the probe: this split's frames, names and streets of sources no split has (sources.ts)
  const pools = namePools()[options.probe ? 'probe' : split];
  const r = rng(seed);
  const values = new Values(r, pools);
  const families = FAMILIES[split];
  const frames = noPiiFrames(split);
  const out: Utterance[] = [];
  const n = options.pii ?? SIZES[split].pii;
  for (let i = 0; i < n; i++) {
    const fi = Math.floor(r() * families.length);
    const f = families[fi];
    let u = render(r, values, f.text);
    if (chance(r, 0.2)) u = join(render(r, values, noPiiTemplate(r, frames)), u);
    else if (chance(r, 0.15)) u = join(u, render(r, values, noPiiTemplate(r, frames)));
    else if (chance(r, 0.1)) u = join(u, render(r, values, pick(r, families).text));
    out.push({ split, family: `${f.intent}:${fi}`, ...u });
  }
  const m = options.noPii ?? SIZES[split].noPii;
  for (let i = 0; i < m; i++) out.push({ split, family: 'no-pii', ...render(r, values, noPiiTemplate(r, frames)) });
  cache.set(key, out);
  return out;
}

export const hasPii = (u: Utterance) => u.family !== 'no-pii';
