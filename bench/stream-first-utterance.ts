// A stream's first utterance against the same audio later in the stream (issue 33: the cepstral mean of a new
// stream). Each dev file (LJSpeech and jfk.wav) is streamed twice in one stream ([file, 2 s silence, file, 1 s]) in
// 100 ms chunks; the partials decoder's own words of each copy (MODE=none: the partials-only search, whose words
// fill shed finals; MODE=live: `finals: 'live'`) are compared with the batch transcript of the file alone.
// SEED=off starts the live cepstral mean from the model's feat.params (-cmninit 40,3,-1), as before the seed.
// BAND=phone: the telephony model on the files as 8 kHz mu-law resampled to 16 kHz.
//
//   npx tsx bench/stream-first-utterance.ts;  SEED=off npx tsx bench/stream-first-utterance.ts
import { concatPcm } from '../src/audio/concatPcm.js';
import { decodeChannels } from '../src/audio/decode.js';
import { decodeMuLaw, encodeMuLaw } from '../src/audio/g711.js';
import { StreamResampler } from '../src/audio/resampler.js';
import { DEFAULT_VAD_PARAMS, detectSpeech } from '../src/audio/vad.js';
import { installedModels, TELEPHONY_MODEL, WIDEBAND_MODEL } from '../src/engine/models.js';
import { decodePcm } from '../src/engine/pocketsphinx/decoder.js';
import { StreamDecoder } from '../src/engine/pocketsphinx/streamDecoder.js';
import { loadReferences } from '../test/helpers/devData.js';
import { wer } from '../test/helpers/wer.js';

const RATE = 16000;
const phone = process.env.BAND === 'phone';
const info = installedModels().find((m) => m.name === (phone ? TELEPHONY_MODEL : WIDEBAND_MODEL));
if (!info?.files) throw new Error('model not installed');
// A -cmninit of the caller's own turns the seed off (cmnSeed.ts), and feat.params' own value then applies.
const model = { ...info.files, sampleRate: RATE, extraArgs: process.env.SEED === 'off' ? ['-cmninit', '40,3,-1'] : [] };
const mode = (process.env.MODE ?? 'none') as 'none' | 'live';

async function audio(file: string): Promise<Int16Array> {
  if (!phone) return (await decodeChannels(file, { sampleRate: RATE })).channels[0];
  const r = new StreamResampler(8000, RATE);
  const narrow = decodeMuLaw(encodeMuLaw((await decodeChannels(file, { sampleRate: 8000 })).channels[0]));
  return concatPcm([r.push(narrow), r.flush()]);
}

const rows: [number, number][] = [];
for (const ref of (loadReferences() ?? []).filter((r) => !r.audio.includes('stereo'))) {
  const f = await audio(ref.path);
  const batch = decodePcm(model, f, detectSpeech(f, RATE, DEFAULT_VAD_PARAMS)).words.map((w) => w.word);
  const pcm = concatPcm([f, new Int16Array(RATE * 2), f, new Int16Array(RATE)]);
  const second = (f.length + RATE * 2) / RATE;
  const d = new StreamDecoder(model, DEFAULT_VAD_PARAMS, mode, true);
  const words: { word: string; start: number; end: number }[] = [];
  for (let i = 0; i <= pcm.length; i += RATE / 10) {
    const step = i < pcm.length ? d.accept(pcm.slice(i, i + RATE / 10)) : d.finish();
    for (const x of [...(step.liveFinals ?? []), ...step.finals]) words.push(...x.words);
  }
  d.free();
  const agree = (ws: typeof words) => 1 - wer(batch, ws.map((w) => w.word)).wer;
  const row: [number, number] = [agree(words.filter((w) => w.end <= second)), agree(words.filter((w) => w.start >= second))];
  rows.push(row);
  console.log(`${ref.audio}: first ${(row[0] * 100).toFixed(0)}%, again ${(row[1] * 100).toFixed(0)}%`);
}
const mean = (i: 0 | 1) => ((rows.reduce((s, r) => s + r[i], 0) / rows.length) * 100).toFixed(1);
console.log(`${phone ? TELEPHONY_MODEL : WIDEBAND_MODEL}, MODE=${mode}, seed ${process.env.SEED === 'off' ? 'off' : 'on'}: agreement with batch, first copy ${mean(0)}%, same audio again ${mean(1)}% (${rows.length} files)`);
