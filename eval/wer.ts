// Word error rate of the speech pipeline on the dev recordings, per file and overall, at their own rates (16 and
// 22.05 kHz) and as 8 kHz mu-law telephone audio made from them with ffmpeg; with the real-time factor of each
// (wall-clock processing / audio duration, files one after another, the channels of a file in parallel).
//
//   npx tsx eval/wer.ts                 both tables (markdown)
//   npx tsx eval/wer.ts --only 16k      or --only 8k
//   SCRUBLINE_MODELS_DIR=/nonexistent npx tsx eval/wer.ts    the same with Debian's language model
//   SCRUBLINE_DEV_DATA=/path/to/dev npx tsx eval/wer.ts
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { installedModels } from '../src/engine/models.js';
import { closeSharedPool } from '../src/engine/pool.js';
import { recognizeFile } from '../src/engine/recognize.js';
import type { Transcript } from '../src/transcript/types.js';
import { devDataDir, loadReferences, type Reference } from '../test/helpers/devData.js';
import { overallWer, wer, type WerResult } from '../test/helpers/wer.js';

const MODEL = 'en-us:wideband';
const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : undefined;

interface Variant {
  name: string;
  /** The file to recognize for a dev file. */
  prepare: (file: string) => string;
}

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'scrubline-eval-'));
const variants: Variant[] = [
  { name: '16k', prepare: (file) => file },
  {
    name: '8k',
    prepare: (file) => {
      const out = path.join(tmp, `${path.basename(file, path.extname(file))}-8k-mulaw.wav`);
      if (!fs.existsSync(out)) execFileSync('ffmpeg', ['-nostdin', '-v', 'error', '-y', '-i', file, '-ar', '8000', '-c:a', 'pcm_mulaw', out]);
      return out;
    },
  },
].filter((v) => !only || v.name === only);

async function evaluate(refs: Reference[], variant: Variant): Promise<void> {
  const files = [...new Set(refs.map((r) => r.path))];
  const transcripts = new Map<string, Transcript>();
  // Warm the pool (worker start-up) outside the figures.
  await recognizeFile(variant.prepare(files[0]), { model: MODEL });
  for (const file of files) transcripts.set(file, await recognizeFile(variant.prepare(file), { model: MODEL }));

  const label = variant.name === '16k' ? 'original rate (16 / 22.05 kHz)' : '8 kHz mu-law (upsampled to 16 kHz for the model)';
  console.log(`\n### ${label}\n`);
  console.log('| file | ch | words | errors | WER | RTF |');
  console.log('|---|---:|---:|---:|---:|---:|');
  const results: WerResult[] = [];
  let audio = 0;
  let processing = 0;
  for (const ref of refs) {
    const t = transcripts.get(ref.path)!;
    const ch = t.channels.find((c) => c.channel === ref.channel);
    const r = wer(ref.text, (ch?.words ?? []).map((w) => w.word));
    results.push(r);
    const rtf = t.processingSeconds / t.audioSeconds;
    console.log(`| ${ref.audio} | ${ref.channel} | ${r.words} | ${r.errors} | ${(r.wer * 100).toFixed(1)}% | ${rtf.toFixed(2)} |`);
  }
  for (const t of transcripts.values()) {
    audio += t.audioSeconds;
    processing += t.processingSeconds;
  }
  const all = overallWer(results);
  console.log(`| **overall** | | ${all.words} | ${all.errors} | **${(all.wer * 100).toFixed(1)}%** | ${(processing / audio).toFixed(2)} |`);
  if (process.env.EVAL_VERBOSE) {
    for (const ref of refs) {
      const ch = transcripts.get(ref.path)!.channels.find((c) => c.channel === ref.channel);
      console.log(`  ${ref.audio}#${ref.channel}: ${(ch?.words ?? []).map((w) => w.word).join(' ')}`);
    }
  }
}

async function main(): Promise<void> {
  const refs = loadReferences();
  if (!refs) {
    console.error(`no dev data at ${devDataDir()} (set SCRUBLINE_DEV_DATA)`);
    process.exit(2);
  }
  const model = installedModels().find((m) => m.name === MODEL);
  if (!model) throw new Error(`${MODEL} is not installed`);
  console.log(`Model ${MODEL}: acoustic ${model.files?.hmm}, language model ${model.files?.lm} (${model.languageModel})`);
  console.log(`Machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, Node ${process.version}; RTF = wall-clock processing / audio seconds`);
  try {
    for (const variant of variants) await evaluate(refs, variant);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
    await closeSharedPool();
  }
}

await main();
