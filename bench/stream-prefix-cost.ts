// What stable-prefix finals (maxDelay, issue 33) cost in decoding work, CPU-independently: 10 ms frames the final
// passes decode per second of audio (every pass counted; prefix passes apart), with the finals' agreement with the
// batch transcript and each word's delay in stream time (audio heard when its final came − the word's end; no
// arrival times, so a pass takes no stream time: the CPU a pass takes is what frames/s measures). A channel's
// finals half as the pool runs it (no partials decoder), uttmaxsilence 800 ms as bench/stream.ts.
// Streams: the dev files one after another with 1.5 s pauses (a call's turns), and two runs of unpaused speech
// (LJ001-0001+0003, LJ001-0005+0006+0007: one utterance each for the endpointer).
//
//   npx tsx bench/stream-prefix-cost.ts       (BENCH_RTF=0.3: the pass-speed estimate plans use, fixed)
//   VARIANTS='[["off",null],["4",4],["4 window 5",4,{"windowSeconds":5}]]' npx tsx bench/stream-prefix-cost.ts
//   (each variant: [name, maxDelay or null (off), PrefixTuning fields to change])
import { concatPcm } from '../src/audio/concatPcm.js';
import { decodeChannels } from '../src/audio/decode.js';
import { DEFAULT_VAD_PARAMS, detectSpeech } from '../src/audio/vad.js';
import { installedModels, WIDEBAND_MODEL } from '../src/engine/models.js';
import { decodePcm } from '../src/engine/pocketsphinx/decoder.js';
import { PREFIX_TUNING, StreamDecoder, type PrefixTuning } from '../src/engine/pocketsphinx/streamDecoder.js';
import { loadReferences } from '../test/helpers/devData.js';
import { wer } from '../test/helpers/wer.js';

const RATE = 16000;
const CHUNK = RATE / 10;
const vad = { ...DEFAULT_VAD_PARAMS, uttmaxsilence: 800 };
const info = installedModels().find((m) => m.name === WIDEBAND_MODEL);
if (!info?.files) throw new Error(`${WIDEBAND_MODEL} is not installed`);
const model = { ...info.files, sampleRate: RATE };
const refs = (loadReferences() ?? []).filter((r) => !r.audio.includes('stereo'));
if (refs.length === 0) throw new Error('the dev data is needed');
const load = async (pattern: RegExp) => (await decodeChannels(refs.find((r) => pattern.test(r.audio))!.path, { sampleRate: RATE })).channels[0];

const streams: { name: string; pcm: Int16Array }[] = [];
const turns: Int16Array[] = [];
for (const r of refs) turns.push((await decodeChannels(r.path, { sampleRate: RATE })).channels[0], new Int16Array(RATE * 1.5));
streams.push({ name: 'turns', pcm: concatPcm(turns) });
streams.push({ name: 'unpaused-20s', pcm: concatPcm([await load(/LJ001-0001/), await load(/LJ001-0003/), new Int16Array(RATE)]) });
streams.push({ name: 'unpaused-3', pcm: concatPcm([await load(/LJ001-0005/), await load(/LJ001-0006/), await load(/LJ001-0007/), new Int16Array(RATE)]) });
const batch = streams.map((s) => decodePcm(model, s.pcm, detectSpeech(s.pcm, RATE, vad)).words.map((w) => w.word));
const audioSeconds = streams.reduce((n, s) => n + s.pcm.length / RATE, 0);

// A fixed pass-speed estimate (the idle machine's, docs/streams.md): plans depend on stream time only.
const RTF = Number(process.env.BENCH_RTF ?? 0.3);
const pct = (xs: number[], p: number) => (xs.length ? [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))] : NaN);
const specs: [string, number | null, Partial<PrefixTuning>?][] = JSON.parse(process.env.VARIANTS ?? '[["off",null],["4",4],["2",2],["0.7",0.7]]');
console.log(`${streams.length} streams, ${audioSeconds.toFixed(1)} s of audio`);
for (const [name, maxDelay, tune] of specs) {
  let frames = 0, prefixFrames = 0, passes = 0, prefixFinals = 0, agreeSum = 0, wordsN = 0;
  const delays: number[] = [];
  for (const [i, s] of streams.entries()) {
    const d = new StreamDecoder(model, vad, 'phrases', false, Infinity, maxDelay ?? Infinity, { ...PREFIX_TUNING, rtf: RTF, ...tune });
    const words: string[] = [];
    for (let at = 0; at <= s.pcm.length; at += CHUNK) {
      const step = at < s.pcm.length ? d.accept(s.pcm.slice(at, at + CHUNK)) : d.finish();
      for (const f of step.finals) {
        if (f.prefix) prefixFinals++;
        for (const w of f.words) delays.push(Math.max(0, step.heardSeconds - w.end));
        words.push(...f.words.map((w) => w.word));
      }
    }
    d.free();
    frames += d.cost.frames;
    prefixFrames += d.cost.prefixFrames;
    passes += d.cost.passes;
    agreeSum += (1 - wer(batch[i], words).wer) * batch[i].length;
    wordsN += batch[i].length;
  }
  console.log(
    `maxDelay ${name}: ${(frames / audioSeconds).toFixed(1)} frames decoded per audio-s (prefix passes ${(prefixFrames / audioSeconds).toFixed(1)}), ${passes} passes, ` +
      `${prefixFinals} prefix finals; agreement with batch ${((agreeSum / wordsN) * 100).toFixed(1)}%; word end -> final (stream time) p50 ${pct(delays, 50).toFixed(2)} p95 ${pct(delays, 95).toFixed(2)} max ${pct(delays, 100).toFixed(2)} s`,
  );
}
