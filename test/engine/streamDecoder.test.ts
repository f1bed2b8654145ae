// The live PocketSphinx decoder's finals. 'rescored': the batch transcript's words: each ended utterance is
// decoded whole (the stretch batch decodes: speech ± uttpadding) on the thread's batch decoder; its final pass
// starts during the trailing silence, before the utterance closes; speech that resumes within uttmaxsilence must
// void that pass, or the final would lose the words after the pause. 'phrases' (the default): that pass is kept
// and the rest of the utterance decoded after it, so the final holds both parts' words. 'none': partials only.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { concatPcm } from '../../src/audio/concatPcm.js';
import { decodeChannels } from '../../src/audio/decode.js';
import { DEFAULT_VAD_PARAMS, detectSpeech } from '../../src/audio/vad.js';
import { decodePcm, freeWarmDecoders } from '../../src/engine/pocketsphinx/decoder.js';
import { StreamDecoder, type FinalPass } from '../../src/engine/pocketsphinx/streamDecoder.js';
import type { Word } from '../../src/transcript/types.js';
import { devDataSkip, loadReferences } from '../helpers/devData.js';
import { wer } from '../helpers/wer.js';
import { pocketSphinxModel } from '../helpers/models.js';

const skip = devDataSkip();
const RATE = 16000;

const model = pocketSphinxModel;

/** The audio through a stream decoder in 100 ms chunks: its finals' words, how many finals and partials. */
function stream(pcm: Int16Array, partials = true, finalPass: FinalPass | 'default' = 'rescored'): { words: Word[]; finals: number; partials: number } {
  const decoder = new StreamDecoder(model(), DEFAULT_VAD_PARAMS, finalPass === 'default' ? undefined : finalPass, partials);
  const words: Word[] = [];
  let finals = 0;
  let shown = 0;
  try {
    const steps = [];
    for (let i = 0; i < pcm.length; i += RATE / 10) steps.push(decoder.accept(pcm.slice(i, i + RATE / 10)));
    steps.push(decoder.finish());
    for (const step of steps) {
      if (step.partial) shown++;
      for (const f of step.finals) {
        finals++;
        words.push(...f.words);
      }
    }
  } finally {
    decoder.free();
  }
  return { words, finals, partials: shown };
}

const concat = concatPcm;

describe('live PocketSphinx stream decoder', { skip }, () => {
  after(() => freeWarmDecoders());

  async function dev(pattern: RegExp): Promise<Int16Array> {
    const file = (loadReferences() ?? []).find((r) => pattern.test(r.audio));
    assert.ok(file, `a dev file matching ${pattern}`);
    return (await decodeChannels(file.path, { sampleRate: RATE })).channels[0];
  }

  test('two recordings with a long pause: two finals, word for word the batch transcript, times included', async () => {
    const pcm = concat([await dev(/jfk/), new Int16Array(RATE * 1.5), await dev(/LJ001-0002/), new Int16Array(RATE)]);
    const batch = decodePcm(model(), pcm, detectSpeech(pcm, RATE, DEFAULT_VAD_PARAMS)).words;
    const live = stream(pcm);
    assert.ok(batch.length > 10);
    assert.ok(live.finals >= 2);
    assert.ok(live.partials > 0);
    assert.deepEqual(live.words.map((w) => [w.word, w.start, w.end]), batch.map((w) => [w.word, w.start, w.end]));
    // No partials asked: no incremental decoding, the same finals.
    const quiet = stream(pcm, false);
    assert.equal(quiet.partials, 0);
    assert.deepEqual(quiet.words, live.words);
  });

  test('speech resuming after a pause (past uttpadding, within uttmaxsilence): one final holding both parts', async () => {
    // A long part, then a short one: the final pass made in the pause is voided, and the utterance has not grown
    // enough for another before it closes, so the final is decoded at the close.
    const first = await dev(/jfk/);
    const pcm = concat([first, new Int16Array(RATE / 2), await dev(/LJ001-0002/), new Int16Array(RATE)]);
    assert.equal(detectSpeech(pcm, RATE, DEFAULT_VAD_PARAMS).length, 1, 'the pause is within uttmaxsilence');
    const live = stream(pcm);
    const batch = decodePcm(model(), pcm, detectSpeech(pcm, RATE, DEFAULT_VAD_PARAMS)).words;
    assert.equal(live.finals, 1);
    assert.deepEqual(live.words.map((w) => w.word), batch.map((w) => w.word));
    // Words after the pause (an early final made during it would lack them).
    assert.ok(live.words.some((w) => w.start > first.length / RATE));
  });

  test("'phrases': the pass made in a pause is kept and the rest decoded after it: one final holding both parts' words", async () => {
    const first = await dev(/jfk/);
    const second = await dev(/LJ001-0002/);
    const pcm = concat([first, new Int16Array(RATE / 2), second, new Int16Array(RATE)]);
    const live = stream(pcm, true, 'phrases');
    assert.equal(live.finals, 1);
    assert.ok(live.partials > 0);
    // Each part as batch decodes it alone: the final is the first part's words, then the second's.
    const alone = (part: Int16Array, offset: number) => decodePcm(model(), part, detectSpeech(part, RATE, DEFAULT_VAD_PARAMS)).words.map((w) => ({ ...w, start: w.start + offset }));
    const parts = [...alone(first, 0), ...alone(second, first.length / RATE + 0.5)];
    const agree = 1 - wer(parts.map((w) => w.word), live.words.map((w) => w.word)).wer;
    assert.ok(agree >= 0.8, `the final agrees with the parts decoded alone: ${(agree * 100).toFixed(1)}%`);
    assert.ok(live.words.some((w) => w.start > first.length / RATE), 'words after the pause');
    assert.ok(live.words.some((w) => w.end < first.length / RATE), 'words before the pause');
    for (let i = 1; i < live.words.length; i++) assert.ok(live.words[i].start >= live.words[i - 1].start, 'words in time order, none twice');
    // The default is 'phrases'.
    assert.deepEqual(stream(pcm, false, 'default').words, stream(pcm, false, 'phrases').words);
  });

  test("'none': partials only, no final, no final pass", async () => {
    const pcm = concat([await dev(/jfk/), new Int16Array(RATE)]);
    const live = stream(pcm, true, 'none');
    assert.equal(live.finals, 0);
    assert.ok(live.partials > 0);
  });
});
