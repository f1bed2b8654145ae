// The live PocketSphinx decoder of this tree against another build's, in one process, alternating rounds (the
// shared machine's load hits both alike): one stream of the bench/stream.ts audio fed in 100 ms chunks, at
// real-time pace simulated from each step's CPU time (a step's result is ready at max(previous ready, its audio's
// arrival) + its CPU time), so the latencies leave the machine's load out; the CPU per stream does not.
//
//   git archive <rev> | tar -x -C /tmp/old && ln -s $PWD/node_modules /tmp/old/node_modules
//   OLD_TREE=/tmp/old npx tsx bench/stream-ab.ts      (ROUNDS=2, BENCH_FILES=5)
//
// Prints per round and median: partial lag p50/p95, end of last word → final p50/p95, CPU per stream, the
// agreement of finals with batch, the load. This tree's channel is run as the stream pool runs it: split into a
// partials decoder and a finals decoder (engine/streamPool.ts), each on a simulated core of its own (two
// timelines); SPLIT=0: one decoder doing both, as the old build. FINALS=rescored|phrases picks this tree's finals.
import os from 'node:os';
import path from 'node:path';
import { decodeChannels } from '../src/audio/decode.js';
import { DEFAULT_VAD_PARAMS } from '../src/audio/vad.js';
import { PocketSphinxEngine } from '../src/engine/pocketsphinx/engine.js';
import { StreamDecoder as NewDecoder } from '../src/engine/pocketsphinx/streamDecoder.js';
import { decodePcm } from '../src/engine/pocketsphinx/decoder.js';
import { detectSpeech } from '../src/audio/vad.js';
import { loadReferences } from '../test/helpers/devData.js';
import { wer } from '../test/helpers/wer.js';
const oldTree = process.env.OLD_TREE;
if (!oldTree) throw new Error('OLD_TREE: the folder of the build to compare with');
const { StreamDecoder: OldDecoder } = (await import(path.join(path.resolve(oldTree), 'src/engine/pocketsphinx/streamDecoder.ts'))) as { StreamDecoder: typeof NewDecoder };
const RATE = 16000, CHUNK = 1600;
const refs = loadReferences()!;
const files = [...new Set(refs.filter((r) => !r.audio.includes('stereo')).map((r) => r.path))].slice(0, Number(process.env.BENCH_FILES ?? 5));
const parts: Int16Array[] = [];
for (const f of files) { parts.push((await decodeChannels(f, { sampleRate: RATE })).channels[0]); parts.push(new Int16Array(RATE * 1.5)); }
const samples = new Int16Array(parts.reduce((n, p) => n + p.length, 0)); let at = 0; for (const p of parts) { samples.set(p, at); at += p.length; }
const audioSeconds = samples.length / RATE;
const model = new PocketSphinxEngine().resolve('en-us:wideband');
const vad = { ...DEFAULT_VAD_PARAMS, uttmaxsilence: 800 };
const batch = decodePcm(model, samples, detectSpeech(samples, RATE, vad)).words.map((w) => w.word);
const pct = (xs: number[], p: number) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]; };
const rounds = Number(process.env.ROUNDS ?? 3);
const split = process.env.SPLIT !== '0';
const rows: Record<string, number[][]> = { old: [], new: [] };
for (let r = 0; r < rounds; r++) for (const which of r % 2 === 0 ? ['old', 'new'] : ['new', 'old']) {
  const load = os.loadavg()[0];
  const cpu0 = process.cpuUsage();
  const finals = (process.env.FINALS ?? 'phrases') as 'phrases';
  const ds = which === 'old' ? [new OldDecoder(model, vad)] : split ? [new NewDecoder(model, vad, 'none'), new NewDecoder(model, vad, finals, false)] : [new NewDecoder(model, vad, finals)];
  const ready = ds.map(() => 0); let busy = 0; const lag: number[] = []; const fin: number[] = []; const words: string[] = [];
  let finalEnd = -1;
  for (let i = 0; i < samples.length; i += CHUNK) {
    const arrival = ((i + CHUNK) / RATE) * 1000;
    // The finals decoder first (when split): a partial whose utterance's final is ready by then is dropped.
    for (let k = ds.length - 1; k >= 0; k--) {
      const t0 = performance.now(); const c0 = process.cpuUsage();
      const step = ds[k].accept(samples.slice(i, i + CHUNK));
      // CPU time, not wall: what the step takes on a core of its own (the shared machine's load left out).
      const c1 = process.cpuUsage(c0); const compute = (c1.user + c1.system) / 1000; busy += performance.now() - t0;
      ready[k] = Math.max(ready[k], arrival) + compute;
      if (step.partial && step.partial.start >= finalEnd) lag.push(ready[k] - arrival);
      for (const f of step.finals) { finalEnd = Math.max(finalEnd, f.end); words.push(...f.words.map((w: { word: string }) => w.word)); if (f.words.length) fin.push(ready[k] - f.words[f.words.length - 1].end * 1000); }
    }
  }
  for (const d of ds) {
    const t0 = performance.now(); const last = d.finish(); busy += performance.now() - t0; d.free();
    for (const f of last.finals) words.push(...f.words.map((w: { word: string }) => w.word));
  }
  const cpu = process.cpuUsage(cpu0);
  const cores = (cpu.user + cpu.system) / 1e6 / audioSeconds;
  const agree = 1 - wer(batch, words).wer;
  rows[which].push([pct(lag, 50), pct(lag, 95), pct(fin, 50), pct(fin, 95), cores, busy / 1000 / audioSeconds, agree, load]);
  console.log(`${which} round ${r}: partial lag p50 ${pct(lag, 50).toFixed(0)} p95 ${pct(lag, 95).toFixed(0)} ms; final (end of last word → final) p50 ${pct(fin, 50).toFixed(0)} p95 ${pct(fin, 95).toFixed(0)} ms; CPU ${cores.toFixed(3)} cores/stream (decode wall ${(busy / 1000 / audioSeconds).toFixed(3)}); agree with batch ${(agree * 100).toFixed(1)}%; load ${load.toFixed(1)}`);
}
const med = (xs: number[]) => pct(xs, 50);
// Batch recognition of the same audio (a fresh decoder, as the batch pool's jobs), timed after the rounds: what a
// stream costs against it, by ratio in the same run (the machine's load hits both).
const batchCpu: number[] = [];
for (let r = 0; r < rounds; r++) {
  const c0 = process.cpuUsage();
  decodePcm(model, samples, detectSpeech(samples, RATE, vad));
  const c = process.cpuUsage(c0);
  batchCpu.push((c.user + c.system) / 1e6 / audioSeconds);
}
const cBatch = med(batchCpu);
console.log(`batch: CPU ${batchCpu.map((x) => x.toFixed(3)).join(', ')} s per s of audio; per stream old/batch ×${(med(rows.old.map((x) => x[4])) / cBatch).toFixed(2)}, new/batch ×${(med(rows.new.map((x) => x[4])) / cBatch).toFixed(2)}`);
for (const which of ['old', 'new']) { const c = (k: number) => med(rows[which].map((x) => x[k])); console.log(`${which} median: lag p50 ${c(0).toFixed(0)} p95 ${c(1).toFixed(0)}; final p50 ${c(2).toFixed(0)} p95 ${c(3).toFixed(0)}; CPU ${c(4).toFixed(3)} cores/stream; agree ${(c(6) * 100).toFixed(1)}%`); }
const cOld = med(rows.old.map((x) => x[4])), cNew = med(rows.new.map((x) => x[4]));
console.log(`CPU per stream new/old ×${(cNew / cOld).toFixed(2)}; audio ${audioSeconds.toFixed(1)} s; load now ${os.loadavg()[0].toFixed(1)}`);
