// Telephone-band evaluation: word error rate per file and overall, and decode speed, of every dev file as
//   - the 16 kHz (or 22.05 kHz) original,
//   - 8 kHz mu-law and 8 kHz A-law versions made here with ffmpeg (upsampled to 16 kHz by the pipeline),
// each decoded with en-us:wideband, en-us:telephony (wideband + the MLLR transform) and 'auto' (the service's
// default: the model chosen by the audio). Also what 'auto' chose for each file.
//
//   npx tsx eval/telephony.ts            markdown tables
//   npx tsx eval/telephony.ts --json     one JSON object (used by test/engine/telephony.test.ts)
//   SCRUBLINE_DEV_DATA=/path/to/dev npx tsx eval/telephony.ts
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { installedModels, telephonyAdaptation, TELEPHONY_MODEL, WIDEBAND_MODEL, AUTO_MODEL } from '../src/engine/models.js';
import { closeSharedPool } from '../src/engine/pool.js';
import { recognizeFile } from '../src/engine/recognize.js';
import type { Transcript } from '../src/transcript/types.js';
import { devDataDir, loadReferences, type Reference } from '../test/helpers/devData.js';
import { overallWer, wer, type WerResult } from '../test/helpers/wer.js';

export interface Cell {
  variant: string;
  model: string;
  wer: number;
  errors: number;
  words: number;
  rtf: number;
  perFile: { audio: string; channel: number; wer: number; model: string }[];
}

export const VARIANTS: { name: string; label: string; codec?: string }[] = [
  { name: '16k', label: 'original (16 / 22.05 kHz)' },
  { name: '8k-mulaw', label: '8 kHz mu-law', codec: 'pcm_mulaw' },
  { name: '8k-alaw', label: '8 kHz A-law', codec: 'pcm_alaw' },
];

export async function evaluateTelephony(refs: Reference[], options: { variants?: string[]; models?: string[] } = {}): Promise<Cell[]> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'scrubline-tel-'));
  const installed = new Set(installedModels().map((m) => m.name));
  const models = (options.models ?? [WIDEBAND_MODEL, TELEPHONY_MODEL, AUTO_MODEL]).filter((m) => m === AUTO_MODEL || installed.has(m));
  const variants = VARIANTS.filter((v) => !options.variants || options.variants.includes(v.name));
  const files = [...new Set(refs.map((r) => r.path))];
  const prepare = (file: string, codec?: string) => {
    if (!codec) return file;
    const out = path.join(tmp, `${path.basename(file, path.extname(file))}-${codec}.wav`);
    if (!fs.existsSync(out)) execFileSync('ffmpeg', ['-nostdin', '-v', 'error', '-y', '-i', file, '-ar', '8000', '-c:a', codec, out]);
    return out;
  };
  const cells: Cell[] = [];
  try {
    await recognizeFile(files[0], { model: WIDEBAND_MODEL }); // warm the pool outside the figures
    for (const variant of variants) {
      for (const model of models) {
        const transcripts = new Map<string, Transcript>();
        for (const file of files) transcripts.set(file, await recognizeFile(prepare(file, variant.codec), { model }));
        const results: WerResult[] = [];
        const perFile: Cell['perFile'] = [];
        for (const ref of refs) {
          const t = transcripts.get(ref.path)!;
          const r = wer(ref.text, (t.channels.find((c) => c.channel === ref.channel)?.words ?? []).map((w) => w.word));
          results.push(r);
          perFile.push({ audio: ref.audio, channel: ref.channel, wer: r.wer, model: t.model });
        }
        const all = overallWer(results);
        let audio = 0;
        let processing = 0;
        for (const t of transcripts.values()) {
          audio += t.audioSeconds;
          processing += t.processingSeconds;
        }
        cells.push({ variant: variant.name, model, wer: all.wer, errors: all.errors, words: all.words, rtf: processing / audio, perFile });
      }
    }
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  return cells;
}

function pct(x: number): string {
  return `${(x * 100).toFixed(1)}%`;
}

function printTables(cells: Cell[]): void {
  const models = [...new Set(cells.map((c) => c.model))];
  const variants = [...new Set(cells.map((c) => c.variant))];
  console.log('\n### Overall WER (RTF)\n');
  console.log(`| audio | ${models.join(' | ')} |`);
  console.log(`|---|${models.map(() => '---:').join('|')}|`);
  for (const v of variants) {
    const row = models.map((m) => {
      const c = cells.find((x) => x.variant === v && x.model === m);
      return c ? `${pct(c.wer)} (${c.rtf.toFixed(2)})` : '-';
    });
    console.log(`| ${VARIANTS.find((x) => x.name === v)?.label ?? v} | ${row.join(' | ')} |`);
  }
  console.log('\n### WER per file\n');
  const cols = cells.map((c) => `${c.variant} ${c.model.replace('en-us:', '')}`);
  console.log(`| file | ch | ${cols.join(' | ')} |`);
  console.log(`|---|---:|${cols.map(() => '---:').join('|')}|`);
  const first = cells[0];
  first.perFile.forEach((f, i) => {
    console.log(`| ${f.audio} | ${f.channel} | ${cells.map((c) => pct(c.perFile[i].wer) + (c.model === AUTO_MODEL ? ` ${c.perFile[i].model === TELEPHONY_MODEL ? 'T' : 'W'}` : '')).join(' | ')} |`);
  });
  console.log('\n(auto columns: T = en-us:telephony chosen, W = en-us:wideband chosen)');
}

async function main(): Promise<void> {
  const refs = loadReferences();
  if (!refs) {
    console.error(`no dev data at ${devDataDir()} (set SCRUBLINE_DEV_DATA)`);
    process.exit(2);
  }
  const json = process.argv.includes('--json');
  const adaptation = telephonyAdaptation();
  if (!json) {
    console.log(`Telephone-band adaptation: ${adaptation.state}${adaptation.reason ? ` (${adaptation.reason})` : ''}${adaptation.buildSeconds ? `, built in ${adaptation.buildSeconds}s from ${adaptation.utterances} utterances (${adaptation.audioSeconds}s)` : ''}`);
    console.log(`Machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, Node ${process.version}; RTF = wall-clock processing / audio seconds`);
  }
  try {
    const cells = await evaluateTelephony(refs);
    if (json) console.log(JSON.stringify({ adaptation, cells }));
    else printTables(cells);
  } finally {
    await closeSharedPool();
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) await main();
