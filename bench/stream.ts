// Live-stream latency and capacity with the bundled engine (Engine.stream: stream worker threads, incremental
// PocketSphinx), against batch recognition of the same audio in the same run:
//
//   1. batch: recognizePcm on the audio (the worker pool), its real-time factor (RTF = seconds of work / seconds
//      of audio), and its words (their end times are the reference "end of word");
//   2. one stream, audio pushed in 100 ms chunks at real-time pace: for each word of the batch transcript, the time
//      from the moment the audio of its end was pushed to the first partial (or final) of its utterance holding that
//      many words (end of word → first partial), and from the end of the utterance's last word to its final;
//      agreement of the final words with the batch words (1 - WER of finals against batch);
//   3. N streams at once (N = 1, 2, 4, ... BENCH_MAX_STREAMS), each the same audio at real-time pace, once per
//      maxDelay of BENCH_MAX_DELAYS (default `off,4`: finals only at utterance ends, as before issue 33, then
//      stable-prefix finals within 4 s), alternated level by level so that a shared machine's load falls on both:
//      p50/p95/max from each word's end (batch times) to the final holding it, the partial lag, the finals'
//      agreement with batch, how many finals were prefixes, CPU per stream and the load average.
//
//   npx tsx bench/stream.ts          (BENCH_MAX_STREAMS=8, BENCH_FILES=5: how many dev files make the audio;
//                                     BENCH_MAX_DELAYS=off,4)
// Each level also reports the process's CPU per stream (cores per real-time stream) and the load average, so
// that runs of two builds alternated on a shared machine can be compared by ratio.
// Results: printed, and written to bench/results/stream-<time>.json.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { concatPcm } from '../src/audio/concatPcm.js';
import { decodeChannels } from '../src/audio/decode.js';
import type { StreamUpdate } from '../src/engine/engine.js';
import { closeSharedPool } from '../src/engine/pool.js';
import { PocketSphinxEngine } from '../src/engine/pocketsphinx/engine.js';
import { recognizePcm } from '../src/engine/recognize.js';
import { closeSharedStreamPool, defaultStreamThreads } from '../src/engine/streamPool.js';
import type { Word } from '../src/transcript/types.js';
import { loadReferences } from '../test/helpers/devData.js';
import { wer } from '../test/helpers/wer.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const MODEL = 'en-us:wideband';
const RATE = 16000;
const CHUNK = RATE / 10;
const MAX_STREAMS = Number(process.env.BENCH_MAX_STREAMS ?? 8);
const FILES = Number(process.env.BENCH_FILES ?? 5);
const UTTMAXSILENCE_MS = 800;

function pct(xs: number[], p: number): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}
const r3 = (x: number) => Math.round(x * 1000) / 1000;

async function audio(): Promise<Int16Array> {
  const refs = loadReferences();
  if (!refs) throw new Error('the dev data is needed');
  const files = [...new Set(refs.filter((r) => !r.audio.includes('stereo')).map((r) => r.path))].slice(0, FILES);
  const parts: Int16Array[] = [];
  for (const f of files) {
    parts.push((await decodeChannels(f, { sampleRate: RATE })).channels[0]);
    parts.push(new Int16Array(RATE * 1.5)); // a pause between speakers
  }
  return concatPcm(parts);
}

interface Received {
  at: number;
  update: StreamUpdate;
}

/** One stream at real-time pace; answers every update with its arrival time (ms from the first chunk). */
async function streamOnce(engine: PocketSphinxEngine, samples: Int16Array, maxDelay = Infinity): Promise<{ received: Received[]; sendAt: (seconds: number) => number; finals: Word[] }> {
  const received: Received[] = [];
  let t0 = 0;
  const stream = engine.stream(0, {
    model: MODEL,
    maxDelay,
    params: { uttmaxsilence: UTTMAXSILENCE_MS } as never,
    onUpdate: (update) => received.push({ at: performance.now() - t0, update }),
    onError: (error) => {
      throw error;
    },
  });
  t0 = performance.now();
  for (let i = 0; i < samples.length; i += CHUNK) {
    const due = ((i + CHUNK) / RATE) * 1000; // the chunk is complete once its last sample was "spoken"
    const wait = due - (performance.now() - t0);
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    stream.write(samples.slice(i, i + CHUNK));
  }
  const result = await stream.finish();
  // Audio of stream time s was pushed at (the end of its chunk) in ms from t0.
  const sendAt = (seconds: number) => Math.ceil((seconds * RATE) / CHUNK) * (CHUNK / RATE) * 1000;
  return { received, sendAt, finals: result.words };
}

function latencies(run: Awaited<ReturnType<typeof streamOnce>>, batch: Word[]) {
  const partial: number[] = [];
  const final: number[] = [];
  const lag: number[] = [];
  // From the utterance's end as the endpointer decides it (its speech end + uttmaxsilence, the final's `end` when
  // silence closed it) to the final: the target's 300 ms, without the endpointer's own lateness over the last word.
  const afterClose: number[] = [];
  for (const r of run.received) if (r.update.partial) lag.push(r.at - run.sendAt(r.update.partial.end));
  for (const r of run.received) {
    for (const f of r.update.finals) {
      const words = batch.filter((w) => w.end > f.start && w.start < f.end);
      if (words.length === 0) continue;
      // Every update of this utterance (partials share its start), in arrival order, with its word count.
      const updates = run.received
        .filter((u) => u.at <= r.at)
        .map((u) => ({ at: u.at, count: u.update.partial?.start === f.start ? u.update.partial.words.length : u.update.finals.find((x) => x.start === f.start)?.words.length ?? -1 }))
        .filter((u) => u.count >= 0);
      words.forEach((w, i) => {
        const first = updates.find((u) => u.count >= i + 1);
        if (first) partial.push(Math.max(0, first.at - run.sendAt(w.end)));
      });
      final.push(r.at - run.sendAt(words[words.length - 1].end));
      afterClose.push(r.at - run.sendAt(f.end));
    }
  }
  // From each word's end (batch times) to the final that holds it (the first final whose span holds its middle):
  // what maxDelay bounds.
  const wordFinal: number[] = [];
  for (const w of batch) {
    const mid = (w.start + w.end) / 2;
    const r = run.received.find((x) => x.update.finals.some((f) => f.start <= mid && mid < f.end));
    if (r) wordFinal.push(r.at - run.sendAt(w.end));
  }
  return { partial, final, lag, afterClose, wordFinal };
}

async function main(): Promise<void> {
  const samples = await audio();
  const seconds = samples.length / RATE;
  console.log(`code: ${process.env.BENCH_LABEL ?? 'this tree'}; final deadline ${process.env.SCRUBLINE_STREAM_FINAL_DEADLINE_MS ?? 'default (never shed)'}`);
  console.log(`audio: ${FILES} dev files, ${seconds.toFixed(1)} s; ${os.availableParallelism()} cores; stream threads ${defaultStreamThreads()}; load ${os.loadavg()[0].toFixed(1)}`);
  const engine = new PocketSphinxEngine();

  const t = performance.now();
  const batch = await recognizePcm([samples.slice()], RATE, { model: MODEL, engine });
  const batchSeconds = (performance.now() - t) / 1000;
  const batchWords = batch.channels[0].words;
  const batchRtf = batchSeconds / seconds;
  console.log(`batch: ${batchSeconds.toFixed(2)} s of work, RTF ${batchRtf.toFixed(3)}, ${batchWords.length} words`);

  // Before (maxDelay off: finals only at utterance ends, main's path) and after (stable-prefix finals within
  // maxDelay), alternated level by level in one run so that the machine's load falls on both alike.
  const modes = (process.env.BENCH_MAX_DELAYS ?? 'off,4').split(',').map((m) => (m === 'off' ? Infinity : Number(m)));
  const levels: Record<string, unknown>[] = [];
  for (let n = 1; n <= MAX_STREAMS; n *= 2) {
    for (const maxDelay of modes) {
      // CPU of the whole process (every thread) per stream and second of audio: what one stream costs.
      const cpu0 = process.cpuUsage();
      const runs = await Promise.all(Array.from({ length: n }, () => streamOnce(engine, samples, maxDelay)));
      const cpu = process.cpuUsage(cpu0);
      const all = runs.map((r) => latencies(r, batchWords));
      const lag = all.flatMap((x) => x.lag);
      const fin = all.flatMap((x) => x.final);
      const word = all.flatMap((x) => x.wordFinal);
      const coresPerStream = r3((cpu.user + cpu.system) / 1e6 / (n * seconds));
      const agreement = r3(runs.reduce((sum, r) => sum + 1 - wer(batchWords.map((w) => w.word), r.finals.map((w) => w.word)).wer, 0) / n);
      const finals = runs.flatMap((r) => r.received.flatMap((x) => x.update.finals));
      const prefixFinals = finals.filter((f) => f.prefix).length;
      const level = {
        streams: n,
        maxDelay: Number.isFinite(maxDelay) ? maxDelay : 'off',
        wordFinalP50: r3(pct(word, 50)),
        wordFinalP95: r3(pct(word, 95)),
        wordFinalMax: r3(Math.max(...word)),
        lastWordFinalP95: r3(pct(fin, 95)),
        lagP50: r3(pct(lag, 50)),
        lagP95: r3(pct(lag, 95)),
        agreement,
        finals: finals.length,
        prefixFinals,
        coresPerStream,
        load: r3(os.loadavg()[0]),
      };
      levels.push(level);
      console.log(`${n} streams, maxDelay ${level.maxDelay}: word end → its final p50 ${level.wordFinalP50} ms, p95 ${level.wordFinalP95} ms, max ${level.wordFinalMax} ms; partial lag p95 ${level.lagP95} ms; finals agree with batch ${(agreement * 100).toFixed(1)}% (${finals.length} finals, ${prefixFinals} prefix); CPU ${coresPerStream} cores per stream; load ${level.load}`);
    }
  }
  const single = levels[0];
  const sustained = 0;
  const out = path.join(here, 'results');
  fs.mkdirSync(out, { recursive: true });
  const file = path.join(out, `stream-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  fs.writeFileSync(file, JSON.stringify({ label: process.env.BENCH_LABEL, finalDeadline: process.env.SCRUBLINE_STREAM_FINAL_DEADLINE_MS ?? 'default', audioSeconds: seconds, cores: os.availableParallelism(), load: os.loadavg(), batch: { seconds: batchSeconds, rtf: batchRtf }, single, levels, sustained }, null, 2));
  console.log(`written ${file}`);
  await closeSharedStreamPool();
  await closeSharedPool();
}

await main();
