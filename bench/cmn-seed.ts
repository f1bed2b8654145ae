// The cepstral mean a live PocketSphinx decoder converges to, per model, on the dev audio (issue 33: the seed of a
// new stream's partials decoder, src/engine/pocketsphinx/cmnSeed.ts). The decoder's own front end (its settings,
// feat.params included) computes the cepstra of each VAD segment, as a stream feeds an utterance; frames with
// c0 < 0 are skipped, as the library's live CMN skips them. Wideband: the dev files at 16 kHz; telephony: the same
// as 8 kHz mu-law, resampled to 16 kHz as a stream's audio is.
//
//   npx tsx bench/cmn-seed.ts        (prints the -cmninit value of each model)
import koffi from 'koffi';
import { decodeChannels } from '../src/audio/decode.js';
import { decodeMuLaw, encodeMuLaw } from '../src/audio/g711.js';
import { StreamResampler } from '../src/audio/resampler.js';
import { DEFAULT_VAD_PARAMS, detectSpeech } from '../src/audio/vad.js';
import { installedModels, TELEPHONY_MODEL, WIDEBAND_MODEL } from '../src/engine/models.js';
import { loadPocketSphinx } from '../src/engine/pocketsphinx/binding.js';
import { decoderArgs, type PocketSphinxModel } from '../src/engine/pocketsphinx/decoder.js';
import { loadReferences } from '../test/helpers/devData.js';

const RATE = 16000;
const CEP = 13;
const lib = loadPocketSphinx();
const ps = koffi.load('libpocketsphinx.so.3');
const sb = koffi.load('libsphinxbase.so.3');
const ps_get_fe = ps.func('void *ps_get_fe(void *ps)');
const fe_start_utt = sb.func('int fe_start_utt(void *fe)');
const fe_end_utt = sb.func('int fe_end_utt(void *fe, _Out_ float *cepvector, _Out_ int32_t *nframes)');
const fe_process_utt = sb.func('int fe_process_utt(void *fe, const int16_t *spch, size_t nsamps, _Out_ void **cep_block, _Out_ int32_t *nframes)');
const ckd_free_2d = sb.func('void ckd_free_2d(void *ptr)');

function model(name: string): PocketSphinxModel {
  const info = installedModels().find((m) => m.name === name);
  if (!info?.files) throw new Error(`${name} is not installed`);
  return { ...info.files, sampleRate: info.sampleRate };
}

function telephone(pcm8k: Int16Array): Int16Array {
  const r = new StreamResampler(8000, RATE);
  const a = r.push(decodeMuLaw(encodeMuLaw(pcm8k)));
  const b = r.flush();
  const out = new Int16Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

async function meanFor(name: string, band: 'wide' | 'phone'): Promise<{ mean: number[]; frames: number }> {
  const m = model(name);
  const config = lib.parseConfig(decoderArgs(m));
  const decoder = lib.init(config);
  lib.freeConfig(config);
  const fe = ps_get_fe(decoder);
  const sum = new Float64Array(CEP);
  let frames = 0;
  for (const ref of loadReferences() ?? []) {
    const decoded = await decodeChannels(ref.path, { sampleRate: band === 'wide' ? RATE : 8000 });
    const pcm = band === 'wide' ? decoded.channels[ref.channel] : telephone(decoded.channels[ref.channel]);
    for (const seg of detectSpeech(pcm, RATE, DEFAULT_VAD_PARAMS)) {
      const samples = pcm.subarray(Math.round(seg.start * RATE), Math.round(seg.end * RATE));
      fe_start_utt(fe);
      const block = [null];
      const n = [0];
      if (fe_process_utt(fe, samples, samples.length, block, n) < 0) throw new Error('fe_process_utt failed');
      const row0 = koffi.decode(block[0], 'void *');
      const cep = koffi.decode(row0, 'float', n[0] * CEP) as number[];
      for (let f = 0; f < n[0]; f++) {
        if (cep[f * CEP] < 0) continue;
        for (let j = 0; j < CEP; j++) sum[j] += cep[f * CEP + j];
        frames++;
      }
      ckd_free_2d(block[0]);
      fe_end_utt(fe, new Array(CEP).fill(0), [0]);
    }
  }
  lib.free(decoder);
  return { mean: [...sum].map((s) => s / frames), frames };
}

for (const [name, band] of [[WIDEBAND_MODEL, 'wide'], [TELEPHONY_MODEL, 'phone']] as const) {
  const { mean, frames } = await meanFor(name, band);
  console.log(`${name} (${frames} frames): -cmninit ${mean.map((x) => x.toFixed(2)).join(',')}`);
}
