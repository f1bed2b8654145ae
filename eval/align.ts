// Word times from the alignment path (models without token times, such as Whisper, get their words timed by
// the bundled acoustic model with a grammar of exactly those words: src/engine/pocketsphinx/align.ts), against
// the bundled engine's own word times on the same audio:
//   own   — the words PocketSphinx recognized, aligned again: isolates the alignment itself;
//   ref   — the reference transcript (what a good model like Whisper would write: other words, numbers as
//           digits), aligned; compared on the words it shares with PocketSphinx's output, in order.
// Per word, the error is the larger of |start difference| and |end difference|.
//
//   npx tsx eval/align.ts          markdown table
//   npx tsx eval/align.ts --json   JSON (used by test/engine/align.test.ts)
import { decodeChannels } from '../src/audio/decode.js';
import { listModels, WIDEBAND_MODEL } from '../src/engine/models.js';
import { alignWords } from '../src/engine/pocketsphinx/align.js';
import { decodePcm } from '../src/engine/pocketsphinx/decoder.js';
import { wordsOfText } from '../src/engine/sherpa/words.js';
import type { Word } from '../src/transcript/types.js';
import { loadReferences, type Reference } from '../test/helpers/devData.js';

export interface AlignmentRow {
  audio: string;
  channel: number;
  mode: 'own' | 'ref';
  words: number;
  /** Words of the input that the grammar timed (others were placed between neighbours). */
  aligned: number;
  compared: number;
  medianError: number;
  p90Error: number;
  maxError: number;
  spread: boolean;
}

function quantile(sorted: number[], q: number): number {
  return sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

/** Pairs of indices (a, b) where the two word lists agree, in order (longest common subsequence). */
function commonWords(a: string[], b: string[]): [number, number][] {
  const dp = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) for (let j = b.length - 1; j >= 0; j--) dp[i][j] = a[i] === b[j] ? dp[i + 1][j + 1] + 1 : Math.max(dp[i + 1][j], dp[i][j + 1]);
  const pairs: [number, number][] = [];
  for (let i = 0, j = 0; i < a.length && j < b.length; ) {
    if (a[i] === b[j]) pairs.push([i++, j++]);
    else if (dp[i + 1][j] >= dp[i][j + 1]) i++;
    else j++;
  }
  return pairs;
}

function row(ref: Reference, mode: 'own' | 'ref', own: Word[], timed: Word[], aligned: number, spread: boolean, pairs: [number, number][]): AlignmentRow {
  const errors = pairs.map(([i, j]) => Math.max(Math.abs(own[i].start - timed[j].start), Math.abs(own[i].end - timed[j].end))).sort((x, y) => x - y);
  const r3 = (x: number) => Math.round(x * 1000) / 1000;
  return {
    audio: ref.audio,
    channel: ref.channel,
    mode,
    words: timed.length,
    aligned,
    compared: pairs.length,
    medianError: r3(quantile(errors, 0.5)),
    p90Error: r3(quantile(errors, 0.9)),
    maxError: r3(errors[errors.length - 1] ?? 0),
    spread,
  };
}

export async function evaluateAlignment(refs: Reference[]): Promise<AlignmentRow[]> {
  const wideband = listModels().find((m) => m.name === WIDEBAND_MODEL);
  if (!wideband?.installed || !wideband.files) throw new Error(`${WIDEBAND_MODEL} is not installed`);
  const model = { ...wideband.files, sampleRate: wideband.sampleRate };
  const rows: AlignmentRow[] = [];
  for (const ref of refs) {
    const audio = await decodeChannels(ref.path, { sampleRate: model.sampleRate });
    const pcm = audio.channels[ref.channel];
    const own = decodePcm(model, pcm).words;
    const ownWords = own.map((w) => w.word);
    const again = alignWords(model, pcm, ownWords);
    rows.push(row(ref, 'own', own, again.words, again.aligned, again.spread, ownWords.map((_, i) => [i, i])));
    const refWords = wordsOfText(ref.text);
    const fromRef = alignWords(model, pcm, refWords);
    rows.push(row(ref, 'ref', own, fromRef.words, fromRef.aligned, fromRef.spread, commonWords(ownWords, refWords)));
  }
  return rows;
}

/** Share of compared words within `tolerance` seconds, over all rows of a mode. */
export function shareWithin(rows: AlignmentRow[], mode: 'own' | 'ref'): { median: number; p90: number; compared: number } {
  const of = rows.filter((r) => r.mode === mode);
  const compared = of.reduce((s, r) => s + r.compared, 0);
  const weighted = (key: 'medianError' | 'p90Error') => of.reduce((s, r) => s + r[key] * r.compared, 0) / Math.max(1, compared);
  return { median: Math.round(weighted('medianError') * 1000) / 1000, p90: Math.round(weighted('p90Error') * 1000) / 1000, compared };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const refs = loadReferences();
  if (!refs) {
    console.error('no dev data (set SCRUBLINE_DEV_DATA)');
    process.exit(2);
  }
  const rows = await evaluateAlignment(refs);
  if (process.argv.includes('--json')) console.log(JSON.stringify(rows));
  else {
    console.log('| file | ch | input | words | grammar-timed | compared | median err (s) | p90 err (s) | max err (s) |');
    console.log('|---|---|---|---|---|---|---|---|---|');
    for (const r of rows) console.log(`| ${r.audio} | ${r.channel} | ${r.mode} | ${r.words} | ${r.aligned} | ${r.compared} | ${r.medianError} | ${r.p90Error} | ${r.maxError} |`);
    for (const mode of ['own', 'ref'] as const) {
      const s = shareWithin(rows, mode);
      console.log(`\n${mode}: ${s.compared} words compared, word-weighted median error ${s.median} s, p90 ${s.p90} s`);
    }
  }
}
