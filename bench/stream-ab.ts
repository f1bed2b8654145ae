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
const batchWords = decodePcm(model, samples, detectSpeech(samples, RATE, vad)).words;
const batch = batchWords.map((w) => w.word);
const pct = (xs: number[], p: number) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]; };
const rounds = Number(process.env.ROUNDS ?? 3);
const split = process.env.SPLIT !== '0';
const rows: Record<string, number[][]> = { old: [], new: [] };
/** One decoder step: which decoder (timeline), when its audio arrived (ms), its CPU ms, what it produced. */
interface Traced {
  k: number; arrival: number; compute: number;
  /** A partial sent (its utterance's start, its word count). */
  partial?: { start: number; count: number };
  finals: { start: number; end: number; count: number; lastEnd?: number }[];
}
const traces: Record<string, Traced[][]> = { old: [], new: [] };
/** Latencies of a traced round with every step's CPU time × `scale`: each decoder on a core of its own. */
function simulate(trace: Traced[], scale: number): { lag: number[]; fin: number[]; word: number[] } {
  const ready: number[] = []; const lag: number[] = []; const fin: number[] = [];
  const updates: { at: number; start: number; count: number; final?: { end: number } }[] = [];
  for (const t of trace) {
    ready[t.k] = Math.max(ready[t.k] ?? 0, t.arrival) + t.compute * scale;
    if (t.partial) { lag.push(ready[t.k] - t.arrival); updates.push({ at: ready[t.k], ...t.partial }); }
    for (const f of t.finals) {
      if (f.lastEnd !== undefined) fin.push(ready[t.k] - f.lastEnd * 1000);
      updates.push({ at: ready[t.k], start: f.start, count: f.count, final: { end: f.end } });
    }
  }
  // End of a word (batch's word end, pushed with the chunk holding it) → the first update of its utterance that
  // holds that many words, as bench/stream.ts measures it.
  const word: number[] = [];
  const sendAt = (seconds: number) => Math.ceil((seconds * RATE) / CHUNK) * (CHUNK / RATE) * 1000;
  for (const u of updates) {
    if (!u.final) continue;
    const words = batchWords.filter((w) => w.end > u.start && w.start < u.final!.end);
    const mine = updates.filter((x) => x.start === u.start && x.at <= u.at).sort((a, b) => a.at - b.at);
    words.forEach((w, i) => {
      const first = mine.find((x) => x.count >= i + 1);
      if (first) word.push(Math.max(0, first.at - sendAt(w.end)));
    });
  }
  return { lag, fin, word };
}
const batchCpu: number[] = [];
for (let r = 0; r < rounds; r++) for (const which of r % 2 === 0 ? ['old', 'new', 'batch'] : ['batch', 'new', 'old']) {
  const load = os.loadavg()[0];
  const cpu0 = process.cpuUsage();
  if (which === 'batch') {
    // Batch recognition of the same audio (a fresh decoder, as a batch job's): what a stream costs against it.
    decodePcm(model, samples, detectSpeech(samples, RATE, vad));
    const c = process.cpuUsage(cpu0);
    batchCpu.push((c.user + c.system) / 1e6 / audioSeconds);
    console.log(`batch round ${r}: CPU ${batchCpu[batchCpu.length - 1].toFixed(3)} s per s of audio; load ${load.toFixed(1)}`);
    continue;
  }
  const finals = (process.env.FINALS ?? 'phrases') as 'phrases';
  const ds = which === 'old' ? [new OldDecoder(model, vad)] : split ? [new NewDecoder(model, vad, 'none'), new NewDecoder(model, vad, finals, false)] : [new NewDecoder(model, vad, finals)];
  let busy = 0; const words: string[] = []; const trace: Traced[] = [];
  let finalEnd = -1;
  for (let i = 0; i < samples.length; i += CHUNK) {
    const arrival = ((i + CHUNK) / RATE) * 1000;
    // The finals decoder first (when split): a partial whose utterance's final is out by then is dropped.
    for (let k = ds.length - 1; k >= 0; k--) {
      const t0 = performance.now(); const c0 = process.cpuUsage();
      const step = ds[k].accept(samples.slice(i, i + CHUNK));
      // CPU time, not wall: what the step takes on a core of its own (the shared machine's load left out).
      const c1 = process.cpuUsage(c0); const compute = (c1.user + c1.system) / 1000; busy += performance.now() - t0;
      const finals: Traced['finals'] = [];
      for (const f of step.finals) { finalEnd = Math.max(finalEnd, f.end); words.push(...f.words.map((w: { word: string }) => w.word)); finals.push({ start: f.start, end: f.end, count: f.words.length, ...(f.words.length > 0 && { lastEnd: f.words[f.words.length - 1].end }) }); }
      const p = step.partial && step.partial.start >= finalEnd ? { start: step.partial.start, count: step.partial.words.length } : undefined;
      trace.push({ k, arrival, compute, ...(p && { partial: p }), finals });
    }
  }
  for (const d of ds) {
    const t0 = performance.now(); const last = d.finish(); busy += performance.now() - t0; d.free();
    for (const f of last.finals) words.push(...f.words.map((w: { word: string }) => w.word));
  }
  const cpu = process.cpuUsage(cpu0);
  const cores = (cpu.user + cpu.system) / 1e6 / audioSeconds;
  const agree = 1 - wer(batch, words).wer;
  const { lag, fin, word } = simulate(trace, 1);
  traces[which].push(trace);
  rows[which].push([pct(lag, 50), pct(lag, 95), pct(fin, 50), pct(fin, 95), cores, busy / 1000 / audioSeconds, agree, load, pct(word, 50), pct(word, 95)]);
  console.log(`${which} round ${r}: end of word → first partial holding it p50 ${pct(word, 50).toFixed(0)} p95 ${pct(word, 95).toFixed(0)} ms; partial lag p50 ${pct(lag, 50).toFixed(0)} p95 ${pct(lag, 95).toFixed(0)} ms; final (end of last word → final) p50 ${pct(fin, 50).toFixed(0)} p95 ${pct(fin, 95).toFixed(0)} ms; CPU ${cores.toFixed(3)} cores/stream (decode wall ${(busy / 1000 / audioSeconds).toFixed(3)}); agree with batch ${(agree * 100).toFixed(1)}%; load ${load.toFixed(1)}`);
}
const med = (xs: number[]) => pct(xs, 50);
for (const which of ['old', 'new']) { const c = (k: number) => med(rows[which].map((x) => x[k])); console.log(`${which} median: end of word → partial p50 ${c(8).toFixed(0)} p95 ${c(9).toFixed(0)}; lag p50 ${c(0).toFixed(0)} p95 ${c(1).toFixed(0)}; final p50 ${c(2).toFixed(0)} p95 ${c(3).toFixed(0)}; CPU ${c(4).toFixed(3)} cores/stream; agree ${(c(6) * 100).toFixed(1)}%`); }
const cOld = med(rows.old.map((x) => x[4])), cNew = med(rows.new.map((x) => x[4]));
const cBatch = med(batchCpu);
console.log(`batch: CPU ${cBatch.toFixed(3)} s per s of audio (median); per stream old/batch ×${(cOld / cBatch).toFixed(2)}, new/batch ×${(cNew / cBatch).toFixed(2)}`);
// The same traces with every CPU time scaled so that batch costs IDLE_BATCH_RTF (bench/stream.ts on the idle
// machine: 0.140): an estimate of the latencies and streams per core on an idle core, by the ratios measured here.
const idle = Number(process.env.IDLE_BATCH_RTF ?? 0.14);
for (const which of ['old', 'new']) {
  const sims = traces[which].map((t) => simulate(t, idle / cBatch));
  const m = (f: (x: { lag: number[]; fin: number[]; word: number[] }) => number) => med(sims.map(f));
  const perStream = (which === 'old' ? cOld : cNew) * (idle / cBatch);
  console.log(`${which} scaled to batch RTF ${idle}: end of word → partial p50 ${m((x) => pct(x.word, 50)).toFixed(0)} p95 ${m((x) => pct(x.word, 95)).toFixed(0)} ms; lag p50 ${m((x) => pct(x.lag, 50)).toFixed(0)} p95 ${m((x) => pct(x.lag, 95)).toFixed(0)} ms; final p50 ${m((x) => pct(x.fin, 50)).toFixed(0)} p95 ${m((x) => pct(x.fin, 95)).toFixed(0)} ms; ${perStream.toFixed(3)} CPU-s per s → ${(1 / perStream).toFixed(1)} streams per core`);
}
console.log(`CPU per stream new/old ×${(cNew / cOld).toFixed(2)}; audio ${audioSeconds.toFixed(1)} s; load now ${os.loadavg()[0].toFixed(1)}`);
