// A stream's first utterance decodes as well as the same audio heard later in the stream (issue 33): the partials
// decoder's live cepstral mean starts from a typical mean of the model's band (engine/pocketsphinx/cmnSeed.ts),
// not feat.params' cold 40,3,-1 (then its first copy agreed 36% with batch against 74% for the second on the
// wideband dev files, 5% against 60% on telephone audio: bench/stream-first-utterance.ts). Real engine, real audio;
// word agreement with the batch transcript, never the clock.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { concatPcm } from '../../src/audio/concatPcm.js';
import { decodeChannels } from '../../src/audio/decode.js';
import { decodeMuLaw, encodeMuLaw } from '../../src/audio/g711.js';
import { StreamResampler } from '../../src/audio/resampler.js';
import { DEFAULT_VAD_PARAMS, detectSpeech } from '../../src/audio/vad.js';
import { installedModels, TELEPHONY_MODEL } from '../../src/engine/models.js';
import { cmnSeedArgs, CMN_SEEDS, seededFeatParams } from '../../src/engine/pocketsphinx/cmnSeed.js';
import { decodePcm, type PocketSphinxModel } from '../../src/engine/pocketsphinx/decoder.js';
import { StreamDecoder } from '../../src/engine/pocketsphinx/streamDecoder.js';
import { devDataSkip, loadReferences } from '../helpers/devData.js';
import { pocketSphinxModel } from '../helpers/models.js';
import { wer } from '../helpers/wer.js';

const RATE = 16000;
const FILES = [/LJ001-0002/, /LJ001-0004/, /LJ001-0007/];

async function dev(pattern: RegExp, phone: boolean): Promise<Int16Array> {
  const file = (loadReferences() ?? []).find((r) => pattern.test(r.audio));
  assert.ok(file, `a dev file matching ${pattern}`);
  if (!phone) return (await decodeChannels(file.path, { sampleRate: RATE })).channels[0];
  const r = new StreamResampler(8000, RATE);
  return concatPcm([r.push(decodeMuLaw(encodeMuLaw((await decodeChannels(file.path, { sampleRate: 8000 })).channels[0]))), r.flush()]);
}

/** The partials decoder's own words of the audio streamed twice in one stream: agreement with batch of each copy. */
function firstAndAgain(model: PocketSphinxModel, f: Int16Array): [number, number] {
  const batch = decodePcm(model, f, detectSpeech(f, RATE, DEFAULT_VAD_PARAMS)).words.map((w) => w.word);
  const pcm = concatPcm([f, new Int16Array(RATE * 2), f, new Int16Array(RATE)]);
  const again = (f.length + RATE * 2) / RATE;
  const decoder = new StreamDecoder(model, DEFAULT_VAD_PARAMS, 'none', true);
  const words: { word: string; start: number; end: number }[] = [];
  try {
    for (let i = 0; i <= pcm.length; i += RATE / 10) {
      const step = i < pcm.length ? decoder.accept(pcm.slice(i, i + RATE / 10)) : decoder.finish();
      for (const x of step.liveFinals ?? []) words.push(...x.words);
    }
  } finally {
    decoder.free();
  }
  const agree = (ws: typeof words) => 1 - wer(batch, ws.map((w) => w.word)).wer;
  return [agree(words.filter((w) => w.end <= again)), agree(words.filter((w) => w.start >= again))];
}

async function check(model: PocketSphinxModel, phone: boolean): Promise<void> {
  const rows: [number, number][] = [];
  for (const pattern of FILES) rows.push(firstAndAgain(model, await dev(pattern, phone)));
  const mean = (i: 0 | 1) => rows.reduce((s, r) => s + r[i], 0) / rows.length;
  const shown = rows.map((r) => r.map((x) => `${(x * 100).toFixed(0)}%`).join('/')).join(', ');
  assert.ok(mean(1) >= 0.5, `the same audio later in the stream agrees with batch (${shown})`);
  assert.ok(mean(0) >= mean(1) - 0.1, `the first copy as good as the second: first/again ${shown}`);
}

describe('the first utterance of a stream', { skip: devDataSkip() }, () => {
  test('wideband: the partials decoder decodes the first copy of the audio as well as the same audio later', async () => {
    await check(pocketSphinxModel(), false);
  });

  const telephony = installedModels().find((m) => m.name === TELEPHONY_MODEL);
  test('telephony: the same on telephone-band audio, with the telephone-band seed', { skip: !telephony?.installed && 'telephony model not built' }, async () => {
    const model = pocketSphinxModel(TELEPHONY_MODEL);
    assert.ok(cmnSeedArgs(model).length === 2);
    await check(model, true);
  });
});

describe('cmnSeed: the seeded feat.params', () => {
  const enUs = '-lowerf 130\n-upperf 6800\n-nfilt 25\n-transform dct\n-lifter 22\n-feat 1s_c_d_dd\n-cmn current\n-cmninit 40,3,-1\n';
  test('the model front end measured: the -cmninit line replaced by the band seed, the rest kept', () => {
    const seeded = seededFeatParams(enUs, CMN_SEEDS.wideband)!;
    assert.match(seeded, new RegExp(`^-cmninit ${CMN_SEEDS.wideband.join(',')}$`, 'm'));
    assert.equal(seeded.match(/^-cmninit/gm)?.length, 1);
    assert.match(seeded, /^-cmn current$/m);
    assert.match(seeded, /^-nfilt 25$/m);
  });

  test('another front end gets no seed (a mean measured with other filters would be wrong)', () => {
    assert.equal(seededFeatParams(enUs.replace('-nfilt 25', '-nfilt 40'), CMN_SEEDS.wideband), null);
    assert.equal(seededFeatParams(enUs.replace('-upperf 6800', '-upperf 3500'), CMN_SEEDS.wideband), null);
  });

  test("the caller's own -cmninit or -featparams is kept: no seed", () => {
    const model = pocketSphinxModel();
    assert.deepEqual(cmnSeedArgs({ ...model, extraArgs: ['-cmninit', '40,3,-1'] }), []);
    assert.equal(cmnSeedArgs(model)[0], '-featparams');
  });
});
