// Speech engine benchmark on the dev recordings, against the decoder called directly in the same run:
//
//   1. real-time factor (RTF = seconds of work / seconds of audio) of recognizeFile (probe + ffmpeg decode + VAD +
//      worker pool, the channels of a file in parallel), files one after another, against decodePcm called on
//      this thread, no pool, on the same PCM and the same speech segments, channels one after another: the
//      overhead ratio of the pipeline;
//   2. peak memory per decode: a fresh process decodes one file directly; its peak RSS (VmHWM) against the same
//      process before it loaded anything of PocketSphinx;
//   3. throughput with every core busy: 4 files at once through recognizeFile (pool size = cores), against the
//      4 decoded one after another by decodePcm on one thread.
//
//   npx tsx bench/engine.ts                   (BENCH_REPEAT=3 repeats each timing and keeps the median)
//   SCRUBLINE_DEV_DATA=/path/to/dev npx tsx bench/engine.ts
// Results: printed, and written to bench/results/engine-<time>.json.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { decodeChannels } from '../src/audio/decode.js';
import { detectSpeech, vadParamsFrom } from '../src/audio/vad.js';
import { installedModels } from '../src/engine/models.js';
import { closeSharedPool, defaultPoolSize } from '../src/engine/pool.js';
import { decodePcm, type PocketSphinxModel } from '../src/engine/pocketsphinx/decoder.js';
import { MAX_UNIT_SECONDS } from '../src/engine/pocketsphinx/engine.js';
import { recognizeFile } from '../src/engine/recognize.js';
import { devDataDir, loadReferences } from '../test/helpers/devData.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const MODEL = 'en-us:wideband';
const REPEAT = Math.max(1, Number(process.env.BENCH_REPEAT ?? 3));

function modelFiles(): PocketSphinxModel {
  const info = installedModels().find((m) => m.name === MODEL);
  if (!info?.files) throw new Error(`${MODEL} is not installed`);
  return { ...info.files, sampleRate: info.sampleRate };
}

/** The speech segments the engine would decode (same parameters, same cap). */
function segmentsOf(samples: Int16Array): { start: number; end: number }[] {
  const vad = vadParamsFrom({});
  return detectSpeech(samples, 16000, { ...vad, uttmaxtime: Math.min(vad.uttmaxtime, MAX_UNIT_SECONDS) });
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

function vmHwmBytes(): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync('/proc/self/status', 'utf8'));
  return m ? Number(m[1]) * 1024 : process.memoryUsage.rss();
}

/** Child mode: decode one file directly, print memory figures as JSON. */
async function child(file: string): Promise<void> {
  const audio = await decodeChannels(file);
  const before = process.memoryUsage.rss();
  const model = modelFiles();
  for (const samples of audio.channels) decodePcm(model, samples, segmentsOf(samples));
  console.log(JSON.stringify({ rssBefore: before, peak: vmHwmBytes() }));
}

const MB = 1024 * 1024;
const fmt = (x: number, d = 2) => x.toFixed(d);

async function main(): Promise<void> {
  const refs = loadReferences();
  if (!refs) {
    console.error(`no dev data at ${devDataDir()} (set SCRUBLINE_DEV_DATA)`);
    process.exit(2);
  }
  const files = [...new Set(refs.map((r) => r.path))];
  const model = modelFiles();
  const cores = os.availableParallelism();
  console.log(`PocketSphinx engine benchmark — ${files.length} dev files, ${cores} × ${os.cpus()[0]?.model ?? 'cpu'}, Node ${process.version}, pool size ${defaultPoolSize()}, median of ${REPEAT}`);
  console.log(`model: ${model.hmm} + ${model.lm}\n`);

  // Warm-up: the pool's workers, the page cache for the model files.
  await recognizeFile(files[0], { model: MODEL });
  decodePcm(model, (await decodeChannels(files[0])).channels[0].slice(0, 16000));

  // ---------------------------------------------------------------------------------------- 1. RTF
  interface Row { file: string; audio: number; channels: number; direct: number; pipeline: number }
  const rows: Row[] = [];
  for (const file of files) {
    const audio = await decodeChannels(file);
    const directTimes: number[] = [];
    const pipelineTimes: number[] = [];
    for (let i = 0; i < REPEAT; i++) {
      const t0 = performance.now();
      for (const samples of audio.channels) decodePcm(model, samples, segmentsOf(samples));
      directTimes.push((performance.now() - t0) / 1000);
      const t1 = performance.now();
      await recognizeFile(file, { model: MODEL });
      pipelineTimes.push((performance.now() - t1) / 1000);
    }
    rows.push({ file: path.relative(devDataDir(), file), audio: audio.durationSeconds, channels: audio.channels.length, direct: median(directTimes), pipeline: median(pipelineTimes) });
  }
  console.log('1. Real-time factor per file (wall seconds / audio seconds; lower is faster)\n');
  console.log('| file | audio s | ch | direct decoder RTF | recognizeFile RTF | overhead ratio |');
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const r of rows) {
    console.log(`| ${r.file} | ${fmt(r.audio, 1)} | ${r.channels} | ${fmt(r.direct / r.audio, 3)} | ${fmt(r.pipeline / r.audio, 3)} | ${fmt(r.pipeline / r.direct)} |`);
  }
  const audioTotal = rows.reduce((s, r) => s + r.audio, 0);
  const directTotal = rows.reduce((s, r) => s + r.direct, 0);
  const pipelineTotal = rows.reduce((s, r) => s + r.pipeline, 0);
  const mono = rows.filter((r) => r.channels === 1);
  const monoRatio = mono.reduce((s, r) => s + r.pipeline, 0) / mono.reduce((s, r) => s + r.direct, 0);
  console.log(`| **all** | ${fmt(audioTotal, 1)} | | ${fmt(directTotal / audioTotal, 3)} | ${fmt(pipelineTotal / audioTotal, 3)} | ${fmt(pipelineTotal / directTotal)} |`);
  console.log(`\nmono files only: overhead ratio ${fmt(monoRatio)} (probe + ffmpeg + VAD + worker hand-off + fresh decoder per file)\n`);

  // ------------------------------------------------------------------------------------ 2. memory
  const memory: { file: string; nodeBaselineMB: number; peakMB: number; perDecodeMB: number }[] = [];
  for (const file of [files[0], files.find((f) => f.includes('stereo')) ?? files[0]]) {
    const out = execFileSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--child', file], { encoding: 'utf8' });
    const m = JSON.parse(out.trim().split('\n').pop()!) as { rssBefore: number; peak: number };
    memory.push({ file: path.relative(devDataDir(), file), nodeBaselineMB: m.rssBefore / MB, peakMB: m.peak / MB, perDecodeMB: (m.peak - m.rssBefore) / MB });
  }
  console.log('2. Peak memory of a direct decode in a fresh process (VmHWM; the process before PocketSphinx as baseline)\n');
  console.log('| file | process before decode MB | peak MB | per decode MB |');
  console.log('|---|---:|---:|---:|');
  for (const m of memory) console.log(`| ${m.file} | ${fmt(m.nodeBaselineMB, 0)} | ${fmt(m.peakMB, 0)} | ${fmt(m.perDecodeMB, 0)} |`);
  console.log('');

  // -------------------------------------------------------------------------------- 3. throughput
  const four = [...rows].sort((a, b) => b.audio - a.audio).slice(0, 4).map((r) => path.join(devDataDir(), r.file));
  const fourAudio = rows.filter((r) => four.includes(path.join(devDataDir(), r.file))).reduce((s, r) => s + r.audio * r.channels, 0);
  const seqTimes: number[] = [];
  const parTimes: number[] = [];
  const rssBefore = process.memoryUsage.rss();
  for (let i = 0; i < REPEAT; i++) {
    const pcm = await Promise.all(four.map((f) => decodeChannels(f)));
    const t0 = performance.now();
    for (const a of pcm) for (const samples of a.channels) decodePcm(model, samples, segmentsOf(samples));
    seqTimes.push((performance.now() - t0) / 1000);
    const t1 = performance.now();
    await Promise.all(four.map((f) => recognizeFile(f, { model: MODEL })));
    parTimes.push((performance.now() - t1) / 1000);
  }
  const seq = median(seqTimes);
  const par = median(parTimes);
  console.log(`3. Throughput, 4 files at once (${four.map((f) => path.basename(f)).join(', ')}; ${fmt(fourAudio, 1)} s of channel audio)\n`);
  console.log('| run | wall s | audio s per wall s | speed-up |');
  console.log('|---|---:|---:|---:|');
  console.log(`| decodePcm, one after another, one thread | ${fmt(seq)} | ${fmt(fourAudio / seq)} | 1.00 |`);
  console.log(`| recognizeFile × 4 at once, pool of ${defaultPoolSize()} | ${fmt(par)} | ${fmt(fourAudio / par)} | ${fmt(seq / par)} |`);
  console.log(`\nprocess RSS: ${fmt(rssBefore / MB, 0)} MB before, peak ${fmt(vmHwmBytes() / MB, 0)} MB (main thread + ${defaultPoolSize()} workers)`);

  const result = {
    date: new Date().toISOString(),
    machine: { cpus: cores, model: os.cpus()[0]?.model, node: process.version, poolSize: defaultPoolSize() },
    repeat: REPEAT,
    rtf: rows.map((r) => ({ ...r, directRtf: r.direct / r.audio, pipelineRtf: r.pipeline / r.audio, overhead: r.pipeline / r.direct })),
    totals: { audio: audioTotal, direct: directTotal, pipeline: pipelineTotal, overhead: pipelineTotal / directTotal, monoOverhead: monoRatio },
    memory,
    throughput: { files: four, audioSeconds: fourAudio, sequentialSeconds: seq, parallelSeconds: par, speedup: seq / par },
  };
  const dir = path.join(here, 'results');
  fs.mkdirSync(dir, { recursive: true });
  const out = path.join(dir, `engine-${result.date.replace(/[:.]/g, '-')}.json`);
  fs.writeFileSync(out, JSON.stringify(result, null, 2));
  console.log(`\nresults: ${path.relative(process.cwd(), out)}`);
}

if (process.argv[2] === '--child') await child(process.argv[3]);
else {
  try {
    await main();
  } finally {
    await closeSharedPool();
  }
}
