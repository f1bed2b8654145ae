// PocketSphinx stream decoder variants (how finals are made, extra decoder settings) on the bench/stream.ts audio,
// in one process, round by round: CPU per s of audio, step CPU times (p50, p95, max; steps over 300 ms listed
// with their stream time), agreement of the finals with batch and their WER against the reference transcripts.
//
//   VARIANTS='[["phrases","phrases",[]],["rescored","rescored",[]]]' ROUNDS=2 npx tsx bench/stream-modes.ts
//   (each variant: [name, finals, extra decoder arguments]; PARTIALS=0: no partials decoder, the finals' cost alone)
import os from 'node:os';
import { decodeChannels } from '../src/audio/decode.js';
import { DEFAULT_VAD_PARAMS, detectSpeech } from '../src/audio/vad.js';
import { PocketSphinxEngine } from '../src/engine/pocketsphinx/engine.js';
import { StreamDecoder } from '../src/engine/pocketsphinx/streamDecoder.js';
import { decodePcm } from '../src/engine/pocketsphinx/decoder.js';
import { loadReferences } from '../test/helpers/devData.js';
import { wer } from '../test/helpers/wer.js';
const RATE = 16000, CHUNK = 1600;
const refs = loadReferences()!;
const files = [...new Set(refs.filter((r) => !r.audio.includes('stereo')).map((r) => r.path))].slice(0, Number(process.env.BENCH_FILES ?? 5));
const refWords = files.flatMap((f) => refs.find((r) => r.path === f)!.text.toLowerCase().replace(/[^a-z' ]/g, ' ').split(/\s+/).filter(Boolean));
const parts: Int16Array[] = [];
for (const f of files) { parts.push((await decodeChannels(f, { sampleRate: RATE })).channels[0]); parts.push(new Int16Array(RATE * 1.5)); }
const samples = new Int16Array(parts.reduce((n, p) => n + p.length, 0)); let at = 0; for (const p of parts) { samples.set(p, at); at += p.length; }
const audioSeconds = samples.length / RATE;
const base = new PocketSphinxEngine().resolve('en-us:wideband');
const vad = { ...DEFAULT_VAD_PARAMS, uttmaxsilence: 800 };
const batch = decodePcm(base, samples, detectSpeech(samples, RATE, vad)).words.map((w) => w.word);
console.log(`batch WER vs ref ${(wer(refWords, batch).wer * 100).toFixed(1)}%`);
const variants: Record<string, () => StreamDecoder> = {};
const specs: [string, string, string[]][] = JSON.parse(process.env.VARIANTS ?? '[["rescored","rescored",[]],["live","live",[]]]');
for (const [name, finals, extra] of specs) variants[name] = () => new StreamDecoder({ ...base, extraArgs: extra }, vad, finals as never, process.env.PARTIALS !== "0");
const rounds = Number(process.env.ROUNDS ?? 2);
for (let r = 0; r < rounds; r++) for (const name of Object.keys(variants)) {
  const c0 = process.cpuUsage();
  const d = variants[name]();
  let maxStep = 0; const words: string[] = []; let sum = 0; const steps: number[] = []; const big: string[] = [];
  for (let i = 0; i < samples.length; i += CHUNK) {
    const s0 = process.cpuUsage();
    const step = d.accept(samples.slice(i, i + CHUNK));
    const s = process.cpuUsage(s0); const ms = (s.user + s.system) / 1000; sum += ms; steps.push(ms);
    if (step.finals.length) maxStep = Math.max(maxStep, ms);
    if (ms > 300) big.push(`${(i / RATE).toFixed(1)}s:${ms.toFixed(0)}`);
    for (const f of step.finals) words.push(...f.words.map((w) => w.word));
  }
  for (const f of d.finish().finals) words.push(...f.words.map((w) => w.word));
  d.free();
  const c = process.cpuUsage(c0);
  steps.sort((a, b) => a - b);
  console.log(`${name} r${r}: CPU ${((c.user + c.system) / 1e6 / audioSeconds).toFixed(3)} s/s; step p50 ${steps[steps.length >> 1].toFixed(1)} p95 ${steps[Math.floor(steps.length * 0.95)].toFixed(1)} max ${steps[steps.length - 1].toFixed(0)} ms; max final step ${maxStep.toFixed(0)} ms; agree ${((1 - wer(batch, words).wer) * 100).toFixed(1)}%; WER ${(wer(refWords, words).wer * 100).toFixed(1)}%; load ${os.loadavg()[0].toFixed(1)}; big ${big.join(' ')}`);
}
