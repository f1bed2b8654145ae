// A decoder kept on a thread and reset per recording (decodeWarm) gives what a fresh decoder gives: the same
// words, times and confidences, whatever it decoded before — and without the reset it would not (the front end's
// noise statistics carry over), so the test would catch a reset that stopped working.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { decodeChannels } from '../../src/audio/decode.js';
import { decodePcm, decoderArgs, decoderStats, decodeWarm, freeWarmDecoders, readSegments } from '../../src/engine/pocketsphinx/decoder.js';
import { loadPocketSphinx } from '../../src/engine/pocketsphinx/binding.js';
import { devDataSkip, loadReferences } from '../helpers/devData.js';
import { pocketSphinxModel } from '../helpers/models.js';

const skip = devDataSkip();

const model = pocketSphinxModel;

describe('warm PocketSphinx decoders', { skip }, () => {
  after(() => freeWarmDecoders());

  // Six channels of the dev set (short ones, both stereo channels among them): enough that carried state shows.
  let pcm: Int16Array[] | undefined;
  async function channels(): Promise<Int16Array[]> {
    if (pcm) return pcm;
    const files = [...new Set((loadReferences() ?? []).map((r) => r.path))].filter((f) => /LJ001-000[2468]|stereo/.test(f));
    pcm = [];
    for (const f of files) pcm.push(...(await decodeChannels(f)).channels);
    return pcm;
  }
  const freshWords = new Map<string, string[]>();
  async function fresh(name: string): Promise<string[]> {
    if (!freshWords.has(name)) freshWords.set(name, (await channels()).map((p) => JSON.stringify(decodePcm(model(name), p).words)));
    return freshWords.get(name)!;
  }

  for (const name of ['en-us:wideband', 'en-us:telephony']) {
    test(`${name}: six dev channels decoded on a kept decoder, in reverse and again in order, equals a fresh decode`, async () => {
      const m = model(name);
      const pcm = await channels();
      assert.ok(pcm.length >= 6, 'the dev set has its channels');
      const expected = await fresh(name);
      const made = decoderStats().created;
      const order = [...pcm.keys()].reverse().concat([...pcm.keys()]);
      for (const i of order) {
        const warm = decodeWarm(m, pcm[i]);
        assert.equal(JSON.stringify(warm.words), expected[i], `channel ${i}: the same words, times and confidences`);
      }
      assert.ok(decoderStats().created - made <= 1, 'one decoder made for the model, then kept');
    });
  }

  test('the same decoder without the reset differs from a fresh one on some channel (what the reset is for)', async () => {
    const m = model('en-us:telephony');
    const pcm = await channels();
    const expected = await fresh('en-us:telephony');
    const lib = loadPocketSphinx();
    const config = lib.parseConfig(decoderArgs(m));
    const decoder = lib.init(config);
    lib.freeConfig(config);
    let differing = 0;
    try {
      for (const [i, samples] of [...pcm.entries()].reverse()) {
        lib.startUtt(decoder);
        lib.processRaw(decoder, samples, false, true);
        lib.endUtt(decoder);
        const words = readSegments(lib, decoder, 0, samples.length / m.sampleRate);
        if (JSON.stringify(words) !== expected[i]) differing++;
      }
    } finally {
      lib.free(decoder);
    }
    assert.ok(differing > 0, 'decoder state carries over between recordings unless a new stream starts');
  });

  test('SCRUBLINE_WARM_DECODERS=0 keeps none: every call makes its decoder', async () => {
    const m = model('en-us:wideband');
    const [samples] = (await channels()).slice(0, 1);
    freeWarmDecoders();
    const before = process.env.SCRUBLINE_WARM_DECODERS;
    process.env.SCRUBLINE_WARM_DECODERS = '0';
    try {
      const made = decoderStats().created;
      const a = decodeWarm(m, samples);
      const b = decodeWarm(m, samples);
      assert.deepEqual(a.words, b.words);
      assert.equal(decoderStats().created - made, 2, 'a decoder made for each call');
      assert.equal(decoderStats().kept, 0);
    } finally {
      if (before === undefined) delete process.env.SCRUBLINE_WARM_DECODERS;
      else process.env.SCRUBLINE_WARM_DECODERS = before;
    }
  });
});
